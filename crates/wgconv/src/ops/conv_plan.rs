//! The planner: which kernel can run a convolution, which one should (rules fitted to
//! measurements on an H200, see docs/PERFORMANCE.md; `wgconv bench --sweep` shows the data on
//! any GPU), and [`plan`], which settles kernel, tile width and K schedule for one device,
//! honouring forced choices and tuning.

use super::{
    conv_geometry::ConvGeometry,
    conv_kernel::{ConvKernel, GEMM_SMALL_TILE},
    conv_launch::POINTWISE_WORKGROUP,
    conv_options::{ForcedPlan, KTileLoads, Precision, TileOrder},
    conv_schedule::LaunchSchedule,
    conv_tune::TunedConfig,
};
use crate::{
    context::Context,
    dispatch::MAX_WORKGROUPS_PER_DIM,
    error::{Error, Result},
    tensor::DType,
};

/// Multiprocessors of the GPU the planner's rules were fitted on (an NVIDIA H200): one workgroup
/// per multiprocessor is a "wave" in the rules that count workgroups (split-K, stream-K, the
/// tensor-core kernel's K-tiles). WebGPU does not report the count of the GPU at hand; tuning
/// measures instead.
pub(crate) const FITTED_SMS: u64 = 132;

/// The smallest `CoopF16` grid (workgroups over all stride phases) on which the planner runs a
/// transposed convolution on the tensor cores (rule R29, `ConvGeometry::tensor_core_candidate`).
pub(crate) const COOP_TRANSPOSED_MIN_WORKGROUPS: u64 = 256;

/// The range of K over which rule R39 gives layers of at most 32 output channels per group the
/// 32×32 tiles of `GemmSmallK32` (`ConvGeometry::narrow_tiles_win`): the measured range, from
/// MobileNetV2's 96→24 projection to a 512→32 3×3 layer (1.18× the staged tiles; v33 call C).
/// Shorter K would leave most of its 32-deep K-tiles padding (not measured).
pub(crate) const NARROW_TILES_K: std::ops::RangeInclusive<u64> = 96..=4608;

/// The fewest input channels at which rule R40 keeps R31's Winograd layers on Winograd where f16
/// multiplicands are allowed (`ConvGeometry::winograd_keeps_tensor_core_layer`).
pub(crate) const WINOGRAD_TENSOR_CORES_MIN_IC: u32 = 256;

/// The fewest input and output channels at which rule R42 gives layers of fewer than
/// [`WINOGRAD_TENSOR_CORES_MIN_IC`] input channels to `WinogradCoop`
/// (`ConvGeometry::winograd_coop_wins`).
pub(crate) const WINOGRAD_COOP_MIN_CHANNELS: u32 = 128;

/// The fewest columns (images × 4×4 output tiles) of the products' GEMMs at which rule R61 runs
/// Winograd F(4×4, 3×3).
pub(crate) const WINOGRAD_4X4_MIN_COLUMNS: u64 = 256;

/// The least share of a dilated layer's F(4×4, 3×3) tile outputs that are outputs of the layer
/// at which rule R61 takes it (`ConvGeometry::winograd_4x4_dilated_tile_share`): each of the
/// dilation² phases is tiled alone, so phases of few rows or columns leave most of their tiles
/// empty. At 0.44 (DeepLabv3's ASPP at dilation 12 and 24 over 64², 6 and 18 over 32²) it ran
/// 1.13–1.66× the GEMM tiles; at 0.20 (dilation 36 over 64², 18 over 32²) 0.64–0.72× (v60
/// call E).
pub(crate) const WINOGRAD_4X4_DILATED_MIN_TILE_SHARE: f64 = 0.4;

/// The fewest input channels at which rule R61 runs Winograd F(4×4, 3×3) on half
/// [`WINOGRAD_4X4_MIN_COLUMNS`]: long enough K to keep its narrower GEMMs busy.
pub(crate) const WINOGRAD_4X4_DEEP_IC: u32 = 320;

/// The input and output channels from which rule R67 runs Winograd F(6×6, 3×3) where R61 runs
/// F(4×4, 3×3) (`ConvGeometry::winograd_6x6_wins`).
pub(crate) const WINOGRAD_6X6_MIN_CHANNELS: (u32, u32) = (192, 96);

/// The fewest columns (images × 6×6 output tiles) of the products' GEMMs at which rule R67 runs
/// Winograd F(6×6, 3×3): at 121 (64² at batch 1) it ran 0.88–1.21× `Winograd4x4`; at 242 (64²
/// at batch 2) the four layers measured split, SD 1.5's UNet 1.02× and 1.07× (v62 call A) and
/// SDXL's 640→640 and 320→640 0.94× and 0.90× (held out, v63 call A); at 256 (96² at batch 1,
/// SD 2's UNet at 768², held out) 1.22–1.34×.
pub(crate) const WINOGRAD_6X6_MIN_COLUMNS: u64 = 256;

/// The least ratio of F(4×4, 3×3)'s products (36 a 4×4 tile) to F(6×6, 3×3)'s (64 a 6×6 tile)
/// at which rule R67 runs F(6×6, 3×3): 1.19–1.25 (outputs of 46² to 512²) won on 25 of the 27
/// layers R67 takes, 1.10–1.15 (27² to 80²) lost on most.
pub(crate) const WINOGRAD_6X6_MIN_WORK_RATIO: f64 = 1.17;

/// The input and output channels from which rule R68 runs Winograd F(4×4, 5×5)
/// (`ConvGeometry::winograd_5x5_tile4_wins`).
pub(crate) const WINOGRAD_5X5_TILE4_MIN_CHANNELS: (u32, u32) = (32, 32);

/// The fewest columns (images × 4×4 output tiles) of the products' GEMMs at which rule R68 runs
/// Winograd F(4×4, 5×5): AlexNet's 27² at batch 1 (49 columns) ran 1.10× F(2×2, 5×5) forced and
/// level with R63's planned run; 81 (Inception-v3's 35² at batch 1) 1.01× the GEMM; 16
/// (GoogLeNet's 14² at batch 1) 0.89×.
pub(crate) const WINOGRAD_5X5_TILE4_MIN_COLUMNS: u64 = 49;

/// The fewest columns (images × 4×4 output tiles) of the products' GEMMs at which rule R62 runs
/// F(4×4, 3×3) on the tensor cores (`ConvGeometry::winograd_4x4_coop_wins`).
pub(crate) const WINOGRAD_4X4_COOP_MIN_COLUMNS: u64 = 128;

/// The fewest 4×4 output tiles per image at which rule R62 runs F(4×4, 3×3) on the tensor cores
/// (a 25×25 output), or [`WINOGRAD_4X4_COOP_DEEP_MIN_IMAGE_TILES`] at
/// [`WINOGRAD_4X4_COOP_DEEP_IC`]+ input channels.
pub(crate) const WINOGRAD_4X4_COOP_MIN_IMAGE_TILES: u64 = 49;

/// See [`WINOGRAD_4X4_COOP_MIN_IMAGE_TILES`]: a 13×13 output.
pub(crate) const WINOGRAD_4X4_COOP_DEEP_MIN_IMAGE_TILES: u64 = 16;

/// See [`WINOGRAD_4X4_COOP_MIN_IMAGE_TILES`].
pub(crate) const WINOGRAD_4X4_COOP_DEEP_IC: u32 = 512;

/// Which Winograd transforms the planner may choose: any, or only R31's F(2×2, 3×3), whose
/// windows are 4×4 (the fallback of a layer R61 gives `Winograd4x4`, R67 `Winograd6x6` or R68
/// `Winograd5x5Tile4`, that cannot run it).
#[derive(Clone, Copy, PartialEq, Eq)]
enum WinogradTiles {
    Any,
    TwoByTwo,
}

/// The input and output channel counts at which rule R44 gives Winograd-shaped layers to
/// `WinogradFused` where f16 multiplicands are allowed (`ConvGeometry::winograd_fused_wins`).
pub(crate) const WINOGRAD_FUSED_CHANNELS: std::ops::RangeInclusive<u32> = 32..=128;

/// The most input channels at which `WinogradFused` takes 16 tiles a workgroup wherever its
/// 32-tile grid has at most [`WINOGRAD_FUSED_NARROW_MAX_TILE_GROUPS`] groups of tiles
/// (`ConvGeometry::winograd_fused_shape`).
pub(crate) const WINOGRAD_FUSED_SHORT_IC: u32 = 80;

/// See [`WINOGRAD_FUSED_SHORT_IC`].
pub(crate) const WINOGRAD_FUSED_NARROW_MAX_TILE_GROUPS: u64 = 64;

/// The fewest workgroups of 32 tiles at which `WinogradFused` keeps 32 tiles a workgroup on
/// layers of more than [`WINOGRAD_FUSED_SHORT_IC`] input channels
/// (`ConvGeometry::winograd_fused_shape`).
pub(crate) const WINOGRAD_FUSED_LONG_K_MIN_WORKGROUPS: u64 = 96;

/// The most groups of 32 tiles on which rule R45 gives channels-last layers to `WinogradFused`
/// (`ConvGeometry::winograd_fused_wins_channels_last`).
pub(crate) const WINOGRAD_FUSED_CHANNELS_LAST_MAX_TILE_GROUPS: u64 = 128;

/// The most input channels (K) of a 2D pointwise layer that rule R46 gives `PointwiseVec4`
/// ahead of R27 (`ConvGeometry::pointwise_vec4_fills_grid`), on grids of at least
/// [`POINTWISE_MIN_WORKGROUPS`] workgroups: the longest K of the measured layers that won there.
pub(crate) const POINTWISE_MAX_K: u32 = 144;

/// The fewest `PointwiseVec4` workgroups (at [`POINTWISE_WORKGROUP`] threads) on which rule R46
/// gives it layers of more than [`POINTWISE_SHORT_K`] input channels: about one a
/// multiprocessor on the GPU the rule was fitted on ([`FITTED_SMS`]).
pub(crate) const POINTWISE_MIN_WORKGROUPS: u64 = 140;

/// The most input channels at which rule R46 gives `PointwiseVec4` grids of at least
/// [`POINTWISE_SHORT_K_MIN_WORKGROUPS`] workgroups (a K of 16–32 on batch-1 planes of 56² and
/// up, where R38's K split won on fewer).
pub(crate) const POINTWISE_SHORT_K: u32 = 32;

/// See [`POINTWISE_SHORT_K`].
pub(crate) const POINTWISE_SHORT_K_MIN_WORKGROUPS: u64 = 64;

/// The most output channels (one group) of a layer rule R47 gives `DirectBlock`
/// (`ConvGeometry::direct_block_wins`).
pub(crate) const DIRECT_BLOCK_MAX_OC: u32 = 32;

/// The longest K (input channels × filter taps) of a layer rule R47 gives `DirectBlock`.
pub(crate) const DIRECT_BLOCK_MAX_K: u64 = 144;

/// The longest K (input channels × filter taps) of a 1D layer rule R57 gives `DirectBlock`
/// (`ConvGeometry::direct_block_stem_wins`): K 7 and 10 measured faster there, K 16 slower.
pub(crate) const DIRECT_BLOCK_1D_MAX_K: u64 = 10;

/// The fewest output channels of a 1D layer rule R57 gives `DirectBlock`: 32 and more measured
/// faster at batch 1 and 16; 16 lost at batch 1 (a grid at the launch floor).
pub(crate) const DIRECT_BLOCK_1D_MIN_OC: u32 = 32;

/// The K from which rule R15 takes `GemmN64K32` only on grids of under
/// [`K32_SHORT_GRID_MAX_TILES`] 64×64 tiles (`ConvGeometry::k32_max_tiles`).
pub(crate) const K32_SHORT_GRID_MIN_K: u64 = 896;

/// Rule R15's bound on 64×64 tiles for `GemmN64K32` from K [`K32_SHORT_GRID_MIN_K`] on.
pub(crate) const K32_SHORT_GRID_MAX_TILES: u64 = 384;

/// The most output channels of a 2D single-channel stem rule R57 gives `DirectBlock` (the most
/// measured: Conformer's 1→256).
pub(crate) const DIRECT_BLOCK_2D_STEM_MAX_OC: u32 = 256;

/// The most output pixels of a layer `Gemv` runs: its columns are unrolled for 4 (rule R25).
pub(crate) const GEMV_MAX_PIXELS: u64 = 4;

/// The fewest filter taps at which rule R57 gives a 2D single-channel stem of stride 1
/// `DirectBlock`: a 5×5 one (ESPCN's 1→64) ran 1.20× `depthwise_vec4`, 3×3 ones 0.93×.
pub(crate) const DIRECT_BLOCK_2D_STEM_MIN_TAPS: u64 = 25;

/// The fewest filter taps at which rule R57 gives a strided 2D single-channel stem
/// `DirectBlock`: 3×3 (Conformer's 3×3 s2, 5.31×) to 7×7 were measured; smaller filters not.
pub(crate) const DIRECT_BLOCK_2D_STRIDED_STEM_MIN_TAPS: u64 = 9;

/// The fewest output pixels at which rule R58 gives a layer of 16–32 output channels and K
/// over R47's bound `DirectBlock`: at K 288 it lost at 102,400 (YOLOv8n b16's 32→32 3×3 at
/// 80², 0.94× the 32×32 tiles) and won from 590,000; the 1×1 squeezes it does not take won from
/// 193,600 (SqueezeNet b64's at 55², 1.22–1.70×).
pub(crate) const DIRECT_BLOCK_LONG_K_MIN_PIXELS: u64 = 150_000;

/// From this K on, rule R58 takes grids of [`DIRECT_BLOCK_VERY_LONG_K_MIN_PIXELS`] output
/// pixels: at K 576–1440 `DirectBlock` won from 65,536 (ESRGAN b4's growth layers at 128²,
/// 1.13–1.18×; DenseNet-121 b32's 128→32 at 56², 100,352, 1.10×) and lost at 16,384–25,088
/// (ESRGAN b1, DenseNet's second block: 0.48–0.66×).
pub(crate) const DIRECT_BLOCK_VERY_LONG_K: u64 = 576;

/// The fewest output pixels at which rule R58 takes a layer of K ≥ [`DIRECT_BLOCK_VERY_LONG_K`].
pub(crate) const DIRECT_BLOCK_VERY_LONG_K_MIN_PIXELS: u64 = 65_536;

/// The longest K of a layer rule R58 gives `DirectBlock` (ESRGAN's 160→32 3×3, 1.14×, the
/// longest measured).
pub(crate) const DIRECT_BLOCK_LONG_K_MAX_K: u64 = 1440;

/// The fewest output channels of a layer rule R58 gives `DirectBlock` in place of the
/// reference kernel (9 and 12 measured faster; LeNet-5's 6 slower, 0.80×).
pub(crate) const DIRECT_BLOCK_FEW_OC_MIN_OC: u32 = 8;

/// The fewest output channels of a layer rule R60 gives `DirectTiled`
/// (`ConvGeometry::direct_tiled_wins`): ESPCN's 32→9 (1.16× R58's register blocks) the fewest
/// measured; the RGB and latent outputs of 2–4 channels lost to R43's kernel (0.57–0.75×).
pub(crate) const DIRECT_TILED_MIN_OC: u32 = 9;

/// The most output channels of a layer rule R60 gives `DirectTiled`: at 64 and more it lost to
/// the GEMM tiles and Winograd on 95 of the 105 layers measured (0.16–0.99×); the 10 it won
/// (1.02–1.33×: 3→64 stems, ESRGAN's 64→64 at 128²–256², YOLOv8n's 64–80-channel heads) share
/// no bound that separates them from the losses.
pub(crate) const DIRECT_TILED_MAX_OC: u32 = 32;

/// The fewest input channels of a layer rule R60 gives `DirectTiled` (YOLOv8n's 16→16, the
/// fewest measured; a single-channel stem into 32 lost to `depthwise_vec4`, 0.72×).
pub(crate) const DIRECT_TILED_MIN_IC: u32 = 16;

/// The longest K (input channels × 9) of a layer rule R60 gives `DirectTiled`: ESRGAN's 160→32
/// (K 1440) the longest measured. Each workgroup runs all of K, where the 32×32 tiles split it
/// four ways: longer K on small grids was not measured.
pub(crate) const DIRECT_TILED_MAX_K: u64 = 1440;

/// The fewest output pixels of a layer of under 16 output channels rule R60 gives
/// `DirectTiled` (R47's bound): the only such layer measured (ESPCN's 32→9, 1.16× R58's
/// register blocks) had 802,816.
pub(crate) const DIRECT_TILED_FEW_OC_MIN_PIXELS: u64 = DIRECT_BLOCK_MIN_PIXELS;

/// The fewest output columns of a layer rule R60 gives `DirectTiled`: its tiles are 32 columns
/// wide; at 28 (DenseNet-121 b32's 128→32 at 28², 1.16×) it won, at 14 it lost (0.71×).
pub(crate) const DIRECT_TILED_MIN_COLUMNS: u32 = 28;

/// The fewest output pixels (all images) of a layer rule R60 gives `DirectTiled`: the smallest
/// grid on which it won (ESRGAN b1's growth layers, 128², 1.32–1.47×); at 6,400 and fewer
/// (YOLOv8n's 32→32 at 80², batch 1; DenseNet's 14² and 7² blocks) it lost (0.35–0.71×).
pub(crate) const DIRECT_TILED_MIN_PIXELS: u64 = 16_384;

/// The smallest input (bytes of f32 values, all images) on which rule R55 takes `GemmK16`'s
/// output tiles M tile fastest: beyond the 50 MB L2 cache of an H100 or H200 with a margin (the
/// layers measured between 39 and 67 MB gained nothing, those from 75 MB on 1.02–1.04×).
pub(crate) const M_FASTEST_MIN_INPUT_BYTES: u64 = 70_000_000;

/// The fewest output pixels (all images) of a layer rule R47 gives `DirectBlock`: the smallest
/// grid on which it was measured to win (YOLOv8n's 3→16 stem, 320² outputs at batch 1).
pub(crate) const DIRECT_BLOCK_MIN_PIXELS: u64 = 102_400;

/// The fewest input channels (K) at which rule R64 streams a 2D pointwise layer of under 16
/// output channels on a grid under [`POINTWISE_FEW_OC_MAIN_MIN_WORKGROUPS`]
/// (`ConvGeometry::pointwise_few_oc_stream`): K 96–256 measured faster; K 16 on 66 workgroups
/// (YOLOv8n's 16→1 DFL at batch 1) 0.95× the reference kernel.
pub(crate) const POINTWISE_FEW_OC_MIN_K: u32 = 64;

/// The fewest output pixels (all images) of a layer rule R64 streams with K split: 27,200
/// (Mask R-CNN's 256→3 and 256→12 heads at 100 × 136, 2.12× and 2.68×) the fewest measured
/// faster; at 6,800–8,192 it lost (0.64–0.87×: their 50 × 68 level and 320→4 at 64² to R27's
/// split K, 1,024→4 at 32² to R43's `FewOc`).
pub(crate) const POINTWISE_FEW_OC_MIN_PIXELS: u64 = 16_384;

/// The longest K of a layer rule R64 streams: 256, the longest measured faster (Mask R-CNN's
/// heads); a 2048→8 probe at 16², batch 16, ran the split 0.39× R27's `GemmSmallK32`, and R43's
/// `FewOc` runs its 2–4-channel layers of long K first.
pub(crate) const POINTWISE_FEW_OC_MAX_K: u32 = 256;

/// The fewest `PointwiseVec4` workgroups (at [`POINTWISE_WORKGROUP`] threads) on which rule R64
/// runs its main entry point rather than the K split: from 400 it won (a 96→12 layer at 160²,
/// batch 8, 1.20× the split; a U-Net's 64→2 output at 256², batch 4, 1.07×; YOLOv8n b16's 16→1
/// DFL, 1,050 workgroups, 2.41×); at 128–213 it lost on 2 of 3 (0.77×, 0.94×) and won on one
/// (Mask R-CNN's 256→12 head at 200 × 272, 1.10×).
pub(crate) const POINTWISE_FEW_OC_MAIN_MIN_WORKGROUPS: u64 = 256;

/// The fewest input channels (K) of a 1×1 layer rule R65 gives `DirectBlock`
/// (`ConvGeometry::direct_block_pointwise_wins`): SqueezeNet's 64→16 and 128→16 squeezes.
pub(crate) const DIRECT_BLOCK_POINTWISE_MIN_K: u64 = 64;

/// The most input channels, or (R48's other clause) output channels, of a layer the fp32
/// planner gives `PointwiseVec4` that rule R48 keeps on it where f16 multiplicands are allowed
/// (`ConvGeometry::pointwise_stream_keeps_f16_layer`).
pub(crate) const POINTWISE_F16_MAX_IC: u32 = 32;

/// See [`POINTWISE_F16_MAX_IC`].
pub(crate) const POINTWISE_F16_MAX_OC: u32 = 24;

/// What runs one convolution on one device.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Plan {
    /// The kernel.
    pub kernel: ConvKernel,
    /// For GEMM kernels: how their tiles launch.
    pub gemm: Option<GemmPlan>,
    /// For the Winograd kernels whose products run on the fp32 GEMM kernels
    /// ([`ConvKernel::winograd_products_on_staged_tiles`]): the products' K-tile loads as tuned
    /// or forced (`None`: R69's or R70's, `winograd::products_plan`).
    pub products_loads: Option<KTileLoads>,
}

/// How a GEMM kernel's tiles launch.
#[derive(Clone, Copy, Debug)]
pub(crate) struct GemmPlan {
    /// The tile width: columns of N·OH·OW per workgroup.
    pub tile_n: u32,
    /// K-slices or stream-K.
    pub schedule: LaunchSchedule,
    /// When the 16-deep tiles load a K-tile (the others ignore it).
    pub loads: KTileLoads,
    /// The order of the output tiles of K-slice launches (stream-K ignores it).
    pub order: TileOrder,
}

/// Settles how `geometry` runs on `ctx`'s device: the forced kernel, else, where f16 is allowed
/// and the context has cooperative matrices, `WinogradFused` for R44's 3×3 layers of f32
/// tensors, `WinogradCoop` (or `Winograd`) for the 3×3 layers R40 and R42 give it, else
/// `CoopF16` where the context runs it and the planner would run a GEMM kernel for the layer's
/// GEMM shape, or R30's few-output-channel kernel, transposed layers
/// on large grids only (`ConvGeometry::tensor_core_candidate`; unless a tile width or K
/// schedule is forced: those are fp32 GEMM choices), else the configuration `Conv2d::tune`
/// measured fastest for this geometry, else the planner's kernel, stepped back to one that fits
/// the device's workgroup memory (WebGPU's default is 16 KiB; downlevel devices have less) and
/// runs the geometry (tiled depthwise → row runs → four columns per thread). A forced choice
/// that does not fit or cannot run is an error naming it.
pub(crate) fn plan(
    ctx: &Context,
    geometry: &ConvGeometry,
    dtype: DType,
    precision: Precision,
    forced: &ForcedPlan,
) -> Result<Plan> {
    let (kernel, tuned) = runnable_kernel(ctx, geometry, dtype, precision, forced)?;
    if !kernel.is_gemm() {
        // A tuned configuration comes only when nothing was forced (`runnable_kernel`).
        let products_loads = match kernel.winograd_products_on_staged_tiles() {
            true => tuned.map_or(forced.k_tile_loads, |t| t.k_tile_loads),
            false => None,
        };
        return Ok(Plan { kernel, gemm: None, products_loads });
    }
    // A tuned configuration comes only when nothing was forced (`runnable_kernel`).
    let (tile_n, schedule, loads) = match tuned {
        Some(t) => (t.tile_n, t.schedule, t.k_tile_loads),
        None => (forced.tile_n, forced.schedule, forced.k_tile_loads),
    };
    let tile_n = geometry.choose_tile_n(kernel, tile_n)?;
    let forced_schedule = tuned.is_none() && forced.schedule.is_some();
    let mut schedule = geometry.launch_schedule(kernel, tile_n, schedule)?;
    // The planner's and tuning's split-K within one binding; a forced one is checked as given.
    if !forced_schedule {
        schedule = schedule.within_binding(geometry, ctx.limits().max_storage_buffer_binding_size);
    }
    let loads = loads.unwrap_or_else(|| kernel.fitted_k_tile_loads(tile_n));
    // Tuning does not time the order: a tuned plan takes the planner's for its tile. R55 was
    // fitted on f32 tensors (its bound counts f32 bytes): f16 tensors keep N tiles fastest.
    let order = forced.tile_order.unwrap_or_else(|| match dtype {
        DType::F32 => geometry.fitted_tile_order(kernel, tile_n),
        _ => TileOrder::NFastest,
    });
    Ok(Plan { kernel, gemm: Some(GemmPlan { tile_n, schedule, loads, order }), products_loads: None })
}

/// The error for a tensor-core `kernel` forced on a context without cooperative matrices.
pub(crate) fn tensor_cores_unavailable(ctx: &Context, kernel: &str) -> Error {
    Error::unavailable(
        kernel,
        format!(
            "kernel {} needs f16 16×16×16 cooperative matrices with f32 accumulation on subgroups of 32, \
             which this context does not have ({}); request them with AdapterRequest::cooperative_matrix or \
             WGCONV_COOPERATIVE_MATRIX=1 on a device that reports them",
            kernel,
            ctx.describe()
        ),
    )
}

/// Whether `WinogradFused` can run `geometry` on `ctx`: cooperative matrices, its workgroup
/// memory, and its transformed weight within one storage binding. (Where it is planned, by R44
/// and R45, and where `Conv2d::new` keeps its weight.)
pub(crate) fn winograd_fused_runs_on(ctx: &Context, geometry: &ConvGeometry) -> bool {
    let limits = ctx.limits();
    ctx.cooperative_f16()
        && ConvKernel::WinogradFused.workgroup_storage_bytes() <= limits.max_compute_workgroup_storage_size
        && geometry.winograd_fused_weight_fits(limits.max_storage_buffer_binding_size)
}

/// Whether `kernel` is one of the Winograd kernels on windows larger than F(2×2, 3×3)'s 4×4
/// (`Winograd4x4`, `Winograd6x6`, `Winograd5x5`, `Winograd5x5Tile4`): the planner gives them
/// layers by rules (R61, R67, R68) whose fallback, where they cannot run, is R61's `Winograd4x4`
/// for R67's layers where that runs ([`runnable_larger_winograd`]), else the kernel planned
/// without them (`ConvGeometry::planned_kernel_without_4x4`).
fn larger_winograd(kernel: ConvKernel) -> bool {
    matches!(
        kernel,
        ConvKernel::Winograd4x4 | ConvKernel::Winograd5x5 | ConvKernel::Winograd5x5Tile4 | ConvKernel::Winograd6x6
    )
}

/// The planned larger Winograd `kernel` where it runs (`runs`: f32 tensors, a transformed weight
/// within one binding, intermediates within the bindings in parts or bands), else for R67's
/// `Winograd6x6` R61's `Winograd4x4` where that runs: R67 takes only R61's layers, and
/// F(4×4, 3×3)'s transformed weight is 36/64 of F(6×6, 3×3)'s (a 768-channel layer's fits a
/// 128 MiB binding only in F(4×4, 3×3)). `None` where none runs: the caller falls back to the
/// kernel planned without them.
fn runnable_larger_winograd(kernel: ConvKernel, runs: impl Fn(ConvKernel) -> bool) -> Option<ConvKernel> {
    let fallback = match kernel {
        ConvKernel::Winograd6x6 => Some(ConvKernel::Winograd4x4),
        _ => None,
    };
    std::iter::once(kernel).chain(fallback).find(|candidate| runs(*candidate))
}

/// The kernel `plan` runs, and its configuration when it comes from tuning.
fn runnable_kernel(
    ctx: &Context,
    geometry: &ConvGeometry,
    dtype: DType,
    precision: Precision,
    forced: &ForcedPlan,
) -> Result<(ConvKernel, Option<TunedConfig>)> {
    let storage = ctx.limits().max_compute_workgroup_storage_size;
    let coop = ConvKernel::CoopF16;
    let coop_runs = ctx.cooperative_f16() && coop.workgroup_storage_bytes() <= storage;
    let winograd_coop = ConvKernel::WinogradCoop;
    let winograd_coop_fits = ctx.cooperative_f16() && winograd_coop.workgroup_storage_bytes() <= storage;
    for kernel in [coop, winograd_coop, ConvKernel::WinogradFused, ConvKernel::Winograd4x4Coop] {
        if forced.kernel == Some(kernel) && !ctx.cooperative_f16() {
            return Err(tensor_cores_unavailable(ctx, kernel.name()));
        }
    }
    // Winograd's transforms are f32, and its intermediates must each fit one storage binding
    // (the whole batch's, or parts' of it at aligned offsets, or bands of an image's tile rows).
    let limits = ctx.limits();
    let binding_limit = limits.max_storage_buffer_binding_size;
    let alignment = u64::from(limits.min_storage_buffer_offset_alignment);
    // Evaluated only for Winograd: it builds the products' geometry.
    let winograd_runs =
        |kernel: ConvKernel| dtype == DType::F32 && geometry.winograd_parts(kernel, binding_limit, alignment).is_some();
    let f16_allowed = !forced.forces_launch() && precision == Precision::AllowF16;
    // f16 allowed: Winograd in one pass for R44's channel counts, where the tensor cores run it.
    if f16_allowed && dtype == DType::F32 && winograd_fused_runs_on(ctx, geometry) && geometry.winograd_fused_wins() {
        return Ok((ConvKernel::WinogradFused, None));
    }
    // f16 allowed: F(4×4, 3×3) on the tensor cores for the layers R40, R42 and the tensor-core
    // GEMM would take, on wide grids of large enough images (R62).
    let winograd4_coop = ConvKernel::Winograd4x4Coop;
    if f16_allowed
        && coop_runs
        && winograd4_coop.workgroup_storage_bytes() <= storage
        && geometry.winograd_4x4_coop_wins()
        && (geometry.winograd_keeps_tensor_core_layer()
            || geometry.winograd_coop_wins()
            || geometry.tensor_core_candidate())
        && winograd_runs(winograd4_coop)
    {
        return Ok((winograd4_coop, None));
    }
    // f16 allowed: R31's Winograd layers of 256+ input channels keep Winograd, its products on
    // the tensor cores where they can run, else on the fp32 GEMM (R40).
    if f16_allowed && coop_runs && geometry.winograd_keeps_tensor_core_layer() && winograd_runs(ConvKernel::Winograd) {
        let products_on_tensor_cores = winograd_coop_fits && winograd_runs(winograd_coop);
        // Where they cannot, the fp32 planner's Winograd: F(4×4, 3×3) where R61 gives it,
        // F(6×6, 3×3) where R67 does.
        let planned = geometry.planned_kernel();
        let fp32 = match larger_winograd(planned) {
            true => runnable_larger_winograd(planned, winograd_runs).unwrap_or(ConvKernel::Winograd),
            false => ConvKernel::Winograd,
        };
        return Ok((if products_on_tensor_cores { winograd_coop } else { fp32 }, None));
    }
    // f16 allowed: more Winograd-shaped layers on `WinogradCoop`, those R31 left to the GEMM
    // kernels among them (R42).
    if f16_allowed && coop_runs && winograd_coop_fits && geometry.winograd_coop_wins() && winograd_runs(winograd_coop) {
        return Ok((winograd_coop, None));
    }
    // f16 allowed: tensor cores take what the fp32 planner would give to a GEMM kernel for its
    // GEMM shape, transposed layers only on large grids (`tensor_core_candidate`: R29, R30),
    // but for the pointwise layers the stream runs faster (R48), and for the few-output-channel
    // transposed layers at stride 2 × 2 the stride-phase blocks (R49).
    if f16_allowed
        && coop_runs
        && geometry.tensor_core_candidate()
        && !geometry.pointwise_stream_keeps_f16_layer()
        && !geometry.few_oc_phases_keep_f16_layer()
        && geometry.supports(coop)
    {
        return Ok((coop, None));
    }
    // Tuning timed f32 tensors of this geometry: its Winograd choice does not hold for f16 ones.
    if forced.is_empty()
        && let Some(tuned) = ctx.tuned(geometry)
        && (!tuned.kernel.is_winograd() || winograd_runs(tuned.kernel))
    {
        return Ok((tuned.kernel, Some(tuned)));
    }
    let mut kernel = geometry.choose_kernel(forced.kernel)?;
    // R61's, R67's and R68's layers that cannot run their Winograd (f16 tensors, a transformed
    // weight or intermediates over the bindings) take R61's `Winograd4x4` where R67's
    // `Winograd6x6` cannot run and it can, else what they ran before those rules.
    if larger_winograd(kernel) && forced.kernel.is_none() {
        kernel =
            runnable_larger_winograd(kernel, winograd_runs).unwrap_or_else(|| geometry.planned_kernel_without_4x4());
    }
    // A tile width or K schedule forced without a kernel is a choice among the staged-tile GEMM
    // kernels, which the small-grid ones, R30's and R43's few-output-channel kernels, R31's,
    // R61's, R67's and R68's Winograd, R32's `GroupedOc4`, R37's, R38's and R46's pointwise
    // kernels, R47's and R57's `DirectBlock` and R60's `DirectTiled` are not; R61's, R67's and
    // R68's layers choose among those they ran before them.
    if forced.kernel.is_none() && (forced.tile_n.is_some() || forced.schedule.is_some()) {
        if larger_winograd(kernel) {
            kernel = geometry.planned_kernel_without_4x4();
        }
        if kernel.gemm_small_entry().is_some() || geometry.rule_instead_of_gemm(kernel) {
            kernel = geometry.staged_gemm_kernel();
        }
    }
    // R30 was measured with its K split, which needs a 256-thread workgroup: a device that
    // does not take one runs the staged tiles R30 replaced.
    let limits = ctx.limits();
    let split_fits = super::conv_launch::few_oc_split_fits(&limits);
    if kernel == ConvKernel::TransposedFewOc && forced.kernel.is_none() && !split_fits {
        kernel = geometry.staged_gemm_kernel();
    }
    // Kernels of a fixed workgroup: `FewOc` has only the K-split entry point, and
    // `DirectTiled`'s is 128 threads. A device that does not take it runs the reference kernel,
    // which takes any workgroup size; forced, they are an error naming what they need.
    let refusal = match kernel {
        ConvKernel::FewOc if !split_fits => Some(format!(
            "kernel few_oc needs a workgroup of 256 threads and {} bytes of workgroup memory; this device allows {} \
             threads and {} bytes",
            kernel.workgroup_storage_bytes(),
            crate::dispatch::max_workgroup_threads(&limits),
            limits.max_compute_workgroup_storage_size
        )),
        ConvKernel::DirectTiled if !super::conv_launch::tiled_fits(&limits) => Some(format!(
            "kernel direct_tiled needs a workgroup of {} threads; this device allows {}",
            crate::shaders::conv2d_tiled::TILED_WORKGROUP,
            crate::dispatch::max_workgroup_threads(&limits)
        )),
        _ => None,
    };
    if let Some(refusal) = refusal {
        if forced.kernel.is_some() {
            return Err(Error::unavailable(kernel.name(), refusal));
        }
        kernel = geometry.reference_kernel();
    }
    if kernel == ConvKernel::WinogradFused && dtype != DType::F32 {
        return Err(Error::unavailable(
            kernel.name(),
            format!("kernel winograd_fused runs f32 tensors (got {dtype:?}): its transforms are f32"),
        ));
    }
    if kernel.is_winograd() && !winograd_runs(kernel) {
        if forced.kernel.is_some() {
            let transform = kernel.winograd_transform();
            let (input, products) = geometry.winograd_scratch_len(transform);
            let per_row = geometry.winograd_row_scratch_len(transform);
            let weight = geometry.winograd_weight_len(transform);
            let channels = match kernel {
                ConvKernel::WinogradCoop | ConvKernel::Winograd4x4Coop => {
                    format!(", with a multiple of 8 input channels (got {})", geometry.ic)
                }
                _ => String::new(),
            };
            return Err(Error::unavailable(
                kernel.name(),
                format!(
                    "kernel {} runs f32 tensors (got {dtype:?}){channels} whose transformed weight ({weight} f32), \
                     transformed input ({input} f32) and products ({products} f32) each fit one \
                     {binding_limit}-byte storage binding, or the weight does and the others \
                     of one tile row of one image do ({per_row} f32; it then runs in parts of whole images and \
                     bands of tile rows) and the images start at multiples of {alignment} bytes",
                    kernel.name()
                ),
            ));
        }
        kernel = geometry.staged_gemm_kernel();
    }
    // At a forced tile width, GEMM kernels declare workgroup memory for that width.
    let needs = |k: ConvKernel| k.workgroup_storage_bytes_at(forced.tile_n);
    // A fallback may itself not run this geometry (`DepthwiseRows` on huge filters): step on.
    while needs(kernel) > storage || !geometry.supports(kernel) {
        // The few-channel layers R27 gives a small-grid kernel step back to their reference
        // kernel, which they ran before, not to a mostly empty GEMM tile.
        let fallback = match kernel.gemm_small_entry() {
            Some(_) if !geometry.gemm_worthwhile() => Some(geometry.reference_kernel()),
            _ => kernel.fallback(),
        };
        match (forced.kernel, fallback) {
            (None, Some(next)) => kernel = next,
            _ if needs(kernel) > storage => {
                return Err(Error::unavailable(
                    kernel.name(),
                    format!(
                        "kernel {} needs {} bytes of workgroup memory; this device allows {storage}",
                        kernel.name_at(forced.tile_n),
                        needs(kernel)
                    ),
                ));
            }
            _ => {
                return Err(Error::unavailable(
                    kernel.name(),
                    format!("kernel {} cannot run this convolution", kernel.name()),
                ));
            }
        }
    }
    Ok((kernel, None))
}

impl ConvGeometry {
    /// The reference kernel for this geometry.
    pub fn reference_kernel(&self) -> ConvKernel {
        if self.transposed {
            ConvKernel::Transposed
        } else if (self.ic / self.groups).is_multiple_of(4) {
            ConvKernel::DirectVec4
        } else {
            ConvKernel::Direct
        }
    }

    /// Whether strides, paddings and dilations are all below 2^16: the kernels that fold them
    /// into the pipeline as constants need it, since their products could overflow u32 there,
    /// which fails pipeline creation. Larger ones are left to the per-output kernels.
    pub(crate) fn filter_constants_fit(&self) -> bool {
        [self.stride, self.padding, self.dilation].iter().flatten().all(|x| *x < 1 << 16)
    }

    /// Whether `kernel` can run this convolution.
    pub fn supports(&self, kernel: ConvKernel) -> bool {
        match kernel {
            ConvKernel::Transposed => self.transposed,
            // Its staged weights hold every tap of 4 or more input channels (up to a 7×7
            // filter); the filter is a pipeline constant.
            ConvKernel::DirectBlock => {
                let max_taps = u64::from(crate::shaders::conv2d_block::BLOCK_MAX_TAPS);
                !self.transposed
                    && self.groups == 1
                    && u64::from(self.kh) * u64::from(self.kw) <= max_taps
                    && self.filter_constants_fit()
            }
            // Its input tiles hold a 3×3 filter's halo at stride 1 and dilation 1; the padding
            // is a pipeline constant.
            ConvKernel::DirectTiled => {
                !self.transposed
                    && self.groups == 1
                    && (self.kh, self.kw) == (3, 3)
                    && self.stride == [1, 1]
                    && self.dilation == [1, 1]
                    && self.filter_constants_fit()
            }
            // Its thread index covers every stride phase's sub-grid (rounded up to whole strides)
            // in u32, and those threads are mostly outputs: strides far above the output size
            // would launch up to stride² idle threads per output.
            ConvKernel::TransposedFewOc => {
                let threads = self.few_oc_threads();
                let pixels = u128::from(self.n) * u128::from(self.groups) * u128::from(self.oh) * u128::from(self.ow);
                self.transposed
                    && self.oc / self.groups <= 4
                    && threads <= u128::from(u32::MAX)
                    && threads <= 4 * pixels
            }
            // Its grid (8 threads per run of 4 pixels) indexes in u32.
            ConvKernel::FewOc => {
                !self.transposed
                    && self.oc / self.groups <= 4
                    && self.few_oc_row_runs().div_ceil(32) * 256 <= u128::from(u32::MAX)
            }
            // Its columns are unrolled for 4 pixels; one row of workgroups.
            ConvKernel::Gemv => {
                !self.transposed
                    && self.output_pixels() <= GEMV_MAX_PIXELS
                    && self.gemv_workgroups() <= MAX_WORKGROUPS_PER_DIM
            }
            ConvKernel::Direct => !self.transposed,
            ConvKernel::DirectVec4 => !self.transposed && (self.ic / self.groups).is_multiple_of(4),
            ConvKernel::Depthwise => !self.transposed && self.ic / self.groups <= 16,
            // Its channel loop is a runtime loop: any count runs (R9 plans it for up to 16).
            ConvKernel::GroupedOc4 => !self.transposed && (self.oc / self.groups).is_multiple_of(4),
            ConvKernel::DepthwiseTiled => {
                !self.transposed && self.ic == self.groups && self.rows_per_thread_depthwise_tiled().is_some()
            }
            ConvKernel::DepthwiseRows => !self.transposed && self.ic == self.groups && self.depthwise_rows_fit(),
            ConvKernel::DepthwiseVec4 => {
                !self.transposed && self.ic == self.groups && self.depthwise_rows_fit() && self.depthwise_vec4_fit()
            }
            ConvKernel::Gemm
            | ConvKernel::GemmM64
            | ConvKernel::GemmK16
            | ConvKernel::GemmM64K16
            | ConvKernel::GemmM64K32
            | ConvKernel::GemmN64K16
            | ConvKernel::GemmN64K32 => {
                // The stride-phase decomposition assumes dilation 1; each grid dimension ≤ 65535.
                let tile = kernel.gemm_tile().unwrap_or((128, 128));
                (!self.transposed || self.dilation == [1, 1])
                    && self.filter_constants_fit()
                    && self.gemm_grid(tile).iter().all(|d| *d <= MAX_WORKGROUPS_PER_DIM)
            }
            // The GEMM kernels' sub-problems, in 32×32 tiles.
            ConvKernel::GemmSmall | ConvKernel::GemmSmallK32 => {
                (!self.transposed || self.dilation == [1, 1])
                    && self.filter_constants_fit()
                    && self.gemm_grid(GEMM_SMALL_TILE).iter().all(|d| *d <= MAX_WORKGROUPS_PER_DIM)
            }
            // Transposed by stride phase, as the GEMM kernels (dilation 1).
            ConvKernel::CoopF16 => {
                (!self.transposed || self.dilation == [1, 1])
                    && self.filter_constants_fit()
                    && self.coop_grid().iter().all(|d| *d <= MAX_WORKGROUPS_PER_DIM)
            }
            // Aligned vec4s of whole planes (the input's and output's, the same size).
            ConvKernel::PointwiseVec4 | ConvKernel::PointwiseVec4Split => {
                self.pointwise_shape() && self.planes_of_whole_vec4s()
            }
            // Its intermediates' size against the device's bindings is checked by the planner.
            ConvKernel::Winograd
            | ConvKernel::WinogradCoop
            | ConvKernel::Winograd4x4
            | ConvKernel::Winograd4x4Coop
            | ConvKernel::Winograd5x5
            | ConvKernel::Winograd5x5Tile4
            | ConvKernel::Winograd6x6 => self.winograd_parts(kernel, u64::MAX, 1).is_some(),
            ConvKernel::WinogradFused => self.winograd_fused_runs(),
            ConvKernel::CoopNhwc => {
                !self.transposed
                    && !self.one_d
                    && (self.ic / self.groups).is_multiple_of(8)
                    && self.filter_constants_fit()
                    && self.coop_nhwc_grid().iter().all(|d| *d <= MAX_WORKGROUPS_PER_DIM)
            }
        }
    }

    /// The planner: the fastest kernel for this shape among those that support it, by rules
    /// fitted on an H200. The rules are numbered as in docs/PERFORMANCE.md ("Why the planner's
    /// rules are what they are"), which holds the measurements behind each.
    pub fn planned_kernel(&self) -> ConvKernel {
        self.planned_kernel_with(WinogradTiles::Any)
    }

    /// The kernel the planner would choose without R61's F(4×4, 3×3), R67's F(6×6, 3×3) and R68's
    /// F(4×4, 5×5): where `Winograd4x4` or `Winograd5x5Tile4` is planned but cannot run (f16
    /// tensors, a transformed weight or intermediates over the bindings), and `Winograd6x6` where
    /// neither it nor `Winograd4x4` can, the layer takes what it ran before those rules.
    pub(crate) fn planned_kernel_without_4x4(&self) -> ConvKernel {
        self.planned_kernel_with(WinogradTiles::TwoByTwo)
    }

    fn planned_kernel_with(&self, winograd_tiles: WinogradTiles) -> ConvKernel {
        let icg = self.ic / self.groups;
        let ocg = self.oc / self.groups;
        let gemm_worthwhile = self.gemm_worthwhile();
        // Depthwise on widths that are multiples of 4: aligned vec4 quads, fastest on every
        // depthwise layer measured, 3×3 and 7×7 (R4). Larger filters that fit its four-vec4
        // window (e.g. 9×9 "same") were not measured; they take it too.
        // A 1D convolution of one input channel into 16 or more (wav2vec 2.0's 1→512 over raw
        // audio) is not taken as depthwise: it goes to the GEMM rules below like any other stem
        // (R24); nor is a 2D single-channel stem that R57 gives `DirectBlock`.
        let single_channel_1d_stem = self.ic == 1 && self.groups == 1 && ocg >= 16 && self.one_row();
        let block_stem = self.direct_block_stem_wins() && self.supports(ConvKernel::DirectBlock);
        let depthwise = self.ic == self.groups && !self.transposed && !single_channel_1d_stem && !block_stem;
        if depthwise && self.supports(ConvKernel::DepthwiseVec4) {
            return ConvKernel::DepthwiseVec4;
        }
        // Single-channel stems into 32 or more channels — 1D ones of K ≤ 10 (wav2vec 2.0's 1→512
        // k10 s5 over raw audio), 2D ones strided or of 5×5+ filters (a grayscale ResNet's 7×7 s2,
        // Conformer's 3×3 s2 over a spectrogram): register blocks of 4 columns × 16 channels with
        // the taps unrolled, ahead of R51's and the small tiles and of the depthwise kernels (R57).
        if block_stem {
            return ConvKernel::DirectBlock;
        }
        // Otherwise the tiled kernel shares each input element over its block through workgroup
        // memory, which wins for large filters (R5). Its blocks are 8+ rows tall, which short
        // (1D) outputs would mostly waste, and 32 columns wide: on EfficientNet-B0's 5×5 layers
        // at 14² (batch 32), 18 of each block's 32 columns idle and the row runs below were
        // 2.2–2.3× faster. Outputs under one block's width take the row runs; on the H200 the
        // tiled kernel won only at 56 columns (v15, before the vec4 kernel above took that width).
        let taps = u64::from(self.kh) * u64::from(self.kw);
        let fills_blocks = self.oh >= 8 && self.ow >= crate::shaders::conv2d_depthwise_tiled::BLOCK_W;
        if self.supports(ConvKernel::DepthwiseTiled) && taps >= 25 && fills_blocks {
            return ConvKernel::DepthwiseTiled;
        }
        // Other depthwise filters: runs of output rows per thread (R6).
        if depthwise && self.supports(ConvKernel::DepthwiseRows) {
            return ConvKernel::DepthwiseRows;
        }
        // Groups of up to 16 channels in and out (ResNeXt): four output channels per thread
        // share each input load (R9).
        if self.groups > 1 && !depthwise && icg <= 16 && ocg <= 16 && self.supports(ConvKernel::GroupedOc4) {
            return ConvKernel::GroupedOc4;
        }
        // At most 4 output pixels in all (squeeze-and-excitation FCs, a U-Net's innermost layer):
        // K shared out over a workgroup row's lanes, not run serially by each thread of a GEMM
        // tile whose columns are nearly all absent, nor by one thread per output (R25). Short K
        // (under 128) on few channels stays with the direct kernels, which are at the launch
        // floor there. (`Gemv` runs direct convolutions only: its K is the GEMM's.)
        if !depthwise && (gemm_worthwhile || self.gemm_k_depth() >= 128) && self.supports(ConvKernel::Gemv) {
            return ConvKernel::Gemv;
        }
        // Depthwise filters too large for the row-runs' unrolled window, and other groups of few
        // channels (3 out per group, or up to 4 in): the depthwise kernel's four outputs per
        // thread beat the one-output direct kernels (R10).
        if depthwise || (!gemm_worthwhile && icg <= 4 && self.supports(ConvKernel::Depthwise)) {
            return ConvKernel::Depthwise;
        }
        // 3×3 stride-1 layers of 16+ channels into 9–32 on grids of 16,384+ pixels (ESRGAN's and
        // DenseNet's growth layers, ESPCN's, Inception-v3's 32→32, EfficientNetV2-S's 24→24,
        // YOLOv8n's 16→16 and 32→32): input tiles in workgroup memory shared by 4 output rows a
        // thread, ahead of R58's and R47's register blocks and the 32×32 tiles (R60).
        if self.direct_tiled_wins() {
            return ConvKernel::DirectTiled;
        }
        // 2D pointwise layers of under 16 output channels (no GEMM tile is worth it) with long K
        // or on wide grids (a detector's 256→3 and 256→12 heads, a U-Net's 64→2 output): the
        // pointwise stream, every output channel of a pixel at once and the input read once, its
        // K split four ways where the grid is smaller (R64).
        if let Some(stream) = self.pointwise_few_oc_stream() {
            return stream;
        }
        // 1×1 layers of K 64–144 into 8–32 channels on large grids whose planes the stream
        // cannot take (not whole vec4s: SqueezeNet's squeezes at 55²): the register blocks (R65).
        if self.direct_block_pointwise_wins() && self.supports(ConvKernel::DirectBlock) {
            return ConvKernel::DirectBlock;
        }
        // 8–32 output channels with K beyond R47's bound on large grids (strided and larger
        // filters into 32, HiFi-GAN's 32-channel 1D blocks, a detector's 256→12 box head on planes
        // of part vec4s, which R64 streams otherwise; the 3×3 stride-1 growth layers R60 takes
        // first): the register blocks again, ahead of the reference kernel and the 32×32 and
        // 64-column tiles (R58).
        if self.direct_block_long_k_wins() && self.supports(ConvKernel::DirectBlock) {
            return ConvKernel::DirectBlock;
        }
        let tiles_n64: u64 = self.gemm_grid((64, 64)).iter().product();
        if !gemm_worthwhile {
            // 2–4 output channels per group with long K on large grids (image and latent output
            // layers): 8 threads per run of 4 pixels, K split between them, every channel of a
            // pixel at once (R43).
            if self.few_oc_wins() && self.supports(ConvKernel::FewOc) {
                return ConvKernel::FewOc;
            }
            // Few output channels with long K (a diffusion UNet's 320→4 output layer at batch 1):
            // the small-grid tiles' 4-way K split beats one thread per output's serial K, on
            // grids of under two waves of 64×64 tiles (R27; at batch 8, 512 tiles, it lost).
            let few_channels_long_k = self.gemm_k_depth() >= 256 && tiles_n64 < 2 * FITTED_SMS;
            if few_channels_long_k && self.supports(ConvKernel::GemmSmallK32) {
                return ConvKernel::GemmSmallK32;
            }
            return self.reference_kernel();
        }
        // 3×3 stride-1 layers of 48+ channels in and 64+ out on wide grids of 4×4 tiles:
        // Winograd F(4×4, 3×3), 1.78× fewer multiply-adds than F(2×2, 3×3) (R61).
        if winograd_tiles == WinogradTiles::Any && self.winograd_4x4_wins() && self.supports(ConvKernel::Winograd4x4) {
            // Where its 8×8 windows do 1.17× less work than F(4×4, 3×3)'s, at 192+ channels in
            // and 96+ out: F(6×6, 3×3) (R67).
            if self.winograd_6x6_wins() && self.supports(ConvKernel::Winograd6x6) {
                return ConvKernel::Winograd6x6;
            }
            return ConvKernel::Winograd4x4;
        }
        // 5×5 stride-1 layers of 32+ channels in and out on 49+ columns of 4×4 tiles: Winograd
        // F(4×4, 5×5), 6.25× fewer multiply-adds (R68; since v62 in place of R63's F(2×2, 5×5)).
        if winograd_tiles == WinogradTiles::Any
            && self.winograd_5x5_tile4_wins()
            && self.supports(ConvKernel::Winograd5x5Tile4)
        {
            return ConvKernel::Winograd5x5Tile4;
        }
        // Large 3×3 stride-1 layers of 64+ channels: Winograd F(2×2, 3×3), whose products are
        // 2.25× fewer multiply-adds, on grids that keep its products' GEMM wide enough (R31).
        if self.winograd_wins() && self.supports(ConvKernel::Winograd) {
            return ConvKernel::Winograd;
        }
        // Those of 64 channels in and out: the 64×64 tiles 16 deep (R59).
        if self.winograd_leaves_to_tiles() && self.supports(ConvKernel::GemmN64K16) {
            return ConvKernel::GemmN64K16;
        }
        // 2D pointwise layers of short K on grids they fill: streamed as vec4s of 4 pixels, all
        // the output channels of a thread's block at once, the loads of 8 input channels in
        // flight a thread, ahead of R27's split K and the staged tiles (R46).
        if self.pointwise_vec4_fills_grid() && self.supports(ConvKernel::PointwiseVec4) {
            return ConvKernel::PointwiseVec4;
        }
        // Filters of short K (stems, 3×3 layers of up to 16 input channels) into at most 32
        // output channels on large grids: register blocks of 4 columns × 16 channels with the
        // taps unrolled, no K-tiles, ahead of R27's and R39's 32×32 tiles and R32 (R47).
        if self.direct_block_wins() && self.supports(ConvKernel::DirectBlock) {
            return ConvKernel::DirectBlock;
        }
        // Batch-1 grids of a few hundred to a few thousand pixels: 32×32 tiles whose threads
        // split K four ways, so more multiprocessors work and each runs a quarter of K, with the
        // operands staged in 32-deep K-tiles. The staged 64-row tiles keep layers of over 400 M
        // multiply-adds, long K on grids of half a wave or more, and large grids unless their
        // channels are few and K short (R27). Pointwise layers of at most 32 input channels on
        // planes of 56² or more among them stream vec4s of pixels with K split four ways
        // instead: their K of 16–32 would fill half or all of one 32-deep K-tile (R38).
        if self.gemm_small_k32_wins(tiles_n64) {
            if self.pointwise_split_wins() && self.supports(ConvKernel::PointwiseVec4Split) {
                return ConvKernel::PointwiseVec4Split;
            }
            if self.supports(ConvKernel::GemmSmallK32) {
                return ConvKernel::GemmSmallK32;
            }
        }
        // 2D pointwise layers with few channels on the grids R27 leaves to the staged tiles (in
        // the zoos, all at batch 16–32): streamed as vec4s of 4 pixels, all the output channels
        // of a thread's block at once, where the 64-row tiles would be partly empty (R37).
        if self.pointwise_vec4_wins() && self.supports(ConvKernel::PointwiseVec4) {
            return ConvKernel::PointwiseVec4;
        }
        // Transposed layers of up to 4 output channels per group (RGB outputs) that R27 leaves to
        // the staged tiles, whose 64 rows would hold 3 channels: 8 threads per pixel compute all
        // of its channels, K split between them (R30).
        if self.transposed && ocg <= 4 && self.few_oc_splits_k() && self.supports(ConvKernel::TransposedFewOc) {
            return ConvKernel::TransposedFewOc;
        }
        // Few output channels with short K where the staged tiles would run (stems and 1×1
        // layers of 16–32 channels on large grids): four channels of four columns per thread,
        // whose 64-row tiles would be mostly empty (R32).
        if self.grouped_oc4_wins() && self.supports(ConvKernel::GroupedOc4) {
            return ConvKernel::GroupedOc4;
        }
        // At most 32 output channels per group on the grids R27 leaves to the staged tiles
        // (RegNetY's grouped 3×3 layers, YOLOv8n's narrow 3×3 and the 1×1 projections to 24
        // channels, at batch 16–32): the small-grid kernel's 32-row tiles, full where the 64-row
        // ones would be half empty or more (R39).
        if self.narrow_tiles_win() && self.supports(ConvKernel::GemmSmallK32) {
            return ConvKernel::GemmSmallK32;
        }
        self.staged_gemm_kernel()
    }

    /// Rule R39: whether `GemmSmallK32`'s 32×32 tiles beat the staged 64-row tiles on a direct
    /// 2D layer R27 leaves to them: at most 32 output channels per group, K in
    /// [`NARROW_TILES_K`]. Fitted on the 12 such layers of the suites, all in the throughput
    /// zoo (v33 call B, each kernel forced against the planner): 1.09–1.40× faster on all 12
    /// (RegNetY-1.6GF's grouped 3×3 of 24 channels per group at 14², batch 32: 0.095 → 0.069
    /// ms; YOLOv8n's 32→32 3×3 at 80², batch 16: 0.139 → 0.099); and on 13 synthetic layers of
    /// 16–32 channels per group with K from 288 to 4608 (v33 call C): 1.18–1.73× on each (two
    /// others, which R27 already gives it, unchanged). 40 and 48 channels per group (MobileNetV3's
    /// 1×1 layers, RegNetY's, at batch 32) ran slower on it. 1D layers were not measured.
    pub(crate) fn narrow_tiles_win(&self) -> bool {
        let ocg = self.oc / self.groups;
        !self.transposed && !self.one_d && ocg <= 32 && NARROW_TILES_K.contains(&self.gemm_k_depth())
    }

    /// Whether a GEMM tile is worth it: not for few channels per group (under 16 output
    /// channels, or K under 8), where a tile is mostly empty and the direct kernels win, except
    /// for transposed convolutions (whose reference kernel gathers).
    pub(crate) fn gemm_worthwhile(&self) -> bool {
        let (icg, ocg) = (self.ic / self.groups, self.oc / self.groups);
        self.transposed || (ocg >= 16 && icg * self.kh * self.kw >= 8)
    }

    /// Whether `kernel` is one a planner rule runs on this layer in place of a GEMM kernel:
    /// R30's `TransposedFewOc`, R31's `Winograd`, R61's `Winograd4x4`, R67's `Winograd6x6`, R68's
    /// `Winograd5x5Tile4` (and `Winograd5x5`, forced), R32's `GroupedOc4` (where it takes a layer the tiles would run), R37's
    /// and R46's `PointwiseVec4`, R38's `PointwiseVec4Split`, R43's `FewOc`, R47's and R57's
    /// `DirectBlock` and R60's `DirectTiled`.
    pub(crate) fn rule_instead_of_gemm(&self, kernel: ConvKernel) -> bool {
        matches!(
            kernel,
            ConvKernel::TransposedFewOc
                | ConvKernel::FewOc
                | ConvKernel::DirectBlock
                | ConvKernel::DirectTiled
                | ConvKernel::Winograd
                | ConvKernel::Winograd4x4
                | ConvKernel::Winograd5x5
                | ConvKernel::Winograd5x5Tile4
                | ConvKernel::Winograd6x6
                | ConvKernel::PointwiseVec4
                | ConvKernel::PointwiseVec4Split
        ) || (kernel == ConvKernel::GroupedOc4 && self.grouped_oc4_wins())
    }

    /// Whether the tensor-core kernels take this convolution where f16 multiplicands are allowed:
    /// where the fp32 planner runs a GEMM kernel for the layer's GEMM shape. Not the few-channel
    /// layers a small-grid kernel takes for its K split (R27), whose 64-row tensor-core tiles
    /// would be nearly empty (not measured). Transposed convolutions only on grids of at least
    /// [`COOP_TRANSPOSED_MIN_WORKGROUPS`] `CoopF16` workgroups (all stride phases) (R29): on the
    /// H200 each of the 8 measured transposed layers with such grids ran 1.37–2.85× faster than
    /// on the fp32 GEMM kernels, while 18 of the 20 with smaller grids ran 0.26–0.93× as fast
    /// (there the K loop of a few workgroups, whose weight gathers are strided, dominates).
    /// R30's few-output-channel transposed layers count as GEMM-shaped here: `coop_f16` ran all
    /// three measured ones 1.03–1.25× faster than `transposed_few_oc` (v28). So do the layers
    /// R31 gives `Winograd` (where the planner asks, R40 has kept those of 256+ input channels
    /// on Winograd already, and R42 has given `WinogradCoop` those of 128+ channels in and out
    /// on larger grids; with fewer, `coop_f16` won on most measured, v34, v36; `runs_coop_nhwc`
    /// asks for channels-last inputs before any rule, and leaves R40's layers to it: R41), R32 `GroupedOc4`, R37's and R46's
    /// `PointwiseVec4`, R38 `PointwiseVec4Split`, R47's and R57's `DirectBlock` and R60's `DirectTiled` (fp32 rules; the tensor
    /// cores took those layers before, and were not measured against them).
    pub(crate) fn tensor_core_candidate(&self) -> bool {
        let big_enough = || self.coop_grid().iter().product::<u64>() >= COOP_TRANSPOSED_MIN_WORKGROUPS;
        let planned = self.planned_kernel();
        // R57's 2D stems ran the depthwise kernels, never the tensor cores, before v54; they keep
        // `DirectBlock` (not measured against the tensor cores).
        let stem_2d = !self.one_row() && self.direct_block_stem_wins();
        (planned.is_gemm_shaped() || self.rule_instead_of_gemm(planned))
            && self.gemm_worthwhile()
            && (!self.transposed || big_enough())
            && !stem_2d
    }

    /// Rule R48: whether a 2D pointwise layer the fp32 planner gives `PointwiseVec4` (R37, R46)
    /// keeps it where f16 multiplicands are allowed, on NCHW tensors, instead of going to
    /// `CoopF16`: at most [`POINTWISE_F16_MAX_IC`] input or [`POINTWISE_F16_MAX_OC`] output
    /// channels. Fitted on the 65 pointwise layers R46 was fitted on (v45 call F, an H100; each
    /// planned and with `pointwise_vec4` forced): of the 61 `CoopF16` ran, the 30 with ≤ 32
    /// input or ≤ 24 output channels ran 1.06–2.75× faster on the stream on f16 tensors (1.45× in
    /// geomean; MobileNetV3-L's 16→16 at 112², batch 32: 0.0346 → 0.0126 ms) and 0.86–2.13×
    /// (1.39×) on f32 ones with f16 allowed; the other 31 (48+ channels in and 40+ out) lost,
    /// 0.54–1.24× (0.82×). Channels-last tensors keep `CoopNhwc`, which reads them as they are
    /// (not measured against the stream).
    pub(crate) fn pointwise_stream_keeps_f16_layer(&self) -> bool {
        self.planned_kernel() == ConvKernel::PointwiseVec4
            && (self.ic <= POINTWISE_F16_MAX_IC || self.oc <= POINTWISE_F16_MAX_OC)
    }

    /// Rule R49: whether a transposed layer of at most 4 output channels the fp32 planner gives
    /// `TransposedFewOc` keeps it where f16 multiplicands are allowed, instead of going to
    /// `CoopF16` (R30 counted those layers as GEMM-shaped): where it runs in stride-phase blocks
    /// (`conv_transpose2d_few_oc_phases`: stride 2 × 2, filters up to 4 × 4, one group, 16+
    /// input channels). Fitted on the 12 such layers of `v46-transposed-few-oc-suite.json` (v46
    /// call I, an H100): 2.21–6.10× faster than `CoopF16` on f16 tensors and 2.18–4.55× on f32
    /// tensors with f16 allowed. Channels-last tensors ask for `CoopNhwc` before this rule
    /// (not measured against the blocks).
    pub(crate) fn few_oc_phases_keep_f16_layer(&self) -> bool {
        self.planned_kernel() == ConvKernel::TransposedFewOc
            && self.few_oc_splits_k()
            && self.few_oc_gathers_phase_blocks()
    }

    /// Rule R40: whether a layer R31 gives `Winograd` keeps it where f16 multiplicands are
    /// allowed and the tensor cores run (as `WinogradCoop`, or `Winograd` where that cannot run),
    /// rather than going to `CoopF16` (`tensor_core_candidate`): at 256+ input channels. Fitted
    /// on the 69 layers of the suites R31 takes (v34 call B, H200): on each of the 57 with 256
    /// input channels or more `WinogradCoop` ran 1.21–9.6× faster than `CoopF16` (3.4× in
    /// geomean) and 1.06–3.2× faster than `Winograd`, which itself beat `CoopF16` on each of them
    /// (1.13–3.5×); on the 12 with 64–128 it lost to `CoopF16` on 10 (0.66–0.95×: YOLOv8n's
    /// 64/80-channel heads at batch 16, ResNet-50's 64-channel 3×3 at batch 32), whose
    /// intermediates are as large for far fewer multiply-adds.
    /// R31's layers as fitted: since v57 R61 takes some of them (and others) in fp32, and R40
    /// was not measured on those it adds.
    pub(crate) fn winograd_keeps_tensor_core_layer(&self) -> bool {
        self.ic >= WINOGRAD_TENSOR_CORES_MIN_IC && self.planned_kernel_without_4x4() == ConvKernel::Winograd
    }

    /// Rule R42: whether `WinogradCoop` takes a Winograd-shaped layer where f16 multiplicands
    /// are allowed, R31's or not (after R40, which keeps R31's of 256+ input channels on it): 256+
    /// input channels and 64+ output channels over 16+ columns of tiles (the fewest channels
    /// and columns measured), or 128+ in and out over 128+ columns. Fitted on the 90 distinct
    /// 3×3 stride-1 layers of 32+ channels of the zoos and the diffusion, default and large
    /// suites on NCHW tensors (v36 call C, H200), after v36's block transforms: against
    /// `CoopF16`, which ran the others, it won on each of the 7 of 256+ input channels R31
    /// leaves out (1.23–3.3×: the diffusion UNet's 8² and 16² layers at batch 1, ResNet-50's
    /// 7² and 14² ones, YOLOv8n's 20² heads) and on the 5 of 128 channels in and out over 128+
    /// columns (1.10–1.65×: the VAE decoder's 128-channel 3×3 at 512², 1.4×, ResNet-50's at
    /// 28²); it lost on 128 → 128 at 20² (100 columns, 0.92×), where fewer output channels were
    /// mixed (0.74–1.22×), and on most of 64–80 input channels (0.52–1.26×, the wins on layers of
    /// about 0.02 ms). On channels-last tensors `CoopNhwc` takes these layers first (R41 keeps
    /// only R40's from it): there it beat `WinogradCoop` on the UNet's 8² layers (0.54–0.88×).
    pub(crate) fn winograd_coop_wins(&self) -> bool {
        let columns = u64::from(self.n) * self.winograd_tiles();
        self.winograd_shape() && self.winograd_coop_min_columns().is_some_and(|fewest| columns >= fewest)
    }

    /// Rule R44: whether `WinogradFused` takes a layer where f16 multiplicands are allowed:
    /// Winograd's shape with [`WINOGRAD_FUSED_CHANNELS`] channels in and out, on a workgroup
    /// shape fitted to the grid and the output channels (`ConvGeometry::winograd_fused_shape`).
    /// (On channels-last tensors `runs_coop_nhwc` gives these layers to `CoopNhwc` first
    /// wherever it runs them, but for R45's small grids.)
    /// Fitted on an H200 against the kernel planned before (`CoopF16`, or `WinogradCoop` for
    /// R42's 128 → 128 layers), on the 69 layers of the suites R31 takes (v38 call A), 28 other
    /// 3×3 layers of 32–256 channels (the zoos' and 8 probes; call C) and the 50 distinct 3×3
    /// layers of 32–256 channels of the zoos and probes (`bench/suites/fused-shapes.json`, v39):
    /// - v38, one shape (32 tiles × 64 channels): it won on each of the 23 measured with 32–80
    ///   input channels, on grids of any size (1.02–1.96×: YOLOv8n's heads and blocks,
    ///   ResNet-50's 64-channel 3×3 at batch 1 1.30× and at batch 32 1.64×), and with 96–128
    ///   input channels on each of the 9 on 96+ workgroups (1.03–2.15×: the SD VAE decoder's
    ///   128-channel 3×3 at 512² 1.10×), but lost on each of the 5 on fewer (0.53–0.80×): its
    ///   16-channel steps are latency-bound;
    /// - v39: with 16 tiles a workgroup on those small grids, it won on each of the 5 small-grid
    ///   layers of 128 input channels measured (1.03–1.20×, call B), so R44 no longer asks for a
    ///   grid;
    /// - with more output channels each workgroup transforms the same input again, and it lost
    ///   to `WinogradCoop` on all 57 layers of 256+ channels in or out (0.27–0.91×, v38 calls A
    ///   and E; 128 channels a workgroup on 16 tiles did not help, v39).
    pub(crate) fn winograd_fused_wins(&self) -> bool {
        self.winograd_fused_channels() && self.winograd_fused_runs()
    }

    /// Rule R45: whether R44's layer goes to `WinogradFused` on channels-last f32 tensors too,
    /// where `CoopNhwc` would take it first (`runs_coop_nhwc`): up to
    /// [`WINOGRAD_FUSED_SHORT_IC`] input channels on up to
    /// [`WINOGRAD_FUSED_CHANNELS_LAST_MAX_TILE_GROUPS`] groups of 32 tiles. Fitted on the 50
    /// layers of `bench/suites/fused-shapes.json` (v39 call E, H200): it beat `CoopNhwc` on each
    /// of the 14 such (1.30–1.98×: YOLOv8n's heads and blocks at batch 1 and the 20² ones at
    /// batch 16, ResNet-50's 64-channel 3×3 at batch 1), and was within 0.89–1.10× on larger
    /// grids and 0.75–1.28× with 96–128 input channels.
    pub(crate) fn winograd_fused_wins_channels_last(&self) -> bool {
        self.winograd_fused_wins()
            && self.ic <= WINOGRAD_FUSED_SHORT_IC
            && self.winograd_fused_tile_groups() <= WINOGRAD_FUSED_CHANNELS_LAST_MAX_TILE_GROUPS
    }

    /// R44's filter and channel counts, whatever the grid: Winograd's shape with
    /// [`WINOGRAD_FUSED_CHANNELS`] channels in and out. `Conv2d::new` keeps a transformed weight
    /// by them.
    pub(crate) fn winograd_fused_channels(&self) -> bool {
        self.winograd_shape()
            && WINOGRAD_FUSED_CHANNELS.contains(&self.ic)
            && WINOGRAD_FUSED_CHANNELS.contains(&self.oc)
    }

    /// R42's channel counts: the fewest columns of tiles at which it gives a layer of these
    /// channels to `WinogradCoop` (16 for 256+ input and 64+ output channels, 128 for 128+ in and
    /// out), or none for fewer channels. `Conv2d::new` keeps a transformed weight by them.
    pub(crate) fn winograd_coop_min_columns(&self) -> Option<u64> {
        let mid = WINOGRAD_COOP_MIN_CHANNELS;
        if self.ic >= WINOGRAD_TENSOR_CORES_MIN_IC && self.oc >= 64 {
            Some(16)
        } else if self.ic >= mid && self.oc >= mid {
            Some(128)
        } else {
            None
        }
    }

    /// The staged-tile GEMM kernel the rules R50–R54 and R11–R15 choose for a GEMM-shaped
    /// convolution (the reference kernel where it cannot run): what runs where R46, R47, R27 and
    /// the rules after it (R30, R32, R37, R39) do not take the layer, or where a tile width or K
    /// schedule is forced without a kernel.
    pub(crate) fn staged_gemm_kernel(&self) -> ConvKernel {
        // 1×1 filters without padding first (R50, v48: it replaced R12's 64×128 tiles 32 deep
        // for pointwise layers), then the shapes R51–R54 (v49) refitted on v48's tiles. Fitted
        // to `wgconv bench --tune`: large grids with long K take 128×128 tiles 16 deep (R11);
        // patchify layers (stride = kernel, no padding, 128+ input channels per group) on grids
        // small enough to split the 8-deep tiles in K-slices (R13); K of 1024+ on a grid under
        // one wave even in 64×64 tiles take 64×128 tiles 16 deep in K-slices (R14); everything
        // else 64×64 tiles of 128 threads, whose grids spread more evenly over the
        // multiprocessors, 32 deep on grids of under 512 tiles (384 from K 896, v54) and 16 deep
        // on larger ones (R15).
        // Refitted in v30 (docs/PERFORMANCE.md), after the per-op cost fell: 1D layers with
        // filter taps, over 64 output channels per group and K ≥ 64 take the 128×128 tiles 16
        // deep where their grid fills the GPU or K is 512+ (R33).
        // (R34, 16-deep tiles for pointwise K that a 32-deep K-tile would pad, is part of R50.)
        let ocg = self.oc / self.groups;
        let icg = self.ic / self.groups;
        let tile8 = if ocg <= 64 { ConvKernel::GemmM64 } else { ConvKernel::Gemm };
        let workgroups: u64 = self.gemm_grid(tile8.gemm_tile().expect("a GEMM kernel")).iter().product();
        let k = self.gemm_k_depth();
        let large = !self.transposed && workgroups >= 384 && k >= 512;
        let unpadded = !self.transposed && self.padding == [0, 0];
        let pointwise = unpadded && self.kh * self.kw == 1 && self.stride == [1, 1];
        let patchify = unpadded && self.kh * self.kw > 1 && self.stride == [self.kh, self.kw] && icg >= 128;
        let tiles_n64: u64 = self.gemm_grid((64, 64)).iter().product();
        let long_k_small_grid = k >= 1024 && tiles_n64 < FITTED_SMS;
        // R33: the 8×8 register blocks of the 128×128 tiles (twice the multiply-adds per loaded
        // element of the 64-row tiles) on 1D layers (wav2vec 2.0, Whisper; also written as 2D
        // convolutions of height 1, as R24 reads them) with 128-row tiles at least half full,
        // unless the grid is under one workgroup per multiprocessor and K under 512 (Whisper's
        // 80→512 stem at batch 1, where they lost). Only filters with taps were measured:
        // pointwise layers take R50 and long K on small grids R14.
        let wide_1d = self.ih == 1
            && self.kh == 1
            && !self.transposed
            && !pointwise
            && !long_k_small_grid
            && tile8 == ConvKernel::Gemm
            && k >= 64
            && (workgroups >= FITTED_SMS || k >= 512);
        // R35: transposed layers with long K on at most 32 64×64 tiles (all stride phases): the
        // 64×64 tiles 32 deep, in the K-slices that fill a wave (8 at 32 tiles), ran 1.64–1.67×
        // R14's 64×128 tiles on both such layers of the zoos (pix2pix's 1024→512 at 8² and at
        // 2², batch 16) and tied on the three with 64–128 tiles (v31).
        let few_tile_transposed = self.transposed && long_k_small_grid && tiles_n64 <= 32;
        // R36: 2D layers with taps (not patchify-shaped: stride = filter, no padding), over 64
        // output channels per group, K ≥ 1024, and under one workgroup per multiprocessor in
        // 128×128 tiles: those tiles 16 deep, in K-slices where the grid is short. Fitted on
        // the 27 2D layers of the zoos and the default suite the R33 conditions take: on the 9
        // with these (all stride-2 downsamplers) 8 ran 1.07–1.70× faster (DaViT's 512→1024 at
        // 48²: 0.354 → 0.215 ms) and one 0.83× (ResNet-50's layer3 3×3 at batch 32); the other 18
        // (shorter K or larger grids) went 6 faster and 11 slower, no rule (v31).
        let patchify_shaped = unpadded && self.stride == [self.kh, self.kw];
        let deep_small_grid_2d = !self.transposed
            && self.kh * self.kw > 1
            && !pointwise
            && !patchify_shaped
            && !long_k_small_grid
            && tile8 == ConvKernel::Gemm
            && k >= 1024
            && workgroups < FITTED_SMS;
        let gemm = if let Some(one_tap) = self.one_tap_tiles() {
            one_tap
        } else if let Some(taps) = self.tap_tiles(long_k_small_grid, few_tile_transposed) {
            taps
        } else {
            match (large, tile8) {
                (true, ConvKernel::GemmM64) => ConvKernel::GemmM64K16,
                (true, _) => ConvKernel::GemmK16,
                _ if patchify && self.gemm_split_k(tile8, self.planned_tile_n(tile8)) > 1 => tile8,
                _ if wide_1d || deep_small_grid_2d => ConvKernel::GemmK16,
                _ if few_tile_transposed => ConvKernel::GemmN64K32,
                _ if long_k_small_grid => ConvKernel::GemmM64K16,
                _ if tiles_n64 < self.k32_max_tiles() => ConvKernel::GemmN64K32,
                _ => ConvKernel::GemmN64K16,
            }
        };
        if self.supports(gemm) { gemm } else { self.reference_kernel() }
    }

    /// Rule R15's bound: the most 64×64 tiles on which a layer the other staged-tile rules leave
    /// takes them 32 deep (`GemmN64K32`) rather than 16 deep. 512 (v30); from K
    /// [`K32_SHORT_GRID_MIN_K`] on, [`K32_SHORT_GRID_MAX_TILES`] (v54, an H100, call C: the 16-deep
    /// tiles ran 1.20–1.34× faster on all 10 such layers of Inception-v3 b32, 1×7 and 7×1
    /// filters of K 896–1344 on 435 tiles). Shorter K keeps 512: there the 16-deep tiles won at
    /// 400–507 tiles (YOLOv8n b16's 64→64 3×3 at 40², 1.09–1.11×; SqueezeNet's 48→192 3×3 at
    /// 13², 1.32×) but lost at 392 (the default suite's `resnet50_3x3_64_n8`, 0.91×) and tied at
    /// 290 (Inception's 96→96 s2, 0.97×, call B).
    fn k32_max_tiles(&self) -> u64 {
        if self.gemm_k_depth() >= K32_SHORT_GRID_MIN_K { K32_SHORT_GRID_MAX_TILES } else { 512 }
    }

    /// Rule R50: the staged tiles for a direct 1×1 filter without padding: 128×128 tiles 16
    /// deep (`GemmK16`) where over 64 output channels per group fill their last 128-row tile to
    /// within 15 % and their grid is at most one wave of two workgroups per multiprocessor or
    /// keeps at least three quarters of the waves it spans busy; otherwise 64×128 tiles 16 deep
    /// (`GemmM64K16`). Either is split in K where R3/R23 split it. It takes every pointwise
    /// layer (stride 1) that R11, R12 and R34 took, and the strided 2D ones (downsampling
    /// shortcuts) with K ≥ 256 on a grid of at least one 128×128 tile per multiprocessor;
    /// `None` leaves a layer to the rules after it (strided 1D layers: none was measured).
    /// Fitted on the 66 layers of `bench/results/v48-pw-suite.json` (every 1×1 layer of the zoos
    /// and the default suite the planner gave the staged tiles), each kernel forced, on the H100
    /// with v48's one-column loaders (docs/PERFORMANCE.md, v48): over the 54 R12 had given
    /// `GemmM64K32` 1.066× in geomean (0.90–1.49×; ResNet-50's 1×1 layers at batch 32 1.07–1.39×),
    /// where `GemmM64K16` everywhere would give 1.035× and `GemmK16` 1.008× (0.65× on 64 output
    /// channels); ResNet-50's strided shortcuts 1.14–1.33×. Short-K strided layers (RegNetY's
    /// K of 32–336 on grids under one tile per multiprocessor) lost with it (0.76–0.96×).
    pub(crate) fn one_tap_tiles(&self) -> Option<ConvKernel> {
        let ocg = u64::from(self.oc / self.groups);
        let unpadded_one_tap = !self.transposed && self.padding == [0, 0] && self.kh * self.kw == 1;
        let tiles_128: u64 = self.gemm_grid((128, 128)).iter().product();
        let strided = self.stride != [1, 1];
        let measured_strided = !self.one_d && self.gemm_k_depth() >= 256 && tiles_128 >= FITTED_SMS;
        if !unpadded_one_tap || (strided && !measured_strided) {
            return None;
        }
        // Waves of two 256-thread workgroups per multiprocessor (128 registers each); the grid
        // keeps its waves busy where tiles / (waves spanned · wave) ≥ 3/4.
        let wave = 2 * FITTED_SMS;
        let waves_busy = tiles_128 <= wave || tiles_128 * 4 >= tiles_128.div_ceil(wave) * wave * 3;
        let rows_full = fills_128_rows(ocg);
        Some(if ocg > 64 && rows_full && waves_busy { ConvKernel::GemmK16 } else { ConvKernel::GemmM64K16 })
    }

    /// Rules R51–R54: the staged tiles for filters with taps where another of v48's tiles
    /// measured faster than the rules after them (R13–R15); `None` leaves a layer to those.
    /// `long_k_small_grid` is R14's condition (K ≥ 1024 on under 132 64×64 tiles) and
    /// `few_tile_transposed` R35's, as the caller computes them. Fitted on the 83 layers of `bench/results/v49-taps-suite.json`
    /// (every layer with taps the zoos and the default suite give the staged 64/128-row tiles,
    /// and wav2vec 2.0's stems), five kernels forced each, on the H200 (docs/PERFORMANCE.md,
    /// v49): the 20 layers they move ran 1.03–1.43× faster, 1.039× over the 83 in geomean (the
    /// best kernel per layer 1.057×). R53 and R54 held on several models; R51 (wav2vec 2.0's
    /// stem at two batches) and R52 (three SD 1.5 layers) on one each, kept for gains of
    /// 1.36–1.43× with a cause in the tile shapes. Each takes only the shapes it was measured on
    /// (filters with taps), except R53 between K 256 and 1024: fitted on K ≥ 1024 in v49, it was
    /// widened on v50 call B's held-out layers (an H100), where only 2×2 s2 ups of one U-Net lie
    /// in that range (1.12–1.19×); other transposed filters there follow unmeasured. On those
    /// held-out layers (22, of models in no zoo) the v49 rules ran an estimated 1.055× v48, and
    /// 1.109× over those and the 20 fit layers they move (`bench/plan_gain.py`).
    pub(crate) fn tap_tiles(&self, long_k_small_grid: bool, few_tile_transposed: bool) -> Option<ConvKernel> {
        let ocg = u64::from(self.oc / self.groups);
        let k = self.gemm_k_depth();
        let [columns, ..] = self.gemm_grid((1, 1));
        let has_taps = self.kh * self.kw > 1;
        let one_d = self.one_row();
        // R51: 1D layers with taps and K ≤ 16, i.e. stems of one or a few input channels
        // (fitted on wav2vec 2.0's 1→512 k10 s5 over raw audio, which R57's register blocks
        // take since v53; it keeps K 11–16 and 2+ channels, measured there in v53): K is one
        // short K-tile, so the output stores are the work, and 64×128 tiles store runs of 128
        // columns where R15's 64×64 ones stored 64.
        if one_d && !self.transposed && has_taps && k <= 16 && ocg > 64 {
            return Some(ConvKernel::GemmM64K16);
        }
        // R52: R14's long K on at most 64 columns (a batch-1 UNet's 8×8 level): 64×64 tiles,
        // where R14's 64×128 ones leave half their columns empty.
        if long_k_small_grid && !self.transposed && columns <= 64 && ocg > 64 {
            return Some(ConvKernel::GemmN64K16);
        }
        // R53: 2D transposed layers of K ≥ 256 whose output channels fill 128-row tiles, over
        // more than 64 columns a stride phase, and not R35's few tiles. (Fitted on K ≥ 1024 in
        // v49; v50 call B's held-out U-Net ups of K 256 and 512 ran 1.12–1.19× on these tiles.)
        let rows_full = fills_128_rows(ocg);
        if self.transposed && !one_d && has_taps && k >= 256 && rows_full && columns > 64 && !few_tile_transposed {
            return Some(ConvKernel::GemmK16);
        }
        // R54: R14's direct layers (R13's patchify-shaped ones among them) whose output
        // channels fill 128-row tiles, where those tiles in K-slices make ¾ of a wave.
        if long_k_small_grid && !self.transposed && rows_full {
            let tiles: u64 = self.gemm_grid((128, 128)).iter().product();
            let splits = u64::from(self.gemm_split_k(ConvKernel::GemmK16, self.planned_tile_n(ConvKernel::GemmK16)));
            if tiles * splits * 4 >= 3 * 2 * FITTED_SMS {
                return Some(ConvKernel::GemmK16);
            }
        }
        None
    }

    /// R43: `FewOc` for direct convolutions of 2–4 output channels per group whose K
    /// (IC/groups × KH × KW) is 512 or more over 8192+ output pixels: an image's RGB output or
    /// a latent's 4 channels, where no GEMM tile fills and one thread per output loads every input
    /// value once per channel. Fitted on the 33 layers of `bench/suites/few-oc.json` (the zoos'
    /// direct layers of ≤ 4 output channels per group and output heads of other models; v37
    /// call C; all of stride 1, one group, 2D, 3×3 to 9×9 filters; the other shapes it takes
    /// were not measured): on the 14 it takes, 1.46–3.77× the kernel planned before (2.52× in geomean;
    /// `direct_vec4` or `gemm_small_k32`; the SD VAE decoder's 128→3 at 512² 0.81 → 0.23 ms), and
    /// 1.62–2.90× on f16 tensors. It lost on short K (K ≤ 96, 1×1 heads and ResNeXt's groups:
    /// 0.32–0.86×), to `gemm_small_k32` on the SD 1.5 UNet's 320→4 at 64² (4096 pixels: 0.55×),
    /// and on one output channel it won 3 of 6 layers of long enough K, by 1.07–1.82×, and lost
    /// 3, at 0.58–0.95×: left out. The pixel bound sits between that loss and the smallest grid
    /// measured to gain (RAFT's flow head, 7040 pixels: 1.15×, which it leaves out).
    pub(crate) fn few_oc_wins(&self) -> bool {
        let ocg = self.oc / self.groups;
        !self.transposed && (2..=4).contains(&ocg) && self.gemm_k_depth() >= 512 && self.output_pixels() >= 8192
    }

    /// Rule R32: whether `GroupedOc4` (four output channels of four columns per thread, every
    /// input channel of the group in its loop) beats the staged GEMM tiles on a direct, ungrouped
    /// 2D layer they would run: at most 16 output channels with K ≤ 144, or at most 32 with
    /// K ≤ 32, and at most 64 input channels (the range measured; no 1D layer was). Fitted on the 86 zoo, throughput-zoo
    /// and default-suite layers of ≤ 64 channels per group in and out (v29 call L): 1.28–3.11×
    /// the staged tiles on each of the 11 it takes (1.74× in geomean), among them YOLOv8n's 3→16
    /// stem at 640² (batch 1: 0.0316 → 0.0199 ms; since v45 R47 gives it `DirectBlock` first) and
    /// MobileNetV3's 16→16 1×1 at 112², batch 32 (0.148 → 0.048); it lost on every staged layer of 48+ output channels or longer K
    /// (0.47–0.96×), and on the batch-1 grids R27 gives `GemmSmallK32`, which come first.
    pub(crate) fn grouped_oc4_wins(&self) -> bool {
        let (icg, ocg) = (self.ic / self.groups, self.oc / self.groups);
        let k = self.gemm_k_depth();
        let fitted = !self.transposed && !self.one_d && self.groups == 1 && icg <= 64;
        fitted && ((ocg <= 16 && k <= 144) || (ocg <= 32 && k <= 32))
    }

    /// Rule R47: whether `DirectBlock` beats the kernels the rules after it give a direct 2D
    /// layer of one group with a filter of 2+ taps: at most [`DIRECT_BLOCK_MAX_OC`] output
    /// channels, K of at most [`DIRECT_BLOCK_MAX_K`], at least [`DIRECT_BLOCK_MIN_PIXELS`] output
    /// pixels. (The planner asks only where a GEMM tile is worth it: 16+ output channels, K ≥ 8.)
    /// Fitted on the 81 layers of the zoos and the default suite that it can run with K ≤ 1152
    /// (v44 call A, forced against the planner, the faster of two runs each; every layer of the
    /// suites in its class is among them): on the 8 it takes it ran 1.01–1.65× as fast (YOLOv8n
    /// at batch 16: 16→16 3×3 at 160² 0.184 → 0.112 ms on R32's `GroupedOc4`, 3→16 s2 at 640²
    /// 0.143 → 0.121, 16→32 s2 at 320² 0.254 → 0.232 on R39's tiles; its 3→16 stem at batch 1
    /// 0.0160 → 0.0128; the 3→16/32 stems at 224², batch 32, 1.01–1.04×). On smaller grids of
    /// the same channels it lost (0.54–0.76× on 6 layers of 12,544–25,600 pixels: those stems and
    /// YOLOv8n's 16-channel layers at batch 1), as on every layer of 64+ output channels or
    /// longer K (0.08–1.01×): each thread's serial loop over the input channels grows with K, and
    /// small grids leave multiprocessors idle.
    pub(crate) fn direct_block_wins(&self) -> bool {
        let taps = u64::from(self.kh) * u64::from(self.kw);
        !self.transposed
            && !self.one_d
            && self.groups == 1
            && taps >= 2
            && self.oc <= DIRECT_BLOCK_MAX_OC
            && self.gemm_k_depth() <= DIRECT_BLOCK_MAX_K
            && self.output_pixels() >= DIRECT_BLOCK_MIN_PIXELS
    }

    /// A 1D convolution, also when written as a 2D one of height 1 (input and filter one row
    /// high), as R24, R51 and R57 read layers; `one_d` says only that the tensors have rank 3.
    fn one_row(&self) -> bool {
        self.ih == 1 && self.kh == 1
    }

    /// Rule R57: whether `DirectBlock` beats the kernels the planner gave single-channel stems.
    /// 2D (v54): strided with at least [`DIRECT_BLOCK_2D_STRIDED_STEM_MIN_TAPS`] taps, or of at
    /// least [`DIRECT_BLOCK_2D_STEM_MIN_TAPS`], into [`DIRECT_BLOCK_1D_MIN_OC`] to
    /// [`DIRECT_BLOCK_2D_STEM_MAX_OC`] channels, more than [`GEMV_MAX_PIXELS`] output pixels, in
    /// place of the depthwise kernels, which read them as a channel multiplier. Measured on an
    /// H100 (v54 call B, each kernel forced against the planner): a grayscale ResNet's 1→64 7×7
    /// s2 at 224² b16 and 512² b1 1.59× and 1.47× (0.77× and 0.84× cuDNN fp32 before),
    /// Conformer's 1→256 3×3 s2 over 1000 × 80 mel frames b16 5.31× (0.52× before, on
    /// `depthwise_rows`), ESPCN's 1→64 5×5 at 224² b16 1.20×; 3×3 stride-1 stems lost (1→64 and
    /// 1→32 at 256², 0.93×), as did 4 and 6 output channels (SAM's mask 2×2 s2, LeNet-5:
    /// 0.67–0.80×). 1D (v53): R51's 64-row tiles (K 8–16, more than 64 channels), the 64-column
    /// and small-grid tiles (K 8–16, fewer), the depthwise kernel (K under 8, where no GEMM tile is worth it):
    /// a direct layer of one input channel, 2+ taps (K of at most [`DIRECT_BLOCK_1D_MAX_K`]), at
    /// least [`DIRECT_BLOCK_1D_MIN_OC`] output channels. (Layers of at most 4 output pixels keep
    /// R25's `Gemv`, which the planner asks first.) Measured on an H100 (v53 calls F, G and J,
    /// `bench/results/v53-stems-suite.json` and `v53-mono-suite.json`: forced against the
    /// planner, interleaved twice, the faster of each): wav2vec 2.0's 1→512 k10 s5 at 1–30 s of
    /// audio and batch 1–32 1.09–1.22× (0.98× on the one of 6,399 output pixels), 1→256 and
    /// 1→768 k10 s5 1.05–1.14×, 1→32 and 1→64 k10 s5 1.23–1.91×, 1→32 to 1→128 k7 s1 at 24 kHz
    /// 1.02–2.5× (the depthwise kernel there was at 0.48–0.60× cuDNN fp32 at batch 16); K 16
    /// lost (1→512 k16 s8 0.80–0.83×, a 2-channel k8 s4 0.91–0.93×), so those stay with R51; so
    /// did 16 output channels at batch 1 (0.72×: 4.6 against 6.4 µs; 2.36× at batch 16), which
    /// keep the depthwise kernel or the small tiles. Only single-channel layers were measured at
    /// K ≤ 10, so a 1D layer of 2+ input channels (3→64 k3) keeps its kernel.
    pub(crate) fn direct_block_stem_wins(&self) -> bool {
        let taps = u64::from(self.kh) * u64::from(self.kw);
        let shape = if self.one_row() {
            taps >= 2 && self.gemm_k_depth() <= DIRECT_BLOCK_1D_MAX_K
        } else {
            (taps >= DIRECT_BLOCK_2D_STRIDED_STEM_MIN_TAPS && self.stride != [1, 1])
                || taps >= DIRECT_BLOCK_2D_STEM_MIN_TAPS
        };
        !self.transposed
            && self.ic == 1
            && self.groups == 1
            && self.oc >= DIRECT_BLOCK_1D_MIN_OC
            && (self.one_row() || self.oc <= DIRECT_BLOCK_2D_STEM_MAX_OC)
            && self.output_pixels() > GEMV_MAX_PIXELS
            && shape
    }

    /// Rule R60: whether `DirectTiled` beats the kernels the planner gives a 3×3 stride-1 layer
    /// it runs ([`ConvGeometry::supports`]) of [`DIRECT_TILED_MIN_OC`]–[`DIRECT_TILED_MAX_OC`]
    /// output channels, at least [`DIRECT_TILED_MIN_IC`] input channels and K up to
    /// [`DIRECT_TILED_MAX_K`], on grids of at least [`DIRECT_TILED_MIN_PIXELS`] output pixels
    /// ([`DIRECT_TILED_FEW_OC_MIN_PIXELS`] under 16 output channels) and
    /// [`DIRECT_TILED_MIN_COLUMNS`] columns. Fitted on an H100 (v55 calls A and B,
    /// `bench/results/v55-tiled-suite.json`: every such layer of ≤ 256 output channels in the
    /// suites, the planner's kernels in call A and `DirectTiled` forced in call B, each against
    /// cuDNN in its call): faster than the
    /// planner's kernel on each of the 17 layers of 9–32 output channels on those grids —
    /// 1.45–1.48× over R58's register blocks on ESRGAN b4's growth layers (64–160 → 32 at
    /// 128²), 1.32–1.47× over the 32×32 tiles on ESRGAN b1's, 1.50× and 1.80× on YOLOv8n's 16→16
    /// at 160² (batch 16 and 1), 1.40× on ESPCN's 64→32 and 1.16× on its 32→9 at 224², 1.30× on
    /// Inception-v3's 32→32 at 149², 1.31× and 1.16× on DenseNet-121 b32's 128→32 at 56² and
    /// 28², 1.23× on EfficientNetV2-S's 24→24 at 192², 1.45× on YOLOv8n b16's 32→32 at 80².
    /// It lost on smaller grids (0.35–0.71×) and to R43 on 2–4 output channels; at 64+ output
    /// channels it lost on most layers (see [`DIRECT_TILED_MAX_OC`]).
    pub(crate) fn direct_tiled_wins(&self) -> bool {
        // Under 16 output channels (no GEMM tile worth it), only large grids were measured.
        let min_pixels = if self.gemm_worthwhile() { DIRECT_TILED_MIN_PIXELS } else { DIRECT_TILED_FEW_OC_MIN_PIXELS };
        self.supports(ConvKernel::DirectTiled)
            && (DIRECT_TILED_MIN_OC..=DIRECT_TILED_MAX_OC).contains(&self.oc)
            && self.ic >= DIRECT_TILED_MIN_IC
            && self.gemm_k_depth() <= DIRECT_TILED_MAX_K
            && self.ow >= DIRECT_TILED_MIN_COLUMNS
            && self.output_pixels() >= min_pixels
    }

    /// A pointwise layer: a direct 1×1 convolution at stride 1, unpadded, of one group (any
    /// dilation: a 1×1 filter's does nothing), the streams' shape.
    fn pointwise_shape(&self) -> bool {
        !self.transposed
            && self.kh * self.kw == 1
            && self.stride == [1, 1]
            && self.padding == [0, 0]
            && self.groups == 1
    }

    /// Whether an output plane (OH · OW) is whole vec4s, as the pointwise streams read it.
    fn planes_of_whole_vec4s(&self) -> bool {
        (u64::from(self.oh) * u64::from(self.ow)).is_multiple_of(4)
    }

    /// Rule R64: the pointwise stream for a 2D pointwise layer (1×1, stride 1, no padding, one
    /// group, planes of whole vec4s) of under 16 output channels, where no GEMM tile is worth it
    /// and the planner ran the reference kernel (or R58's register blocks, or R27's small tiles
    /// on long K): `PointwiseVec4` on at least [`POINTWISE_FEW_OC_MAIN_MIN_WORKGROUPS`]
    /// workgroups, else `PointwiseVec4Split` for K of at least [`POINTWISE_FEW_OC_MIN_K`] on at
    /// least [`POINTWISE_FEW_OC_MIN_PIXELS`] output pixels. Both read each input element once
    /// for all the output channels; the reference kernel reads it once per channel. Fitted on
    /// the 47 2D pointwise layers of 1–32 output channels of the suites and 8 probes (v60 call
    /// A, an H100, each kernel forced against the planner; K up to [`POINTWISE_FEW_OC_MAX_K`],
    /// which leaves R43's `FewOc` layers, of K ≥ 512, to R43, after it): Mask R-CNN's 256→3 and
    /// 256→12 heads at 200 × 272 and 100 × 136, batch 2, 1.78–2.68× faster (0.63–1.16× →
    /// 1.35–2.46× cuDNN fp32 in the same call), a 128→8 probe at 128², batch 4, 2.90×, a 96→12
    /// one at 160², batch 8, 3.21×, a U-Net's 64→2 output 1.11×, YOLOv8n b16's 16→1 DFL 1.38×.
    /// Smaller grids lost (see the constants); 1D layers were not measured.
    pub(crate) fn pointwise_few_oc_stream(&self) -> Option<ConvKernel> {
        let measured_k = self.ic <= POINTWISE_FEW_OC_MAX_K;
        if self.one_d || self.oc >= 16 || !measured_k || !self.supports(ConvKernel::PointwiseVec4) {
            return None;
        }
        if self.pointwise_workgroups(POINTWISE_WORKGROUP) >= POINTWISE_FEW_OC_MAIN_MIN_WORKGROUPS {
            return Some(ConvKernel::PointwiseVec4);
        }
        let long_k = self.ic >= POINTWISE_FEW_OC_MIN_K && self.output_pixels() >= POINTWISE_FEW_OC_MIN_PIXELS;
        long_k.then_some(ConvKernel::PointwiseVec4Split)
    }

    /// Rule R65: whether `DirectBlock` takes a 1×1 layer (stride 1, no padding, one group, 2D) of
    /// K [`DIRECT_BLOCK_POINTWISE_MIN_K`]–[`DIRECT_BLOCK_MAX_K`] into 8–32 output channels on at
    /// least [`DIRECT_BLOCK_LONG_K_MIN_PIXELS`] output pixels, where the pointwise stream cannot
    /// run (planes not of whole vec4s). Measured on an H100 (v54 call B, v60 call A): SqueezeNet
    /// b64's 64→16 and 128→16 squeezes at 55², 1.69× and 1.21× the planner's `GroupedOc4` and
    /// `GemmSmallK32` (0.69× → 1.17× and 0.80× → 0.97× cuDNN fp32), and a 64→16 probe at 56²,
    /// batch 64, 1.45× `GemmSmallK32` (that one streams: R46); its 128→32 and 256→32 at 27²
    /// (46,656 pixels) lost (0.36–0.62×).
    pub(crate) fn direct_block_pointwise_wins(&self) -> bool {
        // Undilated as measured (a 1×1 filter's dilation changes nothing, but none was timed).
        self.pointwise_shape()
            && self.dilation == [1, 1]
            && !self.one_d
            && !self.planes_of_whole_vec4s()
            && (DIRECT_BLOCK_FEW_OC_MIN_OC..=DIRECT_BLOCK_MAX_OC).contains(&self.oc)
            && (DIRECT_BLOCK_POINTWISE_MIN_K..=DIRECT_BLOCK_MAX_K).contains(&u64::from(self.ic))
            && self.output_pixels() >= DIRECT_BLOCK_LONG_K_MIN_PIXELS
    }

    /// Rule R58: whether `DirectBlock` beats the kernels the planner gives a direct layer of one
    /// group, 8–32 output channels and K over R47's [`DIRECT_BLOCK_MAX_K`] (to
    /// [`DIRECT_BLOCK_LONG_K_MAX_K`]) on a large grid: at least [`DIRECT_BLOCK_LONG_K_MIN_PIXELS`]
    /// output pixels ([`DIRECT_BLOCK_VERY_LONG_K_MIN_PIXELS`] from K [`DIRECT_BLOCK_VERY_LONG_K`]),
    /// or R47's [`DIRECT_BLOCK_MIN_PIXELS`] below 16 output channels, where the alternative is the
    /// reference kernel. Layers of 16+ output channels need 2+ taps (pointwise ones keep R37's
    /// and R38's streams and the tiles, not measured against it).
    /// Measured on an H100 (v54 calls A and B, `bench/results/v54-weak-suite.json`: layers of
    /// `bench/suites/zoo-extra.json` and the zoos, each kernel forced against the planner):
    /// 1.10–1.59× over R39's 32×32 tiles on ESRGAN b4's growth layers (64–160 → 32 at 128²),
    /// DenseNet-121 b32's 128→32 3×3 at 56², Inception-v3's 32→32 at 147², EfficientNetV2-S's
    /// 24→24 at 192² and ESPCN's 64→32 at 224²; 1.31–1.33× over the 64-column tiles on
    /// HiFi-GAN's 32-channel k7/k11 1D blocks (1.05× at k3); 3.11× and 1.43× over the reference
    /// kernel on ESPCN's 32→9 and Mask R-CNN's 256→12 box head at 200 × 272 (R64's since v60,
    /// 2.14× faster again on the pointwise stream). It lost on smaller
    /// grids of those channels (0.13–0.94×: ESRGAN b1, DenseNet's later blocks, YOLOv8n's
    /// 32→32 at 80² b16) and below 8 channels (LeNet-5's 1→6, 0.80×).
    pub(crate) fn direct_block_long_k_wins(&self) -> bool {
        let taps = u64::from(self.kh) * u64::from(self.kw);
        let k = self.gemm_k_depth();
        // Under 16 output channels (K is over 144 here) no GEMM tile is worth it, and the
        // reference kernel is the alternative.
        let reference_alternative = !self.gemm_worthwhile();
        let min_pixels = match k {
            _ if reference_alternative => DIRECT_BLOCK_MIN_PIXELS,
            DIRECT_BLOCK_VERY_LONG_K.. => DIRECT_BLOCK_VERY_LONG_K_MIN_PIXELS,
            _ => DIRECT_BLOCK_LONG_K_MIN_PIXELS,
        };
        !self.transposed
            && self.groups == 1
            && (taps >= 2 || reference_alternative)
            && (DIRECT_BLOCK_FEW_OC_MIN_OC..=DIRECT_BLOCK_MAX_OC).contains(&self.oc)
            && k > DIRECT_BLOCK_MAX_K
            && k <= DIRECT_BLOCK_LONG_K_MAX_K
            && self.output_pixels() >= min_pixels
    }

    /// Rule R55: the order in which `kernel`'s K-slice launches at `tile_n` columns take their
    /// output tiles. M tiles fastest on `GemmK16` where there are 2+ M tiles and the input is
    /// at least [`M_FASTEST_MIN_INPUT_BYTES`]: the workgroups running at once then share their
    /// input columns, which no longer stay in the L2 cache while every N tile of one M tile
    /// runs, so the input is read from memory once rather than once per M tile. Fitted on the
    /// 98 layers of six models at their throughput batches (v51 call C, an H100, the order
    /// forced by a build against the committed one, the faster of two interleaved runs each):
    /// on the 8 it takes 1.017–1.041× (wav2vec 2.0's 512 → 512 k3 s2 at 131–1049 MB
    /// 1.019–1.024×, Whisper's second conv, DaViT's second and third stages, ResNet-50's layer2
    /// downsample); the other `GemmK16` layers 0.97–1.02× (ResNet-50's layer3/4 1×1s 0.97×), and the
    /// 64-row and 64-column tiles 0.94–1.01× at any size. On 7 held-out layers it takes (call
    /// D: Whisper small/large, YOLOv8l, SDXL's VAE decoder, ResNet-152 b64) 1.018× in geomean
    /// (0.98–1.05×). N tiles fastest elsewhere, and on f16 tensors (`plan`; not measured).
    pub(crate) fn fitted_tile_order(&self, kernel: ConvKernel, tile_n: u32) -> TileOrder {
        let Some((tile_m, _)) = kernel.gemm_tile().filter(|_| kernel == ConvKernel::GemmK16) else {
            return TileOrder::NFastest;
        };
        let [_, tiles_m, _] = self.gemm_grid((tile_m, tile_n));
        let input_bytes = 4 * u64::from(self.n) * u64::from(self.ic) * u64::from(self.ih) * u64::from(self.iw);
        if tiles_m >= 2 && input_bytes >= M_FASTEST_MIN_INPUT_BYTES { TileOrder::MFastest } else { TileOrder::NFastest }
    }

    /// Rule R37: whether `PointwiseVec4` beats the staged GEMM tiles and R32's `GroupedOc4` on
    /// a 2D pointwise layer they would run (one group): at most 72 input and 32 output
    /// channels, or at most 32 input and 144 output channels that leave the last 64-row tile
    /// partly empty (v32). 1D layers keep the tiles, as R32 leaves them: none was measured.
    /// Fitted on the 203 pointwise layers of the zoos and the default suite (v31 call G), forced
    /// against the planner: on each of the 7 it takes it ran 1.51–1.85× faster (YOLOv8n's
    /// 32→32 at 160², batch 16: 0.150 → 0.081 ms; MobileNetV3's 72→24 at 56², batch 32:
    /// 0.048 → 0.026), 4 of them R32's. Wider layers, or longer K, measured 0.3–1.3× (each
    /// thread's serial K loop: too few threads to hide its loads), and batch-1 layers on R27's
    /// small grids lost (0.4–0.9×).
    pub(crate) fn pointwise_vec4_wins(&self) -> bool {
        let few_out = self.ic <= 72 && self.oc <= 32;
        // v32 call K, on the same 203 layers: 1.09–1.76× on the 6 such layers (MobileNetV3's
        // 24→72 at 56², batch 32: 0.047 → 0.027 ms; RegNetY's 32→48 at 112²: 0.140 → 0.086);
        // 16→64 and 32→192, whose tiles are full, ran 0.84–0.89×.
        let partly_empty_tiles = self.ic <= 32 && self.oc <= 144 && !self.oc.is_multiple_of(64);
        !self.one_d && self.groups == 1 && (few_out || partly_empty_tiles)
    }

    /// Rule R46: whether `PointwiseVec4`, its K loop in steps of 8 loads (v43), beats the rules
    /// after it (R27's split K and R38's `PointwiseVec4Split`, the staged tiles, R37) on a 2D
    /// pointwise layer of one group: at most [`POINTWISE_SHORT_K`] input channels on a grid of
    /// at least [`POINTWISE_SHORT_K_MIN_WORKGROUPS`] workgroups, or at most
    /// [`POINTWISE_MAX_K`] on one of at least [`POINTWISE_MIN_WORKGROUPS`]. Fitted on the 203
    /// pointwise layers of the zoos and the default suite (v43 call A, the kernel forced against
    /// v42's planner, whose two planned passes were cut short: 150 layers have a baseline, the
    /// faster of the two, which disagreed by up to 2.6× on some) and checked on 65 layers that it
    /// or v42's R37 and R38 might take (call B, both planners' binaries interleaved, the faster of
    /// two runs each; 60 ran the stream under one of them):
    /// - the 48 layers of the throughput zoo it takes ran 0.99–1.98× as fast as on v42's planned
    ///   kernels, 46 faster (geomean 1.34×, call B; MobileNetV2's 144→24 at 56², batch 32:
    ///   0.0670 → 0.0355 ms, `GemmSmallK32` before; YOLOv8n's 80→80 at 40², batch 16: 0.0323 →
    ///   0.0163, the staged tiles), and the 5 batch-1 layers 1.18–1.64× (R38's K split before);
    /// - longer K lost on grids this size: 192–2560 input channels ran 0.76–1.07× (24 of the 31
    ///   with a baseline slower), each thread's serial K loop growing while the tiles reuse each
    ///   load;
    /// - smaller grids lost to R27's split K with 33–144 input channels (0.43–0.95× on 21 of the
    ///   26 with a baseline; 64 and 72 channels 1.04–1.06× on two, 40 channels 1.13–1.59× on
    ///   three, left out), and to R38 with at most 32 on batch-1 grids of 24–35 workgroups
    ///   (0.67–0.90×, 5 layers; 0.93–1.05× on two of 63).
    ///
    /// 1D layers keep the tiles: none was measured.
    pub(crate) fn pointwise_vec4_fills_grid(&self) -> bool {
        let workgroups = self.pointwise_workgroups(POINTWISE_WORKGROUP);
        let short_k = self.ic <= POINTWISE_SHORT_K && workgroups >= POINTWISE_SHORT_K_MIN_WORKGROUPS;
        let fills = self.ic <= POINTWISE_MAX_K && workgroups >= POINTWISE_MIN_WORKGROUPS;
        !self.one_d && self.groups == 1 && (short_k || fills)
    }

    /// Rule R38: whether `PointwiseVec4Split` beats R27's `GemmSmallK32` on a 2D pointwise layer
    /// R27 takes (one group): at most 32 input channels, planes of at least 56² (3136 pixels).
    /// Fitted on the 203 pointwise layers of the zoos and the default suite (v32 call K), forced
    /// against the planner, and against the best of the planner's times in three calls (its
    /// batch-1 times moved by up to 1.75× between calls): 0.96–1.43× on the 11 it takes
    /// (geomean 1.14×; MobileNetV3's 16→64 at 112²: 0.0075 → 0.0052 ms). Call L, old and new
    /// planner interleaved: 1.07–1.42× on 9, the two 32→16 layers at 112² 0.94–0.95× (a K of
    /// 32 fills `GemmSmallK32`'s K-tile). With 40–80 input channels or smaller planes it lost on
    /// most layers (0.55–1.06×); YOLOv8n's 48→32 at 160² (1.23×) and 80→80 at 80² (1.08×) won,
    /// single layers left out of the rule, unconfirmed. Since v43, R46 gives `PointwiseVec4`
    /// those of at least [`POINTWISE_SHORT_K_MIN_WORKGROUPS`] workgroups first.
    pub(crate) fn pointwise_split_wins(&self) -> bool {
        !self.one_d && self.groups == 1 && self.ic <= 32 && u64::from(self.oh) * u64::from(self.ow) >= 3136
    }

    /// Rule R31: whether Winograd F(2×2, 3×3) beats the GEMM kernels (fitted on 103 3×3 stride-1
    /// layers of the zoo at batch 1 and at its throughput batch, the default, diffusion and large
    /// suites, v29): 1.05–2.68× on each layer it takes there, 2× on the diffusion UNet's and the
    /// VAE decoder's. Its fixed cost (two transform passes over 4× the input and output) needs
    /// 900 M+ multiply-adds; its products are 16 GEMMs of K = IC over N·⌈OH/2⌉·⌈OW/2⌉ columns,
    /// which lost on short K (64 channels at 925 M: 0.86×; 4 input channels: 0.28–0.46×) and on
    /// few columns (the UNet's 8² layers at batch 1, 16 columns: 0.55–0.57×; 640→1280 at 16²,
    /// 64 columns: 0.85×) unless the layer is large (3 G+ multiply-adds: 1.05–1.13× at 64 columns,
    /// 1.07–1.34× at 64 input channels). Since v54 not on layers of 64 channels in and out,
    /// which R59 gives the 64×64 tiles ([`ConvGeometry::winograd_leaves_to_tiles`]). Since v57
    /// R61 gives those on wide grids F(4×4, 3×3) first ([`ConvGeometry::winograd_4x4_wins`]).
    pub(crate) fn winograd_wins(&self) -> bool {
        self.winograd_fits() && !self.winograd_leaves_to_tiles()
    }

    /// Rule R61: whether Winograd F(4×4, 3×3) (`Winograd4x4`) takes a 3×3 stride-1 layer of one
    /// group, ahead of R31's F(2×2, 3×3) and the GEMM kernels: 48+ input and 64+ output
    /// channels, 200 M+ multiply-adds, and N·⌈OH/4⌉·⌈OW/4⌉ columns (undilated) of its
    /// products' GEMMs of at least [`WINOGRAD_4X4_MIN_COLUMNS`], or half that at
    /// [`WINOGRAD_4X4_DEEP_IC`]+ input channels. Fitted on the 146 3×3 stride-1 layers of one
    /// group, 32+ channels in and out and 0.2 G+ multiply-adds of the zoos, zoo-extra, the
    /// default and diffusion suites (v57 call B, an H100, forced against the planner,
    /// interleaved twice): it takes 112 and is faster
    /// on 110 (1.45× in geomean; 1.06–1.73× on the 88 of R31's it wins, 1.10–1.65× on the 22
    /// the GEMM tiles ran: R59's 64→64 layers, YOLOv8n's heads); it lost on ResNet-50's 512→512
    /// at 7², batch 32 (0.94×) and YOLOv8n's 128→128 at 20², batch 16 (0.97×). Below the bound
    /// its GEMMs are too narrow: the diffusion UNet's 8²–32² layers at batch 1 (4–64 columns)
    /// ran 0.34–1.00×, 256 channels over 126–128 columns 0.99–1.00×; 32 input channels
    /// 0.67–0.85×; 32 output channels from 64+ 0.80–1.37× (left to R60's tiles and R27's).
    ///
    /// Since v60 also dilated 3×3 layers (their tile grid counts each of the dilation² phases'
    /// tiles) whose tiles are at least [`WINOGRAD_4X4_DILATED_MIN_TILE_SHARE`] the layer's
    /// outputs: DeepLabv3-ResNet-50's dilated layers and ASPP at batch 4, 8 and 1 and three probes
    /// (v60 call E, an H100, forced against the planner, interleaved twice) ran 1.13–2.99× the
    /// GEMM tiles on the 14 it takes (0.84–0.99× → 1.26–2.87× cuDNN fp32 at batch 4 and 8), and
    /// 0.64–0.72× on the 2 it leaves (ASPP at dilation 36 over 64², 18 over 32²).
    pub(crate) fn winograd_4x4_wins(&self) -> bool {
        const MIN_MACS: u64 = 200_000_000;
        let [rows, cols] = self.winograd_tile_grid_of(ConvKernel::Winograd4x4.winograd_transform().tile);
        let columns = u64::from(self.n) * u64::from(rows) * u64::from(cols);
        let fewest = match self.ic >= WINOGRAD_4X4_DEEP_IC {
            true => WINOGRAD_4X4_MIN_COLUMNS / 2,
            false => WINOGRAD_4X4_MIN_COLUMNS,
        };
        let shape = self.winograd_shape()
            || (self.winograd_runs_filter(ConvKernel::Winograd4x4)
                && self.winograd_4x4_dilated_tile_share() >= WINOGRAD_4X4_DILATED_MIN_TILE_SHARE);
        shape && self.ic >= 48 && self.oc >= 64 && self.macs() >= MIN_MACS && columns >= fewest
    }

    /// The share of F(4×4, 3×3)'s tile outputs that are the layer's outputs: OH · OW over the
    /// tile grid's 16 · rows · columns. A dilated layer's dilation² phases are each tiled alone,
    /// so a phase's ragged last tile is cut once per phase (DeepLabv3's ASPP at dilation 12 over
    /// 64²: phases of 5–6 rows in tiles of 8, 0.44; at 36: of 1–2 rows in tiles of 4, 0.20).
    pub(crate) fn winograd_4x4_dilated_tile_share(&self) -> f64 {
        let [rows, cols] = self.winograd_tile_grid_of(ConvKernel::Winograd4x4.winograd_transform().tile);
        (f64::from(self.oh) * f64::from(self.ow)) / (16.0 * f64::from(rows) * f64::from(cols))
    }

    /// Rule R62: whether `Winograd4x4Coop` (F(4×4, 3×3) with its products on the tensor cores)
    /// takes a layer where f16 multiplicands are allowed, instead of R40's and R42's
    /// `WinogradCoop` or `CoopF16`: 3×3 stride-1 layers of one group with 64+ input channels
    /// (a multiple of 8) and 32+ output channels (the fewest measured) that are not R44's, 200 M+ multiply-adds, at least
    /// [`WINOGRAD_4X4_COOP_MIN_COLUMNS`] columns of 4×4 tiles, on images of at least
    /// [`WINOGRAD_4X4_COOP_MIN_IMAGE_TILES`] tiles (or [`WINOGRAD_4X4_COOP_DEEP_MIN_IMAGE_TILES`]
    /// at [`WINOGRAD_4X4_COOP_DEEP_IC`]+ input channels). Fitted on the 146 layers R61 was (v59
    /// call D, an H100, forced against the planner with f16 allowed, interleaved twice): of the
    /// 94 `WinogradCoop` (85) or `CoopF16` (9) ran, it takes 62 and is faster on 60 (1.02–1.51×,
    /// 1.20× in geomean: the diffusion UNet's and VAE's layers, VGG-16's 256/512-channel ones,
    /// ESRGAN's 160/192-channel layers, Mask R-CNN's P3), 3 % slower on two (VGG-16's 512→512
    /// at 14², Mask R-CNN's P4); it was slower on each of the 32 it leaves out (narrow GEMMs: the
    /// UNet's 8²–32² layers at batch 1; small images: 13²–20², and 7² and 8² by up to 1.7×), and
    /// on R44's layers against `WinogradFused` (1.1–2.3×). On channels-last tensors, where R41
    /// keeps R40's layers on Winograd, it ran the diffusion suite's 8 layers 1.31–1.56× faster
    /// than `WinogradCoop`.
    pub(crate) fn winograd_4x4_coop_wins(&self) -> bool {
        const MIN_MACS: u64 = 200_000_000;
        let [rows, cols] = self.winograd_tile_grid_of(ConvKernel::Winograd4x4Coop.winograd_transform().tile);
        let image_tiles = u64::from(rows) * u64::from(cols);
        let fewest_image_tiles = match self.ic >= WINOGRAD_4X4_COOP_DEEP_IC {
            true => WINOGRAD_4X4_COOP_DEEP_MIN_IMAGE_TILES,
            false => WINOGRAD_4X4_COOP_MIN_IMAGE_TILES,
        };
        self.winograd_shape()
            && self.ic >= 64
            && self.oc >= 32
            && self.ic.is_multiple_of(8)
            && !self.winograd_fused_channels()
            && self.macs() >= MIN_MACS
            && u64::from(self.n) * image_tiles >= WINOGRAD_4X4_COOP_MIN_COLUMNS
            && image_tiles >= fewest_image_tiles
    }

    /// Rule R67: whether Winograd F(6×6, 3×3) (`Winograd6x6`) takes a layer R61 gives F(4×4, 3×3):
    /// undilated, [`WINOGRAD_6X6_MIN_CHANNELS`] or more input and output channels, at least
    /// [`WINOGRAD_6X6_MIN_COLUMNS`] columns (images × 6×6 output tiles) of its products' GEMMs,
    /// and its work (64 products a 6×6 tile) at most 1 / [`WINOGRAD_6X6_MIN_WORK_RATIO`] of
    /// F(4×4, 3×3)'s (36 a 4×4 tile): 64² outputs give 1.19, 7² 0.56, 14² 1.00, 28² 1.10.
    /// Fitted on R61's 146 layers (v62 call A, an H100, forced against `Winograd4x4` and the
    /// planner, `Winograd6x6` twice): it takes 25 and is faster than the planner on 23
    /// (1.02–1.17×, 1.074× in geomean: the SD VAE decoder's 128–512-channel layers at
    /// 64²–512², the SD 1.5 UNet's 320–640-channel ones at batch 8, Mask R-CNN's P2, RAFT's
    /// 256-channel ones), 0.99× on SDXL's 320→320 at 128² and 0.94× on Mask R-CNN's P3. Against `Winograd4x4`, work ratios
    /// of 1.10–1.15 ran 0.83–1.14×, 1.00 0.56–1.08×, 0.56 0.30–0.89×; below the bounds, 128
    /// input channels 0.92–1.08× and 121 columns (64² at batch 1) 0.88–1.21×. The column bound
    /// was 242 in v62; 41 held-out layers (v63 call A: the SD VAE encoder, SD 2's UNet at 768²,
    /// SDXL's UNet at batch 2) moved it to 256, where R67 takes 15 of them, all faster
    /// (1.02–1.34×, 1.126× in geomean).
    pub(crate) fn winograd_6x6_wins(&self) -> bool {
        let (ic, oc) = WINOGRAD_6X6_MIN_CHANNELS;
        let six = ConvKernel::Winograd6x6.winograd_transform();
        let four = ConvKernel::Winograd4x4.winograd_transform();
        let [rows6, cols6] = self.winograd_tile_grid_of(six.tile);
        let [rows4, cols4] = self.winograd_tile_grid_of(four.tile);
        let columns6 = u64::from(self.n) * u64::from(rows6) * u64::from(cols6);
        let work6 = 64.0 * f64::from(rows6) * f64::from(cols6);
        let work4 = 36.0 * f64::from(rows4) * f64::from(cols4);
        self.winograd_shape()
            && self.winograd_4x4_wins()
            && self.ic >= ic
            && self.oc >= oc
            && columns6 >= WINOGRAD_6X6_MIN_COLUMNS
            && work4 >= WINOGRAD_6X6_MIN_WORK_RATIO * work6
    }

    /// Rule R68: whether Winograd F(4×4, 5×5) (`Winograd5x5Tile4`) takes a layer: 5×5 stride-1
    /// undilated layers of one group with [`WINOGRAD_5X5_TILE4_MIN_CHANNELS`] or more input and
    /// output channels and at least [`WINOGRAD_5X5_TILE4_MIN_COLUMNS`] columns (images × 4×4
    /// output tiles). Fitted on the 21 layers of `v61-5x5-suite.json` (v62 call A, an H100,
    /// forced against `Winograd5x5` and the planner, `Winograd5x5Tile4` twice): it takes 17 and
    /// none ran slower than the planner's kernel (1.01–2.15×, 1.53× in geomean: AlexNet's 64→192
    /// at 27², batch 64 1.65× (0.37× → 0.60× cuDNN fp32), batch 16 1.53×, batch 1 1.01× (1.10×
    /// `Winograd5x5` forced); Inception-v3's 48→64 at 35², batch 32 1.54×; SRCNN's 64→32
    /// 2.1–2.2×; GoogLeNet's at batch 32 1.04–1.60×); below its bounds 16–24 input channels ran
    /// 0.69–0.95× and 16 columns 0.89×. Since v62 it takes every layer R63 gave `Winograd5x5`
    /// (196+ columns of 2×2 tiles are 49+ of 4×4), which runs where forced only.
    pub(crate) fn winograd_5x5_tile4_wins(&self) -> bool {
        let [rows, cols] = self.winograd_tile_grid_of(ConvKernel::Winograd5x5Tile4.winograd_transform().tile);
        let columns = u64::from(self.n) * u64::from(rows) * u64::from(cols);
        self.winograd_5x5_tile4_channels() && columns >= WINOGRAD_5X5_TILE4_MIN_COLUMNS
    }

    /// R68's filter and channel counts, whatever the grid: `Conv2d::new` keeps a transformed
    /// weight for `Winograd5x5Tile4` by them.
    pub(crate) fn winograd_5x5_tile4_channels(&self) -> bool {
        let (ic, oc) = WINOGRAD_5X5_TILE4_MIN_CHANNELS;
        self.winograd_shape_of(5) && self.ic >= ic && self.oc >= oc
    }

    /// Rule R59: whether a layer R31's bounds take is one of 64 channels in and out, which the
    /// staged 64×64 tiles 16 deep (`GemmN64K16`), faster since v47–v50, run faster than
    /// Winograd. Measured on an H100 (v54 call B, each kernel forced against the planner):
    /// 1.04–1.11× on all six such layers (VGG-16's 64→64 at 224² b16, ResNet-18's at 56² b64,
    /// ResNet-50's at 56² b32, a U-Net's at 256² b4 (two), YOLOv8n's 64→64 head at 80² b16);
    /// `GemmM64K16`, which R11 would give them, 1.04–1.06× (call A's sweep, two layers).
    /// 64→80 kept Winograd (YOLOv8n's head: the tiles 0.86×); 64→128 was not measured. Since
    /// v57 R61 takes those on wide grids first (F(4×4, 3×3) 1.10–1.54× the kernels before it on
    /// all 15 such layers measured).
    pub(crate) fn winograd_leaves_to_tiles(&self) -> bool {
        self.winograd_fits() && self.ic <= 64 && self.oc <= 64
    }

    /// R31's bounds (the measurements are on [`ConvGeometry::winograd_wins`]).
    fn winograd_fits(&self) -> bool {
        const MIN_MACS: u64 = 900_000_000;
        const LARGE_MACS: u64 = 3_000_000_000;
        let columns = u64::from(self.n) * self.winograd_tiles();
        let macs = self.macs();
        self.winograd_shape()
            && self.ic >= 64
            && self.oc >= 64
            && columns >= 64
            && macs >= MIN_MACS
            && (macs >= LARGE_MACS || (self.ic >= 80 && columns >= 128))
    }

    /// Rule R27: whether `GemmSmallK32` beats the staged GEMM tiles on a grid of `tiles_n64`
    /// 64×64 tiles (fitted on 221 zoo layers at batch 1 of under 1024 such tiles and 71 of the
    /// throughput zoo, v26–v27), for layers of up to 400 M multiply-adds: always under half a
    /// wave of tiles; K < 1024 under two waves; and on grids of up to 1024 tiles (the range
    /// measured) K ≤ 256 for ≤ 32 output channels per group or K ≤ 32 for ≤ 96 (a 64-row tile
    /// mostly empty, or K too short to hide its loads behind). Beyond the bound the staged
    /// tiles' larger register blocks won: pix2pix's 512→512 k4 s2 on 8² inputs at batch 16 (1074 M
    /// on 32 tiles), the diffusion UNet's 640-channel 3×3 stride 2 at 32² (943 M on 40 tiles),
    /// SigLIP's patchify stem (494 M on 216 tiles), MobileNetV2's 960→320 at 7², batch 32 (482 M
    /// on 125 tiles); at 537 M pix2pix's transposed layers won and its direct ones did not. A VAE's
    /// 4→512 3×3 input layer (K 36) lost too. It also matched or beat `GemmSmall`, its unstaged
    /// form, on every layer R26 gave that, which is no longer planned.
    fn gemm_small_k32_wins(&self, tiles_n64: u64) -> bool {
        const MAX_MACS: u64 = 400_000_000;
        let k = self.gemm_k_depth();
        let ocg = self.oc / self.groups;
        self.macs() <= MAX_MACS
            && match tiles_n64 {
                t if t < FITTED_SMS / 2 => true,
                t if t < 2 * FITTED_SMS => k < 1024,
                t if t < 1024 => (ocg <= 32 && k <= 256) || (ocg <= 96 && k <= 32),
                _ => false,
            }
    }

    /// Every fp32 kernel that can run this convolution (tests and tuning run them all;
    /// `CoopF16`, which rounds its multiplicands to f16, is not among them).
    pub fn supported_kernels(&self) -> Vec<ConvKernel> {
        ConvKernel::ALL.into_iter().filter(|k| k.precision() == Precision::F32 && self.supports(*k)).collect()
    }

    /// The kernel to run: `forced` when it can run this geometry, else an error naming why;
    /// the planner's choice when `None`.
    pub(crate) fn choose_kernel(&self, forced: Option<ConvKernel>) -> Result<ConvKernel> {
        let Some(k) = forced else { return Ok(self.planned_kernel()) };
        if !self.supports(k) {
            return Err(Error::unavailable(
                k.name(),
                format!(
                    "kernel {} cannot run this convolution (transposed {}, {} input and {} output channels per group, \
                 {}×{} filter, stride {:?}, padding {:?}, dilation {:?}, input {}×{}, output {}×{})",
                    k.name(),
                    self.transposed,
                    self.ic / self.groups,
                    self.oc / self.groups,
                    self.kh,
                    self.kw,
                    self.stride,
                    self.padding,
                    self.dilation,
                    self.ih,
                    self.iw,
                    self.oh,
                    self.ow
                ),
            ));
        }
        Ok(k)
    }
}

/// Whether `ocg` output channels fill their last 128-row tile to within 15 % (R50, R53, R54):
/// never for fewer than 112.
fn fills_128_rows(ocg: u64) -> bool {
    ocg.div_ceil(128) * 128 * 100 <= ocg * 115
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ops::conv_options::ConvOptions;

    fn geo(input: &[usize], weight: &[usize], opts: ConvOptions) -> Result<ConvGeometry> {
        ConvGeometry::new(input, weight, None, &opts)
    }

    /// R55: M tiles fastest on the 128-row 16-deep tiles with 2+ M tiles and 70 MB of input;
    /// N tiles fastest below the bound, with one M tile, and on every other tile.
    #[test]
    fn tile_order_follows_the_input_size() {
        use crate::ops::conv_options::TileOrder;
        let s2 = || ConvOptions::default().stride(&[2]);
        // wav2vec 2.0's 512 → 512 k3 s2 at batch 16 (1 GB of input), its last (33 MB).
        let big = geo(&[16, 512, 31999], &[512, 512, 3], s2()).unwrap();
        let small = geo(&[16, 512, 999], &[512, 512, 2], s2()).unwrap();
        assert_eq!(big.fitted_tile_order(ConvKernel::GemmK16, 128), TileOrder::MFastest);
        assert_eq!(small.fitted_tile_order(ConvKernel::GemmK16, 128), TileOrder::NFastest);
        for other in [ConvKernel::Gemm, ConvKernel::GemmM64K16, ConvKernel::GemmN64K16, ConvKernel::GemmSmallK32] {
            assert_eq!(big.fitted_tile_order(other, 128), TileOrder::NFastest, "{other:?}");
        }
        // The bound: 70,000,000 bytes of f32 input (17.5 M values); 2 M tiles of 128 rows.
        let at =
            |values: usize, oc: usize| geo(&[1, 250, values / 250], &[oc, 250, 1], ConvOptions::default()).unwrap();
        assert_eq!(at(17_500_000, 256).fitted_tile_order(ConvKernel::GemmK16, 128), TileOrder::MFastest);
        assert_eq!(at(17_499_750, 256).fitted_tile_order(ConvKernel::GemmK16, 128), TileOrder::NFastest);
        assert_eq!(at(17_500_000, 128).fitted_tile_order(ConvKernel::GemmK16, 128), TileOrder::NFastest);
        // The planner's order for its own kernel and width.
        assert_eq!(big.planned_tile_order(), Some(TileOrder::MFastest));
        assert_eq!(
            geo(&[1, 8, 6, 6], &[8, 1, 3, 3], ConvOptions::default().groups(8)).unwrap().planned_tile_order(),
            None
        );
    }

    #[test]
    fn kernel_choice_depends_on_channels_per_group() {
        assert_eq!(
            geo(&[1, 8, 5, 5], &[4, 8, 3, 3], ConvOptions::default()).unwrap().reference_kernel(),
            ConvKernel::DirectVec4
        );
        assert_eq!(
            geo(&[1, 8, 5, 5], &[4, 4, 3, 3], ConvOptions::default().groups(2)).unwrap().reference_kernel(),
            ConvKernel::DirectVec4
        );
        assert_eq!(
            geo(&[1, 6, 5, 5], &[4, 3, 3, 3], ConvOptions::default().groups(2)).unwrap().reference_kernel(),
            ConvKernel::Direct
        );
    }

    #[test]
    fn planner_rules() {
        let d = ConvOptions::default;
        // Large grid and long K: 128×128 tiles 16 deep; pointwise: R50's tiles 16 deep;
        // patchify layers on small grids: 8-deep tiles split; long K on small grids: 64×128
        // tiles 16 deep, split; the rest 64×64 tiles, 32 deep below 512 tiles, else 16 deep.
        assert_eq!(geo(&[1, 2048, 64, 64], &[2048, 2048, 1, 1], d()).unwrap().planned_kernel(), ConvKernel::GemmK16);
        let plan = |g: &ConvGeometry| {
            let k = g.planned_kernel();
            let splits = if k == ConvKernel::GemmSmallK32 {
                g.gemm_small_splits()
            } else {
                g.gemm_split_k(k, g.planned_tile_n(k))
            };
            (k, splits)
        };
        let conv1 = geo(&[8, 3, 224, 224], &[64, 3, 7, 7], d().stride(&[2]).padding(&[3])).unwrap();
        assert_eq!(plan(&conv1), (ConvKernel::GemmN64K16, 1));
        let pointwise = geo(&[8, 256, 14, 14], &[1024, 256, 1, 1], d()).unwrap();
        assert_eq!(plan(&pointwise), (ConvKernel::GemmK16, 1));
        let down1 = geo(&[1, 128, 192, 192], &[256, 128, 2, 2], d().stride(&[2])).unwrap();
        assert_eq!(plan(&down1), (ConvKernel::GemmN64K16, 1));
        let down2 = geo(&[1, 256, 96, 96], &[512, 256, 2, 2], d().stride(&[2])).unwrap();
        assert_eq!(plan(&down2), (ConvKernel::Gemm, 3));
        let siglip = geo(&[1, 3, 384, 384], &[1152, 3, 14, 14], d().stride(&[14])).unwrap();
        // 216 tiles of 64×64 with K 588, but 494 M multiply-adds: over R27's bound.
        assert_eq!(plan(&siglip), (ConvKernel::GemmN64K32, 1));
        // The default suite's 64→64 3×3 at 56², batch 8: R61's F(4×4, 3×3) (1568 columns), the
        // 32-deep 64×64 tiles without it.
        let small = geo(&[8, 64, 56, 56], &[64, 64, 3, 3], d().padding(&[1])).unwrap();
        assert_eq!(small.planned_kernel(), ConvKernel::Winograd4x4);
        let small_2x2 = small.planned_kernel_without_4x4();
        assert_eq!(
            (small_2x2, small.gemm_split_k(small_2x2, small.planned_tile_n(small_2x2))),
            (ConvKernel::GemmN64K32, 1)
        );
        // Where Winograd takes a layer (R31), the staged tiles R11–R15 chose are still its step
        // back (intermediates over the device's bindings, f16 tensors).
        let deep = geo(&[8, 256, 14, 14], &[256, 256, 3, 3], d().padding(&[1])).unwrap();
        assert_eq!(deep.planned_kernel(), ConvKernel::Winograd);
        let staged = deep.staged_gemm_kernel();
        // (R54 since v49: 26 tiles of 128×128 in 10 K-slices fill a wave; R14's 64×128 tiles before.)
        assert_eq!((staged, deep.gemm_split_k(staged, deep.planned_tile_n(staged))), (ConvKernel::GemmK16, 10));
        let t = d().transposed(true).stride(&[2]).padding(&[1]);
        // DCGAN's 256→128 transposed at batch 8: R53's 128×128 tiles (v49), 4 K-slices.
        assert_eq!(plan(&geo(&[8, 256, 16, 16], &[256, 128, 4, 4], t).unwrap()), (ConvKernel::GemmK16, 4));
        let t = d().transposed(true).stride(&[2]);
        assert_eq!(plan(&geo(&[8, 128, 64, 64], &[128, 64, 2, 2], t).unwrap()), (ConvKernel::GemmN64K16, 1));
        // Winograd (R31; R61's fallback): 900 M+ multiply-adds on 80+ input and 64+ output
        // channels and 128+ columns of 2×2 tiles, or 3 G+ on 64+ channels and 64+ columns.
        let same = || d().padding(&[1]);
        let same5 = || d().padding(&[2]);
        let winograd =
            |n, ic, oc, hw| geo(&[n, ic, hw, hw], &[oc, ic, 3, 3], same()).unwrap().planned_kernel_without_4x4();
        assert_eq!(winograd(1, 512, 512, 128), ConvKernel::Winograd); // the VAE decoder, 38.7 G
        assert_eq!(winograd(1, 1280, 1280, 16), ConvKernel::Winograd); // 64 columns, 3.8 G
        assert_eq!(winograd(32, 64, 80, 56), ConvKernel::Winograd); // 64 input channels, 4.6 G
        assert_eq!(winograd(32, 64, 64, 56), ConvKernel::GemmN64K16); // 64 in and out: R59
        assert_ne!(winograd(1, 640, 1280, 16), ConvKernel::Winograd); // 64 columns, 1.9 G
        assert_ne!(winograd(1, 2560, 1280, 8), ConvKernel::Winograd); // 16 columns
        assert_ne!(winograd(8, 64, 64, 56), ConvKernel::Winograd); // 64 channels, 0.9 G
        assert_ne!(winograd(4, 4, 512, 64), ConvKernel::Winograd); // 4 input channels
        let strided = geo(&[1, 512, 128, 128], &[512, 512, 3, 3], same().stride(&[2])).unwrap();
        assert_ne!(strided.planned_kernel(), ConvKernel::Winograd);
        assert_ne!(strided.planned_kernel(), ConvKernel::Winograd4x4);
        // R61: F(4×4, 3×3) on 48+ input and 64+ output channels, 200 M+ multiply-adds and 256+
        // columns of 4×4 tiles, or 128+ at 320+ input channels; R31 keeps the narrower grids.
        let planned = |n, ic, oc, hw| geo(&[n, ic, hw, hw], &[oc, ic, 3, 3], same()).unwrap().planned_kernel();
        assert_eq!(planned(1, 512, 512, 128), ConvKernel::Winograd6x6); // the VAE decoder: R67
        assert_eq!(planned(4, 512, 512, 56), ConvKernel::Winograd4x4); // 400 columns, work ratio 1.10
        assert_eq!(planned(8, 256, 256, 14), ConvKernel::Winograd); // 128 columns, 256 channels
        assert_eq!(planned(2, 320, 640, 32), ConvKernel::Winograd4x4); // 128 columns, 320 channels
        assert_eq!(planned(1, 640, 640, 32), ConvKernel::Winograd); // 64 columns
        assert_eq!(planned(1, 1280, 1280, 16), ConvKernel::Winograd); // 16 columns
        assert_eq!(planned(32, 64, 64, 56), ConvKernel::Winograd4x4); // R59's layers too
        assert_eq!(planned(1, 64, 80, 80), ConvKernel::Winograd4x4); // 0.29 G, 400 columns
        assert_eq!(planned(16, 48, 192, 96), ConvKernel::Winograd4x4); // 48 input channels
        assert_ne!(planned(64, 32, 128, 27), ConvKernel::Winograd4x4); // 32 input channels
        assert_ne!(planned(4, 64, 32, 128), ConvKernel::Winograd4x4); // 32 output channels
        assert_ne!(planned(1, 64, 64, 64), ConvKernel::Winograd4x4); // 0.15 G
        // R67: F(6×6, 3×3) where R61 runs F(4×4, 3×3) on 192+ input and 96+ output channels, 256+
        // columns of 6×6 tiles, and 1.17× less work than F(4×4, 3×3)'s (36·tiles4 / 64·tiles6).
        assert_eq!(planned(4, 512, 512, 256), ConvKernel::Winograd6x6); // the VAE decoder at batch 4: 1.17×
        assert_eq!(planned(1, 320, 320, 96), ConvKernel::Winograd6x6); // SD 2 at 768²: 256 columns, 1.22×
        assert_eq!(planned(2, 320, 320, 64), ConvKernel::Winograd4x4); // 242 columns: 1.02×
        assert_eq!(planned(2, 640, 640, 64), ConvKernel::Winograd4x4); // 242 columns: 0.94× (SDXL)
        assert_eq!(planned(8, 256, 126, 46), ConvKernel::Winograd6x6); // RAFT's motion conv (46 × 46 here)
        assert_eq!(planned(1, 256, 256, 64), ConvKernel::Winograd4x4); // 121 columns
        assert_eq!(planned(16, 512, 512, 28), ConvKernel::Winograd4x4); // work ratio 1.10 (VGG-16's at 28²)
        assert_eq!(planned(32, 256, 256, 14), ConvKernel::Winograd4x4); // work ratio 1.00
        assert_eq!(planned(4, 128, 256, 64), ConvKernel::Winograd4x4); // 128 input channels: 0.92×
        assert_eq!(planned(4, 256, 64, 128), ConvKernel::Winograd4x4); // 64 output channels
        // Dilation 2 at 48²: two phases of 24² each, so 12 × 12 tiles of 4×4 and 8 × 8 of 6×6
        // (256 columns, work ratio 1.27); but F(6×6, 3×3) runs undilated filters only.
        let dilated = geo(&[4, 256, 48, 48], &[256, 256, 3, 3], same().padding(&[2]).dilation(&[2])).unwrap();
        assert!(!dilated.winograd_6x6_wins());
        assert_eq!(dilated.planned_kernel(), ConvKernel::Winograd4x4);
        // Where F(6×6, 3×3)'s transformed weight (64·IC·OC f32) exceeds a 128 MiB binding at 768
        // channels (144 MiB) and F(4×4, 3×3)'s (36·IC·OC, 81 MiB) fits, the layer runs R61's
        // kernel, not the one planned without either.
        let wide = geo(&[1, 768, 96, 96], &[768, 768, 3, 3], same()).unwrap();
        assert_eq!(wide.planned_kernel(), ConvKernel::Winograd6x6);
        let binding_runs = |kernel| wide.winograd_parts(kernel, 128 << 20, 256).is_some();
        assert!(!binding_runs(ConvKernel::Winograd6x6));
        assert_eq!(runnable_larger_winograd(ConvKernel::Winograd6x6, binding_runs), Some(ConvKernel::Winograd4x4));
        assert_eq!(runnable_larger_winograd(ConvKernel::Winograd6x6, |_| true), Some(ConvKernel::Winograd6x6));
        assert_eq!(runnable_larger_winograd(ConvKernel::Winograd6x6, |_| false), None);
        assert_eq!(runnable_larger_winograd(ConvKernel::Winograd5x5Tile4, |k| k != ConvKernel::Winograd5x5Tile4), None);
        // R62: with f16 allowed, F(4×4, 3×3) on the tensor cores on 128+ columns of images of 7×7+
        // tiles (4×4+ at 512+ input channels), not R44's channel counts.
        let f4_coop = |n, ic, oc, hw| geo(&[n, ic, hw, hw], &[oc, ic, 3, 3], same()).unwrap().winograd_4x4_coop_wins();
        assert!(f4_coop(2, 320, 320, 64)); // the diffusion UNet at batch 2: 0.85
        assert!(f4_coop(1, 512, 512, 256)); // the VAE decoder: 0.74
        assert!(f4_coop(8, 1280, 1280, 16)); // 128 columns of 16-tile images at 1280 channels: 0.76
        assert!(f4_coop(1, 160, 32, 128)); // ESRGAN's 160→32 (`CoopF16` before): 0.66
        assert!(f4_coop(16, 256, 512, 28)); // VGG-16's at 28²: 0.88
        assert!(!f4_coop(1, 640, 640, 32)); // 64 columns: 1.12
        assert!(!f4_coop(32, 448, 384, 8)); // 4-tile images: 1.31
        assert!(!f4_coop(32, 512, 512, 7)); // 1.70
        assert!(!f4_coop(8, 256, 256, 14)); // 16-tile images at 256 channels: 1.11
        assert!(!f4_coop(64, 192, 384, 13)); // AlexNet's: 1.09
        assert!(!f4_coop(32, 64, 64, 56)); // R44's channel counts (`WinogradFused`: 1.84)
        assert!(!f4_coop(16, 48, 192, 96)); // 48 input channels: 1.15
        assert!(!f4_coop(1, 100, 128, 64)); // input channels not a multiple of 8 (`CoopNhwc`)
        assert!(!f4_coop(1, 256, 16, 128)); // 16 output channels: not measured
        // R68: F(4×4, 5×5) on 5×5 stride-1 layers of 32+ input and output channels and 49+
        // columns of 4×4 tiles (in place of R63's F(2×2, 5×5) since v62).
        let five = |n, ic, oc, hw| geo(&[n, ic, hw, hw], &[oc, ic, 5, 5], same5()).unwrap().planned_kernel();
        let tile4 = ConvKernel::Winograd5x5Tile4;
        assert_eq!(five(64, 64, 192, 27), tile4); // AlexNet: 1.65× F(2×2, 5×5)
        assert_eq!(five(32, 32, 128, 7), tile4); // GoogLeNet's 5a: 128 columns, 1.04×
        assert_eq!(five(32, 48, 64, 35), tile4); // Inception-v3's 48→64: 1.54× the GEMM tiles
        assert_eq!(five(1, 64, 32, 256), tile4); // SRCNN's 64→32: 2.15×
        assert_eq!(five(1, 64, 192, 27), tile4); // 49 columns: 1.10× F(2×2, 5×5), 1.01× R63's run
        assert_eq!(five(1, 48, 64, 35), tile4); // 81 columns: 1.01× the GEMM
        assert_ne!(five(1, 32, 128, 14), tile4); // 16 columns: 0.89×
        assert_ne!(five(32, 24, 64, 14), tile4); // 24 input channels: 0.92×
        assert_ne!(five(32, 16, 128, 14), tile4); // 16 input channels: 0.69×
        // F(2×2, 5×5) runs where forced only.
        assert_ne!(five(64, 64, 192, 27), ConvKernel::Winograd5x5);
        let five_without = geo(&[64, 64, 27, 27], &[192, 64, 5, 5], same5()).unwrap().planned_kernel_without_4x4();
        assert!(five_without.is_gemm(), "{five_without:?}"); // where F(4×4, 5×5) cannot run
        let strided5 = geo(&[1, 64, 27, 27], &[192, 64, 5, 5], same5().stride(&[2])).unwrap();
        assert_ne!(strided5.planned_kernel(), ConvKernel::Winograd5x5);
        assert_ne!(strided5.planned_kernel(), tile4);
        // R40: with f16 allowed, R31's layers of 256+ input channels keep Winograd.
        let kept =
            |n, ic, oc, hw| geo(&[n, ic, hw, hw], &[oc, ic, 3, 3], same()).unwrap().winograd_keeps_tensor_core_layer();
        assert!(kept(1, 512, 512, 64)); // the VAE decoder's middle block
        assert!(kept(8, 256, 256, 14)); // ResNet-50's 3×3 at batch 8
        assert!(kept(1, 256, 128, 512)); // the VAE decoder's last up block, 1.21× CoopF16
        assert!(!kept(16, 128, 128, 20)); // 128 input channels
        assert!(!kept(32, 64, 64, 56)); // 64 input channels: 0.74× CoopF16
        assert!(!kept(1, 640, 1280, 16)); // not R31's
        // R42: with f16 allowed, `WinogradCoop` also takes 256+ input channels over 16+ columns,
        // R31's or not, and 128+ in and out over 128+ columns.
        let wins = |n, ic, oc, hw| geo(&[n, ic, hw, hw], &[oc, ic, 3, 3], same()).unwrap().winograd_coop_wins();
        assert!(wins(1, 640, 1280, 16)); // the diffusion UNet's, 64 columns: 3.3× CoopF16
        assert!(wins(1, 1280, 1280, 8)); // 16 columns: 2.5×
        assert!(wins(1, 512, 512, 7)); // ResNet-50's layer 4 at batch 1, 16 columns: 3.0×
        assert!(!wins(1, 512, 512, 6)); // 9 columns: not measured
        assert!(!wins(1, 320, 4, 64)); // 4 output channels: not measured
        assert!(wins(1, 128, 128, 512)); // the VAE decoder's last up block: 1.4×
        assert!(wins(1, 128, 128, 28)); // 196 columns: 1.10×
        assert!(!wins(1, 128, 128, 20)); // 100 columns: 0.92×
        assert!(!wins(1, 128, 64, 40)); // 64 output channels: 0.82×
        assert!(!wins(32, 64, 64, 56)); // 64 input channels: 0.89×
        let strided = geo(&[1, 512, 64, 64], &[512, 512, 3, 3], same().stride(&[2])).unwrap();
        assert!(!strided.winograd_coop_wins());
        // R44: with f16 allowed, `WinogradFused` takes 32–128 channels in and out, on grids of
        // any size (v38 asked for 96+ workgroups beyond 80 input channels).
        let fused = |n, ic, oc, hw| geo(&[n, ic, hw, hw], &[oc, ic, 3, 3], same()).unwrap().winograd_fused_wins();
        assert!(fused(32, 64, 64, 56)); // ResNet-50's 64-channel 3×3 at batch 32: 1.64× CoopF16
        assert!(fused(1, 64, 64, 20)); // 4 workgroups: 1.23×
        assert!(fused(1, 32, 32, 80)); // YOLOv8n's 32-channel block: 1.79×
        assert!(fused(1, 80, 80, 20)); // 8 workgroups: 1.09×
        assert!(fused(16, 128, 128, 20)); // 100 workgroups: 1.03× WinogradCoop
        assert!(fused(2, 112, 112, 56)); // 98 workgroups: 2.09× CoopF16
        // v39: small grids of 128 input channels on 16 tiles a workgroup (0.69× and 0.72× on 32).
        assert!(fused(1, 128, 128, 64)); // 1.23× WinogradCoop
        assert!(fused(1, 128, 80, 40)); // 80 channels a workgroup: 1.29× CoopF16
        // The workgroup shapes: (tiles, channels).
        let shape = |n, ic, oc, hw| {
            let s = geo(&[n, ic, hw, hw], &[oc, ic, 3, 3], same()).unwrap().winograd_fused_shape();
            (s.tiles, s.channels)
        };
        assert_eq!(shape(16, 64, 80, 80), (32, 80)); // YOLOv8n's class head at batch 16: 1.37×
        assert_eq!(shape(1, 80, 80, 80), (16, 80)); // at batch 1, 50 groups of 32 tiles: 2.0×
        assert_eq!(shape(16, 64, 64, 80), (32, 64)); // 800 groups
        assert_eq!(shape(4, 64, 64, 28), (16, 64)); // 25 groups: 1.47×
        assert_eq!(shape(1, 48, 48, 112), (32, 64)); // 98 groups: 16 tiles were 0.81×
        assert_eq!(shape(2, 112, 112, 56), (32, 64)); // 98 workgroups of 32 tiles: 16 were 0.76×
        assert_eq!(shape(1, 128, 128, 64), (16, 64)); // 64 workgroups of 32 tiles
        assert_eq!(shape(1, 32, 72, 20), (16, 80)); // 72 output channels pad to 80, not 128
        assert_eq!(shape(1, 32, 96, 20), (16, 64)); // 96 pad to 128 either way
        assert!(!fused(1, 256, 64, 20)); // 256 input channels: 0.34× WinogradCoop
        assert!(!fused(1, 64, 256, 64)); // 256 output channels (4 transforms of each input)
        assert!(!fused(8, 16, 16, 64)); // 16 channels: not measured
        assert!(!strided.winograd_fused_wins());
        // R45, channels-last tensors: 80 input channels or fewer on 128 groups of 32 tiles or fewer.
        let cl =
            |n, ic, oc, hw| geo(&[n, ic, hw, hw], &[oc, ic, 3, 3], same()).unwrap().winograd_fused_wins_channels_last();
        assert!(cl(1, 32, 32, 80)); // YOLOv8n's 32-channel block: 1.98× CoopNhwc (50 groups)
        assert!(cl(1, 48, 48, 112)); // 98 groups: 1.46×
        assert!(!cl(8, 64, 64, 56)); // 196 groups: 0.98×
        assert!(!cl(1, 128, 80, 40)); // 128 input channels: 0.96×
        // Few output channels with short K where the staged tiles would run (R32): a 3→16 stem
        // at 400², batch 2 (80,000 output pixels; R47 takes YOLOv8n's at 640² first),
        // MobileNetV3's 16→16 1×1 at 112² at batch 32, 32→32 1×1 at 160² at batch 16; not 48
        // output channels, K 48 on 32, the batch-1 grids of R27, ResNet's 3→64 7×7 stem.
        let oc4 = |input: &[usize], weight: &[usize], o: ConvOptions| geo(input, weight, o).unwrap().planned_kernel();
        let s2 = || d().stride(&[2]).padding(&[1]);
        assert_eq!(oc4(&[2, 3, 400, 400], &[16, 3, 3, 3], s2()), ConvKernel::GroupedOc4);
        // (R37 takes the 1×1 ones on planes of whole vec4s first; R32 keeps the others.)
        assert_eq!(oc4(&[32, 16, 111, 111], &[16, 16, 1, 1], d()), ConvKernel::GroupedOc4);
        assert_eq!(oc4(&[16, 32, 159, 159], &[32, 32, 1, 1], d()), ConvKernel::GroupedOc4);
        assert_ne!(oc4(&[32, 32, 112, 112], &[48, 32, 1, 1], d()), ConvKernel::GroupedOc4);
        assert_ne!(oc4(&[16, 48, 160, 160], &[32, 48, 1, 1], d()), ConvKernel::GroupedOc4);
        // R37: 1×1 layers of up to 72 channels in and 32 out beyond R27's grids (MobileNetV3's
        // 16→16 and 72→24 at batch 32, YOLOv8n's 32→32 and 48→32 at batch 16) stream vec4s…
        for (input, oc) in
            [([32, 16, 112, 112], 16), ([32, 72, 56, 56], 24), ([16, 32, 160, 160], 32), ([16, 48, 160, 160], 32)]
        {
            assert_eq!(oc4(&input, &[oc, input[1], 1, 1], d()), ConvKernel::PointwiseVec4, "{input:?} {oc}");
        }
        // …and layers of up to 32 channels in and 144 out whose last 64-row tile is partly empty
        // (MobileNetV3's 24→72 and MobileNetV2's 16→96 and 24→144 at batch 32, RegNetY's 32→48
        // at 112²)…
        for (input, oc) in
            [([32, 24, 56, 56], 72), ([32, 16, 112, 112], 96), ([32, 24, 56, 56], 144), ([32, 32, 112, 112], 48)]
        {
            assert_eq!(oc4(&input, &[oc, input[1], 1, 1], d()), ConvKernel::PointwiseVec4, "{input:?} {oc}");
        }
        // …not grouped layers, nor 1D layers (a 64→32 1×1 over 16 000 samples at batch 32: never
        // measured; R50's tiles).
        assert_eq!(oc4(&[32, 64, 16000], &[32, 64, 1], d()), ConvKernel::GemmM64K16);
        assert_ne!(oc4(&[32, 64, 56, 56], &[32, 32, 1, 1], d().groups(2)), ConvKernel::PointwiseVec4);
        assert_eq!(oc4(&[1, 72, 56, 56], &[24, 72, 1, 1], d()), ConvKernel::GemmSmallK32);
        // R38: on R27's grids, up to 32 input channels on planes of 56² or more split K over
        // vec4 streams (MobileNetV3's 16→16 at 112², MobileNetV2's 24→144 at 56²); not 48 input
        // channels, nor smaller planes (MobileNetV2's 32→192 at 28²), nor 1D layers.
        assert_eq!(oc4(&[1, 16, 112, 112], &[16, 16, 1, 1], d()), ConvKernel::PointwiseVec4Split);
        assert_eq!(oc4(&[1, 24, 56, 56], &[144, 24, 1, 1], d()), ConvKernel::PointwiseVec4Split);
        assert_eq!(oc4(&[1, 48, 56, 56], &[48, 48, 1, 1], d()), ConvKernel::GemmSmallK32);
        assert_eq!(oc4(&[1, 32, 28, 28], &[192, 32, 1, 1], d()), ConvKernel::GemmSmallK32);
        assert_eq!(oc4(&[1, 32, 12_544], &[32, 32, 1], d()), ConvKernel::GemmSmallK32);
        assert_eq!(oc4(&[8, 3, 224, 224], &[64, 3, 7, 7], d().stride(&[2]).padding(&[3])), ConvKernel::GemmN64K16);
        // They count as GEMM-shaped for the tensor cores where f16 is allowed, as before R32.
        assert!(geo(&[1, 3, 640, 640], &[16, 3, 3, 3], s2()).unwrap().tensor_core_candidate());
        // Not measured on 1D layers: a 1→32 1D stem over 400 000 samples is not R32's (R57's).
        assert_ne!(oc4(&[1, 1, 400_000], &[32, 1, 10], d().stride(&[5])), ConvKernel::GroupedOc4);
        // Depthwise on widths that are multiples of 4: vec4 quads, 4 rows per thread for one or
        // two waves, else 2 while that leaves 2^17 threads, else 1; at most 2 rows above 9 taps.
        let dw = |n, c: u32, h, s, k: usize| {
            let (cu, o) = (c as usize, d().groups(c).padding(&[k as u32 / 2]).stride(&[s]));
            geo(&[n, cu, h, h], &[cu, 1, k, k], o).unwrap()
        };
        let quads = |g: ConvGeometry| (g.planned_kernel(), g.rows_per_thread_depthwise_vec4());
        assert_eq!(quads(dw(8, 144, 56, 1, 3)), (ConvKernel::DepthwiseVec4, 4));
        assert_eq!(quads(dw(32, 144, 56, 1, 3)), (ConvKernel::DepthwiseVec4, 2));
        assert_eq!(quads(dw(8, 144, 56, 2, 3)), (ConvKernel::DepthwiseVec4, 1));
        assert_eq!(quads(dw(1, 1024, 24, 1, 3)), (ConvKernel::DepthwiseVec4, 1));
        assert_eq!(quads(dw(8, 96, 56, 1, 7)), (ConvKernel::DepthwiseVec4, 2));
        // Other widths: row runs (8 rows when that leaves 2^18+ threads, else 4 for 2^17+,
        // 2 for 2^16+, else 1; at most 2 above 9 taps), except 25+ taps on 8+ rows of 32+
        // columns: tiled.
        let rows = |g: ConvGeometry| (g.planned_kernel(), g.rows_per_thread_depthwise_rows());
        assert_eq!(rows(dw(8, 144, 58, 1, 3)), (ConvKernel::DepthwiseRows, 8));
        assert_eq!(rows(dw(8, 144, 30, 1, 3)), (ConvKernel::DepthwiseRows, 4));
        assert_eq!(rows(dw(1, 256, 23, 1, 3)), (ConvKernel::DepthwiseRows, 2));
        assert_eq!(rows(dw(1, 64, 23, 1, 3)), (ConvKernel::DepthwiseRows, 1));
        assert_eq!(rows(dw(64, 96, 7, 1, 7)), (ConvKernel::DepthwiseRows, 2));
        // 8 rows preferred, but their window (7·50 + 3 rows × 3 taps = 1059) is over the unroll
        // limit: 4 rows (153 × 3).
        let tall_stride = geo(&[1, 4096, 400, 70], &[4096, 1, 3, 3], d().groups(4096).padding(&[1]).stride(&[50, 1]));
        assert_eq!(rows(tall_stride.unwrap()), (ConvKernel::DepthwiseRows, 4));
        assert_eq!(dw(8, 96, 57, 1, 7).planned_kernel(), ConvKernel::DepthwiseTiled);
        // Under 32 columns (EfficientNet-B0's and ConvNeXt-T's 14² stages), row runs; from 32
        // columns (33: no vec4 quads), tiled.
        assert_eq!(rows(dw(32, 672, 14, 1, 5)), (ConvKernel::DepthwiseRows, 2));
        assert_eq!(rows(dw(1, 384, 14, 1, 7)).0, ConvKernel::DepthwiseRows);
        assert_eq!(dw(8, 96, 31, 1, 5).planned_kernel(), ConvKernel::DepthwiseRows);
        assert_eq!(dw(8, 96, 33, 1, 5).planned_kernel(), ConvKernel::DepthwiseTiled);
        // The 8-wide kernel for f16 tensors: widths of whole runs of 8, windows of up to four
        // runs (5×5 at stride 3: 7 · 3 + 4 + 1 lanes + an offset of 6, exactly; 7×7 at stride 3
        // is too wide for either kernel).
        let vec8 =
            |input: &[usize], k: usize, o: ConvOptions| geo(input, &[16, 1, k, k], o).unwrap().depthwise_vec8_fit();
        assert!(vec8(&[1, 16, 24, 24], 3, d().groups(16).padding(&[1])));
        assert!(vec8(&[1, 16, 32, 32], 7, d().groups(16).padding(&[3])));
        assert!(vec8(&[1, 16, 64, 64], 3, d().groups(16).padding(&[1]).stride(&[2])));
        assert!(!vec8(&[1, 16, 28, 28], 3, d().groups(16).padding(&[1])));
        assert!(!vec8(&[1, 16, 24, 20], 3, d().groups(16).padding(&[1])));
        assert!(vec8(&[1, 16, 96, 96], 5, d().groups(16).padding(&[2]).stride(&[3])));
        // Its rows: 4 from 2^17 threads of 4 rows, where the 4-wide kernel takes 2 (MobileNetV2's
        // 32-channel 3×3 at 112² at batch 32, DaViT's first stage at batch 8)…
        let rows8 = |n, c: usize, hw| geo(&[n, c, hw, hw], &[c, 1, 3, 3], d().groups(c as u32).padding(&[1])).unwrap();
        for (n, c, hw) in [(32, 32, 112), (8, 128, 192)] {
            assert_eq!(rows8(n, c, hw).rows_per_thread_depthwise_vec4(), 2);
            assert_eq!(rows8(n, c, hw).rows_per_thread_depthwise_vec8(), 4);
        }
        // …else as the 4-wide kernel (batch 1: 1 row).
        assert_eq!(
            rows8(1, 144, 56).rows_per_thread_depthwise_vec8(),
            rows8(1, 144, 56).rows_per_thread_depthwise_vec4()
        );
        assert!(!vec8(&[1, 16, 96, 96], 7, d().groups(16).padding(&[3]).stride(&[3])));
        assert_eq!(
            geo(&[8, 128, 56, 56], &[128, 4, 3, 3], d().groups(32)).unwrap().planned_kernel(),
            ConvKernel::GroupedOc4
        );
        assert_eq!(
            geo(&[8, 256, 28, 28], &[256, 8, 3, 3], d().groups(32)).unwrap().planned_kernel(),
            ConvKernel::GroupedOc4
        );
        // Three output channels per group: the depthwise kernel's channel loop.
        assert_eq!(
            geo(&[8, 96, 56, 56], &[96, 3, 3, 3], d().groups(32)).unwrap().planned_kernel(),
            ConvKernel::Depthwise
        );
        // Grids of under 66 tiles split down to 16 8-deep K-tiles a slice (R23), where R27 leaves
        // them to the staged tiles: forced to `GemmM64K32`, ResNet-50's 1024→512 1×1 at 14² (16
        // tiles of 64×128, K 1024) splits in 8; at batch 8 (over 66 tiles) R3 holds (no split
        // under K 1024).
        let r50_1024 = geo(&[1, 1024, 14, 14], &[512, 1024, 1, 1], d()).unwrap();
        let m64_k32 = ConvKernel::GemmM64K32;
        assert_eq!(r50_1024.gemm_split_k(m64_k32, r50_1024.planned_tile_n(m64_k32)), 8);
        let wide = geo(&[8, 512, 28, 28], &[256, 512, 1, 1], d()).unwrap();
        assert_eq!(plan(&wide), (ConvKernel::GemmK16, 2));
        // The small-grid tiles (R27). Under half a wave of 64×64 tiles, any K: ResNet-50's
        // 1024→512 1×1 at 14² (32 tiles) in 2 K-slices, MobileNetV2's last 1×1 (K 960 on 5
        // tiles) in 2, ResNet-50's 512→256 1×1 at 28² (52 tiles, K 512), RegNetY's grouped 3×3
        // (37 tiles), DCGAN's last transposed layer (64 tiles), YOLOv8n's 64→64 3×3 at 40² (25 tiles,
        // K 576 in 2 slices).
        let small_plan =
            |input: &[usize], weight: &[usize], opts: ConvOptions| plan(&geo(input, weight, opts).unwrap());
        let k32 = ConvKernel::GemmSmallK32;
        assert_eq!(plan(&r50_1024), (k32, 2));
        assert_eq!(small_plan(&[1, 960, 7, 7], &[320, 960, 1, 1], d()), (k32, 2));
        assert_eq!(small_plan(&[1, 512, 28, 28], &[256, 512, 1, 1], d()), (k32, 1));
        let regnet_grouped = d().groups(37).stride(&[2]).padding(&[1]);
        assert_eq!(small_plan(&[1, 888, 14, 14], &[888, 24, 3, 3], regnet_grouped), (k32, 1));
        let dcgan_last = d().transposed(true).stride(&[2]).padding(&[1]);
        assert_eq!(small_plan(&[1, 64, 32, 32], &[64, 3, 4, 4], dcgan_last), (k32, 1));
        assert_eq!(small_plan(&[1, 64, 40, 40], &[64, 64, 3, 3], d().padding(&[1])), (k32, 2));
        // Under two waves, K under 1024: 16→16 1×1 at 112² (196 tiles, K 16), a 3-channel 3×3
        // stem (196 tiles, K 27), 256→256 1×1 at 56² (196 tiles), 16→64 3×3 at 80² (100 tiles,
        // K 144); not K 1280+ there (the diffusion UNet's 1280-channel 3×3 at 16², 80 tiles).
        // (R38 then streams the 16→16 1×1 layer on `pointwise_vec4_split`.)
        let kernel = |input: &[usize], weight: &[usize], opts: ConvOptions| small_plan(input, weight, opts).0;
        let r27_takes = |input: &[usize], weight: &[usize]| {
            let g = geo(input, weight, d()).unwrap();
            g.gemm_small_k32_wins(g.gemm_grid((64, 64)).iter().product())
        };
        assert!(r27_takes(&[1, 16, 112, 112], &[16, 16, 1, 1]));
        assert_eq!(kernel(&[1, 16, 112, 112], &[16, 16, 1, 1], d()), ConvKernel::PointwiseVec4Split);
        assert_eq!(kernel(&[1, 3, 224, 224], &[16, 3, 3, 3], d().stride(&[2]).padding(&[1])), k32);
        assert_eq!(kernel(&[1, 256, 56, 56], &[256, 256, 1, 1], d()), k32);
        assert_eq!(kernel(&[1, 16, 80, 80], &[64, 16, 3, 3], d().padding(&[1])), k32);
        assert_ne!(kernel(&[1, 1280, 16, 16], &[1280, 1280, 3, 3], d().padding(&[1])), k32);
        // 264–1023 tiles: ≤ 32 channels with K ≤ 256 (YOLOv8n's 32→32 1×1 at 160², 400 tiles),
        // or ≤ 96 with K ≤ 32 (MobileNetV2's 16→96 1×1 at 112², 392 tiles); not 40 channels of K 72
        // (MobileNetV3's 72→40 1×1 at 28², batch 32), nor 320 channels of K 320 (a UNet's 1×1 at
        // 64², 320 tiles), nor K 576 (64→64 3×3 at 56², batch 8: 392 tiles), nor 1024+ tiles
        // (YOLOv8n's 3→16 stem at 640², 1600).
        assert!(r27_takes(&[1, 32, 160, 160], &[32, 32, 1, 1]));
        assert!(r27_takes(&[1, 16, 112, 112], &[96, 16, 1, 1]));
        assert_ne!(kernel(&[32, 72, 28, 28], &[40, 72, 1, 1], d()), k32);
        assert_ne!(kernel(&[1, 4, 64, 64], &[512, 4, 3, 3], d().padding(&[1])), k32);
        assert_ne!(kernel(&[1, 320, 64, 64], &[320, 320, 1, 1], d()), k32);
        assert_ne!(kernel(&[8, 64, 56, 56], &[64, 64, 3, 3], d().padding(&[1])), k32);
        assert_ne!(kernel(&[1, 3, 640, 640], &[16, 3, 3, 3], d().stride(&[2]).padding(&[1])), k32);
        assert_ne!(kernel(&[8, 256, 14, 14], &[1024, 256, 1, 1], d()), k32);
        // Over 400 M multiply-adds, even under half a wave: pix2pix's 128→256 k4 s2 on 64² inputs
        // (64 tiles, 537 M), its 512→512 on 8² inputs at batch 16 (32 tiles, 1074 M), the
        // diffusion UNet's 640-channel 3×3 stride 2 at 32² (40 tiles, 943 M).
        let k4s2 = d().stride(&[2]).padding(&[1]);
        assert_ne!(kernel(&[1, 128, 64, 64], &[256, 128, 4, 4], k4s2.clone()), k32);
        assert_ne!(kernel(&[16, 512, 8, 8], &[512, 512, 4, 4], k4s2), k32);
        assert_ne!(kernel(&[1, 640, 32, 32], &[640, 640, 3, 3], d().stride(&[2]).padding(&[1])), k32);
        // Few output channels (no GEMM tile worth it otherwise) with K ≥ 256 on under two waves
        // of tiles: a UNet's 320→4 output layer at batch 1 (64 tiles), not at batch 8 (512, R43's
        // `few_oc`); not YOLOv8n's 16→1 box decoder (K 16), which stays direct.
        let unet_out = d().padding(&[1]);
        assert_eq!(kernel(&[1, 320, 64, 64], &[4, 320, 3, 3], unet_out.clone()), k32);
        // The tensor-core kernels take GEMM-shaped layers where f16 is allowed, not these.
        let unet_out_1 = geo(&[1, 320, 64, 64], &[4, 320, 3, 3], unet_out.clone()).unwrap();
        assert!(!unet_out_1.tensor_core_candidate());
        assert!(geo(&[1, 512, 28, 28], &[256, 512, 1, 1], d()).unwrap().tensor_core_candidate());
        // Transposed layers on 256+ tensor-core workgroups only (R29): the diffusion UNet's
        // 128→64 k2 s2 at batch 8 (512) and pix2pix's 1024→256 up layer at batch 16 (256), not
        // the DCGAN 256→128 k4 s2 at batch 8 (64) nor pix2pix's 1024→512 at batch 16 (128).
        let t = |x: &[usize], w: &[usize], p: u32| {
            let opts = d().transposed(true).stride(&[2]).padding(&[p]);
            geo(x, w, opts).unwrap().tensor_core_candidate()
        };
        assert!(t(&[8, 128, 64, 64], &[128, 64, 2, 2], 0));
        assert!(t(&[16, 1024, 16, 16], &[1024, 256, 4, 4], 1));
        assert!(!t(&[8, 256, 16, 16], &[256, 128, 4, 4], 1));
        assert!(!t(&[16, 1024, 8, 8], &[1024, 512, 4, 4], 1));
        // RGB outputs of transposed layers that R27 leaves to the staged tiles take the
        // few-output-channel kernel, K split (R30): pix2pix's 128→3 at batch 1 and 16, DCGAN's
        // 64→3 at batch 64; DCGAN's at batch 1 stays on R27's small tiles; under 16 input
        // channels a group, the GEMM. With f16 allowed, the tensor cores take them on 256+
        // workgroups (all three here).
        let rgb = |n: usize, ic: usize, hw: usize| {
            geo(&[n, ic, hw, hw], &[ic, 3, 4, 4], d().transposed(true).stride(&[2]).padding(&[1])).unwrap()
        };
        for (n, ic, hw) in [(1, 128, 128), (16, 128, 128), (64, 64, 32)] {
            assert_eq!(rgb(n, ic, hw).planned_kernel(), ConvKernel::TransposedFewOc, "{n} {ic} {hw}");
            assert!(rgb(n, ic, hw).tensor_core_candidate(), "{n} {ic} {hw}");
        }
        assert_eq!(rgb(1, 64, 32).planned_kernel(), k32);
        assert!(rgb(4, 8, 64).planned_kernel().is_gemm(), "{:?}", rgb(4, 8, 64).planned_kernel());
        assert_eq!(kernel(&[8, 320, 64, 64], &[4, 320, 3, 3], unet_out), ConvKernel::FewOc);
        assert_eq!(kernel(&[1, 16, 4, 8400], &[1, 16, 1, 1], d()), ConvKernel::DirectVec4);
        // A 1D 1-channel stem with 16+ outputs is not depthwise (R24): GEMM tiles, or R57's
        // register blocks for 32+ at K ≤ 10; with fewer, or in 2D, depthwise.
        let conv1d = |oc| geo(&[1, 1, 16000], &[oc, 1, 10], d().stride(&[5])).unwrap().planned_kernel();
        assert!(matches!(conv1d(16), ConvKernel::GemmSmallK32) || conv1d(16).is_gemm(), "{:?}", conv1d(16));
        assert_eq!(conv1d(32), ConvKernel::DirectBlock);
        assert_eq!(conv1d(512), ConvKernel::DirectBlock);
        assert!(matches!(conv1d(8), ConvKernel::Depthwise | ConvKernel::DepthwiseRows), "{:?}", conv1d(8));
        let gray_stem = geo(&[1, 1, 64, 64], &[32, 1, 3, 3], d().padding(&[1])).unwrap().planned_kernel();
        assert!(!gray_stem.is_gemm(), "{gray_stem:?}");
        // At most 4 output pixels (R25): squeeze-and-excitation FCs that were GEMMs, and those of
        // K 128+ that were direct; short K on few channels stays direct; 5 pixels, depthwise and
        // transposed layers are left to the other rules.
        let fc = |n, ic, oc| geo(&[n, ic, 1, 1], &[oc, ic, 1, 1], d()).unwrap().planned_kernel();
        assert_eq!(fc(1, 30, 336), ConvKernel::Gemv);
        assert_eq!(fc(4, 1152, 48), ConvKernel::Gemv);
        assert_eq!(fc(1, 240, 10), ConvKernel::Gemv);
        assert_eq!(fc(1, 96, 4), ConvKernel::DirectVec4);
        assert!(fc(5, 1152, 48).is_gemm_shaped(), "{:?}", fc(5, 1152, 48));
        let dw_1x1 = geo(&[1, 64, 1, 1], &[64, 1, 3, 3], d().groups(64).padding(&[1])).unwrap();
        assert_ne!(dw_1x1.planned_kernel(), ConvKernel::Gemv);
        let innermost = geo(&[1, 512, 2, 2], &[512, 512, 4, 4], d().stride(&[2]).padding(&[1])).unwrap();
        assert_eq!(
            (innermost.planned_kernel(), innermost.gemv_lanes(), innermost.gemv_workgroups()),
            (ConvKernel::Gemv, 256, 512)
        );
        let up = geo(&[1, 512, 1, 1], &[512, 512, 4, 4], d().transposed(true).stride(&[2]).padding(&[1])).unwrap();
        assert_eq!(up.planned_kernel(), ConvKernel::GemmSmallK32);
    }

    /// R33 and R34 on the layers they were fitted on (v30 call D, forced kernels against the
    /// planner in one binary), and the neighbours they leave alone.
    #[test]
    fn wide_1d_tiles_and_pointwise_short_k() {
        let d = ConvOptions::default;
        let kernel = |input: &[usize], weight: &[usize], opts| geo(input, weight, opts).unwrap().planned_kernel();
        let s2 = || d().stride(&[2]);
        // R33: wav2vec 2.0's 512→512 k3 s2 convs at 16k, 8k and 4k outputs and Whisper's
        // stride-2 conv (48 workgroups of 128×128, K 1536: split) take the 128×128 tiles…
        for w in [31_999, 15_999, 7_999, 3_001] {
            assert_eq!(kernel(&[1, 512, w], &[512, 512, 3], s2()), ConvKernel::GemmK16, "width {w}");
        }
        assert_eq!(kernel(&[1, 512, 3000], &[512, 512, 3], s2().padding(&[1])), ConvKernel::GemmK16);
        assert_eq!(kernel(&[16, 80, 3000], &[512, 80, 3], d().padding(&[1])), ConvKernel::GemmK16);
        // …but not Whisper's 80→512 stem at batch 1 (96 such tiles, K 240 under 512), 2D layers
        // taller than one row with K under R36's 1024 (not measured) or 64 output channels (a
        // half-empty 128-row tile).
        assert_ne!(kernel(&[1, 80, 3000], &[512, 80, 3], d().padding(&[1])), ConvKernel::GemmK16);
        assert_ne!(kernel(&[1, 256, 8, 1000], &[512, 256, 1, 3], s2()), ConvKernel::GemmK16);
        // The same 1D layer written as a 2D convolution of height 1 is planned the same way.
        let as_2d = d().stride(&[1, 2]);
        assert_eq!(kernel(&[1, 512, 1, 15_999], &[512, 512, 1, 3], as_2d), ConvKernel::GemmK16);
        // 1D pointwise layers take R50, long K on small grids R14 (not measured with R33), or
        // R54 where 128×128 tiles split in K fill a wave (32 tiles in 8 slices here).
        assert_eq!(kernel(&[8, 256, 1000], &[512, 256, 1], d()), ConvKernel::GemmK16);
        assert_eq!(kernel(&[1, 1024, 8000], &[128, 1024, 3], s2()), ConvKernel::GemmK16);
        assert_ne!(kernel(&[1, 512, 15_999], &[64, 512, 3], s2()), ConvKernel::GemmK16);
        // Pointwise layers at batch 32 take R50's 16-deep tiles: 64×128 for 64 output channels
        // or fewer and where the last 128-row tile would be over 15 % empty (96, 144, 192), else
        // 128×128. (R37 plans the first two on `pointwise_vec4` ahead of the staged tiles.)
        let pointwise = |ic, oc, hw| {
            ConvGeometry::new(&[32, ic, hw, hw], &[oc, ic, 1, 1], None, &d()).unwrap().staged_gemm_kernel()
        };
        assert_eq!(pointwise(16, 96, 112), ConvKernel::GemmM64K16);
        assert_eq!(pointwise(24, 144, 56), ConvKernel::GemmM64K16);
        assert_eq!(pointwise(48, 64, 80), ConvKernel::GemmM64K16);
        assert_eq!(pointwise(32, 192, 28), ConvKernel::GemmM64K16);
        assert_eq!(pointwise(64, 256, 56), ConvKernel::GemmK16);
    }

    #[test]
    fn zoo_extra_rules() {
        let d = ConvOptions::default;
        let plan =
            |input: &[usize], weight: &[usize], opts: ConvOptions| geo(input, weight, opts).unwrap().planned_kernel();
        let same = || d().padding(&[1]);
        // R57 in 2D: single-channel stems, strided or of 5×5+ filters, into 32+ channels — a
        // grayscale ResNet's 7×7 s2 (batch 16 and 1), Conformer's 3×3 s2 over 1000 × 80 mel
        // frames, ESPCN's 5×5; not 3×3 stride-1 stems, 4 or 6 output channels, nor 31.
        let s2 = || d().stride(&[2]).padding(&[3]);
        assert_eq!(plan(&[16, 1, 224, 224], &[64, 1, 7, 7], s2()), ConvKernel::DirectBlock);
        assert_eq!(plan(&[1, 1, 512, 512], &[64, 1, 7, 7], s2()), ConvKernel::DirectBlock);
        assert_eq!(plan(&[16, 1, 1000, 80], &[256, 1, 3, 3], d().stride(&[2])), ConvKernel::DirectBlock);
        assert_eq!(plan(&[16, 1, 224, 224], &[64, 1, 5, 5], d().padding(&[2])), ConvKernel::DirectBlock);
        assert_eq!(plan(&[4, 1, 256, 256], &[64, 1, 3, 3], same()), ConvKernel::DepthwiseVec4);
        assert_ne!(plan(&[1, 1, 256, 256], &[4, 1, 2, 2], d().stride(&[2])), ConvKernel::DirectBlock);
        assert_ne!(plan(&[256, 1, 32, 32], &[6, 1, 5, 5], d()), ConvKernel::DirectBlock);
        assert_ne!(plan(&[16, 1, 224, 224], &[31, 1, 7, 7], s2()), ConvKernel::DirectBlock);
        // ... nor strided stems of under 9 taps, more than 256 channels (not measured), and where
        // f16 is allowed they keep `DirectBlock` (the depthwise kernels before, never the tensor
        // cores).
        assert_ne!(plan(&[1, 1, 256, 256], &[64, 1, 2, 2], d().stride(&[2])), ConvKernel::DirectBlock);
        assert_ne!(plan(&[16, 1, 224, 224], &[512, 1, 7, 7], s2()), ConvKernel::DirectBlock);
        assert!(!geo(&[16, 1, 224, 224], &[64, 1, 7, 7], s2()).unwrap().tensor_core_candidate());
        // ... nor layers of at most 4 output pixels (`Gemv`'s in 1D), which keep their kernels.
        assert_eq!(plan(&[1, 1, 14, 14], &[64, 1, 7, 7], d().stride(&[7])), ConvKernel::DepthwiseRows);
        // R58: 8–32 output channels, K over 144, on large grids — a 3×3 at stride 2 into 32,
        // a 5×5 into 32 at 128², HiFi-GAN's 32-channel k7 1D blocks (ESRGAN b4's and DenseNet-121
        // b32's growth layers, EfficientNetV2-S's 24→24, ESPCN's 64→32 and 32→9: R60 since v55;
        // Mask R-CNN's 256→12 box head at 200 × 272: R64 since v60; at 199 × 273, planes of
        // part vec4s, R58 keeps it).
        assert_eq!(plan(&[4, 64, 256, 256], &[32, 64, 3, 3], same().stride(&[2])), ConvKernel::DirectBlock);
        assert_eq!(plan(&[4, 32, 128, 128], &[32, 32, 5, 5], d().padding(&[2])), ConvKernel::DirectBlock);
        assert_eq!(plan(&[2, 256, 199, 273], &[12, 256, 1, 1], d()), ConvKernel::DirectBlock);
        assert_eq!(plan(&[4, 32, 65_536], &[32, 32, 7], d().padding(&[3])), ConvKernel::DirectBlock);
        // Not on smaller grids (ESRGAN b1's 3×3 layers, which R60 takes; DenseNet's 14² block),
        // K over 1440, 33+ or under 8 output channels, 1D pointwise layers of 16+ channels,
        // grouped or transposed layers (SqueezeNet's 2D squeezes: R65 since v60).
        assert_ne!(plan(&[1, 64, 128, 128], &[32, 64, 3, 3], same()), ConvKernel::DirectBlock);
        assert_ne!(plan(&[32, 128, 14, 14], &[32, 128, 3, 3], same()), ConvKernel::DirectBlock);
        assert_ne!(plan(&[4, 192, 128, 128], &[32, 192, 3, 3], same()), ConvKernel::DirectBlock);
        assert_ne!(plan(&[16, 64, 224, 224], &[48, 64, 3, 3], same()), ConvKernel::DirectBlock);
        assert_ne!(plan(&[16, 32, 224, 224], &[6, 32, 3, 3], same()), ConvKernel::DirectBlock);
        assert_ne!(plan(&[4, 256, 65_536], &[32, 256, 1], d()), ConvKernel::DirectBlock);
        assert_ne!(plan(&[16, 64, 224, 224], &[32, 32, 3, 3], same().groups(2)), ConvKernel::DirectBlock);
        // R60: 3×3 stride-1 layers of 16+ channels into 9–32 on grids of 16,384+ pixels and 28+
        // columns — ESRGAN's growth layers at 128² (batch 4 and 1), EfficientNetV2-S's 24→24 at
        // 192², ESPCN's 64→32 and 32→9 at 224², Inception-v3's 32→32 at 149², YOLOv8n's 32→32 at
        // 80² (batch 16) and 16→16 at 160² (batch 1), DenseNet-121 b32's 128→32 at 56² and 28².
        assert_eq!(plan(&[4, 64, 128, 128], &[32, 64, 3, 3], same()), ConvKernel::DirectTiled);
        assert_eq!(plan(&[1, 160, 128, 128], &[32, 160, 3, 3], same()), ConvKernel::DirectTiled);
        assert_eq!(plan(&[16, 24, 192, 192], &[24, 24, 3, 3], same()), ConvKernel::DirectTiled);
        assert_eq!(plan(&[16, 64, 224, 224], &[32, 64, 3, 3], same()), ConvKernel::DirectTiled);
        assert_eq!(plan(&[16, 32, 224, 224], &[9, 32, 3, 3], same()), ConvKernel::DirectTiled);
        assert_eq!(plan(&[32, 32, 149, 149], &[32, 32, 3, 3], d()), ConvKernel::DirectTiled);
        assert_eq!(plan(&[16, 32, 80, 80], &[32, 32, 3, 3], same()), ConvKernel::DirectTiled);
        assert_eq!(plan(&[1, 16, 160, 160], &[16, 16, 3, 3], same()), ConvKernel::DirectTiled);
        assert_eq!(plan(&[32, 128, 56, 56], &[32, 128, 3, 3], same()), ConvKernel::DirectTiled);
        assert_eq!(plan(&[32, 128, 28, 28], &[32, 128, 3, 3], same()), ConvKernel::DirectTiled);
        // Not under 9 channels out or 16 in, over 32 out, K over 1440 (a 192→32, K 1728: longer
        // than any measured), under 28 columns (DenseNet's 14² block), under 16,384 pixels
        // (YOLOv8n's 32→32 at 80², batch 1) or, under 16 channels out, 102,400, other filters,
        // strides or dilations.
        assert_ne!(plan(&[4, 192, 128, 128], &[32, 192, 3, 3], same()), ConvKernel::DirectTiled);
        assert_ne!(plan(&[1, 32, 128, 128], &[9, 32, 3, 3], same()), ConvKernel::DirectTiled);
        assert_ne!(plan(&[4, 64, 512, 512], &[3, 64, 3, 3], same()), ConvKernel::DirectTiled);
        assert_ne!(plan(&[16, 8, 160, 160], &[16, 8, 3, 3], same()), ConvKernel::DirectTiled);
        assert_ne!(plan(&[16, 64, 224, 224], &[48, 64, 3, 3], same()), ConvKernel::DirectTiled);
        assert_ne!(plan(&[32, 128, 14, 14], &[32, 128, 3, 3], same()), ConvKernel::DirectTiled);
        assert_ne!(plan(&[1, 32, 80, 80], &[32, 32, 3, 3], same()), ConvKernel::DirectTiled);
        assert_ne!(plan(&[4, 64, 128, 128], &[32, 64, 5, 5], d().padding(&[2])), ConvKernel::DirectTiled);
        assert_ne!(plan(&[4, 64, 128, 128], &[32, 64, 3, 3], same().dilation(&[2])), ConvKernel::DirectTiled);
        assert_ne!(plan(&[4, 64, 128, 128], &[32, 64, 3, 3], same().stride(&[2])), ConvKernel::DirectTiled);
        // Where f16 is allowed the tensor cores take them, as they took R58's before.
        assert!(geo(&[4, 64, 128, 128], &[32, 64, 3, 3], same()).unwrap().tensor_core_candidate());
        // R59 (R61's fallback since v57): R31's 64→64 layers take the 64×64 tiles 16 deep
        // (ResNet-50 b32's at 56², VGG-16's at 224²); 64→80 and 128→128 keep Winograd.
        let plan_2x2 = |input: &[usize], weight: &[usize], opts: ConvOptions| {
            geo(input, weight, opts).unwrap().planned_kernel_without_4x4()
        };
        assert_eq!(plan_2x2(&[32, 64, 56, 56], &[64, 64, 3, 3], same()), ConvKernel::GemmN64K16);
        assert_eq!(plan_2x2(&[16, 64, 224, 224], &[64, 64, 3, 3], same()), ConvKernel::GemmN64K16);
        assert_eq!(plan_2x2(&[16, 64, 80, 80], &[80, 64, 3, 3], same()), ConvKernel::Winograd);
        assert_eq!(plan_2x2(&[16, 128, 112, 112], &[128, 128, 3, 3], same()), ConvKernel::Winograd);
        // R15's bound: 32-deep 64×64 tiles under 512 tiles, under 384 from K 896 — Inception-v3
        // b32's 160→160 7×1 at 17² (435 tiles, K 1120) 16 deep; the default suite's 64→64 3×3
        // at 56², batch 8 (392 tiles, K 576) 32 deep.
        let tall = || d().padding(&[3, 0]);
        assert_eq!(plan(&[32, 160, 17, 17], &[160, 160, 7, 1], tall()), ConvKernel::GemmN64K16);
        assert_eq!(plan(&[32, 128, 17, 17], &[192, 128, 7, 1], tall()), ConvKernel::GemmN64K16);
        assert_eq!(plan_2x2(&[8, 64, 56, 56], &[64, 64, 3, 3], same()), ConvKernel::GemmN64K32);
    }

    /// R61 on dilated 3×3 layers: `Winograd4x4`, each of the dilation² phases tiled alone, where
    /// at least 0.4 of its tile outputs are the layer's.
    #[test]
    fn dilated_layers_take_winograd_4x4() {
        let d = ConvOptions::default;
        let dilated = |input: &[usize], weight: &[usize], rate: u32| {
            geo(input, weight, d().padding(&[rate]).dilation(&[rate])).unwrap()
        };
        // DeepLabv3-ResNet-50 b4: 256→256 at dilation 2 and 512→512 at 4 over 64² (every tile
        // full: 2 · 8 and 4 · 4 tiles of 4 a side), the ASPP's 2048→256 at 12 and 24 (phases of
        // 5–6 and 2–3 rows in tiles of 4 or 8 rows: 0.44 of them outputs).
        let layer3 = dilated(&[4, 256, 64, 64], &[256, 256, 3, 3], 2);
        assert_eq!(layer3.winograd_tile_grid_of(4), [16, 16]);
        assert_eq!(layer3.planned_kernel(), ConvKernel::Winograd4x4);
        assert_eq!(dilated(&[4, 512, 64, 64], &[512, 512, 3, 3], 4).planned_kernel(), ConvKernel::Winograd4x4);
        for rate in [12, 24] {
            let aspp = dilated(&[4, 2048, 64, 64], &[256, 2048, 3, 3], rate);
            assert_eq!(aspp.winograd_tile_grid_of(4), [24, 24], "{rate}");
            assert!((aspp.winograd_4x4_dilated_tile_share() - 4096.0 / 9216.0).abs() < 1e-12);
            assert_eq!(aspp.planned_kernel(), ConvKernel::Winograd4x4, "{rate}");
        }
        // At dilation 36 over 64² a tile holds at most 2 · 2 outputs (0.20): the GEMM tiles keep
        // it, as R31's F(2×2, 3×3), which runs no dilated filter, cannot take it.
        let sparse = dilated(&[4, 2048, 64, 64], &[256, 2048, 3, 3], 36);
        assert!(sparse.winograd_4x4_dilated_tile_share() < WINOGRAD_4X4_DILATED_MIN_TILE_SHARE);
        assert!(sparse.planned_kernel().is_gemm_shaped());
        assert!(!sparse.supports(ConvKernel::Winograd) && sparse.supports(ConvKernel::Winograd4x4));
        // R61's other bounds hold: 32 input channels, or a small layer, keep their kernels.
        assert_ne!(dilated(&[4, 32, 64, 64], &[64, 32, 3, 3], 2).planned_kernel(), ConvKernel::Winograd4x4);
        assert_ne!(dilated(&[1, 64, 16, 16], &[64, 64, 3, 3], 2).planned_kernel(), ConvKernel::Winograd4x4);
        // Where R61 takes a dilated layer but `Winograd4x4` cannot run it (a transformed weight
        // over the binding), the planner without F(4×4) gives the GEMM tiles, not F(2×2).
        assert!(layer3.planned_kernel_without_4x4().is_gemm_shaped());
    }

    /// R64 and R65: 2D pointwise layers of few output channels.
    #[test]
    fn few_channel_pointwise_layers_stream() {
        let d = ConvOptions::default;
        let plan = |input: &[usize], weight: &[usize]| geo(input, weight, d()).unwrap().planned_kernel();
        // R64: under 16 output channels — the stream's main entry point on 256+ workgroups (a
        // 96→12 layer at 160², batch 8; a U-Net's 64→2 output at 256², batch 4; YOLOv8n b16's
        // 16→1 DFL over 4 × 8400), its K split on fewer for K ≥ 64 on 16,384+ pixels (Mask R-CNN's
        // 256→3 and 256→12 heads at 200 × 272 and 100 × 136, a 128→8 layer at 128², batch 4).
        assert_eq!(plan(&[8, 96, 160, 160], &[12, 96, 1, 1]), ConvKernel::PointwiseVec4);
        assert_eq!(plan(&[4, 64, 256, 256], &[2, 64, 1, 1]), ConvKernel::PointwiseVec4);
        assert_eq!(plan(&[16, 16, 4, 8400], &[1, 16, 1, 1]), ConvKernel::PointwiseVec4);
        assert_eq!(plan(&[2, 256, 200, 272], &[3, 256, 1, 1]), ConvKernel::PointwiseVec4Split);
        assert_eq!(plan(&[2, 256, 200, 272], &[12, 256, 1, 1]), ConvKernel::PointwiseVec4Split);
        assert_eq!(plan(&[2, 256, 100, 136], &[12, 256, 1, 1]), ConvKernel::PointwiseVec4Split);
        assert_eq!(plan(&[4, 128, 128, 128], &[8, 128, 1, 1]), ConvKernel::PointwiseVec4Split);
        // Not on smaller grids (their 50 × 68 level; 1024→4 at 32², batch 8), short K on few
        // workgroups (the DFL at batch 1), planes of part vec4s, 16+ output channels, 1D layers.
        assert_eq!(plan(&[2, 256, 50, 68], &[12, 256, 1, 1]), ConvKernel::GemmSmallK32);
        assert_eq!(plan(&[8, 1024, 32, 32], &[4, 1024, 1, 1]), ConvKernel::FewOc);
        assert_eq!(plan(&[1, 16, 4, 8400], &[1, 16, 1, 1]), ConvKernel::DirectVec4);
        let streams = [ConvKernel::PointwiseVec4, ConvKernel::PointwiseVec4Split];
        assert!(!streams.contains(&plan(&[2, 256, 199, 273], &[12, 256, 1, 1])));
        assert!(!streams.contains(&plan(&[4, 256, 64, 64], &[21, 256, 1, 1])));
        let one_d = geo(&[2, 256, 54_400], &[12, 256, 1], d()).unwrap();
        assert!(!streams.contains(&one_d.planned_kernel()));
        // R65: 1×1 layers of K 64–144 into 8–32 channels on 150,000+ pixels whose planes are not
        // whole vec4s (SqueezeNet b64's 64→16 and 128→16 squeezes at 55²); not at 27² (its
        // 128→32), not K 256, and a plane of whole vec4s streams instead (R46).
        assert_eq!(plan(&[64, 64, 55, 55], &[16, 64, 1, 1]), ConvKernel::DirectBlock);
        assert_eq!(plan(&[64, 128, 55, 55], &[16, 128, 1, 1]), ConvKernel::DirectBlock);
        assert_ne!(plan(&[64, 128, 27, 27], &[32, 128, 1, 1]), ConvKernel::DirectBlock);
        assert_ne!(plan(&[64, 256, 55, 55], &[16, 256, 1, 1]), ConvKernel::DirectBlock);
        assert_eq!(plan(&[64, 64, 56, 56], &[16, 64, 1, 1]), ConvKernel::PointwiseVec4);
        // Where f16 is allowed R64's layers keep the stream (no GEMM tile is worth it there);
        // R65's count as GEMM-shaped for the tensor cores, as R58's do.
        assert!(!geo(&[2, 256, 200, 272], &[12, 256, 1, 1], d()).unwrap().tensor_core_candidate());
        assert!(geo(&[64, 64, 55, 55], &[16, 64, 1, 1], d()).unwrap().tensor_core_candidate());
    }

    #[test]
    fn tap_tiles_rules() {
        let d = ConvOptions::default;
        let plan =
            |input: &[usize], weight: &[usize], opts: ConvOptions| geo(input, weight, opts).unwrap().planned_kernel();
        // R51: 1D stems of K 11–16 (fitted on wav2vec 2.0's 1→512 k10 s5 stem, which R57 takes
        // since v53): 1→512 k16 s8 and a 2-channel k8 s4 at batch 16 and 1.
        assert_eq!(plan(&[16, 1, 160_000], &[512, 1, 16], d().stride(&[8])), ConvKernel::GemmM64K16);
        assert_eq!(plan(&[1, 2, 160_000], &[512, 2, 8], d().stride(&[4])), ConvKernel::GemmM64K16);
        // Its bounds: taps (a strided 1D 1×1 layer is not R51's), K ≤ 16 (two input channels of
        // 10 taps: K 20), and the same stem written as a 2D convolution of height 1 is R51's too.
        assert_eq!(plan(&[16, 2, 160_000], &[512, 2, 10], d().stride(&[5])), ConvKernel::GemmN64K16);
        assert_eq!(plan(&[16, 1, 1, 160_000], &[512, 1, 1, 16], d().stride(&[1, 8])), ConvKernel::GemmM64K16);
        assert_ne!(plan(&[16, 8, 160_000], &[512, 8, 1], d().stride(&[5])), ConvKernel::GemmM64K16);
        // R57: one input channel, K ≤ 10, into 32 or more channels: wav2vec 2.0's stem at batch
        // 16 and 1 (also written as 2D of height 1), 1→128 and 1→32 k7 s1 (K 7: the depthwise
        // kernel before); not 16 or 31 output channels, nor two input channels (K 12 or 10), nor
        // K 11, nor a 2D stem, nor a transposed 1D layer.
        assert_eq!(plan(&[16, 1, 160_000], &[512, 1, 10], d().stride(&[5])), ConvKernel::DirectBlock);
        assert_eq!(plan(&[1, 1, 160_000], &[512, 1, 10], d().stride(&[5])), ConvKernel::DirectBlock);
        assert_eq!(plan(&[16, 1, 1, 160_000], &[512, 1, 1, 10], d().stride(&[1, 5])), ConvKernel::DirectBlock);
        assert_eq!(plan(&[16, 1, 24_000], &[128, 1, 7], d()), ConvKernel::DirectBlock);
        assert_eq!(plan(&[1, 1, 24_000], &[32, 1, 7], d()), ConvKernel::DirectBlock);
        assert_ne!(plan(&[16, 1, 24_000], &[16, 1, 7], d()), ConvKernel::DirectBlock);
        assert_ne!(plan(&[16, 2, 160_000], &[512, 2, 6], d().stride(&[5])), ConvKernel::DirectBlock);
        assert_ne!(plan(&[16, 2, 160_000], &[512, 2, 5], d().stride(&[5])), ConvKernel::DirectBlock);
        assert_ne!(plan(&[16, 1, 160_000], &[512, 1, 11], d().stride(&[5])), ConvKernel::DirectBlock);
        assert_ne!(plan(&[16, 1, 24_000], &[31, 1, 7], d()), ConvKernel::DirectBlock);
        assert_ne!(plan(&[16, 1, 400, 400], &[512, 1, 3, 3], d()), ConvKernel::DirectBlock);
        assert_ne!(plan(&[16, 1, 24_000], &[1, 128, 7], d().transposed(true)), ConvKernel::DirectBlock);
        // R52: SD 1.5's 1280-channel 3×3 at 8², batch 1 (64 columns); at 9 × 8 (72 columns) R14's
        // tiles (10 128×128 tiles in 16 K-slices are under R54's ¾ wave).
        assert_eq!(plan(&[1, 1280, 8, 8], &[1280, 1280, 3, 3], d().padding(&[1])), ConvKernel::GemmN64K16);
        assert_eq!(plan(&[1, 2560, 8, 8], &[1280, 2560, 3, 3], d().padding(&[1])), ConvKernel::GemmN64K16);
        assert_eq!(plan(&[1, 1280, 9, 8], &[1280, 1280, 3, 3], d().padding(&[1])), ConvKernel::GemmM64K16);
        // R53: pix2pix's transposed 4×4 s2 at batch 16 (256 and 512 output channels) and
        // DCGAN's 512→256 at batch 64 on 128×128 tiles; 64 output channels, or 64 columns a phase
        // (1024→512 at 8², batch 1: R35's tiles), are not R53's.
        let up = || d().stride(&[2]).padding(&[1]).transposed(true);
        assert_eq!(plan(&[16, 1024, 16, 16], &[1024, 256, 4, 4], up()), ConvKernel::GemmK16);
        assert_eq!(plan(&[16, 1024, 8, 8], &[1024, 512, 4, 4], up()), ConvKernel::GemmK16);
        assert_eq!(plan(&[64, 512, 4, 4], &[512, 256, 4, 4], up()), ConvKernel::GemmK16);
        assert_eq!(plan(&[16, 256, 64, 64], &[256, 64, 4, 4], up()), ConvKernel::GemmN64K16);
        assert_eq!(plan(&[1, 1024, 8, 8], &[1024, 512, 4, 4], up()), ConvKernel::GemmN64K32);
        // K from 256: the U-Net's 256→128 k2 s2 up (K 256; held out in v49, 1.12–1.13× in v50
        // call B), not below; nor 1D layers (HiFi-GAN's 512→256 k16 s8 up, K 1024: its 1D ups
        // ran 0.75–1.03× on `gemm_k16` in v50 call B).
        let k2 = || d().stride(&[2]).transposed(true);
        assert_eq!(plan(&[8, 256, 128, 128], &[256, 128, 2, 2], k2()), ConvKernel::GemmK16);
        assert_ne!(plan(&[8, 192, 128, 128], &[192, 128, 2, 2], k2()), ConvKernel::GemmK16);
        let k16 = d().stride(&[8]).padding(&[4]).transposed(true);
        assert_ne!(plan(&[16, 512, 256], &[512, 256, 16], k16), ConvKernel::GemmK16);
        // R54: SD 1.5's 640→1280 at 16², batch 1 (20 tiles of 128×128 in 13 K-slices: 260
        // workgroups) and pix2pix's 512→512 s2 at 16², batch 16 (32 tiles in 8); its 640→640
        // s2 at 32² (10 tiles in 16 slices: 160 workgroups) stays on R14's 64×128 tiles.
        assert_eq!(plan(&[1, 640, 16, 16], &[1280, 640, 3, 3], d().padding(&[1])), ConvKernel::GemmK16);
        let down = || d().stride(&[2]).padding(&[1]);
        assert_eq!(plan(&[16, 512, 16, 16], &[512, 512, 4, 4], down()), ConvKernel::GemmK16);
        assert_eq!(plan(&[1, 640, 32, 32], &[640, 640, 3, 3], down()), ConvKernel::GemmM64K16);
    }

    #[test]
    fn one_tap_tiles_rule() {
        let d = ConvOptions::default;
        let one_tap = |input: &[usize], oc: usize, stride: u32| {
            geo(input, &[oc, input[1], 1, 1], d().stride(&[stride])).unwrap().one_tap_tiles()
        };
        // ResNet-50 at batch 32: 256→128 at 56² (784 tiles of 128×128: 99 % of three waves of
        // 264) and 512→128 at 28² (196, one wave) on 128×128 tiles; 512→256 at 28² (392 tiles:
        // 74 % of two waves) and 256→64 at 56² (64 output channels) on 64×128.
        assert_eq!(one_tap(&[32, 256, 56, 56], 128, 1), Some(ConvKernel::GemmK16));
        assert_eq!(one_tap(&[32, 512, 28, 28], 128, 1), Some(ConvKernel::GemmK16));
        assert_eq!(one_tap(&[32, 512, 28, 28], 256, 1), Some(ConvKernel::GemmM64K16));
        assert_eq!(one_tap(&[32, 256, 56, 56], 64, 1), Some(ConvKernel::GemmM64K16));
        // SD 1.5's 960→320 shortcut: the last 128-row tile half empty.
        assert_eq!(one_tap(&[8, 960, 32, 32], 320, 1), Some(ConvKernel::GemmM64K16));
        // Strided shortcuts: ResNet-50's (K 256 and 1024) are taken, RegNetY's 120→336 (short K)
        // and ResNet-50's at batch 1 (16 tiles, under one a multiprocessor) are not.
        assert_eq!(one_tap(&[32, 256, 56, 56], 512, 2), Some(ConvKernel::GemmK16));
        assert_eq!(one_tap(&[32, 1024, 14, 14], 2048, 2), Some(ConvKernel::GemmK16));
        assert_eq!(one_tap(&[32, 512, 28, 28], 1024, 2), Some(ConvKernel::GemmM64K16));
        assert_eq!(one_tap(&[32, 120, 28, 28], 336, 2), None);
        assert_eq!(one_tap(&[1, 1024, 14, 14], 2048, 2), None);
        // Filters with taps, padding or transposed layers are not its.
        assert_eq!(geo(&[32, 256, 56, 56], &[128, 256, 3, 3], d()).unwrap().one_tap_tiles(), None);
        assert_eq!(geo(&[32, 256, 56, 56], &[128, 256, 1, 1], d().padding(&[1])).unwrap().one_tap_tiles(), None);
        assert_eq!(geo(&[32, 256, 56, 56], &[256, 128, 1, 1], d().transposed(true)).unwrap().one_tap_tiles(), None);
    }

    #[test]
    fn deep_small_grids_take_wide_or_sliced_tiles() {
        let s2 = || ConvOptions::default().stride(&[2, 2]).padding(&[1, 1]);
        let g = |input: &[usize], weight: &[usize], opts| geo(input, weight, opts).unwrap();
        // R36: stride-2 3×3 downsamplers with K ≥ 1024 on under 132 workgroups of 128×128
        // (DaViT's 512→1024 at 48², ResNet-50's layer4 at batch 32) take those tiles 16 deep, in
        // K-slices (40 and 52 workgroups: 6 and 5 slices)…
        for (input, oc) in [([1, 512, 48, 48], 1024), ([32, 512, 14, 14], 512)] {
            let geometry = g(&input, &[oc, input[1], 3, 3], s2());
            assert_eq!(geometry.planned_kernel(), ConvKernel::GemmK16, "{input:?}");
            assert!(geometry.gemm_split_k(ConvKernel::GemmK16, 128) > 1, "{input:?}");
        }
        // …not on grids of a wave or more (DaViT's 128→256 at 192²: K 1152 but 144 workgroups),
        // nor with K under 1024 (96→192: K 864), nor on patchify-shaped layers (stride = filter,
        // no padding: DaViT's k2 s2 downsampler), nor without taps (ResNet-50's strided 1×1
        // 1024→2048 shortcut at batch 8: K 1024 on 64 workgroups; never measured there).
        assert_ne!(g(&[1, 128, 192, 192], &[256, 128, 3, 3], s2()).planned_kernel(), ConvKernel::GemmK16);
        assert_ne!(g(&[1, 96, 56, 56], &[192, 96, 3, 3], s2()).planned_kernel(), ConvKernel::GemmK16);
        let patchify = ConvOptions::default().stride(&[2, 2]);
        assert_ne!(g(&[1, 256, 96, 96], &[512, 256, 2, 2], patchify.clone()).planned_kernel(), ConvKernel::GemmK16);
        assert_ne!(g(&[8, 1024, 14, 14], &[2048, 1024, 1, 1], patchify).planned_kernel(), ConvKernel::GemmK16);
        // R35: pix2pix's 1024→512 transposed 4×4 s2 layer at 8² (32 64×64 tiles over its four
        // stride phases, K 4096) takes the 64×64 tiles 32 deep in 8 K-slices; a 1024→256 layer
        // at 16² (64 tiles, 256 columns a phase) R53's 128×128 tiles since v49 (R14's 64×128 before).
        let up = ConvOptions::default().stride(&[2, 2]).padding(&[1, 1]).transposed(true);
        let at_8 = g(&[1, 1024, 8, 8], &[1024, 512, 4, 4], up.clone());
        assert_eq!(at_8.planned_kernel(), ConvKernel::GemmN64K32);
        assert_eq!(at_8.gemm_split_k(ConvKernel::GemmN64K32, 64), 8);
        assert_eq!(g(&[1, 1024, 16, 16], &[1024, 256, 4, 4], up).planned_kernel(), ConvKernel::GemmK16);
    }

    /// R46 on the layers it was fitted on, and at its bounds: K of 144 against 145, grids of
    /// 140 workgroups against 136 (more than 32 input channels) and of 64 against 63 (at most).
    #[test]
    fn pointwise_layers_that_fill_the_grid_stream_vec4s() {
        let kernel = |input: &[usize], oc: usize| {
            let weight = [oc, input[1], 1, 1];
            geo(input, &weight, ConvOptions::default()).unwrap().planned_kernel()
        };
        // MobileNetV2's 96→24 and 144→24 projections at batch 32 (R27's split K before),
        // YOLOv8n's 80→80 at 40², batch 16, 16→64 at 112² and 32→192 at 28², batch 32 (the
        // staged tiles before), and batch-1 layers of at most 32 input channels on 75–150
        // workgroups (R38's split before).
        for (input, oc) in [
            ([32, 96, 56, 56], 24),
            ([32, 144, 56, 56], 24),
            ([16, 80, 40, 40], 80),
            ([32, 16, 112, 112], 64),
            ([32, 32, 28, 28], 192),
            ([1, 16, 112, 112], 96),
            ([1, 32, 112, 112], 48),
        ] {
            assert_eq!(kernel(&input, oc), ConvKernel::PointwiseVec4, "{input:?} → {oc}");
        }
        // K: 144 in, 145 out.
        assert_ne!(kernel(&[32, 145, 56, 56], 24), ConvKernel::PointwiseVec4);
        // Grids of 33+ input channels: 35 chunks of 128 vec4s × 4 blocks = 140 workgroups in,
        // 34 × 4 = 136 out (the staged tiles).
        let geometry = |input: &[usize], oc: usize| geo(input, &[oc, input[1], 1, 1], ConvOptions::default()).unwrap();
        assert_eq!(geometry(&[4, 64, 64, 70], 64).pointwise_workgroups(POINTWISE_WORKGROUP), 140);
        assert_eq!(kernel(&[4, 64, 64, 70], 64), ConvKernel::PointwiseVec4);
        assert_eq!(geometry(&[4, 64, 64, 68], 64).pointwise_workgroups(POINTWISE_WORKGROUP), 136);
        assert_ne!(kernel(&[4, 64, 64, 68], 64), ConvKernel::PointwiseVec4);
        // At most 32 input channels: 64 workgroups in, 63 out (MobileNetV2's 24→144 at 56²,
        // batch 1: 7 chunks × 9 blocks, R38's split).
        assert_eq!(geometry(&[1, 24, 56, 56], 144).pointwise_workgroups(POINTWISE_WORKGROUP), 63);
        assert_eq!(kernel(&[1, 24, 56, 56], 144), ConvKernel::PointwiseVec4Split);
        assert_eq!(geometry(&[1, 32, 64, 64], 128).pointwise_workgroups(POINTWISE_WORKGROUP), 64);
        assert_eq!(kernel(&[1, 32, 64, 64], 128), ConvKernel::PointwiseVec4);
        // Smaller batch-1 grids keep R38's split (MobileNetV2's 32→16 at 112², 25 workgroups) or
        // R27's (its 32→192 at 28², 24).
        assert_eq!(kernel(&[1, 32, 112, 112], 16), ConvKernel::PointwiseVec4Split);
        assert_eq!(kernel(&[1, 32, 28, 28], 192), ConvKernel::GemmSmallK32);
        // Longer K on a large grid keeps the staged tiles (YOLOv8n's 192→128 at 40², batch 16),
        // as do 1D layers and groups.
        assert!(kernel(&[16, 192, 40, 40], 128).is_gemm());
        assert!(geo(&[32, 64, 16000], &[64, 64, 1], ConvOptions::default()).unwrap().planned_kernel().is_gemm());
        let grouped = geo(&[32, 64, 56, 56], &[64, 32, 1, 1], ConvOptions::default().groups(2)).unwrap();
        assert_ne!(grouped.planned_kernel(), ConvKernel::PointwiseVec4);
    }

    /// R39 on the throughput-zoo layers it was fitted on, and the neighbours it leaves alone.
    #[test]
    fn narrow_layers_take_32_row_tiles() {
        let same = |g: u32| ConvOptions::default().padding(&[1, 1]).groups(g);
        let kernel = |input: &[usize], weight: &[usize], opts| geo(input, weight, opts).unwrap().planned_kernel();
        // RegNetY-1.6GF's grouped 3×3 layers of 24 channels per group at batch 32 and
        // MobileNetV2's 192→32 projection at batch 32 (its 144→24 projection, where R39 was
        // fitted too, R46 gives `PointwiseVec4` first; YOLOv8n b16's 32→32 3×3 at 80², R60 gives
        // `DirectTiled` since v55).
        assert_eq!(kernel(&[32, 336, 14, 14], &[336, 24, 3, 3], same(14)), ConvKernel::GemmSmallK32);
        assert_eq!(kernel(&[32, 48, 56, 56], &[48, 24, 3, 3], same(2)), ConvKernel::GemmSmallK32);
        let pointwise = ConvOptions::default();
        assert_eq!(kernel(&[32, 192, 28, 28], &[32, 192, 1, 1], pointwise.clone()), ConvKernel::GemmSmallK32);
        // 40 output channels (EfficientNet-B0's 240→40 at batch 32; R46 streams MobileNetV3's
        // 120→40) keep the 64-row tiles, as do K outside the fitted range (past 4608; 72 for an
        // 8→32 3×3), 1D layers and transposed layers.
        assert!(kernel(&[32, 240, 28, 28], &[40, 240, 1, 1], pointwise.clone()).is_gemm());
        let k = *NARROW_TILES_K.end() as usize;
        assert!(kernel(&[32, k + 32, 28, 28], &[32, k + 32, 1, 1], pointwise.clone()).is_gemm());
        // (An 8→32 3×3 on a grid under R47's 102,400 pixels; R47 takes larger ones.)
        assert!(kernel(&[4, 8, 144, 144], &[32, 8, 3, 3], same(1)).is_gemm());
        assert!(kernel(&[16, 256, 4000], &[32, 256, 1], pointwise).is_gemm());
        let up = ConvOptions::default().stride(&[2, 2]).padding(&[1, 1]).transposed(true);
        assert!(kernel(&[16, 128, 64, 64], &[128, 32, 4, 4], up).is_gemm());
    }

    /// R47 on the layers it was fitted on, and the neighbours it leaves alone.
    #[test]
    fn short_k_layers_on_large_grids_take_register_blocks() {
        let conv = |s: u32| ConvOptions::default().stride(&[s, s]).padding(&[1, 1]);
        let g = |input: &[usize], weight: &[usize], opts| geo(input, weight, opts).unwrap();
        // YOLOv8n at batch 16: its 3→16 stem at 640² and 16→32 s2 at 320² (R39's before); its
        // stem at batch 1 (102,400 output pixels); a 3→32 stem at 224², batch 32. (Its 16→16 3×3
        // at 160², R32's before, R60 gives `DirectTiled` since v55.)
        for (input, weight, stride) in [
            ([16usize, 3, 640, 640], [16usize, 3, 3, 3], 2),
            ([16, 16, 320, 320], [32, 16, 3, 3], 2),
            ([1, 3, 640, 640], [16, 3, 3, 3], 2),
            ([32, 3, 224, 224], [32, 3, 3, 3], 2),
        ] {
            let layer = g(&input, &weight, conv(stride));
            assert_eq!(layer.planned_kernel(), ConvKernel::DirectBlock, "{input:?} {weight:?}");
            // Where f16 is allowed, the tensor cores take them as they did before R47.
            assert!(layer.tensor_core_candidate(), "{input:?} {weight:?}");
        }
        // Left alone: the same channels at batch 1 (25,600 pixels), 64 output channels
        // (ResNet-50's 7×7 stem at batch 32), K over 144 (YOLOv8n's 32→32 3×3 at batch 16), 1×1
        // layers, groups, transposed and 1D layers.
        // Just past each bound: 36 output channels (K 27), K 153 (17→32, on a grid under R58's),
        // 101,761 pixels.
        let stem = ConvOptions::default().stride(&[2, 2]).padding(&[3, 3]);
        for (input, weight, opts) in [
            (&[1usize, 16, 320, 320][..], &[32usize, 16, 3, 3][..], conv(2)),
            (&[1, 16, 160, 160], &[16, 16, 3, 3], conv(1)),
            (&[32, 3, 224, 224], &[64, 3, 7, 7], stem),
            (&[16, 32, 80, 80], &[32, 32, 3, 3], conv(1)),
            (&[32, 3, 224, 224], &[36, 3, 3, 3], conv(2)),
            (&[4, 17, 320, 320], &[32, 17, 3, 3], conv(2)),
            (&[1, 3, 638, 638], &[16, 3, 3, 3], conv(2)),
            (&[16, 16, 160, 160], &[16, 16, 1, 1], ConvOptions::default()),
            (&[16, 32, 160, 160], &[32, 16, 3, 3], conv(1).groups(2)),
            (&[16, 16, 160, 160], &[16, 16, 3, 3], conv(1).transposed(true)),
            (&[16, 16, 160_000], &[16, 16, 3], ConvOptions::default().padding(&[1])),
        ] {
            assert_ne!(g(input, weight, opts).planned_kernel(), ConvKernel::DirectBlock, "{input:?} {weight:?}");
        }
    }

    /// R48 on layers it was fitted on, and the neighbours it leaves to the tensor cores.
    #[test]
    fn few_channel_pointwise_layers_keep_the_stream_with_f16_allowed() {
        let g = |input: &[usize], oc: usize| geo(input, &[oc, input[1], 1, 1], ConvOptions::default()).unwrap();
        // MobileNetV3-L's 16→16 at 112² and MobileNetV2's 144→24 at 56², batch 32; YOLOv8n's
        // 32→32 at 160², batch 16.
        for (input, oc) in [([32usize, 16, 112, 112], 16), ([32, 144, 56, 56], 24), ([16, 32, 160, 160], 32)] {
            let layer = g(&input, oc);
            assert_eq!(layer.planned_kernel(), ConvKernel::PointwiseVec4, "{input:?} → {oc}");
            assert!(layer.tensor_core_candidate() && layer.pointwise_stream_keeps_f16_layer(), "{input:?} → {oc}");
        }
        // Left to the tensor cores: 48+ channels in and 40+ out (ResNet-50's 128→512 at 28²,
        // batch 32; EfficientNet-B0's 144→40; YOLOv8n's 128→64 at 80², batch 16), and layers the
        // fp32 planner gives another kernel (MobileNetV2's 32→16 at 112², batch 1: R38's split).
        for (input, oc) in [([32usize, 128, 28, 28], 512), ([32, 144, 28, 28], 40), ([16, 128, 80, 80], 64)] {
            let layer = g(&input, oc);
            assert_eq!(layer.planned_kernel(), ConvKernel::PointwiseVec4, "{input:?} → {oc}");
            assert!(!layer.pointwise_stream_keeps_f16_layer(), "{input:?} → {oc}");
        }
        let split = g(&[1, 32, 112, 112], 16);
        assert_ne!(split.planned_kernel(), ConvKernel::PointwiseVec4);
        assert!(!split.pointwise_stream_keeps_f16_layer());
    }

    #[test]
    fn few_channel_transposed_outputs_keep_the_phase_blocks_with_f16_allowed() {
        let t = |stride: u32| ConvOptions::default().transposed(true).stride(&[stride]).padding(&[1]);
        // pix2pix's RGB output at batch 16, DCGAN's at batch 64: R30 counts them as GEMM-shaped
        // for the tensor cores, R49 keeps them on the phase blocks.
        for (input, weight) in [([16usize, 128, 128, 128], [128usize, 3, 4, 4]), ([64, 64, 32, 32], [64, 3, 4, 4])] {
            let layer = geo(&input, &weight, t(2)).unwrap();
            assert_eq!(layer.planned_kernel(), ConvKernel::TransposedFewOc, "{input:?}");
            assert!(layer.tensor_core_candidate() && layer.few_oc_phases_keep_f16_layer(), "{input:?}");
        }
        // At stride 3 the phase split runs, and the tensor cores keep the layer.
        let stride3 = geo(&[16, 128, 128, 128], &[128, 3, 6, 6], t(3)).unwrap();
        assert_eq!(stride3.planned_kernel(), ConvKernel::TransposedFewOc);
        assert!(!stride3.few_oc_phases_keep_f16_layer());
    }

    #[test]
    fn image_and_latent_outputs_take_the_few_channel_kernel() {
        let same = |g: u32| ConvOptions::default().padding(&[1, 1]).groups(g);
        let kernel = |input: &[usize], weight: &[usize], opts| geo(input, weight, opts).unwrap().planned_kernel();
        // The SD VAE decoder's RGB output (K 1152, 512²), the SDXL UNet's 320→4 at 128²,
        // Real-ESRGAN's 64→3 at 256² (K 576, 65 536 pixels), a 9×9 style-transfer output.
        assert_eq!(kernel(&[1, 128, 512, 512], &[3, 128, 3, 3], same(1)), ConvKernel::FewOc);
        assert_eq!(kernel(&[1, 320, 128, 128], &[4, 320, 3, 3], same(1)), ConvKernel::FewOc);
        assert_eq!(kernel(&[1, 64, 256, 256], &[3, 64, 3, 3], same(1)), ConvKernel::FewOc);
        let k9 = ConvOptions::default().padding(&[4, 4]);
        assert_eq!(kernel(&[1, 32, 256, 256], &[3, 32, 9, 9], k9), ConvKernel::FewOc);
        // Left alone: the SD 1.5 UNet's 320→4 at 64² (4096 pixels: R27's small-grid tiles), K
        // under 512 (32→3 3×3), one output channel, 1×1 heads, transposed RGB outputs (R30).
        assert_eq!(kernel(&[1, 320, 64, 64], &[4, 320, 3, 3], same(1)), ConvKernel::GemmSmallK32);
        assert_ne!(kernel(&[1, 32, 512, 512], &[3, 32, 3, 3], same(1)), ConvKernel::FewOc);
        assert_ne!(kernel(&[16, 64, 256, 256], &[1, 64, 3, 3], same(1)), ConvKernel::FewOc);
        assert_ne!(kernel(&[1, 64, 512, 512], &[2, 64, 1, 1], ConvOptions::default()), ConvKernel::FewOc);
        let up = ConvOptions::default().stride(&[2, 2]).padding(&[1, 1]).transposed(true);
        assert_eq!(kernel(&[1, 128, 128, 128], &[128, 3, 4, 4], up), ConvKernel::TransposedFewOc);
    }
}
