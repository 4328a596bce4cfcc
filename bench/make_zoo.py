#!/usr/bin/env python3
"""Writes the model-zoo suites from the models' definitions with bench/export_suite.py:

    python3 bench/make_zoo.py            # -> bench/suites/zoo.json, bench/suites/zoo-throughput.json

`zoo.json` has every distinct conv of each model at batch 1, `zoo-throughput.json` at the model's
throughput batch (below); each layer names its model (`resnet50`, `resnet50_b32`), so `wgconv bench`
and bench/torch_reference.py sum each model's conv time. torchvision models come from
`torchvision.models` (weights not needed: shapes only); the rest from bench/zoo_models.py, whose
docstrings name the published definition each one follows. Needs torch and torchvision; nothing is
computed (the models run on the meta device).
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from bench.export_suite import export, load_model, write_suite  # noqa: E402

# (name, model spec for export_suite.load_model, input shape without the batch, throughput batch, source)
ZOO = [
    ("resnet50", "resnet50", (3, 224, 224), 32, "torchvision.models.resnet50"),
    ("mobilenet_v2", "mobilenet_v2", (3, 224, 224), 32, "torchvision.models.mobilenet_v2"),
    ("mobilenet_v3_large", "mobilenet_v3_large", (3, 224, 224), 32, "torchvision.models.mobilenet_v3_large"),
    ("efficientnet_b0", "efficientnet_b0", (3, 224, 224), 32, "torchvision.models.efficientnet_b0"),
    ("convnext_tiny", "convnext_tiny", (3, 224, 224), 32,
     "torchvision.models.convnext_tiny (its 1x1 layers are nn.Linear, not convs)"),
    ("regnet_y_1_6gf", "regnet_y_1_6gf", (3, 224, 224), 32, "torchvision.models.regnet_y_1_6gf"),
    ("yolov8n", "bench.zoo_models:yolov8n", (3, 640, 640), 16, "ultralytics yolov8.yaml, scale n"),
    ("sd_vae_decoder", "bench.zoo_models:sd_vae_decoder", (4, 64, 64), 4,
     "diffusers AutoencoderKL decoder, SD 1.x config, 512x512 image"),
    ("sd15_unet", "bench.zoo_models:sd15_unet", (4, 64, 64), 8,
     "diffusers UNet2DConditionModel, SD 1.5 config, 64x64 latent"),
    ("davit_florence2", "bench.zoo_models:davit_florence2", (3, 768, 768), 8,
     "DaViT as in Florence-2 base's vision tower, 768x768"),
    ("whisper_base", "bench.zoo_models:whisper_base", (80, 3000), 16, "openai whisper AudioEncoder, base"),
    ("wav2vec2_base", "bench.zoo_models:wav2vec2_base", (1, 160000), 16,
     "wav2vec 2.0 base feature encoder, 10 s of 16 kHz audio"),
    ("dcgan_generator", "bench.zoo_models:dcgan_generator", (100, 1, 1), 64, "pytorch/examples dcgan, 64x64"),
    ("pix2pix_generator", "bench.zoo_models:pix2pix_generator", (3, 256, 256), 16,
     "pytorch-CycleGAN-and-pix2pix unet_256"),
]


def build(throughput):
    """(layers, about) of the zoo at batch 1, or at each model's throughput batch."""
    layers, sources = [], []
    for name, spec, shape, batch, source in ZOO:
        n = batch if throughput else 1
        model = f"{name}_b{n}" if throughput else name
        layers += export(lambda spec=spec: load_model(spec), [(n, *shape)], model)
        sources.append(f"{model} ({source}, input {'x'.join(map(str, (n, *shape)))})")
    kind = "at a throughput batch" if throughput else "at batch 1"
    about = (f"Model zoo {kind}: every distinct conv of each model with its count, recorded by "
             f"bench/export_suite.py from these definitions: " + "; ".join(sources) + ".")
    return layers, about


def main():
    here = os.path.join(os.path.dirname(os.path.abspath(__file__)), "suites")
    for throughput, file in ((False, "zoo.json"), (True, "zoo-throughput.json")):
        layers, about = build(throughput)
        write_suite(os.path.join(here, file), layers, about)
        print(f"{file}: {len(layers)} layers, {sum(l['count'] for l in layers)} convs", file=sys.stderr)


if __name__ == "__main__":
    main()
