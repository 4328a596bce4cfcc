use wgconv_macros::wgsl_layout;

#[wgsl_layout(shader = "../../../../crates/wgconv-macros/tests/fixtures/params.wgsl", ty = "Params")]
#[repr(C)]
struct Params {
    in_ch: u32,
    out_ch: f32,
    _pad: [u8; 8],
    scale: [f32; 3],
    bias: f32,
}

fn main() {}
