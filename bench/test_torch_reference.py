"""Tests of bench/torch_reference.py's whole-model table (needs torch to import; skipped without it).

    python3 -m unittest bench.test_torch_reference -v
"""
import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

try:
    import torch  # noqa: F401
except ImportError:  # pragma: no cover - the CI machine has no torch
    torch = None

SUITE = [
    {"name": "a", "op": "conv2d", "model": "m", "count": 3},
    {"name": "b", "op": "conv2d", "model": "m"},
    {"name": "c", "op": "conv2d", "model": "other", "count": 2},
    {"name": "d", "op": "conv2d"},
]


@unittest.skipIf(torch is None, "needs torch")
class ModelTableTest(unittest.TestCase):
    def test_each_model_is_summed_with_counts_against_both_peers(self):
        from bench.torch_reference import model_table

        ours = {"a": 1.0, "b": 2.0, "c": 0.5, "d": 9.0}
        fp32 = {"a": 2.0, "b": 1.0, "c": 0.5, "d": 1.0}
        tf32 = {"a": 1.0, "b": 1.0, "c": 0.25, "d": 1.0}
        lines = model_table(SUITE, ours, [("torch", fp32), ("torch TF32", tf32)])
        self.assertEqual(lines[0], "| model | wgconv ms | torch ms | ratio (torch/wgconv) | torch TF32 ms | "
                                   "ratio (torch TF32/wgconv) |")
        # m: ours 3·1 + 2 = 5, fp32 3·2 + 1 = 7, TF32 3·1 + 1 = 4; other: ours 1, fp32 1, TF32 0.5.
        self.assertEqual(lines[2:], ["| m | 5.0000 | 7.0000 | 1.40x | 4.0000 | 0.80x |",
                                     "| other | 1.0000 | 1.0000 | 1.00x | 0.5000 | 0.50x |"])

    def test_a_model_is_summed_over_the_layers_every_side_timed(self):
        from bench.torch_reference import model_table

        lines = model_table(SUITE, {"a": 1.0, "b": 2.0}, [("torch", {"a": 2.0, "b": 1.0, "c": 3.0})])
        self.assertEqual(lines[2:], ["| m | 5.0000 | 7.0000 | 1.40x |"])
        self.assertEqual(model_table(SUITE, {}, [("torch", {"a": 1.0})]), [])


if __name__ == "__main__":
    unittest.main()
