{% import "prelude/conv.wgsl" as conv %}
{# variants: f16 #}
{% set max_oc_block = 16 %}
{% set ic_chunk = 4 %}
{% set max_taps = 49 %}
// Direct convolution (not transposed, one group) in register blocks, for layers whose input
// channels × taps are few (stems; 16–64-channel layers with small filters on large grids): each
// thread computes 4 consecutive output columns of one row for a block of up to 16 output
// channels. Per input channel and tap, 4 input loads (neighbouring threads' columns: coalesced
// at stride 1, and the taps of one row overlap, so most come from the L1 cache) and oc_block / 4
// vec4 weight loads from workgroup memory feed 4 · oc_block multiply-adds; the filter's size is a
// pipeline constant, so the tap loops unroll and their loads are in flight together. Where a
// GEMM tile would stage a K loop of a few steps (K = IC · KH · KW of 27–576) and run 32 output
// channels' tile rows mostly empty, this keeps no K-tile. The weights of the block are staged
// BLOCK_IC_CHUNK input channels at a time; workgroups of one pixel chunk for each output-channel
// block are consecutive, so the blocks after the first read the chunk's input from the L2 cache.
// The chunks run through the batch's output rows one after another.
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
// Input channels per staged weight chunk.
const BLOCK_IC_CHUNK: u32 = {{ ic_chunk }}u;
// The most filter taps (KH × KW) a staged chunk holds per input channel: a 7×7 filter.
const BLOCK_MAX_TAPS: u32 = {{ max_taps }}u;

// The block's weights for BLOCK_IC_CHUNK input channels: channel c's tap t for output channels
// o..o+3 is the vec4 (c · BLOCK_MAX_TAPS + t) · (BLOCK_MAX_OC / 4) + o / 4.
var<workgroup> block_weights: array<vec4<f32>, {{ ic_chunk * max_taps * max_oc_block // 4 }}>;

{{ conv.staged_weight() }}

// Stages every tap of output channels oc0..oc0 + oc_block for input channels c0..c0 + 3 in
// `block_weights`, shared out over the workgroup; channels past the last are zeros. Each thread
// stages whole vec4s (4 output channels of one tap): threads writing components of one vector
// could race where a backend stores vectors whole.
fn stage_block_weights(c0: u32, oc0: u32, local: u32) {
    let taps = spec_kh * spec_kw;
    let vecs = oc_block / 4u;
    let per_channel = taps * vecs;
    let per_oc = params.ic * taps;
    for (var e = local; e < BLOCK_IC_CHUNK * per_channel; e += wg_size) {
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
        block_weights[(c * BLOCK_MAX_TAPS + t) * (BLOCK_MAX_OC / 4u) + v] = w;
    }
}

// The input at column `ix` of the row starting at `row_at`; 0 where `inside` is false or the
// column is outside the row (the load itself is clamped into the row, so always in bounds).
fn block_tap(row_at: u32, ix: i32, inside: bool) -> f32 {
    let column = u32(clamp(ix, 0, i32(params.iw) - 1));
    return select(0.0, {{ to_f32 }}(input[row_at + column]), inside && ix >= 0 && ix < i32(params.iw));
}

@compute @workgroup_size(wg_size)
fn conv2d_block(
    @builtin(workgroup_id) wid: vec3<u32>,
    @builtin(num_workgroups) groups: vec3<u32>,
    @builtin(local_invocation_index) local: u32,
) {
    // Workgroup-uniform: (chunk of runs of 4 columns, output-channel block), the block fastest.
    let workgroup = wid.y * groups.x + wid.x;
    let runs_per_row = (params.ow + 3u) / 4u;
    let all_runs = params.n * params.oh * runs_per_row;
    let blocks = (params.oc + oc_block - 1u) / oc_block;
    let oc0 = workgroup % blocks * oc_block;
    let chunk = workgroup / blocks;
    if (chunk * wg_size >= all_runs) {
        return;
    }
    let run = chunk * wg_size + local;
    let inside = run < all_runs;
    // Threads past the batch's last run compute a copy of it (harmlessly) and store nothing;
    // they stay for the barriers.
    let run_here = min(run, all_runs - 1u);
    let ox0 = run_here % runs_per_row * 4u;
    let row = run_here / runs_per_row;
    let oy = row % params.oh;
    let b = row / params.oh;
    // Output column ox0 + j reads input column ix0 + j · stride + kx · dilation.
    let sw = i32(spec_stride_w);
    let ix0 = i32(ox0 * spec_stride_w) - i32(spec_pad_w);
    let iy0 = i32(oy * spec_stride_h) - i32(spec_pad_h);
    let column_inside = vec4<bool>(ox0 < params.ow, ox0 + 1u < params.ow, ox0 + 2u < params.ow, ox0 + 3u < params.ow);
    let vecs = oc_block / 4u;
    var acc: array<vec4<f32>, BLOCK_MAX_OC>;
    for (var c0 = 0u; c0 < params.ic; c0 += BLOCK_IC_CHUNK) {
        workgroupBarrier();
        stage_block_weights(c0, oc0, local);
        workgroupBarrier();
        let count = min(BLOCK_IC_CHUNK, params.ic - c0);
        for (var c = 0u; c < count; c++) {
            let plane = (b * params.ic + c0 + c) * params.ih;
            for (var ky = 0u; ky < spec_kh; ky++) {
                let iy = iy0 + i32(ky * spec_dilation_h);
                let row_inside = iy >= 0 && iy < i32(params.ih);
                let row_at = (plane + u32(clamp(iy, 0, i32(params.ih) - 1))) * params.iw;
                for (var kx = 0u; kx < spec_kw; kx++) {
                    let ix = ix0 + i32(kx * spec_dilation_w);
                    let x = vec4<f32>(
                        block_tap(row_at, ix, row_inside && column_inside.x),
                        block_tap(row_at, ix + sw, row_inside && column_inside.y),
                        block_tap(row_at, ix + 2 * sw, row_inside && column_inside.z),
                        block_tap(row_at, ix + 3 * sw, row_inside && column_inside.w),
                    );
                    let first = (c * BLOCK_MAX_TAPS + ky * spec_kw + kx) * (BLOCK_MAX_OC / 4u);
                    for (var v = 0u; v < vecs; v++) {
                        let w = block_weights[first + v];
                        acc[4u * v] = fma(vec4<f32>(w.x), x, acc[4u * v]);
                        acc[4u * v + 1u] = fma(vec4<f32>(w.y), x, acc[4u * v + 1u]);
                        acc[4u * v + 2u] = fma(vec4<f32>(w.z), x, acc[4u * v + 2u]);
                        acc[4u * v + 3u] = fma(vec4<f32>(w.w), x, acc[4u * v + 3u]);
                    }
                }
            }
        }
    }
    if (!inside) {
        return;
    }
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
            let at = ((b * params.oc + oc) * params.oh + oy) * params.ow + ox0;
            output[at] = {{ to_out }}(v.x);
            if (column_inside.y) {
                output[at + 1u] = {{ to_out }}(v.y);
            }
            if (column_inside.z) {
                output[at + 2u] = {{ to_out }}(v.z);
            }
            if (column_inside.w) {
                output[at + 3u] = {{ to_out }}(v.w);
            }
        }
    }
}
