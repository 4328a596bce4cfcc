{% import "prelude/conv.wgsl" as conv %}
{# variants: f16 #}
// Depthwise convolution through a workgroup input tile (one input channel per group, any
// channel multiplier), fp32 NCHW.
//
// A workgroup of 32×8 threads computes a 32-column × (8·rows_per_thread)-row block of one output
// plane. It first copies the block's input window, halo included, into workgroup memory with
// consecutive threads on consecutive addresses (every global load coalesced, every input element
// read from global memory once per block), then each thread computes rows_per_thread outputs of
// one column from that copy. The filter geometry is specialised into the pipeline so the window
// size and tap offsets are constants. Memory-bound: the target is the copy roofline.
// Workgroups form a folded 1D grid: block = wid.y · groups_stride_x + wid.x.

{% if io == "f16" or out == "f16" %}
enable f16;

{% endif %}
{{ conv.params_struct() }}

@group(0) @binding(0) var<storage, read> input: array<{{ io }}>;
@group(0) @binding(1) var<storage, read> weight: array<{{ io }}>;
@group(0) @binding(2) var<storage, read> bias: array<{{ io }}>;
@group(0) @binding(3) var<storage, read_write> output: array<{{ out }}>;
@group(0) @binding(4) var<uniform> params: ConvParams;

// Workgroups per row of the folded grid.
override groups_stride_x: u32;
// Output rows per thread: 1, 2 or 4 (the block is 8 · rows_per_thread rows tall).
override rows_per_thread: u32 = 4;
{{ conv.activation_overrides() }}
// The filter geometry, specialised into the pipeline. Must equal the uniform's values.
{{ conv.spec_overrides(3, 1) }}

// 16 KiB: WebGPU's default workgroup storage limit. The planner only picks this kernel when the
// input window, ((32 − 1)·sW + (KW − 1)·dW + 1) × ((rows − 1)·sH + (KH − 1)·dH + 1), fits.
const TILE_CAPACITY: u32 = 4096u;
const BLOCK_W: u32 = 32u;
var<workgroup> window: array<f32, TILE_CAPACITY>;

{{ conv.activate() }}

// Adds one filter tap to the output `row_in_block` rows below the thread's first row.
fn tap(acc: f32, row_in_block: u32, x: u32, ky: u32, kx: u32, window_w: u32, w: f32) -> f32 {
    let r = row_in_block * spec_stride_h + ky * spec_dilation_h;
    return fma(window[r * window_w + x * spec_stride_w + kx * spec_dilation_w], w, acc);
}

// Window element li + 256·k (zero outside the image, which is the padding); 0 past the window.
fn fetch(k: u32, li: u32, count: u32, window_w: u32, ix0: i32, iy0: i32, in_plane: u32) -> f32 {
    let i = li + 256u * k;
    if (256u * k >= count || i >= count) {
        return 0.0;
    }
    let iy = iy0 + i32(i / window_w);
    let ix = ix0 + i32(i % window_w);
    let inside = iy >= 0 && iy < i32(params.ih) && ix >= 0 && ix < i32(params.iw);
    let at = in_plane + u32(select(0, iy * i32(params.iw) + ix, inside));
    return select(0.0, {{ to_f32 }}(input[at]), inside);
}

fn stage(k: u32, li: u32, count: u32, v: f32) {
    let i = li + 256u * k;
    if (256u * k < count && i < count) {
        window[i] = v;
    }
}

fn put(plane: u32, oy: u32, ox: u32, v: f32, b: f32) {
    if (oy < params.oh && ox < params.ow) {
        output[(plane * params.oh + oy) * params.ow + ox] = {{ to_out }}(activate(v + b));
    }
}

@compute @workgroup_size(32, 8)
fn conv2d_depthwise_tiled(
    @builtin(local_invocation_id) lid: vec3<u32>,
    @builtin(local_invocation_index) li: u32,
    @builtin(workgroup_id) wid: vec3<u32>,
) {
    let block_h = 8u * rows_per_thread;
    let blocks_x = (params.ow + BLOCK_W - 1u) / BLOCK_W;
    let blocks_y = (params.oh + block_h - 1u) / block_h;
    let block = wid.y * groups_stride_x + wid.x;
    // Uniform per workgroup, so the early exit keeps the barrier below in uniform control flow.
    if (block >= blocks_x * blocks_y * params.n * params.oc) {
        return;
    }
    let bx = block % blocks_x;
    let rest = block / blocks_x;
    let by = rest % blocks_y;
    let plane = rest / blocks_y;
    let oc = plane % params.oc;
    let b = plane / params.oc;
    let ic = oc / (params.oc / params.groups);
    let ox0 = bx * BLOCK_W;
    let oy0 = by * block_h;

    // The input window of this block, zero outside the image (that is the padding).
    let window_w = (BLOCK_W - 1u) * spec_stride_w + (spec_kw - 1u) * spec_dilation_w + 1u;
    let window_h = (block_h - 1u) * spec_stride_h + (spec_kh - 1u) * spec_dilation_h + 1u;
    let ix0 = i32(ox0 * spec_stride_w) - i32(spec_pad_w);
    let iy0 = i32(oy0 * spec_stride_h) - i32(spec_pad_h);
    let in_plane = (b * params.ic + ic) * params.ih * params.iw;
    // Element li + 256·k of the window for k < 16 (TILE_CAPACITY / 256): all loads are issued
    // before the first store so they are in flight together (a loop would wait for each in
    // turn); calls past the window's size fold away, since it is a pipeline constant.
    let count = window_w * window_h;
    let v0 = fetch(0u, li, count, window_w, ix0, iy0, in_plane);
    let v1 = fetch(1u, li, count, window_w, ix0, iy0, in_plane);
    let v2 = fetch(2u, li, count, window_w, ix0, iy0, in_plane);
    let v3 = fetch(3u, li, count, window_w, ix0, iy0, in_plane);
    let v4 = fetch(4u, li, count, window_w, ix0, iy0, in_plane);
    let v5 = fetch(5u, li, count, window_w, ix0, iy0, in_plane);
    let v6 = fetch(6u, li, count, window_w, ix0, iy0, in_plane);
    let v7 = fetch(7u, li, count, window_w, ix0, iy0, in_plane);
    let v8 = fetch(8u, li, count, window_w, ix0, iy0, in_plane);
    let v9 = fetch(9u, li, count, window_w, ix0, iy0, in_plane);
    let v10 = fetch(10u, li, count, window_w, ix0, iy0, in_plane);
    let v11 = fetch(11u, li, count, window_w, ix0, iy0, in_plane);
    let v12 = fetch(12u, li, count, window_w, ix0, iy0, in_plane);
    let v13 = fetch(13u, li, count, window_w, ix0, iy0, in_plane);
    let v14 = fetch(14u, li, count, window_w, ix0, iy0, in_plane);
    let v15 = fetch(15u, li, count, window_w, ix0, iy0, in_plane);
    stage(0u, li, count, v0);
    stage(1u, li, count, v1);
    stage(2u, li, count, v2);
    stage(3u, li, count, v3);
    stage(4u, li, count, v4);
    stage(5u, li, count, v5);
    stage(6u, li, count, v6);
    stage(7u, li, count, v7);
    stage(8u, li, count, v8);
    stage(9u, li, count, v9);
    stage(10u, li, count, v10);
    stage(11u, li, count, v11);
    stage(12u, li, count, v12);
    stage(13u, li, count, v13);
    stage(14u, li, count, v14);
    stage(15u, li, count, v15);
    workgroupBarrier();

    // Rows lid.y + 8·j of the block; named accumulators (private arrays would spill).
    var acc0 = 0.0;
    var acc1 = 0.0;
    var acc2 = 0.0;
    var acc3 = 0.0;
    let w_base = oc * spec_kh * spec_kw;
    for (var ky = 0u; ky < spec_kh; ky++) {
        for (var kx = 0u; kx < spec_kw; kx++) {
            let w = {{ to_f32 }}(weight[w_base + ky * spec_kw + kx]);
            acc0 = tap(acc0, lid.y, lid.x, ky, kx, window_w, w);
            if (rows_per_thread > 1u) {
                acc1 = tap(acc1, lid.y + 8u, lid.x, ky, kx, window_w, w);
            }
            if (rows_per_thread > 2u) {
                acc2 = tap(acc2, lid.y + 16u, lid.x, ky, kx, window_w, w);
                acc3 = tap(acc3, lid.y + 24u, lid.x, ky, kx, window_w, w);
            }
        }
    }
    // Read only when bound: without a bias the binding is a 4-float placeholder.
    var bias_value = 0.0;
    if (params.has_bias != 0u) {
        bias_value = {{ to_f32 }}(bias[oc]);
    }
    let ox = ox0 + lid.x;
    let oy = oy0 + lid.y;
    put(plane, oy, ox, acc0, bias_value);
    if (rows_per_thread > 1u) {
        put(plane, oy + 8u, ox, acc1, bias_value);
    }
    if (rows_per_thread > 2u) {
        put(plane, oy + 16u, ox, acc2, bias_value);
        put(plane, oy + 24u, ox, acc3, bias_value);
    }
}
