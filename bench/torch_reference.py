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
"""
import argparse
import json
import math
import statistics

import torch
import torch.nn.functional as F


def time_launches(fn, repeat, launches):
    for _ in range(3):
        fn()
    torch.cuda.synchronize()
    samples = []
    for _ in range(repeat):
        start = torch.cuda.Event(enable_timing=True)
        end = torch.cuda.Event(enable_timing=True)
        start.record()
        for _ in range(launches):
            fn()
        end.record()
        torch.cuda.synchronize()
        samples.append(start.elapsed_time(end) / launches)
    return statistics.median(samples)


def min_bytes(layer):
    """Bytes an fp32 layer must move at least: its input, weight and output, once each."""
    n, ic, oc, h, w, k = (layer[key] for key in ("n", "ic", "oc", "h", "w", "k"))
    s, p, g = layer["stride"], layer["padding"], layer["groups"]
    if layer["op"] == "conv_transpose2d":
        oh, ow = (h - 1) * s - 2 * p + k, (w - 1) * s - 2 * p + k
    else:
        oh, ow = (h + 2 * p - k) // s + 1, (w + 2 * p - k) // s + 1
    return 4 * (n * ic * h * w + oc * (ic // g) * k * k + n * oc * oh * ow)


def copy_fn(total_bytes):
    """A copy that reads half of `total_bytes` and writes the other half."""
    numel = max(total_bytes // 8, 1)
    src = torch.randn(numel, device="cuda")
    dst = torch.empty_like(src)
    return lambda: dst.copy_(src)


def layer_fn(layer, dtype=torch.float32, channels_last=False):
    dev = "cuda"
    n, ic, oc, h, w, k = (layer[key] for key in ("n", "ic", "oc", "h", "w", "k"))
    s, p, g = layer["stride"], layer["padding"], layer["groups"]
    op = layer["op"]
    fmt = torch.channels_last if channels_last else torch.contiguous_format

    def tensor(*shape):
        return torch.randn(*shape, device=dev, dtype=dtype).contiguous(memory_format=fmt)

    if op == "conv2d":
        x, wt = tensor(n, ic, h, w), tensor(oc, ic // g, k, k)
        return lambda: F.conv2d(x, wt, None, s, p, 1, g)
    if op == "conv_transpose2d":
        x, wt = tensor(n, ic, h, w), tensor(ic, oc // g, k, k)
        return lambda: F.conv_transpose2d(x, wt, None, s, p, 0, g)
    if op == "q8_conv_pw":
        a = torch.randint(-128, 127, (n * h * w, ic), dtype=torch.int8, device=dev)
        b = torch.randint(-128, 127, (ic, oc), dtype=torch.int8, device=dev)
        return lambda: torch._int_mm(a, b)
    raise ValueError(f"unknown op {op!r} in layer {layer['name']}")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--suite", default="bench/suites/default.json")
    ap.add_argument("--wgconv", help="JSON written by `wgconv bench --json`")
    ap.add_argument("--repeat", type=int, default=10)
    ap.add_argument("--launches", type=int, default=20)
    ap.add_argument("--markdown", help="also write the table here")
    ap.add_argument("--json", help="write torch timings here")
    ap.add_argument("--copy", action="store_true", help="also time a copy of each fp32 layer's minimum bytes")
    ap.add_argument("--tf32", action="store_true",
                    help="allow cuDNN TF32 (tensor cores), the peer of `wgconv bench --precision f16`")
    ap.add_argument("--dtype", choices=["float32", "float16"], default="float32",
                    help="the float layers' tensors (float16: the peer of `wgconv bench --dtype f16`)")
    ap.add_argument("--channels-last", action="store_true", help="float tensors in torch.channels_last")
    args = ap.parse_args()
    dtype = getattr(torch, args.dtype)

    torch.backends.cudnn.allow_tf32 = args.tf32
    torch.backends.cuda.matmul.allow_tf32 = args.tf32
    torch.backends.cudnn.benchmark = True
    suite = json.load(open(args.suite))
    ours = {}
    device = ""
    if args.wgconv:
        report = json.load(open(args.wgconv))
        ours = {l["name"]: l for l in report["layers"]}
        d = report["device"]
        device = f"{d['name']} ({d['backend']}, driver {d['driver']} {d['driver_info']})"

    torch_ms = {}
    for layer in suite:
        with torch.no_grad():
            fn = layer_fn(layer, dtype, args.channels_last)
            torch_ms[layer["name"]] = time_launches(fn, args.repeat, args.launches)
    copy_ms = {}
    if args.copy:
        for layer in suite:
            if layer["op"] != "q8_conv_pw":
                copy_ms[layer["name"]] = time_launches(copy_fn(min_bytes(layer)), args.repeat, args.launches)

    gpu = torch.cuda.get_device_name()
    lines = [
        f"PyTorch {torch.__version__}, cuDNN {torch.backends.cudnn.version()}, {gpu}; TF32 {'on' if args.tf32 else 'off'}; "
        f"{args.dtype}{', channels_last' if args.channels_last else ''}; "
        f"median of {args.repeat} samples x {args.launches} launches.",
    ]
    if device:
        lines.append(f"wgconv device: {device}")
    lines += ["", "| layer | op | wgconv kernel | wgconv ms | torch ms | ratio (torch/wgconv) |", "|---|---|---|---|---|---|"]
    ratios = {}
    for layer in suite:
        name = layer["name"]
        t = torch_ms[name]
        if name in ours:
            o = ours[name]
            ratio = t / o["median_ms"]
            ratios.setdefault(layer["op"], []).append(ratio)
            lines.append(f"| {name} | {layer['op']} | {o['kernel']} | {o['median_ms']:.4f} | {t:.4f} | {ratio:.2f}x |")
        else:
            lines.append(f"| {name} | {layer['op']} | - | - | {t:.4f} | - |")
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
    if ratios:
        lines.append("")
        for op, rs in ratios.items():
            geo = math.exp(sum(math.log(r) for r in rs) / len(rs))
            lines.append(f"geometric mean ratio, {op}: {geo:.3f}x over {len(rs)} layers")
        fp32 = [r for op, rs in ratios.items() if op != "q8_conv_pw" for r in rs]
        if fp32:
            geo = math.exp(sum(math.log(r) for r in fp32) / len(fp32))
            lines.append(f"geometric mean ratio, all fp32 layers: {geo:.3f}x over {len(fp32)} layers")
    text = "\n".join(lines)
    print(text)
    if args.markdown:
        open(args.markdown, "w").write(text + "\n")
    if args.json:
        json.dump({"device": gpu, "tf32": args.tf32, "dtype": args.dtype, "channels_last": args.channels_last,
                   "torch_ms": torch_ms, "copy_ms": copy_ms}, open(args.json, "w"),
                  indent=2)


if __name__ == "__main__":
    main()
