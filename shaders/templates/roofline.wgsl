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

// {{ chains }} independent vec4 FMA chains per thread (enough independent work to hide the FMA
// latency), unrolled {{ unroll }} times per iteration, in named variables: a private array indexed
// in a loop ends up in local memory on some stacks. The sum is stored so none is dead code.
// FLOPs per thread: fma_iterations × {{ chains * unroll }} × 4 lanes × 2.
@compute @workgroup_size(wg_size)
fn fma_peak(@builtin(global_invocation_id) gid: vec3<u32>) {
    let i = gid.y * stride_x + gid.x;
    if (i >= arrayLength(&dst)) {
        return;
    }
    // Multiplier and addend from memory, so the compiler cannot fold the chains.
    let m = src[0];
    let c = src[1];
{% for a in range(chains) %}
    var a{{ a }} = vec4<f32>(f32(i + {{ a }}u) * 1e-9);
{% endfor %}
    for (var k = 0u; k < fma_iterations; k++) {
{% for u in range(unroll) %}
{% for a in range(chains) %}
        a{{ a }} = fma(a{{ a }}, m, c);
{% endfor %}
{% endfor %}
    }
    dst[i] = {% for a in range(chains) %}a{{ a }}{% if not loop.last %} + {% endif %}{% endfor %};
}

// The int8 ceiling of the dot4I8Packed kernels (`q8_dot4_gemm`): {{ chains }} independent chains
// per thread, unrolled {{ unroll }} times, each step a packed dot product of 4 int8 pairs plus an
// addend (what the GEMM's `acc += dot4I8Packed(a, b)` is), whose first operand is the chain's
// last value so no step can be hoisted or folded. Operations per thread: fma_iterations ×
// {{ chains * unroll }} × 4 multiply-adds × 2.
@compute @workgroup_size(wg_size)
fn dot4_peak(@builtin(global_invocation_id) gid: vec3<u32>) {
    let i = gid.y * stride_x + gid.x;
    if (i >= arrayLength(&dst)) {
        return;
    }
    // Multiplier and addend from memory, so the compiler cannot fold the chains.
    let m = bitcast<vec4<u32>>(src[0]).x;
    let c = bitcast<vec4<i32>>(src[1]).x;
{% for a in range(chains) %}
    var d{{ a }} = i32(i + {{ a }}u);
{% endfor %}
    for (var k = 0u; k < fma_iterations; k++) {
{% for u in range(unroll) %}
{% for a in range(chains) %}
        d{{ a }} = dot4I8Packed(bitcast<u32>(d{{ a }}), m) + c;
{% endfor %}
{% endfor %}
    }
    dst[i] = vec4<f32>(f32({% for a in range(chains) %}d{{ a }}{% if not loop.last %} ^ {% endif %}{% endfor %}));
}
