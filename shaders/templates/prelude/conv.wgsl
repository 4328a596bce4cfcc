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
    // Winograd's band of output tile rows (an image whose intermediates exceed a storage
    // binding runs in bands that fit): the first, and how many; every other shader ignores them.
    tile_row0: u32,
    tile_rows: u32,
    _pad0: u32,
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
{# A weight to stage for a block of output channels: 0 past the last one (the pointwise stream's
   and the register-blocked kernel's blocks may run past the output channels). #}
{% macro staged_weight() %}
// Output channel `oc`'s weight at index `at`; 0 past the last output channel.
fn staged_weight(oc: u32, at: u32) -> f32 {
    if (oc < params.oc) {
        return {{ to_f32 }}(weight[at]);
    }
    return 0.0;
}
{%- endmacro %}
{#
  The fused activation on one value, or with `vec4` on four lanes at once. NaN stays NaN, as in
  PyTorch: WGSL's max and clamp may return the other operand for a NaN, and a compiler may
  assume float comparisons see no NaN, so the test is on the bits (`is_nan`). WGSL does not
  guarantee NaN values themselves (tested on Vulkan; Metal compiles with fast math).
#}
{% macro activate(vec4=false) %}
{% set ty = "vec4<f32>" if vec4 else "f32" %}
{% set zero = "vec4<f32>(0.0)" if vec4 else "0.0" %}
{% set lo = "vec4<f32>(clamp_min)" if vec4 else "clamp_min" %}
{% set hi = "vec4<f32>(clamp_max)" if vec4 else "clamp_max" %}
{{ is_nan(vec4) }}

fn activate(v: {{ ty }}) -> {{ ty }} {
    if (activation == 1u) {
        return select(max(v, {{ zero }}), v, is_nan(v));
    }
    if (activation == 2u) {
        return select(clamp(v, {{ lo }}, {{ hi }}), v, is_nan(v));
    }
    return v;
}
{%- endmacro %}
{# Whether a value (or each lane of a vec4) is NaN, from its bits: exponent all ones, mantissa not zero. #}
{% macro is_nan(vec4=false) %}
{% if vec4 %}
fn is_nan(v: vec4<f32>) -> vec4<bool> {
    return (bitcast<vec4<u32>>(v) & vec4<u32>(0x7fffffffu)) > vec4<u32>(0x7f800000u);
}
{%- else %}
fn is_nan(v: f32) -> bool {
    return (bitcast<u32>(v) & 0x7fffffffu) > 0x7f800000u;
}
{%- endif %}
{%- endmacro %}

{#
  The GEMM sub-problem of one workgroup (`Problem`, `problem(z)`): a group and, for transposed
  convolutions (the `transposed` override), one stride phase. Needs the `spec_*` overrides and
  `params`.
#}
{% macro stride_phase_problem() %}
// The sub-problem of one workgroup: a group, and for transposed convolutions one stride phase.
struct Problem {
    group: u32,
    // Output rows/cols of this sub-grid and their placement: oh = oy * out_step_h + ry.
    sub_h: u32,
    sub_w: u32,
    out_step_h: u32,
    out_step_w: u32,
    ry: u32,
    rx: u32,
    // Taps in this phase (all of KH×KW when direct) and where they start in the kernel.
    taps_y: u32,
    taps_x: u32,
    kh0: u32,
    kw0: u32,
    // Input row of tap j for output row oy: oy * in_mul_h + in_off_h + j * in_step_h.
    in_mul_h: i32,
    in_mul_w: i32,
    in_off_h: i32,
    in_off_w: i32,
    in_step_h: i32,
    in_step_w: i32,
}

fn problem(z: u32) -> Problem {
    var pr: Problem;
    if (!transposed) {
        pr.group = z;
        pr.sub_h = params.oh;
        pr.sub_w = params.ow;
        pr.out_step_h = 1u;
        pr.out_step_w = 1u;
        pr.taps_y = spec_kh;
        pr.taps_x = spec_kw;
        pr.in_mul_h = i32(spec_stride_h);
        pr.in_mul_w = i32(spec_stride_w);
        pr.in_off_h = -i32(spec_pad_h);
        pr.in_off_w = -i32(spec_pad_w);
        pr.in_step_h = i32(spec_dilation_h);
        pr.in_step_w = i32(spec_dilation_w);
        return pr;
    }
    let sh = spec_stride_h;
    let sw = spec_stride_w;
    let phases = sh * sw;
    pr.group = z / phases;
    let phase = z % phases;
    pr.ry = phase / sw;
    pr.rx = phase % sw;
    pr.out_step_h = sh;
    pr.out_step_w = sw;
    pr.sub_h = select(0u, (params.oh - pr.ry + sh - 1u) / sh, params.oh > pr.ry);
    pr.sub_w = select(0u, (params.ow - pr.rx + sw - 1u) / sw, params.ow > pr.rx);
    // Output oh = oy·sH + ry meets tap kh when (oh + pH − kh) is a multiple of sH: kh = kh0 + j·sH.
    pr.kh0 = (pr.ry + spec_pad_h) % sh;
    pr.kw0 = (pr.rx + spec_pad_w) % sw;
    pr.taps_y = select(0u, (spec_kh - pr.kh0 + sh - 1u) / sh, spec_kh > pr.kh0);
    pr.taps_x = select(0u, (spec_kw - pr.kw0 + sw - 1u) / sw, spec_kw > pr.kw0);
    // When the stride divides the kernel (k4 s2, k2 s2) every phase has KH/sH × KW/sW taps: said
    // as pipeline constants, the K loop's index decode divides by constants (multiply-shifts).
    if (spec_kh % sh == 0u) {
        pr.taps_y = spec_kh / sh;
    }
    if (spec_kw % sw == 0u) {
        pr.taps_x = spec_kw / sw;
    }
    // iy = (oh + pH − kh) / sH = oy + (ry + pH − kh0) / sH − j.
    pr.in_mul_h = 1;
    pr.in_mul_w = 1;
    pr.in_off_h = i32((pr.ry + spec_pad_h - pr.kh0) / sh);
    pr.in_off_w = i32((pr.rx + spec_pad_w - pr.kw0) / sw);
    pr.in_step_h = -1;
    pr.in_step_w = -1;
    return pr;
}
{%- endmacro %}
