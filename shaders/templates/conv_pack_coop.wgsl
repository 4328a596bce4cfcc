{# variants: f16 #}
// Prepacks a direct convolution's weight for the channels-last tensor-core kernel
// (conv2d_coop_nhwc.wgsl): f16, K-major with the taps outside the input channels, output channels
// innermost and padded with zeros to a multiple of 8, so the kernel loads 8 output channels of one
// K row as one 16-byte vector:
//   weight [groups·OCg, ICg, KH, KW] ({{ io }}) → packed [groups, KH·KW, ICg, OCg8] (f16)

enable f16;

struct PackParams {
    groups: u32,
    icg: u32,
    ocg: u32,
    ocg8: u32,
    taps: u32,
    _pad0: u32,
    total: u32,
    _pad1: u32,
}

@group(0) @binding(0) var<storage, read> weight: array<{{ io }}>;
@group(0) @binding(1) var<storage, read_write> packed: array<f16>;
@group(0) @binding(2) var<uniform> params: PackParams;

override wg_size: u32 = 256;
override stride_x: u32;

@compute @workgroup_size(wg_size)
fn pack_weight_coop(@builtin(global_invocation_id) gid: vec3<u32>) {
    let index = gid.y * stride_x + gid.x;
    if (index >= params.total) {
        return;
    }
    let m = index % params.ocg8;
    var t = index / params.ocg8;
    let ic = t % params.icg;
    t = t / params.icg;
    let tap = t % params.taps;
    let g = t / params.taps;
    var value = f16(0.0);
    if (m < params.ocg) {
        value = {{ "f16" if io == "f32" else "" }}(weight[((g * params.ocg + m) * params.icg + ic) * params.taps + tap]);
    }
    packed[index] = value;
}
