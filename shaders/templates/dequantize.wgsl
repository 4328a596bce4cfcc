// Per-tensor dequantisation of packed int8 (four values per u32, little-endian) to f32.

struct DequantizeParams {
    numel: u32,
    zero_point: i32,
    scale: f32,
    _pad0: u32,
}

@group(0) @binding(0) var<storage, read> quantized: array<u32>;
@group(0) @binding(1) var<storage, read_write> real_values: array<f32>;
@group(0) @binding(2) var<uniform> params: DequantizeParams;

override wg_size: u32 = 256;
override stride_x: u32;

// One thread per output element: (q - zero_point) * scale.
@compute @workgroup_size(wg_size)
fn dequantize_per_tensor(@builtin(global_invocation_id) gid: vec3<u32>) {
    let index = gid.y * stride_x + gid.x;
    if (index >= params.numel) {
        return;
    }
    let q = extractBits(bitcast<i32>(quantized[index >> 2u]), (index & 3u) * 8u, 8u);
    real_values[index] = f32(q - params.zero_point) * params.scale;
}
