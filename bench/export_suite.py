#!/usr/bin/env python3
"""Record every convolution a PyTorch model runs and write them as a wgconv bench suite.

    python3 bench/export_suite.py MODEL --input 1,3,224,224 [--input ...] [--model-name NAME] \
        [--device meta|cpu] [--out suite.json]

MODEL is a torchvision model name (`resnet50`, `torchvision:resnet50`), a timm name (`timm:convnext_tiny`)
or an importable `module:function` returning an `nn.Module` (`bench.zoo_models:yolov8n`). Each `--input`
is one positional input's shape. The model is built and run on the `meta` device by default: shapes
propagate, nothing is computed or allocated, so a diffusion UNet at batch 8 records in a second
(`--device cpu` for models with data-dependent shapes).

Every call of conv1d/conv2d/conv_transpose1d/conv_transpose2d is caught (module or functional), named
after the innermost module that made it, and identical calls are merged with a `count`; the suite then
has each distinct layer once, in order of first use, with `"model": NAME`. `wgconv bench --suite FILE`
and `bench/torch_reference.py --suite FILE` read it (crates/wgconv/src/suite.rs has the format), and
both report the model's summed conv time. Calls wgconv cannot express are left out with a warning on
stderr (3D convs, asymmetric `padding="same"`). Fused activations are not recorded: PyTorch runs
them as separate ops.
"""
import argparse
import importlib
import json
import re
import sys

import torch
import torch.nn.functional as F
from torch.overrides import TorchFunctionMode

CONV_OPS = {
    F.conv1d: ("conv1d", 1),
    F.conv2d: ("conv2d", 2),
    F.conv_transpose1d: ("conv_transpose1d", 1),
    F.conv_transpose2d: ("conv_transpose2d", 2),
    torch.conv1d: ("conv1d", 1),
    torch.conv2d: ("conv2d", 2),
    torch.conv_transpose1d: ("conv_transpose1d", 1),
    torch.conv_transpose2d: ("conv_transpose2d", 2),
}
# Convolutions wgconv has no op for: reported, not recorded.
UNSUPPORTED_OPS = {F.conv3d: "conv3d", F.conv_transpose3d: "conv_transpose3d"}
# Positional order after (input, weight, bias) in the functional signatures.
DIRECT_ARGS = ("stride", "padding", "dilation", "groups")
TRANSPOSED_ARGS = ("stride", "padding", "output_padding", "groups", "dilation")


def per_axis(value, rank, default):
    """A functional argument as a tuple with one entry per spatial axis."""
    if value is None:
        value = default
    if isinstance(value, int):
        return (value,) * rank
    value = tuple(int(v) for v in value)
    return value * rank if len(value) == 1 else value


def suite_axes(values):
    """One number when every axis agrees, else [h, w] (suite.rs's `Axes`)."""
    return values[0] if len(set(values)) == 1 else list(values)


class ConvRecorder(TorchFunctionMode):
    """Catches convolution calls and keeps each distinct one with how often it ran."""

    def __init__(self):
        super().__init__()
        self.layers = {}  # key -> layer dict, in order of first use
        self.scope = ["model"]
        self.skipped = []

    def __torch_function__(self, func, types, args=(), kwargs=None):
        kwargs = kwargs or {}
        if func in CONV_OPS:
            self.record(func, args, kwargs)
        elif func in UNSUPPORTED_OPS:
            self.skipped.append(f"{self.scope[-1]}: {UNSUPPORTED_OPS[func]} (wgconv has no 3D convolution)")
        return func(*args, **kwargs)

    def record(self, func, args, kwargs):
        """Adds one convolution call (or one more count of an identical one)."""
        op, rank = CONV_OPS[func]
        x, weight = args[0], args[1]
        bias = args[2] if len(args) > 2 else kwargs.get("bias")
        names = TRANSPOSED_ARGS if op.startswith("conv_transpose") else DIRECT_ARGS
        settings = dict(zip(names, args[3:]))
        settings.update({k: v for k, v in kwargs.items() if k in names})
        where = self.scope[-1]
        if x.dim() != rank + 2:
            self.skipped.append(f"{where}: {op} on an unbatched {x.dim()}-D input")
            return
        stride = per_axis(settings.get("stride"), rank, 1)
        dilation = per_axis(settings.get("dilation"), rank, 1)
        kernel = tuple(weight.shape[2:])
        padding = settings.get("padding", 0)
        if isinstance(padding, str):
            padding = self.string_padding(padding, kernel, dilation, where)
            if padding is None:
                return
        padding = per_axis(padding, rank, 0)
        groups = int(settings.get("groups", 1) or 1)
        transposed = op.startswith("conv_transpose")
        ic = x.shape[1]
        oc = weight.shape[1] * groups if transposed else weight.shape[0]
        layer = {"op": op, "n": x.shape[0], "ic": ic, "oc": oc}
        if rank == 2:
            layer["h"] = x.shape[2]
        layer["w"] = x.shape[-1]
        if rank == 2 and kernel[0] != kernel[1]:
            layer["kh"], layer["kw"] = kernel
        else:
            layer["k"] = kernel[-1]
        layer["stride"] = suite_axes(stride)
        layer["padding"] = suite_axes(padding)
        if any(d != 1 for d in dilation):
            layer["dilation"] = suite_axes(dilation)
        if transposed:
            output_padding = per_axis(settings.get("output_padding"), rank, 0)
            if any(p != 0 for p in output_padding):
                layer["output_padding"] = suite_axes(output_padding)
        layer["groups"] = groups
        if bias is not None:
            layer["bias"] = True
        key = json.dumps(layer, sort_keys=True)
        if key in self.layers:
            self.layers[key]["count"] += 1
        else:
            self.layers[key] = {"where": where, "count": 1, **layer}

    def string_padding(self, padding, kernel, dilation, where):
        """`padding="valid"`/`"same"` as numbers; None (and a note) where "same" is asymmetric."""
        if padding == "valid":
            return 0
        totals = [d * (k - 1) for k, d in zip(kernel, dilation)]
        if any(t % 2 for t in totals):
            self.skipped.append(f"{where}: padding='same' with an even filter pads one side more")
            return None
        return tuple(t // 2 for t in totals)


def load_model(spec):
    """An nn.Module from a torchvision/timm name or an importable `module:function`."""
    if spec.startswith("timm:"):
        import timm

        return timm.create_model(spec.removeprefix("timm:"), pretrained=False)
    if ":" in spec and not spec.startswith("torchvision:"):
        module, function = spec.rsplit(":", 1)
        return getattr(importlib.import_module(module), function)()
    import torchvision

    return torchvision.models.get_model(spec.removeprefix("torchvision:"), weights=None)


def export(model_fn, inputs, model_name, device="meta"):
    """The suite layers of one model: `model_fn()` builds it, `inputs` are the input shapes."""
    try:
        with torch.device(device):
            model = model_fn()
    except (NotImplementedError, RuntimeError):
        # Some constructors compute on tensors (torchvision's RegNet widths): build on the CPU.
        model = model_fn().to(device)
    model.eval()
    tensors = [torch.zeros(shape, device=device) for shape in inputs]
    recorder = ConvRecorder()
    names = {module: name for name, module in model.named_modules()}

    def enter(module, _args):
        recorder.scope.append(names.get(module, recorder.scope[-1]) or "model")

    def leave(module, _args, _out):
        recorder.scope.pop()

    hooks = [m.register_forward_pre_hook(enter) for m in names] + [m.register_forward_hook(leave) for m in names]
    try:
        with torch.no_grad(), recorder:
            model(*tensors)
    finally:
        for hook in hooks:
            hook.remove()
    for reason in recorder.skipped:
        print(f"{model_name}: left out {reason}", file=sys.stderr)
    layers, used = [], set()
    for layer in recorder.layers.values():
        base = f"{model_name}_{re.sub(r'[^A-Za-z0-9]+', '_', layer.pop('where')).strip('_')}"
        name, i = base, 2
        while name in used:
            name, i = f"{base}_{i}", i + 1
        used.add(name)
        count = layer.pop("count")
        layers.append({"name": name, **layer, "count": count, "model": model_name})
    return layers


def write_suite(path, layers, about):
    """Writes a suite file: `{"about": ..., "layers": [...]}`, one layer per line."""
    body = ",\n".join("    " + json.dumps(layer) for layer in layers)
    text = "{\n  \"about\": " + json.dumps(about) + ",\n  \"layers\": [\n" + body + "\n  ]\n}\n"
    if path == "-":
        sys.stdout.write(text)
    else:
        with open(path, "w") as file:
            file.write(text)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("model", help="torchvision name, timm:NAME, or module:function")
    ap.add_argument("--input", action="append", required=True,
                    help="an input's shape, e.g. 1,3,224,224 (repeat for several inputs)")
    ap.add_argument("--model-name", help="the suite's model name (default: from MODEL)")
    ap.add_argument("--device", default="meta", help="where to run the model (meta: shapes only)")
    ap.add_argument("--out", default="-", help="suite file to write (default stdout)")
    args = ap.parse_args()
    inputs = [[int(v) for v in shape.split(",")] for shape in args.input]
    name = args.model_name or re.sub(r"[^A-Za-z0-9]+", "_", args.model.rsplit(":", 1)[-1])
    layers = export(lambda: load_model(args.model), inputs, name, args.device)
    if not layers:
        sys.exit(f"{args.model}: no convolution ran on inputs {inputs}")
    shapes = " and ".join("x".join(map(str, s)) for s in inputs)
    write_suite(args.out, layers, f"{name}: every conv of `{args.model}` on {shapes}, from bench/export_suite.py")
    total = sum(layer["count"] for layer in layers)
    print(f"{name}: {len(layers)} distinct convs, {total} in all", file=sys.stderr)


if __name__ == "__main__":
    main()
