//! Memory-format conversion: a rank-4 tensor between NCHW (`Contiguous`) and NHWC
//! (`ChannelsLast`) order on the GPU, as PyTorch's `x.contiguous(memory_format=…)` does. The
//! convolutions use it too, to run channels-last tensors through kernels that read NCHW.

use super::variant::{Variant, with_variant};
use crate::{
    batch::{Batch, Pass},
    context::Context,
    dispatch,
    error::{Error, Result},
    tensor::{MemoryFormat, Tensor},
};

impl Batch<'_> {
    /// Records the conversion of `input` to `format` and returns the new tensor (the same shape
    /// and dtype); a tensor already in `format` comes back as it is, sharing its buffer.
    ///
    /// Errors: [`Error::MemoryFormat`] for a tensor that is not rank 4, [`Error::DType`] for an
    /// int8 one, [`Error::MissingFeature`] for f16 without `shader-f16`,
    /// [`Error::BindingTooLarge`] for a tensor over one storage binding (conversions are not split,
    /// so neither are convolutions of channels-last tensors that need one).
    pub fn to_memory_format(&mut self, input: &Tensor, format: MemoryFormat) -> Result<Tensor> {
        input.check_device(self.ctx, "tensor")?;
        if input.memory_format() == format {
            return Ok(input.clone());
        }
        let output = Tensor::zeros(self.ctx, input.shape(), input.dtype())?.with_memory_format(format)?;
        self.relayout_into(input, &output)?;
        Ok(output)
    }

    /// Records the conversion of `input` into `output`: the same shape and dtype, the other
    /// memory format.
    pub(crate) fn relayout_into(&mut self, input: &Tensor, output: &Tensor) -> Result<()> {
        let ctx = self.ctx;
        let [n, c, h, w] = rank4(input)?;
        input.check_device(ctx, "tensor")?;
        output.check_device(ctx, "output")?;
        super::conv::float_dtype(ctx, "tensor", input, "a memory-format conversion")?;
        if output.shape() != input.shape() || output.dtype() != input.dtype() {
            return Err(Error::shape(format!(
                "memory-format conversion of {:?} {} into {:?} {}",
                input.shape(),
                input.dtype(),
                output.shape(),
                output.dtype()
            )));
        }
        // Both whole tensors are bound: unlike the convolutions, conversions are not split.
        ctx.check_binding("tensor", input.size_bytes())?;
        ctx.check_binding("tensor", output.size_bytes())?;
        let numel = input.numel() as u64;
        let numel_u32 = crate::error::fits_u32("tensor", numel)?;
        let limits = ctx.limits();
        let grid =
            dispatch::grid(numel, dispatch::workgroup_size(&limits), limits.max_compute_workgroups_per_dimension)?;
        let params = crate::shaders::relayout::RelayoutParams::new(n, c, h, w, numel_u32);
        let uniform = ctx.uniform("RelayoutParams", &params)?;
        let to_channels_last = output.memory_format() == MemoryFormat::ChannelsLast;
        with_variant!(Variant::of(input.dtype(), false), relayout = relayout | relayout_f16, {
            let mut overrides = relayout::Overrides::new(grid.stride_x);
            overrides.wg_size = grid.wg_size;
            let group = relayout::BindGroup0 {
                source: input.buffer().as_entire_buffer_binding(),
                destination: output.buffer().as_entire_buffer_binding(),
                params: uniform.as_entire_buffer_binding(),
            };
            let entry = if to_channels_last { relayout::Entry::ToChannelsLast } else { relayout::Entry::ToContiguous };
            self.record::<relayout::Shader>(
                "memory-format conversion",
                Pass::new(entry, &overrides, grid.dims()),
                &group,
            )
        })
    }
}

/// The `[N, C, H, W]` of a rank-4 tensor as u32s.
fn rank4(t: &Tensor) -> Result<[u32; 4]> {
    let shape = t.shape();
    if shape.len() != 4 {
        return Err(Error::MemoryFormat {
            tensor: "tensor",
            reason: format!("memory formats apply to rank-4 [N, C, H, W] tensors, got shape {shape:?}"),
        });
    }
    // A dimension over u32 makes the element count fail `relayout_into`'s u32 check, before any
    // of these is used.
    Ok([shape[0], shape[1], shape[2], shape[3]].map(|d| d as u32))
}

impl Context {
    /// [`Batch::to_memory_format`], submitted. [`Context::to_memory_format`] is the blocking form
    /// (native only).
    pub async fn to_memory_format_async(&self, input: &Tensor, format: MemoryFormat) -> Result<Tensor> {
        self.submit_one_async(|batch| batch.to_memory_format(input, format)).await
    }
}
