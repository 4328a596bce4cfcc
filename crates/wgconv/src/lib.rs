//! GPU convolution for Rust on WebGPU (wgpu).
//!
//! - [`Context`] picks an adapter and device (or wraps yours), caches pipelines and turns wgpu
//!   errors into [`Error`]s.
//! - [`Tensor`] is a storage buffer with a shape and a [`DType`] (f32, or int8 packed four per word).
//! - Ops: [`Context::convolution`] (`aten.convolution.default`: direct, grouped, dilated,
//!   transposed, 1D and 2D, fused activation), with [`Context::conv2d`] and
//!   [`Context::conv_transpose2d`]; int8 [`Context::q8ta_conv2d_pw`],
//!   [`Context::quantize_per_tensor`] and [`Context::dequantize_per_tensor`]; record several into
//!   one submission with [`Context::batch`].
//! - Every kernel's uniforms, overrides and bindings come from [`shaders`], generated from the
//!   WGSL by `cargo xtask gen-shaders`.
//!
//! ```no_run
//! use wgconv::{Activation, Context, ConvOptions, Tensor};
//!
//! let ctx = Context::new()?;
//! let x = Tensor::from_f32(&ctx, &vec![0.5; 1 * 3 * 32 * 32], &[1, 3, 32, 32])?;
//! let w = Tensor::from_f32(&ctx, &vec![0.1; 16 * 3 * 3 * 3], &[16, 3, 3, 3])?;
//! let b = Tensor::from_f32(&ctx, &[0.0; 16], &[16])?;
//! let opts = ConvOptions::default().stride(&[2]).padding(&[1]).activation(Activation::Relu);
//! let y = ctx.conv2d(&x, &w, Some(&b), &opts)?;
//! println!("{:?} via {}", y.output.shape(), y.kernel.name());
//! let values: Vec<f32> = y.output.to_vec_f32(&ctx)?;
//! # Ok::<(), wgconv::Error>(())
//! ```

mod batch;
mod context;
pub mod dispatch;
mod error;
mod ops;
mod pipelines;
pub mod reference;
#[rustfmt::skip]
pub mod shaders;
mod tensor;
pub mod timing;

pub use batch::Batch;
pub use context::{AdapterRequest, AdapterSummary, Context, enumerate_adapters};
pub use error::{Error, Result};
pub use ops::{
    conv::{Conv2d, ConvOutput},
    conv_geometry::ConvGeometry,
    conv_kernel::{ConvKernel, GEMM_TILE_N},
    conv_options::{Activation, ConvOptions, ForcedPlan, GemmSchedule, Precision},
    conv_tune::{Candidate, TunedConfig, Tuning},
    quantized::{Q8ConvPwArgs, Q8ConvPwOptions, Q8Kernel, Q8PwGeometry, QuantParams},
};
pub use pipelines::ShaderChecks;
pub use tensor::{DType, TENSOR_USAGE, Tensor};
