// Depthwise convolution with vec4 input loads (one input channel per group, any channel
// multiplier), fp32 NCHW, for input rows whose width is a multiple of 4, horizontal stride 1 or 2
// and no horizontal dilation.
//
// Each thread computes four consecutive outputs of one row. Per filter row it loads the input
// span those outputs need as up to four aligned vec4s — consecutive threads read consecutive
// 16-byte words, so every load instruction uses whole cache lines, where four scalar loads at a
// 16-byte lane stride touch four lines each. A width that is a multiple of 4 puts every vec4
// either inside the row or wholly in the padding. Because the first output of a thread is a
// multiple of 4, its span starts at a fixed offset within the first vec4 ((−padding) mod 4), so
// with the filter geometry specialised into the pipeline each tap is a constant component.

struct ConvParams {
    n: u32,
    ic: u32,
    ih: u32,
    iw: u32,
    oc: u32,
    oh: u32,
    ow: u32,
    kh: u32,
    kw: u32,
    stride_h: u32,
    stride_w: u32,
    pad_h: u32,
    pad_w: u32,
    dilation_h: u32,
    dilation_w: u32,
    groups: u32,
    has_bias: u32,
    _pad0: u32,
    _pad1: u32,
    _pad2: u32,
}

@group(0) @binding(0) var<storage, read> input: array<vec4<f32>>;
@group(0) @binding(1) var<storage, read> weight: array<f32>;
@group(0) @binding(2) var<storage, read> bias: array<f32>;
@group(0) @binding(3) var<storage, read_write> output: array<f32>;
@group(0) @binding(4) var<uniform> params: ConvParams;

override wg_size: u32 = 256;
// Threads per row of the (possibly folded) 2D grid.
override stride_x: u32;
// Fused output activation: 0 none, 1 relu, 2 clamp(clamp_min, clamp_max).
override activation: u32 = 0;
override clamp_min: f32 = 0.0;
override clamp_max: f32 = 0.0;
// The filter geometry, specialised into the pipeline. Must equal the uniform's values; the
// planner only picks this kernel for stride_w ≤ 2, dilation_w = 1 and spans of ≤ 4 vec4s.
override spec_kh: u32 = 3;
override spec_kw: u32 = 3;
override spec_stride_h: u32 = 1;
override spec_stride_w: u32 = 1;
override spec_pad_h: u32 = 1;
override spec_pad_w: u32 = 1;
override spec_dilation_h: u32 = 1;

// Offset of a thread's first input column within its first vec4: (−pad_w) mod 4.
override span_offset: u32 = (4u - spec_pad_w % 4u) % 4u;
// vec4s per filter row: enough for columns span_offset ..= span_offset + 3·stride_w + kw − 1.
override span_vec4s: u32 = (span_offset + 3u * spec_stride_w + spec_kw - 1u) / 4u + 1u;

fn activate(v: f32) -> f32 {
    if (activation == 1u) {
        return max(v, 0.0);
    }
    if (activation == 2u) {
        return clamp(v, clamp_min, clamp_max);
    }
    return v;
}

// vec4 `q` of an input row (zero when it lies in the padding), or zero past the span.
fn load(row: u32, v0: i32, q: u32) -> vec4<f32> {
    let v = v0 + i32(q);
    let inside = q < span_vec4s && v >= 0 && v < i32(params.iw / 4u);
    return select(vec4<f32>(0.0), input[row + u32(select(0, v, inside))], inside);
}

// Element `e` of the span r0..r3 (e < 16; a constant once the tap loops are unrolled).
fn pick(r0: vec4<f32>, r1: vec4<f32>, r2: vec4<f32>, r3: vec4<f32>, e: u32) -> f32 {
    let r = select(select(select(r0, r1, e >= 4u), r2, e >= 8u), r3, e >= 12u);
    return r[e % 4u];
}

fn put(at: u32, ow: u32, v: f32, b: f32) {
    if (ow < params.ow) {
        output[at] = activate(v + b);
    }
}

@compute @workgroup_size(wg_size)
fn conv2d_depthwise_vec4(@builtin(global_invocation_id) gid: vec3<u32>) {
    let index = gid.y * stride_x + gid.x;
    let quads = (params.ow + 3u) / 4u;
    if (index >= params.n * params.oc * params.oh * quads) {
        return;
    }
    let ow0 = (index % quads) * 4u;
    let t = index / quads;
    let oh = t % params.oh;
    let plane = t / params.oh;
    let oc = plane % params.oc;
    let b = plane / params.oc;
    let ic = oc / (params.oc / params.groups);
    let row_vec4s = params.iw / 4u;
    let in_plane = (b * params.ic + ic) * params.ih;
    // First input column x_lo = ow0·sW − pW; x_lo − span_offset is a multiple of 4 (ow0 is).
    let v0 = (i32(ow0 * spec_stride_w) - i32(spec_pad_w) - i32(span_offset)) / 4;
    let iy0 = i32(oh * spec_stride_h) - i32(spec_pad_h);
    var acc0 = 0.0;
    var acc1 = 0.0;
    var acc2 = 0.0;
    var acc3 = 0.0;
    for (var ky = 0u; ky < spec_kh; ky++) {
        let iy = iy0 + i32(ky * spec_dilation_h);
        if (iy < 0 || iy >= i32(params.ih)) {
            continue;
        }
        let row = (in_plane + u32(iy)) * row_vec4s;
        let r0 = load(row, v0, 0u);
        let r1 = load(row, v0, 1u);
        let r2 = load(row, v0, 2u);
        let r3 = load(row, v0, 3u);
        let w_row = (oc * spec_kh + ky) * spec_kw;
        for (var kx = 0u; kx < spec_kw; kx++) {
            let w = weight[w_row + kx];
            let e = span_offset + kx;
            acc0 = fma(pick(r0, r1, r2, r3, e), w, acc0);
            acc1 = fma(pick(r0, r1, r2, r3, e + spec_stride_w), w, acc1);
            acc2 = fma(pick(r0, r1, r2, r3, e + 2u * spec_stride_w), w, acc2);
            acc3 = fma(pick(r0, r1, r2, r3, e + 3u * spec_stride_w), w, acc3);
        }
    }
    let bias_value = select(0.0, bias[oc], params.has_bias != 0u);
    let at = (plane * params.oh + oh) * params.ow + ow0;
    put(at, ow0, acc0, bias_value);
    put(at + 1u, ow0 + 1u, acc1, bias_value);
    put(at + 2u, ow0 + 2u, acc2, bias_value);
    put(at + 3u, ow0 + 3u, acc3, bias_value);
}
