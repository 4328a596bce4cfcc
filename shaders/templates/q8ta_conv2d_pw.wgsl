{% import "prelude/q8.wgsl" as q8 %}
// int8 pointwise (1x1) convolution with per-tensor activation quantization and per-channel weight
// scales. Tensors are row-major NCHW int8, four consecutive values per u32 word (little-endian).
// One thread per output word; the four elements of a word may straddle rows (W % 4 != 0), so each
// element decodes its own (n, oc, h*W + w).

{{ q8.params_and_bindings() }}

override wg_size: u32 = 256;
// Threads per row of the (possibly folded) 2D dispatch grid.
override stride_x: u32;
// Fused activation on the real-valued result before requantisation: 0 none, 1 relu.
override activation: u32 = 0;

{{ q8.requantize() }}

// Signed byte `flat` of a packed int8 array.
fn load_i8(word: u32, flat: u32) -> i32 {
    return extractBits(bitcast<i32>(word), (flat & 3u) * 8u, 8u);
}

fn output_element(flat: u32) -> u32 {
    let hw_size = params.h * params.w;
    let hw = flat % hw_size;
    let t = flat / hw_size;
    let oc = t % params.oc;
    let n = t / params.oc;
    var acc = 0i;
    var x_flat = n * params.ic * hw_size + hw;
    var w_flat = oc * params.ic;
    for (var ic = 0u; ic < params.ic; ic++) {
        let x = load_i8(input[x_flat >> 2u], x_flat) - params.input_zero_point;
        let w = load_i8(weight[w_flat >> 2u], w_flat);
        acc += x * w;
        x_flat += hw_size;
        w_flat += 1u;
    }
    return requantize(acc, oc);
}

@compute @workgroup_size(wg_size)
fn q8ta_conv2d_pw(@builtin(global_invocation_id) gid: vec3<u32>) {
    let word = gid.y * stride_x + gid.x;
    let total = params.n * params.oc * params.h * params.w;
    let first = word * 4u;
    // `word * 4u` wraps for words ≥ 2^30, so the word itself is compared too.
    let words = total / 4u + select(0u, 1u, total % 4u != 0u);
    if (word >= words || first >= total) {
        return;
    }
    var packed = 0u;
    for (var lane = 0u; lane < 4u; lane++) {
        // Bytes past the tensor's end in the final word stay zero.
        if (first + lane < total) {
            packed |= output_element(first + lane) << (lane * 8u);
        }
    }
    output[word] = packed;
}
