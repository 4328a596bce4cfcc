{% import "prelude/conv.wgsl" as conv %}
{# variants: f16_out #}
{#
  Winograd F(4×4, 3×3) and F(2×2, 5×5) (the same 6×6 input transform), and F(4×4, 5×5) and
  F(6×6, 3×3) (the same 8×8 one), fully unrolled: every
  transform is written out term by term from the matrices below (named scalars, no private
  arrays, which Vulkan drivers may put in local memory when indexed in loops; see
  docs/PERFORMANCE.md). Zero coefficients drop out, ±1 ones lose their multiply.
#}
{#
  Bᵀ (6 × 6), G (6 × 3) and Aᵀ (4 × 6) of F(4×4, 3×3) at the points 0, 1, −1, ½, −2 and ∞ (the
  Toom-Cook construction; G's rows carry the 1/Π(pᵢ − pⱼ) scales). On lavapipe they gave 0.6–0.7×
  the relative error of the usual 0, ±1, ±2 (v56, docs/PERFORMANCE.md); ±½ gave the same as ±2.
#}
{% set BT = [
    ["1", "-1.5", "-2", "1.5", "1", "0"],
    ["0", "-1", "0.5", "2.5", "1", "0"],
    ["0", "1", "-2.5", "0.5", "1", "0"],
    ["0", "-2", "-1", "2", "1", "0"],
    ["0", "0.5", "-1", "-0.5", "1", "0"],
    ["0", "1", "-1.5", "-2", "1.5", "1"],
] %}
{% set G = [
    ["1", "0", "0"],
    ["0.333333333", "0.333333333", "0.333333333"],
    ["-0.333333333", "0.333333333", "-0.333333333"],
    ["-1.06666667", "-0.533333333", "-0.266666667"],
    ["0.0666666667", "-0.133333333", "0.266666667"],
    ["0", "0", "1"],
] %}
{% set AT = [
    ["1", "1", "1", "1", "1", "0"],
    ["0", "1", "-1", "0.5", "-2", "0"],
    ["0", "1", "1", "0.25", "4", "0"],
    ["0", "1", "-1", "0.125", "-8", "1"],
] %}
{#
  G (6 × 5) and Aᵀ (2 × 6) of F(2×2, 5×5) at the same points: the same Bᵀ serves both, since
  it depends only on the points (G's rows pᵢʲ scaled as F(4×4, 3×3)'s, Aᵀ's rows pᵢ⁰ and pᵢ¹).
#}
{% set G5 = [
    ["1", "0", "0", "0", "0"],
    ["0.333333333", "0.333333333", "0.333333333", "0.333333333", "0.333333333"],
    ["-0.333333333", "0.333333333", "-0.333333333", "0.333333333", "-0.333333333"],
    ["-1.06666667", "-0.533333333", "-0.266666667", "-0.133333333", "-0.0666666667"],
    ["0.0666666667", "-0.133333333", "0.266666667", "-0.533333333", "1.06666667"],
    ["0", "0", "0", "0", "1"],
] %}
{% set AT5 = [
    ["1", "1", "1", "1", "1", "0"],
    ["0", "1", "-1", "0.5", "-2", "1"],
] %}
{#
  Bᵀ (8 × 8), G (8 × 5) and Aᵀ (4 × 8) of F(4×4, 5×5) at the points 0, 1, −1, ½, −½, 2, −2 and ∞
  (the same construction; row 0 of Bᵀ and of G negated together, which leaves their products as
  they are). F(6×6, 3×3) at these points shares this Bᵀ (below). Simulated with f32 rounding at every
  step (64 input channels, uniform data), the output's relative error is 3.3e-6, 2.6 times
  F(2×2, 5×5)'s at the 6×6 points; with −¼ for −2 it was 2.7e-5.
#}
{% set BT8 = [
    ["1", "0", "-5.25", "0", "5.25", "0", "-1", "0"],
    ["0", "1", "1", "-4.25", "-4.25", "1", "1", "0"],
    ["0", "-1", "1", "4.25", "-4.25", "-1", "1", "0"],
    ["0", "2", "4", "-2.5", "-5", "0.5", "1", "0"],
    ["0", "-2", "4", "2.5", "-5", "-0.5", "1", "0"],
    ["0", "0.5", "0.25", "-2.5", "-1.25", "2", "1", "0"],
    ["0", "-0.5", "0.25", "2.5", "-1.25", "-2", "1", "0"],
    ["0", "-1", "0", "5.25", "0", "-5.25", "0", "1"],
] %}
{% set G8_5 = [
    ["1", "0", "0", "0", "0"],
    ["-0.222222222", "-0.222222222", "-0.222222222", "-0.222222222", "-0.222222222"],
    ["-0.222222222", "0.222222222", "-0.222222222", "0.222222222", "-0.222222222"],
    ["0.711111111", "0.355555556", "0.177777778", "0.0888888889", "0.0444444444"],
    ["0.711111111", "-0.355555556", "0.177777778", "-0.0888888889", "0.0444444444"],
    ["0.0111111111", "0.0222222222", "0.0444444444", "0.0888888889", "0.177777778"],
    ["0.0111111111", "-0.0222222222", "0.0444444444", "-0.0888888889", "0.177777778"],
    ["0", "0", "0", "0", "1"],
] %}
{#
  G (8 × 3) and Aᵀ (6 × 8) of F(6×6, 3×3) at the same points, with the same Bᵀ (G's first three
  columns and Aᵀ's rows pᵢ⁰ … pᵢ⁵): simulated as above, 3.2e-6.
#}
{% set G8_3 = [
    ["1", "0", "0"],
    ["-0.222222222", "-0.222222222", "-0.222222222"],
    ["-0.222222222", "0.222222222", "-0.222222222"],
    ["0.711111111", "0.355555556", "0.177777778"],
    ["0.711111111", "-0.355555556", "0.177777778"],
    ["0.0111111111", "0.0222222222", "0.0444444444"],
    ["0.0111111111", "-0.0222222222", "0.0444444444"],
    ["0", "0", "1"],
] %}
{% set AT8_6 = [
    ["1", "1", "1", "1", "1", "1", "1", "0"],
    ["0", "1", "-1", "0.5", "-0.5", "2", "-2", "0"],
    ["0", "1", "1", "0.25", "0.25", "4", "4", "0"],
    ["0", "1", "-1", "0.125", "-0.125", "8", "-8", "0"],
    ["0", "1", "1", "0.0625", "0.0625", "16", "16", "0"],
    ["0", "1", "-1", "0.03125", "-0.03125", "32", "-32", "1"],
] %}
{% set AT8_4 = [
    ["1", "1", "1", "1", "1", "1", "1", "0"],
    ["0", "1", "-1", "0.5", "-0.5", "2", "-2", "0"],
    ["0", "1", "1", "0.25", "0.25", "4", "4", "0"],
    ["0", "1", "-1", "0.125", "-0.125", "8", "-8", "1"],
] %}
{#
  The sum of coeffs[i] · names[i] as a WGSL expression, its terms in order: zero coefficients
  dropped, ±1 written as a sign. Every row of the matrices above has a nonzero coefficient.
#}
{% macro comb(coeffs, names) %}
{%- set ns = namespace(out="") -%}
{%- for c in coeffs -%}
{%- if c != "0" -%}
{%- set neg = c[0] == "-" -%}
{%- set mag = c[1:] if neg else c -%}
{%- set term = names[loop.index0] if mag == "1" else mag ~ ".0 * " ~ names[loop.index0] if "." not in mag else mag ~ " * " ~ names[loop.index0] -%}
{%- if ns.out == "" -%}
{%- set ns.out = ("-" ~ term) if neg else term -%}
{%- else -%}
{%- set ns.out = ns.out ~ (" - " if neg else " + ") ~ term -%}
{%- endif -%}
{%- endif -%}
{%- endfor -%}
{{ ns.out }}
{%- endmacro %}
{#
  The transforms as macros over named scalars, shared by every entry point: `d_r_s` (the n×n
  input window, n 6 or 8) → `v_t` (t = ni + j) by Bᵀ `bt`, and `m_i_j` (the n×n products) →
  `y_a_c` (the m×m outputs of Aᵀ `at`, 2×2, 4×4 or 6×6, before the bias and the activation).
#}
{% macro input_transform(bt, n) %}
    // Bᵀ d: {{ n }} rows of {{ n }}.
{% for i in range(n) %}
{% for s in range(n) %}
{% set col = namespace(names=[]) %}
{% for r in range(n) %}
{% set col.names = col.names + ["d_%d_%d" | format(r, s)] %}
{% endfor %}
    let bd_{{ i }}_{{ s }} = {{ comb(bt[i], col.names) }};
{% endfor %}
{% endfor %}
    // (Bᵀ d) B: position t = {{ n }}i + j.
{% for i in range(n) %}
{% set row = namespace(names=[]) %}
{% for s in range(n) %}
{% set row.names = row.names + ["bd_%d_%d" | format(i, s)] %}
{% endfor %}
{% for j in range(n) %}
    let v_{{ n * i + j }} = {{ comb(bt[j], row.names) }};
{% endfor %}
{% endfor %}
{%- endmacro %}
{% macro output_transform(at, m, n) %}
    // Aᵀ m: {{ m }} rows of {{ n }}.
{% for a in range(m) %}
{% for j in range(n) %}
{% set col = namespace(names=[]) %}
{% for i in range(n) %}
{% set col.names = col.names + ["m_%d_%d" | format(i, j)] %}
{% endfor %}
    let am_{{ a }}_{{ j }} = {{ comb(at[a], col.names) }};
{% endfor %}
{% endfor %}
    // (Aᵀ m) A: row a, column c.
{% for a in range(m) %}
{% set row = namespace(names=[]) %}
{% for j in range(n) %}
{% set row.names = row.names + ["am_%d_%d" | format(a, j)] %}
{% endfor %}
{% for c in range(m) %}
    let y_{{ a }}_{{ c }} = {{ comb(at[c], row.names) }};
{% endfor %}
{% endfor %}
{%- endmacro %}
{#
  The n×n window d of the NCHW or NHWC (`layout`) input at rows y0.., columns x0.. of image n,
  channel ic: zero outside the input.
#}
{#
  The NCHW window's rows and columns lie `dy` and `dx` apart (the dilation: 1 but for the
  NCHW passes of a dilated F(4×4, 3×3)); the channels-last ones' 1 apart.
#}
{% macro load_window(layout, n) %}
{% if layout == "nchw" %}
    let dy = i32(spec_dilation_h);
    let dx = i32(spec_dilation_w);
{% else %}
    let dy = 1;
    let dx = 1;
{% endif %}
{% for s in range(n) %}
    let col_ok_{{ s }} = x0 + {{ s }} * dx >= 0 && x0 + {{ s }} * dx < i32(params.iw);
{% endfor %}
{% for r in range(n) %}
    let row_ok_{{ r }} = y0 + {{ r }} * dy >= 0 && y0 + {{ r }} * dy < i32(params.ih);
{% if layout == "nchw" %}
    let row_at_{{ r }} = ((n * params.ic + ic) * params.ih + u32(y0 + {{ r }} * dy)) * params.iw;
{% else %}
    let row_at_{{ r }} = (n * params.ih + u32(y0 + {{ r }})) * params.iw;
{% endif %}
{% for s in range(n) %}
    var d_{{ r }}_{{ s }} = 0.0;
    if (row_ok_{{ r }} && col_ok_{{ s }}) {
{% if layout == "nchw" %}
        d_{{ r }}_{{ s }} = input[row_at_{{ r }} + u32(x0 + {{ s }} * dx)];
{% else %}
        d_{{ r }}_{{ s }} = input[(row_at_{{ r }} + u32(x0 + {{ s }})) * params.ic + ic];
{% endif %}
    }
{% endfor %}
{% endfor %}
{%- endmacro %}
// Winograd F(4×4, 3×3) for 3×3 convolutions at stride 1, one group, f32 tensors (the NCHW passes at
// any dilation: `tile_cols`; the channels-last ones at dilation 1):
// each 4×4 block of outputs ("tile") comes from its 6×6 input window in 36 products per channel
// pair instead of 144, so the multiply-adds fall 4-fold (F(2×2, 3×3) in conv2d_winograd.wgsl:
// 2.25-fold), and the transformed input and the products are 36/16 the input and the output
// (F(2×2, 3×3): 16/4). Three passes around a GEMM, with the layouts of conv2d_winograd.wgsl's
// NCHW passes at 36 positions:
//
//   winograd4_weight  U[t] = (G g Gᵀ)[t] for each of the 36 positions t of the 6×6 transform,
//                     in the GEMM kernels' packed-weight layout of a grouped 1×1 convolution
//                     with 36 groups: packed[(t·IC + ic)·OC4 + oc], OC4 = OC rounded up to 4;
//   winograd4_input   V[n, t, ic, tile] = (Bᵀ d B)[t] of the tile's 6×6 input window d (zero
//                     outside the input): that convolution's NCHW input [N, 36·IC, tiles_h,
//                     tiles_w];
//   (the GEMM)        M[n, t, oc, tile] = Σ_ic U[t, oc, ic] · V[n, t, ic, tile];
//   winograd4_output  y = Aᵀ M A per tile, plus the bias, through the activation, into the NCHW
//                     output (the last row and column of tiles cut where 4 does not divide the
//                     output's size; with dilation d, each phase's last).
//
// `winograd_5x5` runs F(2×2, 5×5) through the same three passes (winograd5_*, after them), and
// `winograd_5x5_tile4` and `winograd_6x6` F(4×4, 5×5) and F(6×6, 3×3) on 8×8 windows
// (winograd8_*, winograd6_*).
//
// `winograd_4x4_coop` runs the products on the channels-last tensor-core kernel instead
// (conv2d_coop_nhwc.wgsl), as `winograd_coop` does F(2×2, 3×3)'s: winograd4_weight with
// `products_nhwc` writes U as that grouped 1×1 convolution's plain [36·OC, IC] weight (position
// t's rows at t·OC, for its f16 prepack), and the `_nhwc` (NCHW tensors) and `_channels_last`
// (NHWC tensors) transforms write and read V and M as its channels-last input and output,
// [N, tiles_h, tiles_w, 36·IC] and [N, tiles_h, tiles_w, 36·OC]: V[n, tile, t, ic] and
// M[n, tile, t, oc]. It runs its input transform from the f16 expansion
// (conv2d_winograd4_f16_out.wgsl): V in f16, which its products would round to f16 as they load
// it anyway.
//
// At the points 0, 1, −1, ½, −2 (and ∞):
//
//   Bᵀ = [1 −3/2 −2 3/2 1 0; 0 −1 ½ 5/2 1 0; 0 1 −5/2 ½ 1 0; 0 −2 −1 2 1 0; 0 ½ −1 −½ 1 0;
//         0 1 −3/2 −2 3/2 1]
//   G = [1 0 0; ⅓ ⅓ ⅓; −⅓ ⅓ −⅓; −16/15 −8/15 −4/15; 1/15 −2/15 4/15; 0 0 1]
//   Aᵀ = [1 1 1 1 1 0; 0 1 −1 ½ −2 0; 0 1 1 ¼ 4 0; 0 1 −1 ⅛ −8 1]
//
// Rounding: the transforms' coefficients reach 5/2 (Bᵀ) and 8 (Aᵀ), and G's thirds and
// fifteenths are not exact in f32, so the products carry several times the rounding error of
// F(2×2, 3×3)'s (these points: 0.6–0.7× that of the usual 0, ±1, ±2); the tests bound the
// output's relative error against the f64 reference like every kernel's.
//
// The NCHW passes are one thread per item, items along `gid.y * stride_x + gid.x`, ordered with
// the tile (or the output channel, for the weight) fastest, so that a warp's stores of V and U
// and loads of M are consecutive. The output transforms store their tiles' rows through
// workgroup memory, so that a warp's stores of the output are consecutive too (stored straight
// from each thread, they lay a tile width apart: 1.09× slower on an H100 for F(4×4, 3×3),
// F(4×4, 5×5) and F(6×6, 3×3), v65; F(2×2, 5×5)'s was not timed); the input
// transforms' loads of the windows lie a tile width apart as well, but the L1 cache serves those
// (staged like the stores, they ran 0.85×). The channels-last ones are described where they
// start.
//
// `output` holds {{ out }} here.
{% if out == "f16" %}

enable f16;
{% endif %}

{{ conv.params_struct() }}

@group(0) @binding(0) var<storage, read> input: array<f32>;
@group(0) @binding(1) var<storage, read> weight: array<f32>;
@group(0) @binding(2) var<storage, read> bias: array<f32>;
@group(0) @binding(3) var<storage, read_write> output: array<{{ out }}>;
@group(0) @binding(4) var<uniform> params: ConvParams;

// Threads per workgroup (x).
override wg_size: u32 = 256;
// Threads per row of the dispatch grid (workgroups in x times wg_size).
override stride_x: u32;
// winograd4_weight's layout of U: false for the GEMM kernels' packed weight, true for the plain
// weight `winograd_4x4_coop` prepacks.
override products_nhwc: bool = false;
// The filter's dilation (must equal the uniform's): pipeline constants, so that the tile
// indexing of an undilated layer folds to the plain 4 · t (no division by a runtime value).
override spec_dilation_h: u32 = 1u;
override spec_dilation_w: u32 = 1u;

// `winograd_4x4_coop`'s V is rounded to f16 (as written here, or as its products load it), and
// Bᵀ's rows sum to up to 7 in magnitude, so |V| reaches 49 times the input's largest value: f16's
// 65504 from inputs of 1337. The channels-last transforms (`_nhwc`, `_channels_last`, only ever
// run for it) write V scaled by this power of two, and the weight transform with
// `products_nhwc` writes U scaled by its inverse: the products are the same (exactly, but for
// values f16 holds as subnormals), and V overflows only from inputs 8 times larger, as
// `winograd_coop`'s (Bᵀ's rows sum to 2: 4 times the input) do from 16 376.
const V_SCALE: f32 = 0.125;
{{ conv.activation_overrides() }}

{{ conv.activate() }}

// Tiles along the output's columns, `step` columns each (the last cut). With dilation d the
// output's columns fall into d phases (column mod d), each an undilated convolution of the input
// columns of its phase: a phase's tiles hold `step` of its columns, d apart, and tile column X is
// phase X mod d's tile X / d (`tile_origin`). Every phase gets as many tiles as phase 0 (the
// widest); the columns past the output are cut. Where d exceeds the width only its first OW
// phases hold columns, one tile each.
fn tile_cols(step: u32) -> u32 {
    let d = spec_dilation_w;
    return ((params.ow + d - 1u) / d + step - 1u) / step * min(d, params.ow);
}

// The first output row (column) of tile row (column) `t` of `step` rows (columns) at dilation
// `d`: its phase t mod d, then `step` · d per tile of the phase. Its rows are that plus d · a.
fn tile_origin(t: u32, step: u32, d: u32) -> u32 {
    return t % d + t / d * step * d;
}

// F(4×4, 3×3)'s tiles along the output's columns.
fn tiles_w() -> u32 {
    return tile_cols(4u);
}

// The bias of output channel `oc` (0 without one).
fn bias_of(oc: u32) -> f32 {
    if (params.has_bias != 0u) {
        return bias[oc];
    }
    return 0.0;
}

{#
  The NCHW passes of F(m×m, r×r) over n×n windows (n = m + r − 1): F(4×4, 3×3) (step 4, G,
  Aᵀ, n 6), F(2×2, 5×5) (step 2, G5, AT5, n 6), F(4×4, 5×5) (step 4, G8_5, AT8_4, n 8) and
  F(6×6, 3×3) (step 6, G8_3, AT8_6, n 8).
  `step` is m, the tile's stride over the output and the input.
#}
{% macro weight_body(gm, r, n) %}
    let index = gid.y * stride_x + gid.x;
    if (index >= params.ic * params.oc) {
        return;
    }
    var oc = index % params.oc;
    var ic = index / params.oc;
    // Position t of U at out + t·stride.
    var stride = params.ic * ((params.oc + 3u) / 4u * 4u);
    var out = ic * ((params.oc + 3u) / 4u * 4u) + oc;
    if (products_nhwc) {
        ic = index % params.ic;
        oc = index / params.ic;
        stride = params.oc * params.ic;
        out = oc * params.ic + ic;
    }
    let base = (oc * params.ic + ic) * {{ r * r }}u;
    // U scaled up where V is scaled down (`V_SCALE`).
    let u_scale = select(1.0, 1.0 / V_SCALE, products_nhwc);
{% for y in range(r) %}
{% for x in range(r) %}
    let g_{{ y }}_{{ x }} = weight[base + {{ r * y + x }}u];
{% endfor %}
{% endfor %}
    // G g: {{ n }} rows of {{ r }}.
{% for i in range(n) %}
{% for c in range(r) %}
{% set col = namespace(names=[]) %}
{% for y in range(r) %}
{% set col.names = col.names + ["g_%d_%d" | format(y, c)] %}
{% endfor %}
    let gg_{{ i }}_{{ c }} = {{ comb(gm[i], col.names) }};
{% endfor %}
{% endfor %}
    // (G g) Gᵀ: {{ n }} rows of {{ n }}, row i at positions t = {{ n }}i .. {{ n }}i + {{ n - 1 }}.
{% for i in range(n) %}
{% set row = namespace(names=[]) %}
{% for c in range(r) %}
{% set row.names = row.names + ["gg_%d_%d" | format(i, c)] %}
{% endfor %}
{% for j in range(n) %}
    output[out + {{ n * i + j }}u * stride] = {{ to_out }}(u_scale * ({{ comb(gm[j], row.names) }}));
{% endfor %}
{% endfor %}
{%- endmacro %}
{% macro input_body(step, bt, n) %}
    let index = gid.y * stride_x + gid.x;
    let tiles = params.tile_rows * tile_cols({{ step }}u);
    if (index >= params.n * params.ic * tiles) {
        return;
    }
    let tile = index % tiles;
    let ic = (index / tiles) % params.ic;
    let n = index / (tiles * params.ic);
    let y0 = i32(tile_origin(params.tile_row0 + tile / tile_cols({{ step }}u), {{ step }}u, spec_dilation_h)) - i32(params.pad_h);
    let x0 = i32(tile_origin(tile % tile_cols({{ step }}u), {{ step }}u, spec_dilation_w)) - i32(params.pad_w);
    // The {{ n }}×{{ n }} window d, zero outside the input.
{{ load_window("nchw", n) }}
{{ input_transform(bt, n) }}
    // Position t of [n, t, ic, tile].
    let stride = params.ic * tiles;
    let out = (n * {{ n * n }}u * params.ic + ic) * tiles + tile;
{% for t in range(n * n) %}
    output[out + {{ t }}u * stride] = {{ to_out }}(v_{{ t }});
{% endfor %}
{%- endmacro %}
{% macro output_body(at, step, n) %}
{% set pad_every = {2: 16, 4: 8, 6: 16}[step] %}
    // Past the last item a thread computes the last item again and stores nothing: every thread
    // reaches the barriers below.
    let index = gid.y * stride_x + gid.x;
    let tiles = params.tile_rows * tile_cols({{ step }}u);
    let items = params.n * params.oc * tiles;
    let item = min(index, items - 1u);
    let tile = item % tiles;
    let oc = (item / tiles) % params.oc;
    let n = item / (tiles * params.oc);
    let stride = params.oc * tiles;
    let first = (n * {{ n * n }}u * params.oc + oc) * tiles + tile;
{% for i in range(n) %}
{% for j in range(n) %}
    let m_{{ i }}_{{ j }} = input[first + {{ n * i + j }}u * stride];
{% endfor %}
{% endfor %}
{{ output_transform(at, step, n) }}
    let b = bias_of(oc);
    // The tile's rows and columns lie the dilation apart; those past the output are cut.
    let dy = spec_dilation_h;
    let dx = spec_dilation_w;
    let oy0 = tile_origin(params.tile_row0 + tile / tile_cols({{ step }}u), {{ step }}u, dy);
    let ox0 = tile_origin(tile % tile_cols({{ step }}u), {{ step }}u, dx);
    var rows = 0u;
    var cols = 0u;
    if (index < items && oy0 < params.oh && ox0 < params.ow) {
        rows = min({{ step }}u, (params.oh - 1u - oy0) / dy + 1u);
        cols = min({{ step }}u, (params.ow - 1u - ox0) / dx + 1u);
    }
    out_tile_at[lid] = ((n * params.oc + oc) * params.oh + oy0) * params.ow + ox0;
    out_tile_extent[lid] = rows | (cols << 16u);
    // Row by row through workgroup memory, plus the bias, through the activation: a thread's
    // {{ step }} columns go in side by side ({{ step }} · lid + a pad every {{ pad_every }} threads, so that a warp's
    // writes fall in distinct banks), and come out with the workgroup's tiles' row in order, so
    // that a warp's stores cover adjacent columns of the output (the tiles are adjacent in the
    // image; under dilation, a phase's tiles interleave with the others', and a warp's stores
    // still cover a contiguous span) instead of one column in {{ step }}.
{% for a in range(step) %}
{% if a > 0 %}
    workgroupBarrier();
{% endif %}
{% for c in range(step) %}
    out_stage[{{ step }}u * lid + lid / {{ pad_every }}u + {{ c }}u] = activate(y_{{ a }}_{{ c }} + b);
{% endfor %}
    workgroupBarrier();
    for (var part = 0u; part < {{ step }}u; part++) {
        let at = part * wg_size + lid;
        let owner = at / {{ step }}u;
        let c = at % {{ step }}u;
        let extent = out_tile_extent[owner];
        if ({{ a }}u < (extent & 0xffffu) && c < (extent >> 16u)) {
            output[out_tile_at[owner] + {{ a }}u * dy * params.ow + c * dx] = {{ to_out }}(out_stage[at + owner / {{ pad_every }}u]);
        }
    }
{% endfor %}
{%- endmacro %}
// One thread per (input channel, output channel), the channel that is fastest in U fastest
// (coalesced stores).
@compute @workgroup_size(wg_size)
fn winograd4_weight(@builtin(global_invocation_id) gid: vec3<u32>) {
{{ weight_body(G, 3, 6) -}}
}

// One thread per (image, input channel, tile), tiles fastest: V[n, t, ic, tile] of the band of
// tile rows `params.tile_row0` to + `params.tile_rows` − 1 (all of them unless the host splits
// an image whose intermediates exceed a storage binding; V holds the band's tiles only).
@compute @workgroup_size(wg_size)
fn winograd4_input(@builtin(global_invocation_id) gid: vec3<u32>) {
{{ input_body(4, BT, 6) -}}
}

// The NCHW output transforms' stage: one output row of each thread's tile, {{ 6 * 256 }} values for
// 6-wide tiles and 256 threads, plus `output_body`'s pads (at most 32), and each thread's
// tile: where its first output lies, and how many of its rows (low half) and columns (high half)
// lie inside the output.
var<workgroup> out_stage: array<f32, {{ 6 * 256 + 256 // 16 }}>;
var<workgroup> out_tile_at: array<u32, 256>;
var<workgroup> out_tile_extent: array<u32, 256>;

// One thread per (image, output channel, tile), tiles fastest; `input` is M (of the band, as in
// `winograd4_input`).
@compute @workgroup_size(wg_size)
fn winograd4_output(
    @builtin(global_invocation_id) gid: vec3<u32>,
    @builtin(local_invocation_index) lid: u32,
) {
{{ output_body(AT, 4, 6) -}}
}

// ---- Winograd F(2×2, 5×5) (`winograd_5x5`) ----
// 5×5 filters at stride 1, dilation 1, one group: each 2×2 block of outputs from its 6×6 input
// window in 36 products per channel pair instead of 100 (2.8-fold fewer multiply-adds), the same
// Bᵀ as F(4×4, 3×3) and so the same input transform, over tiles 2 apart. The NCHW passes only,
// laid out as F(4×4, 3×3)'s: U as the GEMM kernels' packed weight of the 36-group 1×1
// convolution (G g Gᵀ of the 25 taps), V[n, t, ic, tile] and M[n, t, oc, tile] over the 2×2
// tiles, y = Aᵀ M A of AT5's two rows.
@compute @workgroup_size(wg_size)
fn winograd5_weight(@builtin(global_invocation_id) gid: vec3<u32>) {
{{ weight_body(G5, 5, 6) -}}
}

@compute @workgroup_size(wg_size)
fn winograd5_input(@builtin(global_invocation_id) gid: vec3<u32>) {
{{ input_body(2, BT, 6) -}}
}

@compute @workgroup_size(wg_size)
fn winograd5_output(
    @builtin(global_invocation_id) gid: vec3<u32>,
    @builtin(local_invocation_index) lid: u32,
) {
{{ output_body(AT5, 2, 6) -}}
}

// ---- Winograd F(4×4, 5×5) (`winograd_5x5_tile4`) ----
// 5×5 filters at stride 1, dilation 1, one group: each 4×4 block of outputs from its 8×8 input
// window in 64 products per channel pair instead of 400 (6.25-fold fewer multiply-adds; F(2×2,
// 5×5): 2.8-fold), its transformed input and products 4 times the input and the output (F(2×2,
// 5×5): 9 times). The NCHW passes only, laid out as F(4×4, 3×3)'s at 64 positions: U as the
// GEMM kernels' packed weight of the 64-group 1×1 convolution, V[n, t, ic, tile] and
// M[n, t, oc, tile] over the 4×4 tiles, y = Aᵀ M A of AT8_4. Its transforms' coefficients reach
// 21/4 (Bᵀ) and 8 (Aᵀ), G's 45ths and 90ths are not exact in f32: several times F(2×2, 5×5)'s
// rounding (the simulation above the matrices: 2.6 times).
@compute @workgroup_size(wg_size)
fn winograd8_weight(@builtin(global_invocation_id) gid: vec3<u32>) {
{{ weight_body(G8_5, 5, 8) -}}
}

@compute @workgroup_size(wg_size)
fn winograd8_input(@builtin(global_invocation_id) gid: vec3<u32>) {
{{ input_body(4, BT8, 8) -}}
}

@compute @workgroup_size(wg_size)
fn winograd8_output(
    @builtin(global_invocation_id) gid: vec3<u32>,
    @builtin(local_invocation_index) lid: u32,
) {
{{ output_body(AT8_4, 4, 8) -}}
}

// ---- Winograd F(6×6, 3×3) (`winograd_6x6`) ----
// 3×3 filters at stride 1, dilation 1, one group: each 6×6 block of outputs from its 8×8 input
// window (F(4×4, 5×5)'s Bᵀ) in 64 products per channel pair instead of 324 (5.06-fold fewer
// multiply-adds; F(4×4, 3×3): 4-fold), its transformed input and products 64/36 the input and
// the output (F(4×4, 3×3): 36/16), on images whose sides 6 divides well. The NCHW passes only,
// laid out as F(4×4, 5×5)'s over 6×6 tiles, y = Aᵀ M A of AT8_6 (coefficients up to 32).
@compute @workgroup_size(wg_size)
fn winograd6_weight(@builtin(global_invocation_id) gid: vec3<u32>) {
{{ weight_body(G8_3, 3, 8) -}}
}

@compute @workgroup_size(wg_size)
fn winograd6_input(@builtin(global_invocation_id) gid: vec3<u32>) {
{{ input_body(6, BT8, 8) -}}
}

@compute @workgroup_size(wg_size)
fn winograd6_output(
    @builtin(global_invocation_id) gid: vec3<u32>,
    @builtin(local_invocation_index) lid: u32,
) {
{{ output_body(AT8_6, 6, 8) -}}
}

// ---- Channels-last products (`winograd_4x4_coop`) on NCHW tensors ----
// As conv2d_winograd.wgsl's block transforms: a workgroup of 256 threads takes a block of tiles
// of one image, `block_cols` tile columns by (tiles / block_cols) tile rows, in a block of
// channels, one (tile, channel) item per thread. The NCHW side goes through workgroup memory as
// whole rows (each warp reads or writes a run of adjacent columns: coalesced, every input value
// loaded once per block); the channels-last side is written or read straight from registers,
// thread (channel lid % channels, tile lid / channels), so that a warp's accesses each cover the
// block's adjacent channels: one whole 32-byte sector, 8 of f32 or 16 of f16 (a partial sector
// costs the memory a read to write it). The input's blocks hold 16 channels × 16 tiles where V
// is f16 (8 × 32 where it is f32), the output's 8 channels × 32 tiles (M is f32).
{% set in_channels = 16 if out == "f16" else 8 %}

const BLOCK_IN_CHANNELS: u32 = {{ in_channels }}u;
const BLOCK_IN_TILES: u32 = 256u / BLOCK_IN_CHANNELS;
const BLOCK_OUT_CHANNELS: u32 = 8u;
const BLOCK_OUT_TILES: u32 = 256u / BLOCK_OUT_CHANNELS;
// A channel's input rows in the stage: the block's (4·rows + 2) × (4·block_cols + 2) window,
// at most {{ 6 * (4 * (256 // in_channels) + 2) }} values (one row of {{ 256 // in_channels }} tiles), padded to an odd stride so that
// adjacent channels fall in different banks.
const STAGE_IN_STRIDE: u32 = {{ 6 * (4 * (256 // in_channels) + 2) + 1 }}u;
// A channel's output rows in the stage: 4·rows × 4·block_cols = 16·BLOCK_OUT_TILES values, padded.
const STAGE_OUT_STRIDE: u32 = 16u * BLOCK_OUT_TILES + 1u;
var<workgroup> stage: array<f32, {{ [in_channels * (6 * (4 * (256 // in_channels) + 2) + 1), 8 * (16 * 32 + 1)] | max }}>;

// Tile columns per block: a power of two from 4 up to the block's tiles (the host picks the
// narrowest that covers the image's tile columns); the block's tile rows make up the rest.
override block_cols: u32 = 16u;

// The block of `block_tiles` tiles × `block_channels` channels among `channels` of workgroup
// `wid` (of a grid `groups` wide): its image, first tile row, first tile column and first
// channel; past the last block (the grid folds into 2D) the image is N or more, and the caller
// returns. Uniform across the workgroup. The channel blocks are fastest: workgroups that run
// together write (or read) adjacent sectors of the same tiles' rows of V (or M).
fn tile_block(wid: vec3<u32>, groups: vec3<u32>, channels: u32, block_tiles: u32, block_channels: u32) -> vec4<u32> {
    let block_rows = block_tiles / block_cols;
    let col_blocks = (tiles_w() + block_cols - 1u) / block_cols;
    let row_blocks = (params.tile_rows + block_rows - 1u) / block_rows;
    let channel_blocks = (channels + block_channels - 1u) / block_channels;
    var block = wid.y * groups.x + wid.x;
    let channel0 = block % channel_blocks * block_channels;
    block /= channel_blocks;
    let tx0 = block % col_blocks * block_cols;
    block /= col_blocks;
    let ty0 = block % row_blocks * block_rows;
    return vec4<u32>(block / row_blocks, ty0, tx0, channel0);
}

// V[n, tile, t, ic] = (Bᵀ d B)[t]: the block's input windows into the stage, rows along the
// warp; then each thread transforms its item's window from the stage and writes it.
@compute @workgroup_size(256)
fn winograd4_input_nhwc(
    @builtin(workgroup_id) wid: vec3<u32>,
    @builtin(num_workgroups) groups: vec3<u32>,
    @builtin(local_invocation_index) lid: u32,
) {
    let block = tile_block(wid, groups, params.ic, BLOCK_IN_TILES, BLOCK_IN_CHANNELS);
    if (block.x >= params.n) {
        return;
    }
    let cols = 4u * block_cols + 2u;
    let window = (4u * (BLOCK_IN_TILES / block_cols) + 2u) * cols;
    let y0 = i32((params.tile_row0 + block.y) * 4u) - i32(params.pad_h);
    let x0 = i32(block.z * 4u) - i32(params.pad_w);
    for (var j = lid; j < BLOCK_IN_CHANNELS * window; j += 256u) {
        let c = j / window;
        let r = j % window / cols;
        let s = j % cols;
        let ic = block.w + c;
        let y = y0 + i32(r);
        let x = x0 + i32(s);
        var value = 0.0;
        if (ic < params.ic && y >= 0 && y < i32(params.ih) && x >= 0 && x < i32(params.iw)) {
            value = input[((block.x * params.ic + ic) * params.ih + u32(y)) * params.iw + u32(x)];
        }
        stage[c * STAGE_IN_STRIDE + r * cols + s] = value;
    }
    workgroupBarrier();
    let c = lid % BLOCK_IN_CHANNELS;
    let ty = lid / BLOCK_IN_CHANNELS / block_cols;
    let tx = lid / BLOCK_IN_CHANNELS % block_cols;
    let ic = block.w + c;
    if (block.y + ty >= params.tile_rows || block.z + tx >= tiles_w() || ic >= params.ic) {
        return;
    }
    let first = c * STAGE_IN_STRIDE + 4u * ty * cols + 4u * tx;
{% for r in range(6) %}
{% for s in range(6) %}
    let d_{{ r }}_{{ s }} = stage[first + {{ r }}u * cols + {{ s }}u];
{% endfor %}
{% endfor %}
{{ input_transform(BT, 6) }}
    let tile = (block.y + ty) * tiles_w() + block.z + tx;
    let at = (block.x * params.tile_rows * tiles_w() + tile) * 36u * params.ic + ic;
{% for t in range(36) %}
    output[at + {{ t }}u * params.ic] = {{ to_out }}(v_{{ t }} * V_SCALE);
{% endfor %}
}

// M[n, tile, t, oc] → y: each thread reads its item's 36 positions, transforms them and puts
// the 4×4 outputs in the stage; then the block's output rows are written, columns along the warp.
@compute @workgroup_size(256)
fn winograd4_output_nhwc(
    @builtin(workgroup_id) wid: vec3<u32>,
    @builtin(num_workgroups) groups: vec3<u32>,
    @builtin(local_invocation_index) lid: u32,
) {
    let block = tile_block(wid, groups, params.oc, BLOCK_OUT_TILES, BLOCK_OUT_CHANNELS);
    if (block.x >= params.n) {
        return;
    }
    let cols = 4u * block_cols;
    let c = lid % BLOCK_OUT_CHANNELS;
    let ty = lid / BLOCK_OUT_CHANNELS / block_cols;
    let tx = lid / BLOCK_OUT_CHANNELS % block_cols;
    let oc = block.w + c;
    if (block.y + ty < params.tile_rows && block.z + tx < tiles_w() && oc < params.oc) {
        let tile = (block.y + ty) * tiles_w() + block.z + tx;
        let first = (block.x * params.tile_rows * tiles_w() + tile) * 36u * params.oc + oc;
{% for i in range(6) %}
{% for j in range(6) %}
        let m_{{ i }}_{{ j }} = input[first + {{ 6 * i + j }}u * params.oc];
{% endfor %}
{% endfor %}
{{ output_transform(AT, 4, 6) }}
        let b = bias_of(oc);
        let at = c * STAGE_OUT_STRIDE + 4u * ty * cols + 4u * tx;
{% for a in range(4) %}
{% for c in range(4) %}
        stage[at + {{ a }}u * cols + {{ c }}u] = activate(y_{{ a }}_{{ c }} + b);
{% endfor %}
{% endfor %}
    }
    workgroupBarrier();
    let window = 16u * BLOCK_OUT_TILES;
    // The band's last output row: a block may reach past it (its rows are the next band's).
    let oy_end = min(params.oh, 4u * (params.tile_row0 + params.tile_rows));
    for (var j = lid; j < BLOCK_OUT_CHANNELS * window; j += 256u) {
        let ch = j / window;
        let oy = 4u * (params.tile_row0 + block.y) + j % window / cols;
        let ox = 4u * block.z + j % cols;
        let o = block.w + ch;
        if (o < params.oc && oy < oy_end && ox < params.ow) {
            let at = ((block.x * params.oc + o) * params.oh + oy) * params.ow + ox;
            output[at] = {{ to_out }}(stage[ch * STAGE_OUT_STRIDE + j % window]);
        }
    }
}

// ---- Channels-last tensors (`winograd_4x4_coop` on NHWC inputs and outputs) ----
// One thread per (image, tile, channel), channels fastest: each of a thread's 36 loads of the
// NHWC input and 36 stores of V (or loads of M and 16 stores of the NHWC output) is one of 32
// adjacent channels across its warp, so both sides are coalesced with no staging.

// V[n, tile, t, ic] from an NHWC input.
@compute @workgroup_size(wg_size)
fn winograd4_input_channels_last(@builtin(global_invocation_id) gid: vec3<u32>) {
    let index = gid.y * stride_x + gid.x;
    let tiles = params.tile_rows * tiles_w();
    if (index >= params.n * tiles * params.ic) {
        return;
    }
    let ic = index % params.ic;
    let tile = (index / params.ic) % tiles;
    let n = index / (params.ic * tiles);
    let y0 = i32((params.tile_row0 + tile / tiles_w()) * 4u) - i32(params.pad_h);
    let x0 = i32(tile % tiles_w() * 4u) - i32(params.pad_w);
{{ load_window("nhwc", 6) }}
{{ input_transform(BT, 6) }}
    let at = (n * tiles + tile) * 36u * params.ic + ic;
{% for t in range(36) %}
    output[at + {{ t }}u * params.ic] = {{ to_out }}(v_{{ t }} * V_SCALE);
{% endfor %}
}

// M[n, tile, t, oc] → the NHWC output.
@compute @workgroup_size(wg_size)
fn winograd4_output_channels_last(@builtin(global_invocation_id) gid: vec3<u32>) {
    let index = gid.y * stride_x + gid.x;
    let tiles = params.tile_rows * tiles_w();
    if (index >= params.n * tiles * params.oc) {
        return;
    }
    let oc = index % params.oc;
    let tile = (index / params.oc) % tiles;
    let n = index / (params.oc * tiles);
    let first = (n * tiles + tile) * 36u * params.oc + oc;
{% for i in range(6) %}
{% for j in range(6) %}
    let m_{{ i }}_{{ j }} = input[first + {{ 6 * i + j }}u * params.oc];
{% endfor %}
{% endfor %}
{{ output_transform(AT, 4, 6) }}
    let b = bias_of(oc);
    let oy0 = (params.tile_row0 + tile / tiles_w()) * 4u;
    let ox0 = tile % tiles_w() * 4u;
{% for a in range(4) %}
{% for c in range(4) %}
    if (oy0 + {{ a }}u < params.oh && ox0 + {{ c }}u < params.ow) {
        output[((n * params.oh + oy0 + {{ a }}u) * params.ow + ox0 + {{ c }}u) * params.oc + oc] = {{ to_out }}(activate(y_{{ a }}_{{ c }} + b));
    }
{% endfor %}
{% endfor %}
}
