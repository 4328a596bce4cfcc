{% import "prelude/conv.wgsl" as conv %}
{# variants: f16 #}
// Depthwise convolution (one input channel per group, any channel multiplier), fp32 NCHW, for
// input and output widths that are multiples of 4, with the filter geometry specialised into
// the pipeline.
//
// Each thread computes four consecutive output columns of `rows_per_thread` consecutive output
// rows, and consecutive threads take consecutive quads of columns (every access of a warp
// coalesced). Rows are 16-byte aligned, so the input columns a thread's quad needs are covered
// by a few aligned vec4 loads per input row (3×3, stride 1: three, of which the middle one is
// the thread's own and the outer two are its neighbours' and hit the L1 cache), and each input
// row is loaded once for all of the thread's output rows that use it: 3×3, stride 1, 4 rows
// take 18 vec4 loads for 16 outputs. Every loop runs over pipeline constants, so the driver
// unrolls them and resolves which loaded lane feeds which output at compile time.
// Memory-bound: the target is the copy roofline.

{% if io == "f16" or out == "f16" %}
enable f16;

{% endif %}
{{ conv.params_struct() }}

@group(0) @binding(0) var<storage, read> input: array<vec4<{{ io }}>>;
@group(0) @binding(1) var<storage, read> weight: array<{{ io }}>;
@group(0) @binding(2) var<storage, read> bias: array<{{ io }}>;
@group(0) @binding(3) var<storage, read_write> output: array<vec4<{{ out }}>>;
@group(0) @binding(4) var<uniform> params: ConvParams;

override wg_size: u32 = 256;
// Threads per row of the (possibly folded) 2D grid.
override stride_x: u32;
// Consecutive output rows per thread, 1 to 4.
override rows_per_thread: u32 = 4;
{{ conv.activation_overrides() }}
// The filter geometry, specialised into the pipeline. Must equal the uniform's values.
{{ conv.spec_overrides(3, 1) }}

// The input columns a quad of outputs needs, 4t·sW − pW + e for e < span(), start offset()
// lanes into an aligned vec4 (4t·sW is a multiple of 4), so vecs() aligned vec4s cover them.
// The planner only picks this kernel when vecs() ≤ 4. All three are pipeline constants.
fn span() -> u32 {
    return 3u * spec_stride_w + (spec_kw - 1u) * spec_dilation_w + 1u;
}

fn offset() -> u32 {
    return (4u - spec_pad_w % 4u) % 4u;
}

fn vecs() -> u32 {
    return (offset() + span() + 3u) / 4u;
}

{{ conv.activate(vec4=true) }}

// Lane e of the loaded window v0..v3 (e a constant after unrolling, so this folds to a register).
fn lane(v0: vec4<f32>, v1: vec4<f32>, v2: vec4<f32>, v3: vec4<f32>, e: u32) -> f32 {
    let k = e / 4u;
    if (k == 0u) {
        return v0[e % 4u];
    }
    if (k == 1u) {
        return v1[e % 4u];
    }
    if (k == 2u) {
        return v2[e % 4u];
    }
    return v3[e % 4u];
}

// Adds window row `r`'s contribution at filter column `kx` to the thread's output row `j`
// when a filter row maps that output row onto that input row (r = j·sH + ky·dH).
fn add(acc: vec4<f32>, j: u32, r: u32, kx: u32, v0: vec4<f32>, v1: vec4<f32>, v2: vec4<f32>, v3: vec4<f32>, w_base: u32) -> vec4<f32> {
    if (j >= rows_per_thread || r < j * spec_stride_h) {
        return acc;
    }
    let d = r - j * spec_stride_h;
    if (d % spec_dilation_h != 0u || d / spec_dilation_h >= spec_kh) {
        return acc;
    }
    let w = {{ to_f32 }}(weight[w_base + (d / spec_dilation_h) * spec_kw + kx]);
    let e = offset() + kx * spec_dilation_w;
    let x = vec4<f32>(
        lane(v0, v1, v2, v3, e),
        lane(v0, v1, v2, v3, e + spec_stride_w),
        lane(v0, v1, v2, v3, e + 2u * spec_stride_w),
        lane(v0, v1, v2, v3, e + 3u * spec_stride_w),
    );
    return fma(x, vec4<f32>(w), acc);
}

// Aligned vec4 `k` of the window row starting at vec4 `row4` + `v_lo`: zero outside the image
// (the padding); whole vec4s are in or out, since the width is a multiple of 4.
fn fetch(row4: u32, row_inside: bool, v_lo: i32, k: u32) -> vec4<f32> {
    let v = v_lo + i32(k);
    let inside = row_inside && k < vecs() && v >= 0 && v < i32(params.iw / 4u);
    return select(vec4<f32>(0.0), {{ "vec4<f32>" if io == "f16" else "" }}(input[row4 + u32(select(0, v, inside))]), inside);
}

fn put(at: u32, j: u32, oy: u32, v: vec4<f32>, b: f32) {
    if (j < rows_per_thread && oy < params.oh) {
        output[at] = {{ "vec4<f16>" if out == "f16" else "" }}(activate(v + vec4<f32>(b)));
    }
}

@compute @workgroup_size(wg_size)
fn conv2d_depthwise_vec4(@builtin(global_invocation_id) gid: vec3<u32>) {
    let index = gid.y * stride_x + gid.x;
    let quads = params.ow / 4u;
    let row_blocks = (params.oh + rows_per_thread - 1u) / rows_per_thread;
    if (index >= params.n * params.oc * row_blocks * quads) {
        return;
    }
    let t = index % quads;
    let rest = index / quads;
    let oy0 = (rest % row_blocks) * rows_per_thread;
    let plane = rest / row_blocks;
    let oc = plane % params.oc;
    let b = plane / params.oc;
    let ic = oc / (params.oc / params.groups);
    // First aligned vec4 of the window: (4t·sW − pW − offset()) / 4, exact by construction.
    let v_lo = (i32(4u * t * spec_stride_w) - i32(spec_pad_w) - i32(offset())) / 4;
    let iy0 = i32(oy0 * spec_stride_h) - i32(spec_pad_h);
    let in_plane = (b * params.ic + ic) * params.ih;
    let w_base = oc * spec_kh * spec_kw;
    var acc0 = vec4<f32>(0.0);
    var acc1 = vec4<f32>(0.0);
    var acc2 = vec4<f32>(0.0);
    var acc3 = vec4<f32>(0.0);
    let window_h = (rows_per_thread - 1u) * spec_stride_h + (spec_kh - 1u) * spec_dilation_h + 1u;
    for (var r = 0u; r < window_h; r++) {
        let iy = iy0 + i32(r);
        let row_inside = iy >= 0 && iy < i32(params.ih);
        let row4 = (in_plane + u32(select(0, iy, row_inside))) * (params.iw / 4u);
        let v0 = fetch(row4, row_inside, v_lo, 0u);
        let v1 = fetch(row4, row_inside, v_lo, 1u);
        let v2 = fetch(row4, row_inside, v_lo, 2u);
        let v3 = fetch(row4, row_inside, v_lo, 3u);
        for (var kx = 0u; kx < spec_kw; kx++) {
            acc0 = add(acc0, 0u, r, kx, v0, v1, v2, v3, w_base);
            acc1 = add(acc1, 1u, r, kx, v0, v1, v2, v3, w_base);
            acc2 = add(acc2, 2u, r, kx, v0, v1, v2, v3, w_base);
            acc3 = add(acc3, 3u, r, kx, v0, v1, v2, v3, w_base);
        }
    }
    // Read only when bound: without a bias the binding is a 4-float placeholder.
    var bias_value = 0.0;
    if (params.has_bias != 0u) {
        bias_value = {{ to_f32 }}(bias[oc]);
    }
    let at = (plane * params.oh + oy0) * quads + t;
    put(at, 0u, oy0, acc0, bias_value);
    put(at + quads, 1u, oy0 + 1u, acc1, bias_value);
    put(at + 2u * quads, 2u, oy0 + 2u, acc2, bias_value);
    put(at + 3u * quads, 3u, oy0 + 3u, acc3, bias_value);
}
