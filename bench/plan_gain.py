#!/usr/bin/env python3
"""What a changed planner would gain, read from runs already made: for each layer, the time of the
kernel a new plan picks, taken from a run of the old planner where the kernel is the same and
from runs with that kernel forced (`wgconv bench --kernel K`) where it is not. How the planner's
rules are refitted (docs/PERFORMANCE.md, v49) without timing every candidate rule on the device.

    wgconv plan --suite S --json new-plan.json            # the candidate rules' build
    python3 bench/plan_gain.py --plan new-plan.json --planned p-planned.json \\
        --forced p-gemm_k16.json p-gemm_m64_k16.json --suite S

Each layer keeps its fastest time over the runs of a kind. A forced run launches its kernel with
the planner's tile width and K-slices for that kernel, which are what the plan launches it with
too. Layers whose new kernel no run timed, or that no run of the old planner timed, are listed
and left out of the mean (and of the models' sums, which cover the measured layers only). Runs
made with `--tune` label layers by configuration (`gemm_k16/k4`): use untuned runs. In-sample: the
estimate holds for the layers the runs timed, which are usually those the rules were read from.
Run files are `wgconv bench --json` files or their console output, as for bench/best_of.py.
"""
import argparse
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from bench.ab import fastest  # noqa: E402
from bench.best_of import read_run  # noqa: E402
from bench.suite_io import geomean, load_suite, model_totals, report  # noqa: E402


def read_plan(path):
    """{layer: kernel} of a `wgconv plan --json` file."""
    with open(path) as file:
        return {layer["name"]: layer["kernel"] for layer in json.load(file)["layers"]}


def estimate(plan, planned, forced):
    """(old {layer: ms}, new {layer: ms}, moved [(layer, old kernel, new kernel)], unmeasured
    [(layer, new kernel)]) over the layers `plan` covers; `planned` is a `fastest` dict of the old
    planner's runs (a layer it lacks is unmeasured), `forced` a list of `fastest` dicts of forced
    runs."""
    old, new, moved, unmeasured = {}, {}, [], []
    unmeasured += [(name, kernel) for name, kernel in plan.items() if name not in planned]
    for name, (kernel, ms) in planned.items():
        if name not in plan:
            continue
        wanted = plan[name]
        if wanted == kernel:
            old[name], new[name] = ms, ms
            continue
        times = [run[name][1] for run in forced if name in run and run[name][0] == wanted]
        if not times:
            unmeasured.append((name, wanted))
            continue
        old[name], new[name] = ms, min(times)
        moved.append((name, kernel, wanted))
    return old, new, moved, unmeasured


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--plan", required=True, help="`wgconv plan --json` of the new planner")
    parser.add_argument("--planned", nargs="+", required=True, help="runs of the old planner")
    parser.add_argument("--forced", nargs="*", default=[], help="runs with a kernel forced")
    parser.add_argument("--suite", help="the suite the runs timed: each model's summed time")
    parser.add_argument("--markdown", help="also write the report to this file")
    args = parser.parse_args(argv)

    plan = read_plan(args.plan)
    planned = fastest(read_run(path) for path in args.planned)
    forced = [fastest([read_run(path)]) for path in args.forced]
    old, new, moved, unmeasured = estimate(plan, planned, forced)
    lines = [f"the new plan over {len(old)} layers: {geomean(old[n] / new[n] for n in old):.3f}× in geomean, "
             f"{len(moved)} moved, {len(unmeasured)} unmeasured", "",
             "| layer | old kernel | old ms | new kernel | new ms | speed-up |", "|---|---|---|---|---|---|"]
    for name, was, now in sorted(moved, key=lambda m: old[m[0]] / new[m[0]]):
        lines.append(f"| {name} | {was} | {old[name]:.4f} | {now} | {new[name]:.4f} | {old[name] / new[name]:.3f}× |")
    for name, now in unmeasured:
        was, ms = planned.get(name, ("not timed", None))
        lines.append(f"| {name} | {was} | {'' if ms is None else f'{ms:.4f}'} | {now} | not timed | |")
    if args.suite:
        suite = load_suite(args.suite)
        before, after = model_totals(suite, old), model_totals(suite, new)
        lines += ["", "| model | old ms | new ms | speed-up |", "|---|---|---|---|"]
        lines += [f"| {m} | {before[m]:.3f} | {after[m]:.3f} | {before[m] / after[m]:.3f}× |"
                  for m in before if before[m] != after[m]]
    report("\n".join(lines), args.markdown)


if __name__ == "__main__":
    main()
