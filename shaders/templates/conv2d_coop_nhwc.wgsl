{% import "prelude/conv.wgsl" as conv %}
{# variants: f16 f16_partial #}
{% set f16_in = io == "f16" %}
// Implicit-GEMM convolution on cooperative matrices (tensor cores) over channels-last (NHWC)
// tensors: f16 multiplicands, f32 accumulation; {{ io }} input, {{ out }} output.
//
// Per group: C[M = N·OH·OW pixels, N = OC/groups] = A[M, K] · B[K, N] with K = (ky, kx, ic), ic
// fastest. A row is one output pixel's receptive field: for each tap, IC/groups channels that are
// adjacent in an NHWC input, so with IC/groups % 8 == 0 the kernel loads 8 of them as one 16-byte
// load ({{ "a mat2x4<f16>: a matrix type is how WGSL loads 16 bytes of halves at once" if f16_in else "two vec4<f32>" }})
// instead of 8 scalar im2col loads. B is the weight packed by conv_pack_coop.wgsl ([groups,
// KH·KW, ICg, OCg8], f16), read 8 output channels per load. C's rows are NHWC output rows, so a
// pixel's output channels are written side by side.
//
// A workgroup of 8 subgroups of 32 invocations; each subgroup holds a 64×32 block of C in eight
// 16×16 f32 accumulators. Entry points (tile of pixels × channels, K-tile depth):
//   conv2d_coop_nhwc      128 × 128, 64 deep (half the barriers per K: the roofline's GEMM
//                         measured 124 → 173 TFLOP/s with it on an H200)
//   conv2d_coop_nhwc_k32  128 × 128, 32 deep (devices with less than 45 KiB of workgroup memory)
//   conv2d_coop_nhwc_n64  256 × 64, 32 deep (64 or fewer output channels per group)
// Per K-tile each invocation stores its share of A and B into workgroup memory as f16 (rows padded
// by 8 halves so neighbouring rows start in different banks), the subgroups load 4 A and 2 B
// fragments per 16 of K and issue 8 multiply-adds, and the next K-tile's loads are issued before
// the math so they are in flight during it. Every per-invocation register — the loaded chunks,
// each row's pixel decode — is a named variable, unrolled by the template: private arrays indexed
// in loops end up in local memory on NVIDIA's Vulkan driver. Output through a per-subgroup 16×16
// staging tile, where bias and activation are applied and ragged edges masked.
// Split-K: with split_k > 1 each workgroup takes one slice of the K-tiles and writes raw partial
// sums to output[slice · numel + i]; conv_splitk_reduce.wgsl adds them with bias and activation.
// workgroup_id: x = pixel tile, y = channel tile, z = group · split_k + slice.
//
// Needs subgroups of exactly 32 invocations (checked by the host), a device that reports 16×16×16
// f16 × f16 + f32 cooperative matrices, and IC/groups % 8 == 0 (checked by the host).

enable f16;
enable wgpu_cooperative_matrix;

{{ conv.params_struct() }}

// The NHWC input, {{ 8 if f16_in else 4 }} values per element.
@group(0) @binding(0) var<storage, read> input: array<{{ "mat2x4<f16>" if f16_in else "vec4<f32>" }}>;
// The packed f16 weight, 8 halves per element.
@group(0) @binding(1) var<storage, read> weight: array<mat2x4<f16>>;
@group(0) @binding(2) var<storage, read> bias: array<{{ io }}>;
// The NHWC output (or split-K's partial sums).
@group(0) @binding(3) var<storage, read_write> output: array<{{ out }}>;
@group(0) @binding(4) var<uniform> params: ConvParams;

// K-slices (1: no split).
override split_k: u32 = 1;
{{ conv.activation_overrides() }}
// The geometry specialised into the pipeline. Must equal the uniform's values.
{{ conv.spec_overrides(1, 0) }}
{{ conv.spec_channel_overrides() }}

// Row stride of the staged B tile, in halves, for the widest tile (128 columns + 8).
const SB_MAX: u32 = 136u;
// One 16×16 f32 staging tile per subgroup for the output.
var<workgroup> stage: array<f32, 2048>;

{{ conv.activate() }}

// `m`, or zeros where `keep` is false (`select` takes no matrices). Loads go through it from
// clamped indices, unconditionally, so they can all be in flight at once.
fn masked(m: mat2x4<f16>, keep: bool) -> mat2x4<f16> {
    let zero = vec4<f16>(0.0);
    return mat2x4<f16>(select(zero, m[0], keep), select(zero, m[1], keep));
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

{#
  One entry point: K-tiles `bk` deep, `bm` pixels × `bn` channels per workgroup. An invocation
  stages chunk a_kc (of bk / 8 per A row) of A rows a_row + a_step·i, i < a_n, and chunk b_cc (of
  bn / 8 per B row) of B rows b_row + b_step·j, j < b_n.
#}
{% macro body(bk, bm, bn, suffix) %}
{% set sa = bk + 8 %}
{% set sb = bn + 8 %}
{% set chunks = bk // 8 %}
{% set a_step = 256 // chunks %}
{% set a_n = bm // a_step %}
{% set b_per_row = bn // 8 %}
{% set b_step = 256 // b_per_row %}
{% set b_n = bk // b_step %}
// ---- {{ bm }} × {{ bn }} tiles, {{ bk }}-deep K-tiles ----

var<workgroup> tile_a{{ suffix }}: array<f16, {{ bm * sa }}>;
var<workgroup> tile_b{{ suffix }}: array<f16, {{ bk * sb }}>;
// Each A row's pixel decode: (first input row of its window, first column, image's first row).
var<workgroup> rows{{ suffix }}: array<vec3<i32>, {{ bm }}>;

@compute @workgroup_size(256)
fn conv2d_coop_nhwc{{ suffix }}(
    @builtin(local_invocation_index) local: u32,
    @builtin(workgroup_id) wg: vec3<u32>,
) {
    let taps = spec_kh * spec_kw;
    let icg = spec_ic / spec_groups;
    let ocg = spec_oc / spec_groups;
    let ocg8 = (ocg + 7u) / 8u * 8u;
    let k_total = taps * icg;
    let group = wg.z / split_k;
    let slice = wg.z % split_k;
    // This slice's K-tiles: [k_begin, k_end), whole {{ bk }}-deep tiles.
    let k_tiles = (k_total + {{ bk - 1 }}u) / {{ bk }}u;
    let k_begin = (slice * k_tiles / split_k) * {{ bk }}u;
    let k_end = min(((slice + 1u) * k_tiles / split_k) * {{ bk }}u, k_total);
    let p_tile = wg.x * {{ bm }}u;
    let n_tile = wg.y * {{ bn }}u;
    let ohw = params.oh * params.ow;
    let pixels = params.n * ohw;

    // A staging: each row's pixel decode is the same for every K-tile, so it is done once here,
    // into a workgroup table (registers are what limits how many workgroups share a
    // multiprocessor): the top-left input position of the pixel's window (a row far above the
    // image for pixels past the end, so every tap is outside) and its image's first input row.
    let a_kc = local % {{ chunks }}u;
    let a_row = local / {{ chunks }}u;
    if (local < {{ bm }}u) {
        let p = p_tile + local;
        let image = p / ohw;
        let oh = (p - image * ohw) / params.ow;
        let ow = p - image * ohw - oh * params.ow;
        let ih0 = select(-(1 << 30), i32(oh * spec_stride_h) - i32(spec_pad_h), p < pixels);
        rows{{ suffix }}[local] = vec3<i32>(ih0, i32(ow * spec_stride_w) - i32(spec_pad_w), i32(image * params.ih));
    }
    workgroupBarrier();
    // B staging.
    let b_cc = local % {{ b_per_row }}u;
    let b_row = local / {{ b_per_row }}u;
    let b_col = n_tile + 8u * b_cc;

    let warp = local / 32u;
    let lane = local % 32u;
    let warp_m = (warp / {{ bn // 32 }}u) * 64u;
    let warp_n = (warp % {{ bn // 32 }}u) * 32u;

    var c00 = coop_mat16x16<f32, C>();
    var c01 = coop_mat16x16<f32, C>();
    var c10 = coop_mat16x16<f32, C>();
    var c11 = coop_mat16x16<f32, C>();
    var c20 = coop_mat16x16<f32, C>();
    var c21 = coop_mat16x16<f32, C>();
    var c30 = coop_mat16x16<f32, C>();
    var c31 = coop_mat16x16<f32, C>();

    // The next K-tile's raw loads, issued before the current one's math.
{% for i in range(a_n) %}
{% if f16_in %}
    var ra{{ i }}: mat2x4<f16>;
{% else %}
    var ra{{ i }}_lo: vec4<f32>;
    var ra{{ i }}_hi: vec4<f32>;
{% endif %}
{% endfor %}
{% for j in range(b_n) %}
    var rb{{ j }}: mat2x4<f16>;
{% endfor %}
{% macro load_tile(k0) %}
    {
        // This invocation's A chunk: 8 channels of one tap (icg % 8 == 0: never across taps).
        let k = {{ k0 }} + 8u * a_kc;
        let tap = k / icg;
        let ic = k - tap * icg;
        let ky = tap / spec_kw;
        let kx = tap - ky * spec_kw;
        let dy = i32(ky * spec_dilation_h);
        let dx = i32(kx * spec_dilation_w);
        let k_ok = k < k_end;
        let channel = group * icg + ic;
{% for i in range(a_n) %}
        let row{{ i }} = rows{{ suffix }}[a_row + {{ a_step * i }}u];
        let ih{{ i }} = row{{ i }}.x + dy;
        let iw{{ i }} = row{{ i }}.y + dx;
        let in{{ i }} = k_ok && ih{{ i }} >= 0 && ih{{ i }} < i32(params.ih) && iw{{ i }} >= 0 && iw{{ i }} < i32(params.iw);
        let at{{ i }} = ((u32(row{{ i }}.z) + u32(max(ih{{ i }}, 0))) * params.iw + u32(max(iw{{ i }}, 0))) * spec_ic + channel;
{% if f16_in %}
        ra{{ i }} = masked(input[select(0u, at{{ i }} / 8u, in{{ i }})], in{{ i }});
{% else %}
        ra{{ i }}_lo = select(vec4<f32>(0.0), input[select(0u, at{{ i }} / 4u, in{{ i }})], in{{ i }});
        ra{{ i }}_hi = select(vec4<f32>(0.0), input[select(0u, at{{ i }} / 4u + 1u, in{{ i }})], in{{ i }});
{% endif %}
{% endfor %}
{% for j in range(b_n) %}
        let kb{{ j }} = {{ k0 }} + b_row + {{ b_step * j }}u;
        let ok{{ j }} = kb{{ j }} < k_end && b_col < ocg8;
        rb{{ j }} = masked(weight[select(0u, ((group * k_total + kb{{ j }}) * ocg8 + b_col) / 8u, ok{{ j }})], ok{{ j }});
{% endfor %}
    }
{%- endmacro %}
{% macro store(tile, at, lo, hi) %}
        {
            let at = {{ at }};
            let lo = {{ lo }};
            let hi = {{ hi }};
            {{ tile }}[at] = lo.x;
            {{ tile }}[at + 1u] = lo.y;
            {{ tile }}[at + 2u] = lo.z;
            {{ tile }}[at + 3u] = lo.w;
            {{ tile }}[at + 4u] = hi.x;
            {{ tile }}[at + 5u] = hi.y;
            {{ tile }}[at + 6u] = hi.z;
            {{ tile }}[at + 7u] = hi.w;
        }
{%- endmacro %}
    var k0 = k_begin;
{{ load_tile("k0") }}
    for (; k0 < k_end; k0 += {{ bk }}u) {
{% for i in range(a_n) %}
{% set lo = "ra" ~ i ~ "[0]" if f16_in else "vec4<f16>(ra" ~ i ~ "_lo)" %}
{% set hi = "ra" ~ i ~ "[1]" if f16_in else "vec4<f16>(ra" ~ i ~ "_hi)" %}
{{ store("tile_a" ~ suffix, "(a_row + " ~ (a_step * i) ~ "u) * " ~ sa ~ "u + 8u * a_kc", lo, hi) }}
{% endfor %}
{% for j in range(b_n) %}
{{ store("tile_b" ~ suffix, "(b_row + " ~ (b_step * j) ~ "u) * " ~ sb ~ "u + 8u * b_cc", "rb" ~ j ~ "[0]", "rb" ~ j ~ "[1]") }}
{% endfor %}
        workgroupBarrier();
        // The next K-tile's loads, unconditionally (the last K-tile loads itself again), so the
        // compiler issues them ahead of the math rather than behind a branch.
        let k_next = min(k0 + {{ bk }}u, k_end - 1u) / {{ bk }}u * {{ bk }}u;
{{ load_tile("k_next") }}
{% for kk in range(0, bk, 16) %}
        {
            let a0 = coopLoadT<coop_mat16x16<f16, A>>(&tile_a{{ suffix }}[(warp_m + 0u) * {{ sa }}u + {{ kk }}u], {{ sa }}u);
            let a1 = coopLoadT<coop_mat16x16<f16, A>>(&tile_a{{ suffix }}[(warp_m + 16u) * {{ sa }}u + {{ kk }}u], {{ sa }}u);
            let a2 = coopLoadT<coop_mat16x16<f16, A>>(&tile_a{{ suffix }}[(warp_m + 32u) * {{ sa }}u + {{ kk }}u], {{ sa }}u);
            let a3 = coopLoadT<coop_mat16x16<f16, A>>(&tile_a{{ suffix }}[(warp_m + 48u) * {{ sa }}u + {{ kk }}u], {{ sa }}u);
            let b0 = coopLoadT<coop_mat16x16<f16, B>>(&tile_b{{ suffix }}[{{ kk * sb }}u + warp_n], {{ sb }}u);
            let b1 = coopLoadT<coop_mat16x16<f16, B>>(&tile_b{{ suffix }}[{{ kk * sb }}u + warp_n + 16u], {{ sb }}u);
            c00 = coopMultiplyAdd(a0, b0, c00);
            c01 = coopMultiplyAdd(a0, b1, c01);
            c10 = coopMultiplyAdd(a1, b0, c10);
            c11 = coopMultiplyAdd(a1, b1, c11);
            c20 = coopMultiplyAdd(a2, b0, c20);
            c21 = coopMultiplyAdd(a2, b1, c21);
            c30 = coopMultiplyAdd(a3, b0, c30);
            c31 = coopMultiplyAdd(a3, b1, c31);
        }
{% endfor %}
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

{# (K-tile depth, pixels, channels, entry-point suffix) #}
{% for bk, bm, bn, suffix in [(64, 128, 128, ""), (32, 128, 128, "_k32"), (32, 256, 64, "_n64")] %}

{{ body(bk, bm, bn, suffix) }}
{% endfor %}
