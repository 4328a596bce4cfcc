"""v44's measuring builds, written into the committed templates (then `cargo xtask gen-shaders`, a
release build, and the templates restored with `git checkout shaders crates/wgconv/src/shaders`):

    python3 bench/results/v44-variants.py late|q8k128

- late (shaders/templates/conv2d_gemm.wgsl): the next K-tile's index decodes and global loads
  issued after the K-tile's multiply-adds instead of before them, so the staging registers are
  not live during the math (v42's reading: the 128-register cap binds); the other workgroup on
  the SM covers the loads' latency. A correct kernel.
- q8k128 (shaders/templates/q8ta_conv2d_pw_gemm.wgsl): `q8_dot4_gemm`'s K-tiles 128 input
  channels deep instead of 64: twice the global loads in flight a thread and half the K-tiles
  (each a barrier pair and a load latency) on the small int8 grids of the default suite. A
  correct kernel (bit-exact: the integer sums are the same).
Paths are relative to the repository root.
"""
import sys

variant = sys.argv[1]
if variant == "late":
    path = "shaders/templates/conv2d_gemm.wgsl"
    src = open(path).read()
    prefetch = src[src.index("        if (kt + 1u < kt_end) {"):src.index("{% for kk in range(bk) %}")]
    out = src.replace(prefetch, "", 1)
    end = "{% endfor %}\n        workgroupBarrier();\n    }\n"
    assert out.count(end) == 1
    out = out.replace(end, "{% endfor %}\n" + prefetch + "        workgroupBarrier();\n    }\n")
elif variant == "q8k128":
    path = "shaders/templates/q8ta_conv2d_pw_gemm.wgsl"
    src = open(path).read()
    edits = [
        ("var<workgroup> a_tile: array<vec4<u32>, 256>;", "var<workgroup> a_tile: array<vec4<u32>, 512>;"),
        ("var<workgroup> b_tile: array<vec4<u32>, 256>;", "var<workgroup> b_tile: array<vec4<u32>, 512>;"),
        ("let a_q0 = (lid % 4u) * 4u;", "let a_q0 = (lid % 4u) * 8u;"),
        ("let k_tiles = (ic_words + 15u) / 16u;", "let k_tiles = (ic_words + 31u) / 32u;"),
        ("    var a = load_a(a_ok, a_row, a_q0, ic_words);\n    var r = load_b(b_ok, b_at, b_q, ic_words, hw_words);\n",
         "    var a = load_a(a_ok, a_row, a_q0, ic_words);\n    var a2 = load_a(a_ok, a_row, a_q0 + 4u, ic_words);\n"
         "    var r = load_b(b_ok, b_at, b_q, ic_words, hw_words);\n    var r2 = load_b(b_ok, b_at, b_q + 16u, ic_words, hw_words);\n"),
        ("            + dot4I8Packed(a.z, 0x01010101u) + dot4I8Packed(a.w, 0x01010101u);\n",
         "            + dot4I8Packed(a.z, 0x01010101u) + dot4I8Packed(a.w, 0x01010101u)\n"
         "            + dot4I8Packed(a2.x, 0x01010101u) + dot4I8Packed(a2.y, 0x01010101u)\n"
         "            + dot4I8Packed(a2.z, 0x01010101u) + dot4I8Packed(a2.w, 0x01010101u);\n"),
        ("        a_tile[(a_q0 + 3u) * 16u + a_local / 4u][a_local % 4u] = a.w;\n",
         "        a_tile[(a_q0 + 3u) * 16u + a_local / 4u][a_local % 4u] = a.w;\n"
         "        a_tile[(a_q0 + 4u) * 16u + a_local / 4u][a_local % 4u] = a2.x;\n"
         "        a_tile[(a_q0 + 5u) * 16u + a_local / 4u][a_local % 4u] = a2.y;\n"
         "        a_tile[(a_q0 + 6u) * 16u + a_local / 4u][a_local % 4u] = a2.z;\n"
         "        a_tile[(a_q0 + 7u) * 16u + a_local / 4u][a_local % 4u] = a2.w;\n"),
        ("                                             gather_byte(r.x, r.y, r.z, r.w, 2u), gather_byte(r.x, r.y, r.z, r.w, 3u));\n",
         "                                             gather_byte(r.x, r.y, r.z, r.w, 2u), gather_byte(r.x, r.y, r.z, r.w, 3u));\n"
         "        b_tile[(b_q + 16u) * 16u + b_pw] = vec4<u32>(gather_byte(r2.x, r2.y, r2.z, r2.w, 0u), gather_byte(r2.x, r2.y, r2.z, r2.w, 1u),\n"
         "                                             gather_byte(r2.x, r2.y, r2.z, r2.w, 2u), gather_byte(r2.x, r2.y, r2.z, r2.w, 3u));\n"),
        ("            let q0 = (kt + 1u) * 16u;\n            a = load_a(a_ok, a_row, q0 + a_q0, ic_words);\n            r = load_b(b_ok, b_at, q0 + b_q, ic_words, hw_words);\n",
         "            let q0 = (kt + 1u) * 32u;\n            a = load_a(a_ok, a_row, q0 + a_q0, ic_words);\n            a2 = load_a(a_ok, a_row, q0 + a_q0 + 4u, ic_words);\n"
         "            r = load_b(b_ok, b_at, q0 + b_q, ic_words, hw_words);\n            r2 = load_b(b_ok, b_at, q0 + b_q + 16u, ic_words, hw_words);\n"),
        ("{% for q in range(16) %}", "{% for q in range(32) %}"),
    ]
    out = src
    for old, new in edits:
        assert out.count(old) == 1, old
        out = out.replace(old, new)
else:
    sys.exit(f"unknown variant {variant}")
open(path, "w").write(out)
