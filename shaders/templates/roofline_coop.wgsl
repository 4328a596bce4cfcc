{#
  `coop_mma` and `coop_gemm_direct` use the staged GEMM's arrangement at K-tiles of 32: 128×128
  tiles of C, 8 subgroups of 32 each holding a 64×32 block in eight 16×16 f32 accumulators.
#}
{% set bk = 32 %}
{% set sa = bk + 8 %}
{% set sb = 128 + 8 %}
// The cooperative-matrix ceilings of the device (f16 × f16 + f32, 16×16×16), for `wgconv bench
// --roofline`:
// - `coop_mma`: the multiply-add rate with both operands already in workgroup memory — each
//   subgroup loads 4 A and 2 B fragments per step from a staged tile and issues 8 independent
//   multiply-adds, as a GEMM's inner loop does, with no global memory traffic at all;
// - `coop_gemm_direct`: the same GEMM with every fragment loaded straight from global memory
//   (A and B rows reused through the caches only), no workgroup memory and no barriers;
// - `coop_gemm`, `coop_gemm_k64`, `coop_gemm_n256`, `coop_gemm_h4`: a plain GEMM C[M, N] (f32) =
//   A[M, K] · B[K, N] (f16, row-major, M a multiple of 128, N of the tile width, K of the K-tile
//   depth) with operands in the ideal layout in
//   global memory: 128 × (4·WN) tiles of C per workgroup of 8 subgroups (2 × 4, each a 64 × WN
//   block in 16×16 f32 accumulators), K-tiles BK deep staged through workgroup memory, the next
//   K-tile's 16-byte loads in flight while the current one's math runs. Variants:
//   `coop_gemm` (BK 32, WN 32), `coop_gemm_k64` (BK 64: half the barriers),
//   `coop_gemm_n256` (WN 64: 16 accumulators, 8 fragment loads per 16 multiply-adds). Both
//   changes at once need 51 KiB of workgroup memory, over the H200's 48. `coop_gemm_h4` holds
//   its tiles as vec4<f16> (two 8-byte stores per 8 halves staged instead of eight 2-byte ones:
//   the fragment loads' offsets and strides then count vec4s). Tiles held as vec4<u32> (one
//   16-byte store of packed halves) pass naga but lose the device on the NVIDIA driver (v53),
//   so there is none;
// - `coop_gemm_db*`: the same GEMM pipelined — two tile buffers in workgroup memory (one barrier
//   per K-tile) and two K-tiles of global loads in flight in two register sets, K a multiple of
//   two K-tiles: `coop_gemm_db` (BK 32), `coop_gemm_db_k16` (BK 16), `coop_gemm_db_n256` (BK 16,
//   WN 64).
// Needs subgroups of 32 and 16×16×16 f16 × f16 + f32 cooperative matrices (checked by the host).

enable f16;
enable wgpu_cooperative_matrix;

struct GemmParams {
    m: u32,
    n: u32,
    k: u32,
    // `coop_mma`'s steps: each is 8 multiply-adds per subgroup.
    steps: u32,
}

// A and B as packed halves, 8 per vec4<u32> (16-byte loads).
@group(0) @binding(0) var<storage, read> a: array<vec4<u32>>;
@group(0) @binding(1) var<storage, read> b: array<vec4<u32>>;
@group(0) @binding(2) var<storage, read_write> c: array<f32>;
@group(0) @binding(3) var<uniform> params: GemmParams;
// The same A and B as halves, for `coop_gemm_direct`'s fragment loads straight from memory.
@group(0) @binding(4) var<storage, read> a_h: array<f16>;
@group(0) @binding(5) var<storage, read> b_h: array<f16>;

// A tile: 128 rows × {{ bk }} halves, rows padded by 8 halves (16 bytes) so neighbouring rows'
// fragment loads start in different banks; B tile: {{ bk }} rows × 128 halves, padded likewise.
// Fragments stay inside: the last A fragment reads up to 127·{{ sa }} + {{ bk }} − 1 < 128·{{ sa }},
// the last B fragment up to ({{ bk }} − 1)·{{ sb }} + 127 < {{ bk }}·{{ sb }}.
var<workgroup> tile_a: array<f16, {{ 128 * sa }}>;
var<workgroup> tile_b: array<f16, {{ bk * sb }}>;

{#
  Stores of 8 halves (one vec4<u32>) at half `at` (a multiple of 8) of `name`'s tiles, held as
  `per` halves an element (1: f16, 4: vec4<f16>).
#}
{% macro put_fns(name, per) %}
// Stores 8 halves (one vec4<u32>) at half `at` of a tile (a multiple of 8):
{% if per == 1 %}
// one half at a time (unpacked through f32, exactly).
{% else %}
// two 8-byte stores of four halves each (unpacked through f32, exactly: naga 30's WGSL front
// end types `bitcast<vec4<f16>>` of a vec2<u32> as vec2<f32> and rejects the store).
{% endif %}
{% for tile in ["a", "b"] %}
{% if not loop.first %}

{% endif %}
fn put_{{ tile }}_{{ name }}(at: u32, v: vec4<u32>) {
{% if per == 1 %}
{% for w in range(4) %}
    let h{{ w }} = unpack2x16float(v[{{ w }}]);
    tile_{{ tile }}_{{ name }}[at + {{ 2 * w }}u] = f16(h{{ w }}.x);
    tile_{{ tile }}_{{ name }}[at + {{ 2 * w + 1 }}u] = f16(h{{ w }}.y);
{% endfor %}
{% else %}
    tile_{{ tile }}_{{ name }}[at / 4u] = vec4<f16>(vec4<f32>(unpack2x16float(v.x), unpack2x16float(v.y)));
    tile_{{ tile }}_{{ name }}[at / 4u + 1u] = vec4<f16>(vec4<f32>(unpack2x16float(v.z), unpack2x16float(v.w)));
{% endif %}
}
{% endfor %}
{%- endmacro %}
{#
  The entry point's head up to its staging roles: subgroup block, tile origin, strides, and the
  A and B vec4s l = local + 256·r each invocation stages (with their first K-tile's loads when
  `first_loads`).
#}
{% macro head(name, kb, wn, first_loads) %}
{% set tn = 4 * wn %}
{% set kbv = kb // 8 %}
{% set tnv = tn // 8 %}
@compute @workgroup_size(256)
fn {{ name }}(@builtin(local_invocation_index) local: u32, @builtin(workgroup_id) wg: vec3<u32>) {
    let warp = local / 32u;
    let warp_m = (warp / 4u) * 64u;
    let warp_n = (warp % 4u) * {{ wn }}u;
    let m0 = wg.y * 128u;
    let n0 = wg.x * {{ tn }}u;
    // The stores' row stride as a named value: naga 30's SPIR-V writer panics ("not cached") on
    // a cooperative store whose stride or index is computed inline.
    let ldc = params.n;
    let k8 = params.k / 8u;
    let n8 = params.n / 8u;
    // Staging: vec4 l = local + 256·r of the A tile (row l / {{ kbv }}, column l % {{ kbv }}) and of the B tile
    // (row l / {{ tnv }}, column l % {{ tnv }}): {{ 16 * kb // 256 }} and {{ kb * tnv // 256 }} per invocation.
{% for r in range(16 * kb // 256) %}
    let ar{{ r }} = (local + {{ 256 * r }}u) / {{ kbv }}u;
    let ac{{ r }} = (local + {{ 256 * r }}u) % {{ kbv }}u;
{% if first_loads %}
    var va{{ r }} = a[(m0 + ar{{ r }}) * k8 + ac{{ r }}];
{% endif %}
{% endfor %}
{% for r in range(kb * tnv // 256) %}
    let br{{ r }} = (local + {{ 256 * r }}u) / {{ tnv }}u;
    let bc{{ r }} = (local + {{ 256 * r }}u) % {{ tnv }}u;
{% if first_loads %}
    var vb{{ r }} = b[br{{ r }} * n8 + n0 / 8u + bc{{ r }}];
{% endif %}
{% endfor %}
{%- endmacro %}
{# Registers `va{r}{s}`, `vb{r}{s}` → the tiles, at half offsets `a0`, `b0` (0 or a buffer's start). #}
{% macro stage(name, kb, wn, s, a0, b0) %}
{% for r in range(16 * kb // 256) %}
        put_a_{{ name }}({{ "%du + " | format(a0) if a0 }}ar{{ r }} * {{ kb + 8 }}u + ac{{ r }} * 8u, va{{ r }}{{ s }});
{% endfor %}
{% for r in range(kb * wn // 512) %}
        put_b_{{ name }}({{ "%du + " | format(b0) if b0 }}br{{ r }} * {{ 4 * wn + 8 }}u + bc{{ r }} * 8u, vb{{ r }}{{ s }});
{% endfor %}
{%- endmacro %}
{# Registers `va{r}{s}`, `vb{r}{s}` ← the K-tile at K = 8·`next` (a WGSL expression in vec4s). #}
{% macro load(kb, wn, s, next) %}
{% for r in range(16 * kb // 256) %}
        va{{ r }}{{ s }} = a[(m0 + ar{{ r }}) * k8 + {{ next }} + ac{{ r }}];
{% endfor %}
{% for r in range(kb * wn // 512) %}
        vb{{ r }}{{ s }} = b[({{ next }} * 8u + br{{ r }}) * n8 + n0 / 8u + bc{{ r }}];
{% endfor %}
{%- endmacro %}
{#
  One staged K-tile's fragment loads and multiply-adds, from the tiles' elements starting at
  `base` (a WGSL prefix: "" or an element offset and " + "), `per` halves an element.
#}
{% macro math(name, kb, wn, per, base) %}
{% set ka = kb + 8 %}
{% set tn = 4 * wn %}
{% for kk in range(0, kb, 16) %}
        {
{% for i in range(4) %}
            let a{{ i }} = coopLoadT<coop_mat16x16<f16, A>>(&tile_a_{{ name }}[{{ base[0] }}((warp_m + {{ 16 * i }}u) * {{ ka }}u + {{ kk }}u) / {{ per }}u], {{ ka // per }}u);
{% endfor %}
{% for j in range(wn // 16) %}
            let b{{ j }} = coopLoadT<coop_mat16x16<f16, B>>(&tile_b_{{ name }}[{{ base[1] }}({{ kk }}u * {{ tn + 8 }}u + warp_n + {{ 16 * j }}u) / {{ per }}u], {{ (tn + 8) // per }}u);
{% endfor %}
{% for i in range(4) %}
{% for j in range(wn // 16) %}
            c{{ i }}{{ j }} = coopMultiplyAdd(a{{ i }}, b{{ j }}, c{{ i }}{{ j }});
{% endfor %}
{% endfor %}
        }
{% endfor %}
{%- endmacro %}
{# The accumulators, zeroed (`decl`), or stored row-major into C (the entry point's tail). #}
{% macro accumulators_of(wn, decl) %}
{% if not decl %}
    // Indices as named values too: naga 30's SPIR-V writer panics on a store's inline index.
{% endif %}
{% for i in range(4) %}
{% for j in range(wn // 16) %}
{% if decl %}
    var c{{ i }}{{ j }} = coop_mat16x16<f32, C>();
{% else %}
    let at{{ i }}{{ j }} = (m0 + warp_m + {{ 16 * i }}u) * ldc + n0 + warp_n + {{ 16 * j }}u;
    coopStoreT(c{{ i }}{{ j }}, &c[at{{ i }}{{ j }}], ldc);
{% endif %}
{% endfor %}
{% endfor %}
{%- endmacro %}

{#
  A staged GEMM entry point `name`: K-tiles `kb` deep, subgroup blocks 64 × `wn` (tile N = 4·wn),
  with its own tiles and staging functions.
#}
{% macro gemm_staged(name, kb, wn, held) %}
{% set ka = kb + 8 %}
{# Halves per element of the tiles: 1 (`f16`) or 4 (`vec4<f16>`). #}
{% set per = {"f16": 1, "vec4<f16>": 4}[held] %}
{% set tn = 4 * wn %}
// `{{ name }}`: A tile 128 × {{ kb }} halves (rows padded to {{ ka }}), B tile {{ kb }} × {{ tn }} (rows
// padded to {{ tn + 8 }}): {{ (128 * ka + kb * (tn + 8)) * 2 }} bytes. The last A fragment reads up to
// 127·{{ ka }} + {{ kb }} − 1, the last B fragment up to ({{ kb }} − 1)·{{ tn + 8 }} + {{ tn }} − 1: inside.
// Held as `{{ held }}`: the fragment loads' offsets and strides count those elements.
var<workgroup> tile_a_{{ name }}: array<{{ held }}, {{ 128 * ka // per }}>;
var<workgroup> tile_b_{{ name }}: array<{{ held }}, {{ kb * (tn + 8) // per }}>;

{{ put_fns(name, per) | trim("\n") }}

{{ head(name, kb, wn, true) | trim("\n") }}
{{ accumulators_of(wn, true) | trim("\n") }}
    for (var k0 = 0u; k0 < params.k; k0 += {{ kb }}u) {
{{ stage(name, kb, wn, "", 0, 0) | trim("\n") }}
        workgroupBarrier();
        // The next K-tile's loads (clamped to the last tile on the last step: issued
        // unconditionally, so they are all in flight during the math).
        let next = min(k0 + {{ kb }}u, params.k - {{ kb }}u) / 8u;
{{ load(kb, wn, "", "next") | trim("\n") }}
{{ math(name, kb, wn, per, ["", ""]) | trim("\n") }}
        workgroupBarrier();
    }
{{ accumulators_of(wn, false) | trim("\n") }}
}
{%- endmacro %}

{#
  A pipelined GEMM entry point `name`: K-tiles `kb` deep in two workgroup-memory buffers (one
  barrier per K-tile) held as vec4<f16>, and two K-tiles of global loads in flight in two
  register sets, so a K-tile's loads have two K-tiles of math to arrive in. K must be a multiple
  of 2·kb (the loop takes two K-tiles per iteration).
#}
{% macro gemm_pipelined(name, kb, wn) %}
{% set ka = kb + 8 %}
{% set tn = 4 * wn %}
{% set a_len = 128 * ka %}{# halves per A buffer #}
{% set b_len = kb * (tn + 8) %}
// `{{ name }}`: two A tiles of 128 × {{ kb }} halves (rows padded to {{ ka }}) and two B tiles of {{ kb }} × {{ tn }}
// (rows padded to {{ tn + 8 }}), as vec4<f16>: {{ 2 * (a_len + b_len) * 2 }} bytes.
var<workgroup> tile_a_{{ name }}: array<vec4<f16>, {{ 2 * a_len // 4 }}>;
var<workgroup> tile_b_{{ name }}: array<vec4<f16>, {{ 2 * b_len // 4 }}>;

{{ put_fns(name, 4) | trim("\n") }}

{{ head(name, kb, wn, false) | trim("\n") }}
    // Register set s holds K-tile 2·i + s of iteration i.
{% for st in range(2) %}
{{ load(kb, wn, "_%d" | format(st), "%du" | format(st * kb // 8)) | replace("        va", "    var va") | replace("        vb", "    var vb") | trim("\n") }}
{% endfor %}
{{ accumulators_of(wn, true) | trim("\n") }}
    for (var k0 = 0u; k0 < params.k; k0 += {{ 2 * kb }}u) {
{% for st in range(2) %}
        // K-tile k0 + {{ st * kb }}: registers → buffer {{ st }} (whose last reader, two K-tiles ago,
        // finished before every invocation passed the previous K-tile's barrier).
{{ stage(name, kb, wn, "_%d" | format(st), st * a_len, st * b_len) | trim("\n") }}
        workgroupBarrier();
        {
            // Two K-tiles ahead (clamped to the last: issued unconditionally).
            let next = min(k0 + {{ st * kb + 2 * kb }}u, params.k - {{ kb }}u) / 8u;
{{ load(kb, wn, "_%d" | format(st), "next") | trim("\n") | indent(4, true) }}
        }
{{ math(name, kb, wn, 4, ["%du + " | format(st * a_len // 4), "%du + " | format(st * b_len // 4)]) | trim("\n") }}
{% endfor %}
    }
{{ accumulators_of(wn, false) | trim("\n") }}
}
{%- endmacro %}

{% macro accumulators() %}
{% for i in range(4) %}
{% for j in range(2) %}
    var c{{ i }}{{ j }} = coop_mat16x16<f32, C>();
{% endfor %}
{% endfor %}
{%- endmacro %}

{# 4 A and 2 B fragments at depth `kk` of the staged tiles, then the 8 multiply-adds. #}
{% macro step(kk) %}
{% for i in range(4) %}
        let a{{ i }} = coopLoadT<coop_mat16x16<f16, A>>(&tile_a[(warp_m + {{ 16 * i }}u) * {{ sa }}u + {{ kk }}], {{ sa }}u);
{% endfor %}
{% for j in range(2) %}
        let b{{ j }} = coopLoadT<coop_mat16x16<f16, B>>(&tile_b[{{ kk }} * {{ sb }}u + warp_n + {{ 16 * j }}u], {{ sb }}u);
{% endfor %}
{% for i in range(4) %}
{% for j in range(2) %}
        c{{ i }}{{ j }} = coopMultiplyAdd(a{{ i }}, b{{ j }}, c{{ i }}{{ j }});
{% endfor %}
{% endfor %}
{%- endmacro %}

{% for name, kb, wn, held in [("coop_gemm", 32, 32, "f16"), ("coop_gemm_k64", 64, 32, "f16"), ("coop_gemm_n256", 32, 64, "f16"), ("coop_gemm_h4", 32, 32, "vec4<f16>")] %}
{{ gemm_staged(name, kb, wn, held) }}

{% endfor %}
{% for name, kb, wn in [("coop_gemm_db", 32, 32), ("coop_gemm_db_k16", 16, 32), ("coop_gemm_db_n256", 16, 64)] %}
{{ gemm_pipelined(name, kb, wn) }}

{% endfor %}
// The GEMM without staging: each subgroup loads its 4 A and 2 B fragments per 16 of K from
// global memory (row-major A with stride K, B with stride N) and issues 8 multiply-adds.
@compute @workgroup_size(256)
fn coop_gemm_direct(@builtin(local_invocation_index) local: u32, @builtin(workgroup_id) wg: vec3<u32>) {
    let warp = local / 32u;
    let row0 = wg.y * 128u + (warp / 4u) * 64u;
    let col0 = wg.x * 128u + (warp % 4u) * 32u;
    // Strides and indices as named values (naga 30's SPIR-V writer, see `coop_gemm`).
    let lda = params.k;
    let ldc = params.n;
{{ accumulators() }}
    for (var k0 = 0u; k0 < params.k; k0 += 16u) {
{% for i in range(4) %}
        let ia{{ i }} = (row0 + {{ 16 * i }}u) * lda + k0;
        let a{{ i }} = coopLoadT<coop_mat16x16<f16, A>>(&a_h[ia{{ i }}], lda);
{% endfor %}
{% for j in range(2) %}
        let ib{{ j }} = k0 * ldc + col0 + {{ 16 * j }}u;
        let b{{ j }} = coopLoadT<coop_mat16x16<f16, B>>(&b_h[ib{{ j }}], ldc);
{% endfor %}
{% for i in range(4) %}
{% for j in range(2) %}
        c{{ i }}{{ j }} = coopMultiplyAdd(a{{ i }}, b{{ j }}, c{{ i }}{{ j }});
{% endfor %}
{% endfor %}
    }
{% for i in range(4) %}
{% for j in range(2) %}
    let at{{ i }}{{ j }} = (row0 + {{ 16 * i }}u) * ldc + col0 + {{ 16 * j }}u;
    coopStoreT(c{{ i }}{{ j }}, &c[at{{ i }}{{ j }}], ldc);
{% endfor %}
{% endfor %}
}

// The same inner loop with nothing but the multiply-adds: the tiles are filled once with small
// values (no global reads), then each subgroup runs `steps` steps over them. Writes its accumulators
// to C (workgroup-major, 8 × 2048 floats per workgroup) so none is dead.
@compute @workgroup_size(256)
fn coop_mma(@builtin(local_invocation_index) local: u32, @builtin(workgroup_id) wg: vec3<u32>) {
    let warp = local / 32u;
    let warp_m = (warp / 4u) * 64u;
    let warp_n = (warp % 4u) * 32u;
    for (var i = local; i < {{ 128 * sa }}u; i += 256u) {
        tile_a[i] = f16(f32(i % 7u) * 0.125);
    }
    for (var i = local; i < {{ bk * sb }}u; i += 256u) {
        tile_b[i] = f16(f32(i % 5u) * 0.125);
    }
    workgroupBarrier();
{{ accumulators() }}
    for (var s = 0u; s < params.steps; s += 2u) {
{% for kk in [0, 16] %}
        {
{{ step(kk ~ "u") }}
        }
{% endfor %}
    }
    let base = (wg.x * 8u + warp) * 2048u;
{% for i in range(4) %}
{% for j in range(2) %}
    let at{{ i }}{{ j }} = base + {{ (i * 2 + j) * 256 }}u;
    coopStoreT(c{{ i }}{{ j }}, &c[at{{ i }}{{ j }}], 16u);
{% endfor %}
{% endfor %}
}
