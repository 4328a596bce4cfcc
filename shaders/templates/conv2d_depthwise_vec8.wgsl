{% import "prelude/conv.wgsl" as conv %}
{% import "prelude/depthwise_runs.wgsl" as runs %}
// Depthwise convolution of f16 NCHW tensors (one input channel per group, any channel
// multiplier), for input and output widths that are multiples of 8, with the filter geometry
// specialised into the pipeline: `DepthwiseVec4`'s kernel for f16 tensors
// (conv2d_depthwise_vec4.wgsl has the f32 one and the 4-wide f16 one for other widths).
//
// As there, each thread computes `rows_per_thread` consecutive output rows and consecutive
// threads take consecutive runs of columns, but a run is 8 columns: the tensors are read and
// written as 16-byte vec4<u32>s of 8 halves (unpacked to f32 lane pairs, sums in f32). The
// 4-wide kernel on f16 tensors moved half the bytes in as many threads and loads as on f32
// tensors, and took as long (H200, docs/PERFORMANCE.md v39): these layers are bound by their
// loads and threads, not only by their bytes.

enable f16;

{{ conv.params_struct() }}

// Halves, 8 per element (unpacked with unpack2x16float, packed with pack2x16float).
@group(0) @binding(0) var<storage, read> input: array<vec4<u32>>;
@group(0) @binding(1) var<storage, read> weight: array<f16>;
@group(0) @binding(2) var<storage, read> bias: array<f16>;
@group(0) @binding(3) var<storage, read_write> output: array<vec4<u32>>;
@group(0) @binding(4) var<uniform> params: ConvParams;

{{ runs.overrides() }}

{{ runs.window(8) }}

{{ conv.activate(vec4=true) }}

// Lane e of the loaded window v0..v3 (e a constant after unrolling, so this folds to a register).
fn lane(v0: vec4<u32>, v1: vec4<u32>, v2: vec4<u32>, v3: vec4<u32>, e: u32) -> f32 {
    let k = e / 8u;
    var v = v3;
    if (k == 0u) {
        v = v0;
    } else if (k == 1u) {
        v = v1;
    } else if (k == 2u) {
        v = v2;
    }
    return unpack2x16float(v[(e % 8u) / 2u])[e % 2u];
}

// Lanes e, e + sW, … (4 of them, starting at `first` of the run's 8) of the window.
fn lanes(v0: vec4<u32>, v1: vec4<u32>, v2: vec4<u32>, v3: vec4<u32>, e: u32, first: u32) -> vec4<f32> {
    let s = spec_stride_w;
    return vec4<f32>(
        lane(v0, v1, v2, v3, e + first * s),
        lane(v0, v1, v2, v3, e + (first + 1u) * s),
        lane(v0, v1, v2, v3, e + (first + 2u) * s),
        lane(v0, v1, v2, v3, e + (first + 3u) * s),
    );
}

// Adds window row `r`'s contribution at filter column `kx` to the thread's output row `j`
// (columns 0–3 in `acc.lo`, 4–7 in `acc.hi`) when a filter row maps that output row onto that
// input row (r = j·sH + ky·dH).
fn add(acc: mat2x4<f32>, j: u32, r: u32, kx: u32, v0: vec4<u32>, v1: vec4<u32>, v2: vec4<u32>, v3: vec4<u32>, w_base: u32) -> mat2x4<f32> {
    if (j >= rows_per_thread || r < j * spec_stride_h) {
        return acc;
    }
    let d = r - j * spec_stride_h;
    if (d % spec_dilation_h != 0u || d / spec_dilation_h >= spec_kh) {
        return acc;
    }
    let w = vec4<f32>(f32(weight[w_base + (d / spec_dilation_h) * spec_kw + kx]));
    let e = offset() + kx * spec_dilation_w;
    return mat2x4<f32>(fma(lanes(v0, v1, v2, v3, e, 0u), w, acc[0]), fma(lanes(v0, v1, v2, v3, e, 4u), w, acc[1]));
}

// Aligned vector `k` of the window row starting at vector `row8` + `v_lo`: zero outside the
// image (the padding); whole vectors are in or out, since the width is a multiple of 8.
fn fetch(row8: u32, row_inside: bool, v_lo: i32, k: u32) -> vec4<u32> {
    let v = v_lo + i32(k);
    let inside = row_inside && k < vecs() && v >= 0 && v < i32(params.iw / 8u);
    return select(vec4<u32>(0u), input[row8 + u32(select(0, v, inside))], inside);
}

fn put(at: u32, j: u32, oy: u32, acc: mat2x4<f32>, b: f32) {
    if (j < rows_per_thread && oy < params.oh) {
        let lo = activate(acc[0] + vec4<f32>(b));
        let hi = activate(acc[1] + vec4<f32>(b));
        output[at] = vec4<u32>(pack2x16float(lo.xy), pack2x16float(lo.zw), pack2x16float(hi.xy), pack2x16float(hi.zw));
    }
}

{{ runs.entry("conv2d_depthwise_vec8", 8, "mat2x4<f32>()", "f32(bias[oc])") }}
