"""v51 call B's K-loop refit: the throughput zoo run three times by one binary (planned, and
with `--k-tile-loads ahead` and `in_iteration` forced). For each layer a 16-deep staged tile runs,
the speed-up of loading each K-tile in its own iteration over loading it a K-tile ahead, per
kernel; and copies of the two forced runs in which layers whose forced loop is not the planned
one are renamed (`<kernel>-not-planned-loads`), so `bench/best_of.py` counts only runs of the
planned configuration. The planned loop per kernel is `ConvKernel::fitted_k_tile_loads` at the
planner's widths: in the iteration on `gemm_k16` and `gemm_n64_k16`, ahead on `gemm_m64_k16`.

    python3 bench/results/v51-loads.py bench/results/v51-h100-callB /tmp/v51b
"""
import collections
import json
import math
import sys

PLANNED = {"gemm_k16": "in_iteration", "gemm_n64_k16": "in_iteration", "gemm_m64_k16": "ahead"}


def layers(path):
    with open(path) as f:
        return {layer["name"]: layer for layer in json.load(f)["layers"]}


def main(prefix, out_dir):
    ahead, in_iteration = layers(f"{prefix}-zt-ahead.json"), layers(f"{prefix}-zt-in_iteration.json")
    speedups = collections.defaultdict(list)
    for name, layer in ahead.items():
        if layer["kernel"] in PLANNED and in_iteration[name]["kernel"] == layer["kernel"]:
            speedups[layer["kernel"]].append(layer["median_ms"] / in_iteration[name]["median_ms"])
    for kernel, values in sorted(speedups.items()):
        geomean = math.exp(sum(map(math.log, values)) / len(values))
        faster = sum(v > 1.03 for v in values)
        slower = sum(v < 1 / 1.03 for v in values)
        print(f"{kernel}: {len(values)} layers, in the iteration {geomean:.3f}× ahead's speed "
              f"({faster} faster, {slower} slower beyond ±3 %, range {min(values):.2f}–{max(values):.2f}×)")
    for loads in ("ahead", "in_iteration"):
        with open(f"{prefix}-zt-{loads}.json") as f:
            run = json.load(f)
        for layer in run["layers"]:
            if PLANNED.get(layer["kernel"], loads) != loads:
                layer["kernel"] += "-not-planned-loads"
        with open(f"{out_dir}/zt-{loads}-asplanned.json", "w") as f:
            json.dump(run, f)


if __name__ == "__main__":
    main(*sys.argv[1:])
