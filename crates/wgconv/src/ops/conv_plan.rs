//! Which kernel runs a convolution: the kernels, what each can run, and the planner's rules
//! (fitted to measurements on an H200; `wgconv bench --sweep` shows the data on any GPU).

use super::conv_geometry::{ConvGeometry, Precision};
use crate::error::{Error, Result};

/// Which kernel runs a convolution.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ConvKernel {
    /// One thread per output, scalar loop over input channels and taps.
    Direct,
    /// One thread per output, four input channels per step (IC/groups % 4 == 0).
    DirectVec4,
    /// Gather-form transposed convolution.
    Transposed,
    /// Implicit GEMM: 128×128 tiles (128 columns by default, `ConvOptions::tile_n`), 8×8 outputs
    /// per thread; transposed convolutions decomposed by stride phase (dilation 1).
    Gemm,
    /// The same GEMM with 64×128 tiles (OC × spatial, 128 columns by default; 4×8 per thread):
    /// twice the workgroups of `Gemm`, and no half-idle tile for 64 or fewer output channels per
    /// group.
    GemmM64,
    /// `Gemm` with K-tiles 16 deep: each K-tile's loads are issued a tile ahead of twice as much
    /// math and workgroups meet half as many barriers; the planner uses it for large grids with
    /// long K, where it measured faster.
    GemmK16,
    /// `GemmM64` with K-tiles 16 deep: the planner's GEMM for long K on small grids, split
    /// into K-slices, and for large grids of up to 64 output channels per group.
    GemmM64K16,
    /// `GemmM64` with K-tiles 32 deep (24 KiB of workgroup memory): the planner's GEMM for
    /// pointwise convolutions on grids that are not large.
    GemmM64K32,
    /// 64×64 tiles, 128 threads of 4×8 outputs, K-tiles 16 deep (`GemmM64K16` at 64 columns):
    /// twice the workgroups of the 64×128 tiles at the same math per loaded element, so small
    /// grids spread more evenly over the multiprocessors. The planner's GEMM for grids of 512+ such tiles that are not
    /// large, pointwise or patchify.
    GemmN64K16,
    /// `GemmN64K16` with K-tiles 32 deep (`GemmM64K32` at 64 columns): the planner's choice for grids under 512 such tiles
    /// that are not pointwise, patchify or long K on a small grid.
    GemmN64K32,
    /// Depthwise, or up to 16 input channels per group: four outputs along W per thread,
    /// coalesced, each filter tap loaded once per four outputs.
    Depthwise,
    /// Up to 16 input channels per group and a multiple of 4 output channels per group: as
    /// `Depthwise`, for four output channels of a group per thread, so each input tap loaded
    /// serves four channels (ResNeXt's grouped 3×3 layers).
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
    DepthwiseVec4,
    /// Implicit GEMM on cooperative matrices (tensor cores) with f16 multiplicands and f32
    /// accumulation, direct (not transposed) convolutions: the planner's choice only with
    /// [`crate::Precision::AllowF16`]; forcing it (`ConvOptions::kernel`) runs it whatever the
    /// precision option says. Forced K-slices and stream-K do not apply to it.
    /// 8 subgroups of 32 per workgroup, each a 64×32 block of eight 16×16 accumulators; tiles
    /// of 64×256 or 128×128 (output channels × output pixels), K-tiles 16 or 32 deep and
    /// split-K on small grids, chosen per shape.
    CoopF16,
}

impl ConvKernel {
    /// Every kernel.
    pub const ALL: [ConvKernel; 16] = [
        ConvKernel::Direct,
        ConvKernel::DirectVec4,
        ConvKernel::Transposed,
        ConvKernel::Gemm,
        ConvKernel::GemmM64,
        ConvKernel::GemmK16,
        ConvKernel::GemmM64K16,
        ConvKernel::GemmM64K32,
        ConvKernel::GemmN64K16,
        ConvKernel::GemmN64K32,
        ConvKernel::Depthwise,
        ConvKernel::GroupedOc4,
        ConvKernel::DepthwiseTiled,
        ConvKernel::DepthwiseRows,
        ConvKernel::DepthwiseVec4,
        ConvKernel::CoopF16,
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
            ConvKernel::Gemm => "gemm",
            ConvKernel::GemmM64 => "gemm_m64",
            ConvKernel::GemmK16 => "gemm_k16",
            ConvKernel::GemmM64K16 => "gemm_m64_k16",
            ConvKernel::GemmM64K32 => "gemm_m64_k32",
            ConvKernel::GemmN64K16 => "gemm_n64_k16",
            ConvKernel::GemmN64K32 => "gemm_n64_k32",
            ConvKernel::Depthwise => "depthwise",
            ConvKernel::GroupedOc4 => "grouped_oc4",
            ConvKernel::DepthwiseTiled => "depthwise_tiled",
            ConvKernel::DepthwiseRows => "depthwise_rows",
            ConvKernel::DepthwiseVec4 => "depthwise_vec4",
            ConvKernel::CoopF16 => "coop_f16",
        }
    }

    /// The arithmetic the kernel does: `AllowF16` (f16 multiplicands) for `CoopF16`, else fp32.
    pub fn precision(self) -> Precision {
        if self == ConvKernel::CoopF16 { Precision::AllowF16 } else { Precision::F32 }
    }

    /// Bytes of workgroup memory the kernel declares (devices may allow as little as 16 KiB);
    /// for GEMM kernels at their default tile width ([`ConvKernel::gemm_tile_storage_bytes`]).
    /// The codegen counts them from the shaders' `var<workgroup>` declarations.
    pub fn workgroup_storage_bytes(self) -> u32 {
        use crate::shaders::{
            conv2d as direct, conv2d_coop as coop, conv2d_depthwise as dw, conv2d_depthwise_rows as dw_rows,
            conv2d_depthwise_tiled as dw_tiled, conv2d_depthwise_vec4 as dw_vec4,
        };
        match self {
            ConvKernel::Gemm
            | ConvKernel::GemmM64
            | ConvKernel::GemmK16
            | ConvKernel::GemmM64K16
            | ConvKernel::GemmM64K32
            | ConvKernel::GemmN64K16
            | ConvKernel::GemmN64K32 => self.gemm_tile_storage_bytes(self.gemm_tile().map_or(128, |(_, n)| n)),
            ConvKernel::DepthwiseTiled => dw_tiled::CONV2D_DEPTHWISE_TILED_WORKGROUP_MEMORY_BYTES,
            // Either K-tile depth may run (`ConvGeometry::coop_k_tile`): the larger counts.
            ConvKernel::CoopF16 => {
                coop::CONV2D_COOP_WORKGROUP_MEMORY_BYTES.max(coop::CONV2D_COOP_K16_WORKGROUP_MEMORY_BYTES)
            }
            ConvKernel::Direct => direct::CONV2D_WORKGROUP_MEMORY_BYTES,
            ConvKernel::DirectVec4 => direct::CONV2D_VEC4_WORKGROUP_MEMORY_BYTES,
            ConvKernel::Transposed => direct::CONV_TRANSPOSE2D_WORKGROUP_MEMORY_BYTES,
            ConvKernel::Depthwise => dw::CONV2D_DEPTHWISE_WORKGROUP_MEMORY_BYTES,
            ConvKernel::GroupedOc4 => dw::CONV2D_GROUPED_OC4_WORKGROUP_MEMORY_BYTES,
            ConvKernel::DepthwiseRows => dw_rows::CONV2D_DEPTHWISE_ROWS_WORKGROUP_MEMORY_BYTES,
            ConvKernel::DepthwiseVec4 => dw_vec4::CONV2D_DEPTHWISE_VEC4_WORKGROUP_MEMORY_BYTES,
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

    /// The GEMM kernel whose compiled entry point this one runs: `GemmN64K16` and `GemmN64K32`
    /// are `GemmM64K16` and `GemmM64K32` at 64-column tiles (forced to another width, they run
    /// exactly as those kernels at that width); every other kernel is its own.
    pub fn gemm_entry(self) -> ConvKernel {
        match self {
            ConvKernel::GemmN64K16 => ConvKernel::GemmM64K16,
            ConvKernel::GemmN64K32 => ConvKernel::GemmM64K32,
            other => other,
        }
    }

    /// The kernel's name for messages, with ` at tile_n W` for a GEMM kernel at a given width.
    pub(crate) fn name_at(self, tile_n: Option<u32>) -> String {
        match tile_n.filter(|_| self.gemm_tile().is_some()) {
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
    pub fn gemm_tile_storage_bytes(self, tile_n: u32) -> u32 {
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
    pub fn fallback(self) -> Option<ConvKernel> {
        match self {
            ConvKernel::GemmK16 => Some(ConvKernel::Gemm),
            ConvKernel::GemmM64K16 => Some(ConvKernel::GemmM64),
            ConvKernel::GemmM64K32 => Some(ConvKernel::GemmM64K16),
            ConvKernel::GemmN64K32 => Some(ConvKernel::GemmN64K16),
            ConvKernel::DepthwiseTiled => Some(ConvKernel::DepthwiseRows),
            ConvKernel::DepthwiseRows => Some(ConvKernel::Depthwise),
            _ => None,
        }
    }

    /// Depth of a GEMM kernel's K-tiles (8 for other kernels, which have none).
    pub fn k_tile_depth(self) -> u64 {
        match self {
            ConvKernel::GemmK16 | ConvKernel::GemmM64K16 | ConvKernel::GemmN64K16 => 16,
            ConvKernel::GemmM64K32 | ConvKernel::GemmN64K32 => 32,
            _ => 8,
        }
    }

    /// Output tile (rows of OC, columns of N·OH·OW) of a GEMM kernel at its default width. The
    /// rows are fixed by the kernel's unrolled register block; the width is a pipeline override
    /// (`tile_n`, [`GEMM_TILE_N`]) that the planner, tuning or [`ConvOptions::tile_n`] may set:
    /// `GemmN64K16` and `GemmN64K32` are `GemmM64K16` and `GemmM64K32` at 64 columns.
    ///
    /// [`ConvOptions::tile_n`]: crate::ConvOptions::tile_n
    pub fn gemm_tile(self) -> Option<(u32, u32)> {
        match self {
            ConvKernel::Gemm | ConvKernel::GemmK16 => Some((128, 128)),
            ConvKernel::GemmM64 | ConvKernel::GemmM64K16 | ConvKernel::GemmM64K32 => Some((64, 128)),
            ConvKernel::GemmN64K16 | ConvKernel::GemmN64K32 => Some((64, 64)),
            _ => None,
        }
    }
}

/// The GEMM kernels' tile widths (columns of N·OH·OW per workgroup): multiples of 8 in this range.
/// A workgroup has twice as many threads as its tile has columns.
pub const GEMM_TILE_N: std::ops::RangeInclusive<u32> = 32..=128;

/// `CoopF16`'s tile (rows of OC, columns of N·OH·OW) with `warps_m` (1 or 2) of its 8
/// subgroups along M.
fn coop_tile(warps_m: u32) -> (u32, u32) {
    (64 * warps_m, 256 / warps_m)
}

/// GEMM `kernel`'s tile at `tile_n` columns (its rows are fixed; 128 for non-GEMM kernels, which
/// callers have excluded).
fn gemm_tile_at(kernel: ConvKernel, tile_n: u32) -> (u32, u32) {
    (kernel.gemm_tile().map_or(128, |(m, _)| m), tile_n)
}

/// The most filter taps (input rows × KW) the row-run depthwise kernels unroll per thread.
const MAX_UNROLLED_TAPS: u64 = 1024;

/// The most workgroups that share one tile when `wgs` workgroups split `tiles` tiles of
/// `k_tiles` K-tiles each as the shader does (workgroup w takes iterations [w·T/W, (w+1)·T/W)).
fn stream_k_slices(tiles: u64, k_tiles: u64, wgs: u64) -> u64 {
    let total = tiles * k_tiles;
    if total == 0 {
        return 1;
    }
    // Workgroup holding iteration i: ((i + 1)·W − 1) / T (the shader's formula).
    let holder = |i: u64| ((i + 1) * wgs - 1) / total;
    (0..tiles).map(|t| holder((t + 1) * k_tiles - 1) - holder(t * k_tiles) + 1).max().unwrap_or(1)
}

/// A stream-K schedule: `workgroups` workgroups share every (tile, K-tile) iteration equally,
/// instead of one workgroup per tile (or per tile and K-slice), so a grid of, say, 144 tiles on
/// a GPU that holds 264 workgroups at once keeps every multiprocessor equally busy.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StreamK {
    /// Workgroups dispatched.
    pub workgroups: u32,
    /// Tiles along N (output columns).
    pub tiles_x: u32,
    /// Tiles along M (output channels of a group).
    pub tiles_y: u32,
    /// Partial-sum slices: the most workgroups that share one tile (1: no tile is shared, no
    /// reduce pass).
    pub slices: u32,
}

/// How a GEMM kernel shares K among its workgroups.
#[derive(Clone, Copy, Debug)]
pub(crate) enum GemmSchedule {
    /// One workgroup per tile and K-slice (1: no split).
    Slices(u32),
    /// Stream-K: a fixed number of workgroups share every tile's K-tiles equally.
    Stream(StreamK),
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

    /// A GEMM kernel's grid for `tile`×`tile` output tiles: (N tiles, M tiles, groups × stride phases).
    pub fn gemm_grid(&self, (tile_m, tile_n): (u32, u32)) -> [u64; 3] {
        let (phases, sub_h, sub_w) = if self.transposed {
            let [sh, sw] = self.stride;
            (sh * sw, self.oh.div_ceil(sh), self.ow.div_ceil(sw))
        } else {
            (1, self.oh, self.ow)
        };
        let n = u64::from(self.n) * u64::from(sub_h) * u64::from(sub_w);
        let ocg = u64::from(self.oc / self.groups);
        [n.div_ceil(u64::from(tile_n)), ocg.div_ceil(u64::from(tile_m)), u64::from(self.groups) * u64::from(phases)]
    }

    /// K of one GEMM sub-problem: input channels per group × taps, where a transposed
    /// convolution's stride phase sees only its own taps.
    pub fn gemm_k_depth(&self) -> u64 {
        let taps = if self.transposed {
            u64::from(self.kh.div_ceil(self.stride[0])) * u64::from(self.kw.div_ceil(self.stride[1]))
        } else {
            u64::from(self.kh) * u64::from(self.kw)
        };
        u64::from(self.ic / self.groups) * taps
    }

    /// K-slices for the GEMM kernel: more than 1 when its grid would leave a large GPU partly
    /// idle and K is long enough to share out. The slices' partial sums are added by a reduce
    /// pass, so splitting costs memory traffic. Fitted to a sweep of the 128×128 and 64×128 tiles
    /// at 1, 2, 3, 4 and 6 slices on the H200 (132 SMs, two 256-thread workgroups resident per
    /// SM): the fastest split keeps the whole grid within one wave of 264 workgroups, with slices
    /// of at least 32 K-tiles (256 deep). The 64×64 tiles' 128-thread workgroups are counted the
    /// same way; the planner splits them only for long K, where its rules prefer 64×128 tiles.
    ///
    /// The 64×128 and 64×64 tiles 16 or 32 deep in K split only for K of 1024 and more: shorter K measured
    /// faster unsplit on the H200 (siglip, K = 588 on 108 workgroups: 0.064 ms unsplit, 0.069
    /// in 2 slices), longer K faster split (resnet50 3×3 256, K = 2304 on 52 workgroups: 5
    /// slices 0.093 ms).
    pub fn gemm_split_k(&self, kernel: ConvKernel, tile_n: u32) -> u32 {
        const ONE_WAVE: u64 = 264;
        const SPLIT_BELOW: u64 = 132;
        const MIN_K_TILES_PER_SLICE: u64 = 32;
        let workgroups: u64 = self.gemm_grid(gemm_tile_at(kernel, tile_n)).iter().product();
        let k_tiles = self.gemm_k_depth().div_ceil(8);
        let short_k_unsplit = matches!(
            kernel,
            ConvKernel::GemmM64K16 | ConvKernel::GemmM64K32 | ConvKernel::GemmN64K16 | ConvKernel::GemmN64K32
        ) && self.gemm_k_depth() < 1024;
        if workgroups >= SPLIT_BELOW || short_k_unsplit {
            return 1;
        }
        let splits = (ONE_WAVE / workgroups.max(1)).min(k_tiles / MIN_K_TILES_PER_SLICE).clamp(1, 16) as u32;
        if self.split_k_fits(kernel, splits) { splits } else { 1 }
    }

    /// Whether `splits` K-slices fit: they live in workgroup z (≤ 65535 layers) and in a
    /// scratch output of `splits` copies (indexed in u32).
    fn split_k_fits(&self, kernel: ConvKernel, splits: u32) -> bool {
        let z = self.gemm_grid(kernel.gemm_tile().unwrap_or((128, 128)))[2];
        z.checked_mul(u64::from(splits)).is_some_and(|c| c <= 65_535) && self.partial_outputs_fit(u64::from(splits))
    }

    /// Whether `slices` copies of the output (split-K or stream-K partial sums) stay within the
    /// u32 indexing of the shaders.
    fn partial_outputs_fit(&self, slices: u64) -> bool {
        self.output_numel().checked_mul(slices).is_some_and(|c| c <= u64::from(u32::MAX))
    }

    /// The stream-K schedule of a GEMM kernel `tile_n` columns wide over `workgroups` workgroups, or an error naming
    /// the value when this convolution cannot run so: stream-K needs a direct convolution (every
    /// sub-problem the same K), at most 65535 workgroups, iteration counts that fit the shader's
    /// u32 arithmetic, and a scratch of one output per slice within u32 indexing.
    pub fn stream_k(&self, kernel: ConvKernel, tile_n: u32, workgroups: u32) -> Result<StreamK> {
        if kernel.gemm_tile().is_none() {
            return Err(Error::invalid(format!("stream_k needs a GEMM kernel, not {}", kernel.name())));
        }
        let tile = gemm_tile_at(kernel, tile_n);
        if self.transposed {
            return Err(Error::invalid(format!(
                "stream_k {workgroups} needs a direct convolution (a transposed one runs its stride phases as \
                 separate GEMMs of different depths)"
            )));
        }
        let [tiles_x, tiles_y, groups] = self.gemm_grid(tile);
        let tiles = tiles_x * tiles_y * groups;
        let k_tiles = self.gemm_k_depth().div_ceil(kernel.k_tile_depth());
        let total = tiles * k_tiles;
        let wgs = u64::from(workgroups);
        // Every workgroup must get work, or a tile's slices would have gaps.
        if wgs == 0 || wgs > total.min(65_535) {
            return Err(Error::invalid(format!(
                "stream_k {workgroups} is out of range for this convolution (1 to {}: at most 65535 workgroups \
                 and no more than its {total} (tile, K-tile) iterations)",
                total.min(65_535)
            )));
        }
        // Tiles are walked on the host to find the most segments any of them has; the shader's
        // iteration arithmetic is u32.
        const MAX_TILES: u64 = 1 << 16;
        if tiles > MAX_TILES || total.checked_mul(wgs).is_none_or(|p| p > u64::from(u32::MAX)) {
            return Err(Error::invalid(format!(
                "stream_k {workgroups} is out of range for this convolution ({tiles} tiles, at most {MAX_TILES}; \
                 {total} iterations × workgroups must stay below 2^32)"
            )));
        }
        let slices = stream_k_slices(tiles, k_tiles, wgs);
        if !self.partial_outputs_fit(slices) {
            return Err(Error::invalid(format!(
                "stream_k {workgroups} needs {slices} partial outputs of {} elements, over the 2^32 the \
                 shader indexes",
                self.output_numel()
            )));
        }
        Ok(StreamK { workgroups, tiles_x: tiles_x as u32, tiles_y: tiles_y as u32, slices: slices as u32 })
    }

    /// Output rows per thread (1, 2, 4 or 8) of the `DepthwiseRows` kernel: the most that still
    /// leave enough threads to fill the GPU. Taller runs load fewer halo rows per output (3×3,
    /// stride 1: 3.75 loads per output at 8 rows, 9 at 1), shorter ones give more threads.
    /// Measured on the H200 with builds forcing each run length (`wgconv bench --sweep` of the
    /// depthwise suite): 8 rows on 8×144×56² (0.019 ms vs 0.022 for 4) and 32×144×56² (0.055
    /// vs 0.062); 4 on 8×144×28² outputs (0.014 vs 0.025 for 8, whose 129k threads left SMs
    /// idle) and on 1024×24² (0.011, as 8; 2 rows 0.012). Filters of more than 9 taps take at
    /// most 2 rows (7×7 on 8×96×56²: 0.047 ms at 2 rows, 0.079 at 4, 0.091 at 8, whose unrolled
    /// 98 loads and 392 multiply-adds per thread crowd the registers). Shortened further when
    /// the unrolled window would be too large. The run length is a pipeline constant, so a new
    /// batch size may compile a new pipeline.
    pub fn depthwise_rows_block(&self) -> u32 {
        let threads = |rows| self.depthwise_run_threads(rows, 1);
        let few_taps = u64::from(self.kh) * u64::from(self.kw) <= 9;
        let preferred = if few_taps && threads(8) >= 1 << 18 {
            8
        } else if few_taps && threads(4) >= 1 << 17 {
            4
        } else if threads(2) >= 1 << 16 {
            2
        } else {
            1
        };
        self.longest_unrolled_run(preferred)
    }

    /// Output rows per thread (1, 2 or 4) of the `DepthwiseVec4` kernel (four columns each).
    /// Measured on the H200 with builds forcing 1, 2 and 4 rows (`wgconv bench --sweep` of the
    /// depthwise suite): 4 rows when that makes one or two waves of threads (8×144×56²: 0.016
    /// ms vs 0.017 for 2), else 2 while that leaves 2^17 threads (32×144×56²: 0.044 vs 0.047
    /// for 4; 7×7 on 8×96×56²: 0.024 vs 0.028 for 1 and 0.037 for 4), else 1 (8×144×28²
    /// outputs: 0.0128 vs 0.0130; 1024×24²: 0.0110, as 2). Filters of more than 9 taps take at
    /// most 2 rows; shortened further when the unrolled window would be too large.
    pub fn depthwise_vec4_rows(&self) -> u32 {
        let threads = |rows| self.depthwise_run_threads(rows, 4);
        let few_taps = u64::from(self.kh) * u64::from(self.kw) <= 9;
        let preferred = if few_taps && (1 << 17..1 << 19).contains(&threads(4)) {
            4
        } else if threads(2) >= 1 << 17 {
            2
        } else {
            1
        };
        self.longest_unrolled_run(preferred)
    }

    /// Threads of a row-run depthwise kernel: one per run of `rows` output rows of
    /// `columns_per_thread` columns (1, or 4 for `DepthwiseVec4`, whose widths are multiples of 4).
    pub fn depthwise_run_threads(&self, rows: u32, columns_per_thread: u32) -> u64 {
        u64::from(self.n)
            * u64::from(self.oc)
            * u64::from(self.oh.div_ceil(rows))
            * u64::from(self.ow / columns_per_thread)
    }

    /// Subgroups along M in `CoopF16`'s workgroup of 8: 1 (64×256 tiles) for up to 64 output
    /// channels per group, else 2 (128×128). H200: 8×3→64×224² k7 s2 0.062 ms vs 0.094,
    /// 8×64→64×56² 3×3 0.070 vs 0.108; with 128+ channels 128×128 won every layer measured.
    pub fn coop_warps_m(&self) -> u32 {
        if self.oc / self.groups <= 64 { 1 } else { 2 }
    }

    /// `CoopF16`'s workgroup grid before K-slicing (N tiles, M tiles, groups), for its tile.
    pub(crate) fn coop_grid(&self) -> [u64; 3] {
        self.gemm_grid(coop_tile(self.coop_warps_m()))
    }

    /// Depth of `CoopF16`'s K-tiles: 16 on grids of more than 132 workgroups (one wave on an
    /// H200's 132 multiprocessors), where the fewer registers holding the next tile let more
    /// workgroups share a multiprocessor, else 32 (half the barriers). H200: davit_down1 (144
    /// workgroups) 0.061 ms vs 0.077, resnet50_conv1 (392) 0.053 vs 0.062, davit_stem (288)
    /// 0.052 vs 0.054; on one-wave grids 16 was 3–11 % slower (within 2 % on the pointwise
    /// layer). The 16-deep entry point declares 22 784 bytes of workgroup memory, the 32-deep
    /// one 35 328; `ConvKernel::workgroup_storage_bytes` gives the larger, so a device with
    /// less runs neither (the H200 allows 48 KiB).
    pub fn coop_k_tile(&self) -> u32 {
        let workgroups: u64 = self.coop_grid().iter().product();
        if workgroups * u64::from(self.coop_split_k()) > 132 { 16 } else { 32 }
    }

    /// K-slices for `CoopF16`: grids of under 66 workgroups (half an H200's 132 multiprocessors)
    /// are split in 2, 4 or 8 (doubling while the slices still fit one wave of 132 and keep 4+
    /// K-tiles each).
    /// H200: 8×256→256×14² 3×3 (26 workgroups) 0.077 ms in 4 slices vs 0.231 unsplit, 0.081 in
    /// 8; 3→1152 14×14 patchify (54) 0.045 in 2 vs 0.051; grids of 72+ workgroups were slower
    /// split (davit_down2 0.093 in 2 vs 0.068).
    pub fn coop_split_k(&self) -> u32 {
        let workgroups: u64 = self.coop_grid().iter().product();
        let k_tiles = self.gemm_k_depth().div_ceil(32);
        let mut splits = 1u32;
        if workgroups < 66 {
            while splits < 8 && workgroups * u64::from(splits) * 2 <= 132 && k_tiles / u64::from(splits * 2) >= 4 {
                splits *= 2;
            }
        }
        splits
    }

    /// Whether strides, paddings and dilations are all below 2^16: the kernels that fold them
    /// into the pipeline as constants need it, since their products could overflow u32 there,
    /// which fails pipeline creation. Larger ones are left to the per-output kernels.
    fn filter_constants_fit(&self) -> bool {
        [self.stride, self.padding, self.dilation].iter().flatten().all(|x| *x < 1 << 16)
    }

    /// The longest run of output rows, at most `preferred`, whose input window the row-run
    /// kernels can unroll: (rows − 1)·sH + (KH − 1)·dH + 1 input rows of KW taps, at most
    /// `MAX_UNROLLED_TAPS` (1 when even one row's window is larger: such filters are not run).
    fn longest_unrolled_run(&self, preferred: u32) -> u32 {
        [8, 4, 2, 1]
            .into_iter()
            .filter(|&r| r <= preferred)
            .find(|&r| self.run_window_taps(r) <= MAX_UNROLLED_TAPS)
            .unwrap_or(1)
    }

    /// Input rows × taps a run of `rows` output rows walks (saturating: shapes are only
    /// checked to fit u32 each, and their products may not fit a u64).
    fn run_window_taps(&self, rows: u32) -> u64 {
        let window_h = u64::from(rows - 1)
            .saturating_mul(u64::from(self.stride[0]))
            .saturating_add((u64::from(self.kh) - 1).saturating_mul(u64::from(self.dilation[0])))
            .saturating_add(1);
        window_h.saturating_mul(u64::from(self.kw))
    }

    /// Whether the row-run kernels can run this geometry at all: filter constants that fit
    /// (`filter_constants_fit`) and a one-row window of at most `MAX_UNROLLED_TAPS`.
    fn depthwise_rows_fit(&self) -> bool {
        self.filter_constants_fit() && self.run_window_taps(1) <= MAX_UNROLLED_TAPS
    }

    /// Whether the `DepthwiseVec4` kernel can run besides that: widths that are multiples of 4
    /// (rows start 16-byte aligned), and the input columns of a quad of outputs within four
    /// aligned vec4s.
    fn depthwise_vec4_fit(&self) -> bool {
        let [sw, pw, dw] = [self.stride[1], self.padding[1], self.dilation[1]].map(u64::from);
        let span = 3 * sw + (u64::from(self.kw) - 1) * dw + 1;
        let offset = (4 - pw % 4) % 4;
        self.iw.is_multiple_of(4) && self.ow.is_multiple_of(4) && offset + span <= 16
    }

    /// Output rows per thread (1, 2 or 4) of the tiled depthwise kernel: among those whose input
    /// window fits its 16 KiB of workgroup memory, the one that loads the fewest input rows over
    /// the output's height (taller blocks share their halo over more rows, but pad the last block).
    /// `None` when no window fits (large strides or dilations).
    pub fn depthwise_rows_per_thread(&self) -> Option<u32> {
        const BLOCK_W: u64 = 32;
        const TILE_CAPACITY: u64 = 4096;
        // Strides and dilations are u32, so these products fit a u64; the window is capped
        // before it is multiplied out.
        let [sh, sw] = self.stride.map(u64::from);
        let [dh, dw] = self.dilation.map(u64::from);
        let window_w = (BLOCK_W - 1) * sw + (u64::from(self.kw) - 1) * dw + 1;
        [4u32, 2, 1]
            .into_iter()
            .filter_map(|rows| {
                let block_h = 8 * u64::from(rows);
                let window_h = (block_h - 1) * sh + (u64::from(self.kh) - 1) * dh + 1;
                let fits =
                    window_w <= TILE_CAPACITY && window_h <= TILE_CAPACITY && window_w * window_h <= TILE_CAPACITY;
                let rows_loaded = u64::from(self.oh).div_ceil(block_h) * window_h;
                fits.then_some((rows_loaded, rows))
            })
            .min_by_key(|&(rows_loaded, rows)| (rows_loaded, std::cmp::Reverse(rows)))
            .map(|(_, rows)| rows)
    }

    /// The K-slices a GEMM kernel `tile_n` columns wide runs with: `forced` when the grid and
    /// scratch output can hold that many, else an error naming the value; the planner's choice
    /// when `None`.
    pub fn choose_split_k(&self, kernel: ConvKernel, tile_n: u32, forced: Option<u32>) -> Result<u32> {
        let Some(splits) = forced else { return Ok(self.gemm_split_k(kernel, tile_n)) };
        if kernel.gemm_tile().is_none() || splits == 0 || !self.split_k_fits(kernel, splits) {
            let z = self.gemm_grid(kernel.gemm_tile().unwrap_or((128, 128)))[2];
            return Err(Error::invalid(format!(
                "split_k {splits} is out of range for this convolution (1 up to 65535 / {z} workgroup layers \
                 and 2^32 / {} partial outputs)",
                self.output_numel()
            )));
        }
        Ok(splits)
    }

    /// How GEMM `kernel` at `tile_n` columns splits K: stream-K over `stream_k` workgroups, else
    /// `split_k` slices (the planner's count when `None`); an error naming the value that does
    /// not fit, or when both are given.
    pub(crate) fn gemm_schedule(
        &self,
        kernel: ConvKernel,
        tile_n: u32,
        split_k: Option<u32>,
        stream_k: Option<u32>,
    ) -> Result<GemmSchedule> {
        match (split_k, stream_k) {
            (Some(splits), Some(workgroups)) => {
                Err(Error::invalid(format!("split_k {splits} and stream_k {workgroups} cannot both be forced")))
            }
            (None, Some(workgroups)) => Ok(GemmSchedule::Stream(self.stream_k(kernel, tile_n, workgroups)?)),
            (splits, None) => Ok(GemmSchedule::Slices(self.choose_split_k(kernel, tile_n, splits)?)),
        }
    }

    /// The width GEMM `kernel` runs at: `forced` when the kernels can take it here (a multiple of
    /// 8 in [`GEMM_TILE_N`], at most 65535 tiles along N), else an error naming it; the planner's
    /// width when `None`.
    pub fn choose_tile_n(&self, kernel: ConvKernel, forced: Option<u32>) -> Result<u32> {
        let Some(tile_n) = forced else { return Ok(self.planned_tile_n(kernel)) };
        if kernel.gemm_tile().is_none() {
            return Err(Error::invalid(format!("tile_n {tile_n} needs a GEMM kernel, not {}", kernel.name())));
        }
        if !GEMM_TILE_N.contains(&tile_n) || !tile_n.is_multiple_of(8) {
            return Err(Error::invalid(format!(
                "tile_n {tile_n} is not a GEMM tile width (a multiple of 8 from {} to {})",
                GEMM_TILE_N.start(),
                GEMM_TILE_N.end()
            )));
        }
        let tiles_n = self.gemm_grid(gemm_tile_at(kernel, tile_n))[0];
        if tiles_n > 65_535 {
            return Err(Error::invalid(format!(
                "tile_n {tile_n} makes {tiles_n} tiles along N·OH·OW for this convolution, over the 65535 workgroups \
                 a grid dimension may have"
            )));
        }
        Ok(tile_n)
    }

    /// The planner's tile width for GEMM `kernel`: its default ([`ConvKernel::gemm_tile`]).
    pub fn planned_tile_n(&self, kernel: ConvKernel) -> u32 {
        kernel.gemm_tile().map_or(128, |(_, n)| n)
    }

    /// Whether `kernel` can run this convolution.
    pub fn supports(&self, kernel: ConvKernel) -> bool {
        match kernel {
            ConvKernel::Transposed => self.transposed,
            ConvKernel::Direct => !self.transposed,
            ConvKernel::DirectVec4 => !self.transposed && (self.ic / self.groups).is_multiple_of(4),
            ConvKernel::Depthwise => !self.transposed && self.ic / self.groups <= 16,
            ConvKernel::GroupedOc4 => {
                !self.transposed && self.ic / self.groups <= 16 && (self.oc / self.groups).is_multiple_of(4)
            }
            ConvKernel::DepthwiseTiled => {
                !self.transposed && self.ic == self.groups && self.depthwise_rows_per_thread().is_some()
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
                    && self.gemm_grid(tile).iter().all(|d| *d <= 65_535)
            }
            ConvKernel::CoopF16 => {
                !self.transposed && self.filter_constants_fit() && self.coop_grid().iter().all(|d| *d <= 65_535)
            }
        }
    }

    /// The planner: the fastest kernel for this shape among those that support it.
    pub fn planned_kernel(&self) -> ConvKernel {
        let ocg = self.oc / self.groups;
        let icg = self.ic / self.groups;
        // Few channels per group make a mostly empty GEMM tile; the direct kernels win there.
        let gemm_worthwhile = self.transposed || (ocg >= 16 && icg * self.kh * self.kw >= 8);
        // Depthwise on widths that are multiples of 4: aligned vec4 quads, fastest on every
        // depthwise layer measured, 3×3 and 7×7 (H200: 8×144×56² 0.016 ms vs 0.019
        // `DepthwiseRows`, 0.029 tiled; stride 2 0.0128 vs 0.0137; 1024×24² 0.0110 vs 0.0116;
        // 32×144×56² 0.044 vs 0.055; 7×7 on 8×96×56² 0.024 vs 0.043 tiled). Larger filters
        // that fit its four-vec4 window (e.g. 9×9 "same") were not measured; they take it too.
        let depthwise = self.ic == self.groups && !self.transposed;
        if depthwise && self.supports(ConvKernel::DepthwiseVec4) {
            return ConvKernel::DepthwiseVec4;
        }
        // Otherwise the tiled kernel shares each input element over its block through workgroup
        // memory, which wins for large filters (7×7 on 8×96×56²: 0.043 ms vs 0.047 for
        // `DepthwiseRows`, 0.072 for `Depthwise`). Its blocks are 8+ rows tall, which short
        // (1D) outputs would mostly waste.
        let taps = u64::from(self.kh) * u64::from(self.kw);
        if self.supports(ConvKernel::DepthwiseTiled) && taps >= 25 && self.oh >= 8 {
            return ConvKernel::DepthwiseTiled;
        }
        // Other depthwise filters: runs of output rows per thread (H200, 3×3: 8×144×56² 0.019 ms
        // vs 0.029 tiled; 8×144×56² stride 2 0.014 vs 0.016 `Depthwise`; 1024×24² 0.011 vs
        // 0.013; 32×144×56² 0.055 vs 0.101).
        if depthwise && self.supports(ConvKernel::DepthwiseRows) {
            return ConvKernel::DepthwiseRows;
        }
        // Groups of up to 16 channels in and out (ResNeXt): four output channels per thread
        // share each input load (H200: 0.035 vs 0.078 ms for the depthwise kernel on
        // 8×128×56², g32; 0.035 vs 0.070 direct_vec4 with 8 per group; 0.042 vs 0.047 for
        // 64×64 GEMM tiles with 16 per group).
        if self.groups > 1 && !depthwise && icg <= 16 && ocg <= 16 && self.supports(ConvKernel::GroupedOc4) {
            return ConvKernel::GroupedOc4;
        }
        // Depthwise filters too large for the row-runs' unrolled window, and other groups of few
        // channels (3 out per group, or up to 4 in): the depthwise kernel's four outputs per
        // thread beat the one-output direct kernels (H200, before grouped_oc4: 0.091 vs 0.115 ms
        // on ResNeXt's 8×128×56², g32).
        if depthwise || (!gemm_worthwhile && icg <= 4 && self.supports(ConvKernel::Depthwise)) {
            return ConvKernel::Depthwise;
        }
        if !gemm_worthwhile {
            return self.reference_kernel();
        }
        // Fitted to `wgconv bench --tune` on the H200 (v14: every configuration timed in
        // interleaved rounds; docs/PERFORMANCE.md). Large grids with long K: 128×128 tiles 16
        // deep in K (2048² × 4096 pointwise 0.980 vs 1.015 ms for the next best). Pointwise:
        // 64×128 tiles 32 deep (resnet50 1×1 0.044 vs 0.046 ms for 64×64). Patchify layers
        // (stride = kernel, no padding, 128+ input channels per group) on grids small enough to
        // split: 8-deep 128×128 tiles in K-slices (davit_down2 0.108 ms vs 0.114 for 64×64).
        // K of 1024+ on a grid under one workgroup per SM even in 64×64 tiles: 64×128 tiles
        // 16 deep in K-slices (resnet50 3×3 256: 0.089 vs 0.128 ms unsplit 64×64). Everything
        // else: 64×64 tiles of 128 threads, whose grids spread more evenly over the SMs
        // (resnet50 3×3 64: 0.076 vs 0.092 ms in 64×128 tiles, davit stem 0.066 vs 0.074,
        // davit_down1 0.100 vs 0.120, dcgan 0.092 vs 0.099), 32 deep in K on grids of under
        // 512 tiles (siglip 0.057 vs 0.062 ms 16 deep, dcgan 0.092 vs 0.100) and 16 deep on
        // larger ones (davit_down1 0.100 vs 0.107, unet_up 0.104 vs 0.113, resnet50_conv1 0.084
        // vs 0.092).
        let tile8 = if ocg <= 64 { ConvKernel::GemmM64 } else { ConvKernel::Gemm };
        let workgroups: u64 = self.gemm_grid(tile8.gemm_tile().expect("a GEMM kernel")).iter().product();
        let large = !self.transposed && workgroups >= 384 && self.gemm_k_depth() >= 512;
        let unpadded = !self.transposed && self.padding == [0, 0];
        let pointwise = unpadded && self.kh * self.kw == 1 && self.stride == [1, 1];
        let patchify = unpadded && self.kh * self.kw > 1 && self.stride == [self.kh, self.kw] && icg >= 128;
        let tiles_n64: u64 = self.gemm_grid((64, 64)).iter().product();
        let long_k_small_grid = self.gemm_k_depth() >= 1024 && tiles_n64 < 132;
        let gemm = match (large, tile8) {
            (true, ConvKernel::GemmM64) => ConvKernel::GemmM64K16,
            (true, _) => ConvKernel::GemmK16,
            _ if pointwise => ConvKernel::GemmM64K32,
            _ if patchify && self.gemm_split_k(tile8, self.planned_tile_n(tile8)) > 1 => tile8,
            _ if long_k_small_grid => ConvKernel::GemmM64K16,
            _ if tiles_n64 < 512 => ConvKernel::GemmN64K32,
            _ => ConvKernel::GemmN64K16,
        };
        if self.supports(gemm) { gemm } else { self.reference_kernel() }
    }

    /// Every fp32 kernel that can run this convolution (tests and tuning run them all;
    /// `CoopF16`, which rounds its multiplicands to f16, is not among them).
    pub fn supported_kernels(&self) -> Vec<ConvKernel> {
        ConvKernel::ALL.into_iter().filter(|k| k.precision() == Precision::F32 && self.supports(*k)).collect()
    }

    /// The kernel to run: `forced` when it can run this geometry, else an error naming why;
    /// the planner's choice when `None`.
    pub fn choose_kernel(&self, forced: Option<ConvKernel>) -> Result<ConvKernel> {
        let Some(k) = forced else { return Ok(self.planned_kernel()) };
        if !self.supports(k) {
            return Err(Error::invalid(format!(
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
            )));
        }
        Ok(k)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ops::conv_geometry::ConvOptions;

    fn geo(input: &[usize], weight: &[usize], opts: ConvOptions) -> Result<ConvGeometry> {
        ConvGeometry::new(input, weight, None, &opts)
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
        // Large grid and long K: 128×128 tiles 16 deep; pointwise: 64×128 tiles 32 deep;
        // patchify layers on small grids: 8-deep tiles split; long K on small grids: 64×128
        // tiles 16 deep, split; the rest 64×64 tiles, 32 deep below 512 tiles, else 16 deep.
        assert_eq!(geo(&[1, 2048, 64, 64], &[2048, 2048, 1, 1], d()).unwrap().planned_kernel(), ConvKernel::GemmK16);
        let plan = |g: &ConvGeometry| {
            let k = g.planned_kernel();
            (k, g.gemm_split_k(k, g.planned_tile_n(k)))
        };
        let conv1 = geo(&[8, 3, 224, 224], &[64, 3, 7, 7], d().stride(&[2]).padding(&[3])).unwrap();
        assert_eq!(plan(&conv1), (ConvKernel::GemmN64K16, 1));
        let pointwise = geo(&[8, 256, 14, 14], &[1024, 256, 1, 1], d()).unwrap();
        assert_eq!(plan(&pointwise), (ConvKernel::GemmM64K32, 1));
        let down1 = geo(&[1, 128, 192, 192], &[256, 128, 2, 2], d().stride(&[2])).unwrap();
        assert_eq!(plan(&down1), (ConvKernel::GemmN64K16, 1));
        let down2 = geo(&[1, 256, 96, 96], &[512, 256, 2, 2], d().stride(&[2])).unwrap();
        assert_eq!(plan(&down2), (ConvKernel::Gemm, 3));
        let siglip = geo(&[1, 3, 384, 384], &[1152, 3, 14, 14], d().stride(&[14])).unwrap();
        assert_eq!(plan(&siglip), (ConvKernel::GemmN64K32, 1));
        let small = geo(&[8, 64, 56, 56], &[64, 64, 3, 3], d().padding(&[1])).unwrap();
        assert_eq!(plan(&small), (ConvKernel::GemmN64K32, 1));
        let deep = geo(&[8, 256, 14, 14], &[256, 256, 3, 3], d().padding(&[1])).unwrap();
        assert_eq!(plan(&deep), (ConvKernel::GemmM64K16, 5));
        let t = d().transposed(true).stride(&[2]).padding(&[1]);
        assert_eq!(plan(&geo(&[8, 256, 16, 16], &[256, 128, 4, 4], t).unwrap()), (ConvKernel::GemmN64K32, 1));
        let t = d().transposed(true).stride(&[2]);
        assert_eq!(plan(&geo(&[8, 128, 64, 64], &[128, 64, 2, 2], t).unwrap()), (ConvKernel::GemmN64K16, 1));
        // Depthwise on widths that are multiples of 4: vec4 quads, 4 rows per thread for one or
        // two waves, else 2 while that leaves 2^17 threads, else 1; at most 2 rows above 9 taps.
        let dw = |n, c: u32, h, s, k: usize| {
            let (cu, o) = (c as usize, d().groups(c).padding(&[k as u32 / 2]).stride(&[s]));
            geo(&[n, cu, h, h], &[cu, 1, k, k], o).unwrap()
        };
        let quads = |g: ConvGeometry| (g.planned_kernel(), g.depthwise_vec4_rows());
        assert_eq!(quads(dw(8, 144, 56, 1, 3)), (ConvKernel::DepthwiseVec4, 4));
        assert_eq!(quads(dw(32, 144, 56, 1, 3)), (ConvKernel::DepthwiseVec4, 2));
        assert_eq!(quads(dw(8, 144, 56, 2, 3)), (ConvKernel::DepthwiseVec4, 1));
        assert_eq!(quads(dw(1, 1024, 24, 1, 3)), (ConvKernel::DepthwiseVec4, 1));
        assert_eq!(quads(dw(8, 96, 56, 1, 7)), (ConvKernel::DepthwiseVec4, 2));
        // Other widths: row runs (8 rows when that leaves 2^18+ threads, else 4 for 2^17+,
        // 2 for 2^16+, else 1; at most 2 above 9 taps), except 25+ taps on 8+ rows: tiled.
        let rows = |g: ConvGeometry| (g.planned_kernel(), g.depthwise_rows_block());
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
    }

    #[test]
    fn coop_tiles_and_k_slices() {
        let conv = |n, ic, oc, hw, k, stride, padding| {
            geo(&[n, ic, hw, hw], &[oc, ic, k, k], ConvOptions::default().stride(&[stride]).padding(&[padding]))
                .unwrap()
        };
        // (geometry, warps along M, K-slices, K-tile depth): the default suite's GEMM layers.
        for (g, warps_m, splits, k_tile) in [
            (conv(8, 256, 256, 14, 3, 1, 1), 2, 4, 32),   // 2 × 13 workgroups, 72 K-tiles
            (conv(1, 3, 1152, 384, 14, 14, 0), 2, 2, 32), // 9 × 6, 19 K-tiles
            (conv(1, 256, 512, 96, 2, 2, 0), 2, 1, 32),   // 4 × 18: not split
            (conv(1, 128, 256, 192, 2, 2, 0), 2, 1, 16),  // 2 × 72: more than one wave
            (conv(1, 3, 128, 768, 7, 4, 3), 2, 1, 16),    // 1 × 288
            (conv(8, 256, 1024, 14, 1, 1, 0), 2, 1, 32),  // 8 × 13
            (conv(8, 3, 64, 224, 7, 2, 3), 1, 1, 16),     // 64 channels: 64×256 tiles, 392 of them
            (conv(8, 64, 64, 56, 3, 1, 1), 1, 1, 32),     // 98
            (conv(1, 512, 256, 4, 1, 1, 0), 2, 4, 32),    // 2 × 1 workgroups, 16 K-tiles: 4 per slice
        ] {
            let got = (g.coop_warps_m(), g.coop_split_k(), g.coop_k_tile());
            assert_eq!(got, (warps_m, splits, k_tile), "{g:?}");
        }
        // The tensor-core kernel runs direct convolutions only and is no fp32 kernel.
        let g = conv(8, 256, 256, 14, 3, 1, 1);
        assert!(g.supports(ConvKernel::CoopF16) && !g.supported_kernels().contains(&ConvKernel::CoopF16));
        assert_eq!(ConvKernel::CoopF16.precision(), Precision::AllowF16);
        assert_eq!(ConvKernel::GemmM64K16.precision(), Precision::F32);
        let t = geo(&[1, 8, 5, 5], &[8, 4, 3, 3], ConvOptions::default().transposed(true)).unwrap();
        assert!(!t.supports(ConvKernel::CoopF16));
    }

    #[test]
    fn every_kernel_is_listed_once_and_found_by_name() {
        // An exhaustive match: a new variant fails to compile here until it is placed in `ALL`.
        let position = |k: ConvKernel| match k {
            ConvKernel::Direct => 0,
            ConvKernel::DirectVec4 => 1,
            ConvKernel::Transposed => 2,
            ConvKernel::Gemm => 3,
            ConvKernel::GemmM64 => 4,
            ConvKernel::GemmK16 => 5,
            ConvKernel::GemmM64K16 => 6,
            ConvKernel::GemmM64K32 => 7,
            ConvKernel::GemmN64K16 => 8,
            ConvKernel::GemmN64K32 => 9,
            ConvKernel::Depthwise => 10,
            ConvKernel::GroupedOc4 => 11,
            ConvKernel::DepthwiseTiled => 12,
            ConvKernel::DepthwiseRows => 13,
            ConvKernel::DepthwiseVec4 => 14,
            ConvKernel::CoopF16 => 15,
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
    fn huge_strides_do_not_overflow_the_window_arithmetic() {
        let g = geo(&[1, 1, 1, 1], &[1, 1, 1, 1], ConvOptions::default().stride(&[1 << 28])).unwrap();
        assert_eq!(g.depthwise_rows_per_thread(), None);
        assert_eq!(g.planned_kernel(), ConvKernel::Depthwise);
        let g = geo(&[1, 1, 3, 3], &[1, 1, 3, 3], ConvOptions::default().dilation(&[u32::MAX / 4])).unwrap_err();
        assert!(!g.to_string().is_empty());
    }

    #[test]
    fn stream_k_slices_match_a_simulation() {
        // Brute force: hand out each workgroup's iteration range and count who touches each tile;
        // the shader's slot (w − first workgroup of the tile) must leave no slice unwritten.
        for (tiles, k_tiles, wgs) in [(1, 1, 1), (144, 64, 264), (104, 32, 264), (6, 18, 5), (1, 72, 72), (7, 3, 2)] {
            let total = tiles * k_tiles;
            let mut touched = vec![std::collections::BTreeSet::new(); tiles as usize];
            for w in 0..wgs {
                for i in w * total / wgs..(w + 1) * total / wgs {
                    touched[(i / k_tiles) as usize].insert(w);
                }
            }
            for set in &touched {
                let (first, last) = (set.first().unwrap(), set.last().unwrap());
                assert_eq!(set.len() as u64, last - first + 1, "a slice is left unwritten");
            }
            let most = touched.iter().map(|s| s.len() as u64).max().unwrap();
            assert_eq!(stream_k_slices(tiles, k_tiles, wgs), most, "{tiles} tiles × {k_tiles}, {wgs} workgroups");
        }
    }

    #[test]
    fn forced_stream_k_is_checked() {
        let g = geo(&[1, 64, 6, 6], &[16, 64, 3, 3], ConvOptions::default().padding(&[1])).unwrap();
        let s = g.stream_k(ConvKernel::Gemm, 128, 5).unwrap();
        assert_eq!((s.workgroups, s.tiles_x, s.tiles_y, s.slices), (5, 1, 1, 5));
        for bad in [0, 70_000] {
            let err = g.stream_k(ConvKernel::Gemm, 128, bad).unwrap_err();
            assert!(err.to_string().contains(&format!("stream_k {bad}")), "{err}");
        }
        // More workgroups than iterations (72 K-tiles) would leave some without work.
        assert!(g.stream_k(ConvKernel::Gemm, 128, 72).is_ok());
        assert!(g.stream_k(ConvKernel::Gemm, 128, 73).unwrap_err().to_string().contains("stream_k 73"));
        let t = ConvOptions::default().transposed(true).stride(&[2]).padding(&[1]);
        let t = geo(&[1, 8, 4, 4], &[8, 8, 4, 4], t).unwrap();
        assert!(t.stream_k(ConvKernel::Gemm, 128, 4).unwrap_err().to_string().contains("transposed"));
        assert!(g.stream_k(ConvKernel::Depthwise, 128, 4).unwrap_err().to_string().contains("not depthwise"));
    }

    #[test]
    fn tile_widths_are_checked() {
        let g = geo(&[8, 256, 14, 14], &[1024, 256, 1, 1], ConvOptions::default()).unwrap();
        // The planner keeps each kernel's default width; forced widths are multiples of 8 in range.
        assert_eq!(g.choose_tile_n(ConvKernel::GemmM64K32, None).unwrap(), 128);
        assert_eq!(g.choose_tile_n(ConvKernel::GemmN64K32, None).unwrap(), 64);
        for ok in [32, 104, 128] {
            assert_eq!(g.choose_tile_n(ConvKernel::Gemm, Some(ok)).unwrap(), ok);
        }
        for bad in [0, 24, 36, 136] {
            let err = g.choose_tile_n(ConvKernel::Gemm, Some(bad)).unwrap_err().to_string();
            assert!(err.contains(&format!("tile_n {bad} is not")), "{err}");
        }
        let err = g.choose_tile_n(ConvKernel::Depthwise, Some(64)).unwrap_err().to_string();
        assert!(err.contains("tile_n 64 needs a GEMM kernel"), "{err}");
        // More than 65535 tiles along N at 32 columns, not at 128.
        let wide = geo(&[1, 16, 1, 3_000_000], &[16, 16, 1, 1], ConvOptions::default()).unwrap();
        assert!(wide.choose_tile_n(ConvKernel::Gemm, Some(32)).unwrap_err().to_string().contains("tiles along"));
        assert!(wide.choose_tile_n(ConvKernel::Gemm, Some(128)).is_ok());
        // The width sets the grid, so the planner's K-slices: 8 tiles of 128 rows × 13 (split
        // below 132 workgroups) or × 49 at 32 columns (392: not split).
        let deep = geo(&[8, 1024, 14, 14], &[1024, 1024, 1, 1], ConvOptions::default()).unwrap();
        assert_eq!(deep.gemm_grid((128, 128)), [13, 8, 1]);
        assert!(deep.gemm_split_k(ConvKernel::Gemm, 128) > 1);
        assert_eq!(deep.gemm_split_k(ConvKernel::Gemm, 32), 1);
    }

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
    fn generated_workgroup_memory_matches_the_hand_counts() {
        // What the kernels' workgroup memory was counted by hand before the codegen counted it.
        let every = [
            ConvKernel::Direct,
            ConvKernel::DirectVec4,
            ConvKernel::Transposed,
            ConvKernel::Gemm,
            ConvKernel::GemmM64,
            ConvKernel::GemmK16,
            ConvKernel::GemmM64K16,
            ConvKernel::GemmM64K32,
            ConvKernel::GemmN64K16,
            ConvKernel::GemmN64K32,
            ConvKernel::Depthwise,
            ConvKernel::GroupedOc4,
            ConvKernel::DepthwiseTiled,
            ConvKernel::DepthwiseRows,
            ConvKernel::DepthwiseVec4,
            ConvKernel::CoopF16,
        ];
        for kernel in every {
            for tile_n in (32..=128).step_by(8) {
                let by_hand = match kernel.gemm_tile() {
                    Some((rows, _)) => 4 * kernel.k_tile_depth() as u32 * (rows + tile_n),
                    None => 0,
                };
                assert_eq!(kernel.gemm_tile_storage_bytes(tile_n), by_hand, "{kernel:?} at tile_n {tile_n}");
                let at = kernel.workgroup_storage_bytes_at(Some(tile_n));
                assert_eq!(at, if kernel.gemm_tile().is_some() { by_hand } else { kernel.workgroup_storage_bytes() });
            }
            let by_hand = match kernel {
                ConvKernel::DepthwiseTiled => 16_384,
                // f16 A and B tiles (128 × 40 and 32 × 264 halves) + 8 f32 staging tiles of 16×16.
                ConvKernel::CoopF16 => 35_328,
                _ => match kernel.gemm_tile() {
                    Some((rows, tile_n)) => 4 * kernel.k_tile_depth() as u32 * (rows + tile_n),
                    None => 0,
                },
            };
            assert_eq!(kernel.workgroup_storage_bytes(), by_hand, "{kernel:?}");
        }
        assert_eq!(crate::shaders::conv2d_coop::CONV2D_COOP_K16_WORKGROUP_MEMORY_BYTES, 22_784);
    }

    #[test]
    fn forced_split_k_is_checked() {
        let g = geo(&[1, 64, 6, 6], &[16, 64, 3, 3], ConvOptions::default().padding(&[1])).unwrap();
        assert_eq!(g.choose_split_k(ConvKernel::Gemm, 128, Some(7)).unwrap(), 7);
        for (kernel, splits) in [(ConvKernel::Gemm, 0), (ConvKernel::Gemm, 65_536), (ConvKernel::Depthwise, 2)] {
            let err = g.choose_split_k(kernel, 128, Some(splits)).unwrap_err();
            assert!(err.to_string().contains(&format!("split_k {splits}")), "{err}");
        }
    }
}
