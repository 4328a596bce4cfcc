#!/usr/bin/env python3
"""Time a wgconv bench suite on ONNX Runtime's WebGPU execution provider (Dawn inside) and compare.

    python3 bench/ort_webgpu_reference.py --suite bench/suites/zoo.json [--k 8] \
        [--wgconv wgconv.json] [--json ort.json] [--markdown table.md] [--limit-s 300]

Needs `onnxruntime`, `onnxruntime-ep-webgpu`, `onnx` and `numpy` (../shared/gpu.md: carry the wheels to a
machine without a registry). Only GPU work is timed:

- each float layer becomes a graph of K parallel convs of one input, input and weights as
  initializers (K different weights, so no common-subexpression elimination), with constant folding
  and CSE off so the convs run at every run instead of at load;
- each output is returned channels-last (an explicit transpose that cancels the one the EP's NHWC
  layout adds after each conv), as inside a model where consecutive layers stay NHWC; when the
  optimised graph still has a transpose, the layer falls back to plain NCHW outputs and says so;
- outputs are bound on the GPU (IOBinding) and the EP's graph capture replays the run, which
  removes most per-run CPU cost; a sample is many runs and one copy of the outputs to the CPU
  (which waits for the GPU), less the copy's own time;
- the per-conv time is the slope (T(K) - T(1)) / (K - 1) of the median run time, which removes
  the remaining fixed cost per run. Independent parallel convs may overlap on the GPU, which
  flatters small layers: compare with `wgconv bench --parallel K` (timed the same way, as the slope
  from 1, each launch a compute pass of its own as each captured run here is; its `parallel_ms`),
  shown next to wgconv's back-to-back `median_ms`; with `--k-from`
  above 1 ORT's slope starts at K0 and wgconv's still at 1: not the same measure;
- a run is timed by the wall clock, and a run's CPU cost (about 15-25 us on the H200 machine) is a
  floor under T: where one conv's GPU time is below it, T(1) is the floor, not the conv, and the
  slope from 1 understates the conv's GPU time by (floor - conv) / (K - 1). `--k-from K0` takes the
  slope (T(K) - T(K0)) / (K - K0) between two counts whose runs both outlast the floor.

int8 layers are skipped (the WebGPU EP has no QLinearConv). Layers that fail are reported and skipped.
"""
import argparse
import json
import statistics
import sys
import tempfile
import time

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

import onnxruntime as ort

if __package__:
    from .suite_io import geomean, load_suite, model_totals, report
else:  # run as a script: bench/ is on the path
    from suite_io import geomean, load_suite, model_totals, report

FLOAT_OPS = ("conv2d", "conv_transpose2d", "conv1d", "conv_transpose1d")


def axes(value, default, rank):
    """A suite's per-axis setting as a list of `rank` values (a number for every axis, or [h, w])."""
    if value is None:
        value = default
    return list(value) if isinstance(value, list) else [value] * rank


def layer_graph(layer, k, nhwc_outputs, rng):
    """An ONNX model with K parallel convs of `layer` on one input, everything an initializer."""
    one_d = layer["op"] in ("conv1d", "conv_transpose1d")
    transposed = layer["op"].startswith("conv_transpose")
    rank = 1 if one_d else 2
    n, ic, oc, g = layer["n"], layer["ic"], layer["oc"], layer.get("groups", 1)
    spatial = [layer["w"]] if one_d else [layer["h"], layer["w"]]
    if "k" in layer:
        kernel = [layer["k"]] * rank
    else:
        kernel = [layer["kw"]] if one_d else [layer["kh"], layer["kw"]]
    pick = (lambda v: v[-1:]) if one_d else (lambda v: v)
    stride = pick(axes(layer.get("stride"), 1, 2))
    padding = pick(axes(layer.get("padding"), 0, 2))
    dilation = pick(axes(layer.get("dilation"), 1, 2))
    out_pad = pick(axes(layer.get("output_padding"), 0, 2))
    weight_shape = ([ic, oc // g] if transposed else [oc, ic // g]) + kernel
    attrs = dict(kernel_shape=kernel, strides=stride, pads=padding + padding, dilations=dilation, group=g)
    if transposed:
        attrs["output_padding"] = out_pad
        out_spatial = [(s - 1) * st - 2 * p + d * (kk - 1) + op + 1
                       for s, st, p, d, kk, op in zip(spatial, stride, padding, dilation, kernel, out_pad)]
    else:
        out_spatial = [(s + 2 * p - d * (kk - 1) - 1) // st + 1
                       for s, st, p, d, kk in zip(spatial, stride, padding, dilation, kernel)]
    out_shape = [n, oc] + out_spatial
    inits = [numpy_helper.from_array(rng.standard_normal([n, ic] + spatial, dtype=np.float32), "x")]
    nodes, outputs = [], []
    activation = layer.get("activation", "none")
    if activation.startswith("clamp:"):
        lo, hi = (float(v) for v in activation.removeprefix("clamp:").split(","))
        inits += [numpy_helper.from_array(np.array(lo, np.float32), "lo"),
                  numpy_helper.from_array(np.array(hi, np.float32), "hi")]
    perm = [0] + list(range(2, 2 + rank)) + [1]
    for i in range(k):
        inputs = ["x", f"w{i}"]
        inits.append(numpy_helper.from_array(rng.standard_normal(weight_shape, dtype=np.float32) * 0.1, f"w{i}"))
        if layer.get("bias"):
            inits.append(numpy_helper.from_array(rng.standard_normal([oc], dtype=np.float32), f"b{i}"))
            inputs.append(f"b{i}")
        y = f"conv{i}"
        nodes.append(helper.make_node("ConvTranspose" if transposed else "Conv", inputs, [y], **attrs))
        if activation == "relu":
            nodes.append(helper.make_node("Relu", [y], [f"act{i}"]))
            y = f"act{i}"
        elif activation.startswith("clamp:"):
            nodes.append(helper.make_node("Clip", [y, "lo", "hi"], [f"act{i}"]))
            y = f"act{i}"
        shape = out_shape
        if nhwc_outputs:
            nodes.append(helper.make_node("Transpose", [y], [f"nhwc{i}"], perm=perm))
            y, shape = f"nhwc{i}", [out_shape[p] for p in perm]
        nodes.append(helper.make_node("Identity", [y], [f"y{i}"]))
        outputs.append(helper.make_tensor_value_info(f"y{i}", TensorProto.FLOAT, shape))
    graph = helper.make_graph(nodes, layer["name"], [], outputs, initializer=inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    model.ir_version = 8
    return model, [o.type.tensor_type.shape for o in outputs]


class WebGpu:
    """The WebGPU EP device, sessions with graph capture, and GPU-bound outputs."""

    def __init__(self, graph_capture=True):
        import onnxruntime_ep_webgpu

        ort.register_execution_provider_library("WebGpuExecutionProvider", onnxruntime_ep_webgpu.get_library_path())
        devices = [d for d in ort.get_ep_devices() if d.ep_name == onnxruntime_ep_webgpu.get_ep_name()]
        if not devices:
            sys.exit("no WebGPU EP device: " + ", ".join(d.ep_name for d in ort.get_ep_devices()))
        self.device = devices[0]
        self.graph_capture = graph_capture
        self.memory = self.device.memory_info(ort.OrtDeviceMemoryType.DEFAULT)
        self.adapter = dict(self.device.device.metadata) | dict(self.device.ep_metadata)

    def session(self, model, optimized_path=None):
        so = ort.SessionOptions()
        so.log_severity_level = 3
        if optimized_path:
            so.optimized_model_filepath = optimized_path
        options = {"enableGraphCapture": "1"} if self.graph_capture else {}
        so.add_provider_for_devices([self.device], options)
        return ort.InferenceSession(model.SerializeToString(), so,
                                    disabled_optimizers=["ConstantFolding", "CommonSubexpressionElimination"])

    def binding(self, sess):
        io = sess.io_binding()
        for out in sess.get_outputs():
            value = ort.OrtValue.ortvalue_from_shape_and_type(out.shape, np.float32, memory_info=self.memory)
            io.bind_ortvalue_output(out.name, value)
        return io


def time_session(sess, io, repeat, runs=None, target_s=0.02):
    """(median wall ms per run of the replayed graph, runs per sample). A sample is `runs` runs and
    one copy of the outputs to the CPU, which waits for the GPU; the copy's own time, measured
    with the GPU idle, is taken off."""
    for _ in range(3):  # the first run captures the graph
        sess.run_with_iobinding(io)
    io.copy_outputs_to_cpu()

    def elapsed(count):
        t0 = time.perf_counter()
        for _ in range(count):
            sess.run_with_iobinding(io)
        io.copy_outputs_to_cpu()
        return time.perf_counter() - t0

    copy = statistics.median(elapsed(0) for _ in range(3))
    if runs is None:
        one = max(elapsed(1) - copy, 1e-6)
        runs = int(min(max(target_s / one, 5), 500))
    samples = [(elapsed(runs) - copy) / runs for _ in range(repeat)]
    return statistics.median(samples) * 1e3, runs


def count_transposes(path):
    """Transpose nodes left in a saved (optimised) model."""
    return sum(1 for node in onnx.load(path).graph.node if node.op_type == "Transpose")


def time_layer(gpu, layer, k, repeat, rng, k_from=1):
    """(per-conv ms from the slope, T(k_from) ms, T(K) ms, output layout)."""
    layout = "nhwc"
    with tempfile.NamedTemporaryFile(suffix=".onnx") as tmp:
        model, _ = layer_graph(layer, 1, True, rng)
        gpu.session(model, tmp.name)
        if count_transposes(tmp.name):
            layout = "nchw"
    times, runs = {}, None
    for kk in (k, k_from):  # the same runs per sample for both
        model, _ = layer_graph(layer, kk, layout == "nhwc", rng)
        sess = gpu.session(model)
        times[kk], runs = time_session(sess, gpu.binding(sess), repeat, runs)
        del sess
    return (times[k] - times[k_from]) / (k - k_from), times[k_from], times[k], layout


def parallel_count(text):
    """`--k`: an integer from 2 to 64."""
    k = int(text)
    if not 2 <= k <= 64:
        raise argparse.ArgumentTypeError(f"K must be 2 to 64 (the slope needs two points), not {k}")
    return k


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--suite", default="bench/suites/default.json")
    ap.add_argument("--k", type=parallel_count, default=8, help="parallel convs per graph, 2 to 64 (the slope is over K0 and K; K0 is --k-from)")
    ap.add_argument("--k-from", type=int, default=1,
                    help="the slope's lower count K0, 1 to K - 1: (T(K) - T(K0)) / (K - K0) (default 1)")
    ap.add_argument("--repeat", type=int, default=7)
    ap.add_argument("--wgconv", help="JSON of `wgconv bench` (with --parallel K for like-with-like numbers)")
    ap.add_argument("--json", help="write the timings here")
    ap.add_argument("--markdown", help="also write the table here")
    ap.add_argument("--limit-s", type=float, default=float("inf"), help="stop timing new layers after this long")
    ap.add_argument("--no-graph-capture", action="store_true")
    ap.add_argument("--models", help="only the layers of these models (comma-separated), as `wgconv bench --models`")
    args = ap.parse_args()
    if not 1 <= args.k_from < args.k:
        ap.error(f"--k-from must be 1 to K - 1 = {args.k - 1}, not {args.k_from}")
    try:
        suite = load_suite(args.suite, args.models)
    except ValueError as e:
        ap.error(str(e))
    gpu = WebGpu(not args.no_graph_capture)
    rng = np.random.default_rng(0)
    results, failed, start = {}, {}, time.time()
    for layer in suite:
        if layer["op"] not in FLOAT_OPS:
            continue
        if time.time() - start > args.limit_s:
            failed[layer["name"]] = "not timed: --limit-s reached"
            continue
        try:
            slope, t_from, tk, layout = time_layer(gpu, layer, args.k, args.repeat, rng, args.k_from)
            results[layer["name"]] = {"ms": slope, f"t{args.k_from}_ms": t_from, "tk_ms": tk, "outputs": layout}
        except Exception as e:  # noqa: BLE001 - one layer's failure must not stop the suite
            failed[layer["name"]] = f"{type(e).__name__}: {e}"
            print(f"{layer['name']}: {failed[layer['name']]}", file=sys.stderr)
        if args.json:  # written as it goes: a run cut short keeps what it measured
            write_json(args, gpu, results, failed, suite)

    ours = {}
    if args.wgconv:
        with open(args.wgconv) as file:
            ours = {l["name"]: l for l in json.load(file)["layers"]}
    lines = [f"ONNX Runtime {ort.__version__}, WebGPU EP ({gpu.adapter}); graph capture "
             f"{'on' if gpu.graph_capture else 'off'}; K = {args.k}; per-conv ms = (T(K) - T({args.k_from})) / (K - {args.k_from}).", "",
             "| layer | ORT ms | wgconv parallel ms | ratio (ORT/wgconv, parallel) | wgconv back-to-back ms | ratio (ORT/wgconv) |",
             "|---|---|---|---|---|---|"]
    par_ratios, b2b_ratios = [], []
    for layer in suite:
        name = layer["name"]
        if name not in results:
            continue
        t = results[name]["ms"]
        o = ours.get(name, {})
        par, b2b = o.get("parallel_ms"), o.get("median_ms")
        cells = []
        for mine, ratios in ((par, par_ratios), (b2b, b2b_ratios)):
            if mine and mine > 0 and t > 0:
                ratios.append(t / mine)
                cells += [f"{mine:.4f}", f"{t / mine:.2f}x"]
            else:
                cells += ["-", "-"]
        lines.append(f"| {name} | {t:.4f} | " + " | ".join(cells) + " |")
    totals = model_totals(suite, {n: r["ms"] for n, r in results.items()})
    if totals:
        # Both sides summed over the same layers: those ORT timed (a cut or failed layer is left
        # out of both, and the model marked partial).
        timed = set(results)
        our_par = model_totals(suite, {n: o["parallel_ms"] for n, o in ours.items() if n in timed and o.get("parallel_ms")})
        our_b2b = model_totals(suite, {n: o["median_ms"] for n, o in ours.items() if n in timed})
        partial = {layer["model"] for layer in suite if "model" in layer and layer["name"] not in timed
                   and layer["op"] in FLOAT_OPS}
        lines += ["", "| model | ORT ms | wgconv parallel ms | wgconv back-to-back ms |", "|---|---|---|---|"]
        for model, t in totals.items():
            p, b = our_par.get(model), our_b2b.get(model)
            label = f"{model} (partial: not every layer timed)" if model in partial else model
            lines.append(f"| {label} | {t:.4f} | {f'{p:.4f}' if p else '-'} | {f'{b:.4f}' if b else '-'} |")
    if par_ratios:
        lines.append(f"\ngeometric mean ORT/wgconv, both parallel: {geomean(par_ratios):.3f}x over {len(par_ratios)} layers;"
                     f" slower than ORT on {sum(r < 1 for r in par_ratios)}")
    if b2b_ratios:
        lines.append(f"geometric mean ORT (parallel) / wgconv back-to-back: {geomean(b2b_ratios):.3f}x over {len(b2b_ratios)} layers")
    if failed:
        lines.append(f"\n{len(failed)} layers not timed: " + "; ".join(f"{n} ({r})" for n, r in failed.items()))
    report("\n".join(lines), args.markdown)
    if args.json:
        write_json(args, gpu, results, failed, suite)


def write_json(args, gpu, results, failed, suite):
    """Writes the timings so far (called after every layer, so a cut run keeps them)."""
    with open(args.json, "w") as file:
        json.dump({"onnxruntime": ort.__version__, "adapter": {k: str(v) for k, v in gpu.adapter.items()},
                   "graph_capture": gpu.graph_capture, "k": args.k, "k_from": args.k_from,
                   "models_ms": model_totals(suite, {n: r["ms"] for n, r in results.items()}),
                   "layers": results, "failed": failed}, file, indent=2)


if __name__ == "__main__":
    main()
