{% import "prelude/conv.wgsl" as conv %}
{# variants: f16 #}
// Depthwise convolution (one input channel per group, any channel multiplier), fp32 NCHW, with
// the filter geometry specialised into the pipeline.
//
// Each thread computes `rows_per_thread` consecutive output rows of one output column, and
// consecutive threads take consecutive columns of the same rows (every load and store of a warp
// coalesced). The thread walks the input rows its outputs need once each: every input element it
// loads feeds all of its outputs that use it (3×3, stride 1, 4 rows: 18 loads for 4 outputs,
// where one output at a time needs 36). Every loop runs over pipeline constants, so the driver
// unrolls them and resolves which filter tap each (input row, output row) pair uses at compile
// time. No workgroup memory and no barrier: the neighbouring columns' loads hit the L1 cache.
// Memory-bound: the target is the copy roofline.

{% if io == "f16" or out == "f16" %}
enable f16;

{% endif %}
{{ conv.params_struct() }}

@group(0) @binding(0) var<storage, read> input: array<{{ io }}>;
@group(0) @binding(1) var<storage, read> weight: array<{{ io }}>;
@group(0) @binding(2) var<storage, read> bias: array<{{ io }}>;
@group(0) @binding(3) var<storage, read_write> output: array<{{ out }}>;
@group(0) @binding(4) var<uniform> params: ConvParams;

override wg_size: u32 = 256;
// Threads per row of the (possibly folded) 2D grid.
override stride_x: u32;
// Consecutive output rows per thread, 1 to 8.
override rows_per_thread: u32 = 4;
{{ conv.activation_overrides() }}
// The filter geometry, specialised into the pipeline. Must equal the uniform's values.
{{ conv.spec_overrides(3, 1) }}

{{ conv.activate() }}

// Adds input value `v` (window row `r`, filter column `kx`) to the sum of the thread's output
// row `j` when a filter row maps that output row onto that input row: r = j·sH + ky·dH. With
// `j`, `r` and `kx` constants after unrolling, the test folds away.
fn add(acc: f32, j: u32, r: u32, kx: u32, v: f32, w_base: u32) -> f32 {
    if (j >= rows_per_thread || r < j * spec_stride_h) {
        return acc;
    }
    let d = r - j * spec_stride_h;
    if (d % spec_dilation_h != 0u || d / spec_dilation_h >= spec_kh) {
        return acc;
    }
    return fma(v, {{ to_f32 }}(weight[w_base + (d / spec_dilation_h) * spec_kw + kx]), acc);
}

fn put(at: u32, j: u32, oy: u32, v: f32, b: f32) {
    if (j < rows_per_thread && oy < params.oh) {
        output[at] = {{ to_out }}(activate(v + b));
    }
}

@compute @workgroup_size(wg_size)
fn conv2d_depthwise_rows(@builtin(global_invocation_id) gid: vec3<u32>) {
    let index = gid.y * stride_x + gid.x;
    let row_blocks = (params.oh + rows_per_thread - 1u) / rows_per_thread;
    if (index >= params.n * params.oc * row_blocks * params.ow) {
        return;
    }
    let ox = index % params.ow;
    let t = index / params.ow;
    let oy0 = (t % row_blocks) * rows_per_thread;
    let plane = t / row_blocks;
    let oc = plane % params.oc;
    let b = plane / params.oc;
    let ic = oc / (params.oc / params.groups);
    let ix0 = i32(ox * spec_stride_w) - i32(spec_pad_w);
    let iy0 = i32(oy0 * spec_stride_h) - i32(spec_pad_h);
    let in_plane = (b * params.ic + ic) * params.ih;
    let w_base = oc * spec_kh * spec_kw;
    // Named accumulators for up to 8 rows (a private array would go to local memory).
    var acc0 = 0.0;
    var acc1 = 0.0;
    var acc2 = 0.0;
    var acc3 = 0.0;
    var acc4 = 0.0;
    var acc5 = 0.0;
    var acc6 = 0.0;
    var acc7 = 0.0;
    let window_h = (rows_per_thread - 1u) * spec_stride_h + (spec_kh - 1u) * spec_dilation_h + 1u;
    for (var r = 0u; r < window_h; r++) {
        let iy = iy0 + i32(r);
        let row_inside = iy >= 0 && iy < i32(params.ih);
        let row = (in_plane + u32(select(0, iy, row_inside))) * params.iw;
        for (var kx = 0u; kx < spec_kw; kx++) {
            let ix = ix0 + i32(kx * spec_dilation_w);
            let inside = row_inside && ix >= 0 && ix < i32(params.iw);
            let v = select(0.0, {{ to_f32 }}(input[row + u32(select(0, ix, inside))]), inside);
            acc0 = add(acc0, 0u, r, kx, v, w_base);
            acc1 = add(acc1, 1u, r, kx, v, w_base);
            acc2 = add(acc2, 2u, r, kx, v, w_base);
            acc3 = add(acc3, 3u, r, kx, v, w_base);
            acc4 = add(acc4, 4u, r, kx, v, w_base);
            acc5 = add(acc5, 5u, r, kx, v, w_base);
            acc6 = add(acc6, 6u, r, kx, v, w_base);
            acc7 = add(acc7, 7u, r, kx, v, w_base);
        }
    }
    // Read only when bound: without a bias the binding is a 4-float placeholder.
    var bias_value = 0.0;
    if (params.has_bias != 0u) {
        bias_value = {{ to_f32 }}(bias[oc]);
    }
    let at = (plane * params.oh + oy0) * params.ow + ox;
    let ow = params.ow;
    put(at, 0u, oy0, acc0, bias_value);
    put(at + ow, 1u, oy0 + 1u, acc1, bias_value);
    put(at + 2u * ow, 2u, oy0 + 2u, acc2, bias_value);
    put(at + 3u * ow, 3u, oy0 + 3u, acc3, bias_value);
    put(at + 4u * ow, 4u, oy0 + 4u, acc4, bias_value);
    put(at + 5u * ow, 5u, oy0 + 5u, acc5, bias_value);
    put(at + 6u * ow, 6u, oy0 + 6u, acc6, bias_value);
    put(at + 7u * ow, 7u, oy0 + 7u, acc7, bias_value);
}
