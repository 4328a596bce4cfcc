{# variants: f16 #}
// Converts a rank-4 tensor between NCHW (contiguous) and NHWC (channels-last) memory order:
// one thread per output element, {{ io }} elements. The logical shape [N, C, H, W] is the same on
// both sides.
{% if io == "f16" %}

enable f16;
{% endif %}

struct RelayoutParams {
    n: u32,
    c: u32,
    h: u32,
    w: u32,
    numel: u32,
    _pad0: u32,
    _pad1: u32,
    _pad2: u32,
}

@group(0) @binding(0) var<storage, read> source: array<{{ io }}>;
@group(0) @binding(1) var<storage, read_write> destination: array<{{ io }}>;
@group(0) @binding(2) var<uniform> params: RelayoutParams;

override wg_size: u32 = 256;
override stride_x: u32;

// NCHW → NHWC: target index ((n·H + y)·W + x)·C + c reads source ((n·C + c)·H + y)·W + x.
@compute @workgroup_size(wg_size)
fn to_channels_last(@builtin(global_invocation_id) gid: vec3<u32>) {
    let index = gid.y * stride_x + gid.x;
    if (index >= params.numel) {
        return;
    }
    let c = index % params.c;
    let pixel = index / params.c;
    let hw = params.h * params.w;
    let n = pixel / hw;
    destination[index] = source[(n * params.c + c) * hw + pixel % hw];
}

// NHWC → NCHW: target index ((n·C + c)·H + y)·W + x reads source ((n·H + y)·W + x)·C + c.
@compute @workgroup_size(wg_size)
fn to_contiguous(@builtin(global_invocation_id) gid: vec3<u32>) {
    let index = gid.y * stride_x + gid.x;
    if (index >= params.numel) {
        return;
    }
    let hw = params.h * params.w;
    let plane = index / hw;
    let c = plane % params.c;
    let n = plane / params.c;
    destination[index] = source[(n * hw + index % hw) * params.c + c];
}
