{% import "prelude/q8.wgsl" as q8 %}
// int8 pointwise convolution as a GEMM over dot4I8Packed (WGSL packed_4x8_integer_dot_product).
//
// C[oc, p] = Σ_ic W[oc, ic] · (X[ic, p] − zp_in) with p = (n·H + h)·W + w over the whole batch, so
// the last tile of one image does not leave most of its columns idle. The zero point is
// folded out: Σ W·X − zp_in · Σ W, with Σ W taken with the same packed dot against 0x01010101.
// A tile of 64 output channels × 4·tile_words pixels per workgroup (64 × 64 by default), 4×4 per
// thread in 16 i32 registers, K-tiles of 64 channels whose global loads are issued a tile ahead,
// into registers, so they overlap the math.
// X rows hold four consecutive p per word; each loader thread transposes a 4×4 byte block so a
// word of the B tile holds four consecutive channels of one p, as dot4I8Packed needs.
// Requires IC % 4 == 0 and H·W % 4 == 0 (rows start on word boundaries); others use the scalar kernel.

{{ q8.params_and_bindings() }}

// Fused activation on the real-valued result before requantisation: 0 none, 1 relu.
override activation: u32 = 0;
// The tile's width in words of four pixels, 16 (256 threads) or 8 (128 threads): the narrow
// tile doubles the workgroups of grids too small to fill the GPU. No other value works: the
// loaders cover the 256 weight slots and 16 channel-quads only at these two widths.
override tile_words: u32 = 16;

// Tiles in words: a_tile[q][oc] and b_tile[q][p] for 16 channel-quads q, as vec4s over oc / p.
var<workgroup> a_tile: array<vec4<u32>, 256>;
var<workgroup> b_tile: array<vec4<u32>, 256>;
// Per-loader partial weight sums, reduced per output channel in the epilogue.
var<workgroup> sums: array<i32, 256>;

// Byte c of each of the four words, gathered into one word: a 4×4 byte transpose.
fn gather_byte(r0: u32, r1: u32, r2: u32, r3: u32, c: u32) -> u32 {
    let s = c * 8u;
    return ((r0 >> s) & 0xffu) | (((r1 >> s) & 0xffu) << 8u) | (((r2 >> s) & 0xffu) << 16u) | (((r3 >> s) & 0xffu) << 24u);
}

// Weight words q .. q + 3 of output channel `oc` (zero past the row or for a spare channel).
fn load_a(oc_ok: bool, row: u32, q: u32, ic_words: u32) -> vec4<u32> {
    let ok = vec4<bool>(oc_ok && q < ic_words, oc_ok && q + 1u < ic_words, oc_ok && q + 2u < ic_words,
                        oc_ok && q + 3u < ic_words);
    return vec4<u32>(
        select(0u, weight[select(0u, row + q, ok.x)], ok.x),
        select(0u, weight[select(0u, row + q + 1u, ok.y)], ok.y),
        select(0u, weight[select(0u, row + q + 2u, ok.z)], ok.z),
        select(0u, weight[select(0u, row + q + 3u, ok.w)], ok.w));
}

// Stores the four weight words `a` that A-loader `slot` read (output channel slot / 4, channel-
// quads (slot % 4) · 4 .. + 4 of the K-tile): a_tile[q][oc] as vec4 over oc, word (q, oc) at
// vec4 q·16 + oc / 4, lane oc % 4.
fn store_a(slot: u32, a: vec4<u32>) {
    let oc = slot / 4u;
    let q0 = (slot % 4u) * 4u;
    a_tile[(q0 + 0u) * 16u + oc / 4u][oc % 4u] = a.x;
    a_tile[(q0 + 1u) * 16u + oc / 4u][oc % 4u] = a.y;
    a_tile[(q0 + 2u) * 16u + oc / 4u][oc % 4u] = a.z;
    a_tile[(q0 + 3u) * 16u + oc / 4u][oc % 4u] = a.w;
}

// The four weight sums of `a`'s channels (dot products with 1, 1, 1, 1).
fn weight_sum(a: vec4<u32>) -> i32 {
    return dot4I8Packed(a.x, 0x01010101u) + dot4I8Packed(a.y, 0x01010101u) + dot4I8Packed(a.z, 0x01010101u)
        + dot4I8Packed(a.w, 0x01010101u);
}

// Input rows (channels 4q .. 4q + 3) at one word of p, zero past the channels or the columns.
fn load_b(p_ok: bool, at: u32, q: u32, ic_words: u32, hw_words: u32) -> vec4<u32> {
    if (!p_ok || q >= ic_words) {
        return vec4<u32>(0u);
    }
    let first = at + (q * 4u) * hw_words;
    return vec4<u32>(input[first], input[first + hw_words], input[first + 2u * hw_words], input[first + 3u * hw_words]);
}

{{ q8.requantize() }}

@compute @workgroup_size(tile_words * 16u)
fn q8ta_conv2d_pw_gemm(
    @builtin(local_invocation_index) lid: u32,
    @builtin(workgroup_id) wid: vec3<u32>,
    @builtin(num_workgroups) groups: vec3<u32>,
) {
    let hw = params.h * params.w;
    let hw_words = hw / 4u;
    let words = params.n * hw_words;
    let ic_words = params.ic / 4u;
    let threads = tile_words * 16u;
    // Column tiles of 4·tile_words p run along x, continued along z when there are more than
    // 65535. Counted in words, which cannot wrap u32 even on the spare tiles past the end.
    let word_base = (wid.z * groups.x + wid.x) * tile_words;
    let oc_base = wid.y * 64u;

    // A loaders: 256 slots, slot s for output channel oc_base + s / 4 and channel-quads
    // (s % 4) · 4 .. + 4 of the K-tile; a thread takes slot lid, and lid + 128 in the narrow tile.
    let two_slots = threads < 256u;
    let a_slot1 = lid + 128u;
    let a_oc = oc_base + lid / 4u;
    let a_oc1 = oc_base + a_slot1 / 4u;
    let a_q0 = (lid % 4u) * 4u;
    let a_ok = a_oc < params.oc;
    let a_ok1 = two_slots && a_oc1 < params.oc;
    var wsum_part = 0i;
    var wsum_part1 = 0i;
    // B loader: channel-quad lid / tile_words, the word (four p) word_base + lid % tile_words (one
    // image: H·W % 4 == 0).
    let b_q = lid / tile_words;
    let b_pw = lid % tile_words;
    let b_word = word_base + b_pw;
    let b_ok = b_word < words;
    let b_image = select(0u, b_word / hw_words, b_ok);
    let b_at = b_image * params.ic * hw_words + b_word % hw_words;

    let tm = lid / tile_words;
    let tn = lid % tile_words;

{% for i in range(4) %}
{% for j in range(4) %}
    var acc{{ i }}{{ j }} = 0i;
{% endfor %}
{% endfor %}

    let k_tiles = (ic_words + 15u) / 16u;
    // Each K-tile's global loads are issued before the previous tile's math (software
    // pipelining through registers), so their latency hides behind it.
    // A: four words of one weight row; B: four input rows at one word of p (transposed below).
    let a_row = a_oc * ic_words;
    let a_row1 = a_oc1 * ic_words;
    var a = load_a(a_ok, a_row, a_q0, ic_words);
    var a1 = load_a(a_ok1, a_row1, a_q0, ic_words);
    var r = load_b(b_ok, b_at, b_q, ic_words, hw_words);
    for (var kt = 0u; kt < k_tiles; kt++) {
        wsum_part += weight_sum(a);
        wsum_part1 += weight_sum(a1);
        workgroupBarrier();
        store_a(lid, a);
        if (two_slots) {
            store_a(a_slot1, a1);
        }
        b_tile[b_q * 16u + b_pw] = vec4<u32>(gather_byte(r.x, r.y, r.z, r.w, 0u), gather_byte(r.x, r.y, r.z, r.w, 1u),
                                             gather_byte(r.x, r.y, r.z, r.w, 2u), gather_byte(r.x, r.y, r.z, r.w, 3u));
        workgroupBarrier();
        if (kt + 1u < k_tiles) {
            let q0 = (kt + 1u) * 16u;
            a = load_a(a_ok, a_row, q0 + a_q0, ic_words);
            a1 = load_a(a_ok1, a_row1, q0 + a_q0, ic_words);
            r = load_b(b_ok, b_at, q0 + b_q, ic_words, hw_words);
        }
{# One K-tile's math, unrolled over its 16 channel-quads. #}
{% for q in range(16) %}
        {
            let a = a_tile[{{ q * 16 }}u + tm];
            let b = b_tile[{{ q * 16 }}u + tn];
{% for i in range(4) %}
{% for j in range(4) %}
            acc{{ i }}{{ j }} += dot4I8Packed(a.{{ "xyzw"[i] }}, b.{{ "xyzw"[j] }});
{% endfor %}
{% endfor %}
        }
{% endfor %}
    }

    // Row sums of the weight: four partials per output channel.
    sums[lid] = wsum_part;
    if (two_slots) {
        sums[a_slot1] = wsum_part1;
    }
    workgroupBarrier();
    let word_out = word_base + tn;
    if (word_out >= words) {
        return;
    }
    let image = word_out / hw_words;
    let word_in_image = word_out % hw_words;
{# The epilogue: four requantised outputs packed per word, one block per row of the thread's 4×4. #}
    // The exact sums Σ w·(x − zp) = Σ w·x − zp·Σ w, requantised four to a word.
{% for i in range(4) %}
    {
        let m = tm * 4u + {{ i }}u;
        let oc = oc_base + m;
        if (oc < params.oc) {
            let wsum = sums[m * 4u] + sums[m * 4u + 1u] + sums[m * 4u + 2u] + sums[m * 4u + 3u];
            let shift = params.input_zero_point * wsum;
            let word = requantize(acc{{ i }}0 - shift, oc) | (requantize(acc{{ i }}1 - shift, oc) << 8u)
                | (requantize(acc{{ i }}2 - shift, oc) << 16u) | (requantize(acc{{ i }}3 - shift, oc) << 24u);
            output[(image * params.oc + oc) * hw_words + word_in_image] = word;
        }
    }
{% endfor %}
}
