//! Launch parameters of the kernels that are not GEMM-shaped or that choose them per shape:
//! output rows per thread of the depthwise kernels, the few-output-channel transposed kernel's
//! threads, and the tensor-core kernel's tile, K-tile depth and K-slices.

use super::{conv_geometry::ConvGeometry, conv_plan::FITTED_SMS};

/// `CoopF16`'s tile (rows of OC, columns of N·OH·OW) with `warps_m` (1 or 2) of its 8
/// subgroups along M, each subgroup a 64×32 block (the shader's `bm`/`bn`; a test checks it
/// against the shader's B-tile stride `SB_MAX`).
fn coop_tile(warps_m: u32) -> (u32, u32) {
    (64 * warps_m, 256 / warps_m)
}

/// K-slices for a tensor-core grid of `workgroups` over `k_tiles` K-tiles: grids of
/// under half a wave are split in 2, 4 or 8, doubling while the slices still fit one wave and
/// keep 4+ K-tiles each (docs/PERFORMANCE.md, rule R22).
fn split_small_grid(workgroups: u64, k_tiles: u64) -> u32 {
    let mut splits = 1u32;
    if workgroups < FITTED_SMS / 2 {
        while splits < 8 && workgroups * u64::from(splits) * 2 <= FITTED_SMS && k_tiles / u64::from(splits * 2) >= 4 {
            splits *= 2;
        }
    }
    splits
}

/// Pixels per thread of the K-split `TransposedFewOc` entry point and of `FewOc`: the shader's
/// `FEW_OC_RUN`, as the generated bindings give it.
const FEW_OC_RUN: u128 = crate::shaders::conv2d::FEW_OC_RUN as u128;

/// Threads per workgroup of `PointwiseVec4`'s main entry point (fewer where the device allows
/// fewer): 512 pixels.
pub(crate) const POINTWISE_WORKGROUP: u32 = 128;

/// Threads per workgroup of `DirectBlock` (fewer where the device allows fewer): 4 output pixels
/// each.
pub(crate) const BLOCK_WORKGROUP: u32 = 128;

// `DirectBlock` interleaves the pixels of `BLOCK_LANES` threads: whole groups of them tile its
// chunk of pixels without holes (`Batch::encode_block` rounds a device's smaller limit down to
// such groups too).
const _: () = assert!(BLOCK_WORKGROUP.is_multiple_of(crate::shaders::conv2d_block::BLOCK_LANES));

/// The most output channels per thread of `PointwiseVec4` (`POINTWISE_MAX_OC_BLOCK` in
/// `shaders/templates/conv2d_pointwise.wgsl`).
const POINTWISE_MAX_OC_BLOCK: u32 = 16;

// `DirectBlock` shares the stream's output-channel blocks: its accumulators hold as many.
const _: () = assert!(crate::shaders::conv2d_block::BLOCK_MAX_OC == POINTWISE_MAX_OC_BLOCK);

/// The most filter taps (input rows × KW) the row-run depthwise kernels unroll per thread.
const MAX_UNROLLED_TAPS: u64 = 1024;

/// Whether a device with `limits` takes the K-split few-output-channel entry points' fixed
/// workgroup (`TransposedFewOc`'s and `FewOc`'s): 256 threads and their workgroup memory.
pub(crate) fn few_oc_split_fits(limits: &wgpu::Limits) -> bool {
    use crate::shaders::conv2d as direct;
    let memory = direct::CONV_TRANSPOSE2D_FEW_OC_SPLIT_WORKGROUP_MEMORY_BYTES
        .max(direct::CONV2D_FEW_OC_SPLIT_WORKGROUP_MEMORY_BYTES);
    crate::dispatch::max_workgroup_threads(limits) >= 256 && memory <= limits.max_compute_workgroup_storage_size
}

/// Whether a device with `limits` takes `DirectTiled`'s fixed workgroup of
/// [`crate::shaders::conv2d_tiled::TILED_WORKGROUP`] threads (WebGPU's default limits do; its
/// workgroup memory is checked with every kernel's).
pub(crate) fn tiled_fits(limits: &wgpu::Limits) -> bool {
    crate::dispatch::max_workgroup_threads(limits) >= crate::shaders::conv2d_tiled::TILED_WORKGROUP
}

/// Whether a device with `limits` takes `conv_transpose2d_few_oc_phases`'s workgroup memory (its
/// staged weights; the 256 threads are [`few_oc_split_fits`]'s). WebGPU's default allows it; a
/// device that does not runs the stride-phase split.
pub(crate) fn few_oc_phases_fit(limits: &wgpu::Limits) -> bool {
    crate::shaders::conv2d::CONV_TRANSPOSE2D_FEW_OC_PHASES_WORKGROUP_MEMORY_BYTES
        <= limits.max_compute_workgroup_storage_size
}

impl ConvGeometry {
    /// Output pixels in all: batch × OH × OW (the columns of the implicit GEMM).
    pub(crate) fn output_pixels(&self) -> u64 {
        u64::from(self.n) * u64::from(self.oh) * u64::from(self.ow)
    }

    /// Threads of `Gemv` that share one output channel's K: the power of two from 32 to 256
    /// that leaves each at most 8 K-indices where one can. More lanes mean fewer serial loads per
    /// thread and fewer channels per workgroup (256 / lanes), so more workgroups.
    pub(crate) fn gemv_lanes(&self) -> u32 {
        // Direct convolutions only (`supports`): K is IC/groups × KH × KW.
        // At most 256: the cast cannot truncate.
        self.gemm_k_depth().div_ceil(8).next_power_of_two().clamp(32, 256) as u32
    }

    /// Workgroups of `Gemv`: 256 / `gemv_lanes` output channels each.
    pub(crate) fn gemv_workgroups(&self) -> u64 {
        u64::from(self.oc).div_ceil(u64::from(256 / self.gemv_lanes()))
    }

    /// Threads of `TransposedFewOc`: one per output pixel and group, over every stride phase's
    /// sub-grid rounded up to whole strides (in u128: strides near 2^32 square past u64).
    pub(crate) fn few_oc_threads(&self) -> u128 {
        let [sh, sw] = self.stride.map(u128::from);
        let rows = u128::from(self.oh).div_ceil(sh) * sh;
        let columns = u128::from(self.ow).div_ceil(sw) * sw;
        u128::from(self.n) * u128::from(self.groups) * rows * columns
    }

    /// Runs of the K-split `TransposedFewOc` entry point: ⌈columns / [`FEW_OC_RUN`]⌉ a row of
    /// one stride phase's sub-grid (the shader's `few_oc_run` places their pixels), over every
    /// phase's rows (rounded up as in [`ConvGeometry::few_oc_threads`]).
    pub(crate) fn few_oc_runs(&self) -> u128 {
        let [sh, sw] = self.stride.map(u128::from);
        let rows = u128::from(self.oh).div_ceil(sh) * sh;
        let runs_per_row = u128::from(self.ow).div_ceil(sw).div_ceil(FEW_OC_RUN);
        u128::from(self.n) * u128::from(self.groups) * rows * sw * runs_per_row
    }

    /// Blocks of 2 × 2 output pixels of the stride-2 `TransposedFewOc` entry point
    /// (`conv_transpose2d_few_oc_phases`) along H and W: block b of an axis holds the outputs
    /// o with o + pad ∈ {2·b, 2·b + 1}, from b = pad / 2 to (size − 1 + pad) / 2.
    fn few_oc_phase_blocks(&self) -> [u128; 2] {
        let blocks = |size: u32, pad: u32| {
            let (size, pad) = (u128::from(size), u128::from(pad));
            (size - 1 + pad) / 2 - pad / 2 + 1
        };
        [blocks(self.oh, self.padding[0]), blocks(self.ow, self.padding[1])]
    }

    /// Runs of `conv_transpose2d_few_oc_phases`: ⌈block columns / [`FEW_OC_RUN`]⌉ a block row
    /// (the shader's `few_oc_run` places their blocks), over the batch's block rows.
    pub(crate) fn few_oc_phase_runs(&self) -> u128 {
        let [rows, columns] = self.few_oc_phase_blocks();
        u128::from(self.n) * rows * columns.div_ceil(FEW_OC_RUN)
    }

    /// Whether the K-split `TransposedFewOc` runs as `conv_transpose2d_few_oc_phases`: stride
    /// 2 × 2, dilation 1, filters up to 4 × 4 (a block's pixels then gather input rows and
    /// columns b and b − 1 only), one group (a workgroup's runs share its staged weights), where
    /// its grid (8 threads per run) and its row arithmetic (OH + pad_h and OW + pad_w) fit u32.
    /// On top of [`ConvGeometry::few_oc_splits_k`].
    pub(crate) fn few_oc_gathers_phase_blocks(&self) -> bool {
        let fits_u32 = |v: u128| v <= u128::from(u32::MAX);
        self.transposed
            && self.stride == [2, 2]
            && self.dilation == [1, 1]
            && self.kh <= 4
            && self.kw <= 4
            && self.groups == 1
            && fits_u32(u128::from(self.oh) + u128::from(self.padding[0]))
            && fits_u32(u128::from(self.ow) + u128::from(self.padding[1]))
            && fits_u32(self.few_oc_phase_runs().div_ceil(32) * 256)
    }

    /// Runs of `FewOc`: ⌈OW / [`FEW_OC_RUN`]⌉ a row of one group (the shader's `few_oc_run`
    /// places their pixels).
    pub(crate) fn few_oc_row_runs(&self) -> u128 {
        let rows = u128::from(self.n) * u128::from(self.groups) * u128::from(self.oh);
        rows * u128::from(self.ow).div_ceil(FEW_OC_RUN)
    }

    /// Output channels per thread of `PointwiseVec4`, `PointwiseVec4Split` and `DirectBlock`: the
    /// channels shared out evenly over as few blocks of at most 16 as hold them, rounded up to a
    /// multiple of 4 (24 channels: 2 blocks of 12; 96: 6 of 16). Fewer blocks read the input
    /// fewer times; the rounding wastes less.
    pub(crate) fn pointwise_oc_block(&self) -> u32 {
        let blocks = self.oc.div_ceil(POINTWISE_MAX_OC_BLOCK);
        self.oc.div_ceil(blocks).next_multiple_of(4)
    }

    /// Blocks of [`Self::pointwise_oc_block`] output channels: one workgroup each per chunk of
    /// pixels in `PointwiseVec4`, `PointwiseVec4Split` and `DirectBlock`.
    fn pointwise_oc_blocks(&self) -> u64 {
        u64::from(self.oc.div_ceil(self.pointwise_oc_block()))
    }

    /// Workgroups of `PointwiseVec4`'s main entry point at `wg_size` threads: chunks of
    /// `wg_size` vec4s of pixels running through the images' planes one after another, one
    /// workgroup per chunk and block of output channels.
    pub(crate) fn pointwise_workgroups(&self, wg_size: u32) -> u64 {
        let quads = u64::from(self.n) * u64::from(self.oh) * u64::from(self.ow) / 4;
        quads.div_ceil(u64::from(wg_size)) * self.pointwise_oc_blocks()
    }

    /// Workgroups of `PointwiseVec4Split`: chunks of `quads_per_workgroup` vec4s of one image's
    /// plane, one workgroup per chunk and block of output channels.
    pub(crate) fn pointwise_split_workgroups(&self, quads_per_workgroup: u32) -> u64 {
        let quads = u64::from(self.oh) * u64::from(self.ow) / 4;
        u64::from(self.n) * quads.div_ceil(u64::from(quads_per_workgroup)) * self.pointwise_oc_blocks()
    }

    /// Workgroups of `DirectBlock` at `wg_size` threads: chunks of `wg_size` · 4 output pixels
    /// of the batch's flattened output (4 a thread, interleaved), one workgroup per chunk and
    /// block of output channels (the same blocks as the pointwise stream's).
    pub(crate) fn block_workgroups(&self, wg_size: u32) -> u64 {
        let pixels = u64::from(self.n) * u64::from(self.oh) * u64::from(self.ow);
        pixels.div_ceil(4 * u64::from(wg_size)) * self.pointwise_oc_blocks()
    }

    /// Warps of a `DirectTiled` workgroup across its output channels (the shader's `oc_warps`):
    /// as many as its output channels need, at least 2 (the shader's tile rows are sized for
    /// half its warps down the rows at most).
    pub(crate) fn tiled_oc_warps(&self) -> u32 {
        use crate::shaders::conv2d_tiled::{TILED_THREAD_OC, TILED_WARPS};
        let needed = self.oc.div_ceil(TILED_THREAD_OC).next_power_of_two();
        needed.clamp(2, TILED_WARPS)
    }

    /// Workgroups of `DirectTiled` with `oc_warps` warps across the output channels: one per
    /// image, tile of 32 output columns × rows (its other warps' rows) and block of output
    /// channels (its warps' channels).
    pub(crate) fn tiled_workgroups(&self, oc_warps: u32) -> u64 {
        use crate::shaders::conv2d_tiled::{TILED_LANES, TILED_ROWS, TILED_THREAD_OC, TILED_WARPS};
        let tile_rows = u64::from(TILED_ROWS * (TILED_WARPS / oc_warps));
        let tiles = u64::from(self.oh).div_ceil(tile_rows) * u64::from(self.ow).div_ceil(u64::from(TILED_LANES));
        u64::from(self.n) * tiles * u64::from(self.oc).div_ceil(u64::from(TILED_THREAD_OC * oc_warps))
    }

    /// Whether `TransposedFewOc` splits K over 8 threads per run of pixels: with 16+ input
    /// channels per group (2+ per thread), where its grid (8 threads per run) still indexes in
    /// u32. The device must also take the K-split entry point's fixed workgroup
    /// ([`few_oc_split_fits`]).
    pub(crate) fn few_oc_splits_k(&self) -> bool {
        self.ic / self.groups >= 16 && self.few_oc_runs().div_ceil(32) * 256 <= u128::from(u32::MAX)
    }

    /// Rule R66: the same layer laid out as one column, for `DepthwiseRows` on a single-row layer
    /// (1D, or 2D of one input row, a one-row filter, no padding along H and one output row)
    /// whose column form runs 2+ output rows a thread. A plane of one row of W is stored as a
    /// plane of W rows of one, so the tensors bind unchanged; the width's filter, stride,
    /// padding and dilation become the height's. Along the row each thread computes one output
    /// and loads its whole window; down the column a thread's run of outputs shares the loads of
    /// their overlapping windows.
    /// Measured on an H100 (v60 call A): Conformer's 256-channel depthwise k31 over 249 steps at
    /// batch 16, 0.0333 → 0.0160 ms (2.08×; 0.64× → 1.34× cuDNN fp32), k15 1.85×; at batch 1,
    /// one output a thread as a column, 0.89× (not taken).
    pub(crate) fn depthwise_rows_column(&self) -> Option<ConvGeometry> {
        // Padding along H would put the one output row's window outside the input (its value
        // the bias alone), which the column form has no axis for.
        if self.transposed || self.ih != 1 || self.kh != 1 || self.oh != 1 || self.padding[0] != 0 {
            return None;
        }
        let column = ConvGeometry {
            ih: self.iw,
            iw: 1,
            oh: self.ow,
            ow: 1,
            kh: self.kw,
            kw: 1,
            stride: [self.stride[1], 1],
            padding: [self.padding[1], 0],
            dilation: [self.dilation[1], 1],
            output_padding: [self.output_padding[1], 0],
            one_d: false,
            ..self.clone()
        };
        (column.depthwise_rows_fit() && column.rows_per_thread_depthwise_rows() >= 2).then_some(column)
    }

    /// Output rows per thread (1, 2, 4 or 8) of the `DepthwiseRows` kernel: the most that still
    /// leave enough threads to fill the GPU (taller runs load fewer halo rows per output, shorter
    /// ones give more threads); at most 2 for filters of more than 9 taps, whose unrolled loads
    /// and multiply-adds crowd the registers; shortened further when the unrolled window would be
    /// too large. Thresholds: docs/PERFORMANCE.md, rule R7. The run length is a pipeline
    /// constant, so a new batch size may compile a new pipeline.
    pub(crate) fn rows_per_thread_depthwise_rows(&self) -> u32 {
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

    /// Output rows per thread (1, 2 or 4) of the `DepthwiseVec4` kernel (four columns each): 4
    /// when that makes one or two waves of threads, else 2 while that leaves 2^17 threads, else 1;
    /// at most 2 for filters of more than 9 taps; shortened further when the unrolled window
    /// would be too large (docs/PERFORMANCE.md, rule R8).
    pub(crate) fn rows_per_thread_depthwise_vec4(&self) -> u32 {
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

    /// Output rows per thread (1, 2 or 4) of `DepthwiseVec4`'s 8-wide kernel for f16 tensors: 4
    /// where that still makes 2^17 threads and the filter has at most 49 taps (runs of 8
    /// columns halve the 4-wide kernel's threads, and its rule then took 2 rows: 4 ran
    /// 1.12–1.98× faster on the 7 layers of the zoos with that many, 7×7 filters the largest,
    /// H200, docs/PERFORMANCE.md v39), else as the 4-wide kernel's (which takes at most 2 rows
    /// beyond 9 taps).
    pub(crate) fn rows_per_thread_depthwise_vec8(&self) -> u32 {
        let measured_taps = u64::from(self.kh) * u64::from(self.kw) <= 49;
        if measured_taps && self.depthwise_run_threads(4, 8) >= 1 << 17 {
            self.longest_unrolled_run(4)
        } else {
            self.rows_per_thread_depthwise_vec4()
        }
    }

    /// Threads of a row-run depthwise kernel: one per run of `rows` output rows of
    /// `columns_per_thread` columns (1, or 4 or 8 for `DepthwiseVec4`, whose widths are
    /// multiples of them).
    pub(crate) fn depthwise_run_threads(&self, rows: u32, columns_per_thread: u32) -> u64 {
        u64::from(self.n)
            * u64::from(self.oc)
            * u64::from(self.oh.div_ceil(rows))
            * u64::from(self.ow / columns_per_thread)
    }

    /// Subgroups along M in `CoopF16`'s workgroup of 8: 1 (64×256 tiles) for up to 64 output
    /// channels per group, which would leave half of a 128-row tile idle, else 2 (128×128)
    /// (docs/PERFORMANCE.md, rule R20).
    pub(crate) fn coop_warps_m(&self) -> u32 {
        if self.oc / self.groups <= 64 { 1 } else { 2 }
    }

    /// `CoopF16`'s workgroup grid before K-slicing (N tiles, M tiles, groups), for its tile.
    pub(crate) fn coop_grid(&self) -> [u64; 3] {
        self.gemm_grid(coop_tile(self.coop_warps_m()))
    }

    /// Depth of `CoopF16`'s K-tiles: 16 on grids of more than one wave of the fitted GPU's
    /// multiprocessors, where the fewer registers holding the next tile let more workgroups share
    /// a multiprocessor, else 32 (half the barriers) (docs/PERFORMANCE.md, rule R21). The 32-deep
    /// entry point declares more workgroup memory; `ConvKernel::workgroup_storage_bytes` gives
    /// the larger, so a device with less runs neither.
    pub(crate) fn coop_k_tile(&self) -> u32 {
        let workgroups: u64 = self.coop_grid().iter().product();
        if workgroups * u64::from(self.coop_split_k()) > FITTED_SMS { 16 } else { 32 }
    }

    /// K-slices for `CoopF16`: grids of under half a wave are split in 2, 4 or 8, doubling while
    /// the slices still fit one wave and keep 4+ K-tiles each (docs/PERFORMANCE.md, rule R22).
    pub(crate) fn coop_split_k(&self) -> u32 {
        split_small_grid(self.coop_grid().iter().product(), self.gemm_k_depth().div_ceil(32))
    }

    /// Subgroups along the output channels of `CoopNhwc`'s workgroup: 2 (256 pixels × 64
    /// channels) for 64 or fewer channels per group, else 4 (128 × 128).
    pub(crate) fn coop_nhwc_warps_n(&self) -> u32 {
        if self.oc / self.groups <= 64 { 2 } else { 4 }
    }

    /// `CoopNhwc`'s workgroup grid before K-slicing: (pixel tiles, channel tiles, groups).
    pub(crate) fn coop_nhwc_grid(&self) -> [u64; 3] {
        let warps_n = u64::from(self.coop_nhwc_warps_n());
        let pixels = self.output_pixels();
        let (bm, bn) = (64 * (8 / warps_n), 32 * warps_n);
        [pixels.div_ceil(bm), u64::from(self.oc / self.groups).div_ceil(bn), u64::from(self.groups)]
    }

    /// Depth of `CoopNhwc`'s K-tiles: 64 with 128×128 tiles (half the barriers per K: the
    /// roofline's GEMM went from 124 to 173 TFLOP/s on an H200 with it; 32 on devices with less
    /// than its 45 KiB of workgroup memory), 32 with 256×64 ones, whose A tile would not fit
    /// 48 KiB at 64.
    pub(crate) fn coop_nhwc_k_tile(&self) -> u32 {
        if self.coop_nhwc_warps_n() == 4 { 64 } else { 32 }
    }

    /// K-slices for `CoopNhwc`, by `CoopF16`'s rule: grids of under half a wave are split in 2,
    /// 4 or 8 while the slices still fit one wave and keep 4+ K-tiles each.
    pub(crate) fn coop_nhwc_split_k(&self) -> u32 {
        let k_tiles = self.gemm_k_depth().div_ceil(u64::from(self.coop_nhwc_k_tile()));
        split_small_grid(self.coop_nhwc_grid().iter().product(), k_tiles)
    }

    /// The longest run of output rows, at most `preferred`, whose input window the row-run
    /// kernels can unroll: (rows − 1)·sH + (KH − 1)·dH + 1 input rows of KW taps, at most
    /// `MAX_UNROLLED_TAPS` (1 when even one row's window is larger: such filters are not run).
    pub(crate) fn longest_unrolled_run(&self, preferred: u32) -> u32 {
        [8, 4, 2, 1]
            .into_iter()
            .filter(|&r| r <= preferred)
            .find(|&r| self.run_window_taps(r) <= MAX_UNROLLED_TAPS)
            .unwrap_or(1)
    }

    /// Input rows × taps a run of `rows` output rows walks (saturating: shapes are only
    /// checked to fit u32 each, and their products may not fit a u64).
    pub(crate) fn run_window_taps(&self, rows: u32) -> u64 {
        let window_h = u64::from(rows - 1)
            .saturating_mul(u64::from(self.stride[0]))
            .saturating_add((u64::from(self.kh) - 1).saturating_mul(u64::from(self.dilation[0])))
            .saturating_add(1);
        window_h.saturating_mul(u64::from(self.kw))
    }

    /// Whether the row-run kernels can run this geometry at all: filter constants that fit
    /// (`filter_constants_fit`) and a one-row window of at most `MAX_UNROLLED_TAPS`.
    pub(crate) fn depthwise_rows_fit(&self) -> bool {
        self.filter_constants_fit() && self.run_window_taps(1) <= MAX_UNROLLED_TAPS
    }

    /// Whether the `DepthwiseVec4` kernel can run besides that: widths that are multiples of 4
    /// (rows start 16-byte aligned), and the input columns of a quad of outputs within four
    /// aligned vec4s.
    pub(crate) fn depthwise_vec4_fit(&self) -> bool {
        self.depthwise_runs_fit(4)
    }

    /// Whether `DepthwiseVec4`'s 8-wide kernel for f16 tensors (`conv2d_depthwise_vec8.wgsl`)
    /// runs this convolution besides the 4-wide one: widths that are multiples of 8 (rows start
    /// 16-byte aligned), and the input columns of a run of 8 outputs within four aligned runs
    /// of 8 halves.
    pub(crate) fn depthwise_vec8_fit(&self) -> bool {
        self.depthwise_vec4_fit() && self.depthwise_runs_fit(8)
    }

    /// Whether runs of `cols` output columns read from aligned vectors of `cols` elements fit
    /// (the shaders' `span()`, `offset()` and `vecs()`, prelude/depthwise_runs.wgsl): widths
    /// that are multiples of `cols`, and a run's input columns within four such vectors.
    fn depthwise_runs_fit(&self, cols: u32) -> bool {
        let [sw, pw, dw] = [self.stride[1], self.padding[1], self.dilation[1]].map(u64::from);
        let c = u64::from(cols);
        let span = (c - 1) * sw + (u64::from(self.kw) - 1) * dw + 1;
        let offset = (c - pw % c) % c;
        self.iw.is_multiple_of(cols) && self.ow.is_multiple_of(cols) && offset + span <= 4 * c
    }

    /// Output rows per thread (1, 2 or 4) of the tiled depthwise kernel: among those whose input
    /// window fits its workgroup-memory tile (`TILE_CAPACITY` floats), the one that loads the fewest input rows over
    /// the output's height (taller blocks share their halo over more rows, but pad the last block).
    /// `None` when no window fits (large strides or dilations).
    pub(crate) fn rows_per_thread_depthwise_tiled(&self) -> Option<u32> {
        use crate::shaders::conv2d_depthwise_tiled::{BLOCK_W, CONV2D_DEPTHWISE_TILED_WORKGROUP_SIZE, TILE_CAPACITY};
        let (block_w, tile_capacity) = (u64::from(BLOCK_W), u64::from(TILE_CAPACITY));
        // A workgroup's threads are BLOCK_W columns × this many rows, each thread a run of rows.
        let thread_rows = u64::from(CONV2D_DEPTHWISE_TILED_WORKGROUP_SIZE[1]);
        // Strides and dilations are u32, so these products fit a u64; the window is capped
        // before it is multiplied out.
        let [sh, sw] = self.stride.map(u64::from);
        let [dh, dw] = self.dilation.map(u64::from);
        let window_w = (block_w - 1) * sw + (u64::from(self.kw) - 1) * dw + 1;
        [4u32, 2, 1]
            .into_iter()
            .filter_map(|rows| {
                let block_h = thread_rows * u64::from(rows);
                let window_h = (block_h - 1) * sh + (u64::from(self.kh) - 1) * dh + 1;
                let fits =
                    window_w <= tile_capacity && window_h <= tile_capacity && window_w * window_h <= tile_capacity;
                let rows_loaded = u64::from(self.oh).div_ceil(block_h) * window_h;
                fits.then_some((rows_loaded, rows))
            })
            .min_by_key(|&(rows_loaded, rows)| (rows_loaded, std::cmp::Reverse(rows)))
            .map(|(_, rows)| rows)
    }
}

#[cfg(test)]
mod tests {
    use crate::{
        error::Result,
        ops::{
            conv_geometry::ConvGeometry,
            conv_kernel::ConvKernel,
            conv_options::{ConvOptions, Precision},
        },
    };

    fn geo(input: &[usize], weight: &[usize], opts: ConvOptions) -> Result<ConvGeometry> {
        ConvGeometry::new(input, weight, None, &opts)
    }

    /// R66: a single-row layer as a column swaps the axes (the bytes of its planes are the
    /// same), and only where the column gives each thread 2+ output rows.
    #[test]
    fn single_row_depthwise_layers_as_columns() {
        let dw = |n: usize, c: usize, len: usize, k: usize, opts: ConvOptions| {
            geo(&[n, c, len], &[c, 1, k], opts.groups(c as u32)).unwrap()
        };
        // Conformer's k31 at batch 16: 256 · 16 · ⌈249 / 2⌉ threads of 2 rows.
        let conformer = dw(16, 256, 249, 31, ConvOptions::default().padding(&[15]));
        let column = conformer.depthwise_rows_column().unwrap();
        assert_eq!((column.ih, column.iw, column.oh, column.ow, column.kh, column.kw), (249, 1, 249, 1, 31, 1));
        assert_eq!((column.padding, column.stride, column.dilation), ([15, 0], [1, 1], [1, 1]));
        assert_eq!(column.rows_per_thread_depthwise_rows(), 2);
        assert_eq!(column.output_shape(), vec![16, 256, 249, 1]);
        // Stride and dilation move with the axis.
        let strided = dw(2, 512, 260, 7, ConvOptions::default().padding(&[6]).stride(&[2]).dilation(&[2]));
        let column = strided.depthwise_rows_column().unwrap();
        assert_eq!((column.stride, column.dilation, column.padding, column.oh), ([2, 1], [2, 1], [6, 0], 130));
        // At batch 1 the column runs one row a thread: the row stays (0.89× as a column, v60).
        assert!(dw(1, 256, 249, 31, ConvOptions::default().padding(&[15])).depthwise_rows_column().is_none());
        // Layers of more than one row, or with padding along H, keep their axes.
        let image = geo(&[8, 256, 4, 249], &[256, 1, 1, 31], ConvOptions::default().groups(256).padding(&[0, 15]));
        assert!(image.unwrap().depthwise_rows_column().is_none());
        let padded = geo(&[16, 256, 1, 249], &[256, 1, 1, 31], ConvOptions::default().groups(256).padding(&[1, 15]));
        assert!(padded.unwrap().depthwise_rows_column().is_none());
        // One output row from a window wholly in the padding (stride 3 over padding 1).
        let outside = geo(
            &[2, 256, 1, 301],
            &[256, 1, 1, 9],
            ConvOptions::default().groups(256).padding(&[1, 4]).stride(&[3, 1]),
        )
        .unwrap();
        assert_eq!(outside.oh, 1);
        assert!(outside.depthwise_rows_column().is_none());
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
        // The tensor-core kernel is no fp32 kernel; it runs transposed convolutions by stride
        // phase (dilation 1), as the GEMM kernels do: 4 phases of 2×2 taps here.
        let g = conv(8, 256, 256, 14, 3, 1, 1);
        assert!(g.supports(ConvKernel::CoopF16) && !g.supported_kernels().contains(&ConvKernel::CoopF16));
        assert_eq!(ConvKernel::CoopF16.precision(), Precision::AllowF16);
        assert_eq!(ConvKernel::GemmM64K16.precision(), Precision::F32);
        let t = geo(&[2, 8, 5, 5], &[8, 4, 4, 4], ConvOptions::default().transposed(true).stride(&[2])).unwrap();
        assert!(t.supports(ConvKernel::CoopF16));
        assert_eq!((t.coop_grid(), t.gemm_k_depth()), ([1, 1, 4], 8 * 4));
        let dilated = ConvOptions::default().transposed(true).stride(&[2]).dilation(&[2]);
        assert!(!geo(&[1, 8, 5, 5], &[8, 4, 3, 3], dilated).unwrap().supports(ConvKernel::CoopF16));
    }

    #[test]
    fn huge_strides_do_not_overflow_the_window_arithmetic() {
        let g = geo(&[1, 1, 1, 1], &[1, 1, 1, 1], ConvOptions::default().stride(&[1 << 28])).unwrap();
        assert_eq!(g.rows_per_thread_depthwise_tiled(), None);
        assert_eq!(g.planned_kernel(), ConvKernel::Depthwise);
        let g = geo(&[1, 1, 3, 3], &[1, 1, 3, 3], ConvOptions::default().dilation(&[u32::MAX / 4])).unwrap_err();
        assert!(!g.to_string().is_empty());
    }

    /// The host's tile arithmetic agrees with the shader's declarations: the widest coop tile
    /// plus the 8 halves of bank padding is the B-tile row stride, and 8 subgroups of 32 make
    /// the workgroup.
    #[test]
    fn coop_nhwc_tiles_and_k_slices() {
        let conv = |n: usize, ic: usize, oc: usize, hw: usize, k: usize, groups: usize| {
            let opts = ConvOptions::default().padding(&[k as u32 / 2]).groups(groups as u32);
            geo(&[n, ic, hw, hw], &[oc, ic / groups, k, k], opts).unwrap()
        };
        // (geometry, subgroups along N, grid, K-slices)
        for (g, warps_n, grid, splits) in [
            (conv(2, 320, 320, 64, 3, 1), 4, [64, 3, 1], 1), // 8192 pixels / 128, 320 / 128
            (conv(8, 64, 64, 56, 3, 1), 2, [98, 1, 1], 1),   // 25 088 pixels / 256: 256×64 tiles
            (conv(8, 256, 256, 14, 3, 1), 4, [13, 2, 1], 4), // 26 workgroups, 36 64-deep K-tiles
            (conv(1, 512, 512, 8, 3, 1), 4, [1, 4, 1], 8),   // 4 workgroups, 72 64-deep K-tiles
            (conv(2, 64, 128, 20, 3, 4), 2, [4, 1, 4], 1),   // 16 in, 32 out per group: 5 32-deep K-tiles
        ] {
            let got = (g.coop_nhwc_warps_n(), g.coop_nhwc_grid(), g.coop_nhwc_split_k());
            assert_eq!(got, (warps_n, grid, splits), "{g:?}");
            assert_eq!(g.coop_nhwc_k_tile(), if warps_n == 4 { 64 } else { 32 });
            assert!(g.supports(ConvKernel::CoopNhwc));
        }
        // Input channels per group must be a multiple of 8; direct convolutions only.
        assert!(!conv(1, 12, 16, 8, 3, 1).supports(ConvKernel::CoopNhwc));
        assert!(!conv(1, 32, 32, 8, 3, 8).supports(ConvKernel::CoopNhwc));
        let t = geo(&[1, 8, 5, 5], &[8, 8, 3, 3], ConvOptions::default().transposed(true)).unwrap();
        assert!(!t.supports(ConvKernel::CoopNhwc));
        let one_d = geo(&[1, 8, 20], &[8, 8, 3], ConvOptions::default()).unwrap();
        assert!(!one_d.supports(ConvKernel::CoopNhwc));
        assert_eq!(ConvKernel::CoopNhwc.precision(), Precision::AllowF16);
    }

    #[test]
    fn coop_nhwc_tile_matches_the_shader() {
        use crate::shaders::conv2d_coop_nhwc::{
            CONV2D_COOP_NHWC_K32_WORKGROUP_MEMORY_BYTES as K32, CONV2D_COOP_NHWC_N64_WORKGROUP_MEMORY_BYTES as N64,
            CONV2D_COOP_NHWC_WORKGROUP_MEMORY_BYTES as K64, CONV2D_COOP_NHWC_WORKGROUP_SIZE,
        };
        assert_eq!(CONV2D_COOP_NHWC_WORKGROUP_SIZE, [8 * 32, 1, 1]);
        // f16 A and B tiles (rows padded by 8 halves), a 16-byte row decode per A row, and 8 f32
        // staging tiles of 16×16: 128×128 tiles 64 or 32 deep, 256×64 tiles 32 deep.
        let stage = 8 * 256 * 4;
        assert_eq!(K64, 2 * (128 * 72 + 64 * 136) + 16 * 128 + stage);
        assert_eq!(K32, 2 * (128 * 40 + 32 * 136) + 16 * 128 + stage);
        assert_eq!(N64, 2 * (256 * 40 + 32 * 72) + 16 * 256 + stage);
        const { assert!(K64 <= 48 * 1024) };
    }

    #[test]
    fn coop_tile_matches_the_shader() {
        use crate::shaders::conv2d_coop::{CONV2D_COOP_WORKGROUP_SIZE, SB_MAX};
        assert_eq!(super::coop_tile(1), (64, 256));
        assert_eq!(super::coop_tile(2), (128, 128));
        assert_eq!(super::coop_tile(1).1 + 8, SB_MAX);
        assert_eq!(CONV2D_COOP_WORKGROUP_SIZE, [8 * 32, 1, 1]);
    }

    /// The stride-2 phase blocks of `conv_transpose2d_few_oc_phases`: pix2pix's RGB output (128²
    /// → 256², padding 1: blocks 0 to 128 along each axis, as output 255 + 1 = 2 · 128), a 3 × 3
    /// decoder with output padding (padding 1, 9 → 18 columns: blocks 0 to 9), padding 2 (the
    /// first block 1), and the geometries it leaves to the stride-phase split.
    #[test]
    fn few_oc_phase_blocks_and_where_they_run() {
        let t = || ConvOptions::default().transposed(true).stride(&[2]);
        let pix2pix = geo(&[16, 128, 128, 128], &[128, 3, 4, 4], t().padding(&[1])).unwrap();
        assert_eq!(pix2pix.output_shape(), [16, 3, 256, 256]);
        assert_eq!(pix2pix.few_oc_phase_blocks(), [129, 129]);
        assert_eq!(pix2pix.few_oc_phase_runs(), 16 * 129 * 33);
        assert!(pix2pix.few_oc_gathers_phase_blocks() && pix2pix.few_oc_splits_k());
        let decoder = geo(&[1, 37, 5, 9], &[37, 1, 3, 3], t().padding(&[1]).output_padding(&[1])).unwrap();
        assert_eq!(decoder.output_shape(), [1, 1, 10, 18]);
        assert_eq!(decoder.few_oc_phase_blocks(), [6, 10]);
        assert!(decoder.few_oc_gathers_phase_blocks());
        let padded = geo(&[1, 16, 4, 5], &[16, 2, 4, 4], t().padding(&[3])).unwrap();
        assert_eq!(padded.output_shape(), [1, 2, 4, 6]);
        // Blocks 1 to (3 + 3) / 2 = 3 down, 1 to (5 + 3) / 2 = 4 across.
        assert_eq!(padded.few_oc_phase_blocks(), [3, 4]);
        for (input, weight, opts, why) in [
            (&[1, 16, 5, 5], &[16, 3, 4, 4], t().stride(&[3]), "stride 3"),
            (&[1, 16, 5, 5], &[16, 3, 4, 4], t().stride(&[2, 1]), "stride 2 × 1"),
            (&[1, 16, 5, 5], &[16, 3, 4, 4], t().dilation(&[2]), "dilation 2"),
            (&[1, 16, 5, 5], &[16, 3, 5, 5], t(), "a 5 × 5 filter"),
            (&[1, 32, 5, 5], &[32, 2, 4, 4], t().groups(2), "two groups"),
            (&[1, 16, 5, 5], &[3, 16, 4, 4], ConvOptions::default().stride(&[2]), "not transposed"),
        ] {
            let g = geo(input, weight, opts).unwrap();
            assert!(!g.few_oc_gathers_phase_blocks(), "{why}");
        }
    }
}
