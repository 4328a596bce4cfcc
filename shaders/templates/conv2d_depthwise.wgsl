{% import "prelude/conv.wgsl" as conv %}
{# variants: f16 #}
// Depthwise and other few-channels-per-group convolutions (any channel multiplier), fp32 NCHW.
// Each thread computes four outputs of one row over the group's input channels: with Q = ⌈OW/4⌉
// threads per row, thread q takes columns q, q + Q, q + 2Q and q + 3Q, so for each of the four
// the threads of a row read neighbouring inputs and store neighbouring outputs (coalesced), and
// each filter tap is loaded once per four outputs; the index decode happens once per thread.
// Depthwise layers are memory-bound: the target is the copy roofline.

{% if io == "f16" or out == "f16" %}
enable f16;

{% endif %}
{{ conv.params_struct() }}

@group(0) @binding(0) var<storage, read> input: array<{{ io }}>;
@group(0) @binding(1) var<storage, read> weight: array<{{ io }}>;
@group(0) @binding(2) var<storage, read> bias: array<{{ io }}>;
@group(0) @binding(3) var<storage, read_write> output: array<{{ out }}>;
@group(0) @binding(4) var<uniform> params: ConvParams;

override wg_size: u32 = 256;
// Threads per row of the (possibly folded) 2D grid.
override stride_x: u32;
{{ conv.activation_overrides() }}
// Input channels per group (IC / groups), specialised so the depthwise case (1) has no channel
// loop: a runtime loop there measured 9 % slower on the H200. Must equal the uniform's ratio.
override channels_per_group: u32 = 1;

{{ conv.activate() }}

fn tap(row: u32, ix: i32) -> f32 {
    let inside = ix >= 0 && ix < i32(params.iw);
    return select(0.0, {{ to_f32 }}(input[row + u32(select(0, ix, inside))]), inside);
}

fn put(at: u32, ow: u32, v: f32, b: f32) {
    if (ow < params.ow) {
        output[at] = {{ to_out }}(activate(v + b));
    }
}

// A thread's four outputs of the output row starting at `row`: columns q + j·quads.
fn put_row(row: u32, q: u32, quads: u32, v0: f32, v1: f32, v2: f32, v3: f32, b: f32) {
    put(row + q, q, v0, b);
    put(row + q + quads, q + quads, v1, b);
    put(row + q + 2u * quads, q + 2u * quads, v2, b);
    put(row + q + 3u * quads, q + 3u * quads, v3, b);
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
                let w = {{ to_f32 }}(weight[w_row + kx]);
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
        bias_value = {{ to_f32 }}(bias[oc]);
    }
    let at = (plane * params.oh + oh) * params.ow;
    put_row(at, q, quads, acc0, acc1, acc2, acc3, bias_value);
}

// Four consecutive output channels of one group per thread (OC/groups a multiple of 4), each
// for the same four columns as above: every input tap loaded serves 16 multiply-adds instead
// of 4, which pays where groups have several input channels (ResNeXt: 4 per group).
@compute @workgroup_size(wg_size)
fn conv2d_grouped_oc4(@builtin(global_invocation_id) gid: vec3<u32>) {
    let index = gid.y * stride_x + gid.x;
    let quads = (params.ow + 3u) / 4u;
    let oc_quads = params.oc / 4u;
    if (index >= params.n * oc_quads * params.oh * quads) {
        return;
    }
    let q = index % quads;
    let t = index / quads;
    let oh = t % params.oh;
    let quad_plane = t / params.oh;
    let oc0 = (quad_plane % oc_quads) * 4u;
    let b = quad_plane / oc_quads;
    let icg = channels_per_group;
    let group = oc0 / (params.oc / params.groups);
    let sw = i32(params.stride_w);
    let ix0 = i32(q) * sw - i32(params.pad_w);
    let step = i32(quads) * sw;
    let iy0 = i32(oh * params.stride_h) - i32(params.pad_h);
    // Weights of output channel oc0 + o start o · taps_per_oc further on.
    let taps_per_oc = icg * params.kh * params.kw;
    // acc_o_j: output channel oc0 + o, column q + j·quads.
    var acc_0_0 = 0.0;
    var acc_0_1 = 0.0;
    var acc_0_2 = 0.0;
    var acc_0_3 = 0.0;
    var acc_1_0 = 0.0;
    var acc_1_1 = 0.0;
    var acc_1_2 = 0.0;
    var acc_1_3 = 0.0;
    var acc_2_0 = 0.0;
    var acc_2_1 = 0.0;
    var acc_2_2 = 0.0;
    var acc_2_3 = 0.0;
    var acc_3_0 = 0.0;
    var acc_3_1 = 0.0;
    var acc_3_2 = 0.0;
    var acc_3_3 = 0.0;
    for (var c = 0u; c < icg; c++) {
        let in_plane = (b * params.ic + group * icg + c) * params.ih;
        for (var ky = 0u; ky < params.kh; ky++) {
            let iy = iy0 + i32(ky * params.dilation_h);
            if (iy < 0 || iy >= i32(params.ih)) {
                continue;
            }
            let row = (in_plane + u32(iy)) * params.iw;
            let w_row = ((oc0 * icg + c) * params.kh + ky) * params.kw;
            for (var kx = 0u; kx < params.kw; kx++) {
                let ix = ix0 + i32(kx * params.dilation_w);
                let x0 = tap(row, ix);
                let x1 = tap(row, ix + step);
                let x2 = tap(row, ix + 2 * step);
                let x3 = tap(row, ix + 3 * step);
                let w0 = {{ to_f32 }}(weight[w_row + kx]);
                let w1 = {{ to_f32 }}(weight[w_row + taps_per_oc + kx]);
                let w2 = {{ to_f32 }}(weight[w_row + 2u * taps_per_oc + kx]);
                let w3 = {{ to_f32 }}(weight[w_row + 3u * taps_per_oc + kx]);
                acc_0_0 = fma(x0, w0, acc_0_0);
                acc_0_1 = fma(x1, w0, acc_0_1);
                acc_0_2 = fma(x2, w0, acc_0_2);
                acc_0_3 = fma(x3, w0, acc_0_3);
                acc_1_0 = fma(x0, w1, acc_1_0);
                acc_1_1 = fma(x1, w1, acc_1_1);
                acc_1_2 = fma(x2, w1, acc_1_2);
                acc_1_3 = fma(x3, w1, acc_1_3);
                acc_2_0 = fma(x0, w2, acc_2_0);
                acc_2_1 = fma(x1, w2, acc_2_1);
                acc_2_2 = fma(x2, w2, acc_2_2);
                acc_2_3 = fma(x3, w2, acc_2_3);
                acc_3_0 = fma(x0, w3, acc_3_0);
                acc_3_1 = fma(x1, w3, acc_3_1);
                acc_3_2 = fma(x2, w3, acc_3_2);
                acc_3_3 = fma(x3, w3, acc_3_3);
            }
        }
    }
    var b0 = 0.0;
    var b1 = 0.0;
    var b2 = 0.0;
    var b3 = 0.0;
    if (params.has_bias != 0u) {
        b0 = {{ to_f32 }}(bias[oc0]);
        b1 = {{ to_f32 }}(bias[oc0 + 1u]);
        b2 = {{ to_f32 }}(bias[oc0 + 2u]);
        b3 = {{ to_f32 }}(bias[oc0 + 3u]);
    }
    let plane_size = params.oh * params.ow;
    let at = ((b * params.oc + oc0) * params.oh + oh) * params.ow;
    put_row(at, q, quads, acc_0_0, acc_0_1, acc_0_2, acc_0_3, b0);
    put_row(at + plane_size, q, quads, acc_1_0, acc_1_1, acc_1_2, acc_1_3, b1);
    put_row(at + 2u * plane_size, q, quads, acc_2_0, acc_2_1, acc_2_2, acc_2_3, b2);
    put_row(at + 3u * plane_size, q, quads, acc_3_0, acc_3_1, acc_3_2, acc_3_3, b3);
}
