"""v55's zoo-extra estimate (docs/PERFORMANCE.md, section v55): v54 call C's zoo-extra times on
the v54 planner's draft, each layer R60 moves scaled by v55 call C's paired speed-up (the planner
before R60 against the committed one, interleaved twice, the faster of each), against v54 call
A's cuDNN fp32 times. Prints the moved layers, the geomean, the layers below 0.75x and each
model's summed time. Run from the repository root: python3 bench/results/v55-zoo-extra-estimate.py
"""
import json
import math

R = "bench/results/"
zoo = json.load(open(R + "v54-h100-callC-ze.json"))
torch = json.load(open(R + "v54-h100-callA-t.json"))
fp32, tf32 = torch["torch_ms"], torch["torch_tf32_ms"]
fastest = {"b2": {}, "r2": {}}
for build, times in fastest.items():
    for i in (1, 2):
        for layer in json.load(open(f"{R}v55-h100-callC-m-{build}-{i}.json"))["layers"]:
            times[layer["name"]] = min(times.get(layer["name"], math.inf), layer["median_ms"])
speedup = {n: fastest["b2"][n] / fastest["r2"][n] for n in fastest["r2"]}

logs = {"before": [], "after": []}
below = {"before": 0, "after": 0}
models = {}
for layer in zoo["layers"]:
    name, before = layer["name"], layer["median_ms"]
    after = before / speedup.get(name, 1.0)
    for side, ms in (("before", before), ("after", after)):
        ratio = fp32[name] / ms
        logs[side].append(math.log(ratio))
        below[side] += ratio < 0.75
    if name in speedup:
        print(f"moved {name}: {fp32[name] / before:.2f}x -> {fp32[name] / after:.2f}x cuDNN fp32")
    sums = models.setdefault(layer["model"], [0.0, 0.0, 0.0, 0.0])
    for i, ms in enumerate((before, after, fp32[name], tf32[name])):
        sums[i] += ms * layer["count"]
for side in logs:
    geomean = math.exp(sum(logs[side]) / len(logs[side]))
    print(f"{side}: {geomean:.3f}x cuDNN fp32 in geomean, {below[side]} layers below 0.75x")
for model, (before, after, cudnn, cudnn_tf32) in models.items():
    print(f"{model:26s} {before:8.3f} -> {after:8.3f} ms, cuDNN {cudnn:8.3f}: {cudnn / before:.3f}x -> {cudnn / after:.3f}x (TF32 {cudnn_tf32 / after:.2f}x)")
print("models >= 1.0x:", sum(c / a >= 1.0 for _, a, c, _ in models.values()), "of", len(models))
