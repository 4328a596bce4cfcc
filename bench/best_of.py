#!/usr/bin/env python3
"""Best-of-runs comparison of wgconv's planner with cuDNN across several runs and device calls.

On the H200 some wgconv runs come out uniformly slower (every layer, kernels changed or not; see
docs/PERFORMANCE.md, "Measuring pitfalls met"), so a single run can misstate a planner. This takes
each layer's kernel from the planner's runs (`--planned`), its time as the fastest of every run
(`--runs`) in which that same kernel ran, and cuDNN's as the fastest of the `--torch` files; with
`--before`, the previous planner's kernels are scored the same way. It prints the geometric mean
against cuDNN fp32 (and TF32), the layers under 0.75×, each model's summed conv time and the
slowest layers. Both sides are best-of: an estimate, not a same-call measurement.

    python3 bench/best_of.py --suite bench/suites/zoo.json \\
        --planned after-A.json after-B.json --before before-A.json before-B.txt \\
        --runs *.json *.txt --torch torch-1.json torch-2.json

Run files are `wgconv bench --json` files or their console output (`i/N name kernel ms` lines).
"""
import argparse
import json
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from bench.suite_io import geomean, load_suite, model_totals, report  # noqa: E402

# A console line of `wgconv bench`: "12/316 resnet50_layer1_0_conv2 gemm_small_k32 0.0242 ms ...".
CONSOLE_LINE = re.compile(r"\s*\d+/\d+ (\S+) (\S+) ([0-9.]+) ms")


def read_run(path):
    """{layer: (kernel, ms)} of one `wgconv bench` run: its JSON file, or its console output (what a
    run cut short by a timeout leaves; with `--rounds` it has a line per round, and the fastest
    counts, as in the JSON)."""
    with open(path) as file:
        text = file.read()
    try:
        layers = json.loads(text)["layers"]
    except (ValueError, KeyError, TypeError):
        fastest = {}
        for m in filter(None, (CONSOLE_LINE.match(line) for line in text.splitlines())):
            name, kernel, ms = m.group(1), m.group(2), float(m.group(3))
            if name not in fastest or ms < fastest[name][1]:
                fastest[name] = (kernel, ms)
        return fastest
    return {layer["name"]: (layer["kernel"], layer["median_ms"]) for layer in layers}


def read_torch(paths):
    """({layer: fastest cuDNN fp32 ms}, {layer: fastest TF32 ms}) over `bench/torch_reference.py`
    JSON files."""
    fp32, tf32 = {}, {}
    for path in paths:
        with open(path) as file:
            data = json.load(file)
        for best, key in ((fp32, "torch_ms"), (tf32, "torch_tf32_ms")):
            for name, ms in (data.get(key) or {}).items():
                if ms and ms > 0:
                    best[name] = min(ms, best.get(name, ms))
    return fp32, tf32


def planned_kernels(paths):
    """{layer: kernel} from the planner's runs (a later file wins where they overlap)."""
    kernels = {}
    for path in paths:
        kernels.update({name: kernel for name, (kernel, _) in read_run(path).items()})
    return kernels


def best_times(kernels, runs):
    """{layer: fastest ms among `runs` in which the layer ran `kernels[layer]`}; layers no run timed
    with that kernel are left out."""
    best = {}
    for run in runs:
        for name, (kernel, ms) in run.items():
            if kernels.get(name) == kernel and ms > 0:
                best[name] = min(ms, best.get(name, ms))
    return best


def summary(suite, times, fp32, tf32, label):
    """Lines of the comparison of `times` with cuDNN: geometric means, layers under 0.75× and the
    models' summed conv times (over the layers both sides timed)."""
    names = [layer["name"] for layer in suite if layer["name"] in times and layer["name"] in fp32]
    ratios = {name: fp32[name] / times[name] for name in names}
    with_tf32 = [n for n in names if n in tf32]
    tf32_text = ""
    if with_tf32:
        tf32_text = f", {geomean(tf32[n] / times[n] for n in with_tf32):.3f}× TF32"
        if len(with_tf32) != len(names):
            tf32_text += f" (over the {len(with_tf32)} with a TF32 time)"
    lines = [
        f"{label}: {len(names)} layers, geomean {geomean(ratios.values()):.3f}× cuDNN fp32{tf32_text}"
        + f"; {sum(r < 0.75 for r in ratios.values())} under 0.75×"
    ]
    # A model's sum only when both sides timed every one of its layers.
    timed = set(names)
    complete = {layer["model"] for layer in suite if "model" in layer}
    complete -= {layer["model"] for layer in suite if "model" in layer and layer["name"] not in timed}
    ours = {m: ms for m, ms in model_totals(suite, {n: times[n] for n in names}).items() if m in complete}
    theirs = {m: ms for m, ms in model_totals(suite, {n: fp32[n] for n in names}).items() if m in complete}
    at_par = sum(theirs[m] >= ours[m] for m in ours)
    lines.append(f"{label}: {at_par} of {len(ours)} models with every layer timed at ≥ 1.0× cuDNN fp32 (summed conv time)")
    return lines, ratios, ours, theirs


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--suite", required=True, help="the suite file the runs timed")
    parser.add_argument("--planned", nargs="+", required=True, help="runs of the planner to score")
    parser.add_argument("--before", nargs="*", default=[], help="runs of the previous planner")
    parser.add_argument("--runs", nargs="+", required=True, help="every run whose times may count")
    parser.add_argument("--torch", nargs="+", required=True, help="bench/torch_reference.py JSON files")
    parser.add_argument("--worst", type=int, default=10, help="how many of the slowest layers to list")
    parser.add_argument("--markdown", help="also write the report to this file")
    args = parser.parse_args(argv)

    suite = load_suite(args.suite)
    runs = [read_run(path) for path in args.runs]
    fp32, tf32 = read_torch(args.torch)
    kernels = planned_kernels(args.planned)
    times = best_times(kernels, runs)
    lines, ratios, ours, theirs = summary(suite, times, fp32, tf32, "planned")
    before_ours = {}
    if args.before:
        before = best_times(planned_kernels(args.before), runs)
        before_lines, _, before_ours, _ = summary(suite, before, fp32, tf32, "before")
        lines += before_lines
    lines += ["", "| model | ms | cuDNN fp32 ms | ratio |" + (" before |" if before_ours else ""),
              "|---|---|---|---|" + ("---|" if before_ours else "")]
    for model, ms in ours.items():
        row = f"| {model} | {ms:.3f} | {theirs[model]:.3f} | {theirs[model] / ms:.2f}× |"
        if before_ours:
            row += f" {theirs[model] / before_ours[model]:.2f}× |" if model in before_ours else " - |"
        lines.append(row)
    lines += ["", f"slowest {args.worst} against cuDNN fp32:"]
    for name in sorted(ratios, key=ratios.get)[: args.worst]:
        lines.append(f"  {ratios[name]:.2f}× {name} {kernels[name]} {times[name]:.4f} ms (cuDNN {fp32[name]:.4f})")
    report("\n".join(lines), args.markdown)


if __name__ == "__main__":
    main()
