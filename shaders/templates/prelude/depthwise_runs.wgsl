{#-
  What the row-run depthwise kernels with aligned column runs share, as macros:
  conv2d_depthwise_vec4.wgsl (runs of 4 columns) and conv2d_depthwise_vec8.wgsl (runs of 8, f16
  tensors read as 16-byte vectors of halves). Each shader keeps its own loads (`fetch`), lane
  selection (`lane`), multiply-adds (`add`) and stores (`put`): their types differ. `cols` is
  the run's width. Each macro expands to whole lines without the last newline.
-#}
{% import "prelude/conv.wgsl" as conv %}
{# The pipeline overrides: grid, rows per thread, activation, filter geometry. #}
{% macro overrides() %}
override wg_size: u32 = 256;
// Threads per row of the (possibly folded) 2D grid.
override stride_x: u32;
// Consecutive output rows per thread, 1 to 4.
override rows_per_thread: u32 = 4;
{{ conv.activation_overrides() }}
// The filter geometry, specialised into the pipeline. Must equal the uniform's values.
{{ conv.spec_overrides(3, 1) }}
{%- endmacro %}
{# Where a run's input columns lie in the aligned vectors of `cols` elements that cover them. #}
{% macro window(cols) %}
// The input columns a run of {{ cols }} outputs needs: {{ cols }}t·sW − pW + e for e < span(),
// starting offset() lanes into an aligned vector of {{ cols }} ({{ cols }}t·sW is a multiple of {{ cols }}),
// so vecs() aligned vectors cover them. The planner only picks this kernel when vecs() ≤ 4.
// All three are pipeline constants.
fn span() -> u32 {
    return {{ cols - 1 }}u * spec_stride_w + (spec_kw - 1u) * spec_dilation_w + 1u;
}

fn offset() -> u32 {
    return ({{ cols }}u - spec_pad_w % {{ cols }}u) % {{ cols }}u;
}

fn vecs() -> u32 {
    return (offset() + span() + {{ cols - 1 }}u) / {{ cols }}u;
}
{%- endmacro %}
{#
  The entry point `name`: thread `index` takes run t of `cols` columns of rows_per_thread rows of
  one output plane; `acc` is its accumulators' zero (one per row) and `bias` the bias of
  channel `oc` as f32.
#}
{% macro entry(name, cols, acc, bias) %}
@compute @workgroup_size(wg_size)
fn {{ name }}(@builtin(global_invocation_id) gid: vec3<u32>) {
    let index = gid.y * stride_x + gid.x;
    let runs = params.ow / {{ cols }}u;
    let row_blocks = (params.oh + rows_per_thread - 1u) / rows_per_thread;
    if (index >= params.n * params.oc * row_blocks * runs) {
        return;
    }
    let t = index % runs;
    let rest = index / runs;
    let oy0 = (rest % row_blocks) * rows_per_thread;
    let plane = rest / row_blocks;
    let oc = plane % params.oc;
    let b = plane / params.oc;
    let ic = oc / (params.oc / params.groups);
    // First aligned vector of the window: ({{ cols }}t·sW − pW − offset()) / {{ cols }}, exact by construction.
    let v_lo = (i32({{ cols }}u * t * spec_stride_w) - i32(spec_pad_w) - i32(offset())) / {{ cols }};
    let iy0 = i32(oy0 * spec_stride_h) - i32(spec_pad_h);
    let in_plane = (b * params.ic + ic) * params.ih;
    let w_base = oc * spec_kh * spec_kw;
    var acc0 = {{ acc }};
    var acc1 = {{ acc }};
    var acc2 = {{ acc }};
    var acc3 = {{ acc }};
    let window_h = (rows_per_thread - 1u) * spec_stride_h + (spec_kh - 1u) * spec_dilation_h + 1u;
    for (var r = 0u; r < window_h; r++) {
        let iy = iy0 + i32(r);
        let row_inside = iy >= 0 && iy < i32(params.ih);
        let row_vectors = (in_plane + u32(select(0, iy, row_inside))) * (params.iw / {{ cols }}u);
        let v0 = fetch(row_vectors, row_inside, v_lo, 0u);
        let v1 = fetch(row_vectors, row_inside, v_lo, 1u);
        let v2 = fetch(row_vectors, row_inside, v_lo, 2u);
        let v3 = fetch(row_vectors, row_inside, v_lo, 3u);
        for (var kx = 0u; kx < spec_kw; kx++) {
            acc0 = add(acc0, 0u, r, kx, v0, v1, v2, v3, w_base);
            acc1 = add(acc1, 1u, r, kx, v0, v1, v2, v3, w_base);
            acc2 = add(acc2, 2u, r, kx, v0, v1, v2, v3, w_base);
            acc3 = add(acc3, 3u, r, kx, v0, v1, v2, v3, w_base);
        }
    }
    // Read only when bound: without a bias the binding is a placeholder.
    var bias_value = 0.0;
    if (params.has_bias != 0u) {
        bias_value = {{ bias }};
    }
    let at = (plane * params.oh + oy0) * runs + t;
    put(at, 0u, oy0, acc0, bias_value);
    put(at + runs, 1u, oy0 + 1u, acc1, bias_value);
    put(at + 2u * runs, 2u, oy0 + 2u, acc2, bias_value);
    put(at + 3u * runs, 3u, oy0 + 3u, acc3, bias_value);
}
{%- endmacro %}
