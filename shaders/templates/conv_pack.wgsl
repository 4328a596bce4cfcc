{# variants: f16 #}
// Prepacks a convolution weight for the GEMM kernel: output channels innermost, padded to a
// multiple of 4, so the GEMM loads four output channels of one (ic, kh, kw) as one vec4.
//   direct weight     [groups·OCg, ICg, KH, KW] → packed [groups, ICg, KH, KW, OCg4]
//   transposed weight [groups·ICg, OCg, KH, KW] → packed [groups, ICg, KH, KW, OCg4]
// with OCg4 = OCg rounded up to a multiple of 4 (the padding is zero). The weight is {{ io }}; the
// packed copy is always f32 (the GEMM kernels read f32).

{% if io == "f16" or out == "f16" %}
enable f16;

{% endif %}
struct PackParams {
    groups: u32,
    icg: u32,
    ocg: u32,
    ocg4: u32,
    taps: u32,
    transposed: u32,
    total: u32,
    _pad0: u32,
}

@group(0) @binding(0) var<storage, read> weight: array<{{ io }}>;
@group(0) @binding(1) var<storage, read_write> packed: array<f32>;
@group(0) @binding(2) var<uniform> params: PackParams;

override wg_size: u32 = 256;
override stride_x: u32;

@compute @workgroup_size(wg_size)
fn pack_weight(@builtin(global_invocation_id) gid: vec3<u32>) {
    let index = gid.y * stride_x + gid.x;
    if (index >= params.total) {
        return;
    }
    let m = index % params.ocg4;
    var t = index / params.ocg4;
    let tap = t % params.taps;
    t = t / params.taps;
    let ic = t % params.icg;
    let g = t / params.icg;
    var value = 0.0;
    if (m < params.ocg) {
        if (params.transposed == 0u) {
            value = {{ to_f32 }}(weight[((g * params.ocg + m) * params.icg + ic) * params.taps + tap]);
        } else {
            value = {{ to_f32 }}(weight[((g * params.icg + ic) * params.ocg + m) * params.taps + tap]);
        }
    }
    packed[index] = value;
}
