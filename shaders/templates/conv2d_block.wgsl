{% import "prelude/conv.wgsl" as conv %}
{# variants: f16 #}
{% set max_oc_block = 16 %}
{% set ic_chunk = 4 %}
{% set max_taps = 49 %}
// Direct convolution (not transposed, one group) in register blocks, for layers whose input
// channels × taps are few (stems; 16–64-channel layers with small filters on large grids): each
// thread computes 4 output pixels, BLOCK_LANES apart in the batch's flattened output, for a block
// of up to 16 output channels. Per input channel and tap, 4 input loads and oc_block / 4 vec4
// weight loads from workgroup memory feed 4 · oc_block multiply-adds; the filter's size is a
// pipeline constant, so the tap loops unroll and their loads are in flight together. Where a
// GEMM tile would stage a K loop of a few steps (K = IC · KH · KW of 27–576) and run 32 output
// channels' tile rows mostly empty, this keeps no K-tile.
// Why the pixels interleave: BLOCK_LANES neighbouring threads (a warp on NVIDIA) load the taps of
// BLOCK_LANES consecutive pixels in one instruction, one 128-byte line at stride 1 and two at
// stride 2. Runs of 4 consecutive pixels per thread made each such load touch a 32-byte sector
// per thread (8 lines at stride 2), so the L1 cache, not the multiply-adds, set the pace (v51).
// The weights of the block are staged for as many input channels as the workgroup array holds
// (at 16 channels a block: 21 of a 3×3 filter, 4 of a 7×7); workgroups of one pixel chunk for each output-channel block
// are consecutive, so the blocks after the first read the chunk's input from the L2 cache.
// Tensors are {{ io }} (the output {{ out }}); the arithmetic is f32.

{% if io == "f16" or out == "f16" %}
enable f16;

{% endif %}
{{ conv.params_struct() }}

@group(0) @binding(0) var<storage, read> input: array<{{ io }}>;
@group(0) @binding(1) var<storage, read> weight: array<{{ io }}>;
@group(0) @binding(2) var<storage, read> bias: array<{{ io }}>;
@group(0) @binding(3) var<storage, read_write> output: array<{{ out }}>;
@group(0) @binding(4) var<uniform> params: ConvParams;

// Threads per workgroup.
override wg_size: u32 = 128;
// Output channels per thread: a multiple of 4, at most BLOCK_MAX_OC.
override oc_block: u32 = {{ max_oc_block }};
{{ conv.spec_overrides(3, 1) }}
{{ conv.activation_overrides() }}

{{ conv.activate(vec4=true) }}

// The most output channels per thread (the accumulators' and staged weights' size).
const BLOCK_MAX_OC: u32 = {{ max_oc_block }}u;
// Input channels whose every tap the staged weights hold at the largest filter and widest block
// (the fewest a chunk stages: `block_chunk_channels` stages more where they fit).
const BLOCK_IC_CHUNK: u32 = {{ ic_chunk }}u;
// The most filter taps (KH × KW) a thread's taps cover per input channel: a 7×7 filter.
const BLOCK_MAX_TAPS: u32 = {{ max_taps }}u;
// Output pixels per thread.
const BLOCK_RUN: u32 = 4u;
// Threads whose pixels interleave (a thread's pixels lie BLOCK_LANES apart): a warp on NVIDIA.
const BLOCK_LANES: u32 = 32u;
// vec4s of staged weights: every tap of BLOCK_IC_CHUNK input channels at the widest block.
const BLOCK_WEIGHT_VECS: u32 = {{ ic_chunk * max_taps * max_oc_block // 4 }}u;

// The block's weights for a chunk of input channels: channel c's tap t for output channels
// o..o+3 is the vec4 (c · taps + t) · (oc_block / 4) + o / 4.
var<workgroup> block_weights: array<vec4<f32>, BLOCK_WEIGHT_VECS>;

{{ conv.staged_weight() }}

// Input channels per staged chunk: as many as `block_weights` holds at this filter and block.
fn block_chunk_channels() -> u32 {
    return BLOCK_WEIGHT_VECS / (spec_kh * spec_kw * (oc_block / 4u));
}

// Stages every tap of output channels oc0..oc0 + oc_block for input channels
// c0..c0 + block_chunk_channels() in `block_weights`, shared out over the workgroup; channels
// past the last are zeros. Each thread stages whole vec4s (4 output channels of one tap):
// threads writing components of one vector could race where a backend stores vectors whole.
fn stage_block_weights(c0: u32, oc0: u32, local: u32) {
    let taps = spec_kh * spec_kw;
    let vecs = oc_block / 4u;
    let per_channel = taps * vecs;
    let per_oc = params.ic * taps;
    for (var e = local; e < block_chunk_channels() * per_channel; e += wg_size) {
        let c = e / per_channel;
        let t = e % per_channel / vecs;
        let v = e % vecs;
        var w = vec4<f32>();
        if (c0 + c < params.ic) {
            let o = oc0 + 4u * v;
            let at = o * per_oc + (c0 + c) * taps + t;
            w = vec4<f32>(
                staged_weight(o, at),
                staged_weight(o + 1u, at + per_oc),
                staged_weight(o + 2u, at + 2u * per_oc),
                staged_weight(o + 3u, at + 3u * per_oc),
            );
        }
        block_weights[e] = w;
    }
}

@compute @workgroup_size(wg_size)
fn conv2d_block(
    @builtin(workgroup_id) wid: vec3<u32>,
    @builtin(num_workgroups) groups: vec3<u32>,
    @builtin(local_invocation_index) local: u32,
) {
    // Workgroup-uniform: (chunk of wg_size · BLOCK_RUN pixels, output-channel block), the block
    // fastest.
    let workgroup = wid.y * groups.x + wid.x;
    let plane = params.oh * params.ow;
    let pixels = params.n * plane;
    let blocks = (params.oc + oc_block - 1u) / oc_block;
    let oc0 = workgroup % blocks * oc_block;
    let first = workgroup / blocks * wg_size * BLOCK_RUN;
    if (first >= pixels) {
        return;
    }
    // Pixel j of this thread; pixels past the batch's last compute a copy of it (harmlessly)
    // and store nothing: their threads stay for the barriers.
    let base = first + local / BLOCK_LANES * (BLOCK_LANES * BLOCK_RUN) + local % BLOCK_LANES;
    let pixel = vec4<u32>(base) + vec4<u32>(0u, 1u, 2u, 3u) * BLOCK_LANES;
    let inside = pixel < vec4<u32>(pixels);
    let at = min(pixel, vec4<u32>(pixels - 1u));
    let image = at / plane;
    let within = at % plane;
    let oy = within / params.ow;
    let ox = within % params.ow;
    // Pixel j's taps read input row iy0[j] + ky · dilation, column ix0[j] + kx · dilation.
    let iy0 = vec4<i32>(oy * spec_stride_h) - vec4<i32>(i32(spec_pad_h));
    let ix0 = vec4<i32>(ox * spec_stride_w) - vec4<i32>(i32(spec_pad_w));
    let input_plane = params.ih * params.iw;
    let image_at = image * (params.ic * input_plane);
    let vecs = oc_block / 4u;
    let taps = spec_kh * spec_kw;
    var acc: array<vec4<f32>, BLOCK_MAX_OC>;
    for (var c0 = 0u; c0 < params.ic; c0 += block_chunk_channels()) {
        workgroupBarrier();
        stage_block_weights(c0, oc0, local);
        workgroupBarrier();
        let count = min(block_chunk_channels(), params.ic - c0);
        for (var c = 0u; c < count; c++) {
            let channel_at = image_at + vec4<u32>((c0 + c) * input_plane);
            for (var ky = 0u; ky < spec_kh; ky++) {
                let iy = iy0 + vec4<i32>(i32(ky * spec_dilation_h));
                // One unsigned comparison tests both ends (a negative row wraps past the last).
                let row_inside = vec4<u32>(iy) < vec4<u32>(params.ih);
                let row_at = channel_at + vec4<u32>(iy) * params.iw;
                for (var kx = 0u; kx < spec_kw; kx++) {
                    let ix = ix0 + vec4<i32>(i32(kx * spec_dilation_w));
                    let tap_inside = row_inside & (vec4<u32>(ix) < vec4<u32>(params.iw));
                    // Taps outside the input (padding) load element 0 and use 0.
                    let tap_at = select(vec4<u32>(0u), row_at + vec4<u32>(ix), tap_inside);
                    let x = select(
                        vec4<f32>(0.0),
                        vec4<f32>(
                            {{ to_f32 }}(input[tap_at.x]),
                            {{ to_f32 }}(input[tap_at.y]),
                            {{ to_f32 }}(input[tap_at.z]),
                            {{ to_f32 }}(input[tap_at.w]),
                        ),
                        tap_inside,
                    );
                    let first_vec = (c * taps + ky * spec_kw + kx) * vecs;
                    for (var v = 0u; v < vecs; v++) {
                        let w = block_weights[first_vec + v];
                        acc[4u * v] = fma(vec4<f32>(w.x), x, acc[4u * v]);
                        acc[4u * v + 1u] = fma(vec4<f32>(w.y), x, acc[4u * v + 1u]);
                        acc[4u * v + 2u] = fma(vec4<f32>(w.z), x, acc[4u * v + 2u]);
                        acc[4u * v + 3u] = fma(vec4<f32>(w.w), x, acc[4u * v + 3u]);
                    }
                }
            }
        }
    }
    // Pixel j's output for channel 0; channel oc's is plane · oc further.
    let out_at = image * (params.oc * plane) + within;
    // No early exit from this loop: a loop the driver cannot unroll would index the
    // accumulators with a variable, which puts them in (slow) local memory.
    for (var o = 0u; o < oc_block; o++) {
        let oc = oc0 + o;
        if (oc < params.oc) {
            // Read only when bound: without a bias the binding is a 4-float placeholder.
            var bias_value = 0.0;
            if (params.has_bias != 0u) {
                bias_value = {{ to_f32 }}(bias[oc]);
            }
            let v = activate(acc[o] + vec4<f32>(bias_value));
            let channel_out = out_at + vec4<u32>(oc * plane);
            if (inside.x) {
                output[channel_out.x] = {{ to_out }}(v.x);
            }
            if (inside.y) {
                output[channel_out.y] = {{ to_out }}(v.y);
            }
            if (inside.z) {
                output[channel_out.z] = {{ to_out }}(v.z);
            }
            if (inside.w) {
                output[channel_out.w] = {{ to_out }}(v.w);
            }
        }
    }
}
