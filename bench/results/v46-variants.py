#!/usr/bin/env python3
"""v46's measuring variant of shaders/templates/conv2d.wgsl (edits it in place; `git checkout`
restores it): `pf` loads the next input channel's 16 values of `conv_transpose2d_few_oc_phases`
before the current channel's multiply-adds (16 more registers a thread)."""
import sys

path = "shaders/templates/conv2d.wgsl"
s = open(path).read()
variant = sys.argv[1]
assert variant == "pf"

loads = """{% for jy in range(2) %}{% for jx in range(2) %}{% for r in range(few_oc_run) %}
    {{ decl }}{{ prefix }}{{ jy }}{{ jx }}_{{ r }} = select(0.0, {{ to_f32 }}(input[{{ at }} + row{{ jy }} + column{{ jx }}_{{ r }}]), row_inside{{ jy }} && column_inside{{ jx }}_{{ r }});
{% endfor %}{% endfor %}{% endfor %}"""

old = """    let rounds = (chunk + PHASE_ROUND_IC - 1u) / PHASE_ROUND_IC;
    for (var round = 0u; round < rounds; round++) {"""
new = ("""    let rounds = (chunk + PHASE_ROUND_IC - 1u) / PHASE_ROUND_IC;
{% set decl = "var " %}{% set prefix = "x" %}{% set at = "plane_index" %}
""" + loads + """
    for (var round = 0u; round < rounds; round++) {""")
assert old in s
s = s.replace(old, new)

old = """            let w_at = (slice * PHASE_ROUND_IC + c) * 16u;
"""
new = ("""            let w_at = (slice * PHASE_ROUND_IC + c) * 16u;
            let next_index = select(plane_index, plane_index + plane, begin + round * PHASE_ROUND_IC + c + 1u < end);
{% set decl = "let " %}{% set prefix = "n" %}{% set at = "next_index" %}
""" + loads.replace("\n    {{ decl }}", "\n            {{ decl }}"))
assert old in s
s = s.replace(old, new)

old = """{% for r in range(few_oc_run) %}
            let x{{ jy }}{{ jx }}_{{ r }} = vec4<f32>(select(0.0, {{ to_f32 }}(input[plane_index + row{{ jy }} + column{{ jx }}_{{ r }}]), row_inside{{ jy }} && column_inside{{ jx }}_{{ r }}));
{% endfor %}
"""
assert old in s
s = s.replace(old, "")
s = s.replace("acc{{ ry }}{{ rx }}[{{ r }}] = fma(x{{ jy }}{{ jx }}_{{ r }}, w",
              "acc{{ ry }}{{ rx }}[{{ r }}] = fma(vec4<f32>(x{{ jy }}{{ jx }}_{{ r }}), w")

old = """            plane_index += plane;
        }
        workgroupBarrier();"""
new = """{% for jy in range(2) %}{% for jx in range(2) %}{% for r in range(few_oc_run) %}
            x{{ jy }}{{ jx }}_{{ r }} = n{{ jy }}{{ jx }}_{{ r }};
{% endfor %}{% endfor %}{% endfor %}
            plane_index = next_index;
        }
        workgroupBarrier();"""
assert old in s
s = s.replace(old, new)
open(path, "w").write(s)
