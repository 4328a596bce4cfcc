{% import "prelude/conv.wgsl" as conv %}
{# variants: f16 #}
{% set max_oc_block = 16 %}
{% set loads = 8 %}
{# A K-slice's channels of one weight chunk (32 channels over 4 slices). #}
{% set split_loads = 8 %}
// Pointwise (1×1, stride 1, no padding, one group) convolution of NCHW tensors whose planes
// (H × W) are multiples of 4, for layers with few channels over many pixels: a memory-bound
// stream (MobileNetV3's 72→24 projection at batch 32), where a GEMM tile of 64 output channels
// is mostly empty and its K loop too short to hide the latency of its staged loads.
//
// Each thread computes 4 consecutive pixels (one aligned vec4 of a plane) of `oc_block` output
// channels: per input channel, one vec4 load from global memory (consecutive threads,
// consecutive vec4s: coalesced) and oc_block / 4 vec4 weight loads from workgroup memory feed
// 4 · oc_block multiply-adds. The input loads of 8 channels are issued before their
// multiply-adds (with one load in flight a thread, the H200 streamed MobileNetV2's 144→24
// projection at 0.84 TB/s; with 8, 2.2× faster, v43). The weights of the block are staged 32
// input channels at a time. Workgroups of one pixel chunk for each output-channel block are
// consecutive, so the blocks after the first read the chunk's input from the L2 cache.
//
// `conv2d_pointwise_split` splits K four ways, for grids too small to fill the GPU with one
// thread per vec4 (batch-1 layers of up to 32 input channels, R38; layers of under 16 output
// channels with K of 64–256, R64): 32 vec4s per workgroup, each computed by 4 threads over every
// 4th input channel (4× the threads, each a quarter of the loads, 8 of them in flight), their
// sums added through workgroup memory, one round of 4 output channels at a time.
// Tensors are {{ io }} (the output {{ out }}); the arithmetic is f32.

{% if io == "f16" or out == "f16" %}
enable f16;

{% endif %}
{{ conv.params_struct() }}

@group(0) @binding(0) var<storage, read> input: array<vec4<{{ io }}>>;
@group(0) @binding(1) var<storage, read> weight: array<{{ io }}>;
@group(0) @binding(2) var<storage, read> bias: array<{{ io }}>;
@group(0) @binding(3) var<storage, read_write> output: array<vec4<{{ out }}>>;
@group(0) @binding(4) var<uniform> params: ConvParams;

// Threads per workgroup.
override wg_size: u32 = 128;
// Output channels per thread: a multiple of 4, at most POINTWISE_MAX_OC_BLOCK.
override oc_block: u32 = {{ max_oc_block }};
{{ conv.activation_overrides() }}

{{ conv.activate(vec4=true) }}

// The most output channels per thread (the accumulators' and staged weights' size).
const POINTWISE_MAX_OC_BLOCK: u32 = {{ max_oc_block }}u;
// Input channels per staged weight chunk.
const POINTWISE_IC_CHUNK: u32 = 32u;
// Input channels loaded a step of `conv2d_pointwise`'s K loop (a divisor of the chunk).
const POINTWISE_LOADS: u32 = {{ loads }}u;

// The block's weights for POINTWISE_IC_CHUNK input channels: channel i's output channels
// o..o+3 are the vec4 i · (POINTWISE_MAX_OC_BLOCK / 4) + o / 4.
var<workgroup> pointwise_weights: array<vec4<f32>, {{ 32 * max_oc_block // 4 }}>;

{{ conv.staged_weight() }}

// Stages the weights of output channels oc0..oc0 + oc_block for input channels c0.. c0 + 31 in
// `pointwise_weights`, shared out over `threads` threads. Each thread stages whole vec4s (4
// output channels of one input channel): threads writing components of one vector could race
// where a backend stores vectors whole.
fn stage_pointwise_weights(c0: u32, oc0: u32, local: u32, threads: u32) {
    let vecs_per_block = oc_block / 4u;
    for (var e = local; e < POINTWISE_IC_CHUNK * vecs_per_block; e += threads) {
        let i = e / vecs_per_block;
        let v = e % vecs_per_block;
        var w = vec4<f32>();
        if (c0 + i < params.ic) {
            let o = oc0 + 4u * v;
            let at = o * params.ic + c0 + i;
            w = vec4<f32>(
                staged_weight(o, at),
                staged_weight(o + 1u, at + params.ic),
                staged_weight(o + 2u, at + 2u * params.ic),
                staged_weight(o + 3u, at + 3u * params.ic),
            );
        }
        pointwise_weights[i * (POINTWISE_MAX_OC_BLOCK / 4u) + v] = w;
    }
}

// Output channel `oc`'s biased, activated vec4 `sum` at vec4 `quad` of image `b`'s plane.
fn store_pointwise(b: u32, oc: u32, quad: u32, quads: u32, sum: vec4<f32>) {
    // Read only when bound: without a bias the binding is a 4-float placeholder.
    var bias_value = 0.0;
    if (params.has_bias != 0u) {
        bias_value = {{ to_f32 }}(bias[oc]);
    }
    let v = activate(sum + vec4<f32>(bias_value));
    output[(b * params.oc + oc) * quads + quad] = {{ "vec4<f16>" if out == "f16" else "" }}(v);
}

@compute @workgroup_size(wg_size)
fn conv2d_pointwise(
    @builtin(workgroup_id) wid: vec3<u32>,
    @builtin(num_workgroups) groups: vec3<u32>,
    @builtin(local_invocation_index) local: u32,
) {
    // Workgroup-uniform: (pixel chunk, output-channel block), the block fastest. The chunks
    // run through the images' planes one after another, so a plane that is not a multiple of
    // the chunk leaves no partly idle workgroup at each image's end, only at the batch's.
    let workgroup = wid.y * groups.x + wid.x;
    let quads = params.oh * params.ow / 4u;
    let all_quads = params.n * quads;
    let blocks = (params.oc + oc_block - 1u) / oc_block;
    let oc0 = workgroup % blocks * oc_block;
    let chunk = workgroup / blocks;
    if (chunk * wg_size >= all_quads) {
        return;
    }
    let flat = chunk * wg_size + local;
    let inside = flat < all_quads;
    // Threads past the batch's end load its last vec4 (harmlessly) and store nothing; they stay
    // for the barriers.
    let flat_here = min(flat, all_quads - 1u);
    let b = flat_here / quads;
    let quad = flat_here % quads;
    let vecs_per_block = oc_block / 4u;
    var acc: array<vec4<f32>, POINTWISE_MAX_OC_BLOCK>;
    for (var c0 = 0u; c0 < params.ic; c0 += POINTWISE_IC_CHUNK) {
        workgroupBarrier();
        stage_pointwise_weights(c0, oc0, local, wg_size);
        workgroupBarrier();
        let count = min(POINTWISE_IC_CHUNK, params.ic - c0);
        var at = (b * params.ic + c0) * quads + quad;
        // POINTWISE_LOADS input channels a step, their loads issued before any multiply-add:
        // one load in flight a thread left the memory system idle (a serial loop over K).
        // Channels past `count` load the step's first channel and count as zeros (their
        // staged weights are zeros too, but an infinite input times zero is not zero).
        for (var i = 0u; i < count; i += POINTWISE_LOADS) {
{% for u in range(loads) %}
            let valid{{ u }} = i + {{ u }}u < count;
            let x{{ u }} = select(vec4<f32>(), vec4<f32>(input[select(at, at + {{ u }}u * quads, valid{{ u }})]), valid{{ u }});
{% endfor %}
{% for u in range(loads) %}
            for (var v = 0u; v < vecs_per_block; v++) {
                let w = pointwise_weights[(i + {{ u }}u) * (POINTWISE_MAX_OC_BLOCK / 4u) + v];
                acc[4u * v] = fma(vec4<f32>(w.x), x{{ u }}, acc[4u * v]);
                acc[4u * v + 1u] = fma(vec4<f32>(w.y), x{{ u }}, acc[4u * v + 1u]);
                acc[4u * v + 2u] = fma(vec4<f32>(w.z), x{{ u }}, acc[4u * v + 2u]);
                acc[4u * v + 3u] = fma(vec4<f32>(w.w), x{{ u }}, acc[4u * v + 3u]);
            }
{% endfor %}
            at += POINTWISE_LOADS * quads;
        }
    }
    if (!inside) {
        return;
    }
    for (var o = 0u; o < oc_block; o++) {
        let oc = oc0 + o;
        if (oc < params.oc) {
            store_pointwise(b, oc, quad, quads, acc[o]);
        }
    }
}

// Threads per workgroup of the K-split entry point: 32 vec4s × 4 K-slices.
const POINTWISE_SPLIT_THREADS: u32 = 128u;
const POINTWISE_SPLIT_QUADS: u32 = 32u;
const POINTWISE_K_SLICES: u32 = 4u;
// A K-slice's channels of one weight chunk, loaded at once: with the slices, the whole chunk
// (the host asserts POINTWISE_SPLIT_LOADS · POINTWISE_K_SLICES = POINTWISE_IC_CHUNK).
const POINTWISE_SPLIT_LOADS: u32 = {{ split_loads }}u;

// The K-slices' sums of one round (4 output channels): slice s's sum for channel j of the round
// at vec4 q is (s · 4 + j) · POINTWISE_SPLIT_QUADS + q.
var<workgroup> pointwise_sums: array<vec4<f32>, 512>;

@compute @workgroup_size(POINTWISE_SPLIT_THREADS)
fn conv2d_pointwise_split(
    @builtin(workgroup_id) wid: vec3<u32>,
    @builtin(num_workgroups) groups: vec3<u32>,
    @builtin(local_invocation_index) local: u32,
) {
    // Workgroup-uniform: (batch, pixel chunk, output-channel block), the block fastest.
    let workgroup = wid.y * groups.x + wid.x;
    let quads = params.oh * params.ow / 4u;
    let chunks = (quads + POINTWISE_SPLIT_QUADS - 1u) / POINTWISE_SPLIT_QUADS;
    let blocks = (params.oc + oc_block - 1u) / oc_block;
    let oc0 = workgroup % blocks * oc_block;
    let rest = workgroup / blocks;
    let b = rest / chunks;
    if (b >= params.n) {
        return;
    }
    // Each K-slice is 32 consecutive threads (a subgroup on most GPUs): coalesced loads.
    let slice = local / POINTWISE_SPLIT_QUADS;
    let lane = local % POINTWISE_SPLIT_QUADS;
    let quad = rest % chunks * POINTWISE_SPLIT_QUADS + lane;
    let inside = quad < quads;
    let quad_here = min(quad, quads - 1u);
    let vecs_per_block = oc_block / 4u;
    var acc: array<vec4<f32>, POINTWISE_MAX_OC_BLOCK>;
    for (var c0 = 0u; c0 < params.ic; c0 += POINTWISE_IC_CHUNK) {
        workgroupBarrier();
        stage_pointwise_weights(c0, oc0, local, POINTWISE_SPLIT_THREADS);
        workgroupBarrier();
        let count = min(POINTWISE_IC_CHUNK, params.ic - c0);
        let at = (b * params.ic + c0 + slice) * quads + quad_here;
        // The chunk's first channel, which exists (c0 < IC): where a slice's channel does not.
        let first = (b * params.ic + c0) * quads + quad_here;
        // The slice's channels of the chunk (slice, slice + 4, …), all their loads issued before
        // any multiply-add, as in `conv2d_pointwise`: with one load in flight a thread, layers of
        // long K on grids of few workgroups (Mask R-CNN's 256→12 box head) left the memory
        // system idle. Channels past `count` load the chunk's first one and count as zeros.
{% for u in range(split_loads) %}
        let valid{{ u }} = slice + {{ u * 4 }}u < count;
        let x{{ u }} = select(vec4<f32>(), vec4<f32>(input[select(first, at + {{ u * 4 }}u * quads, valid{{ u }})]), valid{{ u }});
{% endfor %}
{% for u in range(split_loads) %}
        if (valid{{ u }}) {
            for (var v = 0u; v < vecs_per_block; v++) {
                let w = pointwise_weights[(slice + {{ u * 4 }}u) * (POINTWISE_MAX_OC_BLOCK / 4u) + v];
                acc[4u * v] = fma(vec4<f32>(w.x), x{{ u }}, acc[4u * v]);
                acc[4u * v + 1u] = fma(vec4<f32>(w.y), x{{ u }}, acc[4u * v + 1u]);
                acc[4u * v + 2u] = fma(vec4<f32>(w.z), x{{ u }}, acc[4u * v + 2u]);
                acc[4u * v + 3u] = fma(vec4<f32>(w.w), x{{ u }}, acc[4u * v + 3u]);
            }
        }
{% endfor %}
    }
    // The rounds are written out so that every accumulator index is a constant: indexing the
    // accumulators by a variable would put them in (slow) local memory.
{% for r in range(max_oc_block // 4) %}
    if ({{ 4 * r }}u < oc_block) {
        workgroupBarrier();
{% for j in range(4) %}
        pointwise_sums[(slice * 4u + {{ j }}u) * POINTWISE_SPLIT_QUADS + lane] = acc[{{ 4 * r + j }}];
{% endfor %}
        workgroupBarrier();
        // Thread (slice s, lane q) adds up the round's channel s at vec4 q.
        let oc = oc0 + {{ 4 * r }}u + slice;
        if (inside && oc < params.oc) {
            var sum = pointwise_sums[slice * POINTWISE_SPLIT_QUADS + lane];
            for (var t = 1u; t < POINTWISE_K_SLICES; t++) {
                sum += pointwise_sums[(t * 4u + slice) * POINTWISE_SPLIT_QUADS + lane];
            }
            store_pointwise(b, oc, quad, quads, sum);
        }
    }
{% endfor %}
}
