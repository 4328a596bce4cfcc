//! The kernel catalog: every convolution kernel, what it computes per thread, its name, its tile
//! and the workgroup memory it declares. When each runs is the planner's business (`conv_plan`);
//! the variant docs here say what a kernel is, not when it is chosen.

use super::{
    conv_options::{KTileLoads, Precision},
    winograd::WinogradTransform,
};

/// Which kernel runs a convolution.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum ConvKernel {
    /// One thread per output, scalar loop over input channels and taps (a reference kernel,
    /// ported from ExecuTorch's WebGPU backend).
    Direct,
    /// One thread per output, four input channels per step (IC/groups % 4 == 0; a reference
    /// kernel).
    DirectVec4,
    /// Gather-form transposed convolution, one thread per output (a reference kernel).
    Transposed,
    /// Transposed convolution with at most 4 output channels per group (RGB output layers): one
    /// thread per output pixel computes all of its group's channels, so each input load feeds
    /// them all; threads ordered by stride phase, so a warp shares its filter taps and loads
    /// consecutive input columns. With 16+ input channels per group, 8 threads share a run of 4
    /// pixels of one stride phase, K split between them (each weight loaded feeds the 4 pixels).
    TransposedFewOc,
    /// Direct convolution with at most 4 output channels per group (an image's RGB output, a
    /// latent's 4 channels): 8 threads share a run of 4 output pixels of a row (within 128
    /// columns on f32 tensors, so a warp loads adjacent columns; consecutive on f16 ones), K
    /// split between them, each computing all of its group's channels, so each input load feeds
    /// them all and each weight load (the same across a warp) the 4 pixels. A fixed workgroup of
    /// 256 threads.
    FewOc,
    /// Direct convolution of at most 4 output pixels in all (batch × OH × OW ≤ 4: the
    /// squeeze-and-excitation FCs, a U-Net's innermost layer), as matrix-vector products: 32 to
    /// 256 threads share one output channel's K (its weight row, read once and coalesced), each
    /// keeping one partial sum per pixel, added up in workgroup memory.
    Gemv,
    /// Implicit GEMM: 128×128 tiles (128 columns by default, [`crate::ForcedPlan::tile_n`]), 8×8
    /// outputs per thread, K-tiles 8 deep; transposed convolutions decomposed by stride phase
    /// (dilation 1).
    Gemm,
    /// The same GEMM with 64×128 tiles (OC × spatial, 128 columns by default; 4×8 per thread):
    /// twice the workgroups of `Gemm`, and no half-idle tile for 64 or fewer output channels per
    /// group.
    GemmM64,
    /// `Gemm` with K-tiles 16 deep: workgroups meet half as many barriers per multiply-add, and
    /// each K-tile is loaded in its own iteration (or, [`crate::KTileLoads::Ahead`], a tile ahead
    /// of twice as much math as `Gemm`'s).
    GemmK16,
    /// `GemmM64` with K-tiles 16 deep.
    GemmM64K16,
    /// `GemmM64` with K-tiles 32 deep (24 KiB of workgroup memory at 128 columns).
    GemmM64K32,
    /// 64×64 tiles, 128 threads of 4×8 outputs, K-tiles 16 deep (`GemmM64K16` at 64 columns):
    /// twice the workgroups of the 64×128 tiles at the same math per loaded element, so small
    /// grids spread more evenly over the multiprocessors.
    GemmN64K16,
    /// `GemmN64K16` with K-tiles 32 deep (`GemmM64K32` at 64 columns).
    GemmN64K32,
    /// Implicit GEMM for small grids (batch-1 layers of a few hundred output pixels): 32 output
    /// channels × 32 columns per workgroup of 256 threads, which split K four ways and add their
    /// partial sums in workgroup memory (16 KiB); each thread reads its 4 channels × 4 columns
    /// straight from global memory, with no staged tiles. Many short workgroups where the staged
    /// GEMM tiles would leave most multiprocessors idle and run all of K serially per thread.
    /// Direct and transposed convolutions, as the GEMM kernels (the same packed weight). Above K
    /// 512 it also splits K across workgroups by its own rule; forced tile widths and K
    /// schedules ([`crate::ForcedPlan`]) do not apply to it. Not planned: `GemmSmallK32`, its
    /// staged form, matched or beat it wherever it was (run by tuning or when forced).
    GemmSmall,
    /// `GemmSmall`'s tile, threads, K split and K-slices, with the operands staged through
    /// workgroup memory in 32-deep K-tiles (double-buffered, 16 KiB with the partial sums):
    /// each input element is loaded and its gather decoded once per workgroup, not once by each
    /// of the 8 threads that share its column, which bounds `GemmSmall` on long K and on filters
    /// with taps. Forced tile widths and K schedules do not apply to it.
    GemmSmallK32,
    /// Depthwise, or up to 16 input channels per group: four outputs along W per thread,
    /// coalesced, each filter tap loaded once per four outputs.
    Depthwise,
    /// A multiple of 4 output channels per group: as `Depthwise`, for four output channels of a
    /// group per thread, so each input tap loaded serves four channels (ResNeXt's grouped 3×3
    /// layers, where it is planned: up to 16 channels per group in and out). Any number of
    /// input channels per group runs (a runtime loop).
    GroupedOc4,
    /// One input channel per group: a 32-column block of output rows per workgroup, computed from
    /// its input window (halo included) staged in workgroup memory.
    DepthwiseTiled,
    /// One input channel per group: several consecutive output rows of one column per thread,
    /// consecutive columns across threads, the filter geometry specialised into the pipeline;
    /// each input element a thread loads feeds every one of its outputs that uses it.
    DepthwiseRows,
    /// `DepthwiseRows` for input and output widths that are multiples of 4: four columns of
    /// each row per thread, read as aligned vec4s and written as one. The input columns of a
    /// quad of outputs must lie within four aligned vec4s: ((−pad) mod 4) + 3·sW + (KW − 1)·dW
    /// + 1 ≤ 16; with "same" padding that takes filters up to 9 wide at stride 1 or 2.
    ///
    /// On f16 tensors whose widths are multiples of 8 it takes eight columns per thread, read
    /// and written as 16-byte runs of halves, where the input columns of 8 outputs lie within
    /// four such runs, ((−pad) mod 8) + 7·sW + (KW − 1)·dW + 1 ≤ 32
    /// (`shaders/conv2d_depthwise_vec8.wgsl`).
    DepthwiseVec4,
    /// Implicit GEMM on cooperative matrices (tensor cores) with f16 multiplicands and f32
    /// accumulation, direct (not transposed) convolutions: planned only with
    /// [`crate::Precision::AllowF16`]; forced ([`crate::ForcedPlan::kernel`]) it runs whatever
    /// the precision option says. Forced tile widths and K schedules do not apply to it.
    /// 8 subgroups of 32 per workgroup, each a 64×32 block of eight 16×16 accumulators; tiles
    /// of 64×256 or 128×128 (output channels × output pixels), K-tiles 16 or 32 deep and
    /// split-K on small grids, chosen per shape.
    CoopF16,
    /// The tensor-core implicit GEMM over channels-last (NHWC) tensors, direct convolutions with
    /// IC/groups % 8 == 0: a pixel's 8 adjacent input channels are one 16-byte load, and the
    /// weight is packed to f16 [groups, KH·KW, ICg, OCg] first. Planned for channels-last inputs
    /// where the precision allows f16 multiplicands (f16 tensors always do); forced on NCHW
    /// tensors it runs between conversions to and from NHWC. 128 pixels × 128 channels per
    /// workgroup with K-tiles 64 deep (32 on devices with less workgroup memory), or 256 × 64
    /// with K-tiles 32 deep for 64 or fewer channels per group; split-K on small grids.
    CoopNhwc,
    /// Winograd F(2×2, 3×3) for 3×3 convolutions at stride 1 and dilation 1, one group, f32
    /// tensors: each 2×2 output block comes from its 4×4 input window in 16 multiply-adds per
    /// channel pair instead of 36. Three passes of `shaders/conv2d_winograd.wgsl` around a GEMM:
    /// the weight transformed into the GEMM kernels' packed layout (once per [`crate::Conv2d`]),
    /// the input's 4×4 windows transformed, the 16 products as one grouped 1×1 convolution (16
    /// groups) on the fp32 GEMM kernel the planner picks for it, and the output transform with
    /// bias and activation. The transformed input and products (each 16/4 the size of the input
    /// and output) live in the context's scratch: where the whole batch's exceed one storage
    /// binding it runs in parts of whole images (bound at aligned offsets), and where one
    /// image's do, in bands of tile rows; the transformed weight (16/9 the weight) must fit one
    /// too. Forced tile widths and K schedules do not apply
    /// to it. Like any Winograd algorithm, it turns an infinite input into NaN
    /// outputs where a direct convolution gives ±∞: its input transform subtracts inputs, and
    /// ∞ − ∞ is NaN (the same holds for `WinogradCoop` and `WinogradFused`); NaN inputs give NaN
    /// where a direct convolution does.
    Winograd,
    /// Pointwise (1×1, stride 1, no padding, one group) convolutions whose planes (OH × OW) are
    /// multiples of 4: each thread computes one aligned vec4 of 4 pixels for a block of up to 16
    /// output channels, streaming the input channels (one coalesced vec4 load each, 8 channels'
    /// loads in flight before their multiply-adds) against the block's weights staged in
    /// workgroup memory 32 channels at a time; the blocks of one pixel chunk run side by side and
    /// share its input through the L2 cache. For layers of short K (up to 144 input channels,
    /// R46) on grids it fills, and few output channels over many pixels (R37), where a GEMM
    /// tile's staged K loop is a few steps long or its tile mostly empty.
    PointwiseVec4,
    /// `PointwiseVec4` with K split four ways: 32 vec4s of pixels per workgroup, each computed
    /// by 4 threads over every 4th input channel, their sums added through workgroup memory.
    /// Four times the threads, each a quarter of the serial loads: the planner's for batch-1
    /// layers of at most 32 input channels on large planes (R38), where the small-grid GEMM's
    /// 32-deep K-tiles would be half padding or its grid too coarse.
    PointwiseVec4Split,
    /// `Winograd` with its products on the tensor cores: the 16 products are the same grouped
    /// 1×1 convolution, run by `CoopNhwc` (f16 multiplicands, f32 accumulation) over
    /// channels-last intermediates, with the transformed weight prepacked to f16 for it (once
    /// per [`crate::Conv2d`] built with [`Precision::AllowF16`]). Needs what both need: f32
    /// tensors, a context with cooperative matrices, and a multiple of 8 input channels. The
    /// planner's (R40) for the layers `Winograd` takes that have 256 or more input channels,
    /// where f16 multiplicands are allowed, on channels-last tensors too (R41), which it reads
    /// and writes as they are; and on NCHW tensors for other 3×3 stride-1 layers of 256+ input
    /// channels, or of 128+ channels in and out on larger grids (R42).
    WinogradCoop,
    /// Winograd F(2×2, 3×3) in one pass on the tensor cores: each workgroup transforms its
    /// tiles' input windows into workgroup memory, multiplies all 16 positions there against the
    /// transformed weight (f16, from global memory) and transforms its products into the output,
    /// so the transformed input and the products never go through memory
    /// (`shaders/conv2d_winograd_fused.wgsl`). A workgroup takes 16 or 32 tiles and 64 or 80
    /// output channels, by the grid and the output channels. f32 tensors, NCHW or channels-last
    /// (read and written as they are), any channel counts; needs a context with cooperative
    /// matrices.
    WinogradFused,
    /// Direct convolutions (not transposed, one group, at most 49 filter taps) in register
    /// blocks: each thread computes 4 consecutive output columns of one row for a block of up to
    /// 16 output channels, against the block's weights staged in workgroup memory 4 input
    /// channels at a time; the filter's size is a pipeline constant, so its taps unroll and
    /// their loads are in flight together. For layers whose K (input channels × taps) is short
    /// on large grids: stems, 16–64-channel layers with small filters, where a GEMM tile's
    /// staged K loop runs a few steps. The planner gives it such layers on large grids (R47)
    /// and single-channel 1D stems of short filters (R57).
    DirectBlock,
    /// Direct 3×3 convolutions (stride 1, dilation 1, one group, any padding) from input tiles
    /// staged in workgroup memory: a fixed workgroup of 128 threads computes 32 output columns
    /// × 8 rows × 16 output channels, or × 4 rows × 32 channels above 16 output channels; each
    /// thread 4 consecutive rows of one column for 8 channels, the 6 × 3 input values its
    /// rows' taps share read once per input channel and each tap's weights broadcast over its
    /// warp, the next 4 input channels loaded during this 4's multiply-adds
    /// (`shaders/conv2d_tiled.wgsl`). For layers of few output channels (R60), where an
    /// implicit GEMM's im2col tiles stage each input value once per tap and share it over few
    /// output channels.
    DirectTiled,
    /// Winograd F(4×4, 3×3) for the layers `Winograd` runs (3×3, stride 1, one group, f32
    /// tensors; dilated filters too, below): each 4×4 output block comes from its 6×6 input window in 36
    /// multiply-adds per channel pair instead of 144 (`Winograd`'s 2×2 blocks: 16 instead of
    /// 36), and its transformed input and products are 36/16 the input and output (`Winograd`'s:
    /// 16/4). The same three passes around a GEMM (`shaders/conv2d_winograd4.wgsl`), its 36
    /// products one grouped 1×1 convolution of 36 groups on the fp32 GEMM kernel the planner
    /// picks for it, in the same parts and bands where its intermediates exceed a storage
    /// binding. Its transforms' larger coefficients (up to 8) round more than `Winograd`'s: a
    /// few times its relative error, still within the tests' bound. Inputs with infinities give
    /// NaN as `Winograd`'s do, and a NaN input makes NaN of every output of the 4×4 tiles whose
    /// 6×6 input windows hold it (a direct convolution: of those its filter reaches). The
    /// planner's for such layers of 48+ input and 64+ output channels on wide grids (R61,
    /// `ConvGeometry::winograd_4x4_wins`). It also runs dilated 3×3 filters (no other Winograd
    /// kernel does): the output's dilation² phases (rows and columns mod the dilation) are each
    /// an undilated convolution of the input's same phase, tiled alone; R61 takes those whose
    /// tiles are mostly outputs (DeepLabv3's dilated layers and ASPP).
    #[serde(rename = "winograd_4x4")]
    Winograd4x4,
    /// `Winograd4x4` with its products on the tensor cores, as `WinogradCoop` runs F(2×2, 3×3)'s:
    /// the 36 products are one grouped 1×1 convolution run by `CoopNhwc` (f16 multiplicands, f32
    /// accumulation) over channels-last intermediates, the transformed input written in f16
    /// and the transformed weight prepacked to f16 for it (once per [`crate::Conv2d`] that keeps
    /// it). The same block transforms through workgroup memory on NCHW tensors, and on
    /// channels-last ones transforms that read and write them as they are
    /// (`shaders/conv2d_winograd4.wgsl`). Needs what both need: f32 tensors, a context with
    /// cooperative matrices, and a multiple of 8 input channels. Its f16 multiplicands carry
    /// F(4×4, 3×3)'s larger transform coefficients: about 4 times `WinogradCoop`'s rounding
    /// error (2.0e-3–8.7e-3 against the f64 reference on an H100, `WinogradCoop` 4.8e-4–2.1e-3).
    /// Its transformed input, written in f16 scaled by 1/8 (its weight's transform by 8), holds
    /// inputs of up to about 10 700 (`WinogradCoop`: 16 000; [`Precision::AllowF16`]).
    /// Infinities and NaNs spread as in `Winograd4x4` (over whole 4×4 output tiles). The
    /// planner's where f16 multiplicands are allowed for the layers `WinogradCoop` and `CoopF16`
    /// would take of 64+ input channels on wide grids of large enough images (R62,
    /// `ConvGeometry::winograd_4x4_coop_wins`), on NCHW tensors and on channels-last ones R41
    /// keeps on Winograd.
    #[serde(rename = "winograd_4x4_coop")]
    Winograd4x4Coop,
    /// Winograd F(2×2, 5×5) for direct 5×5 convolutions at stride 1, dilation 1, one group,
    /// f32 tensors (AlexNet's 64 → 192 layer, Inception-v3's 5×5 branch): each 2×2 output block
    /// comes from its 6×6 input window in 36 multiply-adds per channel pair instead of 100, its
    /// transformed input and products 9 times the input and output. `Winograd4x4`'s 6×6 input
    /// transform (the same points, so the same Bᵀ) over tiles 2 apart, its 36 products one
    /// grouped 1×1 convolution on the fp32 GEMM kernel the planner picks for it, in parts and
    /// bands where the intermediates exceed a storage binding
    /// (`shaders/conv2d_winograd4.wgsl`). Channels-last tensors go through a relayout. Its
    /// transforms' coefficients (G's fifteenths up to 16/15, Bᵀ's up to 5/2) round about as
    /// much as `Winograd4x4`'s. A NaN input reaches only the outputs a direct convolution's
    /// would (Bᵀ's and Aᵀ's zeros keep the windows' outer rows and columns to their outputs);
    /// inputs with infinities give NaN, as in the other Winograd kernels. The planner gave it
    /// such layers of 32+ input and 128+ output channels in v59–v61 (R63); since v62
    /// `Winograd5x5Tile4` takes them (R68), and it runs where forced, or where tuning finds it
    /// fastest.
    #[serde(rename = "winograd_5x5")]
    Winograd5x5,
    /// Winograd F(4×4, 5×5) for the layers `Winograd5x5` runs: each 4×4 output block comes from
    /// its 8×8 input window in 64 multiply-adds per channel pair instead of 400 (`Winograd5x5`:
    /// 36 per 2×2 block, 100 direct), its transformed input and products 4 times the input and
    /// output (`Winograd5x5`: 9 times). Its own 8×8 transforms at the points 0, ±1, ±½, ±2 and
    /// ∞, its 64 products one grouped 1×1 convolution on the fp32 GEMM kernel the planner picks
    /// for it, in parts and bands as `Winograd5x5` (`shaders/conv2d_winograd4.wgsl`,
    /// `winograd8_*`). Channels-last tensors go through a relayout. Its coefficients (Bᵀ's up to
    /// 21/4, G's 45ths) round several times more than `Winograd5x5`'s (simulated: 2.6 times). A
    /// NaN input spreads over the 4×4 output tiles whose windows hold it, as in `Winograd4x4`;
    /// inputs with infinities give NaN, as in the other Winograd kernels. The planner's for 5×5
    /// layers of 32+ input and output channels on 49+ columns of 4×4 tiles (R68,
    /// `ConvGeometry::winograd_5x5_tile4_wins`: AlexNet's 64 → 192 at batch 64 1.65× faster than
    /// `Winograd5x5`).
    #[serde(rename = "winograd_5x5_tile4")]
    Winograd5x5Tile4,
    /// Winograd F(6×6, 3×3) for the 3×3 layers `Winograd4x4` runs undilated: each 6×6 output
    /// block comes from its 8×8 input window in 64 multiply-adds per channel pair instead of
    /// 324 (`Winograd4x4`: 36 per 4×4 block), its transformed input and products 64/36 the
    /// input and output (`Winograd4x4`: 36/16) where 6 divides the output's sides. The 8×8 input
    /// transform of `Winograd5x5Tile4`, its 64 products one grouped 1×1 convolution on the fp32
    /// GEMM kernel the planner picks for it, in parts and bands (`shaders/conv2d_winograd4.wgsl`,
    /// `winograd6_*`). Channels-last tensors go through a relayout. Its coefficients (Aᵀ's up to
    /// 32) round several times more than `Winograd4x4`'s (simulated: 2.5 times); a NaN input
    /// spreads over the 6×6 output tiles whose windows hold it. The planner's for the layers
    /// R61 gives `Winograd4x4` of 192+ input and 96+ output channels, on grids where it does
    /// 1.17× less work (R67, `ConvGeometry::winograd_6x6_wins`: 1.02–1.17× faster on the SD VAE
    /// decoder's and UNet's layers at 64²–512²).
    #[serde(rename = "winograd_6x6")]
    Winograd6x6,
}

impl ConvKernel {
    /// Every kernel.
    pub const ALL: [ConvKernel; 34] = [
        ConvKernel::Direct,
        ConvKernel::DirectVec4,
        ConvKernel::Transposed,
        ConvKernel::TransposedFewOc,
        ConvKernel::Gemv,
        ConvKernel::Gemm,
        ConvKernel::GemmM64,
        ConvKernel::GemmK16,
        ConvKernel::GemmM64K16,
        ConvKernel::GemmM64K32,
        ConvKernel::GemmN64K16,
        ConvKernel::GemmN64K32,
        ConvKernel::GemmSmall,
        ConvKernel::GemmSmallK32,
        ConvKernel::Depthwise,
        ConvKernel::GroupedOc4,
        ConvKernel::DepthwiseTiled,
        ConvKernel::DepthwiseRows,
        ConvKernel::DepthwiseVec4,
        ConvKernel::CoopF16,
        ConvKernel::CoopNhwc,
        ConvKernel::Winograd,
        ConvKernel::PointwiseVec4,
        ConvKernel::PointwiseVec4Split,
        ConvKernel::WinogradCoop,
        ConvKernel::FewOc,
        ConvKernel::WinogradFused,
        ConvKernel::DirectBlock,
        ConvKernel::DirectTiled,
        ConvKernel::Winograd4x4,
        ConvKernel::Winograd4x4Coop,
        ConvKernel::Winograd5x5,
        ConvKernel::Winograd5x5Tile4,
        ConvKernel::Winograd6x6,
    ];

    /// The kernel called `name` (as [`ConvKernel::name`] spells it).
    pub fn from_name(name: &str) -> Option<ConvKernel> {
        ConvKernel::ALL.into_iter().find(|k| k.name() == name)
    }

    /// Short name for logs and tables.
    pub fn name(self) -> &'static str {
        match self {
            ConvKernel::Direct => "direct",
            ConvKernel::DirectVec4 => "direct_vec4",
            ConvKernel::Transposed => "transposed",
            ConvKernel::TransposedFewOc => "transposed_few_oc",
            ConvKernel::FewOc => "few_oc",
            ConvKernel::Gemv => "gemv",
            ConvKernel::Gemm => "gemm",
            ConvKernel::GemmM64 => "gemm_m64",
            ConvKernel::GemmK16 => "gemm_k16",
            ConvKernel::GemmM64K16 => "gemm_m64_k16",
            ConvKernel::GemmM64K32 => "gemm_m64_k32",
            ConvKernel::GemmN64K16 => "gemm_n64_k16",
            ConvKernel::GemmN64K32 => "gemm_n64_k32",
            ConvKernel::GemmSmall => "gemm_small",
            ConvKernel::GemmSmallK32 => "gemm_small_k32",
            ConvKernel::Depthwise => "depthwise",
            ConvKernel::GroupedOc4 => "grouped_oc4",
            ConvKernel::DepthwiseTiled => "depthwise_tiled",
            ConvKernel::DepthwiseRows => "depthwise_rows",
            ConvKernel::DepthwiseVec4 => "depthwise_vec4",
            ConvKernel::CoopF16 => "coop_f16",
            ConvKernel::CoopNhwc => "coop_nhwc",
            ConvKernel::Winograd => "winograd",
            ConvKernel::PointwiseVec4 => "pointwise_vec4",
            ConvKernel::PointwiseVec4Split => "pointwise_vec4_split",
            ConvKernel::DirectBlock => "direct_block",
            ConvKernel::DirectTiled => "direct_tiled",
            ConvKernel::WinogradCoop => "winograd_coop",
            ConvKernel::WinogradFused => "winograd_fused",
            ConvKernel::Winograd4x4 => "winograd_4x4",
            ConvKernel::Winograd4x4Coop => "winograd_4x4_coop",
            ConvKernel::Winograd5x5 => "winograd_5x5",
            ConvKernel::Winograd5x5Tile4 => "winograd_5x5_tile4",
            ConvKernel::Winograd6x6 => "winograd_6x6",
        }
    }

    /// The arithmetic the kernel does: `AllowF16` (f16 multiplicands) for the tensor-core
    /// kernels, else fp32.
    pub fn precision(self) -> Precision {
        if self.is_tensor_core() { Precision::AllowF16 } else { Precision::F32 }
    }

    /// Whether the kernel runs f16 tensors (with `SHADER_F16`): every kernel but the Winograd
    /// ones ([`ConvKernel::transforms_winograd_weight`]), whose transforms are f32 only (forced
    /// on f16 tensors, it is a typed error).
    pub fn runs_f16_tensors(self) -> bool {
        !self.transforms_winograd_weight()
    }

    /// Whether this is one of the tensor-core kernels (`CoopF16`, `CoopNhwc`, `WinogradCoop`,
    /// `WinogradFused`, `Winograd4x4Coop`).
    pub fn is_tensor_core(self) -> bool {
        matches!(
            self,
            ConvKernel::CoopF16
                | ConvKernel::CoopNhwc
                | ConvKernel::WinogradCoop
                | ConvKernel::WinogradFused
                | ConvKernel::Winograd4x4Coop
        )
    }

    /// Whether this is a Winograd kernel whose products run on `CoopNhwc` over channels-last
    /// intermediates: `WinogradCoop` (F(2×2, 3×3)) or `Winograd4x4Coop` (F(4×4, 3×3)).
    pub(crate) fn winograd_products_on_tensor_cores(self) -> bool {
        matches!(self, ConvKernel::WinogradCoop | ConvKernel::Winograd4x4Coop)
    }

    /// Whether this is a Winograd kernel whose products run on the fp32 GEMM kernels, the
    /// 16-deep staged tiles among them, whose K-tile loads R69 sets by K (R70 above 128
    /// channels) and tuning or a [`crate::ForcedPlan`] may set instead: `Winograd`,
    /// `Winograd4x4`, `Winograd5x5`, `Winograd5x5Tile4` and `Winograd6x6`.
    pub(crate) fn winograd_products_on_staged_tiles(self) -> bool {
        self.is_winograd() && !self.winograd_products_on_tensor_cores()
    }

    /// Whether this is any of the Winograd kernels (`Winograd`, `WinogradCoop`,
    /// `WinogradFused`, `Winograd4x4`, `Winograd4x4Coop`, `Winograd5x5`, `Winograd5x5Tile4`,
    /// `Winograd6x6`): those that run on a transformed weight, which a [`crate::Conv2d`] may
    /// keep, and whose transforms and f16 operands are their own.
    pub fn transforms_winograd_weight(self) -> bool {
        self.is_winograd() || self == ConvKernel::WinogradFused
    }

    /// Whether this is a Winograd kernel with its intermediates in memory, its products on a
    /// GEMM kernel: F(2×2, 3×3) (`Winograd`, `WinogradCoop`), F(4×4, 3×3) (`Winograd4x4`,
    /// `Winograd4x4Coop`), F(2×2, 5×5) (`Winograd5x5`), F(4×4, 5×5) (`Winograd5x5Tile4`) or
    /// F(6×6, 3×3) (`Winograd6x6`); `WinogradFused` has none, and its own routes.
    pub fn is_winograd(self) -> bool {
        matches!(
            self,
            ConvKernel::Winograd
                | ConvKernel::WinogradCoop
                | ConvKernel::Winograd4x4
                | ConvKernel::Winograd4x4Coop
                | ConvKernel::Winograd5x5
                | ConvKernel::Winograd5x5Tile4
                | ConvKernel::Winograd6x6
        )
    }

    /// The Winograd algorithm F(m×m, r×r) the kernel runs: F(4×4, 3×3) for `Winograd4x4` and
    /// `Winograd4x4Coop`, F(2×2, 5×5) for `Winograd5x5`, F(4×4, 5×5) for `Winograd5x5Tile4`,
    /// F(6×6, 3×3) for `Winograd6x6`, F(2×2, 3×3) for the other Winograd kernels (and any other
    /// kernel).
    pub(crate) fn winograd_transform(self) -> WinogradTransform {
        match self {
            ConvKernel::Winograd4x4 | ConvKernel::Winograd4x4Coop => WinogradTransform::F4X4_3X3,
            ConvKernel::Winograd5x5 => WinogradTransform::F2X2_5X5,
            ConvKernel::Winograd5x5Tile4 => WinogradTransform::F4X4_5X5,
            ConvKernel::Winograd6x6 => WinogradTransform::F6X6_3X3,
            _ => WinogradTransform::F2X2_3X3,
        }
    }

    /// Bytes of workgroup memory the kernel declares (devices may allow as little as 16 KiB);
    /// for GEMM kernels at their default tile width.
    /// The codegen counts them from the shaders' `var<workgroup>` declarations.
    pub fn workgroup_storage_bytes(self) -> u32 {
        use crate::shaders::{
            conv2d as direct, conv2d_coop as coop, conv2d_depthwise as dw, conv2d_depthwise_rows as dw_rows,
            conv2d_depthwise_tiled as dw_tiled, conv2d_depthwise_vec4 as dw_vec4, conv2d_winograd4 as wino4,
        };
        match self {
            ConvKernel::Gemm
            | ConvKernel::GemmM64
            | ConvKernel::GemmK16
            | ConvKernel::GemmM64K16
            | ConvKernel::GemmM64K32
            | ConvKernel::GemmN64K16
            | ConvKernel::GemmN64K32 => self.gemm_tile_storage_bytes(self.gemm_tile().map_or(128, |(_, n)| n)),
            ConvKernel::GemmSmall | ConvKernel::GemmSmallK32 => {
                use crate::{pipelines::GeneratedShader, shaders::conv2d_gemm as gemm};
                let entry = self.gemm_small_entry().expect("a small-grid GEMM kernel");
                gemm::Shader::workgroup_memory_bytes(entry, &gemm::Overrides::new())
            }
            ConvKernel::DepthwiseTiled => dw_tiled::CONV2D_DEPTHWISE_TILED_WORKGROUP_MEMORY_BYTES,
            // Either K-tile depth may run (`ConvGeometry::coop_k_tile`): the larger counts.
            ConvKernel::CoopF16 => {
                coop::CONV2D_COOP_WORKGROUP_MEMORY_BYTES.max(coop::CONV2D_COOP_K16_WORKGROUP_MEMORY_BYTES)
            }
            // The smaller entry point of each tile shape may run (`Batch::encode_coop_nhwc`): the
            // larger of those two counts; the 64-deep one is used only where it fits.
            ConvKernel::CoopNhwc => {
                use crate::shaders::conv2d_coop_nhwc as nhwc;
                nhwc::CONV2D_COOP_NHWC_K32_WORKGROUP_MEMORY_BYTES.max(nhwc::CONV2D_COOP_NHWC_N64_WORKGROUP_MEMORY_BYTES)
            }
            ConvKernel::Direct => direct::CONV2D_WORKGROUP_MEMORY_BYTES,
            ConvKernel::DirectVec4 => direct::CONV2D_VEC4_WORKGROUP_MEMORY_BYTES,
            ConvKernel::Transposed => direct::CONV_TRANSPOSE2D_WORKGROUP_MEMORY_BYTES,
            ConvKernel::TransposedFewOc => direct::CONV_TRANSPOSE2D_FEW_OC_WORKGROUP_MEMORY_BYTES,
            ConvKernel::FewOc => direct::CONV2D_FEW_OC_SPLIT_WORKGROUP_MEMORY_BYTES,
            ConvKernel::Gemv => direct::CONV2D_GEMV_WORKGROUP_MEMORY_BYTES,
            ConvKernel::Depthwise => dw::CONV2D_DEPTHWISE_WORKGROUP_MEMORY_BYTES,
            ConvKernel::GroupedOc4 => dw::CONV2D_GROUPED_OC4_WORKGROUP_MEMORY_BYTES,
            ConvKernel::DepthwiseRows => dw_rows::CONV2D_DEPTHWISE_ROWS_WORKGROUP_MEMORY_BYTES,
            // (Its 8-wide shader for f16 tensors declares no workgroup memory either.)
            ConvKernel::DepthwiseVec4 => dw_vec4::CONV2D_DEPTHWISE_VEC4_WORKGROUP_MEMORY_BYTES,
            ConvKernel::PointwiseVec4 => crate::shaders::conv2d_pointwise::CONV2D_POINTWISE_WORKGROUP_MEMORY_BYTES,
            ConvKernel::DirectBlock => crate::shaders::conv2d_block::CONV2D_BLOCK_WORKGROUP_MEMORY_BYTES,
            ConvKernel::DirectTiled => crate::shaders::conv2d_tiled::CONV2D_TILED_WORKGROUP_MEMORY_BYTES,
            ConvKernel::PointwiseVec4Split => {
                crate::shaders::conv2d_pointwise::CONV2D_POINTWISE_SPLIT_WORKGROUP_MEMORY_BYTES
            }
            // Its transforms; its GEMM is planned as a convolution of its own and steps back to
            // a kernel that fits like any other.
            ConvKernel::Winograd => winograd_transforms_storage_bytes(),
            // Its output transform (the weight and input transforms declare none); its GEMM
            // steps back like `Winograd`'s.
            ConvKernel::Winograd4x4 => wino4::WINOGRAD4_OUTPUT_WORKGROUP_MEMORY_BYTES,
            ConvKernel::Winograd5x5 => wino4::WINOGRAD5_OUTPUT_WORKGROUP_MEMORY_BYTES,
            ConvKernel::Winograd5x5Tile4 => wino4::WINOGRAD8_OUTPUT_WORKGROUP_MEMORY_BYTES,
            ConvKernel::Winograd6x6 => wino4::WINOGRAD6_OUTPUT_WORKGROUP_MEMORY_BYTES,
            // Its block transforms (the input's from the expansion that writes f16) and the
            // tensor-core kernel, which has no fallback.
            ConvKernel::WinogradCoop => {
                use crate::shaders::{conv2d_winograd as wino, conv2d_winograd_f16_out as narrowing};
                let transforms = narrowing::WINOGRAD_INPUT_NHWC_WORKGROUP_MEMORY_BYTES
                    .max(wino::WINOGRAD_OUTPUT_NHWC_WORKGROUP_MEMORY_BYTES);
                transforms.max(ConvKernel::CoopNhwc.workgroup_storage_bytes())
            }
            // Its block transforms (the input's from the expansion that writes f16) and the
            // tensor-core kernel, as `WinogradCoop`.
            ConvKernel::Winograd4x4Coop => {
                use crate::shaders::conv2d_winograd4_f16_out as narrowing4;
                let transforms = narrowing4::WINOGRAD4_INPUT_NHWC_WORKGROUP_MEMORY_BYTES
                    .max(wino4::WINOGRAD4_OUTPUT_NHWC_WORKGROUP_MEMORY_BYTES);
                transforms.max(ConvKernel::CoopNhwc.workgroup_storage_bytes())
            }
            // Its one pass (the weight transform declares none).
            ConvKernel::WinogradFused => {
                crate::shaders::conv2d_winograd_fused::CONV2D_WINOGRAD_FUSED_WORKGROUP_MEMORY_BYTES
                    .max(winograd_transforms_storage_bytes())
            }
        }
    }

    /// The entry point of `shaders/conv2d_gemm.wgsl` a GEMM kernel runs ([`ConvKernel::gemm_entry`]);
    /// `None` for other kernels.
    pub(crate) fn gemm_shader_entry(self) -> Option<crate::shaders::conv2d_gemm::Entry> {
        use crate::shaders::conv2d_gemm::Entry;
        match self.gemm_entry() {
            ConvKernel::Gemm => Some(Entry::Conv2dGemm),
            ConvKernel::GemmM64 => Some(Entry::Conv2dGemmM64),
            ConvKernel::GemmK16 => Some(Entry::Conv2dGemmK16),
            ConvKernel::GemmM64K16 => Some(Entry::Conv2dGemmM64K16),
            ConvKernel::GemmM64K32 => Some(Entry::Conv2dGemmM64K32),
            _ => None,
        }
    }

    /// The entry point of `shaders/conv2d_gemm.wgsl` a small-grid GEMM kernel (`GemmSmall`,
    /// `GemmSmallK32`: fixed 32×32 tiles) runs; `None` for other kernels.
    pub(crate) fn gemm_small_entry(self) -> Option<crate::shaders::conv2d_gemm::Entry> {
        use crate::shaders::conv2d_gemm::Entry;
        match self {
            ConvKernel::GemmSmall => Some(Entry::Conv2dGemmSmall),
            ConvKernel::GemmSmallK32 => Some(Entry::Conv2dGemmSmallK32),
            _ => None,
        }
    }

    /// The GEMM kernel whose compiled entry point this one runs: `GemmN64K16` and `GemmN64K32`
    /// are `GemmM64K16` and `GemmM64K32` at 64-column tiles (forced to another width, they run
    /// exactly as those kernels at that width); every other kernel is its own.
    pub(crate) fn gemm_entry(self) -> ConvKernel {
        match self {
            ConvKernel::GemmN64K16 => ConvKernel::GemmM64K16,
            ConvKernel::GemmN64K32 => ConvKernel::GemmM64K32,
            other => other,
        }
    }

    /// Whether the kernel's entry point reads the K-tile loads (the shader's `loads_ahead`): the
    /// 16-deep staged tiles; the others always load a K-tile ahead.
    pub(crate) fn chooses_k_tile_loads(self) -> bool {
        matches!(self.gemm_entry(), ConvKernel::GemmK16 | ConvKernel::GemmM64K16)
    }

    /// Whether a configuration of this kernel may name K-tile loads: the 16-deep staged tiles'
    /// own, or an fp32 Winograd kernel's products' ([`ConvKernel::winograd_products_on_staged_tiles`]).
    pub(crate) fn takes_k_tile_loads(self) -> bool {
        self.chooses_k_tile_loads() || self.winograd_products_on_staged_tiles()
    }

    /// The planner's K-tile loads for the kernel at tile width `tile_n`, as measured per tile
    /// (v50 calls A and D, an H100, planned runs of six models and the default suite): the
    /// 128-row tiles (`GemmK16`, any width) and the 64-row ones at 64 columns (`GemmN64K16`)
    /// load each K-tile in its own iteration, 1.02× and 1.05× in geomean over 35 and 9 layers,
    /// 43 of 44 faster on grids of 32–9216 tiles (measured at 128 and 64 columns; other widths
    /// follow unmeasured); the 64 × 128 tiles (`GemmM64K16`) keep the loads ahead (in the
    /// iteration: 0.98×, five of seven slower), as does every kernel that does not choose
    /// ([`ConvKernel::chooses_k_tile_loads`]). Winograd's products load by K instead (R69,
    /// R70: `winograd::products_plan`), unless forced or tuned.
    pub(crate) fn fitted_k_tile_loads(self, tile_n: u32) -> KTileLoads {
        match self.gemm_entry() {
            ConvKernel::GemmK16 => KTileLoads::InIteration,
            ConvKernel::GemmM64K16 if tile_n <= 64 => KTileLoads::InIteration,
            _ => KTileLoads::Ahead,
        }
    }

    /// The kernel's name for messages, with ` at tile_n W` for a GEMM kernel at a given width.
    pub(crate) fn name_at(self, tile_n: Option<u32>) -> String {
        match tile_n.filter(|_| self.is_gemm()) {
            Some(width) => format!("{} at tile_n {width}", self.name()),
            None => self.name().to_string(),
        }
    }

    /// Bytes of workgroup memory the kernel declares at tile width `tile_n` (its default width
    /// when `None`; the width matters for GEMM kernels only).
    pub fn workgroup_storage_bytes_at(self, tile_n: Option<u32>) -> u32 {
        match (self.gemm_tile(), tile_n) {
            (Some(_), Some(width)) => self.gemm_tile_storage_bytes(width),
            _ => self.workgroup_storage_bytes(),
        }
    }

    /// Bytes of workgroup memory a GEMM kernel declares at `tile_n` columns: its A tile (rows ×
    /// K-tile depth) and B tile (K-tile depth × `tile_n`, an override-sized array) of f32, as the
    /// codegen counts them from its entry point; 0 for other kernels.
    pub(crate) fn gemm_tile_storage_bytes(self, tile_n: u32) -> u32 {
        match self.gemm_shader_entry() {
            Some(entry) => {
                use crate::{pipelines::GeneratedShader, shaders::conv2d_gemm as gemm};
                let mut overrides = gemm::Overrides::new();
                overrides.tile_n = tile_n;
                gemm::Shader::workgroup_memory_bytes(entry, &overrides)
            }
            None => 0,
        }
    }

    /// The kernel the planner falls back to when the device cannot run this one (too little
    /// workgroup memory) or, for `DepthwiseRows`, when its unrolled window would be too large.
    pub(crate) fn fallback(self) -> Option<ConvKernel> {
        match self {
            ConvKernel::GemmK16 => Some(ConvKernel::Gemm),
            ConvKernel::GemmM64K16 => Some(ConvKernel::GemmM64),
            ConvKernel::GemmM64K32 => Some(ConvKernel::GemmM64K16),
            ConvKernel::GemmN64K32 => Some(ConvKernel::GemmN64K16),
            ConvKernel::DepthwiseTiled => Some(ConvKernel::DepthwiseRows),
            ConvKernel::DepthwiseRows => Some(ConvKernel::Depthwise),
            // The one-thread-per-output kernel declares no workgroup memory and runs any direct
            // convolution.
            ConvKernel::Gemv | ConvKernel::FewOc | ConvKernel::DirectBlock | ConvKernel::DirectTiled => {
                Some(ConvKernel::Direct)
            }
            // Its 16 KiB is exactly WebGPU's default limit; downlevel devices allow less.
            ConvKernel::GemmSmall | ConvKernel::GemmSmallK32 => Some(ConvKernel::GemmN64K16),
            // R38 takes the layers R27 gives `GemmSmallK32` (10 KiB, under WebGPU's default);
            // R64's layers (the reference kernel or `DirectBlock` before) step back to it too,
            // a fallback not measured on them.
            ConvKernel::PointwiseVec4Split => Some(ConvKernel::GemmSmallK32),
            _ => None,
        }
    }

    /// Depth of a GEMM kernel's K-tiles (8 for other kernels, which have none).
    pub(crate) fn k_tile_depth(self) -> u64 {
        match self {
            ConvKernel::GemmK16 | ConvKernel::GemmM64K16 | ConvKernel::GemmN64K16 => 16,
            ConvKernel::GemmM64K32 | ConvKernel::GemmN64K32 => 32,
            _ => 8,
        }
    }

    /// Whether this is one of the fp32 implicit-GEMM kernels (they have a tile width and a K
    /// schedule; `CoopF16` has its own).
    pub fn is_gemm(self) -> bool {
        self.gemm_tile().is_some()
    }

    /// Whether this is an implicit-GEMM kernel of any kind: the tile-width kernels of
    /// [`ConvKernel::is_gemm`] or the small-grid ones (`GemmSmall`, `GemmSmallK32`). The
    /// tensor-core kernels take the layers the fp32 planner gives to these, where f16 is allowed.
    pub fn is_gemm_shaped(self) -> bool {
        self.is_gemm() || self.gemm_small_entry().is_some()
    }

    /// Output tile (rows of OC, columns of N·OH·OW) of a GEMM kernel at its default width. The
    /// rows are fixed by the kernel's unrolled register block; the width is a pipeline override
    /// (`tile_n`, [`GEMM_TILE_N`]) that the planner, tuning or [`ForcedPlan::tile_n`] may set:
    /// `GemmN64K16` and `GemmN64K32` are `GemmM64K16` and `GemmM64K32` at 64 columns. (The rows
    /// and K-tile depths written here are checked against the workgroup memory naga counts for
    /// each entry point, at every width, by a unit test.)
    ///
    /// [`ForcedPlan::tile_n`]: crate::ForcedPlan::tile_n
    pub fn gemm_tile(self) -> Option<(u32, u32)> {
        match self {
            ConvKernel::Gemm | ConvKernel::GemmK16 => Some((128, 128)),
            ConvKernel::GemmM64 | ConvKernel::GemmM64K16 | ConvKernel::GemmM64K32 => Some((64, 128)),
            ConvKernel::GemmN64K16 | ConvKernel::GemmN64K32 => Some((64, 64)),
            _ => None,
        }
    }
}

/// Bytes of workgroup memory the largest of Winograd's NCHW transform passes declares.
fn winograd_transforms_storage_bytes() -> u32 {
    use crate::shaders::conv2d_winograd as wino;
    let passes = [
        wino::WINOGRAD_WEIGHT_WORKGROUP_MEMORY_BYTES,
        wino::WINOGRAD_INPUT_WORKGROUP_MEMORY_BYTES,
        wino::WINOGRAD_OUTPUT_WORKGROUP_MEMORY_BYTES,
    ];
    passes.into_iter().max().unwrap_or(0)
}

/// The small-grid GEMM kernels' tile (`GemmSmall`, `GemmSmallK32`): output channels × columns of N·OH·OW per workgroup.
pub(crate) const GEMM_SMALL_TILE: (u32, u32) = (32, 32);

/// The GEMM kernels' tile widths (columns of N·OH·OW per workgroup): multiples of 8 in this range.
/// A workgroup has twice as many threads as its tile has columns.
pub const GEMM_TILE_N: std::ops::RangeInclusive<u32> =
    crate::shaders::conv2d_gemm::GEMM_TILE_N_MIN..=crate::shaders::conv2d_gemm::GEMM_TILE_N_MAX;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gemm_workgroup_memory_follows_the_tile() {
        // A tile (rows × depth) + B tile (depth × width), f32, as the generator declares them.
        for (kernel, bytes) in [
            (ConvKernel::Gemm, 8192),
            (ConvKernel::GemmM64, 6144),
            (ConvKernel::GemmK16, 16_384),
            (ConvKernel::GemmM64K16, 12_288),
            (ConvKernel::GemmM64K32, 24_576),
            (ConvKernel::GemmN64K16, 8192),
            (ConvKernel::GemmN64K32, 16_384),
        ] {
            assert_eq!(kernel.workgroup_storage_bytes(), bytes, "{kernel:?}");
        }
        assert_eq!(ConvKernel::GemmM64K32.gemm_tile_storage_bytes(32), 4 * 32 * (64 + 32));
        assert_eq!(
            ConvKernel::GemmN64K32.gemm_tile_storage_bytes(128),
            ConvKernel::GemmM64K32.workgroup_storage_bytes()
        );
        assert_eq!(ConvKernel::Depthwise.gemm_tile_storage_bytes(128), 0);
        // The 64-column kernels run the 64-row entry points.
        assert_eq!(ConvKernel::GemmN64K16.gemm_entry(), ConvKernel::GemmM64K16);
        assert_eq!(ConvKernel::GemmN64K32.gemm_entry(), ConvKernel::GemmM64K32);
        assert_eq!(ConvKernel::Gemm.gemm_entry(), ConvKernel::Gemm);
    }

    #[test]
    fn k_tile_loads_follow_the_tile() {
        let ahead = |kernel: ConvKernel, tile_n| kernel.fitted_k_tile_loads(tile_n) == KTileLoads::Ahead;
        // In the iteration: the 128-row tiles at any width, the 64-row ones 64 wide (also when
        // `GemmM64K16` is forced to that width, or `GemmN64K16` to 128, which is `GemmM64K16`).
        assert!(!ahead(ConvKernel::GemmK16, 128) && !ahead(ConvKernel::GemmK16, 64));
        assert!(!ahead(ConvKernel::GemmN64K16, 64) && !ahead(ConvKernel::GemmM64K16, 64));
        assert!(ahead(ConvKernel::GemmM64K16, 128) && ahead(ConvKernel::GemmN64K16, 128));
        // Only the 16-deep entry points choose; the others always load ahead.
        for kernel in [ConvKernel::Gemm, ConvKernel::GemmM64, ConvKernel::GemmM64K32, ConvKernel::GemmN64K32] {
            assert!(ahead(kernel, 64) && ahead(kernel, 128) && !kernel.chooses_k_tile_loads(), "{kernel:?}");
        }
        let sixteen_deep = [ConvKernel::GemmK16, ConvKernel::GemmM64K16, ConvKernel::GemmN64K16];
        assert!(sixteen_deep.iter().all(|k| k.chooses_k_tile_loads()));
        assert!(!ConvKernel::GemmSmallK32.chooses_k_tile_loads() && !ConvKernel::Winograd.chooses_k_tile_loads());
        for loads in KTileLoads::ALL {
            assert_eq!(KTileLoads::from_name(loads.name()), Some(loads));
        }
    }

    #[test]
    fn every_kernel_is_listed_once_and_found_by_name() {
        // An exhaustive match: a new variant fails to compile here until it is placed in `ALL`.
        let position = |k: ConvKernel| match k {
            ConvKernel::Direct => 0,
            ConvKernel::DirectVec4 => 1,
            ConvKernel::Transposed => 2,
            ConvKernel::TransposedFewOc => 3,
            ConvKernel::Gemv => 4,
            ConvKernel::Gemm => 5,
            ConvKernel::GemmM64 => 6,
            ConvKernel::GemmK16 => 7,
            ConvKernel::GemmM64K16 => 8,
            ConvKernel::GemmM64K32 => 9,
            ConvKernel::GemmN64K16 => 10,
            ConvKernel::GemmN64K32 => 11,
            ConvKernel::GemmSmall => 12,
            ConvKernel::GemmSmallK32 => 13,
            ConvKernel::Depthwise => 14,
            ConvKernel::GroupedOc4 => 15,
            ConvKernel::DepthwiseTiled => 16,
            ConvKernel::DepthwiseRows => 17,
            ConvKernel::DepthwiseVec4 => 18,
            ConvKernel::CoopF16 => 19,
            ConvKernel::CoopNhwc => 20,
            ConvKernel::Winograd => 21,
            ConvKernel::PointwiseVec4 => 22,
            ConvKernel::PointwiseVec4Split => 23,
            ConvKernel::WinogradCoop => 24,
            ConvKernel::FewOc => 25,
            ConvKernel::WinogradFused => 26,
            ConvKernel::DirectBlock => 27,
            ConvKernel::DirectTiled => 28,
            ConvKernel::Winograd4x4 => 29,
            ConvKernel::Winograd4x4Coop => 30,
            ConvKernel::Winograd5x5 => 31,
            ConvKernel::Winograd5x5Tile4 => 32,
            ConvKernel::Winograd6x6 => 33,
        };
        for (i, k) in ConvKernel::ALL.into_iter().enumerate() {
            assert_eq!(position(k), i, "{k:?}");
            assert_eq!(ConvKernel::from_name(k.name()), Some(k));
            // The serialised name (tuning files) is the same as `name()`.
            assert_eq!(serde_json::to_string(&k).unwrap(), format!("\"{}\"", k.name()));
        }
        assert_eq!(ConvKernel::from_name("fastest"), None);
    }

    #[test]
    fn generated_workgroup_memory_matches_the_hand_counts() {
        // `DepthwiseVec4`'s count is its 4-wide shader's: the 8-wide one declares none.
        assert_eq!(crate::shaders::conv2d_depthwise_vec8::CONV2D_DEPTHWISE_VEC8_WORKGROUP_MEMORY_BYTES, 0);
        // What the kernels' workgroup memory was counted by hand before the codegen counted it.
        for kernel in ConvKernel::ALL {
            for tile_n in (32..=128).step_by(8) {
                let by_hand = match kernel.gemm_tile() {
                    Some((rows, _)) => 4 * kernel.k_tile_depth() as u32 * (rows + tile_n),
                    None => 0,
                };
                assert_eq!(kernel.gemm_tile_storage_bytes(tile_n), by_hand, "{kernel:?} at tile_n {tile_n}");
                let at = kernel.workgroup_storage_bytes_at(Some(tile_n));
                assert_eq!(at, if kernel.is_gemm() { by_hand } else { kernel.workgroup_storage_bytes() });
            }
            let by_hand = match kernel {
                ConvKernel::DepthwiseTiled => 16_384,
                // f16 A and B tiles (128 × 40 and 32 × 264 halves) + 8 f32 staging tiles of 16×16.
                ConvKernel::CoopF16 => 35_328,
                // f16 A (256 × 40) and B (32 × 72) tiles of the 256×64 entry, its 256 row
                // decodes (vec3<i32>, 16-byte stride) and 8 f32 staging tiles of 16×16.
                ConvKernel::CoopNhwc => 37_376,
                // Its products' kernel, the largest of its passes (its block transforms
                // declare 16 960 B for the input's, 8 480 B for the output's).
                ConvKernel::WinogradCoop => 37_376,
                // The same (its block transforms declare 25 408 B, the f16 input's, and
                // 24 992 B, the output's).
                ConvKernel::Winograd4x4Coop => 37_376,
                // V's stage (16 positions × 32 tiles × 24 halves) and M's (16 × 16 × 16 f32).
                ConvKernel::WinogradFused => 16 * 32 * 24 * 2 + 4096 * 4,
                // The NCHW output transforms' stage (a 6-wide row of 256 tiles, a pad every 16)
                // and each of the 256 threads' tile: its first output and its extent.
                ConvKernel::Winograd4x4
                | ConvKernel::Winograd5x5
                | ConvKernel::Winograd5x5Tile4
                | ConvKernel::Winograd6x6 => 4 * (6 * 256 + 16) + 2 * 4 * 256,
                // One vec4 of partial sums per thread of 256.
                ConvKernel::Gemv | ConvKernel::FewOc => 4_096,
                // Four vec4 partial sums per thread of 256 (the WebGPU minimum limit, exactly).
                ConvKernel::GemmSmall => 16_384,
                // Two double-buffered 32-deep tiles of A and B (vec4s), reused for the sums.
                ConvKernel::GemmSmallK32 => 16_384,
                // 32 input channels × 16 output channels of staged weights.
                ConvKernel::PointwiseVec4 => 2_048,
                // The same weights, and 4 K-slices × 4 channels × 32 vec4s of partial sums.
                ConvKernel::PointwiseVec4Split => 2_048 + 8_192,
                // 4 input channels × 49 taps × 16 output channels of staged weights.
                ConvKernel::DirectBlock => 12_544,
                // 4 input channels' 10 × 34 input values, and their 9 taps of 32 output channels.
                ConvKernel::DirectTiled => 4 * (4 * 10 * 34) + 16 * (4 * 9 * 8),
                _ => match kernel.gemm_tile() {
                    Some((rows, tile_n)) => 4 * kernel.k_tile_depth() as u32 * (rows + tile_n),
                    None => 0,
                },
            };
            assert_eq!(kernel.workgroup_storage_bytes(), by_hand, "{kernel:?}");
        }
        assert_eq!(crate::shaders::conv2d_coop::CONV2D_COOP_K16_WORKGROUP_MEMORY_BYTES, 22_784);
        // The tile-width range comes from the GEMM shader's template.
        assert_eq!(GEMM_TILE_N, 32..=128);
    }
}
