{% import "prelude/conv.wgsl" as conv %}
{# variants: f16 #}
// NCHW convolution, one thread per output element (the reference kernels). Tensors are {{ io }}
// (the output {{ out }}); the arithmetic is f32.
//
// Entry points share one uniform and one set of bindings:
//   conv2d            direct convolution, scalar inner loop
//   conv2d_vec4       direct convolution, 4 input channels per step (IC/groups % 4 == 0)
//   conv_transpose2d  transposed convolution in gather form (weight [IC, OC/groups, KH, KW])
//   conv_transpose2d_few_oc  the same for up to 4 output channels per group, all of a pixel's in
//                     one thread, threads ordered by stride phase
//   conv_transpose2d_few_oc_split  the same with K split over 8 threads per run of 4 pixels
//   conv_transpose2d_few_oc_phases  the same at stride 2 × 2, each thread's run 4 blocks of
//                     2 × 2 pixels (one per stride phase) that gather the same input pixels
//   conv2d_few_oc_split  direct convolution with up to 4 output channels per group, K split
//                     over 8 threads per run of 4 pixels of a row
//   conv2d_gemv       direct convolution of at most 4 output pixels in all: the lanes of a
//                     workgroup row share one output channel's K

{% if io == "f16" or out == "f16" %}
enable f16;

{% endif %}
{{ conv.params_struct() }}

@group(0) @binding(0) var<storage, read> input: array<{{ io }}>;
@group(0) @binding(1) var<storage, read> weight: array<{{ io }}>;
@group(0) @binding(2) var<storage, read> bias: array<{{ io }}>;
@group(0) @binding(3) var<storage, read_write> output: array<{{ out }}>;
@group(0) @binding(4) var<uniform> params: ConvParams;

// Threads per workgroup (x).
override wg_size: u32 = 256;
// Threads per row of the dispatch grid: workgroups in x times wg_size. A grid wider than 65535
// workgroups is folded into 2D; the flat output index is gid.y * stride_x + gid.x.
override stride_x: u32;
{{ conv.activation_overrides() }}

{{ conv.activate() }}

fn finish(index: u32, oc: u32, acc: f32) {
    var v = acc;
    if (params.has_bias != 0u) {
        v = v + {{ to_f32 }}(bias[oc]);
    }
    output[index] = {{ to_out }}(activate(v));
}

// Output coordinates of a flat NCHW index: (batch, channel, row, column).
fn decode(index: u32) -> vec4<u32> {
    let ow = index % params.ow;
    let t = index / params.ow;
    let oh = t % params.oh;
    let t2 = t / params.oh;
    return vec4<u32>(t2 / params.oc, t2 % params.oc, oh, ow);
}

fn output_count() -> u32 {
    return params.n * params.oc * params.oh * params.ow;
}

@compute @workgroup_size(wg_size)
fn conv2d(@builtin(global_invocation_id) gid: vec3<u32>) {
    let index = gid.y * stride_x + gid.x;
    if (index >= output_count()) {
        return;
    }
    let c = decode(index);
    let ic_per_group = params.ic / params.groups;
    let oc_per_group = params.oc / params.groups;
    let ic_start = (c.y / oc_per_group) * ic_per_group;
    let iy0 = i32(c.z * params.stride_h) - i32(params.pad_h);
    let ix0 = i32(c.w * params.stride_w) - i32(params.pad_w);
    var acc = 0.0;
    for (var i = 0u; i < ic_per_group; i++) {
        let in_plane = (c.x * params.ic + ic_start + i) * params.ih;
        let w_plane = (c.y * ic_per_group + i) * params.kh;
        for (var ky = 0u; ky < params.kh; ky++) {
            let iy = iy0 + i32(ky * params.dilation_h);
            if (iy < 0 || iy >= i32(params.ih)) {
                continue;
            }
            let in_row = (in_plane + u32(iy)) * params.iw;
            let w_row = (w_plane + ky) * params.kw;
            for (var kx = 0u; kx < params.kw; kx++) {
                let ix = ix0 + i32(kx * params.dilation_w);
                if (ix < 0 || ix >= i32(params.iw)) {
                    continue;
                }
                acc = fma({{ to_f32 }}(input[in_row + u32(ix)]), {{ to_f32 }}(weight[w_row + kx]), acc);
            }
        }
    }
    finish(index, c.y, acc);
}

@compute @workgroup_size(wg_size)
fn conv2d_vec4(@builtin(global_invocation_id) gid: vec3<u32>) {
    let index = gid.y * stride_x + gid.x;
    if (index >= output_count()) {
        return;
    }
    let c = decode(index);
    let ic_per_group = params.ic / params.groups;
    let oc_per_group = params.oc / params.groups;
    let ic_start = (c.y / oc_per_group) * ic_per_group;
    let iy0 = i32(c.z * params.stride_h) - i32(params.pad_h);
    let ix0 = i32(c.w * params.stride_w) - i32(params.pad_w);
    let in_step = params.ih * params.iw;
    let w_step = params.kh * params.kw;
    var acc = vec4<f32>(0.0);
    for (var ky = 0u; ky < params.kh; ky++) {
        let iy = iy0 + i32(ky * params.dilation_h);
        if (iy < 0 || iy >= i32(params.ih)) {
            continue;
        }
        for (var kx = 0u; kx < params.kw; kx++) {
            let ix = ix0 + i32(kx * params.dilation_w);
            if (ix < 0 || ix >= i32(params.iw)) {
                continue;
            }
            var in_at = ((c.x * params.ic + ic_start) * params.ih + u32(iy)) * params.iw + u32(ix);
            var w_at = (c.y * ic_per_group * params.kh + ky) * params.kw + kx;
            // Four input channels per step: one vec4 of strided inputs against one of weights.
            for (var i = 0u; i < ic_per_group; i += 4u) {
                let x = vec4<f32>(
                    {{ to_f32 }}(input[in_at]),
                    {{ to_f32 }}(input[in_at + in_step]),
                    {{ to_f32 }}(input[in_at + 2u * in_step]),
                    {{ to_f32 }}(input[in_at + 3u * in_step]),
                );
                let w = vec4<f32>(
                    {{ to_f32 }}(weight[w_at]),
                    {{ to_f32 }}(weight[w_at + w_step]),
                    {{ to_f32 }}(weight[w_at + 2u * w_step]),
                    {{ to_f32 }}(weight[w_at + 3u * w_step]),
                );
                acc = fma(x, w, acc);
                in_at += 4u * in_step;
                w_at += 4u * w_step;
            }
        }
    }
    finish(index, c.y, acc.x + acc.y + acc.z + acc.w);
}

// Gather form: output (oh, ow) receives input (iy, ix) through tap (ky, kx) when
// oh + pad_h - ky * dilation_h == iy * stride_h (and likewise along W).

// The input row that output row `oh` gathers through filter row `ky`, or -1 when none does.
fn gather_row(oh: u32, ky: u32) -> i32 {
    let t = i32(oh + params.pad_h) - i32(ky * params.dilation_h);
    if (t < 0 || u32(t) % params.stride_h != 0u || u32(t) / params.stride_h >= params.ih) {
        return -1;
    }
    return i32(u32(t) / params.stride_h);
}

// The input column that output column `ow` gathers through filter column `kx`, or -1.
fn gather_column(ow: u32, kx: u32) -> i32 {
    let t = i32(ow + params.pad_w) - i32(kx * params.dilation_w);
    if (t < 0 || u32(t) % params.stride_w != 0u || u32(t) / params.stride_w >= params.iw) {
        return -1;
    }
    return i32(u32(t) / params.stride_w);
}

@compute @workgroup_size(wg_size)
fn conv_transpose2d(@builtin(global_invocation_id) gid: vec3<u32>) {
    let index = gid.y * stride_x + gid.x;
    if (index >= output_count()) {
        return;
    }
    let c = decode(index);
    let ic_per_group = params.ic / params.groups;
    let oc_per_group = params.oc / params.groups;
    let group = c.y / oc_per_group;
    let oc_in_group = c.y % oc_per_group;
    var acc = 0.0;
    for (var ky = 0u; ky < params.kh; ky++) {
        let iy = gather_row(c.z, ky);
        if (iy < 0) {
            continue;
        }
        for (var kx = 0u; kx < params.kw; kx++) {
            let ix = gather_column(c.w, kx);
            if (ix < 0) {
                continue;
            }
            for (var i = 0u; i < ic_per_group; i++) {
                let ic = group * ic_per_group + i;
                let x = {{ to_f32 }}(input[((c.x * params.ic + ic) * params.ih + u32(iy)) * params.iw + u32(ix)]);
                let w = {{ to_f32 }}(weight[((ic * oc_per_group + oc_in_group) * params.kh + ky) * params.kw + kx]);
                acc = fma(x, w, acc);
            }
        }
    }
    finish(index, c.y, acc);
}

// One output pixel (all of its channels in one group) of the few-output-channel kernels, from
// an index ordered by stride phase (output rows and columns of one residue modulo the stride)
// with columns fastest: consecutive indices take the same filter taps, and their loads along a
// row are consecutive.
struct FewOcPixel {
    valid: bool,
    n: u32,
    group: u32,
    oh: u32,
    ow: u32,
}

fn few_oc_pixel(index: u32) -> FewOcPixel {
    var px: FewOcPixel;
    // Rows and columns of one stride phase, rounded up (oh, ow ≥ 1; no wrap for any stride).
    let sub_h = (params.oh - 1u) / params.stride_h + 1u;
    let sub_w = (params.ow - 1u) / params.stride_w + 1u;
    let phases = params.stride_h * params.stride_w;
    let sx = index % sub_w;
    var t = index / sub_w;
    let sy = t % sub_h;
    t = t / sub_h;
    let phase = t % phases;
    t = t / phases;
    px.group = t % params.groups;
    px.n = t / params.groups;
    px.oh = sy * params.stride_h + phase / params.stride_w;
    px.ow = sx * params.stride_w + phase % params.stride_w;
    px.valid = px.n < params.n && px.oh < params.oh && px.ow < params.ow;
    return px;
}

// Σ over input channels [begin, end) of the group and every filter tap of pixel `px`: up to four
// output channels at once, so each input element loaded feeds every channel.
fn few_oc_sum(px: FewOcPixel, begin: u32, end: u32) -> vec4<f32> {
    let ic_per_group = params.ic / params.groups;
    let oc_per_group = params.oc / params.groups;
    let plane = params.ih * params.iw;
    let taps = params.kh * params.kw;
    // The weight is [IC, OC/groups, KH, KW]: channel j of a tap is j·taps past channel 0's (the
    // lanes past the group's channel count repeat its last channel: copies, not written), and
    // the next input channel oc_per_group·taps further on.
    let last = oc_per_group - 1u;
    let lane_offset = vec4<u32>(0u, min(1u, last), min(2u, last), min(3u, last)) * taps;
    let w_step = oc_per_group * taps;
    let first_ic = px.group * ic_per_group + begin;
    var acc = vec4<f32>(0.0);
    for (var ky = 0u; ky < params.kh; ky++) {
        let iy = gather_row(px.oh, ky);
        if (iy < 0) {
            continue;
        }
        for (var kx = 0u; kx < params.kw; kx++) {
            let ix = gather_column(px.ow, kx);
            if (ix < 0) {
                continue;
            }
            var in_index = ((px.n * params.ic + first_ic) * params.ih + u32(iy)) * params.iw + u32(ix);
            var w_index = first_ic * w_step + ky * params.kw + kx;
            for (var i = begin; i < end; i++) {
                let x = {{ to_f32 }}(input[in_index]);
                let w = vec4<f32>(
                    {{ to_f32 }}(weight[w_index + lane_offset.x]),
                    {{ to_f32 }}(weight[w_index + lane_offset.y]),
                    {{ to_f32 }}(weight[w_index + lane_offset.z]),
                    {{ to_f32 }}(weight[w_index + lane_offset.w]),
                );
                acc = fma(vec4<f32>(x), w, acc);
                in_index += plane;
                w_index += w_step;
            }
        }
    }
    return acc;
}

// Writes pixel `px`'s channels (the lanes of `acc` past the group's channel count are copies).
fn few_oc_finish(px: FewOcPixel, acc: vec4<f32>) {
    let oc_per_group = params.oc / params.groups;
    let first_oc = px.group * oc_per_group;
    let out_plane = params.oh * params.ow;
    let out_index = ((px.n * params.oc + first_oc) * params.oh + px.oh) * params.ow + px.ow;
    finish(out_index, first_oc, acc.x);
    if (oc_per_group > 1u) {
        finish(out_index + out_plane, first_oc + 1u, acc.y);
    }
    if (oc_per_group > 2u) {
        finish(out_index + 2u * out_plane, first_oc + 2u, acc.z);
    }
    if (oc_per_group > 3u) {
        finish(out_index + 3u * out_plane, first_oc + 3u, acc.w);
    }
}

// Transposed convolution with at most 4 output channels per group (an RGB output layer): one
// thread per output pixel and group computes all of its channels over the whole K.
@compute @workgroup_size(wg_size)
fn conv_transpose2d_few_oc(@builtin(global_invocation_id) gid: vec3<u32>) {
    let px = few_oc_pixel(gid.y * stride_x + gid.x);
    if (px.valid) {
        few_oc_finish(px, few_oc_sum(px, 0u, params.ic / params.groups));
    }
}

// The same with K split over the workgroup's 8 rows of 32 threads, and 4 pixels per thread:
// each row takes an eighth of the group's input channels for the same 32 runs of 4 pixels (of
// one stride phase's sub-grid row; each weight loaded feeds 4 pixels), and the first row adds
// the 8 partial sums. Layers such as pix2pix's 128→3 output put 16 384 runs of 512 K-steps on
// a GPU that holds 270 000 threads at once: split 8 ways, 131 072 threads, each with 4
// independent loads per step, not one. (`conv2d_few_oc_split` shares the partial sums' array,
// their reduction and the runs' layout.)
var<workgroup> few_oc_partial: array<vec4<f32>, 256>;

// Pixels per thread of `conv_transpose2d_few_oc_split` and `conv2d_few_oc_split` (the host's
// `FEW_OC_RUN`).
{% set few_oc_run = 4 %}
const FEW_OC_RUN: u32 = {{ few_oc_run }}u;
// A row of `width` columns is ⌈width / FEW_OC_RUN⌉ runs (so it wastes at most FEW_OC_RUN − 1
// columns), laid out by `few_oc_run`. On f32 tensors, in chunks of FEW_OC_CHUNK columns (the last
// may be narrower): a chunk's runs are consecutive, and run t of a chunk w columns wide takes
// its columns t, t + step, t + 2·step, … (those below the chunk's end), step = ⌈w / FEW_OC_RUN⌉.
// Consecutive runs, a warp's threads, then load adjacent columns for each of their pixels, and a
// run's pixels stay within 128 columns. On an H200 (v41) this measured 1.07× runs of FEW_OC_RUN
// adjacent columns (whose warps load 16 bytes apart per thread, four times the cache lines) over
// the 14 few-output-channel layers of bench/suites/few-oc.json, each faster, and 1.06× a layout
// that spread a run across its whole row (0.85× on SDXL's 1024-column VAE output, 0.95× on the
// other 1024-column layer). On f16 tensors the adjacent runs measured 1.05× the chunks, so they
// keep them.
fn few_oc_runs_per_row(width: u32) -> u32 {
    return (width + FEW_OC_RUN - 1u) / FEW_OC_RUN;
}

// Columns of a chunk: 32 runs (a warp's) of FEW_OC_RUN pixels.
const FEW_OC_CHUNK: u32 = 32u * FEW_OC_RUN;

// Where run t (below `few_oc_runs_per_row(width)`) of a row of `width` columns puts its pixels:
// column `first`, then every `step` columns.
struct FewOcRun {
    first: u32,
    step: u32,
}

fn few_oc_run(t: u32, width: u32) -> FewOcRun {
    var run: FewOcRun;
{% if io == "f16" %}
    run.first = t * FEW_OC_RUN;
    run.step = 1u;
{% else %}
    // chunk_start ≤ FEW_OC_RUN · t < width, so the chunk is not empty.
    let chunk_start = t / 32u * FEW_OC_CHUNK;
    run.first = chunk_start + t % 32u;
    run.step = (min(FEW_OC_CHUNK, width - chunk_start) + FEW_OC_RUN - 1u) / FEW_OC_RUN;
{% endif %}
    return run;
}

{# The K-split few-output-channel entry points' last step: the 8 slices' partial sums of each
   pixel of the run added up by the first slice and written; pixel r is `column_step` · r columns
   past `px`. The caller defines `acc`, `valid`, `slice`, `local` and `px`. #}
{% macro few_oc_reduce(column_step) %}
    // The rounds are written out so that every accumulator index is a constant: indexing the
    // accumulators by the counter of a loop with barriers put them in (slow) local memory.
{% for r in range(few_oc_run) %}
    few_oc_partial[local] = acc[{{ r }}];
    workgroupBarrier();
    if (valid[{{ r }}] && slice == 0u) {
        var sum = acc[{{ r }}];
        for (var s = 1u; s < 8u; s++) {
            sum += few_oc_partial[s * 32u + local];
        }
        var pixel = px;
        pixel.ow = px.ow + {{ r }}u * {{ column_step }};
        few_oc_finish(pixel, sum);
    }
    workgroupBarrier();
{% endfor %}
{%- endmacro %}
@compute @workgroup_size(256)
fn conv_transpose2d_few_oc_split(
    @builtin(global_invocation_id) gid: vec3<u32>,
    @builtin(local_invocation_index) local: u32,
) {
    // 32 runs per workgroup (stride_x is a whole number of workgroups of 256). A run is
    // FEW_OC_RUN columns `step` apart of one stride phase's sub-grid row (`few_oc_run`).
    let sub_w = (params.ow - 1u) / params.stride_w + 1u;
    let runs = few_oc_runs_per_row(sub_w);
    let run = (gid.y * stride_x + gid.x) / 256u * 32u + local % 32u;
    let columns = few_oc_run(run % runs, sub_w);
    let first_sx = columns.first;
    let step = columns.step;
    let px = few_oc_pixel(run / runs * sub_w + first_sx);
    let slice = local / 32u;
    let ic_per_group = params.ic / params.groups;
    let chunk = (ic_per_group + 7u) / 8u;
    let begin = min(slice * chunk, ic_per_group);
    let end = min(begin + chunk, ic_per_group);
    // Pixel r of the run is column first_sx + r·step of the phase: output column
    // px.ow + r·step·stride.
    var valid: array<bool, FEW_OC_RUN>;
    for (var r = 0u; r < FEW_OC_RUN; r++) {
        valid[r] = px.valid && first_sx + r * step < sub_w && px.ow + r * step * params.stride_w < params.ow;
    }
    var acc: array<vec4<f32>, FEW_OC_RUN>;
    if (valid[0]) {
        acc = few_oc_run_sum(px, valid, step, begin, end);
    }
{{ few_oc_reduce("step * params.stride_w") }}
}

{# One filter tap of a run of the few-output-channel kernels: the run's FEW_OC_RUN input columns
   (pixel r's at `first_ix` + r · `column_step`, WGSL), then the K-slice's multiply-adds into
   `acc`, the weight from `w_first`, `w_step` further per input channel. The caller defines
   `first_ix`, `iy`, `valid`, `px`, `first_ic`, `begin`, `end`, `plane`, `lane_offset` and `acc`,
   inside its filter-column loop. (The pixels written out in named variables instead of these
   loops over arrays measured 1.015× on f32 tensors and 0.94× on f16 ones, one round, on an
   H200: v40.) #}
{% macro few_oc_run_taps(column_step, w_first, w_step) %}
            // Each pixel's column clamped into the row (its load then harmless) and whether it
            // is inside it.
            let pixel_step = i32({{ column_step }});
            var column: array<u32, FEW_OC_RUN>;
            var inside: array<bool, FEW_OC_RUN>;
            var any = false;
            for (var r = 0u; r < FEW_OC_RUN; r++) {
                let ix = first_ix + i32(r) * pixel_step;
                inside[r] = valid[r] && ix >= 0 && ix < i32(params.iw);
                column[r] = u32(clamp(ix, 0, i32(params.iw) - 1));
                any = any || inside[r];
            }
            if (!any) {
                continue;
            }
            var row_index = ((px.n * params.ic + first_ic) * params.ih + u32(iy)) * params.iw;
            var w_index = {{ w_first }};
            // 4 input channels a step: their 4 weight vectors and FEW_OC_RUN × 4 input values
            // loaded before their multiply-adds, so a thread has 20 loads in flight, not 8 used
            // at once (v45: 1.02–1.42× on the 16 few-output-channel layers of the suites, H100);
            // the channels left over one a step.
            var i = begin;
            for (; i + 4u <= end; i += 4u) {
{% for c in range(4) %}
                let w{{ c }} = vec4<f32>(
                    {{ to_f32 }}(weight[w_index + {{ c }}u * ({{ w_step }}) + lane_offset.x]),
                    {{ to_f32 }}(weight[w_index + {{ c }}u * ({{ w_step }}) + lane_offset.y]),
                    {{ to_f32 }}(weight[w_index + {{ c }}u * ({{ w_step }}) + lane_offset.z]),
                    {{ to_f32 }}(weight[w_index + {{ c }}u * ({{ w_step }}) + lane_offset.w]),
                );
{% for r in range(few_oc_run) %}
                let x{{ c }}_{{ r }} = select(0.0, {{ to_f32 }}(input[row_index + {{ c }}u * plane + column[{{ r }}]]), inside[{{ r }}]);
{% endfor %}
{% endfor %}
{% for c in range(4) %}
{% for r in range(few_oc_run) %}
                acc[{{ r }}] = fma(vec4<f32>(x{{ c }}_{{ r }}), w{{ c }}, acc[{{ r }}]);
{% endfor %}
{% endfor %}
                row_index += 4u * plane;
                w_index += 4u * ({{ w_step }});
            }
            for (; i < end; i++) {
                let w = vec4<f32>(
                    {{ to_f32 }}(weight[w_index + lane_offset.x]),
                    {{ to_f32 }}(weight[w_index + lane_offset.y]),
                    {{ to_f32 }}(weight[w_index + lane_offset.z]),
                    {{ to_f32 }}(weight[w_index + lane_offset.w]),
                );
                for (var r = 0u; r < FEW_OC_RUN; r++) {
                    let x = select(0.0, {{ to_f32 }}(input[row_index + column[r]]), inside[r]);
                    acc[r] = fma(vec4<f32>(x), w, acc[r]);
                }
                row_index += plane;
                w_index += {{ w_step }};
            }
{%- endmacro %}
// `few_oc_sum` for a run of FEW_OC_RUN pixels of one stride phase from `px` along its row,
// `step` sub-grid columns apart (pixel r valid where `valid[r]`). The pixels gather the same
// taps: a filter column aligned with the stride for one is aligned for all, at input columns
// `step` apart.
fn few_oc_run_sum(px: FewOcPixel, valid: array<bool, FEW_OC_RUN>, step: u32, begin: u32, end: u32) -> array<vec4<f32>, FEW_OC_RUN> {
    let ic_per_group = params.ic / params.groups;
    let oc_per_group = params.oc / params.groups;
    let plane = params.ih * params.iw;
    let taps = params.kh * params.kw;
    let last = oc_per_group - 1u;
    let lane_offset = vec4<u32>(0u, min(1u, last), min(2u, last), min(3u, last)) * taps;
    let w_step = oc_per_group * taps;
    let first_ic = px.group * ic_per_group + begin;
    var acc: array<vec4<f32>, FEW_OC_RUN>;
    for (var ky = 0u; ky < params.kh; ky++) {
        let iy = gather_row(px.oh, ky);
        if (iy < 0) {
            continue;
        }
        for (var kx = 0u; kx < params.kw; kx++) {
            // Pixel r's input column is t / stride + r·step where t (the first pixel's, before
            // the division) is aligned; it may be negative for the first pixels only.
            let t = i32(px.ow + params.pad_w) - i32(kx * params.dilation_w);
            let sw = i32(params.stride_w);
            if (((t % sw) + sw) % sw != 0) {
                continue;
            }
            let first_ix = t / sw;
{{ few_oc_run_taps("step", "first_ic * w_step + ky * params.kw + kx", "w_step") }}
        }
    }
    return acc;
}

// Transposed convolution at stride 2 × 2 (dilation 1, filters up to 4 × 4, one group) with at
// most 4 output channels: the RGB output of a DCGAN or pix2pix generator. Output row oh gathers
// input row (oh + pad_h − ky) / 2 through the filter rows ky of its parity, so the 2 × 2 block
// of output pixels with oh + pad_h ∈ {2·by, 2·by + 1} and ow + pad_w ∈ {2·bx, 2·bx + 1} (one
// pixel of each stride phase) gathers input rows by and by − 1 and columns bx and bx − 1, each
// pixel through its own taps ky = ry + 2·jy, kx = rx + 2·jx: every input value loaded feeds all
// four phases, where `conv_transpose2d_few_oc_split` loads it once for each. A thread takes a
// run of FEW_OC_RUN blocks of a block row (`few_oc_run` places them); as in that kernel the
// workgroup's 8 rows of 32 threads split the input channels, and each row's weights are staged
// in workgroup memory, PHASE_ROUND_IC channels a round, one vec4 of output channels per tap
// (the taps past the filter zero), so a warp reads each as one broadcast load.
const PHASE_ROUND_IC: u32 = 4u;
// Whether the filter has rows (columns) 2–3: KH > 2 (KW > 2). Set only for this entry point.
override phase_far_rows: bool = true;
override phase_far_columns: bool = true;
// The staged weights, [slice][channel of the round][ky · 4 + kx]; after the last round, the
// reduction's partial sums (two values a round, each 256 threads wide).
var<workgroup> phase_weights: array<vec4<f32>, 512>;

@compute @workgroup_size(256)
fn conv_transpose2d_few_oc_phases(
    @builtin(global_invocation_id) gid: vec3<u32>,
    @builtin(local_invocation_index) local: u32,
) {
    // Blocks by run from pad_h / 2 (the first output row's) to (oh − 1 + pad_h) / 2 (the last
    // one's); likewise bx.
    let first_by = params.pad_h / 2u;
    let first_bx = params.pad_w / 2u;
    let block_rows = (params.oh - 1u + params.pad_h) / 2u - first_by + 1u;
    let block_cols = (params.ow - 1u + params.pad_w) / 2u - first_bx + 1u;
    // 32 runs per workgroup (stride_x is a whole number of workgroups of 256), in the order
    // (image, block row, run of the row).
    let runs = few_oc_runs_per_row(block_cols);
    let run = (gid.y * stride_x + gid.x) / 256u * 32u + local % 32u;
    let columns = few_oc_run(run % runs, block_cols);
    let n = run / runs / block_rows;
    let by = run / runs % block_rows + first_by;
    let live = n < params.n;
    // Block r of the run: block column first_bx + columns.first + r · columns.step.
    var block_live: array<bool, FEW_OC_RUN>;
    var bx: array<u32, FEW_OC_RUN>;
    for (var r = 0u; r < FEW_OC_RUN; r++) {
        block_live[r] = live && columns.first + r * columns.step < block_cols;
        bx[r] = first_bx + columns.first + r * columns.step;
    }
    // Input rows by − jy and columns bx − jx, clamped into the image (their loads then
    // harmless) and whether inside it.
{% for j in range(2) %}
    let iy{{ j }} = i32(by) - {{ j }};
    let row_inside{{ j }} = live && iy{{ j }} >= 0 && iy{{ j }} < i32(params.ih);
    let row{{ j }} = u32(clamp(iy{{ j }}, 0, i32(params.ih) - 1)) * params.iw;
{% for r in range(few_oc_run) %}
    let ix{{ j }}_{{ r }} = i32(bx[{{ r }}]) - {{ j }};
    let column_inside{{ j }}_{{ r }} = block_live[{{ r }}] && ix{{ j }}_{{ r }} >= 0 && ix{{ j }}_{{ r }} < i32(params.iw);
    let column{{ j }}_{{ r }} = u32(clamp(ix{{ j }}_{{ r }}, 0, i32(params.iw) - 1));
{% endfor %}
{% endfor %}
    let slice = local / 32u;
    let chunk = (params.ic + 7u) / 8u;
    let begin = min(slice * chunk, params.ic);
    let end = min(begin + chunk, params.ic);
    let plane = params.ih * params.iw;
    let taps = params.kh * params.kw;
    let last_oc = params.oc - 1u;
    var plane_index = (min(n, params.n - 1u) * params.ic + begin) * plane;
    // The accumulators of phase (ry, rx), one per block of the run.
{% for ry in range(2) %}{% for rx in range(2) %}
    var acc{{ ry }}{{ rx }}: array<vec4<f32>, FEW_OC_RUN>;
{% endfor %}{% endfor %}
    let rounds = (chunk + PHASE_ROUND_IC - 1u) / PHASE_ROUND_IC;
    for (var round = 0u; round < rounds; round++) {
        // Every thread stages two of the 512 (slice, channel, tap) vectors of the round.
        for (var h = 0u; h < 2u; h++) {
            let e = local + h * 256u;
            let s_begin = min(e / 64u * chunk, params.ic);
            let s_end = min(s_begin + chunk, params.ic);
            let ic = s_begin + round * PHASE_ROUND_IC + e / 16u % PHASE_ROUND_IC;
            let ky = e % 16u / 4u;
            let kx = e % 4u;
            var w = vec4<f32>(0.0);
            if (ic < s_end && ky < params.kh && kx < params.kw) {
                // The weight is [IC, OC, KH, KW]; the lanes past the last output channel repeat
                // it (copies, not written).
                let at = ic * params.oc * taps + ky * params.kw + kx;
                w = vec4<f32>(
                    {{ to_f32 }}(weight[at]),
                    {{ to_f32 }}(weight[at + min(1u, last_oc) * taps]),
                    {{ to_f32 }}(weight[at + min(2u, last_oc) * taps]),
                    {{ to_f32 }}(weight[at + min(3u, last_oc) * taps]),
                );
            }
            phase_weights[e] = w;
        }
        workgroupBarrier();
        for (var c = 0u; c < PHASE_ROUND_IC; c++) {
            if (begin + round * PHASE_ROUND_IC + c >= end) {
                break;
            }
            let w_at = (slice * PHASE_ROUND_IC + c) * 16u;
{% for jy in range(2) %}{% for jx in range(2) %}
{% if jy == 1 or jx == 1 %}
            // Filter rows (columns) 2 and 3, where the filter has them (pipeline constants, so
            // the compiler drops the branch: as uniform tests of the filter size they measured
            // down to 0.92× on 4 × 4 filters, v46 call I).
{% set rows_cond = ["phase_far_rows"] if jy == 1 else [] %}
{% set columns_cond = ["phase_far_columns"] if jx == 1 else [] %}
            if ({{ (rows_cond + columns_cond) | join(" && ") }}) {
{% endif %}
{% for r in range(few_oc_run) %}
            let x{{ jy }}{{ jx }}_{{ r }} = vec4<f32>(select(0.0, {{ to_f32 }}(input[plane_index + row{{ jy }} + column{{ jx }}_{{ r }}]), row_inside{{ jy }} && column_inside{{ jx }}_{{ r }}));
{% endfor %}
{% for ry in range(2) %}{% for rx in range(2) %}
            let w{{ jy }}{{ jx }}{{ ry }}{{ rx }} = phase_weights[w_at + {{ (ry + 2 * jy) * 4 + rx + 2 * jx }}u];
{% for r in range(few_oc_run) %}
            acc{{ ry }}{{ rx }}[{{ r }}] = fma(x{{ jy }}{{ jx }}_{{ r }}, w{{ jy }}{{ jx }}{{ ry }}{{ rx }}, acc{{ ry }}{{ rx }}[{{ r }}]);
{% endfor %}
{% endfor %}{% endfor %}
{% if jy == 1 or jx == 1 %}
            }
{% endif %}
{% endfor %}{% endfor %}
            plane_index += plane;
        }
        workgroupBarrier();
    }
    // The 8 slices' partial sums of the run's 4 × FEW_OC_RUN pixels, two a round: value v of
    // the round is added up by slice v and written. (Written out, so that every accumulator index
    // is a constant: see `few_oc_reduce`.)
{% for pair in range(2 * few_oc_run) %}
{% for v in range(2) %}
{% set value = 2 * pair + v %}
    phase_weights[{{ v }}u * 256u + local] = acc{{ value // few_oc_run // 2 }}{{ value // few_oc_run % 2 }}[{{ value % few_oc_run }}];
{% endfor %}
    workgroupBarrier();
{% for v in range(2) %}
{% set value = 2 * pair + v %}
{% set ry = value // few_oc_run // 2 %}
{% set rx = value // few_oc_run % 2 %}
{% set r = value % few_oc_run %}
    if (slice == {{ v }}u) {
        // Output pixel (2·by + ry − pad_h, 2·bx + rx − pad_w) of the block.
        let oh = i32(2u * by + {{ ry }}u) - i32(params.pad_h);
        let ow = i32(2u * bx[{{ r }}] + {{ rx }}u) - i32(params.pad_w);
        if (block_live[{{ r }}] && oh >= 0 && oh < i32(params.oh) && ow >= 0 && ow < i32(params.ow)) {
            var sum = vec4<f32>(0.0);
            for (var s = 0u; s < 8u; s++) {
                sum += phase_weights[{{ v }}u * 256u + s * 32u + local % 32u];
            }
            var pixel: FewOcPixel;
            pixel.n = n;
            pixel.group = 0u;
            pixel.oh = u32(oh);
            pixel.ow = u32(ow);
            few_oc_finish(pixel, sum);
        }
    }
{% endfor %}
    workgroupBarrier();
{% endfor %}
}

// Direct convolution with at most 4 output channels per group (an image's RGB output, a
// latent's 4 channels): as `conv_transpose2d_few_oc_split`, 32 runs of FEW_OC_RUN output
// columns of a row per workgroup (`few_oc_runs_per_row`), K split over its 8 rows of 32 threads,
// every output channel of the group at once. A warp's 32 runs load adjacent input columns (at
// stride 1; on f16 tensors 4 apart, each run 4 adjacent ones), and each weight it loads (the
// same for every lane) feeds the run's pixels. Layers such as the SD VAE decoder's 128→3 at 512²
// are 262 144 pixels of K = 1152 and 3 outputs: no GEMM tile fills with 3 channels, and one
// thread per output loads every input value once per output channel.
@compute @workgroup_size(256)
fn conv2d_few_oc_split(
    @builtin(global_invocation_id) gid: vec3<u32>,
    @builtin(local_invocation_index) local: u32,
) {
    // 32 runs per workgroup (stride_x is a whole number of workgroups of 256), in the order
    // (image, group, row, run of the row); a run is FEW_OC_RUN columns `step` apart
    // (`few_oc_run`).
    let runs = few_oc_runs_per_row(params.ow);
    let run = (gid.y * stride_x + gid.x) / 256u * 32u + local % 32u;
    let columns = few_oc_run(run % runs, params.ow);
    let step = columns.step;
    var px: FewOcPixel;
    px.ow = columns.first;
    var t = run / runs;
    px.oh = t % params.oh;
    t = t / params.oh;
    px.group = t % params.groups;
    px.n = t / params.groups;
    px.valid = px.n < params.n;
    let slice = local / 32u;
    let ic_per_group = params.ic / params.groups;
    let chunk = (ic_per_group + 7u) / 8u;
    let begin = min(slice * chunk, ic_per_group);
    let end = min(begin + chunk, ic_per_group);
    var valid: array<bool, FEW_OC_RUN>;
    for (var r = 0u; r < FEW_OC_RUN; r++) {
        valid[r] = px.valid && px.ow + r * step < params.ow;
    }
    var acc: array<vec4<f32>, FEW_OC_RUN>;
    if (valid[0]) {
        acc = few_oc_direct_run_sum(px, valid, step, begin, end);
    }
{{ few_oc_reduce("step") }}
}

// Σ over input channels [begin, end) of the group and every filter tap of the direct
// convolution's run of FEW_OC_RUN pixels from `px` along its row, `step` columns apart (pixel r
// valid where `valid[r]`), up to four output channels at once.
fn few_oc_direct_run_sum(px: FewOcPixel, valid: array<bool, FEW_OC_RUN>, step: u32, begin: u32, end: u32) -> array<vec4<f32>, FEW_OC_RUN> {
    let ic_per_group = params.ic / params.groups;
    let oc_per_group = params.oc / params.groups;
    let plane = params.ih * params.iw;
    let taps = params.kh * params.kw;
    // The weight is [OC, IC/groups, KH, KW]: output channel j of the group is j·(IC/groups)·taps
    // past channel 0's (the lanes past the group's channel count repeat its last channel: copies,
    // not written), and the next input channel `taps` further on.
    let last = oc_per_group - 1u;
    let lane_offset = vec4<u32>(0u, min(1u, last), min(2u, last), min(3u, last)) * ic_per_group * taps;
    let first_ic = px.group * ic_per_group + begin;
    let first_w = (px.group * oc_per_group * ic_per_group + begin) * taps;
    var acc: array<vec4<f32>, FEW_OC_RUN>;
    for (var ky = 0u; ky < params.kh; ky++) {
        let iy = i32(px.oh * params.stride_h + ky * params.dilation_h) - i32(params.pad_h);
        if (iy < 0 || iy >= i32(params.ih)) {
            continue;
        }
        for (var kx = 0u; kx < params.kw; kx++) {
            let first_ix = i32(px.ow * params.stride_w + kx * params.dilation_w) - i32(params.pad_w);
{{ few_oc_run_taps("step * params.stride_w", "first_w + ky * params.kw + kx", "taps") }}
        }
    }
    return acc;
}

// `conv2d_gemv`: threads sharing one output channel's K (a power of two, 32 to 256); a
// workgroup's 256 threads cover 256 / gemv_lanes output channels.
override gemv_lanes: u32 = 32;
// Each thread's partial sums, one lane per output pixel, for the tree that adds a row's lanes.
var<workgroup> gemv_partial: array<vec4<f32>, 256>;

// Output pixel `column` of the flat (batch, row, column) order, as what `gemv_input` needs:
// (batch, first input row, first input column) bit-cast to u32, and whether it exists.
fn gemv_column(column: u32) -> vec4<u32> {
    let plane = params.oh * params.ow;
    let valid = column < params.n * plane;
    let c = min(column, params.n * plane - 1u);
    let oh = c % plane / params.ow;
    let ow = c % params.ow;
    let iy0 = i32(oh * params.stride_h) - i32(params.pad_h);
    let ix0 = i32(ow * params.stride_w) - i32(params.pad_w);
    return vec4<u32>(c / plane, bitcast<u32>(iy0), bitcast<u32>(ix0), u32(valid));
}

// Input element under tap (ky, kx) of input channel `ic` for output pixel `column` (from
// `gemv_column`); 0 in the padding and for pixels past the last.
fn gemv_input(column: vec4<u32>, ic: u32, ky: u32, kx: u32) -> f32 {
    let iy = bitcast<i32>(column.y) + i32(ky * params.dilation_h);
    let ix = bitcast<i32>(column.z) + i32(kx * params.dilation_w);
    if (column.w == 0u || iy < 0 || iy >= i32(params.ih) || ix < 0 || ix >= i32(params.iw)) {
        return 0.0;
    }
    return {{ to_f32 }}(input[((column.x * params.ic + ic) * params.ih + u32(iy)) * params.iw + u32(ix)]);
}

// Direct convolution whose output has at most 4 pixels in all (batch × OH × OW ≤ 4: the
// squeeze-and-excitation FCs of MobileNetV3, EfficientNet and RegNetY, a U-Net's innermost
// layer), a matrix-vector product per pixel. One output channel per row of `gemv_lanes` threads:
// lane l takes K-indices l, l + gemv_lanes, … of the channel's weight row (consecutive across
// the lanes, read once) and keeps one partial sum per pixel; a tree in workgroup memory adds
// the lanes. The tiled GEMM would give one thread a serial run over all of K in a tile of mostly
// absent columns.
@compute @workgroup_size(256)
fn conv2d_gemv(@builtin(local_invocation_index) lid: u32, @builtin(workgroup_id) wid: vec3<u32>) {
    let lane = lid % gemv_lanes;
    let oc = wid.x * (256u / gemv_lanes) + lid / gemv_lanes;
    // Rows past the last channel compute a copy of it (every thread must reach the barriers)
    // and write nothing.
    let oc_here = min(oc, params.oc - 1u);
    let ic_per_group = params.ic / params.groups;
    let first_ic = oc_here / (params.oc / params.groups) * ic_per_group;
    let taps = params.kh * params.kw;
    let k_total = ic_per_group * taps;
    let c0 = gemv_column(0u);
    let c1 = gemv_column(1u);
    let c2 = gemv_column(2u);
    let c3 = gemv_column(3u);
    // The weight row of `oc` is [IC/groups, KH, KW]: K-index k is (ic, ky, kx) in that order.
    let w_row = oc_here * k_total;
    var acc = vec4<f32>(0.0);
    for (var k = lane; k < k_total; k += gemv_lanes) {
        let ic = first_ic + k / taps;
        let ky = k % taps / params.kw;
        let kx = k % params.kw;
        let w = {{ to_f32 }}(weight[w_row + k]);
        let x = vec4<f32>(gemv_input(c0, ic, ky, kx), gemv_input(c1, ic, ky, kx), gemv_input(c2, ic, ky, kx), gemv_input(c3, ic, ky, kx));
        acc = fma(vec4<f32>(w), x, acc);
    }
    gemv_partial[lid] = acc;
    workgroupBarrier();
    for (var half = gemv_lanes / 2u; half > 0u; half = half / 2u) {
        if (lane < half) {
            gemv_partial[lid] = gemv_partial[lid] + gemv_partial[lid + half];
        }
        workgroupBarrier();
    }
    if (lane != 0u || oc >= params.oc) {
        return;
    }
    let sum = gemv_partial[lid];
    let plane = params.oh * params.ow;
    // Pixel j's output: ((batch · OC + oc) · OH · OW + its offset in the plane).
    let outputs = params.n * plane;
    for (var j = 0u; j < min(outputs, 4u); j++) {
        finish((j / plane * params.oc + oc) * plane + j % plane, oc, sum[j]);
    }
}
