{# FMA chains per thread and their unrolling per loop iteration. #}
{% set chains = 8 %}
{% set unroll = 4 %}
// The device's plain ceilings, for `wgconv bench --roofline`: the fp32 FMA rate, the int8
// dot4I8Packed rate and the copy bandwidth. Each is the simplest kernel that should reach the
// hardware's limit; a conv kernel's speed is reported as a share of them.

@group(0) @binding(0) var<storage, read> src: array<vec4<f32>>;
@group(0) @binding(1) var<storage, read_write> dst: array<vec4<f32>>;

override wg_size: u32 = 256;
// Threads per grid row: thread index = gid.y * stride_x + gid.x.
override stride_x: u32;
// Loop iterations of `fma_peak`; each issues {{ chains * unroll }} vec4 FMAs per thread.
override fma_iterations: u32 = 1024u;

// One vec4 per thread: dst = src, over the whole of dst (src is at least as long).
@compute @workgroup_size(wg_size)
fn copy_vec4(@builtin(global_invocation_id) gid: vec3<u32>) {
    let i = gid.y * stride_x + gid.x;
    if (i < arrayLength(&dst)) {
        dst[i] = src[i];
    }
}

{#
  A peak kernel: {{ chains }} independent chains a thread, each step `step` with X the chain's
  last value (A in `init` is the chain's number), the multiplier and addend read from memory (as
  `m`, `c`) so nothing folds, and the chains combined with `combine` and stored as `store` with
  S the combination, so no chain is dead code.
#}
{% macro peak(name, m, c, init, step, store, combine) %}
@compute @workgroup_size(wg_size)
fn {{ name }}(@builtin(global_invocation_id) gid: vec3<u32>) {
    let i = gid.y * stride_x + gid.x;
    if (i >= arrayLength(&dst)) {
        return;
    }
    // Multiplier and addend from memory, so the compiler cannot fold the chains.
    let m = {{ m }};
    let c = {{ c }};
{% for a in range(chains) %}
    var a{{ a }} = {{ init | replace("A", a ~ "u") }};
{% endfor %}
    for (var k = 0u; k < fma_iterations; k++) {
{% for u in range(unroll) %}
{% for a in range(chains) %}
        a{{ a }} = {{ step | replace("X", "a" ~ a) }};
{% endfor %}
{% endfor %}
    }
{% set ns = namespace(all=[]) %}
{% for a in range(chains) %}{% set ns.all = ns.all + ["a" ~ a] %}{% endfor %}
    dst[i] = {{ store | replace("S", ns.all | join(" " ~ combine ~ " ")) }};
}
{%- endmacro %}
// {{ chains }} independent vec4 FMA chains per thread (enough independent work to hide the FMA
// latency), unrolled {{ unroll }} times per iteration, in named variables: a private array indexed
// in a loop ends up in local memory on some stacks. The sum is stored so none is dead code.
// FLOPs per thread: fma_iterations × {{ chains * unroll }} × 4 lanes × 2.
{{ peak("fma_peak", "src[0]", "src[1]", "vec4<f32>(f32(i + A) * 1e-9)", "fma(X, m, c)", "S", "+") }}

// The int8 ceiling of the dot4I8Packed kernels (`q8_dot4_gemm`): {{ chains }} independent chains
// per thread, unrolled {{ unroll }} times, each step a packed dot product of 4 int8 pairs plus an
// addend (what the GEMM's `acc += dot4I8Packed(a, b)` is), whose first operand is the chain's
// last value so no step can be hoisted or folded. Operations per thread: fma_iterations ×
// {{ chains * unroll }} × 4 multiply-adds × 2.
{{ peak("dot4_peak", "bitcast<vec4<u32>>(src[0]).x", "bitcast<vec4<i32>>(src[1]).x", "i32(i + A)", "dot4I8Packed(bitcast<u32>(X), m) + c", "vec4<f32>(f32(S))", "^") }}
