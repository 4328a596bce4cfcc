//! How the GEMM kernels share out their work: the output tile grid, its K depth, the tile width
//! (`tile_n`), and the split-K and stream-K schedules (all pure arithmetic on a [`ConvGeometry`]).

use super::{
    conv_geometry::ConvGeometry,
    conv_kernel::{ConvKernel, GEMM_SMALL_TILE, GEMM_TILE_N},
    conv_options::GemmSchedule,
    conv_plan::FITTED_SMS,
    conv_tune::TunedConfig,
};
use crate::{
    dispatch::MAX_WORKGROUPS_PER_DIM,
    error::{Error, Result},
};

/// The least share of a GEMM launch's (output tile, filter tap) pairs that must read only padding
/// for its workgroups to skip them ([`ConvGeometry::gemm_skips_taps`]). The skipping loop costs
/// more than the K-tiles it skips below about a quarter: on 13 layers of dilated DeepLabv3 ASPP
/// and a dilated 1D stack (v66 call B, an H100, `bench/results/v66-skip-suite.json`), with the
/// skip on wherever 5 % or more was dead, the launches of 33–57 % dead ran 1.12–1.46× faster
/// (6 layers, planned, and the same on the forced 64 × 64 tiles), those of 8–25 % 0.93–1.07×
/// (0.93–0.98× on 5 of 6): each launch ran 4–24 % slower than its live K-tiles alone predict.
pub(crate) const SKIP_TAPS_MIN_SHARE: f64 = 0.3;

/// The most tiles [`ConvGeometry::padding_only_tap_share`] counts: a few hundred microseconds
/// of the host's time at most, on each encode of a layer the bound does not settle.
const COUNTED_TILES: u64 = 4096;

/// GEMM `kernel`'s tile at `tile_n` columns (its rows are fixed; 128 for non-GEMM kernels, which
/// callers have excluded).
fn gemm_tile_at(kernel: ConvKernel, tile_n: u32) -> (u32, u32) {
    (kernel.gemm_tile().map_or(128, |(m, _)| m), tile_n)
}

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
pub(crate) struct StreamK {
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

/// How a GEMM kernel shares K among its workgroups, resolved for one geometry.
#[derive(Clone, Copy, Debug)]
pub(crate) enum LaunchSchedule {
    /// One workgroup per tile and K-slice (1: no split).
    Slices(u32),
    /// Stream-K: a fixed number of workgroups share every tile's K-tiles equally.
    Stream(StreamK),
}

impl LaunchSchedule {
    /// This schedule with its partial sums (an f32 output of `g` per slice) within one storage
    /// binding of `binding_limit` bytes: fewer K-slices where they would exceed it, none for
    /// stream-K. For the planner's own schedules, which it sizes by the grid alone (a forced one
    /// that does not fit is an error instead).
    pub(crate) fn within_binding(self, g: &ConvGeometry, binding_limit: u64) -> Self {
        match self {
            LaunchSchedule::Slices(splits) => LaunchSchedule::Slices(g.splits_within_binding(splits, binding_limit)),
            LaunchSchedule::Stream(stream) if g.splits_within_binding(stream.slices, binding_limit) < stream.slices => {
                LaunchSchedule::Slices(1)
            }
            stream => stream,
        }
    }
}

impl ConvGeometry {
    /// The most K-slices, up to `splits`, whose partial sums (an f32 output each) fit one
    /// storage binding of `binding_limit` bytes; 1 (no split) where not even two do. The
    /// planner sizes its slices by the grid alone: under a small binding cap (a browser's, or
    /// `max_binding_bytes`), fewer slices run rather than none at all.
    pub(crate) fn splits_within_binding(&self, splits: u32, binding_limit: u64) -> u32 {
        let per_slice = (self.output_numel() * 4).max(1);
        match u32::try_from(binding_limit / per_slice).unwrap_or(u32::MAX) {
            fit if fit >= 2 => splits.min(fit),
            _ => 1,
        }
    }

    /// A GEMM kernel's grid for `tile`×`tile` output tiles: (N tiles, M tiles, groups × stride phases).
    pub(crate) fn gemm_grid(&self, (tile_m, tile_n): (u32, u32)) -> [u64; 3] {
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

    /// Whether the staged GEMM tiles `bk` deep take K-tiles within one filter tap on this
    /// geometry (the shader's `tap_major`): channels per group a multiple of `bk`, and in the 8-
    /// and 32-deep tiles more than one tap in the fewest of any stride phase.
    pub(crate) fn gemm_tap_major(&self, bk: u64) -> bool {
        let fewest_taps =
            if self.transposed { (self.kh / self.stride[0]) * (self.kw / self.stride[1]) } else { self.kh * self.kw };
        u64::from(self.ic / self.groups).is_multiple_of(bk) && (bk == 16 || fewest_taps > 1)
    }

    /// The share of the (output tile, filter tap) pairs of this direct convolution's GEMM in
    /// `tile_n`-column tiles in which the tap reads only padding for every column of the tile:
    /// the K-tiles the shader's `skip_taps` skips (`live_taps` in shaders/conv2d_gemm.wgsl, whose
    /// arithmetic this repeats: the live taps of a tile within one image are a rectangle of
    /// filter rows and columns). Large dilations against the image make it large: DeepLabv3's
    /// 3×3 at dilation 36 on a 64 × 64 map, one row per 64-column tile, skips 37.5 %; on a
    /// 28 × 28 map all but the centre tap read padding. 0 for transposed convolutions and those
    /// without padding. Exact up to [`COUNTED_TILES`] tiles; beyond, counted over that many
    /// evenly spaced ones.
    pub(crate) fn padding_only_tap_share(&self, tile_n: u32) -> f64 {
        if self.transposed || self.padding == [0, 0] || tile_n == 0 {
            return 0.0;
        }
        let (oh, ow) = (u64::from(self.oh), u64::from(self.ow));
        let plane = oh * ow;
        let columns = u64::from(self.n) * plane;
        let taps = u64::from(self.kh) * u64::from(self.kw);
        // Filter taps j of `count` whose input positions first + j·step … last + j·step meet
        // [0, size): the shader's `live_range`, as a count.
        let live = |first: i64, last: i64, step: i64, count: u32, size: u32| -> u64 {
            let lo = if last < 0 { (step - 1 - last) / step } else { 0 };
            let size = i64::from(size);
            let hi = if first < size { ((size - first + step - 1) / step).min(i64::from(count)) } else { 0 };
            (hi - lo).max(0) as u64
        };
        let [sh, sw] = self.stride.map(i64::from);
        let [ph, pw] = self.padding.map(i64::from);
        let [dh, dw] = self.dilation.map(i64::from);
        let tiles = columns.div_ceil(u64::from(tile_n));
        let step = tiles.div_ceil(COUNTED_TILES) as usize;
        let (mut counted, mut skipped) = (0, 0);
        for tile in (0..tiles).step_by(step) {
            counted += 1;
            let n0 = tile * u64::from(tile_n);
            let n1 = (n0 + u64::from(tile_n)).min(columns) - 1;
            if n0 / plane != n1 / plane {
                continue;
            }
            let (oy0, oy1) = ((n0 % plane / ow) as i64, (n1 % plane / ow) as i64);
            let (ox0, ox1) = if oy0 == oy1 { ((n0 % ow) as i64, (n1 % ow) as i64) } else { (0, ow as i64 - 1) };
            let rows = live(oy0 * sh - ph, oy1 * sh - ph, dh, self.kh, self.ih);
            let cols = live(ox0 * sw - pw, ox1 * sw - pw, dw, self.kw, self.iw);
            skipped += taps - rows * cols;
        }
        skipped as f64 / (counted * taps) as f64
    }

    /// An upper bound on [`ConvGeometry::padding_only_tap_share`] without counting tiles: the
    /// share of `tile_n`-column tiles that can hold a tap reading only padding at all. Such a
    /// tile lies within the output rows whose first (last) filter row reads above (below) the
    /// image, or, within one output row, within its columns whose first (last) filter column
    /// reads left (right) of it; where every output row or column has such a tap, every tile
    /// can (1). Most padded layers (3×3 at padding 1 on maps of more than a few rows) fall under
    /// [`SKIP_TAPS_MIN_SHARE`] here, so encoding them counts no tiles.
    pub(crate) fn padding_only_tile_bound(&self, tile_n: u32) -> f64 {
        if self.transposed || self.padding == [0, 0] || tile_n == 0 {
            return 0.0;
        }
        // Outputs along an axis of `out` whose first tap reads before the input, and whose last
        // reads past its `size`: output o reads o·stride − pad + j·dilation.
        let bands = |out: u32, size: u32, k: u32, stride: u32, pad: u32, dilation: u32| -> (u64, u64) {
            let (out, stride) = (u64::from(out), i64::from(stride));
            let ceil = |num: i64| if num <= 0 { 0 } else { ((num + stride - 1) / stride) as u64 };
            let first = ceil(i64::from(pad)).min(out);
            let last_reads = i64::from(size) + i64::from(pad) - i64::from(dilation) * i64::from(k - 1);
            (first, out - ceil(last_reads).min(out))
        };
        let (top, bottom) = bands(self.oh, self.ih, self.kh, self.stride[0], self.padding[0], self.dilation[0]);
        let (left, right) = bands(self.ow, self.iw, self.kw, self.stride[1], self.padding[1], self.dilation[1]);
        let (oh, ow, tile) = (u64::from(self.oh), u64::from(self.ow), u64::from(tile_n));
        if top.max(bottom) == oh || left.max(right) == ow {
            return 1.0;
        }
        // Tiles of the row bands (whole tiles inside them, and one cut at each end), and one-row
        // tiles inside the column bands of each row.
        let tiles = ((top + bottom) * ow / tile + 2) + oh * (left / tile + right / tile);
        (tiles as f64 * tile as f64 / (oh * ow) as f64).min(1.0)
    }

    /// Whether GEMM `kernel` in `tile_n`-column tiles skips the K-tiles of taps that read only
    /// padding (the shader's `skip_taps`): on tap-major K-tiles, where they are at least
    /// [`SKIP_TAPS_MIN_SHARE`] of the (tile, tap) pairs.
    pub(crate) fn gemm_skips_taps(&self, kernel: ConvKernel, tile_n: u32) -> bool {
        kernel.is_gemm()
            && self.gemm_tap_major(kernel.k_tile_depth())
            && self.padding_only_tile_bound(tile_n) >= SKIP_TAPS_MIN_SHARE
            && self.padding_only_tap_share(tile_n) >= SKIP_TAPS_MIN_SHARE
    }

    /// Filter taps of one GEMM sub-problem: KH × KW, or for a transposed convolution those of
    /// one stride phase (rounded up).
    pub(crate) fn gemm_taps(&self) -> u64 {
        if self.transposed {
            u64::from(self.kh.div_ceil(self.stride[0])) * u64::from(self.kw.div_ceil(self.stride[1]))
        } else {
            u64::from(self.kh) * u64::from(self.kw)
        }
    }

    /// K of one GEMM sub-problem: input channels per group × [`ConvGeometry::gemm_taps`].
    pub(crate) fn gemm_k_depth(&self) -> u64 {
        u64::from(self.ic / self.groups) * self.gemm_taps()
    }

    /// K-slices for the GEMM kernel: more than 1 when its grid would leave a large GPU partly
    /// idle and K is long enough to share out. The slices' partial sums are added by a reduce
    /// pass, so splitting costs memory traffic: the split keeps the whole grid within one wave
    /// (two 256-thread workgroups per multiprocessor of the fitted GPU) with slices of at least
    /// 32 K-tiles (docs/PERFORMANCE.md, rule R2). The 64×64 tiles' 128-thread workgroups are
    /// counted the same way. The 64-row tiles 16 or 32 deep split only for K of 1024 and more,
    /// shorter K having measured faster unsplit (rule R3), except on grids of fewer tiles than
    /// half the multiprocessors (66): there the serial K loop of a few workgroups is the whole
    /// time (batch-1 layers on small images: MobileNetV2's last 1×1 is 5 tiles), and any K
    /// splits into slices of at least 16 K-tiles (rule R23).
    pub(crate) fn gemm_split_k(&self, kernel: ConvKernel, tile_n: u32) -> u32 {
        // Two 256-thread workgroups fit a multiprocessor at once: a wave is two per SM.
        const ONE_WAVE: u64 = 2 * FITTED_SMS;
        const SPLIT_BELOW: u64 = FITTED_SMS;
        const FEW_TILES: u64 = FITTED_SMS / 2;
        let workgroups: u64 = self.gemm_grid(gemm_tile_at(kernel, tile_n)).iter().product();
        let k_tiles = self.gemm_k_depth().div_ceil(8);
        let few_tiles = workgroups < FEW_TILES;
        let short_k_unsplit = matches!(
            kernel,
            ConvKernel::GemmM64K16 | ConvKernel::GemmM64K32 | ConvKernel::GemmN64K16 | ConvKernel::GemmN64K32
        ) && self.gemm_k_depth() < 1024
            && !few_tiles;
        if workgroups >= SPLIT_BELOW || short_k_unsplit {
            return 1;
        }
        let min_k_tiles_per_slice: u64 = if few_tiles { 16 } else { 32 };
        let splits = (ONE_WAVE / workgroups.max(1)).min(k_tiles / min_k_tiles_per_slice).clamp(1, 16) as u32;
        if self.split_k_fits(kernel, splits) { splits } else { 1 }
    }

    /// The K-slices `GemmSmall` and `GemmSmallK32` run in (each workgroup's 4 thread slices
    /// share one): enough that a thread runs at most 128 K-steps, while the grid stays within two
    /// waves of the fitted GPU (a slice more costs a reduce pass and partial sums through
    /// memory). 1 for K ≤ 512, where slicing measured slower (R26). Fitted on `GemmSmall`; R27
    /// was fitted on `GemmSmallK32` run with these slices (it cuts them in whole 32-deep K-tiles).
    pub(crate) fn gemm_small_splits(&self) -> u32 {
        const THREAD_STEPS: u64 = 128;
        let tiles: u64 = self.gemm_grid(GEMM_SMALL_TILE).iter().product();
        let wanted = self.gemm_k_depth().div_ceil(4 * THREAD_STEPS);
        let room = (2 * FITTED_SMS / tiles.max(1)).max(1);
        let splits = wanted.min(room).clamp(1, 64) as u32;
        // Tiles × slices ≤ 264 (`room`), so z · slices ≤ 264 workgroup layers and the partial
        // sums, at most 264 tiles of 32 × 32 outputs, stay far within u32 indexing.
        debug_assert!(splits == 1 || self.split_k_fits(ConvKernel::GemmSmall, splits), "{splits} slices");
        splits
    }

    /// Whether `splits` K-slices fit: they live in workgroup z (≤ 65535 layers) and in a
    /// scratch output of `splits` copies (indexed in u32).
    pub(crate) fn split_k_fits(&self, kernel: ConvKernel, splits: u32) -> bool {
        let z = self.gemm_grid(kernel.gemm_tile().unwrap_or((128, 128)))[2];
        z.checked_mul(u64::from(splits)).is_some_and(|c| c <= MAX_WORKGROUPS_PER_DIM)
            && self.partial_outputs_fit(u64::from(splits))
    }

    /// Whether `slices` copies of the output (split-K or stream-K partial sums) stay within the
    /// u32 indexing of the shaders.
    pub(crate) fn partial_outputs_fit(&self, slices: u64) -> bool {
        self.output_numel().checked_mul(slices).is_some_and(|c| c <= u64::from(u32::MAX))
    }

    /// The stream-K schedule of a GEMM kernel `tile_n` columns wide over `workgroups` workgroups, or an error naming
    /// the value when this convolution cannot run so: stream-K needs a direct convolution (every
    /// sub-problem the same K), at most 65535 workgroups, iteration counts that fit the shader's
    /// u32 arithmetic, and a scratch of one output per slice within u32 indexing.
    pub(crate) fn stream_k(&self, kernel: ConvKernel, tile_n: u32, workgroups: u32) -> Result<StreamK> {
        if !kernel.is_gemm() {
            return Err(Error::option("stream_k", format!("stream_k needs a GEMM kernel, not {}", kernel.name())));
        }
        let tile = gemm_tile_at(kernel, tile_n);
        if self.transposed {
            return Err(Error::option(
                "stream_k",
                format!(
                    "stream_k {workgroups} needs a direct convolution (a transposed one runs its stride phases as \
                 separate GEMMs of different depths)"
                ),
            ));
        }
        let [tiles_x, tiles_y, groups] = self.gemm_grid(tile);
        let tiles = tiles_x * tiles_y * groups;
        let k_tiles = self.gemm_k_depth().div_ceil(kernel.k_tile_depth());
        let total = tiles * k_tiles;
        let wgs = u64::from(workgroups);
        // Every workgroup must get work, or a tile's slices would have gaps.
        if wgs == 0 || wgs > total.min(MAX_WORKGROUPS_PER_DIM) {
            return Err(Error::option(
                "stream_k",
                format!(
                    "stream_k {workgroups} is out of range for this convolution (1 to {}: at most 65535 workgroups \
                 and no more than its {total} (tile, K-tile) iterations)",
                    total.min(MAX_WORKGROUPS_PER_DIM)
                ),
            ));
        }
        // Tiles are walked on the host to find the most segments any of them has; the shader's
        // iteration arithmetic is u32.
        const MAX_TILES: u64 = 1 << 16;
        if tiles > MAX_TILES || total.checked_mul(wgs).is_none_or(|p| p > u64::from(u32::MAX)) {
            return Err(Error::option(
                "stream_k",
                format!(
                    "stream_k {workgroups} is out of range for this convolution ({tiles} tiles, at most {MAX_TILES}; \
                 {total} iterations × workgroups must stay below 2^32)"
                ),
            ));
        }
        let slices = stream_k_slices(tiles, k_tiles, wgs);
        if !self.partial_outputs_fit(slices) {
            return Err(Error::option(
                "stream_k",
                format!(
                    "stream_k {workgroups} needs {slices} partial outputs of {} elements, over the 2^32 the \
                 shader indexes",
                    self.output_numel()
                ),
            ));
        }
        Ok(StreamK { workgroups, tiles_x: tiles_x as u32, tiles_y: tiles_y as u32, slices: slices as u32 })
    }

    /// The K-slices a GEMM kernel `tile_n` columns wide runs with: `forced` when the grid and
    /// scratch output can hold that many, else an error naming the value; the planner's choice
    /// when `None`.
    pub(crate) fn choose_split_k(&self, kernel: ConvKernel, tile_n: u32, forced: Option<u32>) -> Result<u32> {
        let Some(splits) = forced else { return Ok(self.gemm_split_k(kernel, tile_n)) };
        if !kernel.is_gemm() || splits == 0 || !self.split_k_fits(kernel, splits) {
            let z = self.gemm_grid(kernel.gemm_tile().unwrap_or((128, 128)))[2];
            return Err(Error::option(
                "split_k",
                format!(
                    "split_k {splits} is out of range for this convolution (1 up to 65535 / {z} workgroup layers \
                 and 2^32 / {} partial outputs)",
                    self.output_numel()
                ),
            ));
        }
        Ok(splits)
    }

    /// How GEMM `kernel` at `tile_n` columns splits K: as `forced` when this convolution can
    /// run so (else an error naming the value), the planner's K-slices when `None`.
    pub(crate) fn launch_schedule(
        &self,
        kernel: ConvKernel,
        tile_n: u32,
        forced: Option<GemmSchedule>,
    ) -> Result<LaunchSchedule> {
        match forced {
            Some(GemmSchedule::StreamK(workgroups)) => {
                Ok(LaunchSchedule::Stream(self.stream_k(kernel, tile_n, workgroups)?))
            }
            Some(GemmSchedule::SplitK(splits)) => {
                Ok(LaunchSchedule::Slices(self.choose_split_k(kernel, tile_n, Some(splits))?))
            }
            None => Ok(LaunchSchedule::Slices(self.gemm_split_k(kernel, tile_n))),
        }
    }

    /// The width GEMM `kernel` runs at: `forced` when the kernels can take it here (a multiple of
    /// 8 in [`GEMM_TILE_N`], at most 65535 tiles along N), else an error naming it; the planner's
    /// width when `None`.
    pub(crate) fn choose_tile_n(&self, kernel: ConvKernel, forced: Option<u32>) -> Result<u32> {
        let Some(tile_n) = forced else { return Ok(self.planned_tile_n(kernel)) };
        if !kernel.is_gemm() {
            return Err(Error::option("tile_n", format!("tile_n {tile_n} needs a GEMM kernel, not {}", kernel.name())));
        }
        if !GEMM_TILE_N.contains(&tile_n) || !tile_n.is_multiple_of(8) {
            return Err(Error::option(
                "tile_n",
                format!(
                    "tile_n {tile_n} is not a GEMM tile width (a multiple of 8 from {} to {})",
                    GEMM_TILE_N.start(),
                    GEMM_TILE_N.end()
                ),
            ));
        }
        let tiles_n = self.gemm_grid(gemm_tile_at(kernel, tile_n))[0];
        if tiles_n > MAX_WORKGROUPS_PER_DIM {
            return Err(Error::option(
                "tile_n",
                format!(
                    "tile_n {tile_n} makes {tiles_n} tiles along N·OH·OW for this convolution, over the 65535 workgroups \
                 a grid dimension may have"
                ),
            ));
        }
        Ok(tile_n)
    }

    /// The planner's tile width for GEMM `kernel`: its default ([`ConvKernel::gemm_tile`]).
    pub(crate) fn planned_tile_n(&self, kernel: ConvKernel) -> u32 {
        kernel.gemm_tile().map_or(128, |(_, n)| n)
    }

    /// The fp32 planner's whole choice for this convolution, without a device: its kernel
    /// ([`ConvGeometry::planned_kernel`]) and, for the tile-width GEMM kernels, the tile width
    /// and K-slices it launches them with (the small-grid kernels `GemmSmall`/`GemmSmallK32`
    /// split K in slices of their own, which this does not report), and for the 16-deep tiles
    /// their K-tile loads. What runs on a device can
    /// differ where the device does: a smaller storage-binding limit allows fewer K-slices, a
    /// kernel that needs more workgroup memory or threads than the device has falls back (so
    /// does Winograd where its intermediates exceed a binding, or on f16 tensors: R31's to the
    /// staged GEMM, R61's to what the planner chooses without it), f16 multiplicands allowed on a device with cooperative matrices take the
    /// tensor-core kernels, and a tuned configuration ([`crate::Context::tuned`]) runs instead
    /// of the plan.
    pub fn planned_config(&self) -> TunedConfig {
        let kernel = self.planned_kernel();
        if !kernel.is_gemm() {
            return TunedConfig { kernel, tile_n: None, schedule: None, k_tile_loads: None };
        }
        let tile_n = self.planned_tile_n(kernel);
        let schedule = GemmSchedule::SplitK(self.gemm_split_k(kernel, tile_n));
        let k_tile_loads = kernel.chooses_k_tile_loads().then(|| kernel.fitted_k_tile_loads(tile_n));
        TunedConfig { kernel, tile_n: Some(tile_n), schedule: Some(schedule), k_tile_loads }
    }

    /// The order in which the planner's staged GEMM tiles take their output tiles (rule R55) on
    /// f32 tensors, where [`ConvGeometry::planned_config`] is a staged GEMM kernel; `None`
    /// elsewhere. As with `planned_config`, the device may differ: an input over its binding
    /// limit runs in batch chunks, each planned (and ordered) as a geometry of its own; f16
    /// tensors and stream-K keep N tiles fastest.
    pub fn planned_tile_order(&self) -> Option<crate::TileOrder> {
        let config = self.planned_config();
        Some(self.fitted_tile_order(config.kernel, config.tile_n?))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{
        error::Result,
        ops::{conv_geometry::ConvGeometry, conv_kernel::ConvKernel, conv_options::ConvOptions},
    };

    fn geo(input: &[usize], weight: &[usize], opts: ConvOptions) -> Result<ConvGeometry> {
        ConvGeometry::new(input, weight, None, &opts)
    }

    #[test]
    fn planned_config_is_the_planners_launch() {
        // SD 1.5's 640→1280 3×3 at 16², batch 1: R54's 128×128 tiles in 13 K-slices.
        let g = geo(&[1, 640, 16, 16], &[1280, 640, 3, 3], ConvOptions::default().padding(&[1])).unwrap();
        let config = g.planned_config();
        assert_eq!(config.kernel, g.planned_kernel());
        assert_eq!(
            (config.kernel, config.tile_n, config.schedule),
            (ConvKernel::GemmK16, Some(128), Some(GemmSchedule::SplitK(13)))
        );
        assert_eq!(config.to_string(), "gemm_k16/k13");
        // Kernels without a tile width or K schedule have neither.
        let dw = geo(&[1, 32, 56, 56], &[32, 1, 3, 3], ConvOptions::default().padding(&[1]).groups(32)).unwrap();
        let config = dw.planned_config();
        assert_eq!((config.kernel, config.tile_n, config.schedule), (ConvKernel::DepthwiseVec4, None, None));
    }

    #[test]
    fn padding_only_taps_counted_by_hand() {
        let same = |input: &[usize], weight: &[usize], pad: u32, dilation: u32| {
            let opts = ConvOptions::default().padding(&[pad]).dilation(&[dilation]);
            geo(input, weight, opts).unwrap()
        };
        // DeepLabv3's ASPP at dilation 36 on 64 × 64, one output row per 64-column tile: filter
        // row 0 reads padding for output rows 0–35, row 2 for rows 28–63 (rows 28–35 both), 3
        // taps a filter row: 72 · 3 of 64 · 9 pairs.
        let aspp = same(&[1, 16, 64, 64], &[8, 16, 3, 3], 36, 36);
        assert_eq!(aspp.padding_only_tap_share(64), 72.0 * 3.0 / (64.0 * 9.0));
        // 128-column tiles span rows 2r and 2r + 1: the same rows skip.
        assert_eq!(aspp.padding_only_tap_share(128), aspp.padding_only_tap_share(64));
        assert!(aspp.gemm_skips_taps(ConvKernel::GemmN64K16, 64));
        // Tiles that span two images count as skipping nothing: 10 × 10 maps, 64-column tiles.
        let small = same(&[2, 16, 10, 10], &[8, 16, 3, 3], 9, 9);
        // Tile 1 spans both images; tiles 0 (image 1's rows 0–6), 2 (image 2's rows 2–9) and 3
        // (columns 2–9 of its row 9) lie in one. Filter row (column) 0 reads the image only for
        // output row (column) 9, row (column) 2 only for 0: tile 0 skips filter row 0's 3 taps,
        // tile 2 row 2's, tile 3 row 2 and column 2 (5 taps).
        assert_eq!(small.padding_only_tap_share(64), 11.0 / (4.0 * 9.0));
        // A one-row filter over 1D outputs: 8 taps at dilation 4, padding 14, 40 outputs, tiles of
        // 32 and 8 columns. Tap j reads input o + 4j − 14 (of 40): tile [0, 32) all taps live;
        // tile [32, 40) taps 0–5 (tap 6 reads 32 + 24 − 14 = 42 already at o = 32): 2 dead.
        let one_d =
            ConvGeometry::new(&[1, 16, 40], &[8, 16, 8], None, &ConvOptions::default().padding(&[14]).dilation(&[4]))
                .unwrap();
        assert_eq!(one_d.padding_only_tap_share(32), 2.0 / 16.0);
        // DeepLabv3 at 224² (28 × 28 maps): every tap but the centre reads padding, skipped in
        // the 46 of the 49 64-column tiles of 4 images that lie in one image (tiles 12, 24 and
        // 36 span two).
        let small_map = same(&[4, 16, 28, 28], &[8, 16, 3, 3], 36, 36);
        assert_eq!(small_map.padding_only_tap_share(64), 46.0 * 8.0 / (49.0 * 9.0));
        // Padding enough that a tile reads no input at all: its every tap is dead.
        let none = same(&[1, 16, 2, 2], &[8, 16, 3, 3], 8, 1);
        assert_eq!(none.oh, 16);
        assert!(none.padding_only_tap_share(32) > 0.8);
        // Nothing to skip without padding, on transposed convolutions, or where the K-tiles mix
        // taps (channels per group not a multiple of 16 on the 16-deep tiles).
        assert_eq!(same(&[1, 16, 64, 64], &[8, 16, 3, 3], 0, 1).padding_only_tap_share(64), 0.0);
        let transposed =
            geo(&[1, 16, 8, 8], &[16, 8, 3, 3], ConvOptions::default().padding(&[4]).transposed(true)).unwrap();
        assert_eq!(transposed.padding_only_tap_share(32), 0.0);
        let mixed = same(&[1, 12, 64, 64], &[8, 12, 3, 3], 36, 36);
        assert!(mixed.padding_only_tap_share(64) > 0.3 && !mixed.gemm_skips_taps(ConvKernel::GemmN64K16, 64));
        // tests/conv.rs's `gemm_tiles_skip_taps_that_read_only_padding` cases skip on every
        // kernel at the widths it runs them at, except the first at 128 columns.
        let staged: Vec<_> = ConvKernel::ALL.into_iter().filter(|k| k.is_gemm()).collect();
        assert_eq!(staged.len(), 7, "the seven staged GEMM kernels");
        // Two 10 × 10 maps at dilation 9: 11 of 36 pairs on 64-column tiles (above), 3 of 18 on
        // 128-column ones (only the second tile lies in one image), which do not skip.
        let dilated = same(&[2, 32, 10, 10], &[24, 32, 3, 3], 9, 9);
        assert_eq!(dilated.padding_only_tap_share(128), 3.0 / 18.0);
        for &kernel in &staged {
            let tile_n = dilated.planned_tile_n(kernel);
            assert_eq!(dilated.gemm_skips_taps(kernel, tile_n), tile_n == 64, "{kernel:?}");
        }
        assert!(dilated.gemm_skips_taps(ConvKernel::GemmM64K16, 32));
        // 1D: tap j reads o + 96j − 336 of 256; the 128-column tiles (one per half image) each
        // keep 4 of 8 taps (3–6 and 1–4).
        let long = ConvOptions::default().padding(&[336]).dilation(&[96]);
        let one_d = ConvGeometry::new(&[2, 32, 256], &[8, 32, 8], None, &long).unwrap();
        assert_eq!(one_d.padding_only_tap_share(128), 0.5);
        let wide = same(&[1, 32, 2, 3], &[8, 32, 3, 3], 8, 1);
        let centre = same(&[1, 32, 12, 13], &[16, 32, 3, 3], 16, 16);
        assert_eq!(centre.padding_only_tap_share(128), 8.0 / 9.0);
        // Stride 2 and two groups, a 10 × 17 output: filter row 0 reads above the image for
        // output rows 0–7, row 2 below it for rows 2–9; the 64-column tiles (rows 0–3, 3–7,
        // 7–9) skip 3, 6 and 3 of 9 taps.
        let opts = ConvOptions::default().stride(&[2]).dilation(&[16]).padding(&[16]).groups(2);
        let strided = geo(&[1, 64, 20, 34], &[48, 32, 3, 3], opts).unwrap();
        assert_eq!(strided.padding_only_tap_share(64), 12.0 / 27.0);
        for g in [&one_d, &wide, &centre, &strided] {
            for &kernel in &staged {
                let tile_n = g.planned_tile_n(kernel);
                assert!(g.gemm_skips_taps(kernel, tile_n), "{kernel:?} on {g:?}");
            }
            assert!(g.gemm_skips_taps(ConvKernel::GemmM64K16, 32));
        }
        // The bound holds wherever a share was counted above.
        for (g, tile_n) in [(&aspp, 64), (&aspp, 128), (&small, 64), (&one_d, 32), (&small_map, 64), (&none, 32)] {
            assert!(g.padding_only_tile_bound(tile_n) >= g.padding_only_tap_share(tile_n), "{g:?} at {tile_n}");
        }
        // A 3×3 at padding 1: on 56 × 56, 128-column tiles span at least 3 rows and skip
        // nothing; on 224 × 224 the first tile of each image lies in row 0 and skips its first
        // filter row (1/392 of the tiles), which the bound settles without counting.
        let resnet = same(&[8, 64, 56, 56], &[64, 64, 3, 3], 1, 1);
        assert_eq!(resnet.padding_only_tap_share(128), 0.0);
        assert!(!resnet.gemm_skips_taps(ConvKernel::GemmK16, 128));
        let vgg = same(&[2, 64, 224, 224], &[64, 64, 3, 3], 1, 1);
        assert!(vgg.padding_only_tap_share(128) > 0.0);
        assert!(vgg.padding_only_tile_bound(128) < SKIP_TAPS_MIN_SHARE);
        assert!(vgg.padding_only_tile_bound(128) >= vgg.padding_only_tap_share(128));
    }

    #[test]
    fn partial_sums_stay_within_a_binding() {
        // 16 × 36 outputs: 2304 bytes a slice.
        let g = geo(&[1, 128, 6, 6], &[16, 128, 3, 3], ConvOptions::default().padding(&[1])).unwrap();
        assert_eq!(g.splits_within_binding(8, 1 << 30), 8);
        assert_eq!(g.splits_within_binding(8, 3 * 2304), 3);
        assert_eq!(g.splits_within_binding(8, 2 * 2304 - 1), 1);
        let slices = |s: LaunchSchedule| match s {
            LaunchSchedule::Slices(n) => (n, false),
            LaunchSchedule::Stream(stream) => (stream.slices, true),
        };
        assert_eq!(slices(LaunchSchedule::Slices(8).within_binding(&g, 4 * 2304)), (4, false));
        // Stream-K keeps its workgroups where its slices fit, else runs unsplit.
        let stream = g.stream_k(ConvKernel::GemmN64K16, 64, 16).unwrap();
        assert!(stream.slices > 1);
        let fits = u64::from(stream.slices) * 2304;
        assert_eq!(slices(LaunchSchedule::Stream(stream).within_binding(&g, fits)), (stream.slices, true));
        assert_eq!(slices(LaunchSchedule::Stream(stream).within_binding(&g, fits - 1)), (1, false));
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
    fn forced_split_k_is_checked() {
        let g = geo(&[1, 64, 6, 6], &[16, 64, 3, 3], ConvOptions::default().padding(&[1])).unwrap();
        assert_eq!(g.choose_split_k(ConvKernel::Gemm, 128, Some(7)).unwrap(), 7);
        for (kernel, splits) in [(ConvKernel::Gemm, 0), (ConvKernel::Gemm, 65_536), (ConvKernel::Depthwise, 2)] {
            let err = g.choose_split_k(kernel, 128, Some(splits)).unwrap_err();
            assert!(err.to_string().contains(&format!("split_k {splits}")), "{err}");
        }
    }
}
