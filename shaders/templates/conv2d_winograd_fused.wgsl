{% import "prelude/conv.wgsl" as conv %}
// Winograd F(2×2, 3×3) in one pass on cooperative matrices (`winograd_fused`): no transformed
// input V or products M in memory. `winograd_coop` writes V and M to memory and reads them back
// (conv2d_winograd.wgsl); on the largest layers that traffic, not the tensor cores, bounds it.
// Here a workgroup takes `tiles` output tiles (2×2 blocks, numbered over images, tile rows and
// tile columns) × `channels` output channels and all 16 positions of the transform, in one of
// the shapes below (an entry point each; the host picks one by the grid and the output channels).
// With 32 tiles × 64 channels:
//
//   per 16 input channels: each invocation loads two 4×4 input windows (a channel of a tile
//     each; one with 16 tiles), transforms them (Bᵀ d B) and stores the 16 positions of each as
//     f16 into V's stage, [position][tile][channel]; then subgroup w multiplies positions 2w and
//     2w + 1: for each, tiles/16 = 2 fragments of V (16 tiles × 16 channels) from the stage and
//     channels/16 = 4 of U (16 channels × 16 output channels) straight from the transformed
//     weight, into 2 × 4 accumulators;
//   at the end: the products of 16 tiles × 16 output channels at a time go through M's stage
//     (every position's), where each invocation takes one (tile, output channel), transforms it
//     (Aᵀ M A) and writes its 2×2 outputs with the bias, through the activation.
//
// U is not shared between subgroups (each has its own positions), so it is read as fragments
// from global memory (through the caches: every workgroup of a column of output channels reads
// the same U) rather than staged, a step ahead: each subgroup holds the next 16 channels'
// fragments while it multiplies the current ones (without that, each step waited on its own U
// loads: 1.12–1.23× on the diffusion suite, 1.00–1.16× on the layers R44 plans). V's stage is
// single-buffered. Every per-invocation value is a named variable, unrolled by the template
// (private arrays indexed in loops end up in local memory on NVIDIA's Vulkan driver).
//
// Layouts: `input` f32, NCHW, or NHWC where `channels_last`, and `output` likewise; `weight` is
// U in f16, [16 positions][u_rows][u_cols] (input channels rounded up to 16, output channels to
// the shape's channels, the padding zero), written by conv2d_winograd.wgsl's `winograd_weight`.
// Position t = 4r + s as there. Rounding: V and U are rounded to f16 as `winograd_coop`'s are, the
// sums are f32. workgroup_id: x = group of `tiles` tiles, y = group of `channels` output channels.
//
// Needs subgroups of exactly 32 invocations and 16×16×16 f16 × f16 + f32 cooperative matrices
// (checked by the host).

enable f16;
enable wgpu_cooperative_matrix;

{{ conv.params_struct() }}

@group(0) @binding(0) var<storage, read> input: array<f32>;
// U, f16.
@group(0) @binding(1) var<storage, read> weight: array<f16>;
@group(0) @binding(2) var<storage, read> bias: array<f32>;
@group(0) @binding(3) var<storage, read_write> output: array<f32>;
@group(0) @binding(4) var<uniform> params: ConvParams;

// NHWC tensors (else NCHW).
override channels_last: bool = false;
// U's rows per position (input channels rounded up to 16) and columns (output channels rounded
// up to the entry point's channels).
override u_rows: u32 = 16;
override u_cols: u32 = 64;
{{ conv.activation_overrides() }}

{#
  The workgroup shapes, (entry point, tiles, output channels): multiples of 16 (whole
  fragments), tiles up to 32. Each shape's numbers are WGSL constants too, for the host.
#}
{% set shapes = [
  ["conv2d_winograd_fused", "T32_C64", 32, 64],
  ["conv2d_winograd_fused_t16_c64", "T16_C64", 16, 64],
  ["conv2d_winograd_fused_t32_c80", "T32_C80", 32, 80],
  ["conv2d_winograd_fused_t16_c80", "T16_C80", 16, 80],
] %}
// Output tiles and output channels per workgroup of each entry point.
{% for shape in shapes %}
const {{ shape[1] }}_TILES: u32 = {{ shape[2] }}u;
const {{ shape[1] }}_CHANNELS: u32 = {{ shape[3] }}u;
{% endfor %}
// Row stride of V's stage in halves: 16 channels + 8 of padding, so that the rows a fragment
// load reads start in different banks.
const V_STRIDE: u32 = 24u;
// Sized for the widest shape (32 tiles).
var<workgroup> v_stage: array<f16, {{ 16 * 32 * 24 }}>;
// M's stage: 16 positions × 16 tiles × 16 output channels.
var<workgroup> m_stage: array<f32, 4096>;

{{ conv.activate(true) }}

fn tiles_w() -> u32 {
    return (params.ow + 1u) / 2u;
}

fn tiles_total() -> u32 {
    return params.n * ((params.oh + 1u) / 2u) * tiles_w();
}

// Where `tile` (numbered over images, tile rows and tile columns) lies: (image, tile row, tile
// column).
fn tile_position(tile: u32) -> vec3<u32> {
    let tw = tiles_w();
    let per_image = ((params.oh + 1u) / 2u) * tw;
    let n = tile / per_image;
    let ty = (tile - n * per_image) / tw;
    return vec3<u32>(n, ty, tile - n * per_image - ty * tw);
}

// The input index of the top-left corner of `tile`'s 4×4 window in channel 0 (it may lie outside
// the input, hence i32), and which of the window's 16 values lie inside the input (bit 4r + s):
// none for a tile past the last.
fn window(tile: u32) -> vec2<i32> {
    let position = tile_position(tile);
    let n = position.x;
    let y0 = i32(2u * position.y) - i32(params.pad_h);
    let x0 = i32(2u * position.z) - i32(params.pad_w);
    var mask = 0u;
    if (tile < tiles_total()) {
        for (var r = 0; r < 4; r++) {
            for (var s = 0; s < 4; s++) {
                let y = y0 + r;
                let x = x0 + s;
                if (y >= 0 && y < i32(params.ih) && x >= 0 && x < i32(params.iw)) {
                    mask |= 1u << u32(4 * r + s);
                }
            }
        }
    }
    var at = (i32(n * params.ic) * i32(params.ih) + y0) * i32(params.iw) + x0;
    if (channels_last) {
        at = (i32(n * params.ih) + y0) * i32(params.iw) + x0;
        at = at * i32(params.ic);
    }
    return vec2<i32>(at, i32(mask));
}

// Offset of row r, column s of a window from its corner.
fn window_offset(r: u32, s: u32) -> i32 {
    if (channels_last) {
        return i32((r * params.iw + s) * params.ic);
    }
    return i32(r * params.iw + s);
}

// The input at `at` where `inside`, else 0 (loads from a clamped index, unconditionally).
fn load_masked(at: i32, inside: bool) -> f32 {
    return select(0.0, input[select(0u, u32(at), inside)], inside);
}

// Writes the 2×2 outputs `y` (row-major) of `tile` in output channel `oc`, with the bias, through
// the activation; the last row and column of tiles are cut at odd sizes.
fn write_tile(tile: u32, oc: u32, y: vec4<f32>) {
    if (tile >= tiles_total() || oc >= params.oc) {
        return;
    }
    var b = 0.0;
    if (params.has_bias != 0u) {
        b = bias[oc];
    }
    let out = activate(y + vec4<f32>(b));
    let position = tile_position(tile);
    let n = position.x;
{% for i in range(2) %}
{% for j in range(2) %}
    {
        let y = 2u * position.y + {{ i }}u;
        let x = 2u * position.z + {{ j }}u;
        if (y < params.oh && x < params.ow) {
            var at = ((n * params.oc + oc) * params.oh + y) * params.ow + x;
            if (channels_last) {
                at = ((n * params.oh + y) * params.ow + x) * params.oc + oc;
            }
            output[at] = out.{{ "xyzw"[2 * i + j] }};
        }
    }
{% endfor %}
{% endfor %}
}

{#
  Written for any `tiles` and `channels` that are multiples of 16 (`tiles` up to 32). Measured on
  an H200 (docs/PERFORMANCE.md, v38–v39): on the diffusion layers 16 tiles or 32 channels were no
  faster (16 tiles win on small grids, 80 channels on 65–80 output channels: the shapes above),
  nor 128 channels on 16 tiles; the next step's windows loaded before the multiply-adds too,
  erratic (0.34–1.21×: more registers than U's prefetch leaves).
#}
{% macro entry(name, tiles, channels) %}
{% set items = "ab"[:tiles // 16] %}
@compute @workgroup_size(256)
fn {{ name }}(
    @builtin(local_invocation_index) local: u32,
    @builtin(workgroup_id) wg: vec3<u32>,
) {
    let tile0 = wg.x * {{ tiles }}u;
    let oc0 = wg.y * {{ channels }}u;
    let warp = local / 32u;
    // This invocation's windows per 16 channels, (tile, channel) items `local + 256·j` of
    // {{ tiles }} × 16: tiles fastest on NCHW tensors (a warp reads one channel's rows), channels
    // fastest on NHWC ones (16 adjacent channels per pixel).
    var channel_step = i32(16u * params.ih * params.iw);
    if (channels_last) {
        channel_step = 16;
    }
{% for r in range(4) %}
{% for s in range(4) %}
    let off{{ r }}{{ s }} = window_offset({{ r }}u, {{ s }}u);
{% endfor %}
{% endfor %}
{% for w in items %}
    var tile_{{ w }} = tile0 + local % {{ tiles }}u;
    var ic_{{ w }} = local / {{ tiles }}u + {{ (256 // tiles) * loop.index0 }}u;
    if (channels_last) {
        tile_{{ w }} = tile0 + local / 16u + {{ 16 * loop.index0 }}u;
        ic_{{ w }} = local % 16u;
    }
    // The row of V's stage the window goes to; its corner in channel 0 and its values inside the
    // input (the channel bound is checked per step).
    let row_{{ w }} = (tile_{{ w }} - tile0) * V_STRIDE + ic_{{ w }};
    let corner_{{ w }} = window(tile_{{ w }});
    let inside_{{ w }} = u32(corner_{{ w }}.y);
    let base_{{ w }} = corner_{{ w }}.x + i32(ic_{{ w }}) * select(i32(params.ih * params.iw), 1, channels_last);
{% endfor %}

{% for q in range(2) %}
{% for tb in range(tiles // 16) %}
{% for ob in range(channels // 16) %}
    var c{{ q }}{{ tb }}{{ ob }} = coop_mat16x16<f32, C>();
{% endfor %}
{% endfor %}
{% endfor %}
{% for w in items %}
{% for i in range(16) %}
    var d{{ w }}{{ i }}: f32;
{% endfor %}
{% endfor %}
{% macro load(k0) %}
    {
{% for w in items %}
        let ok{{ w }} = {{ k0 }} + ic_{{ w }} < params.ic;
        let at{{ w }} = base_{{ w }} + i32({{ k0 }} / 16u) * channel_step;
{% for r in range(4) %}
{% for s in range(4) %}
        d{{ w }}{{ 4 * r + s }} = load_masked(at{{ w }} + off{{ r }}{{ s }}, ok{{ w }} && (inside_{{ w }} & {{ 2 ** (4 * r + s) }}u) != 0u);
{% endfor %}
{% endfor %}
{% endfor %}
    }
{%- endmacro %}
{% macro transform_store(w) %}
    {
        // Bᵀ d, column by column, then (Bᵀ d) B row by row, into position 4r + s.
{% for s in range(4) %}
        let e0{{ s }} = d{{ w }}{{ s }} - d{{ w }}{{ 8 + s }};
        let e1{{ s }} = d{{ w }}{{ 4 + s }} + d{{ w }}{{ 8 + s }};
        let e2{{ s }} = d{{ w }}{{ 8 + s }} - d{{ w }}{{ 4 + s }};
        let e3{{ s }} = d{{ w }}{{ 4 + s }} - d{{ w }}{{ 12 + s }};
{% endfor %}
{% for r in range(4) %}
        v_stage[{{ 4 * r * tiles * 24 }}u + row_{{ w }}] = f16(e{{ r }}0 - e{{ r }}2);
        v_stage[{{ (4 * r + 1) * tiles * 24 }}u + row_{{ w }}] = f16(e{{ r }}1 + e{{ r }}2);
        v_stage[{{ (4 * r + 2) * tiles * 24 }}u + row_{{ w }}] = f16(e{{ r }}2 - e{{ r }}1);
        v_stage[{{ (4 * r + 3) * tiles * 24 }}u + row_{{ w }}] = f16(e{{ r }}1 - e{{ r }}3);
{% endfor %}
    }
{%- endmacro %}
    let k_end = u_rows;
    // Each subgroup's fragments of U for its two positions, a step ahead: loaded here for the
    // first 16 input channels, then during each step for the next.
{% for q in range(2) %}
{% for ob in range(channels // 16) %}
    var u{{ q }}{{ ob }} = coopLoadT<coop_mat16x16<f16, B>>(&weight[(2u * warp + {{ q }}u) * u_rows * u_cols + oc0 + {{ 16 * ob }}u], u_cols);
{% endfor %}
{% endfor %}
    for (var k0 = 0u; k0 < k_end; k0 += 16u) {
{{ load("k0") }}
{% for w in items %}
{{ transform_store(w) }}
{% endfor %}
        workgroupBarrier();
        // The next channels' U, unconditionally (the last step loads itself again).
        let k_next = min(k0 + 16u, k_end - 16u);
{% for q in range(2) %}
        {
            let p = 2u * warp + {{ q }}u;
{% for tb in range(tiles // 16) %}
            let a{{ tb }} = coopLoadT<coop_mat16x16<f16, A>>(&v_stage[p * {{ tiles * 24 }}u + {{ 16 * 24 * tb }}u], V_STRIDE);
{% endfor %}
            let u_at = (p * u_rows + k_next) * u_cols + oc0;
{% for ob in range(channels // 16) %}
            let b{{ ob }} = u{{ q }}{{ ob }};
            u{{ q }}{{ ob }} = coopLoadT<coop_mat16x16<f16, B>>(&weight[u_at + {{ 16 * ob }}u], u_cols);
{% endfor %}
{% for tb in range(tiles // 16) %}
{% for ob in range(channels // 16) %}
            c{{ q }}{{ tb }}{{ ob }} = coopMultiplyAdd(a{{ tb }}, b{{ ob }}, c{{ q }}{{ tb }}{{ ob }});
{% endfor %}
{% endfor %}
        }
{% endfor %}
        workgroupBarrier();
    }

    // The products, 16 tiles × 16 output channels at a time, every position's through M's stage:
    // position p's 16 × 16 block at p · 256, [channel][tile] on NCHW tensors (a warp then writes
    // 16 tiles' adjacent columns of one channel), [tile][channel] on NHWC ones (a pixel's 16
    // adjacent channels).
    var m_tile = local % 16u;
    var m_channel = local / 16u;
    if (channels_last) {
        m_tile = local / 16u;
        m_channel = local % 16u;
    }
{% for tb in range(tiles // 16) %}
{% for ob in range(channels // 16) %}
    if (channels_last) {
        coopStoreT(c0{{ tb }}{{ ob }}, &m_stage[2u * warp * 256u], 16u);
        coopStoreT(c1{{ tb }}{{ ob }}, &m_stage[(2u * warp + 1u) * 256u], 16u);
    } else {
        coopStore(c0{{ tb }}{{ ob }}, &m_stage[2u * warp * 256u], 16u);
        coopStore(c1{{ tb }}{{ ob }}, &m_stage[(2u * warp + 1u) * 256u], 16u);
    }
    workgroupBarrier();
    {
        let at = select(m_channel * 16u + m_tile, m_tile * 16u + m_channel, channels_last);
{% for t in range(16) %}
        let m{{ t }} = m_stage[{{ t * 256 }}u + at];
{% endfor %}
        // Aᵀ M, column by column, then (Aᵀ M) A.
{% for s in range(4) %}
        let f0{{ s }} = m{{ s }} + m{{ 4 + s }} + m{{ 8 + s }};
        let f1{{ s }} = m{{ 4 + s }} - m{{ 8 + s }} - m{{ 12 + s }};
{% endfor %}
        let y = vec4<f32>(f00 + f01 + f02, f01 - f02 - f03, f10 + f11 + f12, f11 - f12 - f13);
        write_tile(tile0 + {{ 16 * tb }}u + m_tile, oc0 + {{ 16 * ob }}u + m_channel, y);
    }
    workgroupBarrier();
{% endfor %}
{% endfor %}
}
{% endmacro %}
{% for shape in shapes %}

{{ entry(shape[0], shape[2], shape[3]) }}
{% endfor %}
