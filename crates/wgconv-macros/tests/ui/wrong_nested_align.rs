use wgconv_macros::wgsl_layout;

// naga puts `a` at offset 4, the WGSL spec at 16: no layout is right for both.
#[wgsl_layout(shader = "../../../../crates/wgconv-macros/tests/fixtures/partial.wgsl", ty = "C")]
#[repr(C)]
struct C {
    p: f32,
    a: [f32; 4],
    q: f32,
}

fn main() {}
