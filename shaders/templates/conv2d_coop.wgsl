{% import "prelude/conv.wgsl" as conv %}
{# variants: f16 f16_partial #}
{#
  One copy of the kernel per K-tile depth `bk` (entry point `conv2d_coop` + `suffix`), so the
  depth, the strides and the register arrays' and tiles' sizes are literals in each.
#}
{% macro body(bk, suffix) %}
{# A rows are padded by 8 halves; the registers holding the next tile hold what the depth needs
   with either tile shape: A 128·bk/256 or 64·bk/256 values per invocation, B bk·128/256 or bk·256/256. #}
{% set sa = bk + 8 %}
{% set astep = 256 // bk %}
{% set arr = bk %}
{% set a_len = 128 * sa %}
// ---- {{ bk }}-deep K-tiles ----

// Staged tiles: A 128 × ({{ bk }} + 8) halves (warps_m = 2), B {{ bk }} × SB_MAX (warps_m = 1). No
// checker bounds a fragment's 16 rows, so they stay inside by construction: the last A
// fragment reads up to index 127·{{ sa }} + {{ bk }} − 1, the last B fragment up to ({{ bk }} − 1)·264 + 255.
var<workgroup> tile_a{{ suffix }}: array<f16, {{ a_len }}>;
var<workgroup> tile_b{{ suffix }}: array<f16, {{ bk }}u * SB_MAX>;

// Loads K-tile k0's share of A and B of this invocation (zero outside M, K, N and the padded
// border; unconditional loads from clamped indices, so all of them can be in flight at once).
fn load_tiles{{ suffix }}(
    va: ptr<function, array<{{ io }}, {{ arr }}>>,
    vb: ptr<function, array<{{ io }}, {{ arr }}>>,
    k0: u32, a_k: u32, a_row: u32, a_rows: u32, b_row: u32, b_step: u32, b_rows: u32,
    pr: Problem, m_tile: u32, p_valid: bool, ih0: i32, iw0: i32, in_base: u32,
) {
    let taps = pr.taps_y * pr.taps_x;
    let icg = spec_ic / spec_groups;
    let ocg = spec_oc / spec_groups;
    let k_total = icg * taps;
    let ihw = params.ih * params.iw;
    let ka = k0 + a_k;
    // Transposed: the weight is [IC, OC/groups, KH, KW] and the phase's tap (ty, tx) is kernel
    // position (kh0 + ty·sH, kw0 + tx·sW); direct: [OC, IC/groups, KH, KW], row-major in K.
    let a_ic = ka / taps;
    let a_tap = ka - a_ic * taps;
    let a_ty = a_tap / pr.taps_x;
    let a_kh = pr.kh0 + a_ty * spec_stride_h;
    let a_kw = pr.kw0 + (a_tap - a_ty * pr.taps_x) * spec_stride_w;
    for (var i = 0u; i < a_rows; i++) {
        let m = a_row + {{ astep }}u * i;
        let valid = m_tile + m < ocg && ka < k_total;
        var at = (pr.group * ocg + m_tile + m) * k_total + ka;
        if (transposed) {
            at = (((pr.group * icg + a_ic) * ocg + m_tile + m) * spec_kh + a_kh) * spec_kw + a_kw;
        }
        let v = weight[select(0u, at, valid)];
        (*va)[i] = select(0.0, v, valid);
    }
    for (var i = 0u; i < b_rows; i++) {
        let k = k0 + b_row + b_step * i;
        let ic = k / taps;
        let tap = k - ic * taps;
        let ty = tap / pr.taps_x;
        let tx = tap - ty * pr.taps_x;
        let ih = ih0 + i32(ty) * pr.in_step_h;
        let iw = iw0 + i32(tx) * pr.in_step_w;
        let valid = p_valid && k < k_total && ih >= 0 && ih < i32(params.ih) && iw >= 0 && iw < i32(params.iw);
        let v = input[select(0u, in_base + ic * ihw + u32(ih) * params.iw + u32(iw), valid)];
        (*vb)[i] = select(0.0, v, valid);
    }
}

@compute @workgroup_size(256)
fn conv2d_coop{{ suffix }}(
    @builtin(local_invocation_index) local: u32,
    @builtin(workgroup_id) wg: vec3<u32>,
) {
    let warps_n = 8u / warps_m;
    let bm = 64u * warps_m;
    let bn = 32u * warps_n;
    let sb = bn + 8u;
    let icg = spec_ic / spec_groups;
    // workgroup z: (group · phases + phase) · split_k + slice (one phase when direct).
    let pr = problem(wg.z / split_k);
    let slice = wg.z % split_k;
    let k_total = icg * pr.taps_y * pr.taps_x;
    // This slice's K-tiles: [k_begin, k_end), whole {{ bk }}-deep tiles.
    let k_tiles = (k_total + {{ bk }}u - 1u) / {{ bk }}u;
    let k_begin = (slice * k_tiles / split_k) * {{ bk }}u;
    let k_end = min(((slice + 1u) * k_tiles / split_k) * {{ bk }}u, k_total);
    let m_tile = wg.y * bm;
    let n_tile = wg.x * bn;
    let sub_hw = pr.sub_h * pr.sub_w;
    let n_total = params.n * sub_hw;
    let ihw = params.ih * params.iw;

    // A staging: invocation → column k = local % {{ bk }} of rows local / {{ bk }} + {{ astep }} i.
    let a_k = local % {{ bk }}u;
    let a_row = local / {{ bk }}u;
    let a_rows = bm / {{ astep }}u;
    // B staging: invocation → column c = local % bn of rows local / bn + (256 / bn) i. The
    // column's pixel decode is the same for every K-tile, so it is done once here.
    let b_col = local % bn;
    let b_row = local / bn;
    let b_step = 256u / bn;
    let b_rows = {{ bk }}u / b_step;
    let p = n_tile + b_col;
    let p_valid = p < n_total;
    let image = p / sub_hw;
    let pixel = p - image * sub_hw;
    let oy = pixel / pr.sub_w;
    let ox = pixel - oy * pr.sub_w;
    let ih0 = i32(oy) * pr.in_mul_h + pr.in_off_h;
    let iw0 = i32(ox) * pr.in_mul_w + pr.in_off_w;
    let in_base = (image * spec_ic + pr.group * icg) * ihw;

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

    // The next K-tile's values are loaded into registers while the current one's math runs.
    var va: array<{{ io }}, {{ arr }}>;
    var vb: array<{{ io }}, {{ arr }}>;
    load_tiles{{ suffix }}(&va, &vb, k_begin, a_k, a_row, a_rows, b_row, b_step, b_rows, pr, m_tile, p_valid, ih0, iw0, in_base);
    for (var k0 = k_begin; k0 < k_end; k0 += {{ bk }}u) {
        for (var i = 0u; i < a_rows; i++) {
            tile_a{{ suffix }}[(a_row + {{ astep }}u * i) * {{ sa }}u + a_k] = {{ "f16" if io == "f32" else "" }}(va[i]);
        }
        for (var i = 0u; i < b_rows; i++) {
            tile_b{{ suffix }}[(b_row + b_step * i) * sb + b_col] = {{ "f16" if io == "f32" else "" }}(vb[i]);
        }
        workgroupBarrier();
        if (k0 + {{ bk }}u < k_end) {
            load_tiles{{ suffix }}(&va, &vb, k0 + {{ bk }}u, a_k, a_row, a_rows, b_row, b_step, b_rows, pr, m_tile, p_valid, ih0, iw0, in_base);
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

    let m_base = m_tile + warp_m;
    let p_base = n_tile + warp_n;
    emit(c00, warp, lane, m_base, p_base, pr, slice);
    emit(c01, warp, lane, m_base, p_base + 16u, pr, slice);
    emit(c10, warp, lane, m_base + 16u, p_base, pr, slice);
    emit(c11, warp, lane, m_base + 16u, p_base + 16u, pr, slice);
    emit(c20, warp, lane, m_base + 32u, p_base, pr, slice);
    emit(c21, warp, lane, m_base + 32u, p_base + 16u, pr, slice);
    emit(c30, warp, lane, m_base + 48u, p_base, pr, slice);
    emit(c31, warp, lane, m_base + 48u, p_base + 16u, pr, slice);
}
{%- endmacro %}
// Implicit-GEMM convolution on cooperative matrices (tensor cores): f16 multiplicands, f32
// accumulation, fp32 NCHW tensors in and out. An opt-in precision mode: inputs and weights are
// rounded to f16 (11 significant bits) as they are staged; products and sums stay f32.
//
// Per group: C[M = OC/groups, N = batch·OH·OW] = A[M, K] · B[K, N], K = IC/groups·KH·KW, with A
// the weight as PyTorch stores it ([OC, IC/groups, KH, KW] is row-major in K already) and B the
// implicit im2col of the input. A transposed convolution is decomposed by stride phase, as in
// conv2d_gemm.wgsl: outputs with (oh mod sH, ow mod sW) = (ry, rx) meet only the taps
// kh ≡ (ry + pH) mod sH (likewise kw), so each phase is a dense GEMM over those taps, with A
// gathered from the weight [IC, OC/groups, KH, KW].
// A workgroup of 8 subgroups of 32 invocations computes a
// (64·warps_m) × (256 / warps_m) tile of C; each subgroup a 64×32 block held in eight 16×16 f32
// accumulator matrices. Per K-tile every invocation converts its share of A and B to
// f16 into workgroup memory (row-major, rows padded by 8 halves so the fragment loads of
// neighbouring rows start in different banks); each subgroup then loads 4 A and 2 B fragments
// per 16 of K and issues 8 multiply-adds. The next K-tile's values are loaded into registers
// (from clamped indices, unconditionally, so they are all in flight at once) while the current
// one's math runs. The output goes through a per-subgroup 16×16 staging tile, where bias and
// activation are applied and ragged edges are masked.
// K-tiles are 32 deep (`conv2d_coop`) or 16 (`conv2d_coop_k16`, for grids of more than one
// wave: 22.3 KiB of workgroup memory instead of 34.5 and half the registers holding the next tile,
// so more workgroups share a multiprocessor). Each depth has its own copy of the body and its
// own tiles, with the depth, strides and register arrays' sizes as literals: one body with
// the depth an override or a function argument, and tiles sized for 32, was no faster at 16.
// Split-K: with split_k > 1 each workgroup takes one slice of the K-tiles and writes raw
// partial sums to output[slice · numel + i]; conv_splitk_reduce.wgsl adds them with bias and
// activation.
// workgroup_id: x = N tile, y = M tile, z = (group · phases + phase) · split_k + slice.
//
// Needs subgroups of exactly 32 invocations (checked by the host) and a device that reports
// 16×16×16 f16 × f16 + f32 cooperative matrices.

enable f16;
enable wgpu_cooperative_matrix;

{{ conv.params_struct() }}

@group(0) @binding(0) var<storage, read> input: array<{{ io }}>;
// The weight as given: [OC, IC/groups, KH, KW].
@group(0) @binding(1) var<storage, read> weight: array<{{ io }}>;
@group(0) @binding(2) var<storage, read> bias: array<{{ io }}>;
@group(0) @binding(3) var<storage, read_write> output: array<{{ out }}>;
@group(0) @binding(4) var<uniform> params: ConvParams;

// Subgroups along M: 1 (64×256 tiles) or 2 (128×128); the other 8 / warps_m along N.
override warps_m: u32 = 2;
// K-slices (1: no split).
override split_k: u32 = 1;
// Transposed convolution (weight [IC, OC/groups, KH, KW]), one stride phase per workgroup z.
override transposed: bool = false;
{{ conv.activation_overrides() }}
// The geometry specialised into the pipeline. Must equal the uniform's values.
{{ conv.spec_overrides(1, 0) }}
{{ conv.spec_channel_overrides() }}

// Row stride of the staged B tile, in halves, for the widest tile (256 columns): 8 more than
// the row (16 bytes, the fragment loads' alignment) so consecutive rows start in different
// banks. The A tile's is the K-tile depth + 8. Each depth has its own A and B tiles (below), so
// the 16-deep kernel declares only the workgroup memory it uses.
const SB_MAX: u32 = 264u;
// One 16×16 f32 staging tile per subgroup for the output.
var<workgroup> stage: array<f32, 2048>;

{{ conv.activate() }}

{{ conv.stride_phase_problem() }}

// Writes one 16×16 accumulator (rows m0.., columns p0.. of C) through the subgroup's staging
// tile: lane l writes column l % 16 of rows l / 16, l / 16 + 2, …, 16 consecutive outputs
// per row. Called the same number of times by every subgroup (the barriers are uniform).
fn emit(acc: coop_mat16x16<f32, C>, warp: u32, lane: u32, m0: u32, p0: u32, pr: Problem, slice: u32) {
    coopStoreT(acc, &stage[warp * 256u], 16u);
    workgroupBarrier();
    let ocg = spec_oc / spec_groups;
    let ohw = params.oh * params.ow;
    let sub_hw = pr.sub_h * pr.sub_w;
    let p = p0 + lane % 16u;
    if (p < params.n * sub_hw) {
        // Column p of the sub-problem: output (oy·step + ry, ox·step + rx) of its image.
        let image = p / sub_hw;
        let r = p - image * sub_hw;
        let oy = r / pr.sub_w;
        let ox = r - oy * pr.sub_w;
        let pixel = (oy * pr.out_step_h + pr.ry) * params.ow + ox * pr.out_step_w + pr.rx;
        for (var i = 0u; i < 8u; i++) {
            let r = lane / 16u + 2u * i;
            let m = m0 + r;
            if (m < ocg) {
                let oc = pr.group * ocg + m;
                let v = stage[warp * 256u + r * 16u + lane % 16u];
                let at = (image * spec_oc + oc) * ohw + pixel;
                if (split_k > 1u) {
                    output[slice * params.n * spec_oc * ohw + at] = {{ to_out }}(v);
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

{# (K-tile depth, entry-point suffix) #}
{% for bk, suffix in [(32, ""), (16, "_k16")] %}

{{ body(bk, suffix) }}
{% endfor %}
