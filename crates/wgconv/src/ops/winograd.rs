//! Winograd F(2×2, 3×3) ([`ConvKernel::Winograd`], and [`ConvKernel::WinogradCoop`] with its
//! products on the tensor cores), F(4×4, 3×3) ([`ConvKernel::Winograd4x4`], and
//! [`ConvKernel::Winograd4x4Coop`] on the tensor cores), F(2×2, 5×5)
//! ([`ConvKernel::Winograd5x5`]), F(4×4, 5×5) ([`ConvKernel::Winograd5x5Tile4`]) and F(6×6, 3×3)
//! ([`ConvKernel::Winograd6x6`]): which convolutions they run, the grouped 1×1 convolution their
//! products are, and the four passes they record (`shaders/conv2d_winograd.wgsl` and
//! `shaders/conv2d_winograd4.wgsl` have the transforms and their layouts).

use super::{
    conv::ConvCall,
    conv_encode::{ConvBuffers, PackLayout, Windows},
    conv_geometry::ConvGeometry,
    conv_kernel::ConvKernel,
    conv_options::{Activation, ConvOptions, ForcedPlan, KTileLoads, Precision, TileOrder},
    conv_plan::{
        self, WINOGRAD_FUSED_LONG_K_MIN_WORKGROUPS, WINOGRAD_FUSED_NARROW_MAX_TILE_GROUPS, WINOGRAD_FUSED_SHORT_IC,
    },
};
use crate::{
    batch::{Batch, Pass},
    context::Scratch,
    dispatch,
    error::{Error, Result, fits_u32},
    shaders::{
        conv2d_winograd as shader, conv2d_winograd_f16_out as narrowing, conv2d_winograd_fused as fused,
        conv2d_winograd4 as shader4, conv2d_winograd4_f16_out as narrowing4,
    },
    tensor::{DType, MemoryFormat, Tensor},
};

// The NCHW weight and input transforms of F(4×4, 3×3), F(2×2, 5×5), F(4×4, 5×5) and F(6×6, 3×3)
// use no workgroup memory, and the output transforms (which stage their rows to store them
// coalesced) less than WebGPU's least `max_compute_workgroup_storage_size`, 16 KiB: these kernels
// run on any device WebGPU admits (`ConvKernel::workgroup_storage_bytes`).
const _: () = assert!(
    shader4::WINOGRAD4_WEIGHT_WORKGROUP_MEMORY_BYTES == 0
        && shader4::WINOGRAD4_INPUT_WORKGROUP_MEMORY_BYTES == 0
        && shader4::WINOGRAD5_WEIGHT_WORKGROUP_MEMORY_BYTES == 0
        && shader4::WINOGRAD5_INPUT_WORKGROUP_MEMORY_BYTES == 0
        && shader4::WINOGRAD8_WEIGHT_WORKGROUP_MEMORY_BYTES == 0
        && shader4::WINOGRAD8_INPUT_WORKGROUP_MEMORY_BYTES == 0
        && shader4::WINOGRAD6_WEIGHT_WORKGROUP_MEMORY_BYTES == 0
        && shader4::WINOGRAD6_INPUT_WORKGROUP_MEMORY_BYTES == 0
        && shader4::WINOGRAD4_OUTPUT_WORKGROUP_MEMORY_BYTES <= 16384
        && shader4::WINOGRAD5_OUTPUT_WORKGROUP_MEMORY_BYTES <= 16384
        && shader4::WINOGRAD8_OUTPUT_WORKGROUP_MEMORY_BYTES <= 16384
        && shader4::WINOGRAD6_OUTPUT_WORKGROUP_MEMORY_BYTES <= 16384
);

/// A Winograd algorithm F(m×m, r×r): `tile` (m) × `tile` outputs from a window of
/// (m + r − 1)² inputs, `filter` (r) its filter's side. [`ConvKernel::winograd_transform`] says
/// which a kernel runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct WinogradTransform {
    /// The output tile's side, m.
    pub(crate) tile: u32,
    /// The filter's side, r.
    pub(crate) filter: u32,
}

impl WinogradTransform {
    /// F(2×2, 3×3): `Winograd`, `WinogradCoop`, `WinogradFused`.
    pub(crate) const F2X2_3X3: Self = Self { tile: 2, filter: 3 };
    /// F(4×4, 3×3): `Winograd4x4`, `Winograd4x4Coop`.
    pub(crate) const F4X4_3X3: Self = Self { tile: 4, filter: 3 };
    /// F(2×2, 5×5): `Winograd5x5`.
    pub(crate) const F2X2_5X5: Self = Self { tile: 2, filter: 5 };
    /// F(4×4, 5×5): `Winograd5x5Tile4`.
    pub(crate) const F4X4_5X5: Self = Self { tile: 4, filter: 5 };
    /// F(6×6, 3×3): `Winograd6x6`.
    pub(crate) const F6X6_3X3: Self = Self { tile: 6, filter: 3 };

    /// Positions of its transform, (m + r − 1)²: the GEMM's groups (16, 36 or 64).
    pub(crate) const fn positions(self) -> u32 {
        let window = self.tile + self.filter - 1;
        window * window
    }

    /// Whether its transforms are those of `shaders/conv2d_winograd4.wgsl` (6×6: F(4×4, 3×3),
    /// F(2×2, 5×5); 8×8: F(4×4, 5×5), F(6×6, 3×3)), rather than the 4×4 ones of
    /// `shaders/conv2d_winograd.wgsl`.
    const fn in_winograd4_shader(self) -> bool {
        self.positions() >= 36
    }
}

/// Positions of F(2×2, 3×3)'s 4×4 transform.
const POSITIONS: u32 = WinogradTransform::F2X2_3X3.positions();

/// The most input channels (the K of each position's GEMM) at which the products of
/// `Winograd4x4` and `Winograd5x5Tile4` load their K-tiles in their own iteration
/// ([`products_k_tile_loads`]); above it, rule R70 moves `Winograd4x4`'s products, and some of
/// `Winograd6x6`'s and `Winograd5x5Tile4`'s, to the 64 × 64 tiles ([`products_on_square_tiles`]).
pub(crate) const PRODUCTS_LOADS_IN_ITERATION_MAX_K: u32 = 128;

/// The K-tile loads of the products of Winograd `kernel` on `g` as planned on `ctx`'s device
/// (R69, R70), where they run on the 16-deep staged tiles, which take a K loop
/// ([`ConvKernel::chooses_k_tile_loads`]): as `encode_winograd_band` plans them, for the first
/// part's band (a shorter last band may take other tiles, hence another loop). `None` elsewhere
/// (the small-grid tiles, the tensor cores): there a forced or tuned loop changes nothing, and
/// tuning does not time it twice.
pub(crate) fn planned_products_k_tile_loads(
    ctx: &crate::Context,
    g: &ConvGeometry,
    kernel: ConvKernel,
) -> Option<KTileLoads> {
    if !kernel.winograd_products_on_staged_tiles() {
        return None;
    }
    let limits = ctx.limits();
    let alignment = u64::from(limits.min_storage_buffer_offset_alignment);
    let parts = g.winograd_parts(kernel, limits.max_storage_buffer_binding_size, alignment)?;
    let part = ConvGeometry { n: parts.images, ..g.clone() };
    let gemm = part.winograd_band_gemm(kernel.winograd_transform(), parts.band_rows).ok()?;
    let plan = products_plan(ctx, &gemm, kernel).ok()?;
    plan.gemm.filter(|_| plan.kernel.chooses_k_tile_loads()).map(|launch| launch.loads)
}

/// The plan of the products of Winograd `kernel`, a grouped 1×1 convolution of geometry `gemm`
/// ([`ConvGeometry::winograd_gemm`]; its channels per group are the layer's input channels): the
/// planner's, on `GemmN64K16` where rule R70 moves them there ([`products_on_square_tiles`];
/// their K-tiles then load in their own iteration, as measured) or the planner would not run a
/// GEMM kernel, else with R69's K loop ([`products_k_tile_loads`]); N tiles fastest (R55 was not
/// measured on them).
fn products_plan(ctx: &crate::Context, gemm: &ConvGeometry, kernel: ConvKernel) -> Result<conv_plan::Plan> {
    let ic = gemm.ic / gemm.groups;
    let square_tiles =
        || conv_plan::plan(ctx, gemm, DType::F32, Precision::F32, &ForcedPlan::kernel(ConvKernel::GemmN64K16));
    let planned = conv_plan::plan(ctx, gemm, DType::F32, Precision::F32, &ForcedPlan::default())?;
    let by_k = products_k_tile_loads(kernel, ic);
    let on_square_tiles = products_on_square_tiles(kernel, planned.kernel, ic);
    let (mut plan, loads) = if on_square_tiles || !planned.kernel.is_gemm_shaped() {
        let loads = if on_square_tiles { KTileLoads::InIteration } else { by_k };
        match square_tiles() {
            Ok(plan) => (plan, loads),
            // Where the 64 × 64 tiles cannot launch (grid limits), the planner's GEMM tiles run.
            Err(_) if planned.kernel.is_gemm_shaped() => (planned, by_k),
            Err(error) => return Err(error),
        }
    } else {
        (planned, by_k)
    };
    if let Some(launch) = plan.gemm.as_mut() {
        (launch.loads, launch.order) = (loads, TileOrder::NFastest);
    }
    Ok(plan)
}

/// Rule R70: whether the products of Winograd `kernel` on a layer of `ic` input channels, which
/// the planner gives the staged tiles `planned`, run on `GemmN64K16`'s 64 × 64 tiles with their
/// K-tiles loaded in their own iteration: above [`PRODUCTS_LOADS_IN_ITERATION_MAX_K`] channels,
/// all of `Winograd4x4`'s, and those of `Winograd6x6` and `Winograd5x5Tile4` the planner gives
/// the 64-row tiles (`GemmM64K16`). Measured on the 90 layers of more than 128 channels the
/// planner gives an 8×8 or 6×6 Winograd kernel among R61's 146, the 5×5 suite and the held-out
/// suite (v64 call A, an H100, whole, both ways twice, the faster of each; `v64-wide-suite.json`):
/// on the 64 × 64 tiles, the 48 `Winograd4x4` layers ran 1.108× in geomean (0.98–1.34×: the SD
/// UNets' and SAM's at 128–288 columns 1.11–1.34×, two at 0.98×), the 15 others whose products
/// the planner gives `GemmM64K16` 1.055× (1.03–1.10×, none slower); the other 27, `Winograd6x6`
/// and `Winograd5x5Tile4` on the 128-row tiles (`GemmK16`), 1.005× (0.97–1.12×; the SD VAE's
/// 512-channel layers 0.98–0.99×). Short K keeps R69's 64-row tiles: products alone, on the
/// 64 × 64 tiles, ran 0.89–0.95× there (v63 call C). No layer of 129–191 channels was measured.
fn products_on_square_tiles(kernel: ConvKernel, planned: ConvKernel, ic: u32) -> bool {
    ic > PRODUCTS_LOADS_IN_ITERATION_MAX_K
        && match kernel {
            ConvKernel::Winograd4x4 => true,
            ConvKernel::Winograd6x6 | ConvKernel::Winograd5x5Tile4 => planned == ConvKernel::GemmM64K16,
            _ => false,
        }
}

/// How the products' staged GEMM tiles of Winograd `kernel` on a layer of `ic` input channels
/// load their K-tiles (rule R69) where R70 does not move them ([`products_plan`]): for
/// `Winograd4x4` and `Winograd5x5Tile4`, in their own iteration up to
/// [`PRODUCTS_LOADS_IN_ITERATION_MAX_K`]; a K-tile ahead above and for the other kernels, whose
/// layers of so few channels were not measured (as every product ran v50–v62).
/// Measured on the 180 layers the planner gives an fp32 Winograd kernel among R61's 146, the 5×5
/// suite and the held-out suite (v63 call D, an H100, both ways whole; the 150 of them with two
/// runs each way): in their iteration, the 57 of 32–128 channels on the staged tiles (46
/// `Winograd4x4`, 11 `Winograd5x5Tile4`) ran 1.029× in geomean
/// (0.96–1.13×: AlexNet's 5×5 1.07–1.08×, GoogLeNet's 3b 1.05×, ResNet-50's 64- and
/// 128-channel 3×3 1.06–1.10×), the 86 of more channels 0.987× (0.85–1.10×; most of the SD VAE
/// decoder's 512-channel layers 0.95–0.99×), as v50 call A had found on the 128-row tiles
/// (0.86–0.99×). As a build of its own against v63's first (v64 call A), the 73 layers it moves
/// ran 1.027× (0.95–1.14×). Short K is 2–8 K-tiles a tile; why loading in the iteration gains
/// there was not measured.
pub(crate) fn products_k_tile_loads(kernel: ConvKernel, ic: u32) -> KTileLoads {
    let measured = matches!(kernel, ConvKernel::Winograd4x4 | ConvKernel::Winograd5x5Tile4);
    if measured && ic <= PRODUCTS_LOADS_IN_ITERATION_MAX_K { KTileLoads::InIteration } else { KTileLoads::Ahead }
}

// F(4×4, 3×3)'s block transforms: one (tile, channel) item per thread of 256, blocks of tiles
// that `block_cols` (a power of two from 4) divides; their workgroup is the shaders' own.
const _: () = {
    assert!(shader4::WINOGRAD4_INPUT_NHWC_WORKGROUP_SIZE[0] == 256);
    assert!(shader4::WINOGRAD4_OUTPUT_NHWC_WORKGROUP_SIZE[0] == 256);
    assert!(narrowing4::WINOGRAD4_INPUT_NHWC_WORKGROUP_SIZE[0] == 256);
    assert!(shader4::BLOCK_IN_TILES * shader4::BLOCK_IN_CHANNELS == 256);
    assert!(narrowing4::BLOCK_IN_TILES * narrowing4::BLOCK_IN_CHANNELS == 256);
    assert!(shader4::BLOCK_OUT_TILES * shader4::BLOCK_OUT_CHANNELS == 256);
    // Powers of two from 4, which `nhwc_block4`'s tile columns divide.
    assert!(shader4::BLOCK_IN_TILES.is_power_of_two() && narrowing4::BLOCK_IN_TILES.is_power_of_two());
    assert!(shader4::BLOCK_OUT_TILES.is_power_of_two());
    assert!(shader4::BLOCK_IN_TILES >= 4 && narrowing4::BLOCK_IN_TILES >= 4 && shader4::BLOCK_OUT_TILES >= 4);
    // The output transform's blocks are the same in both expansions (M is f32 in both).
    assert!(narrowing4::BLOCK_OUT_TILES == shader4::BLOCK_OUT_TILES);
    assert!(narrowing4::BLOCK_OUT_CHANNELS == shader4::BLOCK_OUT_CHANNELS);
    assert!(narrowing4::WINOGRAD4_OUTPUT_NHWC_WORKGROUP_SIZE[0] == 256);
    // A channel's stage holds the widest block's input window, one row of tiles: 6 × (4·tiles + 2).
    assert!(shader4::STAGE_IN_STRIDE > 6 * (4 * shader4::BLOCK_IN_TILES + 2));
    assert!(narrowing4::STAGE_IN_STRIDE > 6 * (4 * narrowing4::BLOCK_IN_TILES + 2));
    assert!(shader4::STAGE_OUT_STRIDE > 16 * shader4::BLOCK_OUT_TILES);
};

/// The block transforms' workgroups (`winograd_input_nhwc`, `winograd_output_nhwc`: NCHW tensors,
/// channels-last products): BLOCK_TILES tiles × BLOCK_CHANNELS channels of one image per
/// workgroup of this many threads, the shaders' own constants. The expansion that writes f16
/// takes twice the channels (whole 32-byte sectors of V).
const NHWC_BLOCK_THREADS: u32 = shader::WINOGRAD_INPUT_NHWC_WORKGROUP_SIZE[0];
// Whole items per thread in every block pass, and tiles that `block_cols` (a power of two up to
// 32) divides.
const _: () = {
    assert!(shader::WINOGRAD_OUTPUT_NHWC_WORKGROUP_SIZE[0] == NHWC_BLOCK_THREADS);
    assert!(narrowing::WINOGRAD_INPUT_NHWC_WORKGROUP_SIZE[0] == NHWC_BLOCK_THREADS);
    assert!((shader::BLOCK_TILES * shader::BLOCK_CHANNELS).is_multiple_of(NHWC_BLOCK_THREADS));
    assert!((narrowing::BLOCK_TILES * narrowing::BLOCK_CHANNELS).is_multiple_of(NHWC_BLOCK_THREADS));
    assert!(shader::BLOCK_TILES == 32 && narrowing::BLOCK_TILES == 32);
};

/// The block transforms' blocks for `g` writing `output`: (tile columns, tile rows, channels),
/// `block_cols` the narrowest power of two from 4 that covers a row of tiles, up to 32, so that
/// narrow images fill a block with several rows.
fn nhwc_block(g: &ConvGeometry, output: DType) -> (u32, u32, u32) {
    let (tiles, channels) = match output {
        DType::F16 => (narrowing::BLOCK_TILES, narrowing::BLOCK_CHANNELS),
        _ => (shader::BLOCK_TILES, shader::BLOCK_CHANNELS),
    };
    let cols = g.winograd_tile_grid()[1].next_power_of_two().clamp(4, tiles);
    (cols, tiles / cols, channels)
}

/// F(4×4, 3×3)'s block transforms' blocks for `g` (`input`: the input transform's, writing V
/// in `dtype`; else the output transform's): (tile columns, tile rows, channels), the tile
/// columns the narrowest power of two from 4 that covers a row of tiles, up to the block's
/// tiles, so that narrow images fill a block with several rows.
fn nhwc_block4(g: &ConvGeometry, input: bool, dtype: DType) -> (u32, u32, u32) {
    let (tiles, channels) = match (input, dtype) {
        (true, DType::F16) => (narrowing4::BLOCK_IN_TILES, narrowing4::BLOCK_IN_CHANNELS),
        (true, _) => (shader4::BLOCK_IN_TILES, shader4::BLOCK_IN_CHANNELS),
        (false, _) => (shader4::BLOCK_OUT_TILES, shader4::BLOCK_OUT_CHANNELS),
    };
    let cols = g.winograd_tile_grid_of(WinogradTransform::F4X4_3X3.tile)[1].next_power_of_two().clamp(4, tiles);
    (cols, tiles / cols, channels)
}

/// How a Winograd convolution is cut to fit the device's storage bindings
/// ([`ConvGeometry::winograd_parts`]): its images run this many at a time, each part's tile rows
/// in bands of `band_rows` (all of an image's where its intermediates fit).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct WinogradParts {
    /// Images per part (the last part may hold fewer).
    pub(crate) images: u32,
    /// Tile rows per band (the last band may hold fewer).
    pub(crate) band_rows: u32,
}

impl ConvGeometry {
    /// Whether the filter suits F(m×m, 3×3): a direct 3×3 convolution at stride 1 and dilation 1,
    /// one group (any padding, any size).
    pub(crate) fn winograd_shape(&self) -> bool {
        self.winograd_shape_of(3)
    }

    /// Whether the filter suits F(m×m, `filter`×`filter`): a direct convolution of that square
    /// filter at stride 1 and dilation 1, one group (any padding, any size).
    pub(crate) fn winograd_shape_of(&self, filter: u32) -> bool {
        self.winograd_filter_of(filter) && self.dilation == [1, 1]
    }

    /// A direct convolution of a `filter`×`filter` filter at stride 1, one group, at any dilation.
    fn winograd_filter_of(&self, filter: u32) -> bool {
        !self.transposed && [self.kh, self.kw] == [filter, filter] && self.stride == [1, 1] && self.groups == 1
    }

    /// Whether `kernel` (a Winograd kernel) runs this filter: its own shape
    /// ([`ConvGeometry::winograd_shape_of`]), or for `Winograd4x4` also a dilated 3×3 filter at
    /// stride 1, one group, whose output falls into dilation² phases, each an undilated
    /// convolution of the input's same phase (`tile_cols` in conv2d_winograd4.wgsl).
    pub(crate) fn winograd_runs_filter(&self, kernel: ConvKernel) -> bool {
        let filter = kernel.winograd_transform().filter;
        match kernel {
            ConvKernel::Winograd4x4 => self.winograd_filter_of(filter),
            _ => self.winograd_shape_of(filter),
        }
    }

    /// Whether `kernel` runs this filter ([`ConvGeometry::winograd_runs_filter`]) and its
    /// transformed weight fits one storage binding of `binding_limit` bytes.
    pub(crate) fn winograd_kernel_weight_fits(&self, kernel: ConvKernel, binding_limit: u64) -> bool {
        self.winograd_runs_filter(kernel) && self.winograd_weight_len(kernel.winograd_transform()) * 4 <= binding_limit
    }

    /// F(2×2, 3×3)'s output tiles (2×2 blocks, cut at odd sizes) along the rows and the columns
    /// of an image.
    pub(crate) fn winograd_tile_grid(&self) -> [u32; 2] {
        self.winograd_tile_grid_of(WinogradTransform::F2X2_3X3.tile)
    }

    /// Output tiles of F(`tile`×`tile`, r×r) (blocks of `tile` × `tile`, the last cut) along the
    /// rows and the columns of an image. With dilation d along an axis, its outputs fall into d
    /// phases (index mod d) of ⌈size / d⌉ or fewer, each tiled alone: d · ⌈⌈size / d⌉ / tile⌉,
    /// and where d exceeds the size, one tile for each of the size's phases (the shaders'
    /// `tile_cols` and `tile_origin`).
    pub(crate) fn winograd_tile_grid_of(&self, tile: u32) -> [u32; 2] {
        let tiles = |size: u32, d: u32| size.div_ceil(d).div_ceil(tile) * d.min(size);
        [tiles(self.oh, self.dilation[0]), tiles(self.ow, self.dilation[1])]
    }

    /// F(2×2, 3×3)'s output tiles per image.
    pub(crate) fn winograd_tiles(&self) -> u64 {
        let [rows, cols] = self.winograd_tile_grid();
        u64::from(rows) * u64::from(cols)
    }

    /// Elements of `transform`'s transformed weight: its positions × IC × OC rounded up to 4
    /// (the GEMM kernels' packed layout).
    pub(crate) fn winograd_weight_len(&self, transform: WinogradTransform) -> u64 {
        u64::from(transform.positions()) * u64::from(self.ic) * u64::from(self.oc.div_ceil(4) * 4)
    }

    /// Whether the filter suits `transform` and its transformed weight fits one storage binding
    /// of `binding_limit` bytes.
    pub(crate) fn winograd_weight_fits(&self, transform: WinogradTransform, binding_limit: u64) -> bool {
        self.winograd_shape_of(transform.filter) && self.winograd_weight_len(transform) * 4 <= binding_limit
    }

    /// Bytes of one f32 image of the input and of the output: where a batch's images start.
    fn winograd_image_bytes(&self) -> (u64, u64) {
        let image = |channels: u32, h: u32, w: u32| u64::from(channels) * u64::from(h) * u64::from(w) * 4;
        (image(self.ic, self.ih, self.iw), image(self.oc, self.oh, self.ow))
    }

    /// Elements of `transform`'s transformed input [N, P·IC, tiles] and of its products
    /// [N, P·OC, tiles], P its positions (16, 36 or 64).
    pub(crate) fn winograd_scratch_len(&self, transform: WinogradTransform) -> (u64, u64) {
        self.winograd_band_scratch_len(transform, self.winograd_tile_grid_of(transform.tile)[0])
    }

    /// [`ConvGeometry::winograd_scratch_len`] of a band of `rows` tile rows of every image.
    fn winograd_band_scratch_len(&self, transform: WinogradTransform, rows: u32) -> (u64, u64) {
        let tiles = u64::from(rows) * u64::from(self.winograd_tile_grid_of(transform.tile)[1]);
        let per_channel = u64::from(self.n) * u64::from(transform.positions()) * tiles;
        (per_channel * u64::from(self.ic), per_channel * u64::from(self.oc))
    }

    /// Elements of the larger intermediate (counted as f32) of one tile row of one image: the
    /// least a band holds.
    pub(crate) fn winograd_row_scratch_len(&self, transform: WinogradTransform) -> u64 {
        let (input, products) = ConvGeometry { n: 1, ..self.clone() }.winograd_band_scratch_len(transform, 1);
        input.max(products)
    }

    /// `transform`'s products as a convolution: P groups (one per transform position, 16, 36
    /// or 64) of a 1×1 convolution over the tiles, input [N, P·IC, tile rows, tile columns]
    /// ([`ConvGeometry::winograd_tile_grid_of`]), weight [P·OC, IC, 1, 1].
    pub(crate) fn winograd_gemm(&self, transform: WinogradTransform) -> Result<ConvGeometry> {
        self.winograd_band_gemm(transform, self.winograd_tile_grid_of(transform.tile)[0])
    }

    /// [`ConvGeometry::winograd_gemm`] of a band of `rows` tile rows of every image.
    fn winograd_band_gemm(&self, transform: WinogradTransform, rows: u32) -> Result<ConvGeometry> {
        let (n, ic, oc) = (self.n as usize, self.ic as usize, self.oc as usize);
        let tw = self.winograd_tile_grid_of(transform.tile)[1] as usize;
        let p = transform.positions();
        let input = [n, p as usize * ic, rows as usize, tw];
        ConvGeometry::new(&input, &[p as usize * oc, ic, 1, 1], None, &ConvOptions::default().groups(p))
    }

    /// How `kernel` (`Winograd`, `WinogradCoop`, `Winograd4x4`, `Winograd4x4Coop`, `Winograd5x5`,
    /// `Winograd5x5Tile4` or `Winograd6x6`) runs this convolution on a device whose storage
    /// bindings hold `binding_limit` bytes at offsets that are multiples of `alignment`: the whole
    /// batch at once where its intermediates fit one binding each; else as many images per part
    /// as fit (binding each part's images at their offsets in the input and output, which must
    /// then be aligned); else one image per part, in bands of as many tile rows as fit. `None`
    /// where it cannot run: the shape does not suit it, its transformed weight does not fit one
    /// binding, not even one tile row's intermediates do, the parts' offsets would not be
    /// aligned, or the kernel of its products cannot run a part's band (grid limits; for
    /// `WinogradCoop` and `Winograd4x4Coop`, `CoopNhwc`'s multiple of 8 input channels).
    pub(crate) fn winograd_parts(
        &self,
        kernel: ConvKernel,
        binding_limit: u64,
        alignment: u64,
    ) -> Option<WinogradParts> {
        let transform = kernel.winograd_transform();
        if !self.winograd_kernel_weight_fits(kernel, binding_limit) {
            return None;
        }
        let tile_rows = self.winograd_tile_grid_of(transform.tile)[0];
        let per_row = self.winograd_row_scratch_len(transform);
        // Indices within a part are u32.
        let limit = (binding_limit / 4).min(u64::from(u32::MAX));
        let rows_fit = limit / per_row;
        let image_rows = u64::from(tile_rows);
        let (images, band_rows) = if rows_fit >= image_rows {
            ((rows_fit / image_rows).min(u64::from(self.n)) as u32, tile_rows)
        } else {
            // As few bands as the limit allows, all but the last of one height, as even as that
            // makes them (10 rows, 4 fit: 4, 4 and 2).
            let bands = tile_rows.div_ceil(rows_fit.max(1) as u32);
            (1, tile_rows.div_ceil(bands))
        };
        let (in_image, out_image) = self.winograd_image_bytes();
        let aligned = in_image.is_multiple_of(alignment) && out_image.is_multiple_of(alignment);
        let part = ConvGeometry { n: images, ..self.clone() };
        let products_kernel = match kernel.winograd_products_on_tensor_cores() {
            true => ConvKernel::CoopNhwc,
            false => ConvKernel::GemmN64K16,
        };
        let gemm_runs = kernel.is_winograd()
            && part.winograd_band_gemm(transform, band_rows).is_ok_and(|g| g.supports(products_kernel));
        (rows_fit >= 1 && (images == self.n || aligned) && gemm_runs).then_some(WinogradParts { images, band_rows })
    }
}

/// A convolution's weight transformed for one Winograd kernel, whose layout it is in: f32 in the
/// GEMM kernels' packed layout for `Winograd`, `Winograd4x4`, `Winograd5x5`, `Winograd5x5Tile4`
/// and `Winograd6x6`, f16 in `CoopNhwc`'s for `WinogradCoop` and `Winograd4x4Coop`, f16 in whole
/// fragments and workgroup tiles for `WinogradFused` ([`ConvGeometry::winograd_fused_u`]).
#[derive(Clone, Debug)]
pub(crate) struct WinogradWeight {
    /// The kernel it was transformed for.
    pub(crate) kernel: ConvKernel,
    /// U, in that kernel's layout.
    pub(crate) tensor: Tensor,
}

/// A workgroup shape of `WinogradFused` (`shaders/conv2d_winograd_fused.wgsl`): its entry point,
/// the output tiles and the output channels a workgroup takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct FusedShape {
    /// The entry point of that shape.
    pub(crate) entry: fused::Entry,
    /// Output tiles (2×2 blocks) per workgroup.
    pub(crate) tiles: u32,
    /// Output channels per workgroup (U's columns are rounded up to them).
    pub(crate) channels: u32,
}

// Every shape shares one V stage sized for 32 tiles, so `ConvKernel::workgroup_storage_bytes`
// counts them all by the first.
const _: () = {
    let bytes = fused::CONV2D_WINOGRAD_FUSED_WORKGROUP_MEMORY_BYTES;
    assert!(fused::CONV2D_WINOGRAD_FUSED_T16_C64_WORKGROUP_MEMORY_BYTES == bytes);
    assert!(fused::CONV2D_WINOGRAD_FUSED_T32_C80_WORKGROUP_MEMORY_BYTES == bytes);
    assert!(fused::CONV2D_WINOGRAD_FUSED_T16_C80_WORKGROUP_MEMORY_BYTES == bytes);
};

/// Every shape the shader has, with the shader's own numbers.
pub(crate) const FUSED_SHAPES: [FusedShape; 4] = [
    FusedShape {
        entry: fused::Entry::Conv2dWinogradFused,
        tiles: fused::T32_C64_TILES,
        channels: fused::T32_C64_CHANNELS,
    },
    FusedShape {
        entry: fused::Entry::Conv2dWinogradFusedT16C64,
        tiles: fused::T16_C64_TILES,
        channels: fused::T16_C64_CHANNELS,
    },
    FusedShape {
        entry: fused::Entry::Conv2dWinogradFusedT32C80,
        tiles: fused::T32_C80_TILES,
        channels: fused::T32_C80_CHANNELS,
    },
    FusedShape {
        entry: fused::Entry::Conv2dWinogradFusedT16C80,
        tiles: fused::T16_C80_TILES,
        channels: fused::T16_C80_CHANNELS,
    },
];

impl ConvGeometry {
    /// The workgroup shape `WinogradFused` runs this convolution with (R44's shapes, measured on
    /// an H200, docs/PERFORMANCE.md v39):
    /// - 80 output channels a workgroup where that pads fewer columns than 64 (65–80 output
    ///   channels: YOLOv8n's class heads), else 64: against 64, YOLOv8n's 80-channel heads at
    ///   batch 16 ran 1.27–1.52× faster;
    /// - 16 tiles a workgroup on small grids, else 32: where the 32-tile grid has at most
    ///   [`WINOGRAD_FUSED_NARROW_MAX_TILE_GROUPS`] groups of tiles with up to
    ///   [`WINOGRAD_FUSED_SHORT_IC`] input channels (1.32–1.47× faster than 32 tiles on
    ///   64-channel workgroups), or fewer than [`WINOGRAD_FUSED_LONG_K_MIN_WORKGROUPS`]
    ///   workgroups with more (where 32 tiles lost to the other kernels). Each workgroup's
    ///   16-channel steps are latency-bound, so a small grid gains from twice the workgroups; a
    ///   large one loses the halved reuse of U.
    pub(crate) fn winograd_fused_shape(&self) -> FusedShape {
        let channels = self.winograd_fused_channels_per_workgroup();
        let wide = channels == fused::T32_C80_CHANNELS;
        let tile_groups = self.winograd_fused_tile_groups();
        let workgroups = tile_groups * u64::from(self.oc.div_ceil(channels));
        let small_grid = if self.ic <= WINOGRAD_FUSED_SHORT_IC {
            tile_groups <= WINOGRAD_FUSED_NARROW_MAX_TILE_GROUPS
        } else {
            workgroups < WINOGRAD_FUSED_LONG_K_MIN_WORKGROUPS
        };
        let shape = match (small_grid, wide) {
            (false, false) => FUSED_SHAPES[0],
            (true, false) => FUSED_SHAPES[1],
            (false, true) => FUSED_SHAPES[2],
            (true, true) => FUSED_SHAPES[3],
        };
        debug_assert_eq!(shape.channels, channels);
        shape
    }

    /// The groups of 32 output tiles (over the batch) of the layer: the grid of `WinogradFused`'s
    /// 32-tile shapes along the tiles, by which its shape (above) and rule R45 measure the grid.
    pub(crate) fn winograd_fused_tile_groups(&self) -> u64 {
        (u64::from(self.n) * self.winograd_tiles()).div_ceil(u64::from(fused::T32_C64_TILES))
    }

    /// The output channels of a `WinogradFused` workgroup: 80 where that pads fewer columns
    /// than 64. By the output channels alone, so that U's layout
    /// ([`ConvGeometry::winograd_fused_u`]) is the same for every batch and image size (a
    /// `Conv2d` keeps one U for all).
    fn winograd_fused_channels_per_workgroup(&self) -> u32 {
        let padded = |channels: u32| self.oc.div_ceil(channels) * channels;
        if padded(fused::T32_C80_CHANNELS) < padded(fused::T32_C64_CHANNELS) {
            fused::T32_C80_CHANNELS
        } else {
            fused::T32_C64_CHANNELS
        }
    }

    /// `WinogradFused`'s U: rows per position (input channels rounded up to 16, a fragment's
    /// depth) and columns (output channels rounded up to a workgroup's).
    pub(crate) fn winograd_fused_u(&self) -> (u32, u32) {
        let channels = self.winograd_fused_channels_per_workgroup();
        (self.ic.div_ceil(16) * 16, self.oc.div_ceil(channels) * channels)
    }

    /// The halves in `WinogradFused`'s U: [`ConvGeometry::winograd_fused_u`] per position.
    fn winograd_fused_u_len(&self) -> u64 {
        let (rows, cols) = self.winograd_fused_u();
        u64::from(POSITIONS) * u64::from(rows) * u64::from(cols)
    }

    /// Whether `WinogradFused`'s U (f16, [`ConvGeometry::winograd_fused_u`] per position) fits
    /// one storage binding of `binding_limit` bytes.
    pub(crate) fn winograd_fused_weight_fits(&self, binding_limit: u64) -> bool {
        self.winograd_fused_u_len() * 2 <= binding_limit
    }

    /// `WinogradFused`'s grid: groups of its shape's tiles (over every image) × groups of its
    /// shape's output channels.
    pub(crate) fn winograd_fused_grid(&self) -> [u64; 2] {
        let shape = self.winograd_fused_shape();
        let tiles = u64::from(self.n) * self.winograd_tiles();
        [tiles.div_ceil(u64::from(shape.tiles)), u64::from(self.oc.div_ceil(shape.channels))]
    }

    /// Whether `WinogradFused` runs this convolution: Winograd's shape, a grid within the
    /// device's limit per dimension, and U's and the input's indices within i32.
    pub(crate) fn winograd_fused_runs(&self) -> bool {
        let u_len = self.winograd_fused_u_len();
        let input_len = u64::from(self.n) * u64::from(self.ic) * u64::from(self.ih) * u64::from(self.iw);
        self.winograd_shape()
            && self.winograd_fused_grid().iter().all(|d| *d <= crate::dispatch::MAX_WORKGROUPS_PER_DIM)
            && u_len.max(input_len) < 1 << 31
    }
}

/// `entry` of the expansion that writes f16 (`conv2d_winograd_f16_out.wgsl`).
fn narrowing_entry(entry: shader::Entry) -> narrowing::Entry {
    match entry {
        shader::Entry::WinogradWeight => narrowing::Entry::WinogradWeight,
        shader::Entry::WinogradInput => narrowing::Entry::WinogradInput,
        shader::Entry::WinogradInputNhwc => narrowing::Entry::WinogradInputNhwc,
        shader::Entry::WinogradOutput => narrowing::Entry::WinogradOutput,
        shader::Entry::WinogradOutputNhwc => narrowing::Entry::WinogradOutputNhwc,
        shader::Entry::WinogradInputChannelsLast => narrowing::Entry::WinogradInputChannelsLast,
        shader::Entry::WinogradOutputChannelsLast => narrowing::Entry::WinogradOutputChannelsLast,
    }
}

/// The input and output transforms' entry points: NCHW tensors and products (`Winograd`);
/// NCHW tensors, channels-last products (`WinogradCoop`, block transforms); channels-last both
/// (`WinogradCoop` on channels-last tensors, read and written as they are).
fn transform_entries(products_nhwc: bool, tensors: MemoryFormat) -> (shader::Entry, shader::Entry) {
    match (products_nhwc, tensors) {
        (true, MemoryFormat::ChannelsLast) => {
            (shader::Entry::WinogradInputChannelsLast, shader::Entry::WinogradOutputChannelsLast)
        }
        (true, _) => (shader::Entry::WinogradInputNhwc, shader::Entry::WinogradOutputNhwc),
        (false, _) => (shader::Entry::WinogradInput, shader::Entry::WinogradOutput),
    }
}

/// What a transform pass specialises: the products' layout, and the activation (the output
/// transform's); the band of tile rows it runs (first, count), all of them where `None`; and
/// for the weight transform, the packed layout's rows per position and columns where given
/// (`WinogradFused`'s U), else the GEMM kernels'.
#[derive(Clone, Copy)]
struct Transform {
    products_nhwc: bool,
    activation: Activation,
    band: Option<[u32; 2]>,
    packed_u: Option<(u32, u32)>,
}

/// The input and output transforms' entry points of `transform`, one of
/// `conv2d_winograd4.wgsl`'s: for F(4×4, 3×3) as [`transform_entries`]'s; F(2×2, 5×5),
/// F(4×4, 5×5) and F(6×6, 3×3) have NCHW ones only (`Winograd5x5`, `Winograd5x5Tile4` and
/// `Winograd6x6` run channels-last tensors through a relayout).
fn transform4_entries(
    transform: WinogradTransform,
    products_nhwc: bool,
    tensors: MemoryFormat,
) -> (shader4::Entry, shader4::Entry) {
    use shader4::Entry;
    let nchw_only = match transform {
        WinogradTransform::F2X2_5X5 => Some((Entry::Winograd5Input, Entry::Winograd5Output)),
        WinogradTransform::F4X4_5X5 => Some((Entry::Winograd8Input, Entry::Winograd8Output)),
        WinogradTransform::F6X6_3X3 => Some((Entry::Winograd6Input, Entry::Winograd6Output)),
        _ => None,
    };
    if let Some(entries) = nchw_only {
        debug_assert!(!products_nhwc && tensors != MemoryFormat::ChannelsLast);
        return entries;
    }
    match (products_nhwc, tensors) {
        (true, MemoryFormat::ChannelsLast) => (Entry::Winograd4InputChannelsLast, Entry::Winograd4OutputChannelsLast),
        (true, _) => (Entry::Winograd4InputNhwc, Entry::Winograd4OutputNhwc),
        (false, _) => (Entry::Winograd4Input, Entry::Winograd4Output),
    }
}

/// The weight transform's entry point of `transform`, one of `conv2d_winograd4.wgsl`'s.
fn weight4_entry(transform: WinogradTransform) -> shader4::Entry {
    match transform {
        WinogradTransform::F2X2_5X5 => shader4::Entry::Winograd5Weight,
        WinogradTransform::F4X4_5X5 => shader4::Entry::Winograd8Weight,
        WinogradTransform::F6X6_3X3 => shader4::Entry::Winograd6Weight,
        _ => shader4::Entry::Winograd4Weight,
    }
}

/// `entry` of the expansion of `conv2d_winograd4.wgsl` that writes f16.
fn narrowing4_entry(entry: shader4::Entry) -> narrowing4::Entry {
    use shader4::Entry;
    match entry {
        Entry::Winograd4Weight => narrowing4::Entry::Winograd4Weight,
        Entry::Winograd4Input => narrowing4::Entry::Winograd4Input,
        Entry::Winograd4Output => narrowing4::Entry::Winograd4Output,
        Entry::Winograd4InputNhwc => narrowing4::Entry::Winograd4InputNhwc,
        Entry::Winograd4OutputNhwc => narrowing4::Entry::Winograd4OutputNhwc,
        Entry::Winograd4InputChannelsLast => narrowing4::Entry::Winograd4InputChannelsLast,
        Entry::Winograd4OutputChannelsLast => narrowing4::Entry::Winograd4OutputChannelsLast,
        Entry::Winograd5Weight => narrowing4::Entry::Winograd5Weight,
        Entry::Winograd5Input => narrowing4::Entry::Winograd5Input,
        Entry::Winograd5Output => narrowing4::Entry::Winograd5Output,
        Entry::Winograd8Weight => narrowing4::Entry::Winograd8Weight,
        Entry::Winograd8Input => narrowing4::Entry::Winograd8Input,
        Entry::Winograd8Output => narrowing4::Entry::Winograd8Output,
        Entry::Winograd6Weight => narrowing4::Entry::Winograd6Weight,
        Entry::Winograd6Input => narrowing4::Entry::Winograd6Input,
        Entry::Winograd6Output => narrowing4::Entry::Winograd6Output,
    }
}

/// What a pass of `conv2d_winograd4.wgsl`'s transforms (F(4×4, 3×3), F(2×2, 5×5), F(4×4, 5×5)
/// or F(6×6, 3×3), `transform`) runs: its entry point, its activation (the output transform's), the band of
/// tile rows it covers (first, count), all of them where `None`, and for the weight transform
/// whether it writes `Winograd4x4Coop`'s plain weight rather than the GEMM kernels' packed one.
#[derive(Clone, Copy)]
struct Winograd4Pass {
    transform: WinogradTransform,
    entry: shader4::Entry,
    activation: Activation,
    band: Option<[u32; 2]>,
    products_nhwc: bool,
}

/// Whether a convolution the planner gives `planned` runs `WinogradCoop` instead because a
/// [`crate::Conv2d`] kept that kernel's transformed weight (`kept`): R62 gives
/// `Winograd4x4Coop` layers by their input's size, which `Conv2d::new` does not know, so for
/// R40's and R42's channel counts it keeps `WinogradCoop`'s transform; running F(4×4, 3×3) on
/// such a `Conv2d` would transform and prepack its 36·IC·OC weight in each run, as long as the
/// products themselves on R62's smaller grids (v59). A forced kernel runs as forced, and
/// `Conv2d::new_for_input` keeps the transform of the kernel it plans.
pub(crate) fn runs_kept_coop_weight(planned: ConvKernel, kept: Option<ConvKernel>, forced: &ForcedPlan) -> bool {
    planned == ConvKernel::Winograd4x4Coop && kept == Some(ConvKernel::WinogradCoop) && forced.kernel.is_none()
}

/// Winograd's intermediates: the transformed input V and the products M.
#[derive(Clone, Copy)]
struct Intermediates<'a> {
    input: &'a Tensor,
    products: &'a Tensor,
}

/// How a part's three passes run: the output transform's activation, the products' K-tile
/// loads as forced or tuned (where they run on the staged fp32 tiles; `None`: R69's or R70's)
/// and the tile rows of a band.
#[derive(Clone, Copy)]
struct Passes {
    activation: Activation,
    products_loads: Option<KTileLoads>,
    band_rows: u32,
}

impl Batch<'_> {
    /// The kernel a convolution of `g` the planner gives `planned` runs with the transformed
    /// weight `kept` (a [`crate::Conv2d`]'s): `WinogradCoop` where it kept that kernel's for
    /// R62's `Winograd4x4Coop` ([`runs_kept_coop_weight`]) and `WinogradCoop` can run `g` on
    /// this device; else `planned`.
    pub(super) fn winograd_kernel_for(
        &self,
        planned: ConvKernel,
        kept: Option<&WinogradWeight>,
        forced: &ForcedPlan,
        g: &ConvGeometry,
    ) -> ConvKernel {
        let limits = self.ctx.limits();
        let alignment = u64::from(limits.min_storage_buffer_offset_alignment);
        let coop = ConvKernel::WinogradCoop;
        let coop_runs = || g.winograd_parts(coop, limits.max_storage_buffer_binding_size, alignment).is_some();
        match runs_kept_coop_weight(planned, kept.map(|t| t.kernel), forced) && coop_runs() {
            true => coop,
            false => planned,
        }
    }

    /// Records a Winograd convolution by `kernel` (`Winograd`, `WinogradCoop`, `WinogradFused`,
    /// `Winograd4x4`, `Winograd4x4Coop`, `Winograd5x5`, `Winograd5x5Tile4` or `Winograd6x6`): the weight
    /// transform (unless `transformed`, a [`crate::Conv2d`]'s, is given for this kernel: f32 for
    /// `Winograd`, `Winograd4x4`, `Winograd5x5`, `Winograd5x5Tile4` and `Winograd6x6`, f16 for the others), then
    /// for `WinogradFused` its one pass ([`Batch::encode_winograd_fused`]), else the input
    /// transform, the products (`Winograd`, `Winograd4x4`, `Winograd5x5`, `Winograd5x5Tile4`, `Winograd6x6`: on
    /// the GEMM kernel the planner picks for them, a staged-tile one if it would pick another;
    /// `WinogradCoop`, `Winograd4x4Coop`: on `CoopNhwc`), and the output transform with the bias
    /// and `activation`. The products' K-tile loads are `products_loads`, else R69's or R70's
    /// ([`products_plan`]).
    pub(super) fn encode_winograd(
        &mut self,
        kernel: ConvKernel,
        buffers: ConvBuffers<'_>,
        transformed: Option<&WinogradWeight>,
        g: &ConvGeometry,
        activation: Activation,
        products_loads: Option<KTileLoads>,
    ) -> Result<()> {
        if kernel == ConvKernel::WinogradFused {
            return self.encode_winograd_fused(buffers, transformed, g, activation);
        }
        let limits = self.ctx.limits();
        let alignment = u64::from(limits.min_storage_buffer_offset_alignment);
        let parts = g.winograd_parts(kernel, limits.max_storage_buffer_binding_size, alignment).ok_or_else(|| {
            Error::unavailable(kernel.name(), "its intermediates do not fit this device's storage bindings".to_string())
        })?;
        let images = parts.images;
        let transformed = self.winograd_weight_kept_or_new(kernel, transformed, buffers.weight, g)?.tensor;
        let (in_image, out_image) = g.winograd_image_bytes();
        let mut first = 0;
        while first < g.n {
            let part = ConvGeometry { n: images.min(g.n - first), ..g.clone() };
            // The whole tensors when the batch is one part, else this part's images.
            let window = |image_bytes: u64| {
                (images < g.n).then(|| (u64::from(first) * image_bytes, u64::from(part.n) * image_bytes))
            };
            let windows = Windows { input: window(in_image), output: window(out_image) };
            let passes = Passes { activation, products_loads, band_rows: parts.band_rows };
            self.encode_winograd_part(kernel, buffers, &transformed, &part, windows, passes)?;
            first += part.n;
        }
        Ok(())
    }

    /// The input transform, the products and the output transform of the images of `part`,
    /// bound at `windows` of the input and output, in bands of `passes.band_rows` tile rows:
    /// each band's three passes in turn, through intermediates that hold one band.
    fn encode_winograd_part(
        &mut self,
        kernel: ConvKernel,
        buffers: ConvBuffers<'_>,
        transformed: &Tensor,
        part: &ConvGeometry,
        windows: Windows,
        passes: Passes,
    ) -> Result<()> {
        let ctx = self.ctx;
        let band_rows = passes.band_rows;
        let nhwc = kernel.winograd_products_on_tensor_cores();
        let transform = kernel.winograd_transform();
        let tile_rows = part.winograd_tile_grid_of(transform.tile)[0];
        let (input_len, products_len) = part.winograd_band_scratch_len(transform, band_rows);
        // `CoopNhwc` rounds V to f16 as it loads it, so `WinogradCoop` and `Winograd4x4Coop`
        // write it in f16: half the traffic, the same products.
        let input_dtype = if nhwc { DType::F16 } else { DType::F32 };
        let input =
            ctx.scratch(Scratch::WinogradInput, "Winograd's transformed input", input_dtype, input_len as usize)?;
        let products =
            ctx.scratch(Scratch::WinogradProducts, "Winograd's products", DType::F32, products_len as usize)?;
        let mut first = 0;
        while first < tile_rows {
            let band = [first, band_rows.min(tile_rows - first)];
            let tensors = Intermediates { input: &input, products: &products };
            self.encode_winograd_band(kernel, buffers, transformed, part, windows, tensors, band, passes)?;
            first += band[1];
        }
        Ok(())
    }

    /// The three passes of `encode_winograd_part` over the tile rows `band` (first, count) of
    /// its images, through the intermediates `tensors`.
    #[allow(clippy::too_many_arguments)]
    fn encode_winograd_band(
        &mut self,
        kernel: ConvKernel,
        buffers: ConvBuffers<'_>,
        transformed: &Tensor,
        part: &ConvGeometry,
        windows: Windows,
        tensors: Intermediates<'_>,
        band: [u32; 2],
        passes: Passes,
    ) -> Result<()> {
        let ctx = self.ctx;
        let activation = passes.activation;
        let nhwc = kernel.winograd_products_on_tensor_cores();
        let Intermediates { input, products } = tensors;
        let algorithm = kernel.winograd_transform();
        let gemm = part.winograd_band_gemm(algorithm, band[1])?;
        let input_pass = ConvBuffers { output: input, bias: None, ..buffers };
        let input_window = Windows { input: windows.input, output: None };
        let transform =
            Transform { products_nhwc: nhwc, activation: Activation::None, band: Some(band), packed_u: None };
        // Channels-last tensors (`WinogradCoop`, `Winograd4x4Coop`) are read and written as they
        // are.
        let format = buffers.input.memory_format();
        let (input_entry, output_entry) = transform_entries(nhwc, format);
        let (input_entry4, output_entry4) = transform4_entries(algorithm, nhwc, format);
        if algorithm.in_winograd4_shader() {
            let pass = Winograd4Pass {
                transform: algorithm,
                entry: input_entry4,
                activation: Activation::None,
                band: Some(band),
                products_nhwc: nhwc,
            };
            self.winograd4_pass(pass, part, input_pass, input_window)?;
        } else {
            self.winograd_pass(input_entry, part, input_pass, transform, input_window)?;
        }

        let gemm_buffers = ConvBuffers { input, weight: transformed, bias: None, output: products };
        if nhwc {
            self.record_coop_nhwc(gemm_buffers, &gemm, Activation::None)?;
        } else {
            let mut plan = products_plan(ctx, &gemm, kernel)?;
            // K-tile loads as forced or tuned, else R69's or R70's (`products_plan`).
            if let (Some(launch), Some(loads)) = (plan.gemm.as_mut(), passes.products_loads) {
                launch.loads = loads;
            }
            self.encode_planned_gemm(plan, Some(transformed), gemm_buffers, &gemm, Activation::None)?;
        }

        let output_pass = ConvBuffers { input: products, ..buffers };
        let output_window = Windows { input: None, output: windows.output };
        let transform = Transform { products_nhwc: nhwc, activation, band: Some(band), packed_u: None };
        if algorithm.in_winograd4_shader() {
            let pass = Winograd4Pass {
                transform: algorithm,
                entry: output_entry4,
                activation,
                band: Some(band),
                products_nhwc: nhwc,
            };
            self.winograd4_pass(pass, part, output_pass, output_window)
        } else {
            self.winograd_pass(output_entry, part, output_pass, transform, output_window)
        }
    }

    /// The transformed weight for a convolution of geometry `g` run in parts (batch chunks, row
    /// bands), each of which may run Winograd: the call's own (a `Conv2d`'s) where it is the one
    /// the planned kernel runs, else one made here, so that the parts do not each transform it.
    /// The kernel is the one forced, or planned for the whole of `g`; a part planned otherwise
    /// (a row band off R31's sizes) ignores it, at the cost of this one transform.
    pub(super) fn winograd_weight_for_parts(
        &mut self,
        call: &ConvCall<'_>,
        g: &ConvGeometry,
    ) -> Result<Option<WinogradWeight>> {
        let limit = self.ctx.limits().max_storage_buffer_binding_size;
        let filters = [WinogradTransform::F2X2_3X3.filter, WinogradTransform::F2X2_5X5.filter];
        let shape = filters.iter().any(|&r| g.winograd_shape_of(r)) || g.winograd_runs_filter(ConvKernel::Winograd4x4);
        if call.weight.dtype() != DType::F32 || !shape {
            return Ok(None);
        }
        let kernel = match conv_plan::plan(self.ctx, g, DType::F32, call.opts.precision, call.forced) {
            Ok(plan) if plan.kernel.transforms_winograd_weight() => plan.kernel,
            _ => return Ok(None),
        };
        let kernel = self.winograd_kernel_for(kernel, call.packed_winograd, call.forced, g);
        if !g.winograd_kernel_weight_fits(kernel, limit) {
            return Ok(None);
        }
        Ok(Some(self.winograd_weight_kept_or_new(kernel, call.packed_winograd, call.weight, g)?))
    }

    /// `kept` where it was transformed for `kernel`, else the transform `kernel` runs, made here
    /// from `weight` for `g`'s geometry ([`Batch::winograd_weight_for`]).
    fn winograd_weight_kept_or_new(
        &mut self,
        kernel: ConvKernel,
        kept: Option<&WinogradWeight>,
        weight: &Tensor,
        g: &ConvGeometry,
    ) -> Result<WinogradWeight> {
        match kept {
            Some(t) if t.kernel == kernel => Ok(t.clone()),
            _ => self.winograd_weight_for(kernel, weight, g),
        }
    }

    /// The transformed weight `kernel` (`Winograd`, `WinogradCoop`, `WinogradFused`,
    /// `Winograd4x4`, `Winograd4x4Coop`, `Winograd5x5`, `Winograd5x5Tile4` or `Winograd6x6`) runs
    /// for a convolution of `g`'s geometry: [`Batch::winograd_weight_coop`],
    /// [`Batch::winograd_weight_fused`] or [`Batch::winograd_weight`].
    pub(super) fn winograd_weight_for(
        &mut self,
        kernel: ConvKernel,
        weight: &Tensor,
        g: &ConvGeometry,
    ) -> Result<WinogradWeight> {
        let tensor = match kernel {
            ConvKernel::WinogradCoop | ConvKernel::Winograd4x4Coop => self.winograd_weight_coop(kernel, weight, g)?,
            ConvKernel::WinogradFused => self.winograd_weight_fused(weight, g)?,
            _ => self.winograd_weight(kernel, weight, g)?,
        };
        Ok(WinogradWeight { kernel, tensor })
    }

    /// Records the weight transform of a [`ConvKernel::WinogradFused`] convolution of `g`'s
    /// geometry (`weight` [OC, IC, 3, 3], f32) into a new f16 tensor, U as that kernel reads it:
    /// [16 positions][IC rounded up to 16][OC rounded up to its workgroup's channels], the
    /// padding zero.
    pub(super) fn winograd_weight_fused(&mut self, weight: &Tensor, g: &ConvGeometry) -> Result<Tensor> {
        let len = g.winograd_fused_u_len();
        fits_u32("Winograd's transformed weight", len)?;
        self.ctx.check_binding("Winograd's transformed weight", len * 2)?;
        // Zero-filled: the padding rows and columns stay zero.
        let transformed = Tensor::zeros(self.ctx, &[len as usize], DType::F16)?;
        let buffers = ConvBuffers { input: weight, weight, bias: None, output: &transformed };
        let packed_u = Some(g.winograd_fused_u());
        let transform = Transform { products_nhwc: false, activation: Activation::None, band: None, packed_u };
        self.winograd_pass(shader::Entry::WinogradWeight, g, buffers, transform, Windows::default())?;
        Ok(transformed)
    }

    /// Records `WinogradFused` on `buffers` (NCHW tensors, or channels-last ones where the input
    /// is: the output must be in the input's format), with its transformed weight `transformed`
    /// where it is this kernel's, else one made here.
    fn encode_winograd_fused(
        &mut self,
        buffers: ConvBuffers<'_>,
        transformed: Option<&WinogradWeight>,
        g: &ConvGeometry,
        activation: Activation,
    ) -> Result<()> {
        let u = self.winograd_weight_kept_or_new(ConvKernel::WinogradFused, transformed, buffers.weight, g)?.tensor;
        let mut overrides = fused::Overrides::new();
        overrides.channels_last = buffers.input.memory_format() == MemoryFormat::ChannelsLast;
        (overrides.u_rows, overrides.u_cols) = g.winograd_fused_u();
        debug_assert_eq!(u.numel() as u64, g.winograd_fused_u_len(), "a kept U of another layout");
        (overrides.activation, overrides.clamp_min, overrides.clamp_max) =
            super::conv_encode::activation_constants(activation);
        let [x, y] = g.winograd_fused_grid().map(|d| d as u32);
        let pass = Pass::new(g.winograd_fused_shape().entry, &overrides, [x, y, 1]);
        let buffers = ConvBuffers { weight: &u, ..buffers };
        self.encode_conv::<fused::Shader>(pass, g, buffers)
    }

    /// Records the weight transform of a [`ConvKernel::WinogradCoop`] or
    /// [`ConvKernel::Winograd4x4Coop`] convolution (`kernel`) of `g`'s geometry (`weight` [OC, IC,
    /// 3, 3], f32) prepacked to f16 for `CoopNhwc` into the new tensor it returns.
    pub(super) fn winograd_weight_coop(
        &mut self,
        kernel: ConvKernel,
        weight: &Tensor,
        g: &ConvGeometry,
    ) -> Result<Tensor> {
        let transform = kernel.winograd_transform();
        let plain = self.winograd_weight_plain(transform, weight, g)?;
        self.pack_weight_coop(&plain, PackLayout::of(&g.winograd_gemm(transform)?))
    }

    /// Records the weight transform of F(m×m, 3×3) (`transform`, for the tensor-core kernels) for
    /// a convolution of `g`'s geometry (`weight` [OC, IC, 3, 3], f32) into a new f32 tensor
    /// [P·OC, IC, 1, 1] (P its 16 or 36 positions): U as the plain weight of its products'
    /// grouped 1×1 convolution, position t's rows at t·OC.
    fn winograd_weight_plain(
        &mut self,
        transform: WinogradTransform,
        weight: &Tensor,
        g: &ConvGeometry,
    ) -> Result<Tensor> {
        let positions = transform.positions();
        let len = u64::from(positions) * u64::from(g.ic) * u64::from(g.oc);
        fits_u32("Winograd's transformed weight", len)?;
        self.ctx.check_binding("Winograd's transformed weight", len * 4)?;
        let shape = [positions as usize * g.oc as usize, g.ic as usize, 1, 1];
        let plain = Tensor::zeros(self.ctx, &shape, DType::F32)?;
        self.winograd_weight_pass(
            transform,
            true,
            g,
            ConvBuffers { input: weight, weight, bias: None, output: &plain },
        )?;
        Ok(plain)
    }

    /// Records the weight transform of a [`ConvKernel::Winograd`], [`ConvKernel::Winograd4x4`],
    /// [`ConvKernel::Winograd5x5`], [`ConvKernel::Winograd5x5Tile4`] or [`ConvKernel::Winograd6x6`]
    /// convolution (`kernel`) of
    /// `g`'s geometry (`weight` [OC, IC, r, r], f32) into a new tensor in the GEMM kernels' packed
    /// layout of its products' grouped 1×1 convolution (16, 36 or 64 groups), and returns it.
    pub(super) fn winograd_weight(&mut self, kernel: ConvKernel, weight: &Tensor, g: &ConvGeometry) -> Result<Tensor> {
        debug_assert!(
            matches!(
                kernel,
                ConvKernel::Winograd
                    | ConvKernel::Winograd4x4
                    | ConvKernel::Winograd5x5
                    | ConvKernel::Winograd5x5Tile4
                    | ConvKernel::Winograd6x6
            ),
            "{kernel:?}"
        );
        let transform = kernel.winograd_transform();
        let len = g.winograd_weight_len(transform);
        fits_u32("Winograd's transformed weight", len)?;
        self.ctx.check_binding("Winograd's transformed weight", len * 4)?;
        // Zero-filled: the packed layout's padding channels stay zero.
        let transformed = Tensor::zeros(self.ctx, &[len as usize], DType::F32)?;
        let buffers = ConvBuffers { input: weight, weight, bias: None, output: &transformed };
        self.winograd_weight_pass(transform, false, g, buffers)?;
        Ok(transformed)
    }

    /// Records `transform`'s weight transform of `buffers.input` into `buffers.output`: U as the
    /// plain weight of its products' grouped 1×1 convolution where `products_nhwc`
    /// ([`Batch::winograd_weight_plain`]), else in the GEMM kernels' packed layout
    /// ([`Batch::winograd_weight`]).
    fn winograd_weight_pass(
        &mut self,
        transform: WinogradTransform,
        products_nhwc: bool,
        g: &ConvGeometry,
        buffers: ConvBuffers<'_>,
    ) -> Result<()> {
        let activation = Activation::None;
        if transform.in_winograd4_shader() {
            let entry = weight4_entry(transform);
            let pass = Winograd4Pass { transform, entry, activation, band: None, products_nhwc };
            self.winograd4_pass(pass, g, buffers, Windows::default())
        } else {
            let pass = Transform { products_nhwc, activation, band: None, packed_u: None };
            self.winograd_pass(shader::Entry::WinogradWeight, g, buffers, pass, Windows::default())
        }
    }

    /// One pass of F(4×4, 3×3), F(2×2, 5×5), F(4×4, 5×5) or F(6×6, 3×3)
    /// (`shaders/conv2d_winograd4.wgsl`, or its expansion that writes f16 where `buffers.output`
    /// is f16) over `g`: one thread per channel pair of the weight transform, per (image, channel, tile) of the NCHW transforms and of those that read or
    /// write channels-last tensors; one workgroup of 256 per block of tiles × channels of an
    /// image for the block transforms (NCHW tensors, channels-last products); over the tile rows
    /// of `pass.band` (all where `None`).
    fn winograd4_pass(
        &mut self,
        pass: Winograd4Pass,
        g: &ConvGeometry,
        buffers: ConvBuffers<'_>,
        windows: Windows,
    ) -> Result<()> {
        use shader4::Entry;
        let limits = self.ctx.limits();
        let [all_rows, tile_cols] = g.winograd_tile_grid_of(pass.transform.tile);
        let [first_row, tile_rows] = pass.band.unwrap_or([0, all_rows]);
        let tiles = u64::from(tile_rows) * u64::from(tile_cols);
        let per_thread = |items: u64| (items, dispatch::workgroup_size(&limits), None);
        // The block passes' tile columns per block; the other passes leave the override at its
        // default, so that their pipelines do not multiply with the image's width.
        let block = |input: bool, channels: u32| {
            let (cols, rows, block_channels) = nhwc_block4(g, input, buffers.output.dtype());
            let blocks = u64::from(tile_cols.div_ceil(cols))
                * u64::from(tile_rows.div_ceil(rows))
                * u64::from(channels.div_ceil(block_channels));
            (u64::from(g.n) * blocks * 256, 256, Some(cols))
        };
        let (items, wg_size, block_cols) = match pass.entry {
            Entry::Winograd4Weight | Entry::Winograd5Weight | Entry::Winograd8Weight | Entry::Winograd6Weight => {
                per_thread(u64::from(g.ic) * u64::from(g.oc))
            }
            Entry::Winograd4Input
            | Entry::Winograd4InputChannelsLast
            | Entry::Winograd5Input
            | Entry::Winograd8Input
            | Entry::Winograd6Input => per_thread(u64::from(g.n) * u64::from(g.ic) * tiles),
            Entry::Winograd4Output
            | Entry::Winograd4OutputChannelsLast
            | Entry::Winograd5Output
            | Entry::Winograd8Output
            | Entry::Winograd6Output => per_thread(u64::from(g.n) * u64::from(g.oc) * tiles),
            Entry::Winograd4InputNhwc => block(true, g.ic),
            Entry::Winograd4OutputNhwc => block(false, g.oc),
        };
        let grid = dispatch::grid(items, wg_size, limits.max_compute_workgroups_per_dimension)?;
        // The channels-last entries tile undilated filters only (`winograd_runs_filter`).
        let channels_last = matches!(
            pass.entry,
            Entry::Winograd4InputNhwc
                | Entry::Winograd4OutputNhwc
                | Entry::Winograd4InputChannelsLast
                | Entry::Winograd4OutputChannelsLast
        );
        debug_assert!(!channels_last || g.dilation == [1, 1], "{:?} on a dilated filter", pass.entry);
        // The same pass from either expansion of the shader: the one that writes `output`'s dtype.
        macro_rules! record {
            ($module:ident, $entry:expr) => {{
                let mut overrides = $module::Overrides::new(grid.stride_x);
                overrides.wg_size = grid.wg_size;
                overrides.products_nhwc = pass.products_nhwc;
                // The dilated tile indexing (1 for every layer but a dilated `Winograd4x4`'s).
                (overrides.spec_dilation_h, overrides.spec_dilation_w) = (g.dilation[0], g.dilation[1]);
                if let Some(cols) = block_cols {
                    overrides.block_cols = cols;
                }
                (overrides.activation, overrides.clamp_min, overrides.clamp_max) =
                    super::conv_encode::activation_constants(pass.activation);
                let recorded = Pass::new($entry, &overrides, grid.dims());
                let mut params = super::conv_encode::conv_params(g, buffers.bias.is_some());
                (params.tile_row0, params.tile_rows) = (first_row, tile_rows);
                self.encode_conv_with_params::<$module::Shader>(recorded, &params, buffers, windows)
            }};
        }
        match buffers.output.dtype() {
            DType::F16 => record!(narrowing4, narrowing4_entry(pass.entry)),
            _ => record!(shader4, pass.entry),
        }
    }

    /// One transform pass of `entry` over `g`: one thread per channel pair of the weight
    /// transform, per (image, channel, tile) of `Winograd`'s and of those that read or write
    /// channels-last tensors; one workgroup of `NHWC_BLOCK_THREADS` per block of tiles ×
    /// channels of an image for the block transforms (NCHW tensors, channels-last products;
    /// input channels for the input transform, output channels for the output transform).
    fn winograd_pass(
        &mut self,
        entry: shader::Entry,
        g: &ConvGeometry,
        buffers: ConvBuffers<'_>,
        transform: Transform,
        windows: Windows,
    ) -> Result<()> {
        let limits = self.ctx.limits();
        let [all_rows, tile_cols] = g.winograd_tile_grid();
        let [first_row, tile_rows] = transform.band.unwrap_or([0, all_rows]);
        let tiles = u64::from(tile_rows) * u64::from(tile_cols);
        let channels = u64::from(match entry {
            shader::Entry::WinogradInput
            | shader::Entry::WinogradInputNhwc
            | shader::Entry::WinogradInputChannelsLast => g.ic,
            _ => g.oc,
        });
        // The block passes' tile columns per block; the other passes leave the override at its
        // default, so that their pipelines do not multiply with the image's width.
        let (items, wg_size, block_cols) = match entry {
            shader::Entry::WinogradWeight => (u64::from(g.ic) * channels, dispatch::workgroup_size(&limits), None),
            shader::Entry::WinogradInput
            | shader::Entry::WinogradOutput
            | shader::Entry::WinogradInputChannelsLast
            | shader::Entry::WinogradOutputChannelsLast => {
                (u64::from(g.n) * channels * tiles, dispatch::workgroup_size(&limits), None)
            }
            shader::Entry::WinogradInputNhwc | shader::Entry::WinogradOutputNhwc => {
                let (cols, rows, block_channels) = nhwc_block(g, buffers.output.dtype());
                let blocks = u64::from(tile_cols.div_ceil(cols))
                    * u64::from(tile_rows.div_ceil(rows))
                    * channels.div_ceil(u64::from(block_channels));
                (u64::from(g.n) * blocks * u64::from(NHWC_BLOCK_THREADS), NHWC_BLOCK_THREADS, Some(cols))
            }
        };
        let grid = dispatch::grid(items, wg_size, limits.max_compute_workgroups_per_dimension)?;
        // The same pass from either expansion of the shader: the one that writes `output`'s dtype.
        macro_rules! record {
            ($module:ident, $entry:expr) => {{
                let mut overrides = $module::Overrides::new(grid.stride_x);
                overrides.wg_size = grid.wg_size;
                overrides.products_nhwc = transform.products_nhwc;
                if let Some(cols) = block_cols {
                    overrides.block_cols = cols;
                }
                if let Some((rows, cols)) = transform.packed_u {
                    (overrides.u_rows, overrides.u_cols) = (rows, cols);
                }
                (overrides.activation, overrides.clamp_min, overrides.clamp_max) =
                    super::conv_encode::activation_constants(transform.activation);
                let pass = Pass::new($entry, &overrides, grid.dims());
                let mut params = super::conv_encode::conv_params(g, buffers.bias.is_some());
                (params.tile_row0, params.tile_rows) = (first_row, tile_rows);
                self.encode_conv_with_params::<$module::Shader>(pass, &params, buffers, windows)
            }};
        }
        match buffers.output.dtype() {
            DType::F16 => record!(narrowing, narrowing_entry(entry)),
            _ => record!(shader, entry),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn geo(input: &[usize], weight: &[usize], opts: ConvOptions) -> ConvGeometry {
        ConvGeometry::new(input, weight, None, &opts).unwrap()
    }

    /// R69: F(4×4, 3×3)'s and F(4×4, 5×5)'s products load their K-tiles in their own iteration
    /// up to 128 input channels (AlexNet's and ResNet-50's 64), a K-tile ahead above (the SD
    /// VAE's 512) and for the kernels not measured there.
    #[test]
    fn short_products_load_their_k_tiles_in_their_iteration() {
        let (f4, f45) = (ConvKernel::Winograd4x4, ConvKernel::Winograd5x5Tile4);
        assert_eq!(products_k_tile_loads(f4, 32), KTileLoads::InIteration);
        assert_eq!(products_k_tile_loads(f45, 128), KTileLoads::InIteration);
        assert_eq!(products_k_tile_loads(f4, 129), KTileLoads::Ahead);
        assert_eq!(products_k_tile_loads(f45, 512), KTileLoads::Ahead);
        for other in [ConvKernel::Winograd, ConvKernel::Winograd5x5, ConvKernel::Winograd6x6] {
            assert_eq!(products_k_tile_loads(other, 64), KTileLoads::Ahead, "{other:?}");
        }
    }

    /// R70: above 128 input channels F(4×4, 3×3)'s products run on the 64 × 64 tiles, their
    /// K-tiles loaded in their own iteration; F(6×6, 3×3)'s and F(4×4, 5×5)'s only where the
    /// planner gives them the 64-row tiles; the others and short K keep the planner's tiles and
    /// R69's loop.
    #[test]
    fn wide_products_run_on_square_tiles() {
        let (f4, f6, f45) = (ConvKernel::Winograd4x4, ConvKernel::Winograd6x6, ConvKernel::Winograd5x5Tile4);
        let (m64, k16) = (ConvKernel::GemmM64K16, ConvKernel::GemmK16);
        assert!(products_on_square_tiles(f4, k16, 129) && products_on_square_tiles(f4, m64, 512));
        assert!(!products_on_square_tiles(f4, m64, 128));
        assert!(products_on_square_tiles(f6, m64, 320) && products_on_square_tiles(f45, m64, 192));
        assert!(!products_on_square_tiles(f6, k16, 512) && !products_on_square_tiles(f45, k16, 256));
        for other in [ConvKernel::Winograd, ConvKernel::Winograd5x5] {
            assert!(!products_on_square_tiles(other, m64, 512), "{other:?}");
        }

        // As planned: 24 × 24 tiles of F(4×4, 3×3) into 72 channels, whose products the planner
        // gives the 64-row tiles at 128 and 136 channels (a layer of
        // `winograd_products_take_the_forced_k_loop`, tests/tests/conv.rs).
        let ctx = crate::Context::new().expect("a GPU context (lavapipe in CI)");
        let same = ConvOptions::default().padding(&[1]);
        let products = |ic: usize| {
            let g = geo(&[1, ic, 96, 96], &[72, ic, 3, 3], same.clone());
            let gemm = g.winograd_band_gemm(f4.winograd_transform(), 24).unwrap();
            let planned = conv_plan::plan(&ctx, &gemm, DType::F32, Precision::F32, &ForcedPlan::default()).unwrap();
            let plan = products_plan(&ctx, &gemm, f4).unwrap();
            let loads = plan.gemm.map(|launch| launch.loads);
            assert_eq!(planned_products_k_tile_loads(&ctx, &g, f4), loads, "{ic} channels");
            (planned.kernel, plan.kernel, loads)
        };
        assert_eq!(products(128), (m64, m64, Some(KTileLoads::InIteration)));
        assert_eq!(products(136), (m64, ConvKernel::GemmN64K16, Some(KTileLoads::InIteration)));
    }

    /// R62's `Winograd4x4Coop` yields to `WinogradCoop` only for the transform a `Conv2d` kept
    /// for it, and never where a kernel is forced.
    #[test]
    fn a_kept_coop_transform_keeps_its_kernel() {
        let (f4, f2) = (ConvKernel::Winograd4x4Coop, ConvKernel::WinogradCoop);
        let planned = ForcedPlan::default();
        assert!(runs_kept_coop_weight(f4, Some(f2), &planned));
        assert!(!runs_kept_coop_weight(f4, Some(f4), &planned));
        assert!(!runs_kept_coop_weight(f4, None, &planned));
        assert!(!runs_kept_coop_weight(f4, Some(ConvKernel::WinogradFused), &planned));
        assert!(!runs_kept_coop_weight(f2, Some(f2), &planned));
        assert!(!runs_kept_coop_weight(f4, Some(f2), &ForcedPlan::kernel(f4)));
    }

    #[test]
    fn the_products_are_a_grouped_pointwise_convolution_over_the_tiles() {
        // 7×9 output: 4×5 tiles, the last row and column cut.
        let g = geo(&[2, 8, 7, 9], &[12, 8, 3, 3], ConvOptions::default().padding(&[1]));
        assert!(g.winograd_shape());
        assert_eq!(g.winograd_tiles(), 20);
        let gemm = g.winograd_gemm(WinogradTransform::F2X2_3X3).unwrap();
        assert_eq!(gemm.output_shape(), vec![2, 16 * 12, 4, 5]);
        assert_eq!((gemm.groups, gemm.ic, gemm.kh, gemm.kw), (16, 16 * 8, 1, 1));
        assert_eq!(g.winograd_scratch_len(WinogradTransform::F2X2_3X3), (2 * 16 * 8 * 20, 2 * 16 * 12 * 20));
    }

    #[test]
    fn only_direct_3x3_stride_1_ungrouped_filters_suit_it() {
        let opts = || ConvOptions::default().padding(&[1]);
        let ok = geo(&[1, 8, 6, 6], &[8, 8, 3, 3], opts());
        let whole = WinogradParts { images: 1, band_rows: 3 };
        assert_eq!(ok.winograd_parts(ConvKernel::Winograd, 1 << 30, 256), Some(whole));
        for g in [
            geo(&[1, 8, 6, 6], &[8, 8, 3, 3], opts().stride(&[2])),
            geo(&[1, 8, 6, 6], &[8, 8, 3, 3], opts().dilation(&[2])),
            geo(&[1, 8, 6, 6], &[8, 4, 3, 3], opts().groups(2)),
            geo(&[1, 8, 6, 6], &[8, 8, 3, 3], opts().transposed(true)),
            geo(&[1, 8, 6, 6], &[8, 8, 5, 5], opts()),
            geo(&[1, 8, 6], &[8, 8, 3], opts()),
        ] {
            assert_eq!(g.winograd_parts(ConvKernel::Winograd, 1 << 30, 256), None, "{g:?}");
        }
        // Its transformed weight (16·8·8 f32 = 4096 bytes) must fit one binding.
        assert_eq!(ok.winograd_parts(ConvKernel::Winograd, 4092, 256), None);
    }

    #[test]
    fn images_whose_intermediates_exceed_a_binding_run_in_bands_of_tile_rows() {
        let opts = || ConvOptions::default().padding(&[1]);
        // 6×6 output: 3 tile rows of 16·3·8 = 384 f32 (1536 bytes) of V; 2 rows fit 4096 bytes,
        // so 2 bands, of 2 rows and 1.
        let g = geo(&[1, 8, 6, 6], &[8, 8, 3, 3], opts());
        let parts = g.winograd_parts(ConvKernel::Winograd, 4096, 256);
        assert_eq!(parts, Some(WinogradParts { images: 1, band_rows: 2 }));
        // 9 tile rows, 4 fit: 3 even bands of 3 rows rather than 4, 4 and 1.
        let tall = geo(&[1, 8, 18, 6], &[8, 8, 3, 3], opts());
        let parts = tall.winograd_parts(ConvKernel::WinogradCoop, 4 * 4 * 384, 256);
        assert_eq!(parts, Some(WinogradParts { images: 1, band_rows: 3 }));
        // A tile row of 100 tiles (16·100·8 f32 = 51 200 bytes) is the least a band holds.
        let wide = geo(&[1, 8, 4, 200], &[8, 8, 3, 3], opts());
        let parts = wide.winograd_parts(ConvKernel::Winograd, 51_200, 256);
        assert_eq!(parts, Some(WinogradParts { images: 1, band_rows: 1 }));
        assert_eq!(wide.winograd_parts(ConvKernel::Winograd, 51_196, 256), None);
    }

    /// `WinogradCoop`'s and `Winograd4x4Coop`'s transforms, checked where no cooperative
    /// matrices are (lavapipe): the weight, input and output transforms in their channels-last
    /// layouts, with the products' grouped 1×1 convolution run on the plain weight over
    /// channels-last intermediates by the fp32 kernels, must match the f64 reference like the
    /// NCHW path; on NCHW tensors (the block transforms, at every width of their blocks) and on
    /// NHWC ones (read and written as they are).
    #[test]
    fn channels_last_transforms_match_the_reference() {
        let ctx = crate::Context::new().expect("a GPU context (lavapipe in CI)");
        let mut state = 0x9e37_79b9_u32;
        let mut random = |len: usize| -> Vec<f32> {
            (0..len)
                .map(|_| {
                    state ^= state << 13;
                    state ^= state >> 17;
                    state ^= state << 5;
                    (state >> 8) as f32 / (1u32 << 24) as f32 * 2.0 - 1.0
                })
                .collect()
        };
        // (input, weight, padding), with the block transforms' blocks (tile columns × rows) of
        // f32 and 8 channels, F(2×2, 3×3)'s | F(4×4, 3×3)'s:
        // - 15×13 output: 8×7 tiles in 8 × 4 blocks | 4×4 tiles in 4 × 8, the last row and
        //   column cut; 24 → 20 channels, the last block of 8 output channels partial; two images;
        // - 7×67 output: 4×34 tiles in 32 × 1 blocks, the second column of blocks 2 tiles wide |
        //   2×17 tiles in one 32 × 1 block;
        // - 7×25 output (no padding): 4×13 tiles in one column of 16 × 2 blocks | 2×7 in one of
        //   8 × 4, 10 → 3 channels;
        // - 3×3 output: 2×2 tiles in one 4 × 8 block | one tile in one 4 × 8 block;
        // - 5×150 output: 3×75 tiles in 32 × 1 blocks | 2×38 in 32 × 1 blocks, the second column
        //   of blocks 6 tiles wide.
        let cases = [
            ([2, 24, 15, 13], [20, 24, 3, 3], 1),
            ([1, 8, 7, 67], [9, 8, 3, 3], 1),
            ([1, 10, 9, 27], [3, 10, 3, 3], 0),
            ([2, 5, 3, 3], [6, 5, 3, 3], 1),
            ([1, 8, 5, 150], [9, 8, 3, 3], 1),
        ];
        let transforms = [WinogradTransform::F2X2_3X3, WinogradTransform::F4X4_3X3];
        for ((input_shape, weight_shape, padding), transform) in
            cases.into_iter().flat_map(|c| transforms.map(|t| (c, t)))
        {
            let (ic, oc) = (input_shape[1], weight_shape[0]);
            let opts = ConvOptions::default().padding(&[padding]).activation(Activation::Relu);
            let g = geo(&input_shape, &weight_shape, opts.clone());
            let x = random(input_shape.iter().product());
            let (w, b) = (random(weight_shape.iter().product()), random(oc));
            let (expected, _) =
                crate::reference::convolution(&x, &input_shape, &w, &weight_shape, Some(&b), &opts).unwrap();
            let wt = Tensor::from_f32(&ctx, &w, &weight_shape).unwrap();
            let bt = Tensor::from_f32(&ctx, &b, &[oc]).unwrap();
            let channels_last = |t: Tensor| t.with_memory_format(MemoryFormat::ChannelsLast).unwrap();
            let tiles = g.winograd_tile_grid_of(transform.tile).map(|t| t as usize);
            let nhwc = |activation| Transform { products_nhwc: true, activation, band: None, packed_u: None };
            let products_opts = ConvOptions::default().groups(transform.positions());
            let forced = ForcedPlan::kernel(ConvKernel::GemmN64K16);
            // Every tile row in one band, and in bands of 3 rows (the last one ragged) and of 1.
            let bandings = [tiles[0], 3, 1];
            for (format, band_rows) in [MemoryFormat::Contiguous, MemoryFormat::ChannelsLast]
                .into_iter()
                .flat_map(|format| bandings.map(|rows| (format, rows)))
            {
                let (input_entry, output_entry) = transform_entries(true, format);
                let (input_entry4, output_entry4) = transform4_entries(transform, true, format);
                let xt = ctx.to_memory_format(&Tensor::from_f32(&ctx, &x, &input_shape).unwrap(), format).unwrap();
                let y = Tensor::full_f32(&ctx, &g.output_shape(), f32::NAN).unwrap();
                let y = y.with_memory_format(format).unwrap();
                let mut batch = ctx.batch();
                let plain = batch.winograd_weight_plain(transform, &wt, &g).unwrap();
                let buffers = ConvBuffers { input: &xt, weight: &wt, bias: Some(&bt), output: &y };
                // Last band first: each band must write its own rows only.
                for first in (0..tiles[0]).step_by(band_rows).rev() {
                    let rows = band_rows.min(tiles[0] - first);
                    let band = Some([first as u32, rows as u32]);
                    // Each band's intermediates poisoned afresh, numbered from its first row.
                    let v_shape = [input_shape[0], transform.positions() as usize * ic, rows, tiles[1]];
                    let v = channels_last(Tensor::full_f32(&ctx, &v_shape, f32::NAN).unwrap());
                    let m_shape = g.winograd_band_gemm(transform, rows as u32).unwrap().output_shape();
                    let m = channels_last(Tensor::full_f32(&ctx, &m_shape, f32::NAN).unwrap());
                    let input_pass = ConvBuffers { output: &v, bias: None, ..buffers };
                    let output_pass = ConvBuffers { input: &m, ..buffers };
                    if transform.in_winograd4_shader() {
                        let pass = |entry, activation| Winograd4Pass {
                            transform,
                            entry,
                            activation,
                            band,
                            products_nhwc: true,
                        };
                        let input = pass(input_entry4, Activation::None);
                        batch.winograd4_pass(input, &g, input_pass, Windows::default()).unwrap();
                        batch.convolution_into_forced(&v, &plain, None, &m, &products_opts, &forced).unwrap();
                        let output = pass(output_entry4, Activation::Relu);
                        batch.winograd4_pass(output, &g, output_pass, Windows::default()).unwrap();
                    } else {
                        let none = Transform { band, ..nhwc(Activation::None) };
                        batch.winograd_pass(input_entry, &g, input_pass, none, Windows::default()).unwrap();
                        batch.convolution_into_forced(&v, &plain, None, &m, &products_opts, &forced).unwrap();
                        let relu = Transform { band, ..nhwc(Activation::Relu) };
                        batch.winograd_pass(output_entry, &g, output_pass, relu, Windows::default()).unwrap();
                    }
                }
                batch.submit().unwrap();
                let got = ctx.to_memory_format(&y, MemoryFormat::Contiguous).unwrap().to_vec_f32(&ctx).unwrap();
                let err = crate::reference::relative_error(&got, &expected);
                let tile = transform.tile;
                let what = format!("F({tile}×{tile}) {input_shape:?}, {format}, bands of {band_rows}");
                assert!(err <= 1e-5, "{what}: relative error {err:e}");
            }
        }
    }

    /// The block transforms' blocks: the narrowest power of two of tile columns from 4 that
    /// covers a row of tiles, up to 32; 32 tiles a block; 8 channels of f32, 16 of f16.
    #[test]
    fn block_transforms_fill_their_blocks_with_rows_of_narrow_images() {
        let block = |oh: usize, ow: usize, dtype| {
            let g = geo(&[1, 8, oh, ow], &[8, 8, 3, 3], ConvOptions::default().padding(&[1]));
            nhwc_block(&g, dtype)
        };
        assert_eq!(block(3, 3, DType::F32), (4, 8, 8));
        assert_eq!(block(14, 14, DType::F32), (8, 4, 8));
        assert_eq!(block(20, 20, DType::F16), (16, 2, 16));
        assert_eq!(block(64, 64, DType::F32), (32, 1, 8));
        assert_eq!(block(8, 512, DType::F16), (32, 1, 16));
    }

    /// `WinogradCoop`'s and `Winograd4x4Coop`'s V in f16 (`conv2d_winograd_f16_out.wgsl`,
    /// `conv2d_winograd4_f16_out.wgsl`): each element one of the two
    /// f16 values nearest the f32 transform's, so the products see what rounding the f32 V as
    /// they load it gives; every element written (NaN-poisoned), ragged blocks; from NCHW and
    /// from NHWC tensors.
    #[test]
    fn the_f16_transformed_input_is_the_f32_one_rounded() {
        let ctx = crate::Context::new().expect("a GPU context (lavapipe in CI)");
        // 9×11 output: 5×6 tiles in blocks of 8 × 4 tiles (a partial second row of blocks), 12
        // channels: f32 blocks of 8 channels (a partial second one), f16 blocks of 16 (one
        // partial); 5×67 output: 3×34 tiles in blocks of 32 × 1 (a second column of blocks 2
        // tiles wide), 20 channels (two f16 blocks, the second partial).
        // F(4×4, 3×3) (`Winograd4x4Coop`): 3×3 tiles, in f32 blocks of 4 × 8 tiles and f16 ones
        // of 4 × 4; 2×17 tiles, in f32 blocks of 32 × 1 and f16 ones of 16 × 1 (a second column
        // of blocks 1 tile wide).
        let shapes = [([2, 12, 9, 11], [16, 12, 3, 3]), ([1, 20, 5, 67], [8, 20, 3, 3])];
        let transforms = [WinogradTransform::F2X2_3X3, WinogradTransform::F4X4_3X3];
        for ((input_shape, weight_shape), transform) in shapes.into_iter().flat_map(|c| transforms.map(|t| (c, t))) {
            let g = geo(&input_shape, &weight_shape, ConvOptions::default().padding(&[1]));
            let len_x = input_shape.iter().product::<usize>();
            let x: Vec<f32> = (0..len_x).map(|i| ((i * 7919 % 1000) as f32 - 500.0) / 97.0).collect();
            let wt = Tensor::zeros(&ctx, &weight_shape, DType::F32).unwrap();
            let (len, _) = g.winograd_scratch_len(transform);
            let nan_f16 = vec![half::f16::NAN; len as usize];
            // From NCHW tensors (the block transform) and from NHWC ones (read as they are).
            for format in [MemoryFormat::Contiguous, MemoryFormat::ChannelsLast] {
                let (entry, _) = transform_entries(true, format);
                let (entry4, _) = transform4_entries(transform, true, format);
                let xt = ctx.to_memory_format(&Tensor::from_f32(&ctx, &x, &input_shape).unwrap(), format).unwrap();
                let wide = Tensor::full_f32(&ctx, &[len as usize], f32::NAN).unwrap();
                let narrow = Tensor::from_f16(&ctx, &nan_f16, &[len as usize]).unwrap();
                let mut batch = ctx.batch();
                for v in [&wide, &narrow] {
                    let buffers = ConvBuffers { input: &xt, weight: &wt, bias: None, output: v };
                    if transform.in_winograd4_shader() {
                        let pass = Winograd4Pass {
                            transform,
                            entry: entry4,
                            activation: Activation::None,
                            band: None,
                            products_nhwc: true,
                        };
                        batch.winograd4_pass(pass, &g, buffers, Windows::default()).unwrap();
                    } else {
                        let transform =
                            Transform { products_nhwc: true, activation: Activation::None, band: None, packed_u: None };
                        batch.winograd_pass(entry, &g, buffers, transform, Windows::default()).unwrap();
                    }
                }
                batch.submit().unwrap();
                let (wide, narrow) = (wide.to_vec_f32(&ctx).unwrap(), narrow.to_vec_f16(&ctx).unwrap());
                let what = format!("F({t}×{t}) {input_shape:?}, {format}", t = transform.tile);
                for (i, (&w, n)) in wide.iter().zip(narrow).enumerate() {
                    assert!(w.is_finite(), "{what}: V[{i}] unwritten");
                    // The spacing of f16 values around w (subnormal below 2^-14).
                    let spacing = 2f32.powi(w.abs().log2().floor().max(-14.0) as i32 - 10);
                    let beside = (n.to_f32() - w).abs() <= spacing;
                    assert!(beside, "{what}: V[{i}]: f16 {n} is not beside f32 {w}");
                }
            }
        }
    }

    /// `WinogradFused`'s U: the packed transform of the GEMM kernels, rounded to f16, in rows of
    /// the input channels rounded up to 16 and columns of the output channels rounded up to 64,
    /// the padding zero.
    #[test]
    fn the_fused_weight_is_the_packed_one_padded() {
        let ctx = crate::Context::new().expect("a GPU context (lavapipe in CI)");
        // 70 output channels: the 80-channel shapes (U's columns padded to 80, not 128); 100:
        // the 64-channel ones (two workgroups, 128 columns).
        for (ic, oc, cols) in [(20usize, 70usize, 80usize), (20, 100, 128)] {
            let g = geo(&[1, ic, 6, 6], &[oc, ic, 3, 3], ConvOptions::default().padding(&[1]));
            let rows = 32;
            assert_eq!(g.winograd_fused_u(), (rows as u32, cols as u32));
            // It must fit one binding: 16 · rows · cols halves.
            let bytes = (16 * rows * cols * 2) as u64;
            assert!(g.winograd_fused_weight_fits(bytes));
            assert!(!g.winograd_fused_weight_fits(bytes - 1));
            let w: Vec<f32> = (0..oc * ic * 9).map(|i| ((i * 7919 % 1000) as f32 - 500.0) / 250.0).collect();
            let wt = Tensor::from_f32(&ctx, &w, &[oc, ic, 3, 3]).unwrap();
            let mut batch = ctx.batch();
            let packed = batch.winograd_weight(ConvKernel::Winograd, &wt, &g).unwrap();
            let fused = batch.winograd_weight_fused(&wt, &g).unwrap();
            batch.submit().unwrap();
            let (packed, fused) = (packed.to_vec_f32(&ctx).unwrap(), fused.to_vec_f16(&ctx).unwrap());
            let oc4 = oc.div_ceil(4) * 4;
            assert_eq!(fused.len(), 16 * rows * cols);
            for t in 0..16 {
                for row in 0..rows {
                    for col in 0..cols {
                        let got = fused[(t * rows + row) * cols + col];
                        let want = match row < ic && col < oc {
                            true => half::f16::from_f32(packed[(t * ic + row) * oc4 + col]),
                            false => half::f16::ZERO,
                        };
                        assert_eq!(got, want, "{oc} channels: position {t}, row {row}, column {col}");
                    }
                }
            }
        }
    }

    /// `WinogradFused` cannot run on lavapipe: each of its shapes is lowered to SPIR-V by naga at
    /// the constants the host sets, on both tensor layouts and with each activation, and must
    /// hold its multiply-adds a step (2 positions × its tile fragments × its channel fragments:
    /// 16 for 32 tiles × 64 channels), as the other tensor-core kernels are checked.
    #[test]
    fn the_fused_kernel_lowers_to_spirv_with_its_multiply_adds() {
        // Geometries that take each shape.
        let geometries = [[64, 64, 56, 8], [64, 64, 28, 4], [64, 80, 80, 16], [80, 80, 80, 1]];
        for (shape, [ic, oc, hw, n]) in FUSED_SHAPES.into_iter().zip(geometries) {
            let g = geo(&[n, ic, hw, hw], &[oc, ic, 3, 3], ConvOptions::default().padding(&[1]));
            assert_eq!(g.winograd_fused_shape(), shape);
            let (rows, cols) = g.winograd_fused_u();
            for channels_last in [false, true] {
                for activation in [Activation::None, Activation::Relu, Activation::Clamp { min: -1.0, max: 1.0 }] {
                    let mut overrides = fused::Overrides::new();
                    overrides.channels_last = channels_last;
                    (overrides.u_rows, overrides.u_cols) = (rows, cols);
                    (overrides.activation, overrides.clamp_min, overrides.clamp_max) =
                        super::super::conv_encode::activation_constants(activation);
                    let entry = shape.entry.name();
                    let mul_adds = crate::coop_spirv::coop_multiply_adds(fused::SOURCE, entry, &overrides.constants());
                    let want = 2 * (shape.tiles / 16) * (shape.channels / 16);
                    assert_eq!(mul_adds, want as usize, "{shape:?}, channels_last {channels_last}, {activation:?}");
                }
            }
        }
    }

    #[test]
    fn batches_whose_intermediates_exceed_a_binding_run_in_aligned_parts() {
        // Per image: transformed input 16·64·8·8 f32 = 256 KiB, products 16·32·64 = 128 KiB;
        // images of 64·16·16·4 = 64 KiB in and 32·16·16·4 = 32 KiB out (aligned).
        let g = geo(&[5, 64, 16, 16], &[32, 64, 3, 3], ConvOptions::default().padding(&[1]));
        let parts = |g: &ConvGeometry, limit| g.winograd_parts(ConvKernel::Winograd, limit, 256);
        let images = |g: &ConvGeometry, limit| parts(g, limit).map(|p| p.images);
        assert_eq!(images(&g, 2 << 20), Some(5));
        assert_eq!(images(&g, 768 << 10), Some(3));
        assert_eq!(parts(&g, 256 << 10), Some(WinogradParts { images: 1, band_rows: 8 }));
        // Less than one image's: bands of tile rows (8 rows of 32 KiB; 7 fit, 2 bands of 4).
        assert_eq!(parts(&g, (256 << 10) - 4), Some(WinogradParts { images: 1, band_rows: 4 }));
        // 15×15 images of 64 and 32 channels (57 600 and 28 800 bytes) are not 256-byte aligned.
        let odd = geo(&[5, 64, 15, 15], &[32, 64, 3, 3], ConvOptions::default().padding(&[1]));
        assert_eq!(images(&odd, 2 << 20), Some(5));
        assert_eq!(images(&odd, 768 << 10), None);
    }
}
