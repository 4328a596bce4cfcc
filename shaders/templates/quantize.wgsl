{% import "prelude/conv.wgsl" as conv %}
// Per-tensor affine quantisation between f32 and packed int8 (four values per u32, little-endian).

struct QuantizeParams {
    numel: u32,
    zero_point: i32,
    // Kept as given (for dequantize) and as the f32 reciprocal torch multiplies by (for quantize).
    scale: f32,
    inv_scale: f32,
}

@group(0) @binding(0) var<storage, read> real_values: array<f32>;
@group(0) @binding(1) var<storage, read_write> quantized: array<u32>;
@group(0) @binding(2) var<uniform> params: QuantizeParams;

override wg_size: u32 = 256;
override stride_x: u32;

{{ conv.is_nan() }}

// One thread per output word: clamp(round_half_even(x * inv_scale) + zero_point, -128, 127); NaN
// quantizes to the zero point (as the host reference does: the conversion of NaN is otherwise
// undefined).
@compute @workgroup_size(wg_size)
fn quantize_per_tensor(@builtin(global_invocation_id) gid: vec3<u32>) {
    let word = gid.y * stride_x + gid.x;
    let first = word * 4u;
    // `word * 4u` wraps for words ≥ 2^30, so the word itself is compared too.
    let words = params.numel / 4u + select(0u, 1u, params.numel % 4u != 0u);
    if (word >= words || first >= params.numel) {
        return;
    }
    var packed = 0u;
    for (var lane = 0u; lane < 4u; lane++) {
        if (first + lane < params.numel) {
            // Clamp before converting: f32 → i32 of an out-of-range value is undefined in SPIR-V.
            let scaled = real_values[first + lane] * params.inv_scale;
            let r = select(clamp(round(scaled), -512.0, 512.0), 0.0, is_nan(scaled));
            let q = clamp(i32(r) + params.zero_point, -128, 127);
            packed |= (u32(q) & 0xffu) << (lane * 8u);
        }
    }
    quantized[word] = packed;
}
