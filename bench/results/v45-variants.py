"""v45's measuring build, written into the committed template (then `cargo xtask gen-shaders`, a
release build, and the template restored with `git checkout shaders crates/wgconv/src/shaders`):

    python3 bench/results/v45-variants.py few4

- few4 (shaders/templates/conv2d.wgsl): the few-output-channel kernels' K loop
  (`few_oc_run_taps`, shared by `few_oc` and `transposed_few_oc`) steps over 4 input channels:
  their 4 weight vectors and 16 input values loaded first, then the 64 multiply-adds, the rest
  one channel a step as before. v43's `pointwise_vec4` went 1.96x faster with its loads grouped
  so; these kernels issue 8 loads a channel, used at once. A correct kernel.
Paths are relative to the repository root.
"""
import sys

variant = sys.argv[1]
assert variant == "few4", variant
path = "shaders/templates/conv2d.wgsl"
src = open(path).read()
loop = """            for (var i = begin; i < end; i++) {
                let w = vec4<f32>("""
assert src.count(loop) == 1
step = """            var i = begin;
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
                let w = vec4<f32>("""
out = src.replace(loop, step, 1)
open(path, "w").write(out)
