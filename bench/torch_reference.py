#!/usr/bin/env python3
"""Time a wgconv bench suite with PyTorch on CUDA and compare with `wgconv bench --json`.

    python3 bench/torch_reference.py --suite bench/suites/default.json \
        [--wgconv wgconv.json] [--markdown table.md] [--json torch.json]

fp32 layers run F.conv2d / F.conv_transpose2d through cuDNN with TF32 disabled (allowed with --tf32); int8 pointwise
layers run torch._int_mm on the equivalent (N*H*W, IC) x (IC, OC) GEMM. Each layer: warm-up,
then `--repeat` samples, each `--launches` back-to-back launches between two CUDA events; the
median per launch is reported. With --copy, also times a device-to-device copy that moves
each fp32 layer's minimum bytes (input + weight + output, half read and half written) the same
way: the copy roofline at that size, launch costs included. With --wgconv, prints one table with both and the throughput
ratio (torch ms / wgconv ms: > 1 means wgconv is faster) and the geometric mean per op kind.
--dtype float16 runs the float layers on float16 tensors (the peer of `wgconv bench --dtype f16`);
--channels-last stores them in torch.channels_last (PyTorch's fastest layout for f16 on cuDNN).
--also-tf32 times the suite twice, TF32 off then on, and reports both ratios per layer and per model.
Suite layers may have rectangular filters, per-axis stride/padding/dilation/output_padding, bias,
an activation (run as a separate op), 1D ops, a count and a model (crates/wgconv/src/suite.rs
documents the format); layers that name a model are also summed per model (each × its count).
"""
import argparse
import json
import math
import statistics
import sys

import torch
import torch.nn.functional as F

if __package__:
    from .suite_io import geomean, load_suite, model_totals, report
else:  # run as a script: bench/ is on the path
    from suite_io import geomean, load_suite, model_totals, report


def time_launches(fn, repeat, launches, min_sample_ms=1.0):
    """Median ms per launch; like `wgconv bench`, `launches` is raised so that a sample lasts
    at least `min_sample_ms` (short samples let the GPU idle and clock down between them)."""
    def sample(count):
        start = torch.cuda.Event(enable_timing=True)
        end = torch.cuda.Event(enable_timing=True)
        start.record()
        for _ in range(count):
            fn()
        end.record()
        torch.cuda.synchronize()
        return start.elapsed_time(end) / count

    for _ in range(3):
        fn()
    torch.cuda.synchronize()
    per_launch = sample(launches)
    if per_launch > 0:
        launches = max(launches, min(math.ceil(min_sample_ms / per_launch), 10_000))
    return statistics.median(sample(launches) for _ in range(repeat))


def axes(value, default):
    """A suite's per-axis setting: a number for every axis, or [h, w]."""
    if value is None:
        value = default
    return tuple(value) if isinstance(value, list) else (value, value)


def layer_shape(layer):
    """(input shape, weight shape, conv keyword arguments) of a float layer, as wgconv::suite reads it."""
    n, ic, oc, w = (layer[key] for key in ("n", "ic", "oc", "w"))
    g = layer.get("groups", 1)
    one_d = layer["op"] in ("conv1d", "conv_transpose1d")
    transposed = layer["op"] in ("conv_transpose2d", "conv_transpose1d")
    kh, kw = (layer["k"], layer["k"]) if "k" in layer else (layer.get("kh", 1), layer["kw"])
    stride, padding = axes(layer.get("stride"), 1), axes(layer.get("padding"), 0)
    dilation, output_padding = axes(layer.get("dilation"), 1), axes(layer.get("output_padding"), 0)
    pick = (lambda t: t[1]) if one_d else (lambda t: t)
    inp = [n, ic, w] if one_d else [n, ic, layer["h"], w]
    wt = [ic, oc // g] if transposed else [oc, ic // g]
    wt += [kw] if one_d else [kh, kw]
    kwargs = dict(stride=pick(stride), padding=pick(padding), dilation=pick(dilation), groups=g)
    if transposed:
        kwargs["output_padding"] = pick(output_padding)
    return inp, wt, kwargs


def min_bytes(layer):
    """Bytes an fp32 layer must move at least: its input, weight and output, once each."""
    inp, wt, kwargs = layer_shape(layer)
    x = torch.empty(inp, device="meta")
    w = torch.empty(wt, device="meta")
    y = conv_fn(layer)(x, w, None, **kwargs)
    return 4 * (x.numel() + w.numel() + y.numel())


def conv_fn(layer):
    return {"conv2d": F.conv2d, "conv_transpose2d": F.conv_transpose2d,
            "conv1d": F.conv1d, "conv_transpose1d": F.conv_transpose1d}[layer["op"]]


def activation_fn(layer):
    """The layer's fused activation, as a separate PyTorch op (`none`, `relu`, `clamp:MIN,MAX`)."""
    text = layer.get("activation", "none")
    if text == "none":
        return lambda y: y
    if text == "relu":
        return F.relu
    lo, hi = (float(v) for v in text.removeprefix("clamp:").split(","))
    return lambda y: torch.clamp(y, lo, hi)


def copy_fn(total_bytes):
    """A copy that reads half of `total_bytes` and writes the other half."""
    numel = max(total_bytes // 8, 1)
    src = torch.randn(numel, device="cuda")
    dst = torch.empty_like(src)
    return lambda: dst.copy_(src)


def layer_fn(layer, dtype=torch.float32, channels_last=False):
    dev = "cuda"
    op = layer["op"]
    if op == "q8_conv_pw":
        n, ic, oc, h, w = (layer[key] for key in ("n", "ic", "oc", "h", "w"))
        a = torch.randint(-128, 127, (n * h * w, ic), dtype=torch.int8, device=dev)
        # The weight as a quantized linear layer keeps it, [OC, IC], so b is its column-major
        # transpose: cuBLASLt's int8 kernels take that layout for more shapes than a row-major b.
        b = torch.randint(-128, 127, (oc, ic), dtype=torch.int8, device=dev).t()
        return lambda: torch._int_mm(a, b)
    if op not in ("conv2d", "conv_transpose2d", "conv1d", "conv_transpose1d"):
        raise ValueError(f"unknown op {op!r} in layer {layer['name']}")
    inp, wt, kwargs = layer_shape(layer)
    # channels_last is a rank-4 layout: 1D layers keep theirs.
    fmt = torch.channels_last if channels_last and len(inp) == 4 else torch.contiguous_format

    def tensor(shape):
        return torch.randn(*shape, device=dev, dtype=dtype).contiguous(memory_format=fmt)

    x, w = tensor(inp), tensor(wt)
    bias = torch.randn(layer["oc"], device=dev, dtype=dtype) if layer.get("bias") else None
    conv, act = conv_fn(layer), activation_fn(layer)
    return lambda: act(conv(x, w, bias, **kwargs))


def time_suite(suite, dtype, args):
    """{layer name: median ms per launch} with the backend flags as they are set: the fastest of
    `args.rounds` rounds (whole passes over the suite), as `wgconv bench --rounds` (on a shared GPU,
    slow episodes of seconds, apparently outside load, rarely meet every round of a long suite)."""
    times = {}
    for _ in range(args.rounds):
        for layer in suite:
            with torch.no_grad():
                fn = layer_fn(layer, dtype, args.channels_last)
                try:
                    ms = time_launches(fn, args.repeat, args.launches)
                except RuntimeError as e:
                    # A shape the library refuses (cuBLASLt's int8 layouts): reported, not timed.
                    print(f"layer {layer['name']}: not timed: {str(e).splitlines()[0]}", file=sys.stderr)
                    torch.cuda.synchronize()
                    continue
                times[layer["name"]] = min(ms, times.get(layer["name"], ms))
    return times


def model_table(suite, ours_ms, columns):
    """Markdown rows of each model's summed conv time: wgconv's, then per (label, {name: ms})
    column the peer's and its ratio to ours (peer / wgconv: > 1 means wgconv is faster). A model
    is summed over the layers every side timed."""
    timed = [layer for layer in suite if "model" in layer and layer["name"] in ours_ms
             and all(layer["name"] in times for _, times in columns)]
    if not timed:
        return []
    ours = model_totals(timed, ours_ms)
    header = "| model | wgconv ms | " + " | ".join(f"{label} ms | ratio ({label}/wgconv)" for label, _ in columns) + " |"
    lines = [header, "|---|---|" + "---|---|" * len(columns)]
    for model, mine in ours.items():
        cells = []
        for _, times in columns:
            theirs = model_totals(timed, times)[model]
            cells.append(f"{theirs:.4f} | {theirs / mine:.2f}x")
        lines.append(f"| {model} | {mine:.4f} | " + " | ".join(cells) + " |")
    return lines


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--suite", default="bench/suites/default.json")
    ap.add_argument("--wgconv", help="JSON written by `wgconv bench --json`")
    ap.add_argument("--repeat", type=int, default=10)
    ap.add_argument("--launches", type=int, default=20)
    ap.add_argument("--rounds", type=int, default=1,
                    help="rounds (whole passes over the suite); each layer keeps its fastest (as `wgconv bench --rounds`)")
    ap.add_argument("--markdown", help="also write the table here")
    ap.add_argument("--json", help="write torch timings here")
    ap.add_argument("--copy", action="store_true", help="also time a copy of each fp32 layer's minimum bytes")
    ap.add_argument("--tf32", action="store_true",
                    help="allow cuDNN TF32 (tensor cores), the peer of `wgconv bench --precision f16`")
    ap.add_argument("--dtype", choices=["float32", "float16"], default="float32",
                    help="the float layers' tensors (float16: the peer of `wgconv bench --dtype f16`)")
    ap.add_argument("--channels-last", action="store_true", help="float tensors in torch.channels_last")
    ap.add_argument("--models", help="only the layers of these models (comma-separated), as `wgconv bench --models`")
    ap.add_argument("--also-tf32", action="store_true",
                    help="time the suite a second time with TF32 allowed: ratios to cuDNN fp32 and TF32 side by side")
    args = ap.parse_args()
    if args.rounds < 1:
        ap.error(f"--rounds must be at least 1, not {args.rounds}")
    dtype = getattr(torch, args.dtype)

    torch.backends.cudnn.allow_tf32 = args.tf32
    torch.backends.cuda.matmul.allow_tf32 = args.tf32
    torch.backends.cudnn.benchmark = True
    try:
        suite = load_suite(args.suite, args.models)
    except ValueError as e:
        ap.error(str(e))
    ours = {}
    device = ""
    if args.wgconv:
        with open(args.wgconv) as file:
            wgconv_run = json.load(file)
        ours = {l["name"]: l for l in wgconv_run["layers"]}
        d = wgconv_run["device"]
        device = f"{d['name']} ({d['backend']}, driver {d['driver']} {d['driver_info']})"

    torch_ms = time_suite(suite, dtype, args)
    tf32_ms = {}
    if args.also_tf32:
        torch.backends.cudnn.allow_tf32 = torch.backends.cuda.matmul.allow_tf32 = True
        tf32_ms = time_suite(suite, dtype, args)
    copy_ms = {}
    if args.copy:
        for layer in suite:
            if layer["op"] != "q8_conv_pw":
                copy_ms[layer["name"]] = time_launches(copy_fn(min_bytes(layer)), args.repeat, args.launches)

    gpu = torch.cuda.get_device_name()
    lines = [
        f"PyTorch {torch.__version__}, cuDNN {torch.backends.cudnn.version()}, {gpu}; TF32 {'on' if args.tf32 else 'off'}; "
        f"{args.dtype}{', channels_last' if args.channels_last else ''}; "
        f"median of {args.repeat} samples x {args.launches} launches"
        f"{f', fastest of {args.rounds} rounds' if args.rounds > 1 else ''}.",
    ]
    if device:
        lines.append(f"wgconv device: {device}")
    extra_header = " TF32 ms | ratio (TF32/wgconv) |" if tf32_ms else ""
    lines += ["", "| layer | op | wgconv kernel | wgconv ms | torch ms | ratio (torch/wgconv) |" + extra_header,
              "|---|---|---|---|---|---|" + ("---|---|" if tf32_ms else "")]
    ratios, tf32_ratios = {}, []
    for layer in suite:
        name = layer["name"]
        if name not in torch_ms:
            o = ours.get(name)
            mine = f"{o['kernel']} | {o['median_ms']:.4f}" if o else "- | -"
            lines.append(f"| {name} | {layer['op']} | {mine} | not timed | - |" + (" - | - |" if tf32_ms else ""))
            continue
        t = torch_ms[name]
        if name in ours:
            o = ours[name]
            ratio = t / o["median_ms"]
            ratios.setdefault(layer["op"], []).append(ratio)
            extra = ""
            if name in tf32_ms:
                tf32_ratios.append(tf32_ms[name] / o["median_ms"])
                extra = f" {tf32_ms[name]:.4f} | {tf32_ratios[-1]:.2f}x |"
            lines.append(f"| {name} | {layer['op']} | {o['kernel']} | {o['median_ms']:.4f} | {t:.4f} | {ratio:.2f}x |" + extra)
        else:
            extra = f" {tf32_ms[name]:.4f} | - |" if name in tf32_ms else ""
            lines.append(f"| {name} | {layer['op']} | - | - | {t:.4f} | - |" + extra)
    if copy_ms:
        lines += ["", "| layer | min MB | copy ms | copy TB/s | wgconv TB/s | wgconv / copy | torch / copy |", "|---|---|---|---|---|---|---|"]
        for layer in suite:
            name = layer["name"]
            if name not in copy_ms:
                continue
            mb, c = min_bytes(layer) / 1e6, copy_ms[name]
            if name in ours:
                ms = ours[name]["median_ms"]
                ours_text = f"{mb / ms / 1e3:.2f} | {c / ms:.0%}"
            else:
                ours_text = "- | -"
            lines.append(f"| {name} | {mb:.1f} | {c:.4f} | {mb / c / 1e3:.2f} | {ours_text} | {c / torch_ms[name]:.0%} |")
    torch_models = model_totals(suite, torch_ms)
    label = "torch TF32" if args.tf32 else "torch"
    columns = [(label, torch_ms)] + ([("torch TF32", tf32_ms)] if tf32_ms else [])
    models = model_table(suite, {name: o["median_ms"] for name, o in ours.items()}, columns)
    if models:
        lines += [""] + models
    elif torch_models:
        lines += ["", "| model | torch ms |", "|---|---|"] + [f"| {m} | {t:.4f} |" for m, t in torch_models.items()]
    if ratios:
        lines.append("")
        for op, rs in ratios.items():
            lines.append(f"geometric mean ratio, {op}: {geomean(rs):.3f}x over {len(rs)} layers")
        fp32 = [r for op, rs in ratios.items() if op != "q8_conv_pw" for r in rs]
        if fp32:
            lines.append(f"geometric mean ratio, all fp32 layers: {geomean(fp32):.3f}x over {len(fp32)} layers")
        if tf32_ratios:
            lines.append(f"geometric mean ratio against TF32, float layers: {geomean(tf32_ratios):.3f}x over "
                         f"{len(tf32_ratios)} layers")
    report("\n".join(lines), args.markdown)
    if args.json:
        with open(args.json, "w") as file:
            json.dump({"device": gpu, "tf32": args.tf32, "dtype": args.dtype, "channels_last": args.channels_last,
                       "rounds": args.rounds,
                       "models_ms": torch_models, "torch_ms": torch_ms, "copy_ms": copy_ms,
                       "models_tf32_ms": model_totals(suite, tf32_ms), "torch_tf32_ms": tf32_ms}, file, indent=2)


if __name__ == "__main__":
    main()
