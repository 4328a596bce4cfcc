{% import "prelude/conv.wgsl" as conv %}
{#
  Winograd F(4×4, 3×3), fully unrolled: every transform is written out term by term from the
  matrices below (named scalars, no private arrays, which Vulkan drivers may put in local
  memory when indexed in loops; see docs/PERFORMANCE.md). Zero coefficients drop out, ±1 ones
  lose their multiply.
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
// Winograd F(4×4, 3×3) for 3×3 convolutions at stride 1, dilation 1, one group, f32 tensors:
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
//                     output's size).
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
// One thread per item, items along `gid.y * stride_x + gid.x`, ordered with the tile (or the
// output channel, for the weight) fastest, so that a warp's stores of V and U and loads of M are
// consecutive.

{{ conv.params_struct() }}

@group(0) @binding(0) var<storage, read> input: array<f32>;
@group(0) @binding(1) var<storage, read> weight: array<f32>;
@group(0) @binding(2) var<storage, read> bias: array<f32>;
@group(0) @binding(3) var<storage, read_write> output: array<f32>;
@group(0) @binding(4) var<uniform> params: ConvParams;

// Threads per workgroup (x).
override wg_size: u32 = 256;
// Threads per row of the dispatch grid (workgroups in x times wg_size).
override stride_x: u32;
{{ conv.activation_overrides() }}

{{ conv.activate() }}

// Tiles along the output's columns (4 columns each, the last cut).
fn tiles_w() -> u32 {
    return (params.ow + 3u) / 4u;
}

// One thread per (input channel, output channel), output channels fastest (coalesced stores).
@compute @workgroup_size(wg_size)
fn winograd4_weight(@builtin(global_invocation_id) gid: vec3<u32>) {
    let index = gid.y * stride_x + gid.x;
    if (index >= params.ic * params.oc) {
        return;
    }
    let oc = index % params.oc;
    let ic = index / params.oc;
    let oc4 = (params.oc + 3u) / 4u * 4u;
    // Position t of U at out + t·stride.
    let stride = params.ic * oc4;
    let out = ic * oc4 + oc;
    let base = (oc * params.ic + ic) * 9u;
{% for r in range(3) %}
{% for c in range(3) %}
    let g_{{ r }}_{{ c }} = weight[base + {{ 3 * r + c }}u];
{% endfor %}
{% endfor %}
    // G g: 6 rows of 3.
{% for i in range(6) %}
{% for c in range(3) %}
    let gg_{{ i }}_{{ c }} = {{ comb(G[i], ["g_0_%d" | format(c), "g_1_%d" | format(c), "g_2_%d" | format(c)]) }};
{% endfor %}
{% endfor %}
    // (G g) Gᵀ: 6 rows of 6, row i at positions t = 6i .. 6i + 5.
{% for i in range(6) %}
{% for j in range(6) %}
    output[out + {{ 6 * i + j }}u * stride] = {{ comb(G[j], ["gg_%d_0" | format(i), "gg_%d_1" | format(i), "gg_%d_2" | format(i)]) }};
{% endfor %}
{% endfor %}
}

// One thread per (image, input channel, tile), tiles fastest: V[n, t, ic, tile] of the band of
// tile rows `params.tile_row0` to + `params.tile_rows` − 1 (all of them unless the host splits
// an image whose intermediates exceed a storage binding; V holds the band's tiles only).
@compute @workgroup_size(wg_size)
fn winograd4_input(@builtin(global_invocation_id) gid: vec3<u32>) {
    let index = gid.y * stride_x + gid.x;
    let tiles = params.tile_rows * tiles_w();
    if (index >= params.n * params.ic * tiles) {
        return;
    }
    let tile = index % tiles;
    let ic = (index / tiles) % params.ic;
    let n = index / (tiles * params.ic);
    let y0 = i32((params.tile_row0 + tile / tiles_w()) * 4u) - i32(params.pad_h);
    let x0 = i32(tile % tiles_w() * 4u) - i32(params.pad_w);
    let plane = (n * params.ic + ic) * params.ih;
    // The 6×6 window d, zero outside the input.
{% for s in range(6) %}
    let col_ok_{{ s }} = x0 + {{ s }} >= 0 && x0 + {{ s }} < i32(params.iw);
{% endfor %}
{% for r in range(6) %}
    let row_ok_{{ r }} = y0 + {{ r }} >= 0 && y0 + {{ r }} < i32(params.ih);
    let row_at_{{ r }} = (plane + u32(y0 + {{ r }})) * params.iw;
{% for s in range(6) %}
    var d_{{ r }}_{{ s }} = 0.0;
    if (row_ok_{{ r }} && col_ok_{{ s }}) {
        d_{{ r }}_{{ s }} = input[row_at_{{ r }} + u32(x0 + {{ s }})];
    }
{% endfor %}
{% endfor %}
    // Bᵀ d: 6 rows of 6.
{% for i in range(6) %}
{% for s in range(6) %}
    let bd_{{ i }}_{{ s }} = {{ comb(BT[i], ["d_0_%d" | format(s), "d_1_%d" | format(s), "d_2_%d" | format(s), "d_3_%d" | format(s), "d_4_%d" | format(s), "d_5_%d" | format(s)]) }};
{% endfor %}
{% endfor %}
    // (Bᵀ d) B, position t = 6i + j of [n, t, ic, tile].
    let stride = params.ic * tiles;
    let out = (n * 36u * params.ic + ic) * tiles + tile;
{% for i in range(6) %}
{% for j in range(6) %}
    output[out + {{ 6 * i + j }}u * stride] = {{ comb(BT[j], ["bd_%d_0" | format(i), "bd_%d_1" | format(i), "bd_%d_2" | format(i), "bd_%d_3" | format(i), "bd_%d_4" | format(i), "bd_%d_5" | format(i)]) }};
{% endfor %}
{% endfor %}
}

// One thread per (image, output channel, tile), tiles fastest; `input` is M (of the band, as in
// `winograd4_input`).
@compute @workgroup_size(wg_size)
fn winograd4_output(@builtin(global_invocation_id) gid: vec3<u32>) {
    let index = gid.y * stride_x + gid.x;
    let tiles = params.tile_rows * tiles_w();
    if (index >= params.n * params.oc * tiles) {
        return;
    }
    let tile = index % tiles;
    let oc = (index / tiles) % params.oc;
    let n = index / (tiles * params.oc);
    let stride = params.oc * tiles;
    let first = (n * 36u * params.oc + oc) * tiles + tile;
{% for i in range(6) %}
{% for j in range(6) %}
    let m_{{ i }}_{{ j }} = input[first + {{ 6 * i + j }}u * stride];
{% endfor %}
{% endfor %}
    // Aᵀ m: 4 rows of 6.
{% for a in range(4) %}
{% for j in range(6) %}
    let am_{{ a }}_{{ j }} = {{ comb(AT[a], ["m_0_%d" | format(j), "m_1_%d" | format(j), "m_2_%d" | format(j), "m_3_%d" | format(j), "m_4_%d" | format(j), "m_5_%d" | format(j)]) }};
{% endfor %}
{% endfor %}
    var b = 0.0;
    if (params.has_bias != 0u) {
        b = bias[oc];
    }
    // (Aᵀ m) A plus the bias, through the activation: rows and columns past the output cut.
    let oy0 = (params.tile_row0 + tile / tiles_w()) * 4u;
    let ox0 = tile % tiles_w() * 4u;
{% for a in range(4) %}
    if (oy0 + {{ a }}u < params.oh) {
        let at = ((n * params.oc + oc) * params.oh + oy0 + {{ a }}u) * params.ow + ox0;
{% for c in range(4) %}
{% if c == 0 %}
        output[at] = activate({{ comb(AT[c], ["am_%d_0" | format(a), "am_%d_1" | format(a), "am_%d_2" | format(a), "am_%d_3" | format(a), "am_%d_4" | format(a), "am_%d_5" | format(a)]) }} + b);
{% else %}
        if (ox0 + {{ c }}u < params.ow) {
            output[at + {{ c }}u] = activate({{ comb(AT[c], ["am_%d_0" | format(a), "am_%d_1" | format(a), "am_%d_2" | format(a), "am_%d_3" | format(a), "am_%d_4" | format(a), "am_%d_5" | format(a)]) }} + b);
        }
{% endif %}
{% endfor %}
    }
{% endfor %}
}
