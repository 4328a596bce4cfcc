#!/usr/bin/env python3
"""Side A against side B, layer by layer: two binaries, or the planner against a forced kernel.

Each side's time for a layer is its fastest over that side's runs (interleave the runs, A B A B,
in one device call: single runs move with episodes of outside load; see docs/PERFORMANCE.md,
"Measuring pitfalls met"). Prints, over the layers both sides timed, B's speed-up over A
(A ms / B ms) in geometric mean, how many layers moved by more than the noise, the extremes,
each side's kernel, and with `--torch` both sides against cuDNN fp32 and each
model's summed time (with `--suite`).

    python3 bench/ab.py --a plan-1.json plan-2.json --b forced-1.json forced-2.json \\
        --torch t.json --suite bench/results/v44-block-suite.json --label-a planned --label-b direct_block

Run files are `wgconv bench --json` files or their console output, as for bench/best_of.py.
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from bench.best_of import read_run, read_torch  # noqa: E402
from bench.suite_io import geomean, load_suite, model_totals, report  # noqa: E402


def fastest(runs):
    """{layer: (kernel, ms)}: each layer's fastest time over `runs` (read_run's dicts) and the
    kernel that ran it."""
    best = {}
    for run in runs:
        for name, (kernel, ms) in run.items():
            if ms > 0 and (name not in best or ms < best[name][1]):
                best[name] = (kernel, ms)
    return best


def compare(a, b, noise=0.03):
    """The comparison of two `fastest` dicts over their common layers: (speed-ups {layer: A/B},
    geomean, layers faster beyond `noise`, layers slower beyond it)."""
    common = [name for name in a if name in b]
    speedups = {name: a[name][1] / b[name][1] for name in common}
    faster = [n for n in common if speedups[n] > 1 + noise]
    slower = [n for n in common if speedups[n] < 1 - noise]
    return speedups, geomean(speedups.values()), faster, slower


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--a", nargs="+", required=True, help="side A's runs")
    parser.add_argument("--b", nargs="+", required=True, help="side B's runs")
    parser.add_argument("--label-a", default="A")
    parser.add_argument("--label-b", default="B")
    parser.add_argument("--torch", nargs="*", default=[], help="bench/torch_reference.py JSON files")
    parser.add_argument("--suite", help="the suite the runs timed: each model's summed time")
    parser.add_argument("--noise", type=float, default=0.03, help="changes within ±this count as noise")
    parser.add_argument("--extremes", type=int, default=8, help="how many of each end to list")
    parser.add_argument("--markdown", help="also write the report to this file")
    args = parser.parse_args(argv)

    a = fastest(read_run(path) for path in args.a)
    b = fastest(read_run(path) for path in args.b)
    speedups, mean, faster, slower = compare(a, b, args.noise)
    la, lb = args.label_a, args.label_b
    only = sorted(set(a) ^ set(b))
    lines = [
        f"{lb} against {la} over {len(speedups)} layers: {mean:.3f}× in geomean "
        f"({len(faster)} faster, {len(slower)} slower beyond ±{args.noise:.0%})"
        + (f"; timed on one side only: {', '.join(only)}" if only else ""),
    ]
    fp32, _ = read_torch(args.torch) if args.torch else ({}, {})
    with_torch = [n for n in speedups if n in fp32]
    if with_torch:
        ratio = lambda side: geomean(fp32[n] / side[n][1] for n in with_torch)  # noqa: E731
        lines.append(f"against cuDNN fp32 over {len(with_torch)}: {la} {ratio(a):.3f}×, {lb} {ratio(b):.3f}×")
    lines += ["", f"| layer | {la} kernel | {la} ms | {lb} kernel | {lb} ms | {lb} speed-up |" + (" cuDNN fp32 ms |" if fp32 else ""),
              "|---|---|---|---|---|---|" + ("---|" if fp32 else "")]
    ranked = sorted(speedups, key=speedups.get)
    shown = ranked if len(ranked) <= 2 * args.extremes else ranked[: args.extremes] + ranked[-args.extremes :]
    for name in shown:
        row = f"| {name} | {a[name][0]} | {a[name][1]:.4f} | {b[name][0]} | {b[name][1]:.4f} | {speedups[name]:.2f}× |"
        lines.append(row + (f" {fp32[name]:.4f} |" if name in fp32 else " - |" if fp32 else ""))
    if args.suite:
        suite = load_suite(args.suite)
        common = set(speedups)
        ta = model_totals(suite, {n: a[n][1] for n in common})
        tb = model_totals(suite, {n: b[n][1] for n in common})
        tt = model_totals(suite, {n: fp32[n] for n in common if n in fp32})
        lines += ["", f"| model | {la} ms | {lb} ms | {lb} speed-up |" + (" cuDNN fp32 ms |" if tt else ""),
                  "|---|---|---|---|" + ("---|" if tt else "")]
        for model, ms in ta.items():
            row = f"| {model} | {ms:.3f} | {tb[model]:.3f} | {ms / tb[model]:.2f}× |"
            lines.append(row + (f" {tt[model]:.3f} |" if model in tt else " - |" if tt else ""))
    report("\n".join(lines), args.markdown)


if __name__ == "__main__":
    main()
