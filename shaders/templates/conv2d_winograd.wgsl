{% import "prelude/conv.wgsl" as conv %}
{# variants: f16_out #}
// Winograd F(2×2, 3×3) for 3×3 convolutions at stride 1, dilation 1, one group, f32 tensors:
// each 2×2 block of outputs ("tile") comes from its 4×4 input window in 16 products per channel
// pair instead of 36, so the multiply-adds fall 2.25-fold. Three passes around a GEMM:
//
//   winograd_weight  U[t] = (G g Gᵀ)[t] for each of the 16 positions t of the 4×4 transform,
//                    written straight into the GEMM kernels' packed-weight layout of a grouped
//                    1×1 convolution with 16 groups: packed[(t·IC + ic)·OC4 + oc], where OC4 is
//                    OC rounded up to 4 (that padding is left zero);
//   winograd_input   V[n, t, ic, tile] = (Bᵀ d B)[t] of the tile's 4×4 input window d (zero
//                    outside the input): the NCHW input of that grouped 1×1 convolution,
//                    [N, 16·IC, tiles_h, tiles_w];
//   (the GEMM)       M[n, t, oc, tile] = Σ_ic U[t, oc, ic] · V[n, t, ic, tile], run by the
//                    GEMM kernels as that grouped 1×1 convolution;
//   winograd_output  y = Aᵀ M A per tile, plus the bias, through the activation, into the NCHW
//                    output (the last row and column of tiles are cut at odd output sizes).
//
// `winograd_coop` runs the products on the channels-last tensor-core kernel instead
// (conv2d_coop_nhwc.wgsl): winograd_weight with `products_nhwc` writes U as that grouped 1×1
// convolution's plain [16·OC, IC] weight (position t's rows at t·OC, for its f16 prepack), and
// winograd_input_nhwc and winograd_output_nhwc write and read V and M as its channels-last input
// and output, [N, tiles_h, tiles_w, 16·IC] and [N, tiles_h, tiles_w, 16·OC]: V[n, tile, t, ic]
// and M[n, tile, t, oc].
//
//   G = [1 0 0; ½ ½ ½; ½ −½ ½; 0 0 1]   Bᵀ = [1 0 −1 0; 0 1 1 0; 0 −1 1 0; 0 1 0 −1]
//   Aᵀ = [1 1 1 0; 0 1 −1 −1]
//
// Rounding: the transforms add at most 4 terms per step with coefficients ±1 and ½, so each
// transformed operand carries a few ulps relative to the sum of its terms' magnitudes; the
// output's error bound is a small multiple of the direct kernels' (tests bound it against the
// f64 reference like every other kernel's).
//
// The NCHW entry points are one thread per item, items along `gid.y * stride_x + gid.x`; the
// items are ordered with the tile fastest, so a warp's loads and stores of V and M are
// consecutive. The channels-last ones are described where they start.
//
// `output` holds {{ out }} here. `winograd_coop` runs its channels-last input transform from the f16
// expansion (conv2d_winograd_f16_out.wgsl): V in f16, which its products would round to f16 as
// they load it anyway (half V's traffic, the same results).
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
// winograd_weight's layout of U: false for the GEMM kernels' packed weight, true for the plain
// weight `winograd_coop` prepacks.
override products_nhwc: bool = false;
// The packed weight's rows per position and columns where nonzero (`winograd_fused`'s U, padded
// to whole fragments and workgroup tiles), else IC and OC rounded up to 4.
override u_rows: u32 = 0;
override u_cols: u32 = 0;
{{ conv.activation_overrides() }}

{{ conv.activate() }}

// Tile rows of the band this pass runs (all of them unless the host splits the rows into bands:
// V and M hold the band's tiles only, numbered from its first row), and tiles along the output's
// columns.
fn tiles_h() -> u32 {
    return params.tile_rows;
}

fn tiles_w() -> u32 {
    return (params.ow + 1u) / 2u;
}

// The packed weight's output-channel stride: OC rounded up to 4, or `u_cols`.
fn oc4() -> u32 {
    return select((params.oc + 3u) / 4u * 4u, u_cols, u_cols != 0u);
}

// The packed weight's rows per position: IC, or `u_rows`.
fn u_rows_or_ic() -> u32 {
    return select(params.ic, u_rows, u_rows != 0u);
}

// One thread per (input channel, output channel), the channel that is fastest in U fastest
// (coalesced stores).
@compute @workgroup_size(wg_size)
fn winograd_weight(@builtin(global_invocation_id) gid: vec3<u32>) {
    let index = gid.y * stride_x + gid.x;
    if (index >= params.ic * params.oc) {
        return;
    }
    var oc = index % params.oc;
    var ic = index / params.oc;
    // Position t of U at out + t·stride.
    var stride = u_rows_or_ic() * oc4();
    var out = ic * oc4() + oc;
    if (products_nhwc) {
        ic = index % params.ic;
        oc = index / params.ic;
        stride = params.oc * params.ic;
        out = oc * params.ic + ic;
    }
    let base = (oc * params.ic + ic) * 9u;
    var g: array<f32, 9>;
    for (var i = 0u; i < 9u; i++) {
        g[i] = weight[base + i];
    }
    // G g: 4 rows of 3.
    var gg: array<f32, 12>;
    for (var s = 0u; s < 3u; s++) {
        let g0 = g[s];
        let g1 = g[3u + s];
        let g2 = g[6u + s];
        gg[s] = g0;
        gg[3u + s] = 0.5 * (g0 + g1 + g2);
        gg[6u + s] = 0.5 * (g0 - g1 + g2);
        gg[9u + s] = g2;
    }
    // (G g) Gᵀ: 4 rows of 4, row r at positions t = 4r .. 4r + 3.
    for (var r = 0u; r < 4u; r++) {
        let a = gg[3u * r];
        let b = gg[3u * r + 1u];
        let c = gg[3u * r + 2u];
        output[out] = {{ to_out }}(a);
        output[out + stride] = {{ to_out }}(0.5 * (a + b + c));
        output[out + 2u * stride] = {{ to_out }}(0.5 * (a - b + c));
        output[out + 3u * stride] = {{ to_out }}(c);
        out += 4u * stride;
    }
}

// The 16 positions (Bᵀ d B) of the 4×4 input window of `tile` in channel `ic` of image `n`,
// t = 4r + s; zero outside the input, which is NCHW, or NHWC where `channels_last` (a constant
// at every call, folded away).
fn transform_window(n: u32, ic: u32, tile: u32, channels_last: bool) -> array<f32, 16> {
    let y0 = i32((params.tile_row0 + tile / tiles_w()) * 2u) - i32(params.pad_h);
    let x0 = i32(tile % tiles_w() * 2u) - i32(params.pad_w);
    var d: array<f32, 16>;
    for (var r = 0u; r < 4u; r++) {
        let y = y0 + i32(r);
        for (var s = 0u; s < 4u; s++) {
            let x = x0 + i32(s);
            var v = 0.0;
            if (y >= 0 && y < i32(params.ih) && x >= 0 && x < i32(params.iw)) {
                var at = ((n * params.ic + ic) * params.ih + u32(y)) * params.iw + u32(x);
                if (channels_last) {
                    at = ((n * params.ih + u32(y)) * params.iw + u32(x)) * params.ic + ic;
                }
                v = input[at];
            }
            d[4u * r + s] = v;
        }
    }
    return input_transform(d);
}

// Bᵀ d B of a 4×4 input window d, t = 4r + s.
fn input_transform(d: array<f32, 16>) -> array<f32, 16> {
    // Bᵀ d: 4 rows of 4.
    var bd: array<f32, 16>;
    for (var s = 0u; s < 4u; s++) {
        let d0 = d[s];
        let d1 = d[4u + s];
        let d2 = d[8u + s];
        let d3 = d[12u + s];
        bd[s] = d0 - d2;
        bd[4u + s] = d1 + d2;
        bd[8u + s] = d2 - d1;
        bd[12u + s] = d1 - d3;
    }
    // (Bᵀ d) B.
    var v: array<f32, 16>;
    for (var r = 0u; r < 4u; r++) {
        let a = bd[4u * r];
        let b = bd[4u * r + 1u];
        let c = bd[4u * r + 2u];
        let e = bd[4u * r + 3u];
        v[4u * r] = a - c;
        v[4u * r + 1u] = b + c;
        v[4u * r + 2u] = c - b;
        v[4u * r + 3u] = b - e;
    }
    return v;
}

// One thread per (image, input channel, tile), tiles fastest.
@compute @workgroup_size(wg_size)
fn winograd_input(@builtin(global_invocation_id) gid: vec3<u32>) {
    let index = gid.y * stride_x + gid.x;
    let tiles = tiles_h() * tiles_w();
    if (index >= params.n * params.ic * tiles) {
        return;
    }
    let tile = index % tiles;
    let ic = (index / tiles) % params.ic;
    let n = index / (tiles * params.ic);
    let v = transform_window(n, ic, tile, false);
    // Position t of [n, t, ic, tile].
    let stride = params.ic * tiles;
    let out = (n * 16u * params.ic + ic) * tiles + tile;
    for (var t = 0u; t < 16u; t++) {
        output[out + t * stride] = {{ to_out }}(v[t]);
    }
}

// One thread per (image, output channel, tile), tiles fastest; `input` is M.
@compute @workgroup_size(wg_size)
fn winograd_output(@builtin(global_invocation_id) gid: vec3<u32>) {
    let index = gid.y * stride_x + gid.x;
    let tiles = tiles_h() * tiles_w();
    if (index >= params.n * params.oc * tiles) {
        return;
    }
    let tile = index % tiles;
    let oc = (index / tiles) % params.oc;
    let n = index / (tiles * params.oc);
    let stride = params.oc * tiles;
    let first = (n * 16u * params.oc + oc) * tiles + tile;
    var m: array<f32, 16>;
    for (var t = 0u; t < 16u; t++) {
        m[t] = input[first + t * stride];
    }
    write_tile(n, oc, tile, m, false);
}

// ---- Channels-last products (`winograd_coop`) on NCHW tensors ----
// A workgroup of 256 threads takes a block of BLOCK_TILES tiles of one image, `block_cols` tile
// columns by BLOCK_TILES / block_cols tile rows, in BLOCK_CHANNELS channels. The NCHW side goes
// through workgroup memory as whole rows (each warp reads or writes a run of adjacent columns:
// coalesced, every input value loaded once per block); the channels-last side is written or read
// straight from registers, thread (channel j % BLOCK_CHANNELS, tile j / BLOCK_CHANNELS) for item
// j, so that a warp's 16 accesses each cover BLOCK_CHANNELS adjacent values: one whole 32-byte
// sector, 8 of f32 or 16 of f16 (a partial sector costs the memory a read to write it).
{% set block_channels = 16 if out == "f16" else 8 %}

const BLOCK_TILES: u32 = 32u;
const BLOCK_CHANNELS: u32 = {{ block_channels }}u;
// (tile, channel) items per thread.
const BLOCK_ITEMS_PER_THREAD: u32 = BLOCK_TILES * BLOCK_CHANNELS / 256u;
// A channel's input rows in the stage: the block's (2·rows + 2) × (2·block_cols + 2) window, at
// most 264 values (4 × 66 with 32 tile columns, 6 × 34 with 16, 10 × 18 with 8, 18 × 10 with 4),
// padded to an odd stride so that adjacent channels fall in different banks.
const STAGE_CHANNEL_STRIDE: u32 = 265u;
// A channel's output rows in the stage: 2·rows × 2·block_cols = 4·BLOCK_TILES values, padded.
const STAGE_OUT_CHANNEL_STRIDE: u32 = 4u * BLOCK_TILES + 1u;
var<workgroup> stage: array<f32, {{ block_channels * 265 }}>;

// Tile columns per block of the channels-last products' NCHW transforms: 4, 8, 16 or 32 (the
// host picks the narrowest that covers the image's tile columns, up to 32); the block's tile rows
// make up BLOCK_TILES.
override block_cols: u32 = 32u;

// The block of workgroup `wid` (of a grid `groups` wide): its image, first tile row, first tile
// column and first channel among `channels`; past the last block (the grid folds into 2D) the
// image is N or more, and the caller returns. Uniform across the workgroup. The channel blocks
// are fastest: workgroups that run together write (or read) adjacent sectors of the same tiles'
// rows of V (or M), which reach the memory as whole lines rather than 32-byte pieces strided
// by the channel count.
fn tile_block(wid: vec3<u32>, groups: vec3<u32>, channels: u32) -> vec4<u32> {
    let block_rows = BLOCK_TILES / block_cols;
    let col_blocks = (tiles_w() + block_cols - 1u) / block_cols;
    let row_blocks = (tiles_h() + block_rows - 1u) / block_rows;
    let channel_blocks = (channels + BLOCK_CHANNELS - 1u) / BLOCK_CHANNELS;
    var block = wid.y * groups.x + wid.x;
    let channel0 = block % channel_blocks * BLOCK_CHANNELS;
    block /= channel_blocks;
    let tx0 = block % col_blocks * block_cols;
    block /= col_blocks;
    let ty0 = block % row_blocks * block_rows;
    return vec4<u32>(block / row_blocks, ty0, tx0, channel0);
}

// V[n, tile, t, ic] = (Bᵀ d B)[t]: the block's input windows into the stage, rows along the
// warp; then each thread transforms its items' windows from the stage and writes them.
@compute @workgroup_size(256)
fn winograd_input_nhwc(
    @builtin(workgroup_id) wid: vec3<u32>,
    @builtin(num_workgroups) groups: vec3<u32>,
    @builtin(local_invocation_index) lid: u32,
) {
    let block = tile_block(wid, groups, params.ic);
    if (block.x >= params.n) {
        return;
    }
    let cols = 2u * block_cols + 2u;
    let window = (2u * (BLOCK_TILES / block_cols) + 2u) * cols;
    let y0 = i32((params.tile_row0 + block.y) * 2u) - i32(params.pad_h);
    let x0 = i32(block.z * 2u) - i32(params.pad_w);
    for (var j = lid; j < BLOCK_CHANNELS * window; j += 256u) {
        let c = j / window;
        let r = j % window / cols;
        let s = j % cols;
        let ic = block.w + c;
        let y = y0 + i32(r);
        let x = x0 + i32(s);
        var v = 0.0;
        if (ic < params.ic && y >= 0 && y < i32(params.ih) && x >= 0 && x < i32(params.iw)) {
            v = input[((block.x * params.ic + ic) * params.ih + u32(y)) * params.iw + u32(x)];
        }
        stage[c * STAGE_CHANNEL_STRIDE + r * cols + s] = v;
    }
    workgroupBarrier();
    let tiles = tiles_h() * tiles_w();
    for (var k = 0u; k < BLOCK_ITEMS_PER_THREAD; k++) {
        let j = k * 256u + lid;
        let c = j % BLOCK_CHANNELS;
        let ty = j / BLOCK_CHANNELS / block_cols;
        let tx = j / BLOCK_CHANNELS % block_cols;
        let ic = block.w + c;
        if (block.y + ty < tiles_h() && block.z + tx < tiles_w() && ic < params.ic) {
            let first = c * STAGE_CHANNEL_STRIDE + 2u * ty * cols + 2u * tx;
            var d: array<f32, 16>;
            for (var r = 0u; r < 4u; r++) {
                for (var s = 0u; s < 4u; s++) {
                    d[4u * r + s] = stage[first + r * cols + s];
                }
            }
            let v = input_transform(d);
            let tile = (block.y + ty) * tiles_w() + block.z + tx;
            let at = (block.x * tiles + tile) * 16u * params.ic + ic;
            for (var t = 0u; t < 16u; t++) {
                output[at + t * params.ic] = {{ to_out }}(v[t]);
            }
        }
    }
}

// M[n, tile, t, oc] → y: each thread reads its items' 16 positions, transforms them and puts
// the 2×2 outputs in the stage; then the block's output rows are written, columns along the warp.
@compute @workgroup_size(256)
fn winograd_output_nhwc(
    @builtin(workgroup_id) wid: vec3<u32>,
    @builtin(num_workgroups) groups: vec3<u32>,
    @builtin(local_invocation_index) lid: u32,
) {
    let block = tile_block(wid, groups, params.oc);
    if (block.x >= params.n) {
        return;
    }
    let cols = 2u * block_cols;
    let tiles = tiles_h() * tiles_w();
    for (var k = 0u; k < BLOCK_ITEMS_PER_THREAD; k++) {
        let j = k * 256u + lid;
        let c = j % BLOCK_CHANNELS;
        let ty = j / BLOCK_CHANNELS / block_cols;
        let tx = j / BLOCK_CHANNELS % block_cols;
        let oc = block.w + c;
        if (block.y + ty < tiles_h() && block.z + tx < tiles_w() && oc < params.oc) {
            let tile = (block.y + ty) * tiles_w() + block.z + tx;
            let first = (block.x * tiles + tile) * 16u * params.oc + oc;
            var m: array<f32, 16>;
            for (var t = 0u; t < 16u; t++) {
                m[t] = input[first + t * params.oc];
            }
            let y = output_transform(oc, m);
            let at = c * STAGE_OUT_CHANNEL_STRIDE + 2u * ty * cols + 2u * tx;
            stage[at] = y[0];
            stage[at + 1u] = y[1];
            stage[at + cols] = y[2];
            stage[at + cols + 1u] = y[3];
        }
    }
    workgroupBarrier();
    let window = 4u * BLOCK_TILES;
    // The band's last output row: a block may reach past it (its rows are the next band's).
    let oy_end = min(params.oh, 2u * (params.tile_row0 + tiles_h()));
    for (var j = lid; j < BLOCK_CHANNELS * window; j += 256u) {
        let c = j / window;
        let oy = 2u * (params.tile_row0 + block.y) + j % window / cols;
        let ox = 2u * block.z + j % cols;
        let oc = block.w + c;
        if (oc < params.oc && oy < oy_end && ox < params.ow) {
            let at = ((block.x * params.oc + oc) * params.oh + oy) * params.ow + ox;
            output[at] = {{ to_out }}(stage[c * STAGE_OUT_CHANNEL_STRIDE + j % window]);
        }
    }
}

// The 2×2 outputs y = Aᵀ m A of output channel `oc`, plus the bias, through the activation:
// y[2r + s] is row r, column s.
fn output_transform(oc: u32, m: array<f32, 16>) -> vec4<f32> {
    // Aᵀ m: 2 rows of 4.
    var am: array<f32, 8>;
    for (var s = 0u; s < 4u; s++) {
        let m0 = m[s];
        let m1 = m[4u + s];
        let m2 = m[8u + s];
        let m3 = m[12u + s];
        am[s] = m0 + m1 + m2;
        am[4u + s] = m1 - m2 - m3;
    }
    var b = 0.0;
    if (params.has_bias != 0u) {
        b = bias[oc];
    }
    return vec4<f32>(
        activate(am[0] + am[1] + am[2] + b),
        activate(am[1] - am[2] - am[3] + b),
        activate(am[4] + am[5] + am[6] + b),
        activate(am[5] - am[6] - am[7] + b),
    );
}

// y = Aᵀ m A of `tile` in output channel `oc` of image `n`, plus the bias, through the
// activation (cut at odd output sizes), into the NCHW output, or NHWC where `channels_last`.
fn write_tile(n: u32, oc: u32, tile: u32, m: array<f32, 16>, channels_last: bool) {
    let y = output_transform(oc, m);
    let oy0 = (params.tile_row0 + tile / tiles_w()) * 2u;
    let ox0 = tile % tiles_w() * 2u;
    for (var r = 0u; r < 2u; r++) {
        let oy = oy0 + r;
        // Where (oy, ox0) is, and how far its right-hand neighbour is.
        var at = ((n * params.oc + oc) * params.oh + oy) * params.ow + ox0;
        var next = 1u;
        if (channels_last) {
            at = ((n * params.oh + oy) * params.ow + ox0) * params.oc + oc;
            next = params.oc;
        }
        if (oy < params.oh) {
            output[at] = {{ to_out }}(y[2u * r]);
            if (ox0 + 1u < params.ow) {
                output[at + next] = {{ to_out }}(y[2u * r + 1u]);
            }
        }
    }
}

// ---- Channels-last tensors (`winograd_coop` on NHWC inputs and outputs) ----
// One thread per (image, tile, channel), channels fastest: each of a thread's 16 loads of the
// NHWC input and 16 stores of V (or loads of M and stores of the NHWC output) is one of 32
// adjacent channels across its warp, so both sides are coalesced with no staging.

// V[n, tile, t, ic] from an NHWC input.
@compute @workgroup_size(wg_size)
fn winograd_input_channels_last(@builtin(global_invocation_id) gid: vec3<u32>) {
    let index = gid.y * stride_x + gid.x;
    let tiles = tiles_h() * tiles_w();
    if (index >= params.n * tiles * params.ic) {
        return;
    }
    let ic = index % params.ic;
    let tile = (index / params.ic) % tiles;
    let n = index / (params.ic * tiles);
    let v = transform_window(n, ic, tile, true);
    let out = (n * tiles + tile) * 16u * params.ic + ic;
    for (var t = 0u; t < 16u; t++) {
        output[out + t * params.ic] = {{ to_out }}(v[t]);
    }
}

// M[n, tile, t, oc] → the NHWC output.
@compute @workgroup_size(wg_size)
fn winograd_output_channels_last(@builtin(global_invocation_id) gid: vec3<u32>) {
    let index = gid.y * stride_x + gid.x;
    let tiles = tiles_h() * tiles_w();
    if (index >= params.n * tiles * params.oc) {
        return;
    }
    let oc = index % params.oc;
    let tile = (index / params.oc) % tiles;
    let n = index / (params.oc * tiles);
    let first = (n * tiles + tile) * 16u * params.oc + oc;
    var m: array<f32, 16>;
    for (var t = 0u; t < 16u; t++) {
        m[t] = input[first + t * params.oc];
    }
    write_tile(n, oc, tile, m, true);
}
