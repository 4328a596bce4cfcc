"""Writes v44's measuring suites from the zoo suites (run from the repository root):

- v44-block-suite.json: every 2D, one-group, non-transposed layer of the zoo, the throughput zoo
  and the default suite with a filter of 2-49 taps and K = IC x KH x KW <= 1152: the layers
  `direct_block` can run where a GEMM stages a K loop of a few steps (81 layers);
- v44-stats-suite.json: one layer of each filter shape among them (7x7 s2, 4x4 s4, 4x4 s2,
  2x2 s2, 3x3 s2, 3x3 s1), for `--pipeline-stats` with `direct_block` forced;
- v44-weak-suite.json: the throughput zoo's layers last measured below 0.75x cuDNN fp32 (v41-v43),
  for `--sweep` and `--tune` (every kernel and configuration that can run them).
"""
import json

SUITES = ["bench/suites/zoo-throughput.json", "bench/suites/zoo.json", "bench/suites/default.json"]
STATS = [
    "resnet50_b32_conv1",
    "convnext_tiny_b32_features_0_0",
    "pix2pix_generator_b16_model_down",
    "convnext_tiny_b32_features_2_1",
    "yolov8n_b16_b1_conv",
    "yolov8n_b16_b6_m_0_cv1_conv",
]
WEAK = [
    "resnet50_b32_layer2_0_conv2",
    "resnet50_b32_layer2_0_downsample_0",
    "resnet50_b32_layer3_0_conv1",
    "yolov8n_b16_b1_conv",
    "yolov8n_b16_b6_m_0_cv1_conv",
    "yolov8n_b16_h16_conv",
    "dcgan_generator_b64_main_4",
    "pix2pix_generator_b16_model_sub_sub_down",
    "pix2pix_generator_b16_model_up",
]


def layers(transposed=False):
    for path in SUITES:
        suite = json.load(open(path))
        for layer in suite["layers"] if isinstance(suite, dict) else suite:
            if transposed or (layer.get("op", "conv2d") == "conv2d" and "w" in layer and not layer.get("transposed")):
                yield layer


def block_shaped(layer):
    k = layer.get("k", 1)
    taps = layer.get("kh", k) * layer.get("kw", k)
    return layer.get("groups", 1) == 1 and 1 < taps <= 49 and layer["ic"] * taps <= 1152


block = [dict(layer, model=layer.get("model", "default")) for layer in layers() if block_shaped(layer)]
stats = [layer for layer in block if layer["name"] in STATS]
weak = [layer for layer in layers(transposed=True) if layer["name"] in WEAK]
assert len(weak) == len(WEAK)
for name, chosen in [("v44-block-suite.json", block), ("v44-stats-suite.json", stats), ("v44-weak-suite.json", weak)]:
    about = f"v44 measuring suite written by bench/results/v44-suites.py from {', '.join(SUITES)}"
    with open(f"bench/results/{name}", "w") as f:
        json.dump({"about": about, "layers": chosen}, f, indent=1)
    print(name, len(chosen))
