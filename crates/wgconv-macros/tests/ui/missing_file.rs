use wgconv_macros::wgsl_layout;

#[wgsl_layout(shader = "shaders/does_not_exist.wgsl", ty = "Params")]
#[repr(C)]
struct Params {
    a: u32,
}

mod bindings {
    wgconv_macros::include_wgsl_bindings!("shaders/also_missing.wgsl");
}

fn main() {}
