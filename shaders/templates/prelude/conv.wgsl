{#-
  What the convolution shaders share, as macros: `{% import "prelude/conv.wgsl" as conv %}`, then
  `{{ conv.params_struct() }}` etc. on a line of their own. Each macro expands to whole lines
  without the last newline, so the call's own line end ends the block. The comments that differ
  per shader stay in the shader's template, above the call.
-#}
{# The uniform every convolution kernel reads (the host's `ConvParams` binding). #}
{% macro params_struct() %}
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
{%- endmacro %}
{# The fused activation's pipeline overrides, read by `activate`. #}
{% macro activation_overrides() %}
// Fused output activation: 0 none, 1 relu, 2 clamp(clamp_min, clamp_max).
override activation: u32 = 0;
override clamp_min: f32 = 0.0;
override clamp_max: f32 = 0.0;
{%- endmacro %}
{#
  The filter geometry as pipeline overrides (defaults: a `kh`×`kh` filter padded by `pad`). The
  host sets them equal to the uniform's values.
#}
{% macro spec_overrides(kh, pad) %}
override spec_kh: u32 = {{ kh }};
override spec_kw: u32 = {{ kh }};
override spec_stride_h: u32 = 1;
override spec_stride_w: u32 = 1;
override spec_pad_h: u32 = {{ pad }};
override spec_pad_w: u32 = {{ pad }};
override spec_dilation_h: u32 = 1;
override spec_dilation_w: u32 = 1;
{%- endmacro %}
{# The channel counts as pipeline overrides, for kernels that specialise on them too. #}
{% macro spec_channel_overrides() %}
override spec_ic: u32 = 1;
override spec_oc: u32 = 1;
override spec_groups: u32 = 1;
{%- endmacro %}
{# The fused activation on one value, or with `vec4` on four lanes at once. #}
{% macro activate(vec4=false) %}
{% set ty = "vec4<f32>" if vec4 else "f32" %}
{% set zero = "vec4<f32>(0.0)" if vec4 else "0.0" %}
{% set lo = "vec4<f32>(clamp_min)" if vec4 else "clamp_min" %}
{% set hi = "vec4<f32>(clamp_max)" if vec4 else "clamp_max" %}
fn activate(v: {{ ty }}) -> {{ ty }} {
    if (activation == 1u) {
        return max(v, {{ zero }});
    }
    if (activation == 2u) {
        return clamp(v, {{ lo }}, {{ hi }});
    }
    return v;
}
{%- endmacro %}
