{% import "prelude/conv.wgsl" as conv %}
{# variants: f16 f16_partial #}
{#
  The implicit-GEMM convolution, fully unrolled: the register block lives in named vec4
  accumulators and the K-tile loop is unrolled, because private arrays indexed in loops end up in
  local memory on Vulkan drivers (see docs/PERFORMANCE.md).
#}
{# The tile widths the host may set (emitted below as GEMM_TILE_N_* for the host to read). #}
{% set tile_n_min = 32 %}
{% set tile_n_max = 128 %}
{% set tile_n_step = 8 %}
{#
  The tile width (output columns per workgroup) as WGSL: every entry point reads the `tile_n`
  override, so one compiled entry point serves every width; its 16 thread rows are fixed by the
  unrolled register block, its thread columns (tile_n / 8, each 8 columns wide) are not.
#}
{% set TN = "(tile_n / 8u)" %}{# thread columns #}
{% set LANES_B = "(tile_n / 4u)" %}{# vec4s per K-row of the B tile #}
{% set THREADS = "(tile_n * 2u)" %}{# 16 thread rows × tile_n / 8 thread columns #}
{% set XYZW = ["x", "y", "z", "w"] %}
{#
  The epilogue of a thread's block: element (row q·64 + 4·tm + i, column c·4·TN + j·TN + tn)
  goes through `store`, zero or accumulator `acc_{q}{i}_{c}`'s lane j. For each (c, j) the lanes
  of a warp store consecutive columns, which are consecutive addresses along OW.
#}
{% macro epilogue(quads_m, threads_m, zero) %}
{# Whole lines, without the last newline: the call's line ends the block. #}
{% filter trim("\n") %}
{% for c in range(2) %}
{% for j in range(4) %}
    let out_{{ c }}{{ j }} = column(pr, n_base + {{ c * 4 + j }}u * {{ TN }} + tn);
{% endfor %}
{% endfor %}
{% for q in range(quads_m) %}
{% for i in range(4) %}
    let m_{{ q }}{{ i }} = m_base + {{ q * 4 * threads_m }}u + tm * 4u + {{ i }}u;
    let oc_{{ q }}{{ i }} = pr.group * ocg + m_{{ q }}{{ i }};
    let ok_{{ q }}{{ i }} = m_{{ q }}{{ i }} < ocg;
{% for c in range(2) %}
{% for j in range(4) %}
    store(out_{{ c }}{{ j }}, oc_{{ q }}{{ i }}, ok_{{ q }}{{ i }}, {{ "0.0" if zero else "acc_%d%d_%d.%s" | format(q, i, c, XYZW[j]) }}, slice);
{% endfor %}
{% endfor %}
{% endfor %}
{% endfor %}
{% endfilter %}
{% endmacro %}
{#
  Index decodes for K-tile `kt` (bk deep), one per K-row a thread loads: `rows` are (prefix, row
  within the K-tile) pairs. An A row shares B's slot s decode when the pipeline constant
  `a_shared` says the rows coincide. `decl` declares the variables (the first K-tile), else
  assigns them.

  Each K-row stands for an input channel ic and a filter tap t. Channel-major order (K-index
  ic·taps + t) serves every shape. Where ICg is a multiple of bk and every stride phase has more
  than one tap, or in the 16-deep tiles any filter (`tap_major`), K-tile kt is instead channels
  (kt / taps)·bk to + bk − 1 at tap kt % taps: the tap, its filter row and column, and every
  column's input position and padding check are then the same for all of a thread's K-rows, so
  the compiler computes them once per K-tile rather than once per load; and the taps of a block
  of channels stay consecutive K-tiles, so the input they share is still in cache. Either order
  sums the same products.
#}
{% macro decode(pad, kt, bk, decl, rows, slots_b, a_shared) %}
{# Whole lines, without the last newline: the call's line ends the block. #}
{% filter trim("\n") %}
{% set k0 = "%s * %du" | format(kt, bk) %}
{% for prefix, row in rows %}
{% set s = prefix[1:-1] | int %}
{% set k = k0 ~ " + " ~ row %}
{% set r = row %}
{% if prefix[0] == "a" and s < slots_b %}
{% set k = "select(" ~ k ~ ", b" ~ s ~ "_k, " ~ a_shared ~ ")" %}
{% set r = "select(" ~ row ~ ", " ~ ("kl + %du" | format(8 * s) if s else "kl") ~ ", " ~ a_shared ~ ")" %}
{% endif %}
{{ pad }}{{ decl }}{{ prefix }}k = {{ k }};
{{ pad }}{{ decl }}{{ prefix }}k_ok = select({{ prefix }}k, {{ k0 }}, tap_major) < k_total;
{{ pad }}{{ decl }}{{ prefix }}ic = select({{ prefix }}k / max(taps, 1u), {{ kt }} / max(taps, 1u) * {{ bk }}u + {{ r }}, tap_major);
{{ pad }}{{ decl }}{{ prefix }}t = select({{ prefix }}k % max(taps, 1u), {{ kt }} % max(taps, 1u), tap_major);
{{ pad }}{{ decl }}{{ prefix }}ty = {{ prefix }}t / max(pr.taps_x, 1u);
{{ pad }}{{ decl }}{{ prefix }}tx = {{ prefix }}t % max(pr.taps_x, 1u);
{% endfor %}
{{ pad }}{{ decl }}bx_ic = {{ kt }} / max(taps, 1u) * {{ bk }}u + c_group * {{ bk // 2 }}u;
{% endfilter %}
{% endmacro %}
{# Global → registers: the K-tile's A and B values that this thread stages. #}
{% macro loads(pad, decl, slots_a, slots_b) %}
{# Whole lines, without the last newline: the call's line ends the block. #}
{% filter trim("\n") %}
{% for s in range(slots_a) %}
{% set p = "a%d_" | format(s) %}
{{ pad }}{{ decl }}next_a{{ s }} = load_a4(pr, am{{ s }}, {{ p }}ic, {{ p }}ty, {{ p }}tx, {{ p }}k_ok && a_ok{{ s }});
{% endfor %}
{% if decl %}
{% for s in range(slots_b) %}
{{ pad }}var next_b{{ s }}: vec4<f32>;
{% endfor %}
{% endif %}
{# Under `tap_major` every row of the K-tile has slot 0's tap, and all are in K or none. #}
{{ pad }}if (tap_major) {
{% for s in range(slots_b) %}
{{ pad }}    next_b{{ s }} = vec4<f32>(
{% for jj in range(4) %}
{{ pad }}        load_b(pr, colx, bx_ic + {{ 4 * s + jj }}u, b0_ty, b0_tx, b0_k_ok, true){{ "," if jj < 3 else ");" }}
{% endfor %}
{% endfor %}
{{ pad }}} else {
{% for s in range(slots_b) %}
{% set args = "b%d_ic, b%d_ty, b%d_tx, b%d_k_ok, false" | format(s, s, s, s) %}
{{ pad }}    next_b{{ s }} = vec4<f32>(
{{ pad }}        load_b(pr, col0, {{ args }}), load_b(pr, col1, {{ args }}),
{{ pad }}        load_b(pr, col2, {{ args }}), load_b(pr, col3, {{ args }}));
{% endfor %}
{{ pad }}}
{% endfilter %}
{% endmacro %}
{# Registers → workgroup memory: this thread's share of the A and B tiles. #}
{% macro stage(pad, at, bt, slots_a, slots_b) %}
{# Whole lines, without the last newline: the call's line ends the block. #}
{% filter trim("\n") %}
{% for s in range(slots_a) %}
{{ pad }}if (a_ok{{ s }}) { {{ at }}[a_at{{ s }}] = next_a{{ s }}; }
{% endfor %}
{{ pad }}if (tap_major) {
{% for s in range(slots_b) %}
{% for jj in range(4) %}
{{ pad }}    {{ bt }}[(c_group * {{ 4 * slots_b }}u + {{ 4 * s + jj }}u) * {{ LANES_B }} + bx_vec][bx_comp] = next_b{{ s }}.{{ XYZW[jj] }};
{% endfor %}
{% endfor %}
{{ pad }}} else {
{% for s in range(slots_b) %}
{% set row = "(kl + %du)" | format(8 * s) if s else "kl" %}
{% for jj in range(4) %}
{{ pad }}    {{ bt }}[{{ row }} * {{ LANES_B }} + b_vec{{ jj }}][b_comp{{ jj }}] = next_b{{ s }}.{{ XYZW[jj] }};
{% endfor %}
{% endfor %}
{{ pad }}}
{% endfilter %}
{% endmacro %}
{# One K-tile's multiply-adds from the staged tiles: all A reads, then all B reads, then the FMAs
   (the order the v2 measurements used), for each of the bk K-rows. #}
{% macro k_tile_math(pad, quads_m, quads_n, threads_m, lanes_a, at, bt, bk) %}
{# Whole lines, without the last newline: the call's line ends the block. #}
{% filter trim("\n") %}
{% for kk in range(bk) %}
{{ pad }}{
{% for q in range(quads_m) %}
{{ pad }}    let a{{ q }} = {{ at }}[{{ kk * lanes_a + q * threads_m }}u + tm];
{% endfor %}
{% for c in range(quads_n) %}
{{ pad }}    let b{{ c }} = {{ bt }}[{{ kk }}u * {{ LANES_B }} + {{ c }}u * {{ TN }} + tn];
{% endfor %}
{% for q in range(quads_m) %}
{% for i in range(4) %}
{% for c in range(quads_n) %}
{{ pad }}    acc_{{ q }}{{ i }}_{{ c }} = fma(vec4<f32>(a{{ q }}.{{ XYZW[i] }}), b{{ c }}, acc_{{ q }}{{ i }}_{{ c }});
{% endfor %}
{% endfor %}
{% endfor %}
{{ pad }}}
{% endfor %}
{% endfilter %}
{% endmacro %}
{# The K loop with the next K-tile's global loads issued before this K-tile's math. #}
{% macro tiles_ahead(pad, quads_m, quads_n, threads_m, lanes_a, at, bt, bk, rows, slots_a, slots_b, a_shared) %}
{# Whole lines, without the last newline: the call's line ends the block. #}
{% filter trim("\n") %}
{{ pad }}// Global → registers for the first K-tile.
{{ decode(pad, "kt_begin", bk, "var ", rows, slots_b, a_shared) }}
{{ loads(pad, "var ", slots_a, slots_b) }}
{{ pad }}for (var kt = kt_begin; kt < kt_end; kt = live_k_tile(kt + 1u, pr, live, skipping)) {
{{ stage(pad ~ "    ", at, bt, slots_a, slots_b) }}
{{ pad }}    workgroupBarrier();
{{ pad }}    let kt_next = live_k_tile(kt + 1u, pr, live, skipping);
{{ pad }}    if (kt_next < kt_end) {
{{ decode(pad ~ "        ", "kt_next", bk, "", rows, slots_b, a_shared) }}
{{ loads(pad ~ "        ", "", slots_a, slots_b) }}
{{ pad }}    }
{{ k_tile_math(pad ~ "    ", quads_m, quads_n, threads_m, lanes_a, at, bt, bk) }}
{{ pad }}    workgroupBarrier();
{{ pad }}}
{% endfilter %}
{% endmacro %}
{#
  One GEMM entry point `name`: tile_m×tile_n outputs per workgroup (tile_n from the override),
  K-tiles bk deep. Each of its 16 × tile_n/8 threads computes 4 rows per 64 of tile_m over 8
  columns, so a workgroup has tile_n·2 threads (256 at 128 wide, 128 at 64).

  Each thread stages bk/8 K-rows of four B columns (under `tap_major`, bk/2 K-rows of one column)
  and its share of the A tile per K-tile, from registers loaded one K-tile ahead (`tiles_ahead`):
  a deeper K-tile gives those loads more math to hide behind (what a workgroup alone on its SM,
  as in one-wave grids, lacks). The 16-deep entry points can instead load each K-tile in its own
  iteration (`loads_ahead` off). The A tile `at` and B tile `bt`
  are declared before the first entry point that uses them (`declare_a`, `declare_b`).
#}
{% macro entry(name, tile_m, bk, at, bt, declare_a, declare_b) %}
{% set quads_m = tile_m // 64 %}{# 4-row groups per thread #}
{% set quads_n = 2 %}{# 4-column groups per thread #}
{% set threads_m = 16 %}{# thread rows: row q·64 + 4·tm + i #}
{% set lanes_a = tile_m // 4 %}{# vec4s per K-row of the A tile #}
{% set rows_per_pass_b = 8 %}{# THREADS / LANES_B at every width #}
{% set slots_b = bk // 8 %}{# K-rows of B per thread #}
{% set total_a = bk * lanes_a %}{# A vec4s per K-tile, shared out over THREADS threads #}
{# The most A vec4s a thread loads: at the narrowest tile. #}
{% set slots_a = (total_a + 2 * tile_n_min - 1) // (2 * tile_n_min) %}
{#
  A's slot s covers rows kl + 8·s, as B's does, when both tiles are as wide (tile_n = 64·quads_m):
  one index decode then serves both (the pipeline constant folds `a_shared`).
#}
{% set a_shared = "(tile_n == %du)" | format(64 * quads_m) %}
{% set ns = namespace(b_rows=[], a_rows=[]) %}
{% for s in range(slots_b) %}
{% set ns.b_rows = ns.b_rows + [["b%d_" | format(s), "kl + %du" | format(rows_per_pass_b * s) if s else "kl"]] %}
{% endfor %}
{% for s in range(slots_a) %}
{% set ns.a_rows = ns.a_rows + [["a%d_" | format(s), "kl_a%d" | format(s)]] %}
{% endfor %}
{% set rows = ns.b_rows + ns.a_rows %}
{% if declare_a %}
// A tiles of {{ total_a }} vec4s (K-major: element [k][i] of a tile W wide is vec4 [k·W/4 + i/4]).
var<workgroup> {{ at }}: array<vec4<f32>, {{ total_a }}>;

{% endif %}
{% if declare_b %}
// B tiles {{ bk }} deep: {{ bk }} · tile_n / 4 vec4s (K-major, as A).
override {{ bt }}_len: u32 = {{ bk // 4 }}u * tile_n;
var<workgroup> {{ bt }}: array<vec4<f32>, {{ bt }}_len>;

{% endif %}
@compute @workgroup_size(tile_n * 2u)
fn {{ name }}(
    @builtin(local_invocation_index) lid: u32,
    @builtin(workgroup_id) wid: vec3<u32>,
    @builtin(num_workgroups) groups: vec3<u32>,
) {
    if (stream_k_workgroups == 0u) {
        // Tile (x, y) of sub-problem wid.z / split_k, K-slice wid.z % split_k. The grid is
        // N tiles × M tiles; with `m_tiles_fastest` the workgroups take them M tile fastest, so
        // those the GPU runs at once share their B columns (an input too large for the L2
        // cache is then read from memory once rather than once per M tile).
        let slice = wid.z % split_k;
        let pr = problem(wid.z / split_k);
        let k_tiles_all = k_tiles(pr, {{ bk }}u);
        let per_slice = (k_tiles_all + split_k - 1u) / split_k;
        let first = min(slice * per_slice, k_tiles_all);
        let linear = wid.y * groups.x + wid.x;
        let tile_x = select(wid.x, linear / groups.y, m_tiles_fastest);
        let tile_y = select(wid.y, linear % groups.y, m_tiles_fastest);
        {{ name }}_tile(lid, pr, tile_x, tile_y, first, min(first + per_slice, k_tiles_all), slice);
        return;
    }
    // Stream-K: every sub-problem has the same K-tiles (direct convolutions only).
    let k_tiles_all = k_tiles(problem(0u), {{ bk }}u);
    let tiles_xy = stream_tiles_x * stream_tiles_y;
    let total = tiles_xy * spec_groups * k_tiles_all;
    // Never 0 here, but a constant 0 divisor (stream-K off) would fail pipeline creation.
    let wgs = max(stream_k_workgroups, 1u);
    var it = wid.x * total / wgs;
    let end = (wid.x + 1u) * total / wgs;
    while (it < end) {
        let t = it / k_tiles_all;
        let first = it % k_tiles_all;
        let last = min(k_tiles_all, first + end - it);
        // The workgroup holding iteration i is ((i + 1)·W − 1) / T.
        let first_wg = ((t * k_tiles_all + 1u) * wgs - 1u) / total;
        let last_wg = ((t + 1u) * k_tiles_all * wgs - 1u) / total;
        let pr = problem(t / tiles_xy);
        let tx = t % stream_tiles_x;
        let ty = (t % tiles_xy) / stream_tiles_x;
        {{ name }}_tile(lid, pr, tx, ty, first, last, wid.x - first_wg);
        if (first == 0u) {
            for (var unused = last_wg - first_wg + 1u; unused < split_k; unused++) {
                {{ name }}_zero(lid, pr, tx, ty, unused);
            }
        }
        it += last - first;
    }
}

// Zeros for one tile's slice `slice` (stream-K slices no segment of the tile writes).
fn {{ name }}_zero(lid: u32, pr: Problem, tile_x: u32, tile_y: u32, slice: u32) {
    let ocg = spec_oc / spec_groups;
    let n_base = tile_x * tile_n;
    let m_base = tile_y * {{ tile_m }}u;
    let tm = lid / {{ TN }};
    let tn = lid % {{ TN }};
{{ epilogue(quads_m, threads_m, true) }}
}

// K-tiles [kt_first, kt_last) of output tile (tile_x, tile_y) of sub-problem `pr`, written to
// `slice` of the partial sums when split (split_k > 1), else finished into the output.
fn {{ name }}_tile(lid: u32, pr: Problem, tile_x: u32, tile_y: u32, kt_first: u32, kt_last: u32, slice: u32) {
    let icg = spec_ic / spec_groups;
    let ocg = spec_oc / spec_groups;
    let taps = pr.taps_y * pr.taps_x;
    let k_total = icg * taps;
    let n_base = tile_x * tile_n;
    let m_base = tile_y * {{ tile_m }}u;
    if (n_base >= params.n * pr.sub_h * pr.sub_w) {
        return;
    }

    // Loader roles: K-rows kl + 8·s of the K-tile (tile_n / 4 threads per row). B: columns
    // lane + tile_n / 4 · j, so each of the four loads is coalesced along OW; the column decode is
    // hoisted out of the K loop. A: vec4 i of the tile's {{ total_a }} goes to thread i % threads, slot
    // i / threads: four consecutive rows from m_base + 4·(i % {{ lanes_a }}) of K-row i / {{ lanes_a }} (coalesced).
    let kl = lid / {{ LANES_B }};
    let lane = lid % {{ LANES_B }};
    let col0 = column(pr, n_base + lane);
    let col1 = column(pr, n_base + lane + {{ LANES_B }});
    let col2 = column(pr, n_base + lane + 2u * {{ LANES_B }});
    let col3 = column(pr, n_base + lane + 3u * {{ LANES_B }});
    // With K-tiles within one tap (`tap_major`), a loader takes one column instead: column
    // c_lane, the K-tile's rows c_group·bk/2 to + bk/2 − 1 (one column's position and padding
    // test per K-tile, one B tile address).
    let c_lane = lid % tile_n;
    let c_group = lid / tile_n;
    let colx = column(pr, n_base + c_lane);
    let bx_vec = c_lane / (4u * {{ TN }}) * {{ TN }} + c_lane % {{ TN }};
    let bx_comp = c_lane % (4u * {{ TN }}) / {{ TN }};
{% for s in range(slots_a) %}
    let a_at{{ s }} = {{ s }}u * {{ THREADS }} + lid;
    let a_ok{{ s }} = ({{ s }}u * {{ THREADS }} < {{ total_a }}u) && (({{ s + 1 }}u * {{ THREADS }} <= {{ total_a }}u) || a_at{{ s }} < {{ total_a }}u);
    let kl_a{{ s }} = a_at{{ s }} / {{ lanes_a }}u;
    let am{{ s }} = m_base + a_at{{ s }} % {{ lanes_a }}u * 4u;
{% endfor %}

    // Compute roles: a {{ 4 * quads_m }}×8 block, rows q·64 + tm·4 + i, cols c·4·TN + j·TN + tn (TN = tile_n / 8).
    let tm = lid / {{ TN }};
    let tn = lid % {{ TN }};
{% for q in range(quads_m) %}
{% for i in range(4) %}
{% for c in range(quads_n) %}
    var acc_{{ q }}{{ i }}_{{ c }} = vec4<f32>(0.0);
{% endfor %}
{% endfor %}
{% endfor %}
{#
  Where the loader's columns go in the B tile: compute thread tn reads vec4 c·TN + tn, whose
  component j is column c·4·TN + j·TN + tn (so the epilogue's stores of one (c, j) are
  consecutive across lanes).
#}
    // B column n = lane + tile_n / 4 · j sits in vec4 (n / (4·TN))·TN + n % TN, component (n % (4·TN)) / TN.
{% for jj in range(4) %}
{% set n = "(lane + %du * %s)" | format(jj, LANES_B) if jj else "lane" %}
    let b_vec{{ jj }} = {{ n }} / (4u * {{ TN }}) * {{ TN }} + {{ n }} % {{ TN }};
    let b_comp{{ jj }} = {{ n }} % (4u * {{ TN }}) / {{ TN }};
{% endfor %}

    // K-tiles within one tap (see `decode`) where ICg allows it. A pointwise filter has one
    // tap (as has some phase of a transposed filter not a multiple of its stride, e.g. 2×2 or
    // 3×3 at stride 2): there the two orders coincide, and what differs is the B loaders' roles
    // (one column each under `tap_major`, four otherwise) and `load_b`'s address form. On
    // one-tap layers the one-column loaders measured 1.07–1.20× in the 16-deep entry points but
    // 0.81–1.05× in `gemm_m64_k32` (v48), where v47 had measured its tap-major code up to 1.18×
    // slower on SD 1.5's 1×1 layers: the 8- and 32-deep entry points keep the four-column
    // loaders there. Built from overrides, so it folds to a constant when the pipeline is
    // created and the other order's arithmetic disappears.
{% if bk == 16 %}
    let tap_major = icg % {{ bk }}u == 0u;
{% else %}
    let fewest_taps = select(spec_kh * spec_kw, (spec_kh / spec_stride_h) * (spec_kw / spec_stride_w), transposed);
    let tap_major = icg % {{ bk }}u == 0u && fewest_taps > 1u;
{% endif %}
    // With `skip_taps`, the K-tiles of taps that read only padding for every column of the tile
    // (`live_taps`) are skipped: each K-tile is one tap under `tap_major`, and a skipped K-tile
    // would only have added products of zeros.
    let skipping = skip_taps && tap_major && !transposed;
    var live = vec4<u32>(0u, pr.taps_y, 0u, pr.taps_x);
    if (skipping) {
        live = live_taps(pr, n_base, min(n_base + tile_n, params.n * pr.sub_h * pr.sub_w) - 1u);
    }
    let kt_end = kt_last;
    // No live tap at all: the tile is its bias alone.
    let kt_begin = select(live_k_tile(kt_first, pr, live, skipping), kt_end, live.x >= live.y || live.z >= live.w);

{% if bk == 16 %}
    // Where `loads_ahead` is off, each K-tile is loaded, staged and multiplied in its own
    // iteration: no loaded values live in registers across the math, and the other workgroups
    // on the multiprocessor cover the loads' latency.
    if (!loads_ahead) {
        for (var kt = kt_begin; kt < kt_end; kt = live_k_tile(kt + 1u, pr, live, skipping)) {
{{ decode("            ", "kt", bk, "let ", rows, slots_b, a_shared) }}
{{ loads("            ", "let ", slots_a, slots_b) }}
{{ stage("            ", at, bt, slots_a, slots_b) }}
            workgroupBarrier();
{{ k_tile_math("            ", quads_m, quads_n, threads_m, lanes_a, at, bt, bk) }}
            workgroupBarrier();
        }
    } else {
{{ tiles_ahead("        ", quads_m, quads_n, threads_m, lanes_a, at, bt, bk, rows, slots_a, slots_b, a_shared) }}
    }
{% else %}
{{ tiles_ahead("    ", quads_m, quads_n, threads_m, lanes_a, at, bt, bk, rows, slots_a, slots_b, a_shared) }}
{% endif %}

    // Epilogue: bias, activation, scattered back to NCHW.
{{ epilogue(quads_m, threads_m, false) }}
}
{%- endmacro %}
// Implicit-GEMM convolution (fp32, NCHW).
//
// Per group: C[M = OC/groups, N = batch·OH·OW] = A[M, K] · B[K, N], K = IC/groups·KH·KW.
// A is the weight (row-major in K already), B the implicit im2col of the input. A workgroup
// computes a 128×tile_n tile of C, each of its 16 × tile_n/8 threads an 8×8 block held in 16
// vec4 registers (`conv2d_gemm`), or a 64×tile_n tile with 4×8 per thread (`conv2d_gemm_m64`);
// `tile_n` ({{ tile_n_min }} to {{ tile_n_max }} output columns) is a pipeline override. The `_k16` and `_k32` entry points
// stage 16- or 32-deep K-tiles instead of 8.
// Tiles of A and B are staged K-major in workgroup memory so every inner-loop read
// is one vec4; the next tile's global loads are issued before the current tile's math (the
// 16-deep entry points only where `loads_ahead` says so, else each tile's at the top of its own
// iteration; the 8- and 32-deep ones always).
//
// Transposed convolution runs through the same kernel, decomposed by stride phase: outputs with
// (oh mod sH, ow mod sW) = (ry, rx) receive only the taps kh ≡ (ry + pH) mod sH (likewise kw), so
// each phase is a dense convolution over those taps with no wasted multiply-adds.
// workgroup_id: x = N tile, y = M tile, z = group · phases + phase.

{% if io == "f16" or out == "f16" %}
enable f16;

{% endif %}
{{ conv.params_struct() }}

@group(0) @binding(0) var<storage, read> input: array<{{ io }}>;
// The weight prepacked by conv_pack.wgsl: [groups, ICg, KH, KW, OCg4], four output channels per vec4.
@group(0) @binding(1) var<storage, read> weight: array<vec4<f32>>;
@group(0) @binding(2) var<storage, read> bias: array<{{ io }}>;
@group(0) @binding(3) var<storage, read_write> output: array<{{ out }}>;
@group(0) @binding(4) var<uniform> params: ConvParams;

{{ conv.activation_overrides() }}
// Transposed convolution (weight [IC, OC/groups, KH, KW]), one stride phase per workgroup z.
override transposed: bool = false;
// Split-K: the K loop is cut into this many slices (workgroup z = sub-problem · split_k + slice);
// each slice writes raw partial sums to output[slice · numel + i], and conv_splitk_reduce.wgsl
// adds them with bias and activation. 1 writes the final output directly.
override split_k: u32 = 1;
// The 16-deep entry points: whether the next K-tile's global loads are issued before this
// K-tile's math, held in registers across it (true), or each K-tile is loaded at the top of its
// own iteration (false). The host chooses per tile (`ConvKernel::fitted_k_tile_loads`, as
// measured per tile shape), or as forced or tuned (`KTileLoads`).
override loads_ahead: bool = true;
// The staged entry points' K-slice launches: whether their workgroups take the output tiles M
// tile fastest (true) or N tile fastest, the grid's own order (false). The host chooses per
// layer (`ConvGeometry::fitted_tile_order`, rule R55), or as forced (`TileOrder`).
override m_tiles_fastest: bool = false;
// Direct convolutions on tap-major K-tiles: whether a workgroup skips the K-tiles of the taps that
// read only padding for all its columns (`live_taps`). The host sets it where 30 % or more of
// the launch's (tile, tap) pairs do (`ConvGeometry::gemm_skips_taps`): large dilations or
// paddings against the image. Below that the skipping loop measured slower than the K-tiles it
// saves. Off, the loop's index steps fold to `kt + 1`.
override skip_taps: bool = false;
// The tile widths the host may give `tile_n`: multiples of GEMM_TILE_N_STEP from GEMM_TILE_N_MIN
// to GEMM_TILE_N_MAX (the A loaders below are unrolled for the narrowest).
const GEMM_TILE_N_MIN: u32 = {{ tile_n_min }}u;
const GEMM_TILE_N_MAX: u32 = {{ tile_n_max }}u;
const GEMM_TILE_N_STEP: u32 = {{ tile_n_step }}u;
// Output columns (of N·OH·OW) per workgroup tile: a multiple of {{ tile_n_step }} from {{ tile_n_min }} to {{ tile_n_max }}, chosen per
// shape by the host without another compiled kernel. The workgroup has tile_n · 2 threads (16
// rows of tile_n / 8). The default is the narrowest, so a host that forgot to set it would leave
// outputs unwritten (which the tests catch) rather than compute overlapping tiles.
override tile_n: u32 = GEMM_TILE_N_MIN;
// Stream-K (direct convolutions): 0 is off. Otherwise the grid is this many workgroups along x,
// and workgroup w takes the (tile, K-tile) iterations [w·T/W, (w+1)·T/W) of all T = tiles · K-tiles
// of the stream_tiles_x × stream_tiles_y × groups tile grid, so every workgroup gets the
// same work however many tiles there are. Segment j of a tile (the j-th workgroup to touch it)
// writes its partial sums to slice j (split_k is the most segments any tile has); the workgroup
// holding a tile's first K-tile zero-fills the slices its tile does not use, and
// conv_splitk_reduce.wgsl adds the slices. The host keeps T · W below 2^32.
override stream_k_workgroups: u32 = 0;
override stream_tiles_x: u32 = 1;
override stream_tiles_y: u32 = 1;
// The weight's geometry, specialised into the pipeline so index arithmetic folds to constants
// (divisions by KH·KW and KW become multiply-shifts). Must equal the uniform's values.
{{ conv.spec_overrides(1, 0) }}
{{ conv.spec_channel_overrides() }}

{{ conv.activate() }}

{{ conv.stride_phase_problem() }}

// Where one column n of the sub-problem reads its image and writes its output.
struct Column {
    valid: bool,
    // Offset of (batch, first channel of the group) in the input.
    in_base: u32,
    iy0: i32,
    ix0: i32,
    // Offset of (batch, channel 0, oh, ow) in the output.
    out_base: u32,
}

fn column(pr: Problem, n: u32) -> Column {
    var c: Column;
    let sub_hw = pr.sub_h * pr.sub_w;
    c.valid = n < params.n * sub_hw;
    let nn = select(0u, n, c.valid);
    let b = nn / sub_hw;
    let r = nn % sub_hw;
    let oy = r / pr.sub_w;
    let ox = r % pr.sub_w;
    let icg = spec_ic / spec_groups;
    c.in_base = (b * spec_ic + pr.group * icg) * params.ih * params.iw;
    c.iy0 = i32(oy) * pr.in_mul_h + pr.in_off_h;
    c.ix0 = i32(ox) * pr.in_mul_w + pr.in_off_w;
    let oh = oy * pr.out_step_h + pr.ry;
    let ow = ox * pr.out_step_w + pr.rx;
    c.out_base = b * spec_oc * params.oh * params.ow + oh * params.ow + ow;
    return c;
}

// K-tiles of depth bk in the GEMM of sub-problem `pr`.
fn k_tiles(pr: Problem, bk: u32) -> u32 {
    return (spec_ic / spec_groups * pr.taps_y * pr.taps_x + bk - 1u) / bk;
}

// Taps j in [x, y) of `count` meet [0, size) from input positions first + j·step to
// last + j·step (first ≤ last, step > 0): those with last + j·step ≥ 0 and first + j·step < size.
// Empty as x == y.
fn live_range(first: i32, last: i32, step: i32, count: u32, size: u32) -> vec2<u32> {
    let lo = u32(select(0, (step - 1 - last) / step, last < 0));
    let hi = min(u32(select(0, (i32(size) - first + step - 1) / step, first < i32(size))), count);
    return vec2<u32>(min(lo, hi), hi);
}

// The filter taps that can read the image for some output column in [n0, n1] of direct
// sub-problem `pr`, as a rectangle: filter rows [x, y) and filter columns [z, w); every other tap
// reads only padding for all of them. Where the columns span two images, all taps. The filter
// rows are those that meet an input row from one of the columns' output rows; the filter columns
// those that meet an input column from one of their output columns (every column of a row where
// they span more than one row).
fn live_taps(pr: Problem, n0: u32, n1: u32) -> vec4<u32> {
    let sub_hw = pr.sub_h * pr.sub_w;
    if (n0 / sub_hw != n1 / sub_hw) {
        return vec4<u32>(0u, pr.taps_y, 0u, pr.taps_x);
    }
    let oy0 = n0 % sub_hw / pr.sub_w;
    let oy1 = n1 % sub_hw / pr.sub_w;
    let one_row = oy0 == oy1;
    let ox0 = select(0u, n0 % pr.sub_w, one_row);
    let ox1 = select(pr.sub_w - 1u, n1 % pr.sub_w, one_row);
    let rows = live_range(
        i32(oy0) * pr.in_mul_h + pr.in_off_h, i32(oy1) * pr.in_mul_h + pr.in_off_h, pr.in_step_h, pr.taps_y, params.ih);
    let cols = live_range(
        i32(ox0) * pr.in_mul_w + pr.in_off_w, i32(ox1) * pr.in_mul_w + pr.in_off_w, pr.in_step_w, pr.taps_x, params.iw);
    return vec4<u32>(rows, cols);
}

// The first tap-major K-tile from `kt` on whose tap (t = kt % taps: filter row t / taps_x, column
// t % taps_x) lies in the rectangle `live` (`live_taps`, not empty), where `skipping`; else `kt`.
fn live_k_tile(kt: u32, pr: Problem, live: vec4<u32>, skipping: bool) -> u32 {
    if (!skipping) {
        return kt;
    }
    let taps = pr.taps_y * pr.taps_x;
    let t = kt % taps;
    let block = kt - t;
    let ty = t / pr.taps_x;
    let tx = t % pr.taps_x;
    let first = live.x * pr.taps_x + live.z;
    if (ty < live.x) {
        return block + first;
    }
    if (ty < live.y) {
        if (tx < live.z) {
            return block + ty * pr.taps_x + live.z;
        }
        if (tx < live.w) {
            return kt;
        }
        if (ty + 1u < live.y) {
            return block + (ty + 1u) * pr.taps_x + live.z;
        }
    }
    return block + taps + first;
}

// Input (ic, tap (ty, tx)) of column `c`, 0 outside the image or where !k_ok. `tap_major` says
// the caller's K-rows share a tap (`decode`): the address is then written so that the loads of
// one column share all but the channel offset. Elsewhere the channel-major form measured faster
// (v47): up to 3 % on the small-grid tiles and on transposed filters of one tap per phase (which
// the 16-deep tiles give the tap-major form with their one-column loaders since v48: 1.06× v47 on
// a 2 × 2 s2 layer), and without padding 141 registers instead of 128 for the 128-row tiles, one
// workgroup per SM (0.75×).
fn load_b(pr: Problem, c: Column, ic: u32, ty: u32, tx: u32, k_ok: bool, tap_major: bool) -> f32 {
    let iy = c.iy0 + i32(ty) * pr.in_step_h;
    let ix = c.ix0 + i32(tx) * pr.in_step_w;
    // A direct convolution without padding never reads outside the image (the output size
    // guarantees it), so the pipeline constant folds the bounds checks away.
    if (!transposed && spec_pad_h == 0u && spec_pad_w == 0u) {
        let ok = k_ok && c.valid;
        let at = c.in_base + (ic * params.ih + u32(iy)) * params.iw + u32(ix);
        return select(0.0, {{ to_f32 }}(input[select(0u, at, ok)]), ok);
    }
    if (tap_major) {
        let inside = c.valid && iy >= 0 && iy < i32(params.ih) && ix >= 0 && ix < i32(params.iw) && k_ok;
        let at = c.in_base + (u32(max(iy, 0)) * params.iw + u32(max(ix, 0))) + ic * (params.ih * params.iw);
        return select(0.0, {{ to_f32 }}(input[select(0u, at, inside)]), inside);
    }
    let inside = k_ok && c.valid && iy >= 0 && iy < i32(params.ih) && ix >= 0 && ix < i32(params.iw);
    let at = c.in_base + (ic * params.ih + u32(max(iy, 0))) * params.iw + u32(max(ix, 0));
    return select(0.0, {{ to_f32 }}(input[select(0u, at, inside)]), inside);
}

// Four consecutive output channels (m a multiple of 4) of tap (ic, ty, tx) from the packed weight.
fn load_a4(pr: Problem, m: u32, ic: u32, ty: u32, tx: u32, k_ok: bool) -> vec4<f32> {
    let icg = spec_ic / spec_groups;
    let ocg4 = (spec_oc / spec_groups + 3u) / 4u;
    // Direct: the tap is the kernel position. Transposed: the phase's j-th tap is kh0 + j·sH.
    var kh = ty;
    var kw = tx;
    if (transposed) {
        kh = pr.kh0 + ty * spec_stride_h;
        kw = pr.kw0 + tx * spec_stride_w;
    }
    let ok = k_ok && m / 4u < ocg4;
    let at = (((pr.group * icg + ic) * spec_kh + kh) * spec_kw + kw) * ocg4 + m / 4u;
    return select(vec4<f32>(0.0), weight[select(0u, at, ok)], ok);
}

fn store(c: Column, oc: u32, m_ok: bool, v: f32, slice: u32) {
    if (c.valid && m_ok) {
        let at = c.out_base + oc * params.oh * params.ow;
        if (split_k > 1u) {
            output[slice * params.n * spec_oc * params.oh * params.ow + at] = {{ to_out }}(v);
            return;
        }
        var x = v;
        if (params.has_bias != 0u) {
            x = x + {{ to_f32 }}(bias[oc]);
        }
        output[at] = {{ to_out }}(activate(x));
    }
}

{#
  128 or 64 rows of output channels (64 for up to 64 per group, which would leave half of a
  128-row tile idle), K-tiles 8, 16 or 32 deep; the width is the `tile_n` override. Tiles are
  named by their size in vec4s: entry points with the same tile share the variables, and each
  declares only the workgroup memory it uses. B tiles are sized by the width (an override-sized
  array), so narrow tiles claim no more workgroup memory than they use: the driver's
  shared-memory carveout follows the declared size, and 64-column tiles in 128-column arrays
  measured 6–19 % slower on the H200.
#}
{% set tiles = namespace(a=[], b=[]) %}
{% for name, tile_m, bk in [
    ("conv2d_gemm", 128, 8),
    ("conv2d_gemm_m64", 64, 8),
    ("conv2d_gemm_k16", 128, 16),
    ("conv2d_gemm_m64_k16", 64, 16),
    ("conv2d_gemm_m64_k32", 64, 32),
] %}
{% set at = "a_tile%d" | format(bk * tile_m // 4) %}
{% set bt = "b_tile_k%d" | format(bk) %}
{{ entry(name, tile_m, bk, at, bt, at not in tiles.a, bt not in tiles.b) }}
{% set tiles.a = tiles.a + [at] %}
{% set tiles.b = tiles.b + [bt] %}

{% endfor %}
{#
  The end of both small-grid entry points: the 4 thread slices add their partial sums in
  workgroup memory, one column of 4 channels per thread (`slice`, `t`, `m`, `n0`, `acc0`–`acc3`
  and `k_slice` are the entry point's), then store or write partial sums.
#}
{% macro small_tail() %}
{# Whole lines, without the last newline: the call's line ends the block. #}
{% filter trim("\n") %}
{% for j in range(4) %}
    small_sums[slice * 256u + {{ 64 * j }}u + t] = acc{{ j }};
{% endfor %}
    workgroupBarrier();
    // This thread finishes column j = slice of thread t: its 4 channels summed over the 4 slices.
    let sum = small_sums[slice * 64u + t] + small_sums[256u + slice * 64u + t]
        + small_sums[512u + slice * 64u + t] + small_sums[768u + slice * 64u + t];
    let col = column(pr, n0 + 8u * slice);
{% for i in range(4) %}
    store(col, pr.group * ocg + m + {{ i }}u, m + {{ i }}u < ocg, sum.{{ XYZW[i] }}, k_slice);
{% endfor %}
{% endfilter %}
{% endmacro %}
// One K-step of the small-grid tiles: 4 output channels from `m` (one vec4 of the packed
// weight) and the input at 4 columns, for K-index `k` (zeros from `k_end` on).
struct SmallLoads {
    a: vec4<f32>,
    b: vec4<f32>,
}

fn small_loads(pr: Problem, k: u32, k_end: u32, m: u32, c0: Column, c1: Column, c2: Column, c3: Column) -> SmallLoads {
    let taps = pr.taps_y * pr.taps_x;
    let ok = k < k_end;
    let ic = k / max(taps, 1u);
    let tap = k % max(taps, 1u);
    let ty = tap / max(pr.taps_x, 1u);
    let tx = tap % max(pr.taps_x, 1u);
    var l: SmallLoads;
    l.a = load_a4(pr, m, ic, ty, tx, ok);
    l.b = vec4<f32>(load_b(pr, c0, ic, ty, tx, ok, false), load_b(pr, c1, ic, ty, tx, ok, false),
        load_b(pr, c2, ic, ty, tx, ok, false), load_b(pr, c3, ic, ty, tx, ok, false));
    return l;
}

{#
  The small-grid entry point: no staged tiles, no K-tile loop. Batch-1 layers of a few hundred
  output pixels give the staged kernels a handful of workgroups, each running all of K serially
  on one multiprocessor while the others idle. Here a workgroup covers only 32 output channels ×
  32 columns, and its 256 threads split K four ways.
#}
// `conv2d_gemm_small`: 32 output channels × 32 columns of one sub-problem per workgroup
// (workgroup_id: x = N tile, y = M tile, z = sub-problem · split_k + K-slice). Its 256 threads
// are 4 K-slices of 64, each taking a quarter of the workgroup's K-slice for 4 channels (one vec4
// of the packed weight) × 4 columns (one vec4 accumulator per column), read straight from global
// memory: at this size staging through workgroup memory would cost more barriers than it saves
// loads. The 4 slices then add their partial sums in workgroup memory, one column of 4 channels
// per thread; split across workgroups (split_k > 1), `store` writes raw partial sums for
// conv_splitk_reduce.wgsl. Thread t takes columns t / 8 + 8·j and channels 4·(t % 8): the 8
// lanes of a column share its input loads, and a warp's 32 lanes load and store 4 consecutive
// columns (16 bytes of each input and output plane it touches), not whole sectors; its weight
// loads are 8 consecutive vec4s.
var<workgroup> small_sums: array<vec4<f32>, 1024>;

@compute @workgroup_size(256)
fn conv2d_gemm_small(@builtin(local_invocation_index) lid: u32, @builtin(workgroup_id) wid: vec3<u32>) {
    let k_slice = wid.z % split_k;
    let pr = problem(wid.z / split_k);
    let taps = pr.taps_y * pr.taps_x;
    let k_total = spec_ic / spec_groups * taps;
    let ocg = spec_oc / spec_groups;
    let slice = lid / 64u;
    let t = lid % 64u;
    let m = wid.y * 32u + t % 8u * 4u;
    let n0 = wid.x * 32u + t / 8u;
{% for j in range(4) %}
    let col{{ j }} = column(pr, n0 + {{ 8 * j }}u);
{% endfor %}
    // This workgroup's K-slice, then this thread's quarter of it.
    let per_workgroup = (k_total + split_k - 1u) / split_k;
    let wg_begin = min(k_slice * per_workgroup, k_total);
    let wg_len = min(per_workgroup, k_total - wg_begin);
    let per_slice = (wg_len + 3u) / 4u;
    let k_begin = wg_begin + min(slice * per_slice, wg_len);
    let k_end = min(k_begin + per_slice, wg_begin + wg_len);
{% for j in range(4) %}
    var acc{{ j }} = vec4<f32>(0.0);
{% endfor %}
    // Four K-steps per iteration: all their loads are issued before their multiply-adds. (Eight
    // measured slower on short K, where the masked steps past the slice's end still load.)
    for (var k = k_begin; k < k_end; k += 4u) {
{% for u in range(4) %}
        let l{{ u }} = small_loads(pr, k + {{ u }}u, k_end, m, col0, col1, col2, col3);
{% endfor %}
{% for u in range(4) %}
{% for j in range(4) %}
        acc{{ j }} = fma(l{{ u }}.a, vec4<f32>(l{{ u }}.b.{{ XYZW[j] }}), acc{{ j }});
{% endfor %}
{% endfor %}
    }
{{ small_tail() }}
}

{#
  The staged small-grid entry point: gemm_small's tile, threads and reduction, with the operands
  staged through workgroup memory in 32-deep K-tiles. gemm_small's threads each load their own 4
  columns at every K-step, so each input element is loaded (and its gather decoded) by the 8
  threads that share its column; on long K and filters with taps those loads, not the
  multiply-adds, bound it. Here each element is loaded once per workgroup.
#}
// `conv2d_gemm_small_k32`: `conv2d_gemm_small`'s 32×32 tile, grid and K split over 4 thread
// slices, with the operands staged: per 32-deep K-tile, thread i loads K-row i / 8 of the A tile
// (output channels 4·(i % 8), one vec4 of the packed weight) and of the B tile (columns
// i % 8 + 8·j), so one index decode serves its five loads; thread slice s then multiplies K-rows
// 8·s to 8·s + 7 of the tile. The tiles are double-buffered in `small_sums` (one barrier per
// K-tile), which afterwards holds the slices' partial sums. Split across workgroups
// (split_k > 1), each workgroup takes a run of whole K-tiles.
@compute @workgroup_size(256)
fn conv2d_gemm_small_k32(@builtin(local_invocation_index) lid: u32, @builtin(workgroup_id) wid: vec3<u32>) {
    let k_slice = wid.z % split_k;
    let pr = problem(wid.z / split_k);
    let k_total = spec_ic / spec_groups * pr.taps_y * pr.taps_x;
    let ocg = spec_oc / spec_groups;
    // Compute role, as in `conv2d_gemm_small`: channels m to m + 3, columns n0 + 8·j.
    let slice = lid / 64u;
    let t = lid % 64u;
    let m = wid.y * 32u + t % 8u * 4u;
    let n0 = wid.x * 32u + t / 8u;
    // Loader role: K-row `row` of each K-tile, channels from a_m, columns wid.x·32 + lane + 8·j.
    let row = lid / 8u;
    let lane = lid % 8u;
    let a_m = wid.y * 32u + lane * 4u;
{% for j in range(4) %}
    let ld{{ j }} = column(pr, wid.x * 32u + lane + {{ 8 * j }}u);
{% endfor %}
    // This workgroup's K-slice in whole K-tiles.
    let k_tiles_all = (k_total + 31u) / 32u;
    let per_workgroup = (k_tiles_all + split_k - 1u) / split_k;
    let kt_begin = min(k_slice * per_workgroup, k_tiles_all);
    let kt_end = min(kt_begin + per_workgroup, k_tiles_all);
{% for j in range(4) %}
    var acc{{ j }} = vec4<f32>(0.0);
{% endfor %}
    // Global → registers a K-tile ahead of the multiply-adds.
    var next = small_loads(pr, kt_begin * 32u + row, k_total, a_m, ld0, ld1, ld2, ld3);
    for (var kt = kt_begin; kt < kt_end; kt++) {
        // A at [buf, buf + 256), B at [buf + 256, buf + 512): vec4 row · 8 + i of each.
        let buf = (kt - kt_begin) % 2u * 512u;
        small_sums[buf + lid] = next.a;
        small_sums[buf + 256u + lid] = next.b;
        // One barrier a K-tile: the next write to this buffer is two K-tiles on, after every
        // thread has passed the next barrier and so finished this tile's multiply-adds.
        workgroupBarrier();
        if (kt + 1u < kt_end) {
            next = small_loads(pr, (kt + 1u) * 32u + row, k_total, a_m, ld0, ld1, ld2, ld3);
        }
{% for kk in range(8) %}
        {
            let a = small_sums[buf + (slice * 8u + {{ kk }}u) * 8u + t % 8u];
            let b = small_sums[buf + 256u + (slice * 8u + {{ kk }}u) * 8u + t / 8u];
{% for j in range(4) %}
            acc{{ j }} = fma(a, vec4<f32>(b.{{ XYZW[j] }}), acc{{ j }});
{% endfor %}
        }
{% endfor %}
    }
    // The staged tiles' memory takes the partial sums: every thread is done reading them.
    workgroupBarrier();
{{ small_tail() }}
}
