//! int8 ops: `quantize_per_tensor`, `dequantize_per_tensor` and `q8ta_conv2d_pw` (pointwise conv
//! with per-tensor activation quantization and per-channel weight scales), as a 1×1 `nn.Conv2d`
//! lowered through static PT2E quantization runs them.

use super::{conv::check_operand, conv_options::Activation};
use crate::{
    batch::{Batch, Pass},
    context::Context,
    dispatch::{self, MAX_WORKGROUPS_PER_DIM},
    error::{Error, Result},
    ops::conv_plan::{FITTED_SMS, tensor_cores_unavailable},
    shaders::{
        dequantize, q8ta_conv2d_pw as q8_shader, q8ta_conv2d_pw_coop as q8_coop, q8ta_conv2d_pw_gemm as q8_gemm,
        quantize,
    },
    tensor::{DType, MemoryFormat, Tensor},
};

/// Affine quantization of one tensor: `real = (q − zero_point) · scale`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct QuantParams {
    /// Positive, finite scale.
    pub scale: f32,
    /// Zero point in [−128, 127].
    pub zero_point: i32,
}

impl QuantParams {
    /// Scale and zero point.
    pub fn new(scale: f32, zero_point: i32) -> Self {
        Self { scale, zero_point }
    }

    /// Checks the scale is positive, finite and normal (not subnormal: GPUs may flush a subnormal
    /// to zero where the host does not, and the smallest have an infinite reciprocal, so 0 × ∞
    /// would quantize 0 to NaN), and the zero point fits int8.
    pub fn validate(&self, what: &str) -> Result<()> {
        if !(self.scale.is_finite() && self.scale > 0.0) {
            return Err(Error::option(
                "quantization",
                format!("{what} scale must be positive and finite, got {}", self.scale),
            ));
        }
        if !self.scale.is_normal() || !self.inv_scale().is_finite() {
            return Err(Error::option(
                "quantization",
                format!(
                    "{what} scale {:e} is subnormal (below {:e}): too small for f32 on a GPU",
                    self.scale,
                    f32::MIN_POSITIVE
                ),
            ));
        }
        if !(-128..=127).contains(&self.zero_point) {
            return Err(Error::option(
                "quantization",
                format!("{what} zero point must be in [-128, 127], got {}", self.zero_point),
            ));
        }
        Ok(())
    }

    /// The f32 reciprocal torch multiplies by when quantizing.
    pub fn inv_scale(&self) -> f32 {
        1.0 / self.scale
    }
}

/// Host reference of `quantize_per_tensor` (matches `torch.quantize_per_tensor`, which multiplies by
/// the f32 reciprocal of the scale and rounds half to even, on every finite value; NaN, whose
/// conversion PyTorch leaves undefined, quantizes to the zero point here and on the GPU).
pub fn quantize_value(x: f32, q: QuantParams) -> i8 {
    let scaled = (x * q.inv_scale()).round_ties_even();
    // Out-of-range floats saturate in the `as` cast; NaN becomes 0, so it quantizes to the zero
    // point, as the shader makes it do.
    (scaled as i32).saturating_add(q.zero_point).clamp(-128, 127) as i8
}

/// Host reference of `dequantize_per_tensor`.
pub fn dequantize_value(v: i8, q: QuantParams) -> f32 {
    (i32::from(v) - q.zero_point) as f32 * q.scale
}

/// Arguments of `q8ta_conv2d_pw` besides the tensors. The stride, padding, dilation and groups
/// of ExecuTorch's op are kept so a graph's arguments can be passed through as they are: the op
/// is pointwise, so any other value than the default is an [`Error::InvalidOption`] naming it.
#[derive(Clone, Debug, PartialEq)]
pub struct Q8ConvPwOptions {
    /// Must be 1 (1 or 2 values).
    pub stride: Vec<u32>,
    /// Must be 0.
    pub padding: Vec<u32>,
    /// Must be 1.
    pub dilation: Vec<u32>,
    /// Must be 1.
    pub groups: u32,
    /// `None` or `Relu` (applied to the real value before requantization).
    pub activation: Activation,
}

impl Default for Q8ConvPwOptions {
    fn default() -> Self {
        Self { stride: vec![1], padding: vec![0], dilation: vec![1], groups: 1, activation: Activation::None }
    }
}

/// Which kernel runs a `q8ta_conv2d_pw`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Q8Kernel {
    /// One thread per output word, scalar byte multiply-adds (the reference kernel; any shape).
    Scalar,
    /// 64×64-tile GEMM over `dot4I8Packed`, 4×4 outputs per thread (IC % 4 == 0, H·W % 4 == 0).
    Dot4Gemm,
    /// The same GEMM on tiles 32 pixels wide (64 × 32, 128 threads): twice the workgroups, for
    /// grids of 64 × 64 tiles too few to fill the GPU (same shapes as [`Q8Kernel::Dot4Gemm`]).
    Dot4GemmN32,
    /// 128×128 tiles on f16 cooperative matrices (tensor cores), 16 subgroups, bit-identical to
    /// the integer kernels: the K loop runs in exact chunks of 512 channels, converted to i32
    /// between chunks (IC % 4 == 0, H·W % 4 == 0, IC ≤ 65536; a context with cooperative matrices).
    Coop,
}

impl Q8Kernel {
    /// Every kernel, in the order of the variants.
    pub const ALL: [Q8Kernel; 4] = [Q8Kernel::Scalar, Q8Kernel::Dot4Gemm, Q8Kernel::Dot4GemmN32, Q8Kernel::Coop];

    /// Short name for logs and tables.
    pub fn name(self) -> &'static str {
        match self {
            Q8Kernel::Scalar => "q8_scalar",
            Q8Kernel::Dot4Gemm => "q8_dot4_gemm",
            Q8Kernel::Dot4GemmN32 => "q8_dot4_gemm_n32",
            Q8Kernel::Coop => "q8_coop",
        }
    }

    /// The kernel called `name` (as [`Q8Kernel::name`] spells it).
    pub fn from_name(name: &str) -> Option<Q8Kernel> {
        Q8Kernel::ALL.into_iter().find(|k| k.name() == name)
    }

    /// Whether the kernel runs on cooperative matrices (needs a context that has them).
    pub fn is_tensor_core(self) -> bool {
        matches!(self, Q8Kernel::Coop)
    }

    /// The output tile (channels, pixels) of one workgroup of a GEMM kernel.
    fn tile(self) -> Option<(u32, u32)> {
        match self {
            Q8Kernel::Scalar => None,
            Q8Kernel::Dot4Gemm => Some((64, 64)),
            Q8Kernel::Dot4GemmN32 => Some((64, 32)),
            Q8Kernel::Coop => Some((128, 128)),
        }
    }
}

/// The most input channels the tensor-core kernels take: their i32 sums stay below 2^31 while
/// IC · 128 · 255 does.
pub const Q8_COOP_MAX_IC: u32 = 65536;

/// The tensors and quantization parameters of one `q8ta_conv2d_pw`.
#[derive(Clone, Copy, Debug)]
pub struct Q8ConvPwArgs<'a> {
    /// int8 `[N, IC, H, W]`.
    pub input: &'a Tensor,
    /// Input quantization.
    pub input_quant: QuantParams,
    /// int8 `[OC, IC]`.
    pub weight: &'a Tensor,
    /// f32 `[OC]`, per-output-channel weight scales (weights are symmetric: zero point 0).
    pub weight_scales: &'a Tensor,
    /// Σ_ic weight[oc, ic], accepted for interface parity with ExecuTorch. The kernel subtracts the
    /// input zero point before multiplying, which is the same correction; only the length is checked.
    pub weight_sums: Option<&'a [i32]>,
    /// Optional f32 `[OC]` bias, added to the real-valued result.
    pub bias: Option<&'a Tensor>,
    /// Output quantization.
    pub output_quant: QuantParams,
}

/// Sizes of a validated `q8ta_conv2d_pw`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Q8PwGeometry {
    /// Batch.
    pub(crate) n: u32,
    /// Input channels.
    pub(crate) ic: u32,
    /// Output channels.
    pub(crate) oc: u32,
    /// Height.
    pub(crate) h: u32,
    /// Width.
    pub(crate) w: u32,
}

impl Q8PwGeometry {
    /// Validates the arguments (pure: shapes, dtypes, values; no GPU).
    pub fn new(args: &Q8ConvPwArgs<'_>, opts: &Q8ConvPwOptions) -> Result<Self> {
        args.input.expect_dtype("input", DType::I8)?;
        args.weight.expect_dtype("weight", DType::I8)?;
        let g = Self::from_shapes(args.input.shape(), args.weight.shape(), opts)?;
        let oc = g.oc as usize;
        for (name, t) in [("weight_scales", Some(args.weight_scales)), ("bias", args.bias)] {
            if let Some(t) = t
                && (t.dtype() != DType::F32 || t.shape() != [oc])
            {
                return Err(Error::shape(format!(
                    "{name} must be float32 of shape [{oc}] (one per output channel), got {} of shape {:?}",
                    t.dtype(),
                    t.shape()
                )));
            }
        }
        if let Some(sums) = args.weight_sums
            && sums.len() != oc
        {
            return Err(Error::shape(format!("weight_sums must have {oc} values, got {}", sums.len())));
        }
        args.input_quant.validate("input")?;
        args.output_quant.validate("output")?;
        Ok(g)
    }

    /// The shape and option checks alone (pure): ranks, channel agreement, supported options, sizes.
    pub fn from_shapes(input: &[usize], weight: &[usize], opts: &Q8ConvPwOptions) -> Result<Self> {
        if input.len() != 4 {
            return Err(Error::Rank {
                tensor: "input",
                expected: "4 (NCHW)".into(),
                got: input.len(),
                shape: input.to_vec(),
            });
        }
        if weight.len() != 2 {
            return Err(Error::Rank {
                tensor: "weight",
                expected: "2 ([OC, IC])".into(),
                got: weight.len(),
                shape: weight.to_vec(),
            });
        }
        if weight[1] != input[1] {
            return Err(Error::shape(format!(
                "weight {weight:?} has {} input channels, the input {input:?} has {}",
                weight[1], input[1]
            )));
        }
        for (name, values, supported) in
            [("stride", &opts.stride, 1u32), ("padding", &opts.padding, 0), ("dilation", &opts.dilation, 1)]
        {
            if values.is_empty() || values.len() > 2 || values.iter().any(|v| *v != supported) {
                return Err(Error::option(
                    name,
                    format!(
                        "q8ta_conv2d_pw supports only {name} {supported} (a pointwise convolution), got {values:?}"
                    ),
                ));
            }
        }
        if opts.groups != 1 {
            return Err(Error::option("groups", format!("q8ta_conv2d_pw supports only groups 1, got {}", opts.groups)));
        }
        if !matches!(opts.activation, Activation::None | Activation::Relu) {
            return Err(Error::option(
                "activation",
                format!("q8ta_conv2d_pw supports activation none or relu, got {:?}", opts.activation),
            ));
        }
        let shape = [input[0], weight[0], input[2], input[3]];
        let count = shape.iter().try_fold(1u64, |acc, d| acc.checked_mul(*d as u64)).unwrap_or(u64::MAX);
        if count == 0 {
            return Err(Error::shape(format!("output shape {shape:?} is empty")));
        }
        if count > u64::from(u32::MAX) || input.iter().any(|d| *d as u64 > u64::from(u32::MAX)) {
            return Err(Error::TooManyElements { tensor: "output", count, limit: u64::from(u32::MAX) });
        }
        let [n, oc, h, w] = shape.map(|d| d as u32);
        Ok(Self { n, ic: input[1] as u32, oc, h, w })
    }

    /// Whether `kernel` can run this shape (on a device that has what it needs: see
    /// [`Q8Kernel::is_tensor_core`]).
    pub fn supports(&self, kernel: Q8Kernel) -> bool {
        let Some((tile_m, _)) = kernel.tile() else { return true };
        let hw = u64::from(self.h) * u64::from(self.w);
        self.ic.is_multiple_of(4)
            && hw.is_multiple_of(4)
            && u64::from(self.oc.div_ceil(tile_m)) <= MAX_WORKGROUPS_PER_DIM
            && (!kernel.is_tensor_core() || self.ic <= Q8_COOP_MAX_IC)
    }

    /// A GEMM kernel's grid: tiles of the whole batch's pixels along x, continued along z past
    /// 65535 (the shaders skip tiles past the end), output-channel tiles along y.
    fn gemm_grid(&self, kernel: Q8Kernel) -> [u32; 3] {
        let (tiles, channel_tiles) = self.tiles(kernel);
        // The output has at most 2^32 elements (validated), so tiles / 65535 < 65535.
        let layers = tiles.div_ceil(MAX_WORKGROUPS_PER_DIM);
        [tiles.div_ceil(layers) as u32, channel_tiles as u32, layers as u32]
    }

    /// `kernel`'s output tiles: (tiles of pixels over the whole batch, tiles of output channels).
    fn tiles(&self, kernel: Q8Kernel) -> (u64, u64) {
        let (tile_m, tile_n) = kernel.tile().expect("a GEMM kernel");
        let pixels = u64::from(self.n) * u64::from(self.h) * u64::from(self.w);
        (pixels.div_ceil(u64::from(tile_n)), u64::from(self.oc.div_ceil(tile_m)))
    }

    /// The planner's choice on a device without cooperative matrices: the packed-dot GEMM
    /// wherever it applies.
    pub fn planned_kernel(&self) -> Q8Kernel {
        self.planned_kernel_with(false)
    }

    /// The planner's choice, on a context with f16 cooperative matrices when `tensor_cores`
    /// ([`Context::cooperative_f16`]). The tensor-core kernels are bit-identical to the others,
    /// so they need no precision opt-in.
    pub fn planned_kernel_with(&self, tensor_cores: bool) -> Q8Kernel {
        if tensor_cores && self.coop_wins() {
            Q8Kernel::Coop
        } else if self.supports(Q8Kernel::Dot4Gemm) {
            if self.narrow_tiles_win() { Q8Kernel::Dot4GemmN32 } else { Q8Kernel::Dot4Gemm }
        } else {
            Q8Kernel::Scalar
        }
    }

    /// Rule R28: the tensor-core kernel where it measured faster than the `dot4I8Packed` GEMM
    /// (H200, v28, the 28 layers of `bench/suites/int8.json`): at least 256 input and output
    /// channels on at least 96 of its 128×128 tiles. It won 1.10× on ResNet-50's 256→1024 at 14²,
    /// batch 8 (104 tiles), and 1.13× on its 1024→256 at batch 32 (98 tiles); it lost on every
    /// other layer: on fewer tiles (the same 1024→256 at batch 8, 26 tiles: 0.61×), on fewer
    /// channels (K 64–128 or 64 output channels, at 784–1568 tiles: 0.69–0.89×), and on every
    /// batch-1 layer (0.63–0.86×), where the integer kernel's smaller tiles keep more of the GPU busy.
    fn coop_wins(&self) -> bool {
        let (pixel_tiles, channel_tiles) = self.tiles(Q8Kernel::Coop);
        let tiles = pixel_tiles * channel_tiles;
        self.supports(Q8Kernel::Coop) && self.ic >= 256 && self.oc >= 256 && tiles >= 96
    }

    /// Rule R56: the packed-dot GEMM on 32-pixel tiles where they take at least 1.15× fewer
    /// waves over the fitted GPU's multiprocessors ([`FITTED_SMS`]) than the 64 × 64 tiles, a
    /// 32-pixel tile counting half: T tiles of 64 × 64 take ⌈T / 132⌉ waves, their 2T halves
    /// ⌈2T / 132⌉ / 2. So grids of up to 66 tiles (one wave either way, half as long), of
    /// 133–198 (two waves against one and a half) and of 265–330 (three against two and a
    /// half); never beyond 396. Fitted on an H100 (v52 calls A and E: both widths forced, two
    /// interleaved rounds, over the 30 int8 layers of `bench/suites/int8.json` and the default
    /// suite and 110 held-out 1×1 layers of the zoos): 1.103× over the 140 against the 64-pixel
    /// tiles alone, 0.999× of each layer's faster width (worst 0.951×); the first form of the
    /// rule, fewer than 96 tiles, 1.080× and 0.978×: it left the 133–198 and 265–330 tile
    /// grids on the wide tiles, where the narrow ones were 1.04–1.23× faster (27 layers). By
    /// band, narrow against wide: ≤ 66 tiles 1.04–1.40× (57 layers), 67–95 0.98–1.05× (5),
    /// 96–132 0.96–1.02× (13), 199–264 0.95–0.99× (5), 331–396 0.79–0.95× (11), above
    /// 0.86–1.01× (22).
    fn narrow_tiles_win(&self) -> bool {
        let (pixel_tiles, channel_tiles) = self.tiles(Q8Kernel::Dot4Gemm);
        let tiles = pixel_tiles * channel_tiles;
        let (wide_waves, narrow_half_waves) = (tiles.div_ceil(FITTED_SMS), (2 * tiles).div_ceil(FITTED_SMS));
        // wide / (narrow / 2) ≥ 1.15, in integers.
        40 * wide_waves >= 23 * narrow_half_waves
    }

    /// `forced` when it supports the shape (else an error), the planner's choice when `None`.
    pub(crate) fn choose_kernel(&self, forced: Option<Q8Kernel>, tensor_cores: bool) -> Result<Q8Kernel> {
        match forced {
            None => Ok(self.planned_kernel_with(tensor_cores)),
            Some(k) if self.supports(k) => Ok(k),
            Some(k) => Err(Error::unavailable(
                k.name(),
                format!(
                    "kernel {} needs IC % 4 == 0{} and H·W % 4 == 0, got IC {} and H·W {}",
                    k.name(),
                    if k.is_tensor_core() { format!(" and IC ≤ {Q8_COOP_MAX_IC}") } else { String::new() },
                    self.ic,
                    u64::from(self.h) * u64::from(self.w)
                ),
            )),
        }
    }

    /// `[N, OC, H, W]`.
    pub fn output_shape(&self) -> Vec<usize> {
        [self.n, self.oc, self.h, self.w].map(|d| d as usize).to_vec()
    }
}

/// Whether the device's limits take `q8_coop`'s workgroup (its threads and its workgroup memory),
/// or why not.
fn coop_fits(limits: &wgpu::Limits) -> std::result::Result<(), String> {
    let memory = q8_coop::Q8TA_CONV2D_PW_COOP_WORKGROUP_MEMORY_BYTES;
    let [threads, ..] = q8_coop::Q8TA_CONV2D_PW_COOP_WORKGROUP_SIZE;
    let storage = limits.max_compute_workgroup_storage_size;
    let allowed = dispatch::max_workgroup_threads(limits);
    if memory > storage {
        return Err(format!("kernel q8_coop needs {memory} bytes of workgroup memory; this device allows {storage}"));
    }
    if threads > allowed {
        return Err(format!("kernel q8_coop needs workgroups of {threads} threads; this device allows {allowed}"));
    }
    Ok(())
}

/// The shaders index elements in u32: a tensor with more (possible where a binding exceeds
/// 4 GiB) is an error naming its size rather than a wrapped index.
fn elements_fit_u32(op: &str, input: &Tensor) -> Result<()> {
    if u32::try_from(input.numel()).is_err() {
        return Err(Error::shape(format!(
            "{op}: input has {} elements; at most {} are supported",
            input.numel(),
            u32::MAX
        )));
    }
    Ok(())
}

impl Batch<'_> {
    /// Records `quantize_per_tensor`: f32 → int8 of the same shape.
    pub fn quantize_per_tensor(&mut self, input: &Tensor, q: QuantParams) -> Result<Tensor> {
        let ctx = self.ctx;
        check_operand(ctx, "input", input, DType::F32)?;
        q.validate("quantize")?;
        elements_fit_u32("quantize", input)?;
        // Element-wise: the output keeps the input's memory format.
        let output = Tensor::zeros(ctx, input.shape(), DType::I8)?.with_memory_format(input.memory_format())?;
        let numel = input.numel() as u64;
        let limits = ctx.limits();
        let grid = dispatch::grid(
            numel.div_ceil(4),
            dispatch::workgroup_size(&limits),
            limits.max_compute_workgroups_per_dimension,
        )?;
        let mut overrides = quantize::Overrides::new(grid.stride_x);
        overrides.wg_size = grid.wg_size;
        let params = quantize::QuantizeParams::new(numel as u32, q.zero_point, q.scale, q.inv_scale());
        let params = ctx.uniform("QuantizeParams", &params)?;
        let group = quantize::BindGroup0 {
            real_values: input.buffer().as_entire_buffer_binding(),
            quantized: output.buffer().as_entire_buffer_binding(),
            params: params.as_entire_buffer_binding(),
        };
        let pass = Pass::new(quantize::Entry::QuantizePerTensor, &overrides, grid.dims());
        self.record::<quantize::Shader>("quantize_per_tensor", pass, &group)?;
        Ok(output)
    }

    /// Records `dequantize_per_tensor`: int8 → f32 of the same shape.
    pub fn dequantize_per_tensor(&mut self, input: &Tensor, q: QuantParams) -> Result<Tensor> {
        let ctx = self.ctx;
        check_operand(ctx, "input", input, DType::I8)?;
        q.validate("dequantize")?;
        elements_fit_u32("dequantize", input)?;
        // Element-wise: the output keeps the input's memory format.
        let output = Tensor::zeros(ctx, input.shape(), DType::F32)?.with_memory_format(input.memory_format())?;
        let numel = input.numel() as u64;
        let limits = ctx.limits();
        let grid =
            dispatch::grid(numel, dispatch::workgroup_size(&limits), limits.max_compute_workgroups_per_dimension)?;
        let mut overrides = dequantize::Overrides::new(grid.stride_x);
        overrides.wg_size = grid.wg_size;
        let params = dequantize::DequantizeParams::new(numel as u32, q.zero_point, q.scale);
        let params = ctx.uniform("DequantizeParams", &params)?;
        let group = dequantize::BindGroup0 {
            quantized: input.buffer().as_entire_buffer_binding(),
            real_values: output.buffer().as_entire_buffer_binding(),
            params: params.as_entire_buffer_binding(),
        };
        let pass = Pass::new(dequantize::Entry::DequantizePerTensor, &overrides, grid.dims());
        self.record::<dequantize::Shader>("dequantize_per_tensor", pass, &group)?;
        Ok(output)
    }

    /// Records `q8ta_conv2d_pw` and returns the int8 `[N, OC, H, W]` output.
    pub fn q8ta_conv2d_pw(&mut self, args: &Q8ConvPwArgs<'_>, opts: &Q8ConvPwOptions) -> Result<Tensor> {
        let g = Q8PwGeometry::new(args, opts)?;
        let output = Tensor::zeros(self.ctx, &g.output_shape(), DType::I8)?;
        self.encode_q8(args, opts, None, &g, &output)?;
        Ok(output)
    }

    /// Records `q8ta_conv2d_pw` into a caller-supplied int8 output.
    pub fn q8ta_conv2d_pw_into(
        &mut self,
        args: &Q8ConvPwArgs<'_>,
        opts: &Q8ConvPwOptions,
        output: &Tensor,
    ) -> Result<Q8Kernel> {
        self.q8ta_conv2d_pw_into_with(args, opts, None, output)
    }

    /// [`Batch::q8ta_conv2d_pw_into`] run by `kernel` instead of the planner's choice (benchmarks,
    /// tests); a kernel that cannot run the shape is an [`Error::KernelUnavailable`].
    pub fn q8ta_conv2d_pw_into_forced(
        &mut self,
        args: &Q8ConvPwArgs<'_>,
        opts: &Q8ConvPwOptions,
        kernel: Q8Kernel,
        output: &Tensor,
    ) -> Result<Q8Kernel> {
        self.q8ta_conv2d_pw_into_with(args, opts, Some(kernel), output)
    }

    fn q8ta_conv2d_pw_into_with(
        &mut self,
        args: &Q8ConvPwArgs<'_>,
        opts: &Q8ConvPwOptions,
        forced: Option<Q8Kernel>,
        output: &Tensor,
    ) -> Result<Q8Kernel> {
        let g = Q8PwGeometry::new(args, opts)?;
        output.expect_dtype("output", DType::I8)?;
        if output.shape() != g.output_shape() {
            return Err(Error::OutputShape { expected: g.output_shape(), got: output.shape().to_vec() });
        }
        self.encode_q8(args, opts, forced, &g, output)
    }

    fn encode_q8(
        &mut self,
        args: &Q8ConvPwArgs<'_>,
        opts: &Q8ConvPwOptions,
        forced: Option<Q8Kernel>,
        g: &Q8PwGeometry,
        output: &Tensor,
    ) -> Result<Q8Kernel> {
        let ctx = self.ctx;
        check_operand(ctx, "input", args.input, DType::I8)?;
        check_operand(ctx, "weight", args.weight, DType::I8)?;
        check_operand(ctx, "output", output, DType::I8)?;
        for (name, t) in [("weight_scales", Some(args.weight_scales)), ("bias", args.bias)] {
            if let Some(t) = t {
                t.check_device(ctx, name)?;
            }
        }
        // The int8 kernels read and write NCHW.
        for (tensor, t) in [("input", args.input), ("output", output)] {
            if t.memory_format() != MemoryFormat::Contiguous {
                return Err(Error::MemoryFormat {
                    tensor,
                    reason: format!(
                        "q8ta_conv2d_pw takes contiguous (NCHW) tensors, got {}; convert it with to_memory_format",
                        t.memory_format()
                    ),
                });
            }
        }
        // The planner takes the tensor cores only where they can run.
        let coop_limits = coop_fits(&ctx.limits());
        let kernel = g.choose_kernel(forced, ctx.cooperative_f16() && coop_limits.is_ok())?;
        if kernel.is_tensor_core() {
            if !ctx.cooperative_f16() {
                return Err(tensor_cores_unavailable(ctx, kernel.name()));
            }
            coop_limits.map_err(|reason| Error::unavailable(kernel.name(), reason))?;
        }
        let relu = u32::from(opts.activation == Activation::Relu);
        // The reciprocal is taken in f64 and rounded once, as the reference handler does.
        let inv_output_scale = (1.0 / f64::from(args.output_quant.scale)) as f32;
        // The kernels read the same uniform and bindings, so one set serves every module.
        const {
            use crate::pipelines::{GeneratedShader, same_layout, same_names};
            type Scalar = q8_shader::Shader;
            type Gemm = q8_gemm::Shader;
            type Coop = q8_coop::Shader;
            assert!(same_names(Scalar::BINDINGS, Gemm::BINDINGS), "the q8 shaders bind the same names");
            assert!(same_layout(Scalar::UNIFORM_LAYOUT, Gemm::UNIFORM_LAYOUT), "the q8 shaders' uniforms agree");
            assert!(same_names(Scalar::BINDINGS, Coop::BINDINGS), "the q8 shaders bind the same names");
            assert!(same_layout(Scalar::UNIFORM_LAYOUT, Coop::UNIFORM_LAYOUT), "the q8 shaders' uniforms agree");
        }
        let params = q8_shader::Q8taConvPwParams::new(
            g.n,
            g.oc,
            g.ic,
            g.h,
            g.w,
            args.input_quant.zero_point,
            args.output_quant.zero_point,
            args.input_quant.scale,
            inv_output_scale,
            u32::from(args.bias.is_some()),
        );
        let params = ctx.uniform("Q8taConvPwParams", &params)?;
        let binding = |name: &'static str| {
            match name {
                "input" => args.input.buffer(),
                "weight" => args.weight.buffer(),
                "weight_scales" => args.weight_scales.buffer(),
                "bias" => args.bias.map_or(ctx.zero_buffer(), Tensor::buffer),
                "output" => output.buffer(),
                "params" => &params,
                other => unreachable!("the q8 shaders have no binding `{other}`"),
            }
            .as_entire_buffer_binding()
        };
        match kernel {
            Q8Kernel::Scalar => {
                let words = g.output_shape().iter().map(|d| *d as u64).product::<u64>().div_ceil(4);
                let limits = ctx.limits();
                let grid = dispatch::grid(
                    words,
                    dispatch::workgroup_size(&limits),
                    limits.max_compute_workgroups_per_dimension,
                )?;
                let mut overrides = q8_shader::Overrides::new(grid.stride_x);
                overrides.wg_size = grid.wg_size;
                overrides.activation = relu;
                let pass = Pass::new(q8_shader::Entry::Q8taConv2dPw, &overrides, grid.dims()).labelled(kernel.name());
                let group = <q8_shader::Shader as crate::pipelines::GeneratedShader>::bind_group_with(binding);
                self.record::<q8_shader::Shader>("q8ta_conv2d_pw", pass, &group)?;
            }
            Q8Kernel::Dot4Gemm | Q8Kernel::Dot4GemmN32 => {
                let mut overrides = q8_gemm::Overrides::new();
                overrides.activation = relu;
                // The tile's width in words of four pixels: the shader's loaders cover exactly
                // 16 or 8 (256 or 128 threads).
                overrides.tile_words = kernel.tile().expect("a GEMM kernel").1 / 4;
                debug_assert!(matches!(overrides.tile_words, 8 | 16), "{}", overrides.tile_words);
                let pass = Pass::new(q8_gemm::Entry::Q8taConv2dPwGemm, &overrides, g.gemm_grid(kernel))
                    .labelled(kernel.name());
                let group = <q8_gemm::Shader as crate::pipelines::GeneratedShader>::bind_group_with(binding);
                self.record::<q8_gemm::Shader>("q8ta_conv2d_pw", pass, &group)?;
            }
            Q8Kernel::Coop => {
                let mut overrides = q8_coop::Overrides::new();
                overrides.activation = relu;
                let entry = q8_coop::Entry::Q8taConv2dPwCoop;
                let pass = Pass::new(entry, &overrides, g.gemm_grid(kernel)).labelled(kernel.name());
                let group = <q8_coop::Shader as crate::pipelines::GeneratedShader>::bind_group_with(binding);
                self.record::<q8_coop::Shader>("q8ta_conv2d_pw", pass, &group)?;
            }
        }
        Ok(kernel)
    }
}

/// The one-op forms; their blocking forms (same names without `_async`) are native only.
impl Context {
    /// `quantize_per_tensor`, submitted. [`Context::quantize_per_tensor`] is the blocking form
    /// (native only).
    pub async fn quantize_per_tensor_async(&self, input: &Tensor, q: QuantParams) -> Result<Tensor> {
        self.submit_one_async(|batch| batch.quantize_per_tensor(input, q)).await
    }

    /// `dequantize_per_tensor`, submitted. [`Context::dequantize_per_tensor`] is the blocking
    /// form (native only).
    pub async fn dequantize_per_tensor_async(&self, input: &Tensor, q: QuantParams) -> Result<Tensor> {
        self.submit_one_async(|batch| batch.dequantize_per_tensor(input, q)).await
    }

    /// `q8ta_conv2d_pw`, submitted. [`Context::q8ta_conv2d_pw`] is the blocking form (native
    /// only).
    pub async fn q8ta_conv2d_pw_async(&self, args: &Q8ConvPwArgs<'_>, opts: &Q8ConvPwOptions) -> Result<Tensor> {
        self.submit_one_async(|batch| batch.q8ta_conv2d_pw(args, opts)).await
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quantize_rounds_half_to_even_and_saturates() {
        let q = QuantParams::new(0.5, 3);
        assert_eq!(quantize_value(0.25, q), 3); // 0.5 → 0
        assert_eq!(quantize_value(0.75, q), 5); // 1.5 → 2
        assert_eq!(quantize_value(1000.0, q), 127);
        assert_eq!(quantize_value(-1000.0, q), -128);
        assert_eq!(dequantize_value(5, q), 1.0);
    }

    #[test]
    fn shape_checks_are_pure() {
        let opts = Q8ConvPwOptions::default();
        let g = Q8PwGeometry::from_shapes(&[2, 8, 7, 7], &[3, 8], &opts).unwrap();
        assert_eq!(g.output_shape(), vec![2, 3, 7, 7]);
        let err = Q8PwGeometry::from_shapes(&[64, 8, 1024, 1024], &[1024, 8], &opts).unwrap_err();
        assert!(matches!(err, Error::TooManyElements { count: 68_719_476_736, .. }), "{err}");
        let err = Q8PwGeometry::from_shapes(&[1, 8, 0, 7], &[3, 8], &opts).unwrap_err();
        assert!(err.to_string().contains("is empty"), "{err}");
    }

    /// The entry point lowers to SPIR-V with 8 multiply-adds (32-deep K-tiles: 2 steps of 16
    /// channels × 4 accumulators per subgroup), unfused and with relu.
    #[test]
    fn coop_shader_compiles_to_spirv() {
        for entry in q8_coop::Entry::ALL {
            for relu in [0, 1] {
                let mut overrides = q8_coop::Overrides::new();
                overrides.activation = relu;
                let mul_adds =
                    crate::coop_spirv::coop_multiply_adds(q8_coop::SOURCE, entry.name(), &overrides.constants());
                assert_eq!(mul_adds, 8, "{}", entry.name());
            }
        }
    }

    #[test]
    fn coop_kernel_takes_pointwise_shapes_up_to_the_exact_channel_limit() {
        let opts = Q8ConvPwOptions::default();
        let g = |ic: usize, w: usize| Q8PwGeometry::from_shapes(&[2, ic, 3, w], &[70, ic], &opts).unwrap();
        let kernel = Q8Kernel::Coop;
        assert!(kernel.is_tensor_core());
        assert_eq!(Q8Kernel::from_name(kernel.name()), Some(kernel));
        assert!(g(8, 4).supports(kernel));
        assert!(!g(6, 4).supports(kernel), "IC % 4");
        assert!(!g(8, 5).supports(kernel), "H·W % 4");
        assert!(g(Q8_COOP_MAX_IC as usize, 4).supports(kernel));
        assert!(!g(Q8_COOP_MAX_IC as usize + 4, 4).supports(kernel), "past the exact i32 range");
        assert!(g(Q8_COOP_MAX_IC as usize + 4, 4).supports(Q8Kernel::Dot4Gemm));
        let err = g(Q8_COOP_MAX_IC as usize + 4, 4).choose_kernel(Some(kernel), true).unwrap_err();
        assert!(err.to_string().contains("IC ≤ 65536"), "{err}");
        // 12 pixels × 2 images in 64- and 128-pixel tiles; 70 channels in 64- and 128-channel tiles.
        assert_eq!(g(8, 4).gemm_grid(Q8Kernel::Dot4Gemm), [1, 2, 1]);
        assert_eq!(g(8, 4).gemm_grid(Q8Kernel::Coop), [1, 1, 1]);
        // 144 pixels: three 64-pixel tiles, five 32-pixel ones.
        assert_eq!(g(8, 24).gemm_grid(Q8Kernel::Dot4Gemm), [3, 2, 1]);
        assert_eq!(g(8, 24).gemm_grid(Q8Kernel::Dot4GemmN32), [5, 2, 1]);
    }

    #[test]
    fn r56_plans_narrow_tiles_where_they_take_fewer_waves() {
        let opts = Q8ConvPwOptions::default();
        let plan = |n: usize, ic: usize, oc: usize, hw: usize| {
            Q8PwGeometry::from_shapes(&[n, ic, hw, hw], &[oc, ic], &opts).unwrap().planned_kernel_with(false)
        };
        // 576 → 64 at 64²: 64 tiles; ResNet-50's 1024 → 256 at 14²: 16 tiles.
        assert_eq!(plan(1, 576, 64, 64), Q8Kernel::Dot4GemmN32);
        assert_eq!(plan(1, 1024, 256, 14), Q8Kernel::Dot4GemmN32);
        // 8 × 14² pixels, 256 channels: 25 × 4 = 100 tiles; 1024 channels: 400.
        assert_eq!(plan(8, 1024, 256, 14), Q8Kernel::Dot4Gemm);
        assert_eq!(plan(8, 256, 1024, 14), Q8Kernel::Dot4Gemm);
        // 64 output channels over T images of 8²: T tiles. The bounds of the three bands.
        let tiles = |t: usize| plan(t, 64, 64, 8);
        for t in [1, 66, 133, 198, 265, 330] {
            assert_eq!(tiles(t), Q8Kernel::Dot4GemmN32, "{t} tiles");
        }
        for t in [67, 132, 199, 264, 331, 397, 2000] {
            assert_eq!(tiles(t), Q8Kernel::Dot4Gemm, "{t} tiles");
        }
        assert_eq!(plan(6, 64, 32, 31), Q8Kernel::Scalar, "H·W % 4");
    }

    #[test]
    fn r28_plans_the_tensor_cores_on_wide_layers_over_96_tiles_only() {
        let opts = Q8ConvPwOptions::default();
        let plan = |n: usize, ic: usize, oc: usize, hw: usize, tensor_cores: bool| {
            Q8PwGeometry::from_shapes(&[n, ic, hw, hw], &[oc, ic], &opts).unwrap().planned_kernel_with(tensor_cores)
        };
        // The two measured wins: 104 and 98 tiles.
        assert_eq!(plan(8, 256, 1024, 14, true), Q8Kernel::Coop);
        assert_eq!(plan(32, 1024, 256, 14, true), Q8Kernel::Coop);
        // Not without cooperative matrices, nor on the measured losses.
        assert_eq!(plan(8, 256, 1024, 14, false), Q8Kernel::Dot4Gemm);
        assert_eq!(plan(8, 1024, 256, 14, true), Q8Kernel::Dot4Gemm, "26 tiles");
        assert_eq!(plan(32, 128, 512, 28, true), Q8Kernel::Dot4Gemm, "K 128");
        assert_eq!(plan(32, 256, 64, 56, true), Q8Kernel::Dot4Gemm, "64 output channels");
        assert_eq!(plan(1, 256, 1024, 14, true), Q8Kernel::Dot4GemmN32, "batch 1: 16 tiles (64 of 64 × 64: R56)");
        // Shapes neither GEMM takes stay on the scalar kernel.
        assert_eq!(plan(32, 258, 1024, 14, true), Q8Kernel::Scalar, "IC % 4");
        assert_eq!(plan(32, 256, 1024, 7, true), Q8Kernel::Scalar, "H·W % 4");
    }

    #[test]
    fn quant_params_are_validated() {
        assert!(QuantParams::new(0.0, 0).validate("input").unwrap_err().to_string().contains("got 0"));
        assert!(QuantParams::new(f32::NAN, 0).validate("input").is_err());
        assert!(QuantParams::new(1.0, 128).validate("output").unwrap_err().to_string().contains("got 128"));
    }
}
