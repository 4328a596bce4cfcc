//! Convolution, the GPU side: plans one validated convolution (`conv_plan::plan`) and records
//! its dispatches — the weight prepack, the kernel, the split-K reduce — through
//! [`Batch::record`]. All conv shaders share one `ConvParams` uniform and one set of bindings,
//! built here once for all of them.

use super::{
    conv::{ConvCall, check_conv_bindings, conv_dtype},
    conv_geometry::{ConvGeometry, WeightDims},
    conv_kernel::{ConvKernel, GEMM_SMALL_TILE},
    conv_launch::{BLOCK_WORKGROUP, POINTWISE_WORKGROUP},
    conv_options::{Activation, ConvOptions, KTileLoads, Precision, TileOrder},
    conv_plan,
    conv_schedule::LaunchSchedule,
    variant::{Variant, with_variant},
};
use crate::{
    batch::{Batch, Pass},
    context::{Context, Scratch},
    dispatch,
    error::{Error, Result},
    pipelines::{GeneratedShader, contains_all, same_layout, same_names},
    shaders::conv2d as shader,
    tensor::{DType, MemoryFormat, Tensor},
};

/// The tensors one convolution binds.
#[derive(Clone, Copy)]
pub(super) struct ConvBuffers<'a> {
    pub(super) input: &'a Tensor,
    pub(super) weight: &'a Tensor,
    pub(super) bias: Option<&'a Tensor>,
    pub(super) output: &'a Tensor,
}

/// How one GEMM convolution launches: its kernel, tile (output channels × columns of
/// N·OH·OW per workgroup), K-slices and K-tile loads.
#[derive(Clone, Copy)]
struct GemmLaunch {
    kernel: ConvKernel,
    tile: (u32, u32),
    schedule: LaunchSchedule,
    loads: KTileLoads,
    order: TileOrder,
}

/// Byte windows (offset, size) of the buffers bound as a conv shader's input and output; the
/// whole buffer where `None`.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Windows {
    pub(super) input: Option<(u64, u64)>,
    pub(super) output: Option<(u64, u64)>,
}

/// `buffer` bound whole, or at the byte `window` (offset, size) of it.
fn windowed(buffer: &wgpu::Buffer, window: Option<(u64, u64)>) -> wgpu::BufferBinding<'_> {
    match window {
        Some((offset, size)) => wgpu::BufferBinding { buffer, offset, size: wgpu::BufferSize::new(size) },
        None => buffer.as_entire_buffer_binding(),
    }
}

/// The bindings every convolution shader declares, in binding order, so one bind group (and one
/// `ConvParams` uniform) serves them all.
const CONV_BINDINGS: &[&str] = &["input", "weight", "bias", "output", "params"];

/// Vec4s of pixels per workgroup of `PointwiseVec4Split` (its threads are
/// `POINTWISE_K_SLICES` K-slices of them), as the shader declares it.
const POINTWISE_SPLIT_QUADS: u32 = crate::shaders::conv2d_pointwise::POINTWISE_SPLIT_QUADS;
const _: () = {
    use crate::shaders::conv2d_pointwise as pw;
    assert!(pw::CONV2D_POINTWISE_SPLIT_WORKGROUP_SIZE[0] == pw::POINTWISE_SPLIT_QUADS * pw::POINTWISE_K_SLICES);
    // The split's unrolled loads cover each staged weight chunk: no channel skipped.
    assert!(pw::POINTWISE_SPLIT_LOADS * pw::POINTWISE_K_SLICES == pw::POINTWISE_IC_CHUNK);
};

/// The `ConvParams` uniform of a convolution. Every conv shader declares it as `conv2d.wgsl`
/// does (`encode_conv` proves it at compile time), so this one type stands for all of them.
/// Winograd's band of tile rows is all of them; its passes narrow it to run in bands.
pub(super) fn conv_params(g: &ConvGeometry, has_bias: bool) -> shader::ConvParams {
    shader::ConvParams::new(
        g.n,
        g.ic,
        g.ih,
        g.iw,
        g.oc,
        g.oh,
        g.ow,
        g.kh,
        g.kw,
        g.stride[0],
        g.stride[1],
        g.padding[0],
        g.padding[1],
        g.dilation[0],
        g.dilation[1],
        g.groups,
        u32::from(has_bias),
        0,
        g.winograd_tile_grid()[0],
    )
}

/// Sets the filter geometry (kernel size, stride, padding, dilation) a shader specialises on
/// into its `spec_*` overrides (a shader without them fails to build).
fn specialise_filter<S: GeneratedShader>(overrides: &mut S::Overrides, g: &ConvGeometry) {
    const SPEC: [&str; 8] = [
        "spec_kh",
        "spec_kw",
        "spec_stride_h",
        "spec_stride_w",
        "spec_pad_h",
        "spec_pad_w",
        "spec_dilation_h",
        "spec_dilation_w",
    ];
    const {
        assert!(
            contains_all(S::U32_OVERRIDES, &SPEC),
            "a shader that specialises the filter has every spec_* u32 override"
        )
    }
    let values = [g.kh, g.kw, g.stride[0], g.stride[1], g.padding[0], g.padding[1], g.dilation[0], g.dilation[1]];
    for (name, value) in SPEC.into_iter().zip(values) {
        let set = S::set_u32(overrides, name, value);
        debug_assert!(set, "checked at compile time above");
    }
}

impl Batch<'_> {
    /// Records one convolution dispatch of conv shader `S`: the one place that builds the conv
    /// uniform and bind group.
    pub(super) fn encode_conv<S: GeneratedShader>(
        &mut self,
        pass: Pass<'_, S>,
        g: &ConvGeometry,
        b: ConvBuffers<'_>,
    ) -> Result<()> {
        self.encode_conv_windowed(pass, g, b, Windows::default())
    }

    /// [`Batch::encode_conv`] with the input and output bound as byte `windows` of their
    /// buffers where given (whole images of a batch run in parts; offsets must be multiples of
    /// the device's storage offset alignment).
    pub(super) fn encode_conv_windowed<S: GeneratedShader>(
        &mut self,
        pass: Pass<'_, S>,
        g: &ConvGeometry,
        b: ConvBuffers<'_>,
        windows: Windows,
    ) -> Result<()> {
        self.encode_conv_with_params(pass, &conv_params(g, b.bias.is_some()), b, windows)
    }

    /// [`Batch::encode_conv_windowed`] with the `ConvParams` uniform given (Winograd's passes
    /// narrow its band of tile rows).
    pub(super) fn encode_conv_with_params<S: GeneratedShader>(
        &mut self,
        pass: Pass<'_, S>,
        params: &shader::ConvParams,
        b: ConvBuffers<'_>,
        windows: Windows,
    ) -> Result<()> {
        const {
            assert!(same_names(S::BINDINGS, CONV_BINDINGS), "a conv shader binds input, weight, bias, output, params");
            assert!(
                same_layout(S::UNIFORM_LAYOUT, <shader::Shader as GeneratedShader>::UNIFORM_LAYOUT),
                "a conv shader's ConvParams is laid out as conv2d.wgsl's"
            );
        }
        let ctx = self.ctx;
        let uniform = ctx.uniform("ConvParams", params)?;
        let group = S::bind_group_with(|name| match name {
            "input" => windowed(b.input.buffer(), windows.input),
            "weight" => b.weight.buffer().as_entire_buffer_binding(),
            "bias" => b.bias.map_or(ctx.zero_buffer(), Tensor::buffer).as_entire_buffer_binding(),
            "output" => windowed(b.output.buffer(), windows.output),
            "params" => uniform.as_entire_buffer_binding(),
            other => unreachable!("conv shaders bind {CONV_BINDINGS:?}, not `{other}`"),
        });
        self.record::<S>("convolution", pass, &group)
    }
}

impl Batch<'_> {
    /// Plans and records one convolution whose geometry was validated.
    pub(super) fn encode_convolution(
        &mut self,
        call: ConvCall<'_>,
        output: &Tensor,
        g: &ConvGeometry,
    ) -> Result<ConvKernel> {
        let ConvCall { input, weight, packed, bias, opts, forced, .. } = call;
        let ctx = self.ctx;
        // Before any path (channels-last conversions, chunk copies) touches a buffer: a prepared
        // convolution's weight and packed weight are its context's, so another context's batch
        // fails here (the packed one even when the weight wraps an application's buffer).
        let tensors = [("input", Some(input)), ("weight", Some(weight)), ("output", Some(output)), ("bias", bias)];
        for (name, t) in tensors.into_iter().chain([("weight", packed)]) {
            if let Some(t) = t {
                t.check_device(ctx, name)?;
            }
        }
        if self.runs_coop_nhwc(&call, g) {
            return self.encode_coop_nhwc(call, output, g);
        }
        if [input, weight, output].iter().any(|t| t.memory_format() != MemoryFormat::Contiguous) {
            return self.encode_convolution_channels_last(call, output, g);
        }
        let limit = ctx.limits().max_storage_buffer_binding_size;
        // The input sets the dtype; checked before any size, so a wrong one is named first.
        let dtype = conv_dtype(ctx, &call, output)?;
        if input.size_bytes() > limit || output.size_bytes() > limit {
            return self.encode_convolution_in_batch_chunks(call, output, g);
        }
        check_conv_bindings(ctx, &call, output)?;
        // f16 tensors hold f16 multiplicands already: the tensor cores lose nothing on them.
        let precision = if dtype == DType::F16 { Precision::AllowF16 } else { opts.precision };
        let plan = conv_plan::plan(ctx, g, dtype, precision, forced)?;
        // A `Conv2d` that kept `WinogradCoop`'s transformed weight runs it rather than R62's.
        let kernel = self.winograd_kernel_for(plan.kernel, call.packed_winograd, forced, g);
        let activation = opts.activation;
        let buffers = ConvBuffers { input, weight, bias, output };
        match kernel {
            ConvKernel::Gemm
            | ConvKernel::GemmM64
            | ConvKernel::GemmK16
            | ConvKernel::GemmM64K16
            | ConvKernel::GemmM64K32
            | ConvKernel::GemmN64K16
            | ConvKernel::GemmN64K32
            | ConvKernel::GemmSmall
            | ConvKernel::GemmSmallK32 => self.encode_planned_gemm(plan, packed, buffers, g, activation)?,
            ConvKernel::Winograd
            | ConvKernel::WinogradCoop
            | ConvKernel::WinogradFused
            | ConvKernel::Winograd4x4
            | ConvKernel::Winograd4x4Coop
            | ConvKernel::Winograd5x5
            | ConvKernel::Winograd5x5Tile4
            | ConvKernel::Winograd6x6 => {
                let products_loads = plan.products_loads;
                self.encode_winograd(kernel, buffers, call.packed_winograd, g, activation, products_loads)?
            }
            ConvKernel::DepthwiseTiled => self.encode_depthwise_tiled(buffers, g, activation)?,
            ConvKernel::DepthwiseRows | ConvKernel::DepthwiseVec4 => {
                self.encode_depthwise_rows(kernel, buffers, g, activation)?
            }
            ConvKernel::Depthwise | ConvKernel::GroupedOc4 => self.encode_depthwise(kernel, buffers, g, activation)?,
            ConvKernel::Direct
            | ConvKernel::DirectVec4
            | ConvKernel::Transposed
            | ConvKernel::TransposedFewOc
            | ConvKernel::FewOc
            | ConvKernel::Gemv => {
                self.encode_per_output(kernel, buffers, g, activation)?;
            }
            ConvKernel::CoopF16 => self.encode_coop(buffers, g, activation)?,
            ConvKernel::PointwiseVec4 | ConvKernel::PointwiseVec4Split => {
                self.encode_pointwise(kernel, buffers, g, activation)?
            }
            ConvKernel::DirectBlock => self.encode_block(buffers, g, activation)?,
            ConvKernel::DirectTiled => self.encode_tiled(buffers, g, activation)?,
            ConvKernel::CoopNhwc => unreachable!("coop_nhwc is routed by `runs_coop_nhwc`, before planning"),
        }
        Ok(kernel)
    }

    /// Whether `CoopNhwc` runs this call: when forced, or planned for a channels-last input whose
    /// precision allows f16 multiplicands (f16 tensors always do) on a context with cooperative
    /// matrices, where the fp32 planner would run a GEMM kernel for the layer's GEMM shape
    /// (`ConvGeometry::tensor_core_candidate`) and the shape suits it; but not, on f32 tensors,
    /// the layers R40 keeps on Winograd (rule R41): `WinogradCoop` runs them on the
    /// channels-last tensors as they are (`runs_winograd_channels_last`), and did so 1.65×
    /// faster than `CoopNhwc` in geomean over the 57 measured (0.98–2.9×, faster on 56; v35
    /// call B, H200), while on the 12 R31 layers of fewer input channels it was 0.80×; nor R45's
    /// small grids of up to 80 input channels, which `WinogradFused` runs on them as they are.
    fn runs_coop_nhwc(&self, call: &ConvCall<'_>, g: &ConvGeometry) -> bool {
        let kernel = ConvKernel::CoopNhwc;
        if let Some(forced) = call.forced.kernel {
            return forced == kernel;
        }
        let f16_allowed = call.input.dtype() == DType::F16 || call.opts.precision == Precision::AllowF16;
        !call.forced.forces_launch()
            && call.input.memory_format() == MemoryFormat::ChannelsLast
            && f16_allowed
            && self.ctx.cooperative_f16()
            && kernel.workgroup_storage_bytes() <= self.ctx.limits().max_compute_workgroup_storage_size
            && g.supports(kernel)
            && g.tensor_core_candidate()
            && !(call.input.dtype() == DType::F32 && g.winograd_keeps_tensor_core_layer())
            && !(call.input.dtype() == DType::F32
                && g.winograd_fused_wins_channels_last()
                && conv_plan::winograd_fused_runs_on(self.ctx, g))
    }

    /// `CoopNhwc`: the weight packed to f16 K-major, NCHW tensors converted to NHWC and back
    /// (the output follows the input's memory format), split-K on small grids.
    fn encode_coop_nhwc(&mut self, call: ConvCall<'_>, output: &Tensor, g: &ConvGeometry) -> Result<ConvKernel> {
        let ctx = self.ctx;
        let kernel = ConvKernel::CoopNhwc;
        let ConvCall { input, weight, bias, opts, .. } = call;
        if !ctx.cooperative_f16() {
            return Err(conv_plan::tensor_cores_unavailable(ctx, kernel.name()));
        }
        if !g.supports(kernel) {
            return Err(Error::unavailable(
                kernel.name(),
                format!(
                    "kernel coop_nhwc runs 2D direct convolutions with IC/groups a multiple of 8, not this one \
                     ({} input channels in {} groups{}{})",
                    g.ic,
                    g.groups,
                    if g.transposed { ", transposed" } else { "" },
                    if g.one_d { ", 1D" } else { "" }
                ),
            ));
        }
        let storage = ctx.limits().max_compute_workgroup_storage_size;
        if kernel.workgroup_storage_bytes() > storage {
            return Err(Error::unavailable(
                kernel.name(),
                format!(
                    "kernel coop_nhwc needs {} bytes of workgroup memory; this device allows {storage}",
                    kernel.workgroup_storage_bytes()
                ),
            ));
        }
        let dtype = conv_dtype(ctx, &call, output)?;
        check_conv_bindings(ctx, &call, output)?;
        if output.memory_format() != input.memory_format() {
            return Err(output_format_error(input, output));
        }
        let input_nhwc = self.to_memory_format(input, MemoryFormat::ChannelsLast)?;
        let packed_here;
        let packed = match call.packed_coop {
            Some(p) => p,
            None => {
                let weight_nchw = self.to_memory_format(weight, MemoryFormat::Contiguous)?;
                packed_here = self.pack_weight_coop(&weight_nchw, PackLayout::of(g))?;
                &packed_here
            }
        };
        let output_nhwc = match output.memory_format() {
            MemoryFormat::ChannelsLast => output.clone(),
            _ => Tensor::zeros(ctx, output.shape(), dtype)?.with_memory_format(MemoryFormat::ChannelsLast)?,
        };
        let buffers = ConvBuffers { input: &input_nhwc, weight: packed, bias, output: &output_nhwc };
        self.record_coop_nhwc(buffers, g, opts.activation)?;
        if output.memory_format() != MemoryFormat::ChannelsLast {
            self.relayout_into(&output_nhwc, output)?;
        }
        Ok(kernel)
    }

    /// Records `CoopNhwc` on channels-last `buffers` (the weight prepacked by
    /// [`Batch::pack_weight_coop`]): split-K on small grids, its partial sums added with bias
    /// and `activation` by the reduce pass. The input and bias are f32 or f16 alike; the output
    /// is the input's dtype, or f32 from an f16 input (Winograd's products from an f16 V).
    pub(super) fn record_coop_nhwc(
        &mut self,
        buffers: ConvBuffers<'_>,
        g: &ConvGeometry,
        activation: Activation,
    ) -> Result<()> {
        let ctx = self.ctx;
        let storage = ctx.limits().max_compute_workgroup_storage_size;
        let splits = g.splits_within_binding(g.coop_nhwc_split_k(), ctx.limits().max_storage_buffer_binding_size);
        let [x, y, z] = g.coop_nhwc_grid().map(|d| d as u32);
        let activation = activation_constants(activation);
        // Split-K writes partial sums to scratch; the reduce pass adds them with bias and activation.
        let partial = split_k_scratch(ctx, g, splits)?;
        let output_nhwc = buffers.output;
        let buffers = ConvBuffers { output: partial.as_ref().unwrap_or(output_nhwc), ..buffers };
        // The f16-in, f32-out expansion writes partial sums, or (one slice) the f32 output.
        let f32_out = partial.is_some() || output_nhwc.dtype() == DType::F32;
        let variant = Variant::of(buffers.input.dtype(), f32_out);
        with_variant!(variant, coop = conv2d_coop_nhwc | conv2d_coop_nhwc_f16 | conv2d_coop_nhwc_f16_partial, {
            let mut overrides = coop::Overrides::new();
            overrides.split_k = splits;
            (overrides.activation, overrides.clamp_min, overrides.clamp_max) = activation;
            specialise_filter::<coop::Shader>(&mut overrides, g);
            (overrides.spec_ic, overrides.spec_oc, overrides.spec_groups) = (g.ic, g.oc, g.groups);
            // 256×64 tiles for few channels; else 128×128 with 64-deep K-tiles where the device
            // has the workgroup memory for them.
            let entry = match (g.coop_nhwc_warps_n(), g.coop_nhwc_k_tile()) {
                (2, _) => coop::Entry::Conv2dCoopNhwcN64,
                (_, 64) if coop::CONV2D_COOP_NHWC_WORKGROUP_MEMORY_BYTES <= storage => coop::Entry::Conv2dCoopNhwc,
                _ => coop::Entry::Conv2dCoopNhwcK32,
            };
            let pass = Pass::new(entry, &overrides, [x, y, z * splits]);
            self.encode_conv::<coop::Shader>(pass, g, buffers)?;
        });
        if let Some(p) = &partial {
            // NHWC: the channel of element i is i % OC (a "plane" of one element).
            self.reduce_split_k(p, buffers.bias, output_nhwc, g, splits, (g.oc, 1), activation)?;
        }
        Ok(())
    }

    /// A convolution with channels-last tensors: the output follows the input's memory format
    /// (as in PyTorch); the kernels read NCHW, so the input (and a channels-last weight) are
    /// converted into NCHW scratch first and the output converted back after.
    fn encode_convolution_channels_last(
        &mut self,
        call: ConvCall<'_>,
        output: &Tensor,
        g: &ConvGeometry,
    ) -> Result<ConvKernel> {
        let (input, weight) = (call.input, call.weight);
        if output.memory_format() != input.memory_format() {
            return Err(output_format_error(input, output));
        }
        let contiguous = |batch: &mut Self, t: &Tensor| batch.to_memory_format(t, MemoryFormat::Contiguous);
        if let Some(kernel) = self.runs_winograd_channels_last(&call, output, g)? {
            // Its transforms read and write the channels-last tensors as they are; only a
            // channels-last weight is converted, for the weight transform.
            let weight = contiguous(self, weight)?;
            let buffers = ConvBuffers { input, weight: &weight, bias: call.bias, output };
            // `WinogradCoop`, `Winograd4x4Coop` and `WinogradFused`: no K-tile loads to choose.
            debug_assert!(!kernel.winograd_products_on_staged_tiles(), "{kernel:?}");
            self.encode_winograd(kernel, buffers, call.packed_winograd, g, call.opts.activation, None)?;
            return Ok(kernel);
        }
        let (input_nchw, weight_nchw) = (contiguous(self, input)?, contiguous(self, weight)?);
        let output_nchw = match output.memory_format() {
            MemoryFormat::Contiguous => output.clone(),
            _ => Tensor::zeros(self.ctx, output.shape(), output.dtype())?,
        };
        let nchw_call = ConvCall { input: &input_nchw, weight: &weight_nchw, ..call };
        let kernel = self.encode_convolution(nchw_call, &output_nchw, g)?;
        if output.memory_format() != MemoryFormat::Contiguous {
            self.relayout_into(&output_nchw, output)?;
        }
        Ok(kernel)
    }

    /// The Winograd kernel that runs this channels-last call on its tensors as they are, if one
    /// does: `WinogradCoop`, `Winograd4x4Coop` or `WinogradFused`, forced or planned (R40, R42, where
    /// `runs_coop_nhwc` left the layer to the planner), for f32 tensors that fit one storage
    /// binding each (larger ones go through the NCHW path's batch chunks).
    fn runs_winograd_channels_last(
        &self,
        call: &ConvCall<'_>,
        output: &Tensor,
        g: &ConvGeometry,
    ) -> Result<Option<ConvKernel>> {
        let ctx = self.ctx;
        let limit = ctx.limits().max_storage_buffer_binding_size;
        // Only Winograd's shapes are planned here: every other channels-last call skips it.
        if call.input.memory_format() != MemoryFormat::ChannelsLast
            || !g.winograd_shape()
            || call.input.size_bytes() > limit
            || output.size_bytes() > limit
            || conv_dtype(ctx, call, output)? != DType::F32
        {
            return Ok(None);
        }
        check_conv_bindings(ctx, call, output)?;
        let plan = conv_plan::plan(ctx, g, DType::F32, call.opts.precision, call.forced)?;
        let kernel = self.winograd_kernel_for(plan.kernel, call.packed_winograd, call.forced, g);
        let as_they_are = [ConvKernel::WinogradCoop, ConvKernel::Winograd4x4Coop, ConvKernel::WinogradFused];
        Ok(as_they_are.contains(&kernel).then_some(kernel))
    }

    /// Implicit GEMM on cooperative matrices, f16 multiplicands (the weight as given, no
    /// prepacking: its tiles are converted to f16 as they are staged); transposed convolutions
    /// one stride phase per sub-problem, as the GEMM kernels run them.
    fn encode_coop(&mut self, buffers: ConvBuffers<'_>, g: &ConvGeometry, activation: Activation) -> Result<()> {
        let ctx = self.ctx;
        let binding_limit = ctx.limits().max_storage_buffer_binding_size;
        let (warps_m, splits) = (g.coop_warps_m(), g.splits_within_binding(g.coop_split_k(), binding_limit));
        let [x, y, z] = g.coop_grid().map(|d| d as u32);
        // Split-K writes partial sums to scratch; the reduce pass adds them with bias and activation.
        let partial = split_k_scratch(ctx, g, splits)?;
        let coop_buffers = ConvBuffers { output: partial.as_ref().unwrap_or(buffers.output), ..buffers };
        let variant = Variant::of(buffers.input.dtype(), partial.is_some());
        with_variant!(variant, coop = conv2d_coop | conv2d_coop_f16 | conv2d_coop_f16_partial, {
            let mut overrides = coop::Overrides::new();
            (overrides.warps_m, overrides.split_k) = (warps_m, splits);
            overrides.transposed = g.transposed;
            (overrides.activation, overrides.clamp_min, overrides.clamp_max) = activation_constants(activation);
            specialise_filter::<coop::Shader>(&mut overrides, g);
            (overrides.spec_ic, overrides.spec_oc, overrides.spec_groups) = (g.ic, g.oc, g.groups);
            let entry = match g.coop_k_tile() {
                16 => coop::Entry::Conv2dCoopK16,
                _ => coop::Entry::Conv2dCoop,
            };
            self.encode_conv::<coop::Shader>(Pass::new(entry, &overrides, [x, y, z * splits]), g, coop_buffers)?;
        });
        self.reduce_nchw_partials(partial.as_ref(), buffers, g, activation, splits)?;
        Ok(())
    }

    /// Records `plan`, whose kernel is one of the fp32 GEMM kernels: the staged tiles at the
    /// plan's width and K schedule, or the small-grid ones in their own K-slices.
    pub(super) fn encode_planned_gemm(
        &mut self,
        plan: conv_plan::Plan,
        packed: Option<&Tensor>,
        buffers: ConvBuffers<'_>,
        g: &ConvGeometry,
        activation: Activation,
    ) -> Result<()> {
        let kernel = plan.kernel;
        if kernel.gemm_small_entry().is_some() {
            let limit = self.ctx.limits().max_storage_buffer_binding_size;
            let schedule = LaunchSchedule::Slices(g.gemm_small_splits()).within_binding(g, limit);
            // The small-grid entry points stage no K-tiles of the 16-deep kind.
            let (loads, order) = (KTileLoads::Ahead, TileOrder::NFastest);
            let launch = GemmLaunch { kernel, tile: GEMM_SMALL_TILE, schedule, loads, order };
            return self.encode_gemm(launch, packed, buffers, g, activation);
        }
        let gemm = plan.gemm.expect("the plan of a GEMM kernel has its tile and schedule");
        let tile = (kernel.gemm_tile().expect("a GEMM kernel").0, gemm.tile_n);
        let launch = GemmLaunch { kernel, tile, schedule: gemm.schedule, loads: gemm.loads, order: gemm.order };
        self.encode_gemm(launch, packed, buffers, g, activation)
    }

    /// Implicit GEMM over the prepacked weight (packed here when not prepared) in `tile`s (rows
    /// of output channels, columns of N·OH·OW), with split-K partial sums in the context's
    /// scratch and a reduce pass when the grid is small: the staged-tile kernels, and
    /// `GemmSmall` and `GemmSmallK32` (their own entry points of the same shader, 32×32 tiles).
    fn encode_gemm(
        &mut self,
        launch: GemmLaunch,
        packed: Option<&Tensor>,
        buffers: ConvBuffers<'_>,
        g: &ConvGeometry,
        activation: Activation,
    ) -> Result<()> {
        let GemmLaunch { kernel, tile, schedule, loads, order } = launch;
        let ctx = self.ctx;
        // Workgroup memory at this width was checked where the width was chosen: forced and
        // planned widths in `runnable_kernel`, tuned ones by tuning and by `import_tuning`.
        let packed = match packed {
            Some(p) => p.clone(),
            None => self.pack_weight(buffers.weight, PackLayout::of(g))?,
        };
        let entry = match kernel.gemm_small_entry() {
            Some(small) => small,
            None => kernel.gemm_shader_entry().unwrap_or_else(|| {
                unreachable!(
                    "{} is not a GEMM kernel (the match in `encode_convolution` routes kernels)",
                    kernel.name()
                )
            }),
        };
        let (splits, grid) = match schedule {
            LaunchSchedule::Slices(splits) => {
                let [x, y, z] = g.gemm_grid(tile).map(|d| d as u32);
                (splits, [x, y, z * splits])
            }
            LaunchSchedule::Stream(stream) => (stream.slices, [stream.workgroups, 1, 1]),
        };
        // Split-K writes partial sums to scratch; a reduce pass adds them with bias and activation.
        let partial = split_k_scratch(ctx, g, splits)?;
        let gemm_buffers =
            ConvBuffers { weight: &packed, output: partial.as_ref().unwrap_or(buffers.output), ..buffers };
        let variant = Variant::of(buffers.input.dtype(), partial.is_some());
        with_variant!(variant, gemm = conv2d_gemm | conv2d_gemm_f16 | conv2d_gemm_f16_partial, {
            let mut overrides = gemm::Overrides::new();
            (overrides.activation, overrides.clamp_min, overrides.clamp_max) = activation_constants(activation);
            overrides.transposed = g.transposed;
            // The small-grid tiles are fixed by their entry points: their pipelines keep the
            // default width.
            if kernel.is_gemm() {
                overrides.tile_n = tile.1;
                // Set only where the entry point reads it: no second pipeline of the same code.
                overrides.loads_ahead = !kernel.chooses_k_tile_loads() || loads == KTileLoads::Ahead;
                // Stream-K keeps its own order.
                overrides.m_tiles_fastest =
                    order == TileOrder::MFastest && matches!(schedule, LaunchSchedule::Slices(_));
                overrides.skip_taps = g.gemm_skips_taps(kernel, tile.1);
            }
            if let LaunchSchedule::Stream(stream) = schedule {
                overrides.stream_k_workgroups = stream.workgroups;
                (overrides.stream_tiles_x, overrides.stream_tiles_y) = (stream.tiles_x, stream.tiles_y);
            }
            overrides.split_k = splits;
            // Geometry specialised into the pipeline (one pipeline per layer shape family).
            specialise_filter::<gemm::Shader>(&mut overrides, g);
            (overrides.spec_ic, overrides.spec_oc, overrides.spec_groups) = (g.ic, g.oc, g.groups);
            // The variants share the f32 module's entry points: found by name.
            let name = entry.name();
            let entry = gemm::Entry::ALL.into_iter().find(|e| e.name() == name).expect("variants share entry points");
            self.encode_conv::<gemm::Shader>(Pass::new(entry, &overrides, grid), g, gemm_buffers)?;
        });
        self.reduce_nchw_partials(partial.as_ref(), buffers, g, activation, splits)?;
        Ok(())
    }

    /// Adds the split-K partial sums in `partial`, if there are any, into the NCHW
    /// `buffers.output` with the bias and `activation`.
    fn reduce_nchw_partials(
        &mut self,
        partial: Option<&Tensor>,
        buffers: ConvBuffers<'_>,
        g: &ConvGeometry,
        activation: Activation,
        splits: u32,
    ) -> Result<()> {
        if let Some(p) = partial {
            let (channels, act) = ((g.oc, g.oh * g.ow), activation_constants(activation));
            self.reduce_split_k(p, buffers.bias, buffers.output, g, splits, channels, act)?;
        }
        Ok(())
    }

    /// Depthwise through a workgroup-memory input window: one workgroup per output block.
    fn encode_depthwise_tiled(
        &mut self,
        buffers: ConvBuffers<'_>,
        g: &ConvGeometry,
        activation: Activation,
    ) -> Result<()> {
        let limits = self.ctx.limits();
        let rows_per_thread = g.rows_per_thread_depthwise_tiled().expect("supports() checked the window fits");
        let planes = u64::from(g.n) * u64::from(g.oc);
        // A block is the workgroup's columns × its rows of threads × each thread's run of rows.
        let [block_w, thread_rows, _] = crate::shaders::conv2d_depthwise_tiled::CONV2D_DEPTHWISE_TILED_WORKGROUP_SIZE;
        let blocks =
            planes * u64::from(g.ow.div_ceil(block_w)) * u64::from(g.oh.div_ceil(thread_rows * rows_per_thread));
        // One workgroup per block; the grid folds like a 1-thread-per-workgroup 1D grid.
        let grid = dispatch::grid(blocks, 1, limits.max_compute_workgroups_per_dimension)?;
        with_variant!(
            Variant::of(buffers.input.dtype(), false),
            dw = conv2d_depthwise_tiled | conv2d_depthwise_tiled_f16,
            {
                let mut overrides = dw::Overrides::new(grid.stride_x);
                overrides.rows_per_thread = rows_per_thread;
                (overrides.activation, overrides.clamp_min, overrides.clamp_max) = activation_constants(activation);
                specialise_filter::<dw::Shader>(&mut overrides, g);
                let entry = dw::Entry::Conv2dDepthwiseTiled;
                self.encode_conv::<dw::Shader>(Pass::new(entry, &overrides, grid.dims()), g, buffers)
            }
        )
    }

    /// Depthwise with the filter geometry specialised: a run of output rows of one column
    /// (`DepthwiseRows`) or of four columns (`DepthwiseVec4`; eight on f16 tensors whose widths
    /// allow) per thread.
    fn encode_depthwise_rows(
        &mut self,
        kernel: ConvKernel,
        buffers: ConvBuffers<'_>,
        g: &ConvGeometry,
        activation: Activation,
    ) -> Result<()> {
        let limits = self.ctx.limits();
        // A single-row layer (1D) as a column where that gives each thread a run of outputs (R66):
        // the tensors are the same bytes either way.
        let column = (kernel == ConvKernel::DepthwiseRows).then(|| g.depthwise_rows_column()).flatten();
        let g = column.as_ref().unwrap_or(g);
        // f16 tensors in runs of 8 columns where the widths allow (see the shader).
        let vec8 = buffers.input.dtype() == DType::F16 && g.depthwise_vec8_fit();
        let (rows_per_thread, columns_per_thread) = match kernel {
            ConvKernel::DepthwiseRows => (g.rows_per_thread_depthwise_rows(), 1),
            ConvKernel::DepthwiseVec4 if vec8 => (g.rows_per_thread_depthwise_vec8(), 8),
            ConvKernel::DepthwiseVec4 => (g.rows_per_thread_depthwise_vec4(), 4),
            other => unreachable!(
                "{} is not a row-run depthwise kernel (the match in `encode_convolution` routes kernels)",
                other.name()
            ),
        };
        let items = g.depthwise_run_threads(rows_per_thread, columns_per_thread);
        let grid =
            dispatch::grid(items, dispatch::workgroup_size(&limits), limits.max_compute_workgroups_per_dimension)?;
        let activation = activation_constants(activation);
        let variant = Variant::of(buffers.input.dtype(), false);
        // Two modules with the same overrides (each its own type): set alike, recorded alike.
        macro_rules! record {
            ($dw:ident, $entry:ident) => {{
                let mut overrides = $dw::Overrides::new(grid.stride_x);
                (overrides.wg_size, overrides.rows_per_thread) = (grid.wg_size, rows_per_thread);
                (overrides.activation, overrides.clamp_min, overrides.clamp_max) = activation;
                specialise_filter::<$dw::Shader>(&mut overrides, g);
                let pass = Pass::new($dw::Entry::$entry, &overrides, grid.dims());
                self.encode_conv::<$dw::Shader>(pass, g, buffers)
            }};
        }
        if kernel == ConvKernel::DepthwiseVec4 && vec8 {
            use crate::shaders::conv2d_depthwise_vec8 as dw;
            record!(dw, Conv2dDepthwiseVec8)
        } else if kernel == ConvKernel::DepthwiseVec4 {
            with_variant!(
                variant,
                dw = conv2d_depthwise_vec4 | conv2d_depthwise_vec4_f16,
                record!(dw, Conv2dDepthwiseVec4)
            )
        } else {
            with_variant!(
                variant,
                dw = conv2d_depthwise_rows | conv2d_depthwise_rows_f16,
                record!(dw, Conv2dDepthwiseRows)
            )
        }
    }

    /// `PointwiseVec4` and `PointwiseVec4Split`: one workgroup per (chunk of vec4s, block of
    /// output channels), the blocks fastest; a chunk is `wg_size` vec4s of the batch's planes in
    /// a row, or [`POINTWISE_SPLIT_QUADS`] vec4s of one image's plane for the K-split entry point
    /// (4 threads each).
    fn encode_pointwise(
        &mut self,
        kernel: ConvKernel,
        buffers: ConvBuffers<'_>,
        g: &ConvGeometry,
        activation: Activation,
    ) -> Result<()> {
        let limits = self.ctx.limits();
        let wg_size = POINTWISE_WORKGROUP.min(dispatch::workgroup_size(&limits));
        let split = kernel == ConvKernel::PointwiseVec4Split;
        let oc_block = g.pointwise_oc_block();
        let workgroups =
            if split { g.pointwise_split_workgroups(POINTWISE_SPLIT_QUADS) } else { g.pointwise_workgroups(wg_size) };
        // One item per workgroup: the shader decodes its workgroup's index, not its threads'.
        let grid = dispatch::grid(workgroups, 1, limits.max_compute_workgroups_per_dimension)?;
        with_variant!(Variant::of(buffers.input.dtype(), false), pw = conv2d_pointwise | conv2d_pointwise_f16, {
            let mut overrides = pw::Overrides::new();
            (overrides.wg_size, overrides.oc_block) = (wg_size, oc_block);
            (overrides.activation, overrides.clamp_min, overrides.clamp_max) = activation_constants(activation);
            let entry = if split { pw::Entry::Conv2dPointwiseSplit } else { pw::Entry::Conv2dPointwise };
            let pass = Pass::new(entry, &overrides, grid.dims());
            self.encode_conv::<pw::Shader>(pass, g, buffers)
        })
    }

    /// `DirectBlock`: one workgroup per (chunk of `wg_size` · 4 pixels of the batch's flattened
    /// output, block of output channels), the blocks fastest.
    fn encode_block(&mut self, buffers: ConvBuffers<'_>, g: &ConvGeometry, activation: Activation) -> Result<()> {
        let limits = self.ctx.limits();
        // Whole groups of the shader's interleaved lanes: a partial group would leave pixels
        // unwritten. (WebGPU devices allow at least 256 threads, so this is 128 on every one; a
        // context whose limits were lowered below 128 runs whole groups of 32.)
        let lanes = crate::shaders::conv2d_block::BLOCK_LANES;
        let wg_size = (BLOCK_WORKGROUP.min(dispatch::workgroup_size(&limits)) / lanes).max(1) * lanes;
        // One item per workgroup: the shader decodes its workgroup's index, not its threads'.
        let grid = dispatch::grid(g.block_workgroups(wg_size), 1, limits.max_compute_workgroups_per_dimension)?;
        with_variant!(Variant::of(buffers.input.dtype(), false), block = conv2d_block | conv2d_block_f16, {
            let mut overrides = block::Overrides::new();
            (overrides.wg_size, overrides.oc_block) = (wg_size, g.pointwise_oc_block());
            (overrides.activation, overrides.clamp_min, overrides.clamp_max) = activation_constants(activation);
            specialise_filter::<block::Shader>(&mut overrides, g);
            let pass = Pass::new(block::Entry::Conv2dBlock, &overrides, grid.dims());
            self.encode_conv::<block::Shader>(pass, g, buffers)
        })
    }

    /// `DirectTiled`: one workgroup per (image, tile of output rows and columns, block of
    /// output channels), the blocks fastest; the tile's shape from `ConvGeometry::tiled_oc_warps`.
    fn encode_tiled(&mut self, buffers: ConvBuffers<'_>, g: &ConvGeometry, activation: Activation) -> Result<()> {
        let limits = self.ctx.limits();
        let oc_warps = g.tiled_oc_warps();
        // One item per workgroup: the shader decodes its workgroup's index, not its threads'.
        let grid = dispatch::grid(g.tiled_workgroups(oc_warps), 1, limits.max_compute_workgroups_per_dimension)?;
        with_variant!(Variant::of(buffers.input.dtype(), false), tiled = conv2d_tiled | conv2d_tiled_f16, {
            let mut overrides = tiled::Overrides::new();
            overrides.oc_warps = oc_warps;
            (overrides.activation, overrides.clamp_min, overrides.clamp_max) = activation_constants(activation);
            specialise_filter::<tiled::Shader>(&mut overrides, g);
            let pass = Pass::new(tiled::Entry::Conv2dTiled, &overrides, grid.dims());
            self.encode_conv::<tiled::Shader>(pass, g, buffers)
        })
    }

    /// Depthwise and few-channels-per-group convolutions: four outputs along W per thread, of one
    /// output channel (`Depthwise`) or of four channels of a group (`GroupedOc4`).
    fn encode_depthwise(
        &mut self,
        kernel: ConvKernel,
        buffers: ConvBuffers<'_>,
        g: &ConvGeometry,
        activation: Activation,
    ) -> Result<()> {
        let limits = self.ctx.limits();
        // Threads: four columns each, and four output channels each for `GroupedOc4`.
        let channel_threads = if kernel == ConvKernel::GroupedOc4 { g.oc / 4 } else { g.oc };
        let items = u64::from(g.n) * u64::from(channel_threads) * u64::from(g.oh) * u64::from(g.ow.div_ceil(4));
        let grid =
            dispatch::grid(items, dispatch::workgroup_size(&limits), limits.max_compute_workgroups_per_dimension)?;
        with_variant!(Variant::of(buffers.input.dtype(), false), dw = conv2d_depthwise | conv2d_depthwise_f16, {
            let mut overrides = dw::Overrides::new(grid.stride_x);
            overrides.wg_size = grid.wg_size;
            overrides.channels_per_group = g.ic / g.groups;
            (overrides.activation, overrides.clamp_min, overrides.clamp_max) = activation_constants(activation);
            let entry = match kernel {
                ConvKernel::GroupedOc4 => dw::Entry::Conv2dGroupedOc4,
                ConvKernel::Depthwise => dw::Entry::Conv2dDepthwise,
                other => unreachable!(
                    "{} is not a depthwise kernel (the match in `encode_convolution` routes kernels)",
                    other.name()
                ),
            };
            self.encode_conv::<dw::Shader>(Pass::new(entry, &overrides, grid.dims()), g, buffers)
        })
    }

    /// The kernels of `shaders/conv2d.wgsl`: the reference kernels, one thread per output;
    /// `TransposedFewOc`, one per output pixel and group (its grid counts every stride phase's
    /// sub-grid, rounded up), or 8 per run of 4 pixels with K split between them, or at stride
    /// 2 × 2 (dilation 1, filters up to 4 × 4, one group: `few_oc_gathers_phase_blocks`) 8 per run
    /// of 4 blocks of 2 × 2 pixels (one of each stride phase); `FewOc`, 8 per
    /// run of 4 pixels of a row (for both, ⌈columns / 4⌉ runs a row, laid out by the shader's
    /// `few_oc_run`); `Gemv`, one workgroup per 256 / lanes output channels.
    fn encode_per_output(
        &mut self,
        kernel: ConvKernel,
        buffers: ConvBuffers<'_>,
        g: &ConvGeometry,
        activation: Activation,
    ) -> Result<()> {
        let limits = self.ctx.limits();
        // A device that does not take the K-split entry point's workgroup runs the one-thread one.
        let few_oc_split = kernel == ConvKernel::TransposedFewOc
            && g.few_oc_splits_k()
            && super::conv_launch::few_oc_split_fits(&limits);
        // At stride 2 × 2, runs of blocks of one pixel per stride phase.
        let few_oc_phases =
            few_oc_split && g.few_oc_gathers_phase_blocks() && super::conv_launch::few_oc_phases_fit(&limits);
        let items = match kernel {
            // 32 runs of pixels (or blocks) per workgroup of 256 (`few_oc_splits_k` and
            // `few_oc_gathers_phase_blocks` checked that this fits u32; `supports`, for `FewOc`).
            ConvKernel::TransposedFewOc if few_oc_phases => (g.few_oc_phase_runs() as u64).div_ceil(32) * 256,
            ConvKernel::TransposedFewOc if few_oc_split => (g.few_oc_runs() as u64).div_ceil(32) * 256,
            ConvKernel::FewOc => (g.few_oc_row_runs() as u64).div_ceil(32) * 256,
            // `supports` checked that this fits u32.
            ConvKernel::TransposedFewOc => g.few_oc_threads() as u64,
            // Not one thread per item: its own grid below.
            ConvKernel::Gemv => 1,
            _ => g.output_pixels() * u64::from(g.oc),
        };
        // The K-split entry points' workgroup is 256 threads (WebGPU's default limit), fixed.
        let fixed_256 = few_oc_split || kernel == ConvKernel::FewOc;
        let wg_size = if fixed_256 { 256 } else { dispatch::workgroup_size(&limits) };
        let grid = dispatch::grid(items, wg_size, limits.max_compute_workgroups_per_dimension)?;
        // `supports` checked that Gemv's workgroups fit one grid dimension.
        let dims = if kernel == ConvKernel::Gemv { [g.gemv_workgroups() as u32, 1, 1] } else { grid.dims() };
        with_variant!(Variant::of(buffers.input.dtype(), false), direct = conv2d | conv2d_f16, {
            let mut overrides = direct::Overrides::new(grid.stride_x);
            overrides.wg_size = grid.wg_size;
            // Only Gemv's pipelines: a value per geometry would compile the others again.
            if kernel == ConvKernel::Gemv {
                overrides.gemv_lanes = g.gemv_lanes();
            }
            // Only the phase blocks' pipelines: whether the filter has rows and columns 2–3.
            if few_oc_phases {
                overrides.phase_far_rows = g.kh > 2;
                overrides.phase_far_columns = g.kw > 2;
            }
            (overrides.activation, overrides.clamp_min, overrides.clamp_max) = activation_constants(activation);
            let entry = match kernel {
                ConvKernel::Direct => direct::Entry::Conv2d,
                ConvKernel::DirectVec4 => direct::Entry::Conv2dVec4,
                ConvKernel::Transposed => direct::Entry::ConvTranspose2d,
                ConvKernel::TransposedFewOc if few_oc_phases => direct::Entry::ConvTranspose2dFewOcPhases,
                ConvKernel::TransposedFewOc if few_oc_split => direct::Entry::ConvTranspose2dFewOcSplit,
                ConvKernel::TransposedFewOc => direct::Entry::ConvTranspose2dFewOc,
                ConvKernel::FewOc => direct::Entry::Conv2dFewOcSplit,
                ConvKernel::Gemv => direct::Entry::Conv2dGemv,
                other => unreachable!(
                    "{} is not a per-output kernel (the match in `encode_convolution` routes kernels)",
                    other.name()
                ),
            };
            self.encode_conv::<direct::Shader>(Pass::new(entry, &overrides, dims), g, buffers)
        })
    }
}

/// The error for a convolution output whose memory format is not its input's.
fn output_format_error(input: &Tensor, output: &Tensor) -> Error {
    Error::MemoryFormat {
        tensor: "output",
        reason: format!(
            "a convolution's output follows its input's memory format ({}), got {}",
            input.memory_format(),
            output.memory_format()
        ),
    }
}

/// The context's scratch for `splits` K-slices of partial sums of `g`'s output (none for one
/// slice). Sized by the geometry, as the kernels address the slices, not by the output tensor,
/// which may be a longer scratch buffer (Winograd's products).
fn split_k_scratch(ctx: &Context, g: &ConvGeometry, splits: u32) -> Result<Option<Tensor>> {
    if splits > 1 {
        let len = g.output_numel() as usize * splits as usize;
        Ok(Some(ctx.scratch(Scratch::SplitK, "split-K partial sums", DType::F32, len)?))
    } else {
        Ok(None)
    }
}

/// A fused activation as the kernels' override constants: (`activation`, `clamp_min`, `clamp_max`).
pub(super) fn activation_constants(activation: Activation) -> (u32, f32, f32) {
    match activation {
        Activation::None => (0, 0.0, 0.0),
        Activation::Relu => (1, 0.0, 0.0),
        Activation::Clamp { min, max } => (2, min, max),
    }
}

/// How a weight is laid out for the GEMM kernel (see `shaders/conv_pack.wgsl`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct PackLayout {
    groups: u32,
    icg: u32,
    ocg: u32,
    taps: u32,
    transposed: bool,
}

impl PackLayout {
    pub(super) fn of(g: &ConvGeometry) -> Self {
        Self {
            groups: g.groups,
            icg: g.ic / g.groups,
            ocg: g.oc / g.groups,
            taps: g.kh * g.kw,
            transposed: g.transposed,
        }
    }

    /// The layout from the weight alone (prepare-once ops know no input yet).
    pub(super) fn for_weight(shape: &[usize], opts: &ConvOptions) -> Result<Self> {
        let weight = WeightDims::new(shape, opts)?;
        let groups = opts.groups;
        let (icg, ocg) =
            if opts.transposed { (weight.dim0 / groups, weight.dim1) } else { (weight.dim1, weight.dim0 / groups) };
        Ok(Self { groups, icg, ocg, taps: weight.kh * weight.kw, transposed: opts.transposed })
    }

    /// Whether `CoopNhwc` can run convolutions of this weight (of `rank`): direct, 2D, input
    /// channels per group a multiple of 8.
    pub(super) fn suits_coop_nhwc(&self, rank: usize) -> bool {
        rank == 4 && !self.transposed && self.icg.is_multiple_of(8)
    }

    /// Output channels of the convolutions this weight serves.
    pub(super) fn out_channels(&self) -> u32 {
        self.ocg * self.groups
    }

    fn packed_len(&self) -> u64 {
        u64::from(self.groups) * u64::from(self.icg) * u64::from(self.taps) * u64::from(self.ocg.div_ceil(4) * 4)
    }
}

impl Batch<'_> {
    /// Records the split-K reduction of `g`'s output: output = activation(Σ slices + bias), the
    /// channel of element i being (i / plane) % oc (`plane` = OH·OW for NCHW, 1 for NHWC). The
    /// slices are `g`'s output size apart (`output` may be a longer scratch buffer).
    #[allow(clippy::too_many_arguments)]
    fn reduce_split_k(
        &mut self,
        partial: &Tensor,
        bias: Option<&Tensor>,
        output: &Tensor,
        g: &ConvGeometry,
        splits: u32,
        (oc, plane): (u32, u32),
        (activation, clamp_min, clamp_max): (u32, f32, f32),
    ) -> Result<()> {
        let ctx = self.ctx;
        let numel = g.output_numel();
        let limits = ctx.limits();
        let grid =
            dispatch::grid(numel, dispatch::workgroup_size(&limits), limits.max_compute_workgroups_per_dimension)?;
        let params = crate::shaders::conv_splitk_reduce::ReduceParams::new(
            numel as u32,
            splits,
            oc,
            plane,
            u32::from(bias.is_some()),
        );
        let uniform = ctx.uniform("ReduceParams", &params)?;
        with_variant!(Variant::of(output.dtype(), false), reduce = conv_splitk_reduce | conv_splitk_reduce_f16, {
            let mut overrides = reduce::Overrides::new(grid.stride_x);
            overrides.wg_size = grid.wg_size;
            (overrides.activation, overrides.clamp_min, overrides.clamp_max) = (activation, clamp_min, clamp_max);
            let group = reduce::BindGroup0 {
                partial: partial.buffer().as_entire_buffer_binding(),
                bias: bias.map_or(ctx.zero_buffer(), Tensor::buffer).as_entire_buffer_binding(),
                output: output.buffer().as_entire_buffer_binding(),
                params: uniform.as_entire_buffer_binding(),
            };
            let pass = Pass::new(reduce::Entry::SplitkReduce, &overrides, grid.dims());
            self.record::<reduce::Shader>("split-K reduce", pass, &group)
        })
    }

    /// Records the weight prepack for `CoopNhwc` (f16 [groups, KH·KW, ICg, OCg rounded up to 8],
    /// from an NCHW weight) and returns the packed tensor.
    pub(super) fn pack_weight_coop(&mut self, weight: &Tensor, layout: PackLayout) -> Result<Tensor> {
        let ctx = self.ctx;
        let PackLayout { groups, icg, ocg, taps, .. } = layout;
        let ocg8 = ocg.div_ceil(8) * 8;
        let total = u64::from(groups) * u64::from(taps) * u64::from(icg) * u64::from(ocg8);
        let total_u32 = crate::error::fits_u32("packed weight", total)?;
        let packed = Tensor::zeros(ctx, &[total as usize], DType::F16)?;
        let limits = ctx.limits();
        let grid =
            dispatch::grid(total, dispatch::workgroup_size(&limits), limits.max_compute_workgroups_per_dimension)?;
        let params = crate::shaders::conv_pack_coop::PackParams::new(groups, icg, ocg, ocg8, taps, total_u32);
        let uniform = ctx.uniform("PackParams", &params)?;
        with_variant!(Variant::of(weight.dtype(), false), pack = conv_pack_coop | conv_pack_coop_f16, {
            let mut overrides = pack::Overrides::new(grid.stride_x);
            overrides.wg_size = grid.wg_size;
            let group = pack::BindGroup0 {
                weight: weight.buffer().as_entire_buffer_binding(),
                packed: packed.buffer().as_entire_buffer_binding(),
                params: uniform.as_entire_buffer_binding(),
            };
            let pass = Pass::new(pack::Entry::PackWeightCoop, &overrides, grid.dims());
            self.record::<pack::Shader>("tensor-core weight prepack", pass, &group)
        })?;
        Ok(packed)
    }

    /// Records the weight prepack for the GEMM kernel and returns the packed tensor.
    pub(super) fn pack_weight(&mut self, weight: &Tensor, layout: PackLayout) -> Result<Tensor> {
        let ctx = self.ctx;
        let total = layout.packed_len();
        let packed = Tensor::zeros(ctx, &[total as usize], DType::F32)?;
        let limits = ctx.limits();
        let grid =
            dispatch::grid(total, dispatch::workgroup_size(&limits), limits.max_compute_workgroups_per_dimension)?;
        let total = crate::error::fits_u32("packed weight", total)?;
        let params = crate::shaders::conv_pack::PackParams::new(
            layout.groups,
            layout.icg,
            layout.ocg,
            layout.ocg.div_ceil(4) * 4,
            layout.taps,
            u32::from(layout.transposed),
            total,
        );
        let uniform = ctx.uniform("PackParams", &params)?;
        with_variant!(Variant::of(weight.dtype(), false), pack = conv_pack | conv_pack_f16, {
            let mut overrides = pack::Overrides::new(grid.stride_x);
            overrides.wg_size = grid.wg_size;
            let group = pack::BindGroup0 {
                weight: weight.buffer().as_entire_buffer_binding(),
                packed: packed.buffer().as_entire_buffer_binding(),
                params: uniform.as_entire_buffer_binding(),
            };
            let pass = Pass::new(pack::Entry::PackWeight, &overrides, grid.dims());
            self.record::<pack::Shader>("weight prepack", pass, &group)
        })?;
        Ok(packed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The tensor-core shaders cannot run on lavapipe, so at least check that naga lowers each
    /// variant of both to SPIR-V with cooperative matrices for each K-tile depth, every tile shape and a padded, strided, grouped
    /// geometry (a shader error would otherwise only show on a device that has them).
    #[test]
    fn coop_shader_compiles_to_spirv_for_each_tile() {
        for variant in [Variant::F32, Variant::F16, Variant::F16Partial] {
            with_variant!(variant, coop_shader = conv2d_coop | conv2d_coop_f16 | conv2d_coop_f16_partial, {
                // Eight multiply-adds per 16 of K, in a loop.
                let entries: Vec<(&str, usize)> = coop_shader::Entry::ALL.iter().map(|e| (e.name(), 8)).collect();
                check_coop_spirv(coop_shader::SOURCE, &entries, |warps_m, split_k, g| {
                    let mut overrides = coop_shader::Overrides::new();
                    (overrides.warps_m, overrides.split_k) = (warps_m, split_k);
                    overrides.transposed = g.transposed;
                    (overrides.activation, overrides.clamp_min, overrides.clamp_max) =
                        activation_constants(Activation::Clamp { min: -1.0, max: 1.0 });
                    specialise_filter::<coop_shader::Shader>(&mut overrides, g);
                    (overrides.spec_ic, overrides.spec_oc, overrides.spec_groups) = (g.ic, g.oc, g.groups);
                    overrides.constants()
                })
            });
            with_variant!(variant, nhwc = conv2d_coop_nhwc | conv2d_coop_nhwc_f16 | conv2d_coop_nhwc_f16_partial, {
                // Eight per 16 of K, unrolled over the K-tile: 64 deep for the plain entry point.
                let entries: Vec<(&str, usize)> = nhwc::Entry::ALL
                    .iter()
                    .map(|e| (e.name(), if *e == nhwc::Entry::Conv2dCoopNhwc { 32 } else { 16 }))
                    .collect();
                // Every entry point (its tile is fixed), at each K-slice count.
                check_coop_spirv(nhwc::SOURCE, &entries, |_, split_k, g| {
                    let mut overrides = nhwc::Overrides::new();
                    overrides.split_k = split_k;
                    (overrides.activation, overrides.clamp_min, overrides.clamp_max) =
                        activation_constants(Activation::Relu);
                    specialise_filter::<nhwc::Shader>(&mut overrides, g);
                    (overrides.spec_ic, overrides.spec_oc, overrides.spec_groups) = (g.ic, g.oc, g.groups);
                    overrides.constants()
                })
            });
        }
    }

    /// Lowers `entries` (with the multiply-adds each must have) of one variant of the tensor-core
    /// shader (`source`) to SPIR-V at the pipeline constants `constants_of(warps_m, split_k,
    /// geometry)` gives, and checks their cooperative multiply-adds.
    fn check_coop_spirv(
        source: &str,
        entries: &[(&str, usize)],
        constants_of: impl Fn(u32, u32, &ConvGeometry) -> Vec<(&'static str, f64)>,
    ) {
        let direct = ConvGeometry::new(
            &[2, 12, 9, 10],
            &[24, 3, 3, 2],
            None,
            &ConvOptions::default().stride(&[2, 1]).padding(&[1, 0]).dilation(&[1, 2]).groups(4),
        )
        .unwrap();
        // Stride phases of 2×2, 2×1, 1×2 and 1×1 taps.
        let opts = ConvOptions::default().transposed(true).stride(&[2]).padding(&[1]).groups(2);
        let transposed = ConvGeometry::new(&[2, 12, 9, 10], &[12, 4, 3, 3], None, &opts).unwrap();
        for g in [direct, transposed] {
            for (warps_m, split_k) in [(1, 1), (2, 1), (2, 3)] {
                let constants = constants_of(warps_m, split_k, &g);
                for &(entry, expected) in entries {
                    let mul_adds = crate::coop_spirv::coop_multiply_adds(source, entry, &constants);
                    assert_eq!(mul_adds, expected, "{entry:?}, warps_m {warps_m}: {mul_adds} multiply-adds");
                }
            }
        }
    }
}
