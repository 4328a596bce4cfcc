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
{{ conv.activation_overrides() }}

{{ conv.activate() }}

// Tiles along the output's rows and columns.
fn tiles_h() -> u32 {
    return (params.oh + 1u) / 2u;
}

fn tiles_w() -> u32 {
    return (params.ow + 1u) / 2u;
}

// The packed weight's output-channel stride: OC rounded up to 4.
fn oc4() -> u32 {
    return (params.oc + 3u) / 4u * 4u;
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
    var stride = params.ic * oc4();
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
    let y0 = i32(tile / tiles_w() * 2u) - i32(params.pad_h);
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

// ---- Channels-last products (`winograd_coop`) ----
// A workgroup of 256 threads takes a block of BLOCK_TILES tiles × BLOCK_CHANNELS channels of one
// image. The NCHW side is read or written with the tiles fastest across a warp (coalesced rows),
// the channels-last side with the channels fastest (BLOCK_CHANNELS adjacent values: one whole
// 32-byte sector, 8 of f32 or 16 of f16; a partial sector costs the memory a read to write it),
// the block passing between the two orders through workgroup memory: [tile][t][channel], each
// tile's 16 × BLOCK_CHANNELS values padded so that a warp's accesses fall in 32 banks (by one
// with 32 tiles per warp; by two with 16 tiles × 2 channels, which then take the odd banks).
{% set block_channels = 16 if out == "f16" else 8 %}
{% set stage_stride = 16 * block_channels + (2 if out == "f16" else 1) %}

const BLOCK_TILES: u32 = {{ 256 // block_channels }}u;
const BLOCK_CHANNELS: u32 = {{ block_channels }}u;
const STAGE_TILE_STRIDE: u32 = {{ stage_stride }}u;
var<workgroup> stage: array<f32, {{ (256 // block_channels) * stage_stride }}>;

// The block of workgroup `wid` (of a grid `groups` wide): its image, first tile and first
// channel among `channels`; past the last block (the grid folds into 2D) the image is N or more,
// and the caller returns. Uniform across the workgroup.
fn nhwc_block(wid: vec3<u32>, groups: vec3<u32>, channels: u32) -> vec3<u32> {
    let tiles = tiles_h() * tiles_w();
    let tile_blocks = (tiles + BLOCK_TILES - 1u) / BLOCK_TILES;
    let channel_blocks = (channels + BLOCK_CHANNELS - 1u) / BLOCK_CHANNELS;
    let block = wid.y * groups.x + wid.x;
    let n = block / (tile_blocks * channel_blocks);
    let tile0 = block % tile_blocks * BLOCK_TILES;
    let channel0 = block / tile_blocks % channel_blocks * BLOCK_CHANNELS;
    return vec3<u32>(n, tile0, channel0);
}

// V[n, tile, t, ic] = (Bᵀ d B)[t]: thread (channel c = lid / BLOCK_TILES, tile lane =
// lid % BLOCK_TILES) transforms its window into the stage; then each thread writes 16 of the
// block's values, channels fastest.
@compute @workgroup_size(256)
fn winograd_input_nhwc(
    @builtin(workgroup_id) wid: vec3<u32>,
    @builtin(num_workgroups) groups: vec3<u32>,
    @builtin(local_invocation_index) lid: u32,
) {
    let block = nhwc_block(wid, groups, params.ic);
    if (block.x >= params.n) {
        return;
    }
    let tiles = tiles_h() * tiles_w();
    let lane = lid % BLOCK_TILES;
    let c = lid / BLOCK_TILES;
    let tile = block.y + lane;
    let ic = block.z + c;
    if (tile < tiles && ic < params.ic) {
        let v = transform_window(block.x, ic, tile, false);
        for (var t = 0u; t < 16u; t++) {
            stage[lane * STAGE_TILE_STRIDE + t * BLOCK_CHANNELS + c] = v[t];
        }
    }
    workgroupBarrier();
    for (var k = 0u; k < 16u; k++) {
        let j = k * 256u + lid;
        let jc = j % BLOCK_CHANNELS;
        let jt = j / BLOCK_CHANNELS % 16u;
        let jlane = j / (16u * BLOCK_CHANNELS);
        let jtile = block.y + jlane;
        let jic = block.z + jc;
        if (jtile < tiles && jic < params.ic) {
            let at = ((block.x * tiles + jtile) * 16u + jt) * params.ic + jic;
            output[at] = {{ to_out }}(stage[jlane * STAGE_TILE_STRIDE + jt * BLOCK_CHANNELS + jc]);
        }
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

// M[n, tile, t, oc] → y: each thread reads 16 of the block's values, channels fastest, into the
// stage; then thread (channel c = lid / BLOCK_TILES, tile lane = lid % BLOCK_TILES) writes its
// tile's outputs.
@compute @workgroup_size(256)
fn winograd_output_nhwc(
    @builtin(workgroup_id) wid: vec3<u32>,
    @builtin(num_workgroups) groups: vec3<u32>,
    @builtin(local_invocation_index) lid: u32,
) {
    let block = nhwc_block(wid, groups, params.oc);
    if (block.x >= params.n) {
        return;
    }
    let tiles = tiles_h() * tiles_w();
    for (var k = 0u; k < 16u; k++) {
        let j = k * 256u + lid;
        let jc = j % BLOCK_CHANNELS;
        let jt = j / BLOCK_CHANNELS % 16u;
        let jlane = j / (16u * BLOCK_CHANNELS);
        let jtile = block.y + jlane;
        let joc = block.z + jc;
        if (jtile < tiles && joc < params.oc) {
            let at = ((block.x * tiles + jtile) * 16u + jt) * params.oc + joc;
            stage[jlane * STAGE_TILE_STRIDE + jt * BLOCK_CHANNELS + jc] = input[at];
        }
    }
    workgroupBarrier();
    let lane = lid % BLOCK_TILES;
    let c = lid / BLOCK_TILES;
    let tile = block.y + lane;
    let oc = block.z + c;
    if (tile < tiles && oc < params.oc) {
        var m: array<f32, 16>;
        for (var t = 0u; t < 16u; t++) {
            m[t] = stage[lane * STAGE_TILE_STRIDE + t * BLOCK_CHANNELS + c];
        }
        write_tile(block.x, oc, tile, m, false);
    }
}

// y = Aᵀ m A of `tile` in output channel `oc` of image `n`, plus the bias, through the
// activation (cut at odd output sizes), into the NCHW output, or NHWC where `channels_last`.
fn write_tile(n: u32, oc: u32, tile: u32, m: array<f32, 16>, channels_last: bool) {
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
    let oy0 = tile / tiles_w() * 2u;
    let ox0 = tile % tiles_w() * 2u;
    for (var r = 0u; r < 2u; r++) {
        let oy = oy0 + r;
        let a0 = am[4u * r];
        let a1 = am[4u * r + 1u];
        let a2 = am[4u * r + 2u];
        let a3 = am[4u * r + 3u];
        // Where (oy, ox0) is, and how far its right-hand neighbour is.
        var at = ((n * params.oc + oc) * params.oh + oy) * params.ow + ox0;
        var next = 1u;
        if (channels_last) {
            at = ((n * params.oh + oy) * params.ow + ox0) * params.oc + oc;
            next = params.oc;
        }
        if (oy < params.oh) {
            output[at] = {{ to_out }}(activate(a0 + a1 + a2 + b));
            if (ox0 + 1u < params.ow) {
                output[at + next] = {{ to_out }}(activate(a1 - a2 - a3 + b));
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
