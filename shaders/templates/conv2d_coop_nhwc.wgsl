{% import "prelude/conv.wgsl" as conv %}
{# variants: f16 f16_partial #}
{#
  What one 8-wide K chunk of the input is in registers: one 16-byte mat2x4<f16> of 8 halves (f16
  tensors: a matrix type is how WGSL loads 16 bytes of halves at once) or two vec4s of floats (f32
  tensors), converted to f16 only when stored to the tile, so
  the loads of the next K-tile stay in flight during the math.
#}
{% set f16_in = io == "f16" %}
{% set raw = "mat2x4<f16>" if f16_in else "vec4<f32>" %}
{% set per_chunk = 1 if f16_in else 2 %}
// Implicit-GEMM convolution on cooperative matrices (tensor cores) over channels-last (NHWC)
// tensors: f16 multiplicands, f32 accumulation; {{ io }} input, {{ out }} output.
//
// Per group: C[M = N·OH·OW pixels, N = OC/groups] = A[M, K] · B[K, N] with K = (ky, kx, ic), ic
// fastest. A row is one output pixel's receptive field: for each tap, IC/groups channels that are
// adjacent in an NHWC input, so with IC/groups % 8 == 0 the kernel loads 8 of them as one 16-byte
// vector (two for f32 tensors) instead of 8 scalar im2col loads. B is the weight packed by
// conv_pack_coop.wgsl ([groups, KH·KW, ICg, OCg8], f16), read 8 output channels per vector. C's
// rows are NHWC output rows, so a pixel's output channels are written side by side.
//
// A workgroup of 8 subgroups of 32 invocations computes a (64·warps_m) × (32·warps_n) tile of C
// (warps_m · warps_n = 8): 128 pixels × 128 channels, or 256 × 64 for 64 or fewer output
// channels per group. Each subgroup holds a 64×32 block in eight 16×16 f32 accumulators. K-tiles
// are 32 deep (`conv2d_coop_nhwc`, four 8-wide chunks) or 64 (`conv2d_coop_nhwc_k64`, 128×128
// tiles only: half the barriers per K, as the roofline's GEMMs measured): each invocation stages its share of A and B into workgroup
// memory as f16 (rows padded by 8 halves so neighbouring rows start in different banks), the
// subgroups load 4 A and 2 B fragments per 16 of K and issue 8 multiply-adds, and the next
// K-tile's loads are issued before the math so they are in flight during it. Output through a
// per-subgroup 16×16 staging tile, where bias and activation are applied and ragged edges masked.
// Split-K: with split_k > 1 each workgroup takes one slice of the K-tiles and writes raw partial
// sums to output[slice · numel + i]; conv_splitk_reduce.wgsl adds them with bias and activation.
// workgroup_id: x = pixel tile, y = channel tile, z = group · split_k + slice.
//
// Needs subgroups of exactly 32 invocations (checked by the host), a device that reports 16×16×16
// f16 × f16 + f32 cooperative matrices, and IC/groups % 8 == 0 (checked by the host).

enable f16;
enable wgpu_cooperative_matrix;

{{ conv.params_struct() }}

// The NHWC input, {{ 8 // per_chunk }} values per element.
@group(0) @binding(0) var<storage, read> input: array<{{ raw }}>;
// The packed f16 weight, 8 halves per element.
@group(0) @binding(1) var<storage, read> weight: array<mat2x4<f16>>;
@group(0) @binding(2) var<storage, read> bias: array<{{ io }}>;
// The NHWC output (or split-K's partial sums).
@group(0) @binding(3) var<storage, read_write> output: array<{{ out }}>;
@group(0) @binding(4) var<uniform> params: ConvParams;

// Subgroups along N (output channels): 4 (128×128 tiles) or 2 (256×64); 8 / warps_n along M.
override warps_n: u32 = 4;
// K-slices (1: no split).
override split_k: u32 = 1;
{{ conv.activation_overrides() }}
// The geometry specialised into the pipeline. Must equal the uniform's values.
{{ conv.spec_overrides(1, 0) }}
{{ conv.spec_channel_overrides() }}

// One 16×16 f32 staging tile per subgroup for the output.
var<workgroup> stage: array<f32, 2048>;

{{ conv.activate() }}

// `m`, or zeros where `keep` is false (`select` takes no matrices). Loads go through it from
// clamped indices, unconditionally, so they can all be in flight at once.
fn masked(m: mat2x4<f16>, keep: bool) -> mat2x4<f16> {
    let zero = vec4<f16>(0.0);
    return mat2x4<f16>(select(zero, m[0], keep), select(zero, m[1], keep));
}

// One 8-wide chunk of raw input values (zero outside the image and K) into `slot` of `ra`.
fn load_input_chunk(ra: ptr<function, array<{{ raw }}, {{ 4 * per_chunk }}>>, slot: u32, valid: bool, at: u32) {
{% if f16_in %}
    (*ra)[slot] = masked(input[select(0u, at / 8u, valid)], valid);
{% else %}
    (*ra)[2u * slot] = select(vec4<f32>(0.0), input[select(0u, at / 4u, valid)], valid);
    (*ra)[2u * slot + 1u] = select(vec4<f32>(0.0), input[select(0u, at / 4u + 1u, valid)], valid);
{% endif %}
}

// The output pixels of an invocation's A rows (up to 4), decoded once: the top-left input
// position of each one's window, its image's first input row, and whether it exists.
struct Rows {
    ih0: array<i32, 4>,
    iw0: array<i32, 4>,
    base: array<u32, 4>,
    valid: array<bool, 4>,
}

// Writes one 16×16 accumulator (pixels p0.., channels n0.. of the group) through the subgroup's
// staging tile: lane l writes channel l % 16 of pixels l / 16, l / 16 + 2, …, so the 16 lanes of
// a half-subgroup write one pixel's 16 adjacent channels. Called the same number of times by
// every subgroup (the barriers are uniform).
fn emit(acc: coop_mat16x16<f32, C>, warp: u32, lane: u32, p0: u32, n0: u32, group: u32, slice: u32) {
    let stage_at = warp * 256u;
    let stage_stride = 16u;
    coopStoreT(acc, &stage[stage_at], stage_stride);
    workgroupBarrier();
    let ocg = spec_oc / spec_groups;
    let pixels = params.n * params.oh * params.ow;
    let m = n0 + lane % 16u;
    if (m < ocg) {
        let oc = group * ocg + m;
        for (var i = 0u; i < 8u; i++) {
            let r = lane / 16u + 2u * i;
            let p = p0 + r;
            if (p < pixels) {
                let v = stage[stage_at + r * 16u + lane % 16u];
                let at = p * spec_oc + oc;
                if (split_k > 1u) {
                    output[slice * pixels * spec_oc + at] = {{ to_out }}(v);
                } else if (params.has_bias != 0u) {
                    output[at] = {{ to_out }}(activate(v + {{ to_f32 }}(bias[oc])));
                } else {
                    output[at] = {{ to_out }}(activate(v));
                }
            }
        }
    }
    workgroupBarrier();
}

// Row stride of the staged B tile, in halves, for the widest tile (128 columns + 8).
const SB_MAX: u32 = 136u;
{% macro body(bk, suffix, a_rows, b_max) %}
{% set sa = bk + 8 %}
{% set chunks = bk // 8 %}
// ---- {{ bk }}-deep K-tiles ----

// Staged tiles, row strides in halves 8 more than a row (16 bytes, the fragment loads'
// alignment) so neighbouring rows start in different banks: A {{ a_rows }} rows × {{ bk }}, B {{ bk }} rows
// × up to 128 columns.
var<workgroup> tile_a{{ suffix }}: array<f16, {{ a_rows * sa }}>;
var<workgroup> tile_b{{ suffix }}: array<f16, {{ bk }}u * SB_MAX>;

// Stores chunk `slot` of `ra` as 8 halves at tile_a{{ suffix }}[at..].
fn store_input_chunk{{ suffix }}(ra: ptr<function, array<{{ raw }}, {{ 4 * per_chunk }}>>, slot: u32, at: u32) {
{% if f16_in %}
    let lo = (*ra)[slot][0];
    let hi = (*ra)[slot][1];
    tile_a{{ suffix }}[at] = lo.x;
    tile_a{{ suffix }}[at + 1u] = lo.y;
    tile_a{{ suffix }}[at + 2u] = lo.z;
    tile_a{{ suffix }}[at + 3u] = lo.w;
    tile_a{{ suffix }}[at + 4u] = hi.x;
    tile_a{{ suffix }}[at + 5u] = hi.y;
    tile_a{{ suffix }}[at + 6u] = hi.z;
    tile_a{{ suffix }}[at + 7u] = hi.w;
{% else %}
    let lo = vec4<f16>((*ra)[2u * slot]);
    let hi = vec4<f16>((*ra)[2u * slot + 1u]);
    tile_a{{ suffix }}[at] = lo.x;
    tile_a{{ suffix }}[at + 1u] = lo.y;
    tile_a{{ suffix }}[at + 2u] = lo.z;
    tile_a{{ suffix }}[at + 3u] = lo.w;
    tile_a{{ suffix }}[at + 4u] = hi.x;
    tile_a{{ suffix }}[at + 5u] = hi.y;
    tile_a{{ suffix }}[at + 6u] = hi.z;
    tile_a{{ suffix }}[at + 7u] = hi.w;
{% endif %}
}

// Stores 8 packed halves `m` at tile_b{{ suffix }}[at..].
fn store_weight_chunk{{ suffix }}(m: mat2x4<f16>, at: u32) {
    let lo = m[0];
    let hi = m[1];
    tile_b{{ suffix }}[at] = lo.x;
    tile_b{{ suffix }}[at + 1u] = lo.y;
    tile_b{{ suffix }}[at + 2u] = lo.z;
    tile_b{{ suffix }}[at + 3u] = lo.w;
    tile_b{{ suffix }}[at + 4u] = hi.x;
    tile_b{{ suffix }}[at + 5u] = hi.y;
    tile_b{{ suffix }}[at + 6u] = hi.z;
    tile_b{{ suffix }}[at + 7u] = hi.w;
}

// Loads K-tile k0's chunks of A (this invocation's chunk a_kc of each of its rows: 8 channels of
// one tap, since icg % 8 == 0 a chunk never spans taps) into ra and of B (chunk b_col of rows
// b_row + b_step·i) into rb; zero outside the image, K and the padded channels.
fn load_tile{{ suffix }}(
    ra: ptr<function, array<{{ raw }}, {{ 4 * per_chunk }}>>,
    rb: ptr<function, array<mat2x4<f16>, {{ b_max }}>>,
    rows: ptr<function, Rows>,
    k0: u32, k_end: u32, a_kc: u32, a_chunks: u32, b_row: u32, b_step: u32, b_chunks: u32, b_col: u32,
    group: u32,
) {
    let icg = spec_ic / spec_groups;
    let ocg8 = (spec_oc / spec_groups + 7u) / 8u * 8u;
    let k_total = spec_kh * spec_kw * icg;
    let k = k0 + 8u * a_kc;
    let tap = k / icg;
    let ic = k - tap * icg;
    let ky = tap / spec_kw;
    let kx = tap - ky * spec_kw;
    let k_ok = k < k_end;
    for (var i = 0u; i < a_chunks; i++) {
        let ih = (*rows).ih0[i] + i32(ky * spec_dilation_h);
        let iw = (*rows).iw0[i] + i32(kx * spec_dilation_w);
        let inside = k_ok && (*rows).valid[i] && ih >= 0 && ih < i32(params.ih) && iw >= 0 && iw < i32(params.iw);
        let at = (((*rows).base[i] + u32(max(ih, 0))) * params.iw + u32(max(iw, 0))) * spec_ic + group * icg + ic;
        load_input_chunk(ra, i, inside, at);
    }
    for (var i = 0u; i < b_chunks; i++) {
        let kb = k0 + b_row + b_step * i;
        let ok = kb < k_end && b_col < ocg8;
        let at = ((group * k_total + kb) * ocg8 + b_col) / 8u;
        (*rb)[i] = masked(weight[select(0u, at, ok)], ok);
    }
}

@compute @workgroup_size(256)
fn conv2d_coop_nhwc{{ suffix }}(
    @builtin(local_invocation_index) local: u32,
    @builtin(workgroup_id) wg: vec3<u32>,
) {
    let warps_m = 8u / warps_n;
    let bm = 64u * warps_m;
    let bn = 32u * warps_n;
    let sb = bn + 8u;
    let taps = spec_kh * spec_kw;
    let icg = spec_ic / spec_groups;
    let ocg = spec_oc / spec_groups;
    let ocg8 = (ocg + 7u) / 8u * 8u;
    let k_total = taps * icg;
    let group = wg.z / split_k;
    let slice = wg.z % split_k;
    // This slice's K-tiles: [k_begin, k_end), whole {{ bk }}-deep tiles.
    let k_tiles = (k_total + {{ bk }}u - 1u) / {{ bk }}u;
    let k_begin = (slice * k_tiles / split_k) * {{ bk }}u;
    let k_end = min(((slice + 1u) * k_tiles / split_k) * {{ bk }}u, k_total);
    let p_tile = wg.x * bm;
    let n_tile = wg.y * bn;
    let pixels = params.n * params.oh * params.ow;

    // A staging: invocation → chunk a_kc (of {{ chunks }} per K-tile row) of rows local / {{ chunks }} + {{ 256 // chunks }} i.
    // Each row's pixel decode is the same for every K-tile: done once here.
    let a_kc = local % {{ chunks }}u;
    let a_row = local / {{ chunks }}u;
    let a_chunks = bm / {{ 256 // chunks }}u;
    var rows: Rows;
    for (var i = 0u; i < a_chunks; i++) {
        let p = p_tile + a_row + {{ 256 // chunks }}u * i;
        let image = p / (params.oh * params.ow);
        let pixel = p - image * params.oh * params.ow;
        let oh = pixel / params.ow;
        let ow = pixel - oh * params.ow;
        rows.ih0[i] = i32(oh * spec_stride_h) - i32(spec_pad_h);
        rows.iw0[i] = i32(ow * spec_stride_w) - i32(spec_pad_w);
        rows.base[i] = image * params.ih;
        rows.valid[i] = p < pixels;
    }
    // B staging: invocation → chunk b_cc (of bn / 8 per row) of rows local / (bn / 8) + step i.
    let b_per_row = bn / 8u;
    let b_cc = local % b_per_row;
    let b_row = local / b_per_row;
    let b_step = 256u / b_per_row;
    let b_chunks = {{ bk }}u / b_step;
    let b_col = n_tile + 8u * b_cc;

    let warp = local / 32u;
    let lane = local % 32u;
    let warp_m = (warp / warps_n) * 64u;
    let warp_n = (warp % warps_n) * 32u;

    var c00 = coop_mat16x16<f32, C>();
    var c01 = coop_mat16x16<f32, C>();
    var c10 = coop_mat16x16<f32, C>();
    var c11 = coop_mat16x16<f32, C>();
    var c20 = coop_mat16x16<f32, C>();
    var c21 = coop_mat16x16<f32, C>();
    var c30 = coop_mat16x16<f32, C>();
    var c31 = coop_mat16x16<f32, C>();

    // The next K-tile's raw values, loaded before the current one's math.
    var ra: array<{{ raw }}, {{ 4 * per_chunk }}>;
    var rb: array<mat2x4<f16>, {{ b_max }}>;
    var k0 = k_begin;
    load_tile{{ suffix }}(&ra, &rb, &rows, k0, k_end, a_kc, a_chunks, b_row, b_step, b_chunks, b_col, group);
    for (; k0 < k_end; k0 += {{ bk }}u) {
        for (var i = 0u; i < a_chunks; i++) {
            store_input_chunk{{ suffix }}(&ra, i, (a_row + {{ 256 // chunks }}u * i) * {{ sa }}u + 8u * a_kc);
        }
        for (var i = 0u; i < b_chunks; i++) {
            store_weight_chunk{{ suffix }}(rb[i], (b_row + b_step * i) * sb + 8u * b_cc);
        }
        workgroupBarrier();
        if (k0 + {{ bk }}u < k_end) {
            load_tile{{ suffix }}(&ra, &rb, &rows, k0 + {{ bk }}u, k_end, a_kc, a_chunks, b_row, b_step, b_chunks, b_col, group);
        }
        for (var kk = 0u; kk < {{ bk }}u; kk += 16u) {
            let a0 = coopLoadT<coop_mat16x16<f16, A>>(&tile_a{{ suffix }}[(warp_m + 0u) * {{ sa }}u + kk], {{ sa }}u);
            let a1 = coopLoadT<coop_mat16x16<f16, A>>(&tile_a{{ suffix }}[(warp_m + 16u) * {{ sa }}u + kk], {{ sa }}u);
            let a2 = coopLoadT<coop_mat16x16<f16, A>>(&tile_a{{ suffix }}[(warp_m + 32u) * {{ sa }}u + kk], {{ sa }}u);
            let a3 = coopLoadT<coop_mat16x16<f16, A>>(&tile_a{{ suffix }}[(warp_m + 48u) * {{ sa }}u + kk], {{ sa }}u);
            let b0 = coopLoadT<coop_mat16x16<f16, B>>(&tile_b{{ suffix }}[kk * sb + warp_n], sb);
            let b1 = coopLoadT<coop_mat16x16<f16, B>>(&tile_b{{ suffix }}[kk * sb + warp_n + 16u], sb);
            c00 = coopMultiplyAdd(a0, b0, c00);
            c01 = coopMultiplyAdd(a0, b1, c01);
            c10 = coopMultiplyAdd(a1, b0, c10);
            c11 = coopMultiplyAdd(a1, b1, c11);
            c20 = coopMultiplyAdd(a2, b0, c20);
            c21 = coopMultiplyAdd(a2, b1, c21);
            c30 = coopMultiplyAdd(a3, b0, c30);
            c31 = coopMultiplyAdd(a3, b1, c31);
        }
        workgroupBarrier();
    }

    let p_base = p_tile + warp_m;
    let n_base = n_tile + warp_n;
    emit(c00, warp, lane, p_base, n_base, group, slice);
    emit(c01, warp, lane, p_base, n_base + 16u, group, slice);
    emit(c10, warp, lane, p_base + 16u, n_base, group, slice);
    emit(c11, warp, lane, p_base + 16u, n_base + 16u, group, slice);
    emit(c20, warp, lane, p_base + 32u, n_base, group, slice);
    emit(c21, warp, lane, p_base + 32u, n_base + 16u, group, slice);
    emit(c30, warp, lane, p_base + 48u, n_base, group, slice);
    emit(c31, warp, lane, p_base + 48u, n_base + 16u, group, slice);
}
{%- endmacro %}

{# (K-tile depth, entry-point suffix, A rows staged at most, B chunks per invocation at most) #}
{% for bk, suffix, a_rows, b_max in [(32, "", 256, 2), (64, "_k64", 128, 4)] %}

{{ body(bk, suffix, a_rows, b_max) }}
{% endfor %}
