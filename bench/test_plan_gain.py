"""Tests of bench/plan_gain.py (no dependencies: these run wherever python3 does).

    python3 -m unittest bench.test_plan_gain -v
"""
import contextlib
import io
import json
import os
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from bench.plan_gain import estimate, main  # noqa: E402


def bench_json(layers):
    return {"layers": [{"name": n, "kernel": k, "median_ms": ms} for n, k, ms in layers]}


class PlanGainTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.addCleanup(self.tmp.cleanup)

    def write(self, name, content):
        path = os.path.join(self.tmp.name, name)
        with open(path, "w") as file:
            json.dump(content, file)
        return path

    def test_moved_layers_take_the_forced_time_of_the_new_kernel(self):
        plan = {"same": "k1", "moved": "k2", "untimed": "k3", "forced_fell_back": "k2", "cut_short": "k1"}
        planned = {"same": ("k1", 1.0), "moved": ("k1", 2.0), "untimed": ("k1", 1.0),
                   "forced_fell_back": ("k1", 1.0), "not_in_plan": ("k1", 1.0)}
        # A forced run that could not run its kernel on a layer ran the planner's (k1) there.
        forced = [{"moved": ("k2", 1.5), "forced_fell_back": ("k1", 0.9)}, {"moved": ("k2", 1.0)}]
        old, new, moved, unmeasured = estimate(plan, planned, forced)
        self.assertEqual(old, {"same": 1.0, "moved": 2.0})
        self.assertEqual(new, {"same": 1.0, "moved": 1.0})
        self.assertEqual(moved, [("moved", "k1", "k2")])
        self.assertEqual(unmeasured, [("cut_short", "k1"), ("untimed", "k3"), ("forced_fell_back", "k2")])

    def test_report_with_model_sums(self):
        plan = self.write("plan.json", {"layers": [{"name": "a", "kernel": "k2"}, {"name": "b", "kernel": "k1"}]})
        planned = [self.write(f"p{i}.json", bench_json([("a", "k1", 2.0 + i), ("b", "k1", 1.0)])) for i in (0, 1)]
        forced = self.write("f.json", bench_json([("a", "k2", 1.0), ("b", "k2", 0.5)]))
        suite = self.write("s.json", [{"name": "a", "model": "m", "count": 2}, {"name": "b", "model": "m"}])
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            main(["--plan", plan, "--planned", *planned, "--forced", forced, "--suite", suite])
        text = out.getvalue()
        self.assertIn("over 2 layers: 1.414× in geomean, 1 moved, 0 unmeasured", text)
        self.assertIn("| a | k1 | 2.0000 | k2 | 1.0000 | 2.000× |", text)
        self.assertIn("| m | 5.000 | 3.000 | 1.667× |", text)


if __name__ == "__main__":
    unittest.main()
