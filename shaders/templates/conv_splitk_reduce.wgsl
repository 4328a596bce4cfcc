{% import "prelude/conv.wgsl" as conv %}
{# variants: f16 #}
// Sums the split-K partial outputs of conv2d_gemm.wgsl or conv2d_coop.wgsl, adds the bias and
// applies the activation.
// partial holds `splits` consecutive copies of the NCHW output, always f32; bias and output are
// {{ io }}.

{% if io == "f16" or out == "f16" %}
enable f16;

{% endif %}
struct ReduceParams {
    numel: u32,
    splits: u32,
    oc: u32,
    plane: u32,
    has_bias: u32,
    _pad0: u32,
    _pad1: u32,
    _pad2: u32,
}

@group(0) @binding(0) var<storage, read> partial: array<f32>;
@group(0) @binding(1) var<storage, read> bias: array<{{ io }}>;
@group(0) @binding(2) var<storage, read_write> output: array<{{ out }}>;
@group(0) @binding(3) var<uniform> params: ReduceParams;

override wg_size: u32 = 256;
override stride_x: u32;
{{ conv.activation_overrides() }}

{{ conv.activate() }}

@compute @workgroup_size(wg_size)
fn splitk_reduce(@builtin(global_invocation_id) gid: vec3<u32>) {
    let index = gid.y * stride_x + gid.x;
    if (index >= params.numel) {
        return;
    }
    var v = 0.0;
    for (var s = 0u; s < params.splits; s++) {
        v += partial[s * params.numel + index];
    }
    if (params.has_bias != 0u) {
        v += {{ to_f32 }}(bias[(index / params.plane) % params.oc]);
    }
    output[index] = {{ to_out }}(activate(v));
}
