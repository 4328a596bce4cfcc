"""Tests of bench/best_of.py (no dependencies: these run wherever python3 does).

    python3 -m unittest bench.test_best_of -v
"""
import contextlib
import io
import json
import os
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from bench.best_of import best_times, main, planned_kernels, read_run, read_torch  # noqa: E402

SUITE = [
    {"name": "a", "op": "conv2d", "model": "m", "count": 2},
    {"name": "b", "op": "conv2d", "model": "m"},
    {"name": "c", "op": "conv2d", "model": "n"},
]


def bench_json(layers):
    return {"layers": [{"name": n, "kernel": k, "median_ms": ms} for n, k, ms in layers]}


class BestOfTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.addCleanup(self.tmp.cleanup)

    def write(self, name, content):
        path = os.path.join(self.tmp.name, name)
        with open(path, "w") as file:
            file.write(content if isinstance(content, str) else json.dumps(content))
        return path

    def test_console_output_reads_as_a_run(self):
        path = self.write("run.txt", "device: X\n1/3 a gemm_small_k32 0.0200 ms \n2/3 b gemm_n64_k32 0.1000 ms 1.2x\n")
        self.assertEqual(read_run(path), {"a": ("gemm_small_k32", 0.02), "b": ("gemm_n64_k32", 0.1)})
        # `--rounds 2`: a line per pass, the fastest counts.
        path = self.write("rounds.txt", "1/4 a k1 0.0300 ms \n2/4 b k2 0.1000 ms \n3/4 a k1 0.0200 ms \n4/4 b k2 0.1100 ms \n")
        self.assertEqual(read_run(path), {"a": ("k1", 0.02), "b": ("k2", 0.1)})
        path = self.write("run.json", bench_json([("a", "gemv", 0.01)]))
        self.assertEqual(read_run(path), {"a": ("gemv", 0.01)})

    def test_only_runs_of_the_planned_kernel_count(self):
        planned = self.write("planned.json", bench_json([("a", "k1", 0.5), ("b", "k2", 0.4)]))
        kernels = planned_kernels([planned])
        runs = [
            {"a": ("k1", 0.3), "b": ("k9", 0.01)},  # b ran another kernel here: not counted
            {"a": ("k1", 0.4), "b": ("k2", 0.2)},
        ]
        self.assertEqual(best_times(kernels, runs), {"a": 0.3, "b": 0.2})
        # A layer no run timed with its planned kernel is left out.
        self.assertEqual(best_times({"a": "k5"}, runs), {})

    def test_cudnn_is_the_fastest_of_the_files(self):
        t1 = self.write("t1.json", {"torch_ms": {"a": 0.2, "b": 0.5}, "torch_tf32_ms": {"a": 0.1}})
        t2 = self.write("t2.json", {"torch_ms": {"a": 0.3, "b": 0.4}})
        self.assertEqual(read_torch([t1, t2]), ({"a": 0.2, "b": 0.4}, {"a": 0.1}))

    def test_report(self):
        suite = self.write("suite.json", {"layers": SUITE})
        after = self.write("after.json", bench_json([("a", "k1", 0.9), ("b", "k1", 0.9), ("c", "k2", 0.9)]))
        before = self.write("before.json", bench_json([("a", "k0", 0.6), ("b", "k1", 0.25), ("c", "k2", 1.0)]))
        runs = self.write("runs.json", bench_json([("a", "k1", 0.1), ("b", "k1", 0.2), ("c", "k2", 0.5)]))
        torch = self.write("torch.json", {"torch_ms": {"a": 0.1, "b": 0.3, "c": 0.25}})
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            main(["--suite", suite, "--planned", after, "--before", before, "--runs", after, before, runs,
                  "--torch", torch, "--worst", "1"])
        text = out.getvalue()
        # Planned: a 0.1 (1.0×), b 0.2 (1.5×), c 0.5 (0.5×); model m 0.4 against cuDNN's 0.5.
        self.assertIn("planned: 3 layers, geomean 0.909× cuDNN fp32; 1 under 0.75×", text)
        self.assertIn("| m | 0.400 | 0.500 | 1.25× |", text)
        # Before: a's k0 only ran at 0.6 (0.17×), b 0.2 (1.5×), c 0.5 (0.5×): m 1.4 ms against 0.5.
        self.assertIn("before: 3 layers, geomean 0.500× cuDNN fp32; 2 under 0.75×", text)
        self.assertIn("planned: 1 of 2 models with every layer timed", text)
        self.assertIn("| m | 0.400 | 0.500 | 1.25× | 0.36× |", text)
        self.assertIn("0.50× c k2 0.5000 ms (cuDNN 0.2500)", text)


if __name__ == "__main__":
    unittest.main()
