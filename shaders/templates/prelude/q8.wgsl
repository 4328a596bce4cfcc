{% import "prelude/conv.wgsl" as conv %}
{#
  What the int8 `q8ta_conv2d_pw` shaders share, as macros: `{% import "prelude/q8.wgsl" as q8 %}`,
  then `{{ q8.params_and_bindings() }}` and `{{ q8.requantize() }}` on lines of their own. The
  kernels are bit-identical because they requantise their exact integer sums with this one
  function.
#}
{% macro params_and_bindings() %}
struct Q8taConvPwParams {
    n: u32,
    oc: u32,
    ic: u32,
    h: u32,
    w: u32,
    input_zero_point: i32,
    output_zero_point: i32,
    input_scale: f32,
    inv_output_scale: f32,
    has_bias: u32,
    _pad0: u32,
    _pad1: u32,
}

@group(0) @binding(0) var<storage, read> input: array<u32>;
@group(0) @binding(1) var<storage, read> weight: array<u32>;
@group(0) @binding(2) var<storage, read> weight_scales: array<f32>;
@group(0) @binding(3) var<storage, read> bias: array<f32>;
@group(0) @binding(4) var<storage, read_write> output: array<u32>;
@group(0) @binding(5) var<uniform> params: Q8taConvPwParams;
{%- endmacro %}
{#
  The output byte (in the low 8 bits) of output channel `oc` whose exact sum Σ w·(x − zp_in) is
  `acc`: scaled to the real value, bias and the fused activation (the `activation` override)
  applied, requantised.
#}
{% macro requantize() %}
{{ conv.is_nan() }}

fn requantize(acc: i32, oc: u32) -> u32 {
    var v = f32(acc) * params.input_scale * weight_scales[oc];
    if (params.has_bias != 0u) {
        v = v + bias[oc];
    }
    if (activation == 1u) {
        v = max(v, 0.0);
    }
    // round() is round-half-to-even in WGSL, as torch's nearbyint. Clamp before converting:
    // f32 → i32 of an out-of-range value is undefined in SPIR-V. NaN (from a NaN bias or scale)
    // becomes the zero point, as on the host.
    let scaled = v * params.inv_output_scale;
    let r = select(clamp(round(scaled), -512.0, 512.0), 0.0, is_nan(scaled));
    let q = clamp(i32(r) + params.output_zero_point, -128, 127);
    return u32(q) & 0xffu;
}
{%- endmacro %}
