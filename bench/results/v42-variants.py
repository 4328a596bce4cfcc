"""v42's measuring builds of `gemm_k16`'s K-tile loop (calls C-E), written into
shaders/templates/conv2d_gemm.wgsl from the committed template (then `cargo xtask gen-shaders`,
a release build, and the template restored):

    python3 bench/results/v42-variants.py noload|noload_nobar|frag|noload_frag

- noload: no global loads, index decodes or staging stores after the first K-tile (staged once);
  every K-tile still runs both barriers, its workgroup-memory loads and multiply-adds. Wrong
  results: timing only.
- noload_nobar: as noload, staged once before the loop with one barrier and none in the loop
  (the loads depend on the loop counter through a runtime zero, so they cannot be hoisted).
- frag: the register fragments of step kk + 1 loaded from workgroup memory before step kk's
  multiply-adds (a correct kernel).
The other two variants measured, `vs` (each loader thread's four B columns staged with one
16-byte store) and `off` (one input offset per K-row shared by a thread's four columns), are the
diffs v42-variant-vs.diff and v42-variant-off.diff. Paths are this session's (/work/main).
"""
import sys, re
src = open('/work/main/shaders/templates/conv2d_gemm.wgsl').read()
variant = sys.argv[1]
loop_old = src[src.index("    for (var kt = kt_begin; kt < kt_end; kt++) {"):src.index("    // Epilogue: bias, activation, scattered back to NCHW.")]
inner_old = loop_old[loop_old.index("{% for kk in range(bk) %}"):loop_old.rindex("        workgroupBarrier();")]
frag_inner = '''{% for q in range(quads_m) %}
        var fa{{ q }} = {{ at }}[{{ q * threads_m }}u + tm];
{% endfor %}
{% for c in range(quads_n) %}
        var fb{{ c }} = {{ bt }}[{{ c }}u * {{ TN }} + tn];
{% endfor %}
{% for kk in range(bk) %}
        {
{% for q in range(quads_m) %}
            let a{{ q }} = fa{{ q }};
{% endfor %}
{% for c in range(quads_n) %}
            let b{{ c }} = fb{{ c }};
{% endfor %}
{% if kk + 1 < bk %}
{% for q in range(quads_m) %}
            fa{{ q }} = {{ at }}[{{ (kk + 1) * lanes_a + q * threads_m }}u + tm];
{% endfor %}
{% for c in range(quads_n) %}
            fb{{ c }} = {{ bt }}[{{ kk + 1 }}u * {{ LANES_B }} + {{ c }}u * {{ TN }} + tn];
{% endfor %}
{% endif %}
{% for q in range(quads_m) %}
{% for i in range(4) %}
{% for c in range(quads_n) %}
            acc_{{ q }}{{ i }}_{{ c }} = fma(vec4<f32>(a{{ q }}.{{ XYZW[i] }}), b{{ c }}, acc_{{ q }}{{ i }}_{{ c }});
{% endfor %}
{% endfor %}
{% endfor %}
        }
{% endfor %}
'''
loop = loop_old
if 'frag' in variant:
    loop = loop.replace(inner_old, frag_inner)
if 'noload' in variant:
    loop = loop.replace("        if (kt + 1u < kt_end) {", "        if (false) {")
    i = loop.index("{{ stage(")
    j = loop.index("\n", i)
    stage_line = loop[i:j]
    if 'nobar' in variant:
        # Stage once before the loop, one barrier, no barriers in the loop.
        loop = loop.replace(stage_line + "\n        workgroupBarrier();\n", "")
        loop = loop.replace("    for (var kt = kt_begin; kt < kt_end; kt++) {", stage_line.replace('"        "', '"    "') + "\n    workgroupBarrier();\n    for (var kt = kt_begin; kt < kt_end; kt++) {")
        loop = loop.replace("    for (var kt = kt_begin; kt < kt_end; kt++) {\n", "    for (var kt = kt_begin; kt < kt_end; kt++) {\n        // Runtime zero: the loads depend on kt, so they cannot leave the loop.\n        let kz = kt * (params.has_bias >> 31u);\n")
        loop = loop.replace("u + tm];", "u + tm + kz];").replace("u * {{ TN }} + tn];", "u * {{ TN }} + tn + kz];")
        k = loop.rindex("        workgroupBarrier();\n")
        loop = loop[:k] + loop[k + len("        workgroupBarrier();\n"):]
    else:
        loop = loop.replace(stage_line, "        if (kt == kt_begin) {\n" + stage_line + "\n        }")
assert loop != loop_old or variant == 'base'
open('/work/main/shaders/templates/conv2d_gemm.wgsl', 'w').write(src.replace(loop_old, loop))
