"""Tests of bench/ab.py (no dependencies: these run wherever python3 does).

    python3 -m unittest bench.test_ab -v
"""
import contextlib
import io
import json
import os
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from bench.ab import compare, fastest, main  # noqa: E402


def bench_json(layers):
    return {"layers": [{"name": n, "kernel": k, "median_ms": ms} for n, k, ms in layers]}


class AbTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.addCleanup(self.tmp.cleanup)

    def write(self, name, content):
        path = os.path.join(self.tmp.name, name)
        with open(path, "w") as file:
            file.write(content if isinstance(content, str) else json.dumps(content))
        return path

    def test_each_side_keeps_its_fastest_run(self):
        runs = [{"a": ("k1", 0.3), "b": ("k2", 0.1)}, {"a": ("k1", 0.2), "b": ("k2", 0.0)}]
        self.assertEqual(fastest(runs), {"a": ("k1", 0.2), "b": ("k2", 0.1)})

    def test_speedups_and_noise(self):
        a = {"x": ("k", 1.0), "y": ("k", 1.0), "z": ("k", 1.0), "only_a": ("k", 1.0)}
        b = {"x": ("k", 0.5), "y": ("k", 1.01), "z": ("k", 2.0)}
        speedups, mean, faster, slower = compare(a, b)
        self.assertEqual(speedups, {"x": 2.0, "y": 1.0 / 1.01, "z": 0.5})
        self.assertAlmostEqual(mean, (2.0 / 1.01 * 0.5) ** (1 / 3))
        self.assertEqual((faster, slower), (["x"], ["z"]))

    def test_report_with_cudnn_and_models(self):
        a = [self.write("a1.json", bench_json([("l1", "gemm", 0.4), ("l2", "gemm", 0.2)])),
             self.write("a2.txt", "1/2 l1 gemm 0.3000 ms \n")]
        b = [self.write("b1.json", bench_json([("l1", "direct_block", 0.15), ("l2", "direct_block", 0.25)]))]
        torch = self.write("t.json", {"torch_ms": {"l1": 0.3, "l2": 0.2}})
        suite = self.write("s.json", [{"name": "l1", "model": "m", "count": 2}, {"name": "l2", "model": "m"}])
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            main(["--a", *a, "--b", *b, "--torch", torch, "--suite", suite, "--label-b", "block"])
        text = out.getvalue()
        self.assertIn("block against A over 2 layers: 1.265× in geomean (1 faster, 1 slower", text)
        self.assertIn("| l1 | gemm | 0.3000 | direct_block | 0.1500 | 2.00× | 0.3000 |", text)
        self.assertIn("against cuDNN fp32 over 2: A 1.000×, block 1.265×", text)
        self.assertIn("| m | 0.800 | 0.550 | 1.45× | 0.800 |", text)


if __name__ == "__main__":
    unittest.main()
