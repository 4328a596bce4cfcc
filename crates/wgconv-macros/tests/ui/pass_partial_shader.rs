use wgconv_macros::wgsl_layout;

// WGSL members named like Rust keywords: `r#in` is the member `in`.
#[wgsl_layout(shader = "../../../../crates/wgconv-macros/tests/fixtures/partial.wgsl", ty = "Range")]
#[repr(C)]
struct Range {
    r#in: u32,
    out: u32,
    r#gen: f32,
}

// The struct of a var<immediate>, in a shader with an external texture and an override default
// the host cannot evaluate: none of them is this struct's concern.
#[wgsl_layout(shader = "../../../../crates/wgconv-macros/tests/fixtures/partial.wgsl", ty = "Push")]
#[repr(C)]
struct Push {
    scale: f32,
    _pad: [u8; 4],
    offset: [f32; 2],
}

// `align(16)` rounds the size up to WGSL's 32 bytes: no trailing padding field needed.
#[wgsl_layout(shader = "../../../../crates/wgconv-macros/tests/fixtures/partial.wgsl", ty = "P")]
#[repr(C, align(16))]
struct P {
    pos: [f32; 3],
    w: f32,
    mv: [f32; 3],
}

fn main() {
    assert_eq!(std::mem::size_of::<Range>(), 12);
    assert_eq!(std::mem::size_of::<Push>(), 16);
    assert_eq!(std::mem::size_of::<P>(), 32);
}
