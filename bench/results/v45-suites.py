"""Writes v45's measuring suite from the committed suites (run from the repository root):

- v45-fewoc-suite.json: every layer that `few_oc` or `transposed_few_oc` can run in
  bench/suites/few-oc.json and in the zoo, the throughput zoo and the default suite (direct
  layers of 2-4 output channels per group, transposed ones of at most 4), each once, for the
  `few4` measuring build of `v45-variants.py` against the committed kernels.
"""
import json

SUITES = ["bench/suites/few-oc.json", "bench/suites/zoo-throughput.json", "bench/suites/zoo.json", "bench/suites/default.json"]


def few_oc(layer):
    if layer.get("op", "conv2d") not in ("conv2d", "conv_transpose2d", "conv1d", "conv_transpose1d"):
        return False
    ocg = layer["oc"] // layer.get("groups", 1)
    transposed = layer.get("op", "").startswith("conv_transpose") or layer.get("transposed", False)
    return ocg <= 4 if transposed else 2 <= ocg <= 4


chosen, seen = [], set()
for path in SUITES:
    suite = json.load(open(path))
    for layer in suite["layers"] if isinstance(suite, dict) else suite:
        if few_oc(layer) and layer["name"] not in seen:
            seen.add(layer["name"])
            chosen.append(dict(layer, model=layer.get("model", path.split("/")[-1][:-5])))
about = f"v45 measuring suite written by bench/results/v45-suites.py from {', '.join(SUITES)}"
with open("bench/results/v45-fewoc-suite.json", "w") as f:
    json.dump({"about": about, "layers": chosen}, f, indent=1)
print("v45-fewoc-suite.json", len(chosen))
