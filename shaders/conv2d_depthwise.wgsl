// Depthwise and other few-channels-per-group convolutions (any channel multiplier), fp32 NCHW.
// Each thread computes four outputs of one row over the group's input channels: with Q = ⌈OW/4⌉
// threads per row, thread q takes columns q, q + Q, q + 2Q and q + 3Q, so for each of the four
// the threads of a row read neighbouring inputs and store neighbouring outputs (coalesced), and
// each filter tap is loaded once per four outputs; the index decode happens once per thread.
// Depthwise layers are memory-bound: the target is the copy roofline.

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

@group(0) @binding(0) var<storage, read> input: array<f32>;
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
// Input channels per group (IC / groups), specialised so the depthwise case (1) has no channel
// loop: a runtime loop there measured 9 % slower on the H200. Must equal the uniform's ratio.
override channels_per_group: u32 = 1;

fn activate(v: f32) -> f32 {
    if (activation == 1u) {
        return max(v, 0.0);
    }
    if (activation == 2u) {
        return clamp(v, clamp_min, clamp_max);
    }
    return v;
}

fn tap(row: u32, ix: i32) -> f32 {
    let inside = ix >= 0 && ix < i32(params.iw);
    return select(0.0, input[row + u32(select(0, ix, inside))], inside);
}

fn put(at: u32, ow: u32, v: f32, b: f32) {
    if (ow < params.ow) {
        output[at] = activate(v + b);
    }
}

@compute @workgroup_size(wg_size)
fn conv2d_depthwise(@builtin(global_invocation_id) gid: vec3<u32>) {
    let index = gid.y * stride_x + gid.x;
    let quads = (params.ow + 3u) / 4u;
    if (index >= params.n * params.oc * params.oh * quads) {
        return;
    }
    let q = index % quads;
    let t = index / quads;
    let oh = t % params.oh;
    let plane = t / params.oh;
    let oc = plane % params.oc;
    let b = plane / params.oc;
    let icg = channels_per_group;
    let group = oc / (params.oc / params.groups);
    let sw = i32(params.stride_w);
    let ix0 = i32(q) * sw - i32(params.pad_w);
    // Input columns between a thread's outputs.
    let step = i32(quads) * sw;
    let iy0 = i32(oh * params.stride_h) - i32(params.pad_h);
    var acc0 = 0.0;
    var acc1 = 0.0;
    var acc2 = 0.0;
    var acc3 = 0.0;
    for (var c = 0u; c < icg; c++) {
        let in_plane = (b * params.ic + group * icg + c) * params.ih;
        for (var ky = 0u; ky < params.kh; ky++) {
            let iy = iy0 + i32(ky * params.dilation_h);
            if (iy < 0 || iy >= i32(params.ih)) {
                continue;
            }
            let row = (in_plane + u32(iy)) * params.iw;
            let w_row = ((oc * icg + c) * params.kh + ky) * params.kw;
            for (var kx = 0u; kx < params.kw; kx++) {
                let w = weight[w_row + kx];
                let ix = ix0 + i32(kx * params.dilation_w);
                acc0 = fma(tap(row, ix), w, acc0);
                acc1 = fma(tap(row, ix + step), w, acc1);
                acc2 = fma(tap(row, ix + 2 * step), w, acc2);
                acc3 = fma(tap(row, ix + 3 * step), w, acc3);
            }
        }
    }
    // Read only when bound: without a bias the binding is a 4-float placeholder.
    var bias_value = 0.0;
    if (params.has_bias != 0u) {
        bias_value = bias[oc];
    }
    let at = (plane * params.oh + oh) * params.ow;
    put(at + q, q, acc0, bias_value);
    put(at + q + quads, q + quads, acc1, bias_value);
    put(at + q + 2u * quads, q + 2u * quads, acc2, bias_value);
    put(at + q + 3u * quads, q + 3u * quads, acc3, bias_value);
}
