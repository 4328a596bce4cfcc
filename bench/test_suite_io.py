"""Tests of bench/suite_io.py (no dependencies: these run wherever python3 does).

    python3 -m unittest bench.test_suite_io -v
"""
import ast
import json
import os
import symtable
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from bench.suite_io import geomean, load_suite, model_totals  # noqa: E402

LAYERS = [
    {"name": "a", "op": "conv2d", "model": "m", "count": 3},
    {"name": "b", "op": "conv2d", "model": "m"},
    {"name": "c", "op": "conv2d", "model": "other"},
    {"name": "d", "op": "conv2d"},
]


class SuiteIoTest(unittest.TestCase):
    def write(self, tmp, content):
        path = os.path.join(tmp, "suite.json")
        with open(path, "w") as file:
            json.dump(content, file)
        return path

    def test_both_forms_load_and_models_are_picked(self):
        with tempfile.TemporaryDirectory() as tmp:
            self.assertEqual(load_suite(self.write(tmp, LAYERS)), LAYERS)
            path = self.write(tmp, {"about": "x", "layers": LAYERS})
            self.assertEqual(load_suite(path), LAYERS)
            self.assertEqual([l["name"] for l in load_suite(path, "m,other")], ["a", "b", "c"])
            with self.assertRaisesRegex(ValueError, "no model nope"):
                load_suite(path, "m,nope")

    def test_models_sum_layers_times_counts(self):
        self.assertEqual(model_totals(LAYERS, {"a": 1.0, "b": 2.0, "c": 4.0, "d": 8.0}), {"m": 5.0, "other": 4.0})
        self.assertEqual(model_totals(LAYERS, {"b": 2.0}), {"m": 2.0})

    def test_built_in_zoo_files_cover_fourteen_models_each(self):
        here = os.path.join(os.path.dirname(os.path.abspath(__file__)), "suites")
        for name, batch_one in (("zoo.json", True), ("zoo-throughput.json", False)):
            layers = load_suite(os.path.join(here, name))
            self.assertEqual(len({l["model"] for l in layers}), 14, name)
            self.assertEqual(all(l["n"] == 1 for l in layers), batch_one, name)

    def test_geomean(self):
        self.assertAlmostEqual(geomean([2.0, 8.0]), 4.0)
        self.assertTrue(geomean([]) != geomean([]))  # NaN


class NoShadowedHelperTest(unittest.TestCase):
    """The reference scripts run only where torch or onnxruntime is installed, so a name error in
    their main() shows first on the device. A local that reuses a module-level import's name (as
    `report = json.load(...)` once did) makes every use of that helper in the function fail."""

    def test_no_function_assigns_a_name_the_module_imports(self):
        bench = os.path.dirname(os.path.abspath(__file__))
        for script in ("torch_reference.py", "ort_webgpu_reference.py", "export_suite.py", "make_zoo.py"):
            path = os.path.join(bench, script)
            with open(path) as file:
                source = file.read()
            imported = set()
            for node in ast.walk(ast.parse(source)):
                if isinstance(node, (ast.Import, ast.ImportFrom)):
                    imported |= {(a.asname or a.name).split(".")[0] for a in node.names}
            for function in symtable.symtable(source, path, "exec").get_children():
                if function.get_type() != "function":
                    continue
                shadowed = {s.get_name() for s in function.get_symbols()
                            if s.is_assigned() and s.get_name() in imported and not s.is_imported()}
                self.assertEqual(shadowed, set(), f"{script}: {function.get_name()}() assigns {shadowed}")


if __name__ == "__main__":
    unittest.main()
