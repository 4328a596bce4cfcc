//! Convolution, the public side: [`Batch::convolution`] and its variants, [`Conv2d`] (a weight
//! prepared once) and [`Context::convolution`]. Each call validates (`conv_geometry`, pure),
//! then `conv_encode` plans (`conv_plan`) and records the GPU work.

use super::{
    conv_encode::PackLayout,
    conv_geometry::{ConvGeometry, check_bias, pair},
    conv_kernel::ConvKernel,
    conv_options::{ConvOptions, ForcedPlan, Precision},
    winograd::WinogradWeight,
};
use crate::{
    batch::Batch,
    context::Context,
    error::{Error, Result},
    tensor::{DType, MemoryFormat, Tensor},
};

/// A convolution's result and the kernel that produced it.
#[derive(Clone, Debug)]
pub struct ConvOutput {
    /// The output tensor (rank 3 for a 1D convolution).
    pub output: Tensor,
    /// The kernel that ran.
    pub kernel: ConvKernel,
}

/// A convolution whose weight is prepared once — validated and prepacked for the GEMM kernels
/// (and for the channels-last tensor-core kernel where the context has cooperative matrices, and
/// transformed for Winograd where the planner may run it) —
/// and then run on many inputs. The planner still picks the kernel per input shape.
///
/// ```no_run
/// use wgconv::{Context, Conv2d, ConvOptions, Tensor};
/// let ctx = Context::new()?;
/// let w = Tensor::from_f32(&ctx, &vec![0.1; 64 * 32 * 3 * 3], &[64, 32, 3, 3])?;
/// let conv = Conv2d::new(&ctx, &w, None, &ConvOptions::default().padding(&[1]))?;
/// let x = Tensor::from_f32(&ctx, &vec![1.0; 2 * 32 * 16 * 16], &[2, 32, 16, 16])?;
/// let mut batch = ctx.batch();
/// let y = conv.run(&mut batch, &x)?;
/// batch.submit()?;
/// # Ok::<(), wgconv::Error>(())
/// ```
#[derive(Debug)]
pub struct Conv2d {
    pub(super) weight: Tensor,
    pub(super) bias: Option<Tensor>,
    pub(super) opts: ConvOptions,
    pub(super) packed: Tensor,
    /// The weight prepacked for the channels-last tensor-core kernel, where the context has
    /// cooperative matrices and the weight suits it.
    pub(super) packed_coop: Option<Tensor>,
    /// The weight transformed for Winograd, where the planner may run it (`winograd_geometry`;
    /// for `Conv2d::new_for_input`, where it runs one on that input),
    /// tagged with its kernel: f32, direct, 3×3 (5×5 for `Winograd5x5Tile4`, R68's channel
    /// counts or forced, and for `Winograd5x5` forced), stride 1, dilation 1 (any for
    /// `Winograd4x4`), one group. Not for `Winograd6x6` either, unless forced or prepared for an
    /// input R67 gives it: as for R61's layers, each run then transforms the weight. For
    /// `Winograd` (64+ channels in and out), f32 in the GEMM kernels' packed layout of its
    /// products (16/9 the weight's size). Where the options allow f16 multiplicands and the
    /// context has cooperative matrices: for `WinogradFused`, f16 in its own layout, for R44's
    /// 32–128 channels in and out; for `WinogradCoop` (256+ input channels, or 128+
    /// in and out: R40, R42; with other counts the tensor cores run `CoopF16` and none is kept),
    /// f16 prepacked for `CoopNhwc`. Not for `Winograd4x4`, unless forced or prepared for an
    /// input R61 gives it (`Conv2d::new_for_input`): R61 plans it by the input's size, and
    /// without one the 2×2 tiles' transform is the one worth keeping (R31 keeps the narrow grids
    /// of the deepest layers, whose weights are the largest to transform again); where R61 plans
    /// it, each run then transforms the weight.
    pub(super) packed_winograd: Option<WinogradWeight>,
}

impl Conv2d {
    /// Validates the weight (and bias) and prepacks the weight; the work is submitted at once.
    /// [`Conv2d::new`] is the blocking form (native only).
    pub async fn new_async(ctx: &Context, weight: &Tensor, bias: Option<&Tensor>, opts: &ConvOptions) -> Result<Self> {
        Self::new_forced_async(ctx, weight, bias, opts, &ForcedPlan::default()).await
    }

    /// [`Conv2d::new_async`] for runs with the planner's choices `forced` (benchmarks, tests):
    /// a Winograd kernel forced gets its transformed weight prepared here too.
    /// [`Conv2d::new_forced`] is the blocking form (native only).
    pub async fn new_forced_async(
        ctx: &Context,
        weight: &Tensor,
        bias: Option<&Tensor>,
        opts: &ConvOptions,
        forced: &ForcedPlan,
    ) -> Result<Self> {
        Self::prepare(ctx, weight, bias, opts, forced, None).await
    }

    /// [`Conv2d::new_async`] for inputs of `input_shape` (those it is run on should have it): it
    /// keeps the weight transformed for the Winograd kernel the planner runs on that input, where
    /// it runs one. `Conv2d::new_async` does not know the input's size: it keeps F(2×2, 3×3)'s
    /// transform where its channel counts suit it, so that a layer R61 gives F(4×4, 3×3)
    /// (`ConvKernel::Winograd4x4`, wide grids) transforms its weight in each run. Errors as
    /// [`Conv2d::new_async`] does, and where `input_shape` does not suit the weight and options.
    /// The shape carries no memory format: for a channels-last input with f16 allowed, the
    /// planner may run `CoopNhwc` where the transform kept is `WinogradCoop`'s (as
    /// `Conv2d::new_async` may). A batch over one storage binding runs in parts, which the
    /// planner may give another kernel (R61 counts the images): those transform the weight each
    /// run. [`Conv2d::new_for_input`] is the blocking form (native only).
    pub async fn new_for_input_async(
        ctx: &Context,
        weight: &Tensor,
        bias: Option<&Tensor>,
        opts: &ConvOptions,
        input_shape: &[usize],
    ) -> Result<Self> {
        Self::prepare(ctx, weight, bias, opts, &ForcedPlan::default(), Some(input_shape)).await
    }

    async fn prepare(
        ctx: &Context,
        weight: &Tensor,
        bias: Option<&Tensor>,
        opts: &ConvOptions,
        forced: &ForcedPlan,
        input_shape: Option<&[usize]>,
    ) -> Result<Self> {
        let dtype = check_float_operand(ctx, "weight", weight)?;
        if let Some(b) = bias {
            check_same_dtype(ctx, "bias", b, ("weight", dtype))?;
        }
        let layout = PackLayout::for_weight(weight.shape(), opts)?;
        if let Some(b) = bias {
            check_bias(b.shape(), layout.out_channels())?;
        }
        let mut batch = ctx.batch();
        // The kernels read the weight as PyTorch stores it by default: [OC, IC/groups, KH, KW].
        let weight = batch.to_memory_format(weight, MemoryFormat::Contiguous)?;
        let packed = batch.pack_weight(&weight, layout)?;
        let packed_coop = match layout.suits_coop_nhwc(weight.shape().len()) && ctx.cooperative_f16() {
            true => Some(batch.pack_weight_coop(&weight, layout)?),
            false => None,
        };
        let planned_winograd = match input_shape {
            Some(shape) => winograd_planned_for_input(ctx, &weight, bias, opts, forced, shape)?,
            None => winograd_geometry(ctx, &weight, opts, forced),
        };
        let packed_winograd = match planned_winograd {
            Some((g, kernel)) => Some(batch.winograd_weight_for(kernel, &weight, &g)?),
            None => None,
        };
        batch.submit_async().await?;
        Ok(Self { weight, bias: bias.cloned(), opts: opts.clone(), packed, packed_coop, packed_winograd })
    }

    /// The options this convolution runs with.
    pub fn options(&self) -> &ConvOptions {
        &self.opts
    }

    /// Records the convolution of `input`, allocating the output.
    pub fn run(&self, batch: &mut Batch<'_>, input: &Tensor) -> Result<ConvOutput> {
        self.run_forced(batch, input, &ForcedPlan::default())
    }

    /// [`Conv2d::run`] with the planner's choices `forced` (benchmarks, tests).
    pub fn run_forced(&self, batch: &mut Batch<'_>, input: &Tensor, forced: &ForcedPlan) -> Result<ConvOutput> {
        batch.convolution_call(self.call(input, forced))
    }

    /// Records the convolution of `input` into `output`.
    pub fn run_into(&self, batch: &mut Batch<'_>, input: &Tensor, output: &Tensor) -> Result<ConvKernel> {
        self.run_into_forced(batch, input, output, &ForcedPlan::default())
    }

    /// [`Conv2d::run_into`] with the planner's choices `forced` (benchmarks, tests, tuning).
    pub fn run_into_forced(
        &self,
        batch: &mut Batch<'_>,
        input: &Tensor,
        output: &Tensor,
        forced: &ForcedPlan,
    ) -> Result<ConvKernel> {
        batch.convolution_into_call(self.call(input, forced), output)
    }

    fn call<'a>(&'a self, input: &'a Tensor, forced: &'a ForcedPlan) -> ConvCall<'a> {
        ConvCall {
            input,
            weight: &self.weight,
            packed: Some(&self.packed),
            packed_coop: self.packed_coop.as_ref(),
            packed_winograd: self.packed_winograd.as_ref(),
            bias: self.bias.as_ref(),
            opts: &self.opts,
            forced,
        }
    }
}

/// The one-op forms: record into a fresh batch and submit it. Their blocking forms
/// (`Context::convolution`, `conv2d`, `conv_transpose2d` and the `_forced` / `_into` variants)
/// are native only; on every target, record the `_forced` / `_into` variants into a
/// [`Batch`] and [`Batch::submit_async`] it.
impl Context {
    /// Runs `aten.convolution.default` (direct or transposed per `opts.transposed`) and submits.
    /// [`Context::convolution`] is the blocking form (native only).
    ///
    /// ```no_run
    /// use wgconv::{Context, ConvOptions, Tensor};
    /// # async fn run() -> Result<(), wgconv::Error> {
    /// let ctx = Context::new_async().await?;
    /// let x = Tensor::from_f32(&ctx, &vec![1.0; 2 * 3 * 8 * 8], &[2, 3, 8, 8])?;
    /// let w = Tensor::from_f32(&ctx, &vec![0.5; 4 * 3 * 3 * 3], &[4, 3, 3, 3])?;
    /// let y = ctx.convolution_async(&x, &w, None, &ConvOptions::default().padding(&[1])).await?;
    /// let values = y.output.to_vec_f32_async(&ctx).await?;
    /// # Ok(()) }
    /// ```
    pub async fn convolution_async(
        &self,
        input: &Tensor,
        weight: &Tensor,
        bias: Option<&Tensor>,
        opts: &ConvOptions,
    ) -> Result<ConvOutput> {
        self.submit_one_async(|batch| batch.convolution(input, weight, bias, opts)).await
    }

    /// A direct convolution (`opts.transposed` is ignored): conv2d, or conv1d for rank-3 tensors.
    /// [`Context::conv2d`] is the blocking form (native only).
    pub async fn conv2d_async(
        &self,
        input: &Tensor,
        weight: &Tensor,
        bias: Option<&Tensor>,
        opts: &ConvOptions,
    ) -> Result<ConvOutput> {
        self.convolution_async(input, weight, bias, &opts.clone().transposed(false)).await
    }

    /// A transposed convolution (`opts.transposed` is ignored); weight `[IC, OC/groups, KH, KW]`.
    /// [`Context::conv_transpose2d`] is the blocking form (native only).
    pub async fn conv_transpose2d_async(
        &self,
        input: &Tensor,
        weight: &Tensor,
        bias: Option<&Tensor>,
        opts: &ConvOptions,
    ) -> Result<ConvOutput> {
        self.convolution_async(input, weight, bias, &opts.clone().transposed(true)).await
    }
}

impl Batch<'_> {
    /// Records `aten.convolution.default`: allocates the output and returns it with the kernel used.
    pub fn convolution(
        &mut self,
        input: &Tensor,
        weight: &Tensor,
        bias: Option<&Tensor>,
        opts: &ConvOptions,
    ) -> Result<ConvOutput> {
        self.convolution_forced(input, weight, bias, opts, &ForcedPlan::default())
    }

    /// [`Batch::convolution`] with the planner's choices `forced` (benchmarks, tests).
    pub fn convolution_forced(
        &mut self,
        input: &Tensor,
        weight: &Tensor,
        bias: Option<&Tensor>,
        opts: &ConvOptions,
        forced: &ForcedPlan,
    ) -> Result<ConvOutput> {
        self.convolution_call(ConvCall {
            input,
            weight,
            packed: None,
            packed_coop: None,
            packed_winograd: None,
            bias,
            opts,
            forced,
        })
    }

    /// Records a convolution into a caller-supplied output tensor of the right shape.
    pub fn convolution_into(
        &mut self,
        input: &Tensor,
        weight: &Tensor,
        bias: Option<&Tensor>,
        output: &Tensor,
        opts: &ConvOptions,
    ) -> Result<ConvKernel> {
        self.convolution_into_forced(input, weight, bias, output, opts, &ForcedPlan::default())
    }

    /// [`Batch::convolution_into`] with the planner's choices `forced` (benchmarks, tests).
    pub fn convolution_into_forced(
        &mut self,
        input: &Tensor,
        weight: &Tensor,
        bias: Option<&Tensor>,
        output: &Tensor,
        opts: &ConvOptions,
        forced: &ForcedPlan,
    ) -> Result<ConvKernel> {
        self.convolution_into_call(
            ConvCall { input, weight, packed: None, packed_coop: None, packed_winograd: None, bias, opts, forced },
            output,
        )
    }

    /// Validates, allocates the output and records.
    fn convolution_call(&mut self, call: ConvCall<'_>) -> Result<ConvOutput> {
        let geometry = call.geometry(call.input.shape())?;
        let output = Tensor::zeros(self.ctx, &geometry.output_shape(), call.input.dtype())?
            .with_memory_format(call.input.memory_format())?;
        let kernel = self.encode_convolution(call, &output, &geometry)?;
        Ok(ConvOutput { output, kernel })
    }

    /// Validates, checks the output's shape and records.
    fn convolution_into_call(&mut self, call: ConvCall<'_>, output: &Tensor) -> Result<ConvKernel> {
        let geometry = call.geometry(call.input.shape())?;
        if output.shape() != geometry.output_shape() {
            return Err(Error::OutputShape { expected: geometry.output_shape(), got: output.shape().to_vec() });
        }
        self.encode_convolution(call, output, &geometry)
    }

    /// Input or output too large for one storage binding: run the batch in chunks that fit,
    /// staging each chunk through scratch tensors (binding offsets would need 256-byte alignment,
    /// which image boundaries do not have); when a single image does not fit, every image in
    /// bands of output rows (`conv_bands`).
    pub(super) fn encode_convolution_in_batch_chunks(
        &mut self,
        call: ConvCall<'_>,
        output: &Tensor,
        g: &ConvGeometry,
    ) -> Result<ConvKernel> {
        let input = call.input;
        let dtype = input.dtype();
        let limit = self.ctx.limits().max_storage_buffer_binding_size;
        let in_image = input.numel() as u64 / u64::from(g.n) * dtype.element_bytes();
        let out_image = output.numel() as u64 / u64::from(g.n) * dtype.element_bytes();
        check_word_aligned_parts("images", [("input", in_image), ("output", out_image)], limit)?;
        let per_chunk = (limit / in_image.max(out_image)).min(u64::from(g.n));
        if per_chunk == 0 {
            return self.encode_convolution_in_bands(call, output, g);
        }
        let transformed = self.winograd_weight_for_parts(&call, g)?;
        let call = ConvCall { packed_winograd: transformed.as_ref(), ..call };
        let mut kernel = None;
        let mut start = 0u64;
        while start < u64::from(g.n) {
            let n = per_chunk.min(u64::from(g.n) - start);
            let mut in_shape = input.shape().to_vec();
            let mut out_shape = output.shape().to_vec();
            in_shape[0] = n as usize;
            out_shape[0] = n as usize;
            let chunk_in = Tensor::zeros(self.ctx, &in_shape, dtype)?;
            let chunk_out = Tensor::zeros(self.ctx, &out_shape, dtype)?;
            self.encoder().copy_buffer_to_buffer(input.buffer(), start * in_image, chunk_in.buffer(), 0, n * in_image);
            let geometry = call.geometry(&in_shape)?;
            kernel = Some(self.encode_convolution(ConvCall { input: &chunk_in, ..call }, &chunk_out, &geometry)?);
            self.encoder().copy_buffer_to_buffer(
                chunk_out.buffer(),
                0,
                output.buffer(),
                start * out_image,
                n * out_image,
            );
            start += n;
        }
        // `g.n` is at least 1 (validated), so the loop ran.
        Ok(kernel.expect("a batch of at least one image"))
    }
}

/// A tensor over one storage binding is run in parts (images, or rows of an image) staged by
/// buffer copies, which move whole 4-byte words: f16 parts of an odd element count would start
/// mid-word. Errors with the tensor whose `parts` (`(tensor, bytes per part)`) cannot be split.
pub(super) fn check_word_aligned_parts(what: &str, parts: [(&'static str, u64); 2], limit: u64) -> Result<()> {
    match parts.into_iter().find(|(_, bytes)| !bytes.is_multiple_of(4)) {
        None => Ok(()),
        Some((tensor, bytes)) => Err(Error::shape(format!(
            "the convolution does not fit one {limit}-byte storage binding, and the {tensor}'s f16 {what} \
             ({bytes} bytes each) cannot be split on the 4-byte boundaries buffer copies need"
        ))),
    }
}

/// A geometry of `weight`'s convolutions for which `Conv2d::new` keeps a Winograd-transformed
/// weight (its input a single window of the filter's size: the transform reads only the channel
/// counts), and the Winograd kernel it is for: f32 weights that suit it, with the 64+ input and
/// output channels rule R31 plans it for, whose transform fits one of `ctx`'s storage bindings.
/// Where f16 multiplicands are allowed and the context has cooperative matrices: R44's of 32–128
/// channels in and out, for `WinogradFused`; else only those R40 and R42 may run on Winograd
/// (256+ input channels, or 128+ in and out; the others go to `CoopF16`), for `WinogradCoop`
/// where it runs this many input channels; and for `Winograd5x5Tile4` R68's 5×5 layers of 32+
/// input and output channels where the tensor cores do not take them. (R62's `Winograd4x4Coop`
/// depends on the input's size: such a `Conv2d` runs `WinogradCoop` on the transform it kept,
/// `runs_kept_coop_weight`; `Conv2d::new_for_input` keeps R62's.) A Winograd kernel `forced`
/// gets its own, for f32 weights of its shape.
fn winograd_geometry(
    ctx: &Context,
    weight: &Tensor,
    opts: &ConvOptions,
    forced: &ForcedPlan,
) -> Option<(ConvGeometry, ConvKernel)> {
    let shape = weight.shape();
    // An input the (dilated) filter's size: any geometry of this weight has the same transformed
    // weight.
    let (ic, kh, kw) = (*shape.get(1)?, *shape.get(2)?, *shape.get(3)?);
    let [dh, dw] = pair("dilation", &opts.dilation, false).ok()?;
    let span = |k: usize, d: u32| (d as usize).saturating_mul(k.saturating_sub(1)).saturating_add(1);
    let g = ConvGeometry::new(&[1, ic, span(kh, dh), span(kw, dw)], shape, None, opts).ok()?;
    let binding_limit = ctx.limits().max_storage_buffer_binding_size;
    let fits = g.winograd_weight_fits(ConvKernel::Winograd.winograd_transform(), binding_limit);
    if let Some(kernel) = forced.kernel.filter(|k| k.transforms_winograd_weight()) {
        let tensor_cores = kernel.is_tensor_core() && ctx.cooperative_f16();
        let fits = match kernel {
            ConvKernel::WinogradFused => g.winograd_fused_weight_fits(binding_limit),
            _ => g.winograd_kernel_weight_fits(kernel, binding_limit),
        };
        return (weight.dtype() == DType::F32 && fits && (tensor_cores || !kernel.is_tensor_core()))
            .then_some((g, kernel));
    }
    let storage = ctx.limits().max_compute_workgroup_storage_size;
    let tensor_cores = opts.precision == Precision::AllowF16
        && ctx.cooperative_f16()
        && ConvKernel::CoopF16.workgroup_storage_bytes() <= storage;
    // 5×5 layers of R68's channel counts run F(4×4, 5×5) on all but the smallest grids (those
    // run a GEMM kernel and need no transform), in fp32 (where f16 is allowed the tensor cores
    // take them, as the GEMM-shaped layers they were).
    let tile4 = ConvKernel::Winograd5x5Tile4;
    if g.winograd_shape_of(tile4.winograd_transform().filter) {
        let fits = g.winograd_weight_fits(tile4.winograd_transform(), binding_limit);
        return (weight.dtype() == DType::F32 && fits && !tensor_cores && g.winograd_5x5_tile4_channels())
            .then_some((g, tile4));
    }
    if weight.dtype() != DType::F32 || !fits {
        return None;
    }
    // R44's channel counts run Winograd in one pass, on grids of any size.
    if tensor_cores && super::conv_plan::winograd_fused_runs_on(ctx, &g) && g.winograd_fused_channels() {
        return Some((g, ConvKernel::WinogradFused));
    }
    if g.in_channels() < 64 || g.out_channels() < 64 {
        return None;
    }
    if !tensor_cores {
        return Some((g, ConvKernel::Winograd));
    }
    let coop = ConvKernel::WinogradCoop;
    let coop_runs = coop.workgroup_storage_bytes() <= storage && g.ic.is_multiple_of(8);
    if g.ic >= super::conv_plan::WINOGRAD_TENSOR_CORES_MIN_IC {
        Some((g, if coop_runs { coop } else { ConvKernel::Winograd }))
    } else if g.winograd_coop_min_columns().is_some() && coop_runs {
        // R42's layers of fewer input channels run `WinogradCoop` only (on large enough grids).
        Some((g, coop))
    } else {
        None
    }
}

/// The geometry of `weight`'s convolution of an input of `input_shape`, and the Winograd kernel
/// the planner runs it on, where it runs one: the transform a `Conv2d` made for that input keeps
/// (f32 weights; the kernel's transformed weight must fit one storage binding, as the planner
/// checks). An input shape that does not suit the weight and options is the geometry's error.
fn winograd_planned_for_input(
    ctx: &Context,
    weight: &Tensor,
    bias: Option<&Tensor>,
    opts: &ConvOptions,
    forced: &ForcedPlan,
    input_shape: &[usize],
) -> Result<Option<(ConvGeometry, ConvKernel)>> {
    let g = ConvGeometry::new(input_shape, weight.shape(), bias.map(Tensor::shape), opts)?;
    if weight.dtype() != DType::F32 {
        return Ok(None);
    }
    let plan = super::conv_plan::plan(ctx, &g, DType::F32, opts.precision, forced)?;
    Ok(plan.kernel.transforms_winograd_weight().then_some((g, plan.kernel)))
}

/// One convolution call: its operands and what was asked of it.
#[derive(Clone, Copy)]
pub(super) struct ConvCall<'a> {
    pub(super) input: &'a Tensor,
    pub(super) weight: &'a Tensor,
    /// The weight prepacked for the GEMM kernels by [`Conv2d::new`], if it was.
    pub(super) packed: Option<&'a Tensor>,
    /// The weight prepacked for `CoopNhwc` by [`Conv2d::new`], if it was.
    pub(super) packed_coop: Option<&'a Tensor>,
    /// The weight transformed by [`Conv2d::new`] for the Winograd kernel it expects the planner to
    /// run, if it was, tagged with that kernel; used only by that kernel (the layouts differ).
    pub(super) packed_winograd: Option<&'a WinogradWeight>,
    pub(super) bias: Option<&'a Tensor>,
    pub(super) opts: &'a ConvOptions,
    pub(super) forced: &'a ForcedPlan,
}

impl ConvCall<'_> {
    fn geometry(&self, input_shape: &[usize]) -> Result<ConvGeometry> {
        ConvGeometry::new(input_shape, self.weight.shape(), self.bias.map(Tensor::shape), self.opts)
    }
}

/// Checks that a convolution operand is f32, or f16 on a device that has `SHADER_F16`, and fits
/// one storage binding; returns its dtype, which the other operands must share
/// ([`check_same_dtype`] with it).
pub(crate) fn check_float_operand(ctx: &Context, name: &'static str, t: &Tensor) -> Result<DType> {
    t.check_device(ctx, name)?;
    let dtype = float_dtype(ctx, name, t, "a convolution")?;
    ctx.check_binding(name, t.size_bytes())?;
    Ok(dtype)
}

/// A float operand's dtype: f32, or f16 on a device that has `SHADER_F16` (else the error says
/// `operation` needs it).
pub(crate) fn float_dtype(ctx: &Context, name: &'static str, t: &Tensor, operation: &str) -> Result<DType> {
    match t.dtype() {
        DType::F32 => Ok(DType::F32),
        DType::F16 if ctx.features().contains(wgpu::Features::SHADER_F16) => Ok(DType::F16),
        DType::F16 => Err(Error::MissingFeature {
            feature: "shader-f16",
            what: format!("{operation} of f16 tensors ({name} {:?})", t.shape()),
            device: ctx.describe(),
        }),
        got => Err(Error::DType { tensor: name, expected: DType::F32, got }),
    }
}

/// Checks that convolution operand `name` has the dtype of operand `first` (the input, or the
/// weight of a prepared convolution) and fits one storage binding.
pub(crate) fn check_same_dtype(
    ctx: &Context,
    name: &'static str,
    t: &Tensor,
    first: (&'static str, DType),
) -> Result<()> {
    t.check_device(ctx, name)?;
    same_dtype(name, t, first)?;
    ctx.check_binding(name, t.size_bytes())
}

fn same_dtype(name: &'static str, t: &Tensor, (first, dtype): (&'static str, DType)) -> Result<()> {
    if t.dtype() != dtype {
        return Err(Error::MixedDTypes { tensor: name, got: t.dtype(), first, expected: dtype });
    }
    Ok(())
}

/// The dtype of a convolution's tensors: the input's (f32, or f16 with `SHADER_F16`), which the
/// weight, bias and output must share. Binding sizes are [`check_conv_bindings`]'s business: a
/// convolution too large for one binding may still run in parts.
pub(super) fn conv_dtype(ctx: &Context, call: &ConvCall<'_>, output: &Tensor) -> Result<DType> {
    let dtype = float_dtype(ctx, "input", call.input, "a convolution")?;
    for (name, t) in [("weight", Some(call.weight)), ("output", Some(output)), ("bias", call.bias)] {
        if let Some(t) = t {
            same_dtype(name, t, ("input", dtype))?;
        }
    }
    Ok(dtype)
}

/// Checks that each of a convolution's tensors fits one storage binding.
pub(super) fn check_conv_bindings(ctx: &Context, call: &ConvCall<'_>, output: &Tensor) -> Result<()> {
    let tensors =
        [("input", Some(call.input)), ("weight", Some(call.weight)), ("output", Some(output)), ("bias", call.bias)];
    for (name, t) in tensors {
        if let Some(t) = t {
            ctx.check_binding(name, t.size_bytes())?;
        }
    }
    Ok(())
}

/// Checks a tensor's device, its dtype and that it fits one storage binding.
pub(crate) fn check_operand(ctx: &Context, name: &'static str, t: &Tensor, dtype: DType) -> Result<()> {
    t.check_device(ctx, name)?;
    t.expect_dtype(name, dtype)?;
    ctx.check_binding(name, t.size_bytes())
}
