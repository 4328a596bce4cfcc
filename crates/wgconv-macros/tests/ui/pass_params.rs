use wgconv_macros::wgsl_layout;

// vec3 is 16-aligned; `bias` packs into its tail at offset 28.
#[wgsl_layout(shader = "../../../../crates/wgconv-macros/tests/fixtures/params.wgsl", ty = "Params")]
#[repr(C)]
#[derive(Clone, Copy, bytemuck::Pod, bytemuck::Zeroable)]
struct Params {
    in_ch: u32,
    out_ch: u32,
    _pad: [u8; 8],
    scale: [f32; 3],
    bias: f32,
}

fn main() {
    let p = Params { in_ch: 1, out_ch: 2, _pad: [0; 8], scale: [1.0; 3], bias: 0.5 };
    assert_eq!(bytemuck::bytes_of(&p).len(), 32);
}
