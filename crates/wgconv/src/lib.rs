//! GPU convolution for Rust on WebGPU.

#[rustfmt::skip]
pub mod shaders;
