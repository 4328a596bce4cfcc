{% import "prelude/conv.wgsl" as conv %}
{% import "prelude/depthwise_runs.wgsl" as runs %}
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

{{ runs.overrides() }}

{{ runs.window(4) }}

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

{{ runs.entry("conv2d_depthwise_vec4", 4, "vec4<f32>(0.0)", to_f32 ~ "(bias[oc])") }}
