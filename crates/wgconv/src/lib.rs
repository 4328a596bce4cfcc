//! GPU convolution for Rust on WebGPU (wgpu).
//!
//! - [`Context`] picks an adapter and device (or wraps yours), caches pipelines and turns wgpu
//!   errors into [`Error`]s.
//! - [`Tensor`] is a storage buffer with a shape, a [`DType`] (f32, f16 packed two per word, or
//!   int8 packed four per word) and a [`MemoryFormat`] (contiguous, or channels-last NHWC).
//! - Ops: [`Context::convolution`] (`aten.convolution.default`: direct, grouped, dilated,
//!   transposed, 1D and 2D, fused activation), with [`Context::conv2d`] and
//!   [`Context::conv_transpose2d`]; int8 [`Context::q8ta_conv2d_pw`],
//!   [`Context::quantize_per_tensor`] and [`Context::dequantize_per_tensor`]; record several into
//!   one submission with [`Context::batch`].
//! - [`ConvOptions`] says what a convolution does; [`ForcedPlan`] forces the planner's choices
//!   (benchmarks, tests); [`Conv2d::tune`] measures them instead, as `cudnn.benchmark` does.
//! - [`timing`] times recorded work with GPU timestamps; [`reference`](mod@reference) computes every op on the
//!   CPU in f64, for checking.
//! - Every call that waits on the GPU has an `async` form (`Context::new_async`,
//!   [`Batch::submit_async`], [`Tensor::to_vec_f32_async`], [`Context::conv2d_async`], …), the
//!   API on `wasm32` (WebGPU in the browser). On native the blocking forms wrap them; on the web
//!   a wgpu error of a recorded op comes back from the next awaited call. README.md ("On the
//!   web") lists which calls exist where.
//! - Every kernel's uniforms, overrides and bindings are generated from its WGSL by
//!   `cargo xtask gen-shaders` (a private module: the ops are the API). ARCHITECTURE.md at the
//!   repository root maps the crate.
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
// The blocking API: `block_on` of each `_async` call. The web cannot block.
#[cfg(not(target_arch = "wasm32"))]
mod blocking;
mod context;
#[cfg(test)]
mod coop_spirv;
mod dispatch;
mod error;
mod ops;
mod pipelines;
mod platform;
pub mod reference;
pub mod roofline;
// Generated (`cargo xtask gen-shaders`): each shader's whole binding surface, of which the ops use
// a part; private, so the API is the ops, not the shaders' layouts.
#[rustfmt::skip]
#[allow(dead_code)]
mod shaders;
pub mod suite;
mod tensor;
pub mod timing;

pub use batch::Batch;
#[cfg(not(target_arch = "wasm32"))]
pub use blocking::enumerate_adapters;
pub use context::{AdapterRequest, AdapterSummary, Context, enumerate_adapters_async};
pub use error::{Error, Result};
pub use ops::{
    conv::{Conv2d, ConvOutput},
    conv_geometry::ConvGeometry,
    conv_kernel::{ConvKernel, GEMM_TILE_N},
    conv_options::{Activation, ConvOptions, ForcedPlan, GemmSchedule, KTileLoads, Precision, TileOrder},
    conv_tune::{Candidate, TunedConfig, Tuning},
    quantized::{Q8_COOP_MAX_IC, Q8ConvPwArgs, Q8ConvPwOptions, Q8Kernel, Q8PwGeometry, QuantParams},
};
pub use pipelines::{CompiledPipeline, ShaderChecks};
pub use tensor::{DType, MemoryFormat, TENSOR_USAGE, Tensor};

#[cfg(test)]
mod tests {
    use std::mem::{offset_of, size_of};

    use crate::shaders::{conv2d, q8ta_conv2d_pw};

    /// The generated host structs have the sizes and offsets the WGSL gives them (the generated
    /// const asserts check this at build time too; this pins the numbers the docs quote).
    #[test]
    fn runtime_kernel_uniforms_have_the_agreed_sizes() {
        assert_eq!(size_of::<conv2d::ConvParams>(), 80);
        assert_eq!(offset_of!(conv2d::ConvParams, kh), 28);
        assert_eq!(size_of::<q8ta_conv2d_pw::Q8taConvPwParams>(), 48);
        assert_eq!(offset_of!(q8ta_conv2d_pw::Q8taConvPwParams, inv_output_scale), 32);
        let o = conv2d::Overrides::new(1024);
        assert_eq!(o.wg_size, 256);
        assert_eq!(conv2d::conv2d_workgroup_size(&o), [256, 1, 1]);
    }
}
