{% import "prelude/conv.wgsl" as conv %}
{# variants: f16 #}
// NCHW convolution, one thread per output element (the reference kernels). Tensors are {{ io }}
// (the output {{ out }}); the arithmetic is f32.
//
// Entry points share one uniform and one set of bindings:
//   conv2d            direct convolution, scalar inner loop
//   conv2d_vec4       direct convolution, 4 input channels per step (IC/groups % 4 == 0)
//   conv_transpose2d  transposed convolution in gather form (weight [IC, OC/groups, KH, KW])

{% if io == "f16" or out == "f16" %}
enable f16;

{% endif %}
{{ conv.params_struct() }}

@group(0) @binding(0) var<storage, read> input: array<{{ io }}>;
@group(0) @binding(1) var<storage, read> weight: array<{{ io }}>;
@group(0) @binding(2) var<storage, read> bias: array<{{ io }}>;
@group(0) @binding(3) var<storage, read_write> output: array<{{ out }}>;
@group(0) @binding(4) var<uniform> params: ConvParams;

// Threads per workgroup (x).
override wg_size: u32 = 256;
// Threads per row of the dispatch grid: workgroups in x times wg_size. A grid wider than 65535
// workgroups is folded into 2D; the flat output index is gid.y * stride_x + gid.x.
override stride_x: u32;
{{ conv.activation_overrides() }}

{{ conv.activate() }}

fn finish(index: u32, oc: u32, acc: f32) {
    var v = acc;
    if (params.has_bias != 0u) {
        v = v + {{ to_f32 }}(bias[oc]);
    }
    output[index] = {{ to_out }}(activate(v));
}

// Output coordinates of a flat NCHW index: (batch, channel, row, column).
fn decode(index: u32) -> vec4<u32> {
    let ow = index % params.ow;
    let t = index / params.ow;
    let oh = t % params.oh;
    let t2 = t / params.oh;
    return vec4<u32>(t2 / params.oc, t2 % params.oc, oh, ow);
}

fn output_count() -> u32 {
    return params.n * params.oc * params.oh * params.ow;
}

@compute @workgroup_size(wg_size)
fn conv2d(@builtin(global_invocation_id) gid: vec3<u32>) {
    let index = gid.y * stride_x + gid.x;
    if (index >= output_count()) {
        return;
    }
    let c = decode(index);
    let ic_per_group = params.ic / params.groups;
    let oc_per_group = params.oc / params.groups;
    let ic_start = (c.y / oc_per_group) * ic_per_group;
    let iy0 = i32(c.z * params.stride_h) - i32(params.pad_h);
    let ix0 = i32(c.w * params.stride_w) - i32(params.pad_w);
    var acc = 0.0;
    for (var i = 0u; i < ic_per_group; i++) {
        let in_plane = (c.x * params.ic + ic_start + i) * params.ih;
        let w_plane = (c.y * ic_per_group + i) * params.kh;
        for (var ky = 0u; ky < params.kh; ky++) {
            let iy = iy0 + i32(ky * params.dilation_h);
            if (iy < 0 || iy >= i32(params.ih)) {
                continue;
            }
            let in_row = (in_plane + u32(iy)) * params.iw;
            let w_row = (w_plane + ky) * params.kw;
            for (var kx = 0u; kx < params.kw; kx++) {
                let ix = ix0 + i32(kx * params.dilation_w);
                if (ix < 0 || ix >= i32(params.iw)) {
                    continue;
                }
                acc = fma({{ to_f32 }}(input[in_row + u32(ix)]), {{ to_f32 }}(weight[w_row + kx]), acc);
            }
        }
    }
    finish(index, c.y, acc);
}

@compute @workgroup_size(wg_size)
fn conv2d_vec4(@builtin(global_invocation_id) gid: vec3<u32>) {
    let index = gid.y * stride_x + gid.x;
    if (index >= output_count()) {
        return;
    }
    let c = decode(index);
    let ic_per_group = params.ic / params.groups;
    let oc_per_group = params.oc / params.groups;
    let ic_start = (c.y / oc_per_group) * ic_per_group;
    let iy0 = i32(c.z * params.stride_h) - i32(params.pad_h);
    let ix0 = i32(c.w * params.stride_w) - i32(params.pad_w);
    let in_step = params.ih * params.iw;
    let w_step = params.kh * params.kw;
    var acc = vec4<f32>(0.0);
    for (var ky = 0u; ky < params.kh; ky++) {
        let iy = iy0 + i32(ky * params.dilation_h);
        if (iy < 0 || iy >= i32(params.ih)) {
            continue;
        }
        for (var kx = 0u; kx < params.kw; kx++) {
            let ix = ix0 + i32(kx * params.dilation_w);
            if (ix < 0 || ix >= i32(params.iw)) {
                continue;
            }
            var in_at = ((c.x * params.ic + ic_start) * params.ih + u32(iy)) * params.iw + u32(ix);
            var w_at = (c.y * ic_per_group * params.kh + ky) * params.kw + kx;
            // Four input channels per step: one vec4 of strided inputs against one of weights.
            for (var i = 0u; i < ic_per_group; i += 4u) {
                let x = vec4<f32>(
                    {{ to_f32 }}(input[in_at]),
                    {{ to_f32 }}(input[in_at + in_step]),
                    {{ to_f32 }}(input[in_at + 2u * in_step]),
                    {{ to_f32 }}(input[in_at + 3u * in_step]),
                );
                let w = vec4<f32>(
                    {{ to_f32 }}(weight[w_at]),
                    {{ to_f32 }}(weight[w_at + w_step]),
                    {{ to_f32 }}(weight[w_at + 2u * w_step]),
                    {{ to_f32 }}(weight[w_at + 3u * w_step]),
                );
                acc = fma(x, w, acc);
                in_at += 4u * in_step;
                w_at += 4u * w_step;
            }
        }
    }
    finish(index, c.y, acc.x + acc.y + acc.z + acc.w);
}

// Gather form: output (oh, ow) receives input (iy, ix) through tap (ky, kx) when
// oh + pad_h - ky * dilation_h == iy * stride_h (and likewise along W).
@compute @workgroup_size(wg_size)
fn conv_transpose2d(@builtin(global_invocation_id) gid: vec3<u32>) {
    let index = gid.y * stride_x + gid.x;
    if (index >= output_count()) {
        return;
    }
    let c = decode(index);
    let ic_per_group = params.ic / params.groups;
    let oc_per_group = params.oc / params.groups;
    let group = c.y / oc_per_group;
    let oc_in_group = c.y % oc_per_group;
    let ty0 = i32(c.z + params.pad_h);
    let tx0 = i32(c.w + params.pad_w);
    var acc = 0.0;
    for (var ky = 0u; ky < params.kh; ky++) {
        let ty = ty0 - i32(ky * params.dilation_h);
        if (ty < 0 || u32(ty) % params.stride_h != 0u) {
            continue;
        }
        let iy = u32(ty) / params.stride_h;
        if (iy >= params.ih) {
            continue;
        }
        for (var kx = 0u; kx < params.kw; kx++) {
            let tx = tx0 - i32(kx * params.dilation_w);
            if (tx < 0 || u32(tx) % params.stride_w != 0u) {
                continue;
            }
            let ix = u32(tx) / params.stride_w;
            if (ix >= params.iw) {
                continue;
            }
            for (var i = 0u; i < ic_per_group; i++) {
                let ic = group * ic_per_group + i;
                let x = {{ to_f32 }}(input[((c.x * params.ic + ic) * params.ih + iy) * params.iw + ix]);
                let w = {{ to_f32 }}(weight[((ic * oc_per_group + oc_in_group) * params.kh + ky) * params.kw + kx]);
                acc = fma(x, w, acc);
            }
        }
    }
    finish(index, c.y, acc);
}
