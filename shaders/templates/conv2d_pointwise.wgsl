{% import "prelude/conv.wgsl" as conv %}
{# variants: f16 #}
// Pointwise (1×1, stride 1, no padding, one group) convolution of NCHW tensors whose planes
// (H × W) are multiples of 4, for layers with few output channels over many pixels: a memory-
// bound stream (MobileNet's and EfficientNet's projections at batch 32 read 144 channels to
// write 24), where a GEMM tile of 64+ output channels is mostly empty and its K loop too short
// to hide the latency of its staged loads.
//
// Each thread computes 4 consecutive pixels (one aligned vec4 of a plane) of `oc_block` output
// channels: per input channel, one vec4 load from global memory (consecutive threads,
// consecutive vec4s: coalesced) and oc_block / 4 vec4 weight loads from workgroup memory feed
// 4 · oc_block multiply-adds. The weights of the block are staged 32 input channels at a time.
// Workgroups of one pixel chunk for each output-channel block are consecutive, so the blocks
// after the first read the chunk's input from the L2 cache.
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
override oc_block: u32 = 16;
{{ conv.activation_overrides() }}

{{ conv.activate(vec4=true) }}

// The most output channels per thread (the accumulators' and staged weights' size).
const POINTWISE_MAX_OC_BLOCK: u32 = 16u;
// Input channels per staged weight chunk.
const POINTWISE_IC_CHUNK: u32 = 32u;

// The block's weights for POINTWISE_IC_CHUNK input channels: channel i's output channels
// o..o+3 are the vec4 i · (POINTWISE_MAX_OC_BLOCK / 4) + o / 4.
var<workgroup> pointwise_weights: array<vec4<f32>, 128>;

// Output channel `oc`'s weight at index `at`; 0 past the last output channel.
fn staged_weight(oc: u32, at: u32) -> f32 {
    if (oc < params.oc) {
        return {{ to_f32 }}(weight[at]);
    }
    return 0.0;
}

@compute @workgroup_size(wg_size)
fn conv2d_pointwise(
    @builtin(workgroup_id) wid: vec3<u32>,
    @builtin(num_workgroups) groups: vec3<u32>,
    @builtin(local_invocation_index) local: u32,
) {
    // Workgroup-uniform: (batch, pixel chunk, output-channel block), the block fastest.
    let workgroup = wid.y * groups.x + wid.x;
    let quads = params.oh * params.ow / 4u;
    let chunks = (quads + wg_size - 1u) / wg_size;
    let blocks = (params.oc + oc_block - 1u) / oc_block;
    let oc0 = workgroup % blocks * oc_block;
    let rest = workgroup / blocks;
    let b = rest / chunks;
    if (b >= params.n) {
        return;
    }
    let quad = rest % chunks * wg_size + local;
    let inside = quad < quads;
    // Threads past the plane's end load its last vec4 (harmlessly) and store nothing; they stay
    // for the barriers.
    let quad_here = min(quad, quads - 1u);
    let vecs_per_block = oc_block / 4u;
    var acc: array<vec4<f32>, POINTWISE_MAX_OC_BLOCK>;
    for (var c0 = 0u; c0 < params.ic; c0 += POINTWISE_IC_CHUNK) {
        workgroupBarrier();
        // Each thread stages whole vec4s (4 output channels of one input channel): threads
        // writing components of one vector could race where a backend stores vectors whole.
        for (var e = local; e < POINTWISE_IC_CHUNK * vecs_per_block; e += wg_size) {
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
        workgroupBarrier();
        let count = min(POINTWISE_IC_CHUNK, params.ic - c0);
        var at = (b * params.ic + c0) * quads + quad_here;
        for (var i = 0u; i < count; i++) {
            let x = vec4<f32>(input[at]);
            for (var v = 0u; v < vecs_per_block; v++) {
                let w = pointwise_weights[i * (POINTWISE_MAX_OC_BLOCK / 4u) + v];
                acc[4u * v] = fma(vec4<f32>(w.x), x, acc[4u * v]);
                acc[4u * v + 1u] = fma(vec4<f32>(w.y), x, acc[4u * v + 1u]);
                acc[4u * v + 2u] = fma(vec4<f32>(w.z), x, acc[4u * v + 2u]);
                acc[4u * v + 3u] = fma(vec4<f32>(w.w), x, acc[4u * v + 3u]);
            }
            at += quads;
        }
    }
    if (!inside) {
        return;
    }
    for (var o = 0u; o < oc_block; o++) {
        let oc = oc0 + o;
        if (oc < params.oc) {
            // Read only when bound: without a bias the binding is a 4-float placeholder.
            var bias_value = 0.0;
            if (params.has_bias != 0u) {
                bias_value = {{ to_f32 }}(bias[oc]);
            }
            let v = activate(acc[o] + vec4<f32>(bias_value));
            output[(b * params.oc + oc) * quads + quad] = {{ "vec4<f16>" if out == "f16" else "" }}(v);
        }
    }
}
