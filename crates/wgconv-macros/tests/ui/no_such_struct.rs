use wgconv_macros::wgsl_layout;

#[wgsl_layout(shader = "../../../../crates/wgconv-macros/tests/fixtures/params.wgsl", ty = "Parameters")]
#[repr(C)]
struct Parameters {
    a: u32,
}

fn main() {}
