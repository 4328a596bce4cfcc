use wgconv_macros::wgsl_layout;

#[wgsl_layout(shader = "../../../../crates/wgconv-macros/tests/fixtures/malformed.wgsl", ty = "Params")]
#[repr(C)]
struct Params {
    a: u32,
}

fn main() {}
