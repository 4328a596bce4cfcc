use wgconv_macros::wgsl_layout;

// Forgot the padding before the vec3: `scale` lands at 8 instead of 16.
#[wgsl_layout(shader = "../../../../crates/wgconv-macros/tests/fixtures/params.wgsl", ty = "Params")]
#[repr(C)]
struct Params {
    in_ch: u32,
    out_ch: u32,
    scale: [f32; 3],
    bias: f32,
}

fn main() {}
