// What `cargo xtask gen-shaders` emitted for `struct Params { in_ch: u32, out_ch: u32,
// scale: vec3<f32>, bias: f32 }`, after someone edited the struct by hand (the padding was
// dropped) without regenerating: the generated const assertions stop the build.

#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, bytemuck::Pod, bytemuck::Zeroable)]
pub struct Params {
    pub in_ch: u32,
    pub out_ch: u32,
    pub scale: [f32; 3],
    pub bias: f32,
}
const _: () = {
    let size = ::core::mem::size_of::<Params>();
    assert!(
        size == 32usize,
        "`Params` must be 32 bytes as WGSL struct Params (fixtures/params.wgsl); regenerate with `cargo xtask gen-shaders`"
    );
    let offset = ::core::mem::offset_of!(Params, scale);
    assert!(
        offset == 16usize,
        "field `scale` of `Params` must be at offset 16 as in WGSL struct Params (fixtures/params.wgsl); regenerate with `cargo xtask gen-shaders`"
    );
};

fn main() {}
