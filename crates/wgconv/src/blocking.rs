//! The blocking API, native only: each call is `block_on` of its `_async` twin, which holds the
//! code (the web has no blocking wait). Results and errors are the twin's.

use crate::{
    AdapterRequest, AdapterSummary, Batch, Context, Conv2d, ConvKernel, ConvOptions, ConvOutput, ForcedPlan,
    Q8ConvPwArgs, Q8ConvPwOptions, QuantParams, Tensor, Tuning,
    error::Result,
    platform::block_on,
    timing::{self, Sampling, Timing},
};

/// Lists every adapter wgpu finds on the requested backends. Blocking form of
/// [`enumerate_adapters_async`](crate::enumerate_adapters_async) (native only).
pub fn enumerate_adapters(backends: Option<wgpu::Backends>) -> Vec<AdapterSummary> {
    block_on(crate::enumerate_adapters_async(backends))
}

impl Context {
    /// Picks an adapter per `WGCONV_BACKEND` / `WGCONV_ADAPTER` (high performance by default) and
    /// creates a device with the adapter's limits and the optional features it has
    /// (timestamp queries, f16, subgroups). Blocking form of [`Context::new_async`] (native only).
    pub fn new() -> Result<Self> {
        block_on(Self::new_async())
    }

    /// Like [`Context::new`] with an explicit request. Blocking form of
    /// [`Context::with_request_async`] (native only).
    pub fn with_request(request: &AdapterRequest) -> Result<Self> {
        block_on(Self::with_request_async(request))
    }

    /// Waits until all submitted work has finished (bounded by the context's timeout). Blocking
    /// form of [`Context::synchronize_async`] (native only).
    pub fn synchronize(&self) -> Result<()> {
        block_on(self.synchronize_async())
    }

    /// Records one op with `record` into a fresh batch and submits it: the single-op conveniences.
    fn submit_one<T>(&self, record: impl FnOnce(&mut Batch<'_>) -> Result<T>) -> Result<T> {
        block_on(self.submit_one_async(record))
    }

    /// Runs `aten.convolution.default` (direct or transposed per `opts.transposed`) and submits.
    /// Blocking form of [`Context::convolution_async`] (native only).
    ///
    /// ```no_run
    /// use wgconv::{Context, ConvOptions, Tensor};
    /// let ctx = Context::new()?;
    /// let x = Tensor::from_f32(&ctx, &vec![1.0; 2 * 3 * 8 * 8], &[2, 3, 8, 8])?;
    /// let w = Tensor::from_f32(&ctx, &vec![0.5; 4 * 3 * 3 * 3], &[4, 3, 3, 3])?;
    /// let y = ctx.convolution(&x, &w, None, &ConvOptions::default().padding(&[1]))?;
    /// assert_eq!(y.output.shape(), &[2, 4, 8, 8]);
    /// # Ok::<(), wgconv::Error>(())
    /// ```
    pub fn convolution(
        &self,
        input: &Tensor,
        weight: &Tensor,
        bias: Option<&Tensor>,
        opts: &ConvOptions,
    ) -> Result<ConvOutput> {
        block_on(self.convolution_async(input, weight, bias, opts))
    }

    /// [`Context::convolution`] with the planner's choices `forced` (benchmarks, tests). Native
    /// only; elsewhere record [`Batch::convolution_forced`] and [`Batch::submit_async`].
    pub fn convolution_forced(
        &self,
        input: &Tensor,
        weight: &Tensor,
        bias: Option<&Tensor>,
        opts: &ConvOptions,
        forced: &ForcedPlan,
    ) -> Result<ConvOutput> {
        self.submit_one(|batch| batch.convolution_forced(input, weight, bias, opts, forced))
    }

    /// Runs a convolution into `output` and submits. Native only; elsewhere record
    /// [`Batch::convolution_into`] and [`Batch::submit_async`].
    pub fn convolution_into(
        &self,
        input: &Tensor,
        weight: &Tensor,
        bias: Option<&Tensor>,
        output: &Tensor,
        opts: &ConvOptions,
    ) -> Result<ConvKernel> {
        self.submit_one(|batch| batch.convolution_into(input, weight, bias, output, opts))
    }

    /// [`Context::convolution_into`] with the planner's choices `forced` (benchmarks, tests).
    /// Native only; elsewhere record [`Batch::convolution_into_forced`] and
    /// [`Batch::submit_async`].
    pub fn convolution_into_forced(
        &self,
        input: &Tensor,
        weight: &Tensor,
        bias: Option<&Tensor>,
        output: &Tensor,
        opts: &ConvOptions,
        forced: &ForcedPlan,
    ) -> Result<ConvKernel> {
        self.submit_one(|batch| batch.convolution_into_forced(input, weight, bias, output, opts, forced))
    }

    /// A direct convolution (`opts.transposed` is ignored): conv2d, or conv1d for rank-3 tensors.
    /// Blocking form of [`Context::conv2d_async`] (native only).
    pub fn conv2d(
        &self,
        input: &Tensor,
        weight: &Tensor,
        bias: Option<&Tensor>,
        opts: &ConvOptions,
    ) -> Result<ConvOutput> {
        block_on(self.conv2d_async(input, weight, bias, opts))
    }

    /// A transposed convolution (`opts.transposed` is ignored); weight `[IC, OC/groups, KH, KW]`.
    /// Blocking form of [`Context::conv_transpose2d_async`] (native only).
    pub fn conv_transpose2d(
        &self,
        input: &Tensor,
        weight: &Tensor,
        bias: Option<&Tensor>,
        opts: &ConvOptions,
    ) -> Result<ConvOutput> {
        block_on(self.conv_transpose2d_async(input, weight, bias, opts))
    }

    /// A tensor converted to `format`, submitted. Blocking form of
    /// [`Context::to_memory_format_async`] (native only).
    pub fn to_memory_format(&self, input: &Tensor, format: crate::MemoryFormat) -> Result<Tensor> {
        block_on(self.to_memory_format_async(input, format))
    }

    /// `quantize_per_tensor`, submitted. Blocking form of [`Context::quantize_per_tensor_async`]
    /// (native only).
    pub fn quantize_per_tensor(&self, input: &Tensor, q: QuantParams) -> Result<Tensor> {
        block_on(self.quantize_per_tensor_async(input, q))
    }

    /// `dequantize_per_tensor`, submitted. Blocking form of
    /// [`Context::dequantize_per_tensor_async`] (native only).
    pub fn dequantize_per_tensor(&self, input: &Tensor, q: QuantParams) -> Result<Tensor> {
        block_on(self.dequantize_per_tensor_async(input, q))
    }

    /// `q8ta_conv2d_pw`, submitted. Blocking form of [`Context::q8ta_conv2d_pw_async`] (native
    /// only).
    ///
    /// ```no_run
    /// use wgconv::{Context, Tensor, QuantParams, Q8ConvPwArgs, Q8ConvPwOptions};
    /// let ctx = Context::new()?;
    /// let x = Tensor::from_i8(&ctx, &[3; 2 * 8 * 7 * 7], &[2, 8, 7, 7])?;
    /// let w = Tensor::from_i8(&ctx, &[-2; 4 * 8], &[4, 8])?;
    /// let scales = Tensor::from_f32(&ctx, &[0.01; 4], &[4])?;
    /// let args = Q8ConvPwArgs {
    ///     input: &x, input_quant: QuantParams::new(0.05, 1),
    ///     weight: &w, weight_scales: &scales, weight_sums: None, bias: None,
    ///     output_quant: QuantParams::new(0.02, -3),
    /// };
    /// let y = ctx.q8ta_conv2d_pw(&args, &Q8ConvPwOptions::default())?;
    /// assert_eq!(y.shape(), &[2, 4, 7, 7]);
    /// # Ok::<(), wgconv::Error>(())
    /// ```
    pub fn q8ta_conv2d_pw(&self, args: &Q8ConvPwArgs<'_>, opts: &Q8ConvPwOptions) -> Result<Tensor> {
        block_on(self.q8ta_conv2d_pw_async(args, opts))
    }
}

impl Batch<'_> {
    /// Submits every recorded op to the queue (does not wait for the GPU to run them). Blocking
    /// form of [`Batch::submit_async`] (native only).
    pub fn submit(self) -> Result<()> {
        block_on(self.submit_async())
    }
}

impl Tensor {
    /// Downloads an f32 tensor (waits for queued work). Blocking form of
    /// [`Tensor::to_vec_f32_async`] (native only).
    pub fn to_vec_f32(&self, ctx: &Context) -> Result<Vec<f32>> {
        block_on(self.to_vec_f32_async(ctx))
    }

    /// Downloads an f16 tensor (waits for queued work). Blocking form of
    /// [`Tensor::to_vec_f16_async`] (native only).
    pub fn to_vec_f16(&self, ctx: &Context) -> Result<Vec<half::f16>> {
        block_on(self.to_vec_f16_async(ctx))
    }

    /// Downloads an int8 tensor (waits for queued work). Blocking form of
    /// [`Tensor::to_vec_i8_async`] (native only).
    pub fn to_vec_i8(&self, ctx: &Context) -> Result<Vec<i8>> {
        block_on(self.to_vec_i8_async(ctx))
    }
}

impl Conv2d {
    /// Validates the weight (and bias) and prepacks the weight; the work is submitted at once.
    /// Blocking form of [`Conv2d::new_async`] (native only).
    pub fn new(ctx: &Context, weight: &Tensor, bias: Option<&Tensor>, opts: &ConvOptions) -> Result<Self> {
        block_on(Self::new_async(ctx, weight, bias, opts))
    }

    /// Blocking form of [`Conv2d::new_forced_async`] (native only).
    pub fn new_forced(
        ctx: &Context,
        weight: &Tensor,
        bias: Option<&Tensor>,
        opts: &ConvOptions,
        forced: &ForcedPlan,
    ) -> Result<Self> {
        block_on(Self::new_forced_async(ctx, weight, bias, opts, forced))
    }

    /// Blocking form of [`Conv2d::new_for_input_async`] (native only): prepared for inputs of
    /// `input_shape`, keeping the weight transformed for the Winograd kernel the planner runs on
    /// them, where it runs one.
    pub fn new_for_input(
        ctx: &Context,
        weight: &Tensor,
        bias: Option<&Tensor>,
        opts: &ConvOptions,
        input_shape: &[usize],
    ) -> Result<Self> {
        block_on(Self::new_for_input_async(ctx, weight, bias, opts, input_shape))
    }

    /// Times every configuration that can run this convolution on inputs of `input_shape` and
    /// remembers the fastest in `ctx`. Blocking form of [`Conv2d::tune_async`] (native only),
    /// which says what is timed.
    ///
    /// ```no_run
    /// use wgconv::{Context, Conv2d, ConvOptions, Tensor, timing::Sampling};
    /// let ctx = Context::new()?;
    /// let w = Tensor::from_f32(&ctx, &vec![0.1; 256 * 128 * 9], &[256, 128, 3, 3])?;
    /// let conv = Conv2d::new(&ctx, &w, None, &ConvOptions::default().padding(&[1]))?;
    /// let tuning = conv.tune(&ctx, &[8, 128, 28, 28], &Sampling::default())?;
    /// println!("{:?}", tuning.best());
    /// # Ok::<(), wgconv::Error>(())
    /// ```
    pub fn tune(&self, ctx: &Context, input_shape: &[usize], sampling: &Sampling) -> Result<Tuning> {
        block_on(self.tune_async(ctx, input_shape, sampling))
    }
}

/// Records `runs` repetitions of `record` into one batch, submits, waits, and returns the time
/// per repetition. Blocking form of [`timing::time_runs_async`] (native only).
pub fn time_runs(ctx: &Context, runs: u32, record: impl FnMut(&mut Batch<'_>) -> Result<()>) -> Result<Timing> {
    block_on(timing::time_runs_async(ctx, runs, record))
}

/// Median time per run of `record` over `sampling.samples` samples, after one run that compiles
/// pipelines and a warm-up. Blocking form of [`timing::median_time_async`] (native only).
pub fn median_time(
    ctx: &Context,
    sampling: &Sampling,
    record: impl FnMut(&mut Batch<'_>) -> Result<()>,
) -> Result<Timing> {
    block_on(timing::median_time_async(ctx, sampling, record))
}
