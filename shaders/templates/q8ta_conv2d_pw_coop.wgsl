{% import "prelude/q8.wgsl" as q8 %}
{#
  The kernel for one tile shape (entry point `q8ta_conv2d_pw_coop` + `suffix`): wm × wn subgroups
  of 32 invocations, each holding a 32×32 block of C in four 16×16 accumulators, so a workgroup
  computes a (32·wm) × (32·wn) tile, with bk-deep K-tiles. Every size below is a literal. One shape
  is expanded: 128×128 tiles of 32-deep K-tiles, which beat the dot4 GEMM on the large grids R28
  gives it on the H200 (v28). 64×64 tiles, 32–128 deep, lost to it in the same device call
  everywhere (32 deep beat it by 1.04–1.11× on three batch-8 layers in an earlier call).
#}
{% macro body(wm, wn, bk, suffix) %}
{% set sa = bk + 8 %}
{% set threads = 32 * wm * wn %}
{% set bm = 32 * wm %}
{% set bn = 32 * wn %}
{% set bn4 = bn // 4 %}
{% set sb = bn + 8 %}
{% set bk4 = bk // 4 %}
{% set a_words = bk // (4 * wn) %}
{% set b_words = bk // (4 * wm) %}
{% set a_step = threads // bk4 %}
{% set b_step = threads // bn4 %}
{#- Issues K-tile `kt`'s loads into the registers. #}
{% macro load(kt) %}
        let q = ({{ kt }}) * {{ bk4 }}u + a_word;
{% for i in range(a_words) %}
        {
            let oc = oc_base + a_row + {{ i * a_step }}u;
            let ok = (oc < params.oc) & (q < ic_words);
            ra{{ i }} = select(0u, weight[select(0u, oc * ic_words + q, ok)], ok);
        }
{% endfor %}
{% for i in range(b_words) %}
        {
            let ic = ({{ kt }}) * {{ bk }}u + b_row + {{ i * b_step }}u;
            rb{{ i }} = input[select(0u, b_at + ic * hw_words, b_ok & (ic < params.ic))];
        }
{% endfor %}
{%- endmacro %}
// ---- {{ bm }}×{{ bn }} tiles, {{ wm }}×{{ wn }} subgroups, {{ bk }}-deep K-tiles ----

// A: {{ bm }} output channels × {{ bk }} input channels, rows padded to {{ sa }} halves; B: {{ bk }} input
// channels × {{ bn }} pixels, rows padded to {{ sb }} (16-byte aligned fragment rows that start in
// different banks). The last A fragment ends at index {{ bm - 1 }}·{{ sa }} + {{ bk - 1 }}, the last B one at
// {{ bk - 1 }}·{{ sb }} + {{ bn - 1 }}: inside by construction.
var<workgroup> q8_a{{ suffix }}: array<f16, {{ bm * sa }}>;
var<workgroup> q8_b{{ suffix }}: array<f16, {{ bk * sb }}>;
// One 16×16 f32 tile per subgroup, for turning accumulators into integers.
var<workgroup> q8_stage{{ suffix }}: array<f32, {{ wm * wn * 256 }}>;

// The exact integer sums of one accumulator: the subgroup stores it row-major, then lane l reads
// row l / 2, columns (l % 2)·8 .. + 8 (two output words). Every value is an integer below 2^24 in
// magnitude (see the header), so the f32 → i32 conversion is exact. Called the same number of times
// by every subgroup, so the barriers are uniform.
fn fold{{ suffix }}(acc: coop_mat16x16<f32, C>, warp: u32, lane: u32) -> Sums {
    coopStoreT(acc, &q8_stage{{ suffix }}[warp * 256u], 16u);
    workgroupBarrier();
    let at = warp * 256u + (lane / 2u) * 16u + (lane % 2u) * 8u;
    let lo = vec4<f32>(q8_stage{{ suffix }}[at], q8_stage{{ suffix }}[at + 1u], q8_stage{{ suffix }}[at + 2u], q8_stage{{ suffix }}[at + 3u]);
    let hi = vec4<f32>(q8_stage{{ suffix }}[at + 4u], q8_stage{{ suffix }}[at + 5u], q8_stage{{ suffix }}[at + 6u], q8_stage{{ suffix }}[at + 7u]);
    workgroupBarrier();
    return Sums(vec4<i32>(lo), vec4<i32>(hi));
}

@compute @workgroup_size({{ threads }})
fn q8ta_conv2d_pw_coop{{ suffix }}(
    @builtin(local_invocation_index) local: u32,
    @builtin(workgroup_id) wid: vec3<u32>,
    @builtin(num_workgroups) groups: vec3<u32>,
) {
    let hw_words = params.h * params.w / 4u;
    let words = params.n * hw_words;
    let ic_words = params.ic / 4u;
    let zero_point = vec4<i32>(params.input_zero_point);
    // Column tiles of {{ bn }} pixels ({{ bn4 }} words) along x, continued along z past 65535;
    // counted in words, which cannot wrap u32 even on the spare tiles past the end.
    let word_base = (wid.z * groups.x + wid.x) * {{ bn4 }}u;
    let oc_base = wid.y * {{ bm }}u;

    // A staging: word a_word (channels 4·a_word ..) of rows a_row + {{ a_step }}·i.
    let a_word = local % {{ bk4 }}u;
    let a_row = local / {{ bk4 }}u;
    // B staging: the word b_word (four pixels of one image: H·W % 4 == 0) of channel rows
    // b_row + {{ b_step }}·i. The pixel decode is the same for every K-tile, so it is done once.
    let b_word = local % {{ bn4 }}u;
    let b_row = local / {{ bn4 }}u;
    let b_column = word_base + b_word;
    let b_ok = b_column < words;
    let b_at = (b_column / hw_words) * params.ic * hw_words + b_column % hw_words;

    let warp = local / 32u;
    let lane = local % 32u;
    let warp_m = (warp / {{ wn }}u) * 32u;
    let warp_n = (warp % {{ wn }}u) * 32u;

    var c00 = coop_mat16x16<f32, C>();
    var c01 = coop_mat16x16<f32, C>();
    var c10 = coop_mat16x16<f32, C>();
    var c11 = coop_mat16x16<f32, C>();
    var s00 = Sums();
    var s01 = Sums();
    var s10 = Sums();
    var s11 = Sums();

    // The next K-tile's words wait in registers while the current one's math runs. A words past
    // the channels or the output channels are 0; B words are read from clamped indices and not
    // masked: past the channels they meet zero weights, past the pixels no output is written.
{% for i in range(a_words) %}
    var ra{{ i }} = 0u;
{% endfor %}
{% for i in range(b_words) %}
    var rb{{ i }} = 0u;
{% endfor %}
    let k_tiles = (params.ic + {{ bk - 1 }}u) / {{ bk }}u;
    {
{{ load("0u") }}
    }
    // One exact chunk per outer iteration. (Loops, not `if`s, decide how many times the
    // cooperative-matrix calls run: naga takes a branch on a local variable as non-uniform.)
    for (var chunk = 0u; chunk < k_tiles; chunk += {{ 512 // bk }}u) {
        let chunk_end = min(chunk + {{ 512 // bk }}u, k_tiles);
        for (var kt = chunk; kt < chunk_end; kt++) {
            // Stage K-tile kt: int8 → f16 (exact), the input shifted by its zero point.
{% for i in range(a_words) %}
            {
                let v = vec4<f16>(unpack4xI8(ra{{ i }}));
                let at = (a_row + {{ i * a_step }}u) * {{ sa }}u + a_word * 4u;
                q8_a{{ suffix }}[at] = v.x;
                q8_a{{ suffix }}[at + 1u] = v.y;
                q8_a{{ suffix }}[at + 2u] = v.z;
                q8_a{{ suffix }}[at + 3u] = v.w;
            }
{% endfor %}
{% for i in range(b_words) %}
            {
                let v = vec4<f16>(unpack4xI8(rb{{ i }}) - zero_point);
                let at = (b_row + {{ i * b_step }}u) * {{ sb }}u + b_word * 4u;
                q8_b{{ suffix }}[at] = v.x;
                q8_b{{ suffix }}[at + 1u] = v.y;
                q8_b{{ suffix }}[at + 2u] = v.z;
                q8_b{{ suffix }}[at + 3u] = v.w;
            }
{% endfor %}
            workgroupBarrier();
            if (kt + 1u < k_tiles) {
{{ load("kt + 1u") | indent(8, true) }}
            }
{% for kk in range(0, bk, 16) %}
            {
                let a0 = coopLoadT<coop_mat16x16<f16, A>>(&q8_a{{ suffix }}[warp_m * {{ sa }}u + {{ kk }}u], {{ sa }}u);
                let a1 = coopLoadT<coop_mat16x16<f16, A>>(&q8_a{{ suffix }}[(warp_m + 16u) * {{ sa }}u + {{ kk }}u], {{ sa }}u);
                let b0 = coopLoadT<coop_mat16x16<f16, B>>(&q8_b{{ suffix }}[{{ kk * sb }}u + warp_n], {{ sb }}u);
                let b1 = coopLoadT<coop_mat16x16<f16, B>>(&q8_b{{ suffix }}[{{ kk * sb }}u + warp_n + 16u], {{ sb }}u);
                c00 = coopMultiplyAdd(a0, b0, c00);
                c01 = coopMultiplyAdd(a0, b1, c01);
                c10 = coopMultiplyAdd(a1, b0, c10);
                c11 = coopMultiplyAdd(a1, b1, c11);
            }
{% endfor %}
            workgroupBarrier();
        }
        // End of a chunk: its sums into the integer registers, the accumulators back to zero.
        s00 = add_sums(s00, fold{{ suffix }}(c00, warp, lane));
        s01 = add_sums(s01, fold{{ suffix }}(c01, warp, lane));
        s10 = add_sums(s10, fold{{ suffix }}(c10, warp, lane));
        s11 = add_sums(s11, fold{{ suffix }}(c11, warp, lane));
        c00 = coop_mat16x16<f32, C>();
        c01 = coop_mat16x16<f32, C>();
        c10 = coop_mat16x16<f32, C>();
        c11 = coop_mat16x16<f32, C>();
    }

    // Lane l holds row l / 2 and words (l % 2)·2, + 1 of each block's 16 × 4 output words.
    let m = oc_base + warp_m + lane / 2u;
    let w = word_base + warp_n / 4u + (lane % 2u) * 2u;
    store_sums(s00, m, w, hw_words, words);
    store_sums(s01, m, w + 4u, hw_words, words);
    store_sums(s10, m + 16u, w, hw_words, words);
    store_sums(s11, m + 16u, w + 4u, hw_words, words);
}
{%- endmacro %}
// int8 pointwise convolution on f16 cooperative matrices (tensor cores), bit-identical to the
// integer kernels: C[oc, p] = Σ_ic W[oc, ic] · (X[ic, p] − zp_in), p over the whole batch.
//
// Why it is exact. The multiplicands are the int8 weight w ∈ [−128, 127] and the shifted input
// x − zp_in ∈ [−255, 255] (x and zp_in are int8): integers of at most 8 significant bits, exact
// in f16 (11). Each product has |w·(x − zp_in)| ≤ 128·255 = 32640 < 2^15, exact in f32. The
// accumulators sum at most 512 channels (a whole number of K-tiles) before they are converted to i32, so
// every partial sum the hardware can form from one chunk — in any order or grouping — is an
// integer of magnitude ≤ 512 · 32640 = 16,711,680 < 2^24, which f32 (24 significant bits)
// represents exactly: no addition in the chunk rounds. The chunks are added in i32; |C| ≤
// IC · 32640 < 2^31 for IC ≤ 65536 (the host's limit). The requantisation is the same f32
// arithmetic as the other int8 kernels' (one shared function), so the outputs are bit-identical
// to theirs (the tests compare every byte).
//
// Layout: tensors are NCHW int8, four values per u32 word. A workgroup of wm × wn subgroups
// (here 4 × 4: 128×128 tiles, bk = 32) computes a (32·wm) × (32·wn) tile of C; per K-tile of bk channels each invocation converts its
// words of A (weight rows) and B (input rows, four pixels per word) to f16 in workgroup memory,
// with the next K-tile's words loaded into registers during the math; each subgroup then issues
// 4 multiply-adds of 16×16×16 per 16 channels. Requires IC % 4 == 0 and H·W % 4 == 0 (rows start on word
// boundaries), subgroups of exactly 32 and 16×16×16 f16 × f16 + f32 cooperative matrices.
// workgroup_id: x (continued along z past 65535) = pixel tile, y = output-channel tile.

enable f16;
enable wgpu_cooperative_matrix;

{{ q8.params_and_bindings() }}

// Fused activation on the real-valued result before requantisation: 0 none, 1 relu.
override activation: u32 = 0;


// Eight consecutive sums of one output row: two output words.
struct Sums {
    lo: vec4<i32>,
    hi: vec4<i32>,
}

fn add_sums(a: Sums, b: Sums) -> Sums {
    return Sums(a.lo + b.lo, a.hi + b.hi);
}

{{ q8.requantize() }}

fn pack(s: vec4<i32>, oc: u32) -> u32 {
    return requantize(s.x, oc) | (requantize(s.y, oc) << 8u) | (requantize(s.z, oc) << 16u) | (requantize(s.w, oc) << 24u);
}

// Writes output words `word` and `word + 1` (pixels over the batch, four per word) of row `m`.
fn store_sums(s: Sums, m: u32, word: u32, hw_words: u32, words: u32) {
    if (m >= params.oc) {
        return;
    }
    if (word < words) {
        output[((word / hw_words) * params.oc + m) * hw_words + word % hw_words] = pack(s.lo, m);
    }
    if (word + 1u < words) {
        let next = word + 1u;
        output[((next / hw_words) * params.oc + m) * hw_words + next % hw_words] = pack(s.hi, m);
    }
}

{# (subgroups along M, along N, K-tile depth, entry-point suffix) #}
{% for wm, wn, bk, suffix in [(4, 4, 32, "")] %}

{{ body(wm, wn, bk, suffix) }}
{% endfor %}
