"""Writes v43's measuring suites from the zoo suites (run from the repository root):

- v43-pw-suite.json: every 1x1, stride-1, unpadded, one-group 2D layer whose plane is whole
  vec4s (the layers `pointwise_vec4` can run) of the zoo, the throughput zoo and the default
  suite: 203 layers;
- v43-dw-suite.json: the depthwise layers with 25+ taps and outputs 8+ rows tall but under 32
  columns wide, which R5 (v42) keeps off `depthwise_tiled`: those at 14² now run the row runs;
  those with 28-column outputs run `depthwise_vec4` (R4, before R5) as before.

(`v43-pw-changed.json`, call B's suite, was written from v43-pw-suite.json with R46's first
form's thresholds and call A's planned run; its `about` says so.)
"""
import json

SUITES = ["bench/suites/zoo-throughput.json", "bench/suites/zoo.json", "bench/suites/default.json"]


def layers():
    for path in SUITES:
        suite = json.load(open(path))
        for layer in suite["layers"] if isinstance(suite, dict) else suite:
            if layer.get("op", "conv2d") == "conv2d" and "w" in layer and not layer.get("transposed"):
                yield layer


def out_size(layer, size):
    k, s, p = layer.get("k", 1), layer.get("stride", 1), layer.get("padding", 0)
    return (size + 2 * p - k) // s + 1


def pointwise(layer):
    return (
        layer.get("k", 1) == 1
        and layer.get("stride", 1) == 1
        and layer.get("padding", 0) == 0
        and layer.get("groups", 1) == 1
        and "dilation" not in layer
        and layer["h"] * layer["w"] % 4 == 0
    )


def narrow_large_depthwise(layer):
    return (
        layer.get("groups", 1) == layer["ic"] == layer["oc"]
        and layer.get("k", 1) ** 2 >= 25
        and out_size(layer, layer["h"]) >= 8
        and out_size(layer, layer["w"]) < 32
    )


for name, keep in [("v43-pw-suite.json", pointwise), ("v43-dw-suite.json", narrow_large_depthwise)]:
    chosen = [dict(layer, model=layer.get("model", "default")) for layer in layers() if keep(layer)]
    about = f"v43 measuring suite written by bench/results/v43-suites.py from {', '.join(SUITES)}"
    with open(f"bench/results/{name}", "w") as f:
        json.dump({"about": about, "layers": chosen}, f, indent=1)
    print(name, len(chosen))
