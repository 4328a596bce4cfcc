//! Measured kernel choice, like `cudnn.benchmark`: [`Conv2d::tune`] times every kernel (and GEMM
//! K-slice count, stream-K schedule and tile width) that can run a convolution on this device
//! and remembers the fastest in the [`Context`], where the planner takes it for that geometry
//! from then on. The planner's rules
//! were fitted on one GPU (an H200); tuning fits the choice to the GPU at hand.

use super::{
    conv::Conv2d,
    conv_geometry::ConvGeometry,
    conv_kernel::ConvKernel,
    conv_options::{ForcedPlan, GemmSchedule, KTileLoads},
    conv_plan::FITTED_SMS,
};
use crate::{
    context::Context,
    error::{Error, Result},
    tensor::Tensor,
    timing::{self, Sampling},
};

/// A configuration [`Conv2d::tune`] measured: a kernel and, for GEMM kernels, its tile width
/// and K schedule, and for the 16-deep staged tiles their K-tile loads (for the fp32 Winograd
/// kernels, those of their products).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(from = "TunedConfigRecord", into = "TunedConfigRecord")]
pub struct TunedConfig {
    /// Kernel.
    pub kernel: ConvKernel,
    /// Tile width of a GEMM kernel (`None`: the kernel's default, and for other kernels).
    pub tile_n: Option<u32>,
    /// K schedule of a GEMM kernel (`None` for other kernels). Tuning always records one for a
    /// GEMM kernel; a hand-made `None` there means the planner's K-slices, which a tuning file
    /// cannot express and stores as one slice.
    pub schedule: Option<GemmSchedule>,
    /// When the 16-deep staged tiles load a K-tile, those of a Winograd kernel's products
    /// included (`None`: the planner's choice for the tile, R69's or R70's for the products, and
    /// for other kernels; files written before v50 read as `None`).
    pub k_tile_loads: Option<KTileLoads>,
}

impl TunedConfig {
    /// The plan that runs this configuration.
    pub fn forced_plan(&self) -> ForcedPlan {
        ForcedPlan {
            kernel: Some(self.kernel),
            tile_n: self.tile_n,
            schedule: self.schedule,
            k_tile_loads: self.k_tile_loads,
            tile_order: None,
        }
    }
}

/// [`TunedConfig`] as tuning files store it: the K schedule as two fields (`split_k` slices, or
/// stream-K over `stream_k` workgroups), as files written before the schedule enum have it.
#[derive(serde::Serialize, serde::Deserialize)]
struct TunedConfigRecord {
    kernel: ConvKernel,
    split_k: u32,
    stream_k: Option<u32>,
    #[serde(default)]
    tile_n: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    k_tile_loads: Option<KTileLoads>,
}

impl From<TunedConfigRecord> for TunedConfig {
    fn from(r: TunedConfigRecord) -> Self {
        let schedule = match (r.stream_k, r.split_k) {
            (Some(workgroups), _) => Some(GemmSchedule::StreamK(workgroups)),
            // Kernels without K-slices store 1; anything else is kept for the import check to refuse.
            (None, 1) if !r.kernel.is_gemm() => None,
            (None, splits) => Some(GemmSchedule::SplitK(splits)),
        };
        Self { kernel: r.kernel, tile_n: r.tile_n, schedule, k_tile_loads: r.k_tile_loads }
    }
}

impl From<TunedConfig> for TunedConfigRecord {
    fn from(c: TunedConfig) -> Self {
        let (split_k, stream_k) = match c.schedule {
            None => (1, None),
            Some(GemmSchedule::SplitK(splits)) => (splits, None),
            Some(GemmSchedule::StreamK(workgroups)) => (1, Some(workgroups)),
        };
        Self { kernel: c.kernel, split_k, stream_k, tile_n: c.tile_n, k_tile_loads: c.k_tile_loads }
    }
}

impl std::fmt::Display for TunedConfig {
    /// `gemm`, `gemm/n96` (96-column tiles; shown when not the kernel's default), `gemm/k3`
    /// (three K-slices), `gemm/stream264` (stream-K over 264 workgroups), then `/ahead` or
    /// `/in_iteration` where the K-tile loads are not the planner's for the tile; for a Winograd
    /// kernel whose products run on the staged tiles, `winograd_4x4/ahead` where their loads are
    /// set (tuning sets them only where they are not R69's or R70's).
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.kernel.name())?;
        let default_width = self.kernel.gemm_tile().map(|(_, n)| n);
        if let Some(width) = self.tile_n.filter(|w| Some(*w) != default_width) {
            write!(f, "/n{width}")?;
        }
        match self.schedule {
            Some(GemmSchedule::StreamK(workgroups)) => write!(f, "/stream{workgroups}")?,
            None | Some(GemmSchedule::SplitK(1)) => {}
            Some(GemmSchedule::SplitK(splits)) => write!(f, "/k{splits}")?,
        }
        let width = self.tile_n.or(default_width).unwrap_or(0);
        match self.k_tile_loads {
            Some(loads) if self.kernel.chooses_k_tile_loads() && loads != self.kernel.fitted_k_tile_loads(width) => {
                write!(f, "/{}", loads.name())
            }
            Some(loads) if self.kernel.winograd_products_on_staged_tiles() => write!(f, "/{}", loads.name()),
            _ => Ok(()),
        }
    }
}

/// One configuration that [`Conv2d::tune`] timed.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Candidate {
    /// What ran.
    pub config: TunedConfig,
    /// Median milliseconds per run.
    pub ms: f64,
}

/// Every configuration [`Conv2d::tune`] timed, fastest first; [`Tuning::best`] is the one
/// remembered.
#[derive(Clone, Debug, PartialEq)]
pub struct Tuning {
    /// The geometry tuned for.
    pub geometry: ConvGeometry,
    /// Timed configurations, fastest first (never empty).
    pub candidates: Vec<Candidate>,
    /// Configurations that failed to run on this device, with the error.
    pub skipped: Vec<(TunedConfig, String)>,
}

impl Tuning {
    /// The fastest configuration, the one tuning remembers.
    pub fn best(&self) -> Candidate {
        self.candidates[0]
    }
}

/// K-slice counts tried on GEMM kernels (besides the planner's own choice).
const SPLITS: [u32; 6] = [1, 2, 3, 4, 6, 8];

/// Stream-K workgroup counts tried on GEMM kernels of direct convolutions: one and two per
/// multiprocessor of a 132-SM GPU (WebGPU does not report the count; on smaller GPUs these
/// are several waves, which tuning then measures as such).
const STREAM_K_WORKGROUPS: [u32; 2] = [FITTED_SMS as u32, 2 * FITTED_SMS as u32];

impl Conv2d {
    /// Times every configuration that can run this convolution on inputs of `input_shape` on
    /// this device (each kernel that fits the device; GEMM kernels at several K-slice counts,
    /// each slice at least 32 deep, with stream-K on small grids, and at the tile widths that fit
    /// the grid to whole waves; the 16-deep tiles also with the K loop the planner does not
    /// pick, at its width and K-slices, and the fp32 Winograd kernels whose products run on them
    /// also with the products' other K loop), remembers the fastest in `ctx` for that geometry, and
    /// returns what was measured. Costs a pipeline compile per candidate, a warm-up, and
    /// `sampling.samples` rounds that time `sampling.launches` runs of every candidate (rounds,
    /// not one candidate after another, so drifting clocks do not favour the first ones); run
    /// it once per layer shape, before the timed work. [`Conv2d::tune`] is the blocking form
    /// (native only).
    ///
    /// A convolution whose input or output exceeds one storage binding runs in parts (batch
    /// chunks, or row bands of one image), each planned for its own smaller shape: a tuning of
    /// the whole shape does not reach those parts.
    ///
    /// ```no_run
    /// use wgconv::{Context, Conv2d, ConvOptions, Tensor, timing::Sampling};
    /// # async fn run() -> Result<(), wgconv::Error> {
    /// let ctx = Context::new_async().await?;
    /// let w = Tensor::from_f32(&ctx, &vec![0.1; 256 * 128 * 9], &[256, 128, 3, 3])?;
    /// let conv = Conv2d::new_async(&ctx, &w, None, &ConvOptions::default().padding(&[1])).await?;
    /// let tuning = conv.tune_async(&ctx, &[8, 128, 28, 28], &Sampling::default()).await?;
    /// println!("{:?}", tuning.best());
    /// # Ok(()) }
    /// ```
    pub async fn tune_async(&self, ctx: &Context, input_shape: &[usize], sampling: &Sampling) -> Result<Tuning> {
        let bias_shape = self.bias.as_ref().map(Tensor::shape);
        let geometry = ConvGeometry::new(input_shape, self.weight.shape(), bias_shape, &self.opts)?;
        // Values do not change the timing; zero-filled buffers need no upload.
        let input = Tensor::zeros(ctx, input_shape, self.weight.dtype())?;
        let output = Tensor::zeros(ctx, &geometry.output_shape(), self.weight.dtype())?;
        let time = async |forced: &ForcedPlan, runs: u32| {
            timing::time_runs_async(ctx, runs, |batch| self.run_into_forced(batch, &input, &output, forced).map(|_| ()))
                .await
        };
        // Every configuration runs once first: that compiles its pipeline, so no compile (which
        // leaves the GPU idle and its clocks falling) happens between timed samples. One the
        // device cannot run (a pipeline its driver rejects, memory it lacks) is left out rather
        // than failing the tuning; only when none runs is that an error (below).
        let mut runnable = Vec::new();
        let mut skipped = Vec::new();
        let mut first_error = None;
        for config in configurations(ctx, &geometry) {
            let forced = config.forced_plan();
            match time(&forced, 1).await {
                Ok(_) => runnable.push((config, forced)),
                Err(e) => {
                    skipped.push((config, e.to_string()));
                    first_error.get_or_insert(e);
                }
            }
        }
        // Warm the GPU up, then time the configurations in rounds, one sample of each per round
        // (starting one later each round), and keep each one's median: clock or thermal drift
        // then affects every configuration alike (docs/PERFORMANCE.md, rule R19: timed one after
        // another, late configurations measured up to 2× slower).
        let launches = sampling.launches.max(1);
        if let Some((_, warm_plan)) = runnable.first() {
            timing::warm_up(ctx, sampling, |batch| self.run_into_forced(batch, &input, &output, warm_plan).map(|_| ()))
                .await?;
        }
        // A candidate that fails during the rounds (say, memory running out) is dropped as
        // skipped; the others go on.
        let mut samples: Vec<Option<Vec<f64>>> = vec![Some(Vec::new()); runnable.len()];
        for round in 0..sampling.samples.max(1) as usize {
            for i in (0..runnable.len()).map(|i| (i + round) % runnable.len()) {
                let Some(times) = &mut samples[i] else { continue };
                match time(&runnable[i].1, launches).await {
                    Ok(t) => times.push(t.ms_per_run),
                    Err(e) => {
                        skipped.push((runnable[i].0, e.to_string()));
                        first_error.get_or_insert(e);
                        samples[i] = None;
                    }
                }
            }
        }
        let mut candidates: Vec<Candidate> = runnable
            .iter()
            .zip(&mut samples)
            .filter_map(|((config, _), times)| {
                times.as_mut().map(|times| Candidate { config: *config, ms: timing::median(times) })
            })
            .collect();
        if candidates.is_empty() {
            return Err(first_error.unwrap_or_else(|| {
                Error::unavailable(
                    geometry.planned_kernel().name(),
                    "no kernel can run this convolution on this device",
                )
            }));
        }
        candidates.sort_by(|a, b| a.ms.total_cmp(&b.ms));
        let tuning = Tuning { geometry, candidates, skipped };
        ctx.remember_tuning(tuning.geometry.clone(), tuning.best().config);
        // The widest split timed grew the shared split-K scratch; the chosen one may need less.
        ctx.release_scratch();
        Ok(tuning)
    }
}

/// The K loop other than `loads`.
fn other_loads(loads: KTileLoads) -> KTileLoads {
    match loads {
        KTileLoads::Ahead => KTileLoads::InIteration,
        KTileLoads::InIteration => KTileLoads::Ahead,
    }
}

/// Workgroup counts that tile widths are fitted to: one, two and three per multiprocessor of a
/// 132-SM GPU (as for stream-K), so that no multiprocessor gets one tile more than another.
const WAVES: [u64; 3] = [FITTED_SMS, 2 * FITTED_SMS, 3 * FITTED_SMS];

/// Every configuration worth timing for `g` on this device: each kernel; each GEMM kernel at
/// its default width with every K-slice count and stream-K, and at the narrowest widths whose
/// grid fits one, two or three tiles per multiprocessor (`WAVES`), unsplit and at the
/// planner's K-slices for that width; the 16-deep tiles also with their other K loop
/// ([`KTileLoads`]) at the default width and the planner's K-slices; the fp32 Winograd kernels
/// whose products run on the 16-deep tiles also with the products' loop R69 or R70 does not
/// choose (where the products run on other tiles, the loop changes nothing, and is not timed
/// twice).
fn configurations(ctx: &Context, g: &ConvGeometry) -> Vec<TunedConfig> {
    let storage = ctx.limits().max_compute_workgroup_storage_size;
    let k_tiles = g.gemm_k_depth().div_ceil(8);
    let mut configs = Vec::new();
    let mut push = |config: TunedConfig| {
        if !configs.contains(&config) {
            configs.push(config);
        }
    };
    for kernel in g.supported_kernels() {
        let Some((rows, default_width)) = kernel.gemm_tile() else {
            if kernel.workgroup_storage_bytes() <= storage {
                push(TunedConfig { kernel, tile_n: None, schedule: None, k_tile_loads: None });
                // Winograd's products on the staged tiles also with the K loop R69 or R70 does
                // not choose for them.
                if let Some(planned) = super::winograd::planned_products_k_tile_loads(ctx, g, kernel) {
                    let other = other_loads(planned);
                    push(TunedConfig { kernel, tile_n: None, schedule: None, k_tile_loads: Some(other) });
                }
            }
            continue;
        };
        // Each width declares its own workgroup memory: on a small device the narrow widths of
        // a kernel may fit where its default does not.
        let fits = |width: u32| kernel.gemm_tile_storage_bytes(width) <= storage;
        let gemm =
            |schedule, width| TunedConfig { kernel, tile_n: Some(width), schedule: Some(schedule), k_tile_loads: None };
        let planned = g.gemm_split_k(kernel, default_width);
        // The 16-deep tiles' other K loop, at the default width and the planner's K-slices.
        if kernel.chooses_k_tile_loads() && fits(default_width) {
            let other = other_loads(kernel.fitted_k_tile_loads(default_width));
            if g.choose_split_k(kernel, default_width, Some(planned)).is_ok() {
                push(TunedConfig { k_tile_loads: Some(other), ..gemm(GemmSchedule::SplitK(planned), default_width) });
            }
        }
        let mut splits: Vec<u32> = SPLITS.into_iter().filter(|&s| s == 1 || k_tiles >= 4 * u64::from(s)).collect();
        if !splits.contains(&planned) {
            splits.push(planned);
        }
        for split_k in splits.into_iter().filter(|_| fits(default_width)) {
            if g.choose_split_k(kernel, default_width, Some(split_k)).is_ok() {
                push(gemm(GemmSchedule::SplitK(split_k), default_width));
            }
        }
        let tiles: u64 = g.gemm_grid((rows, default_width)).iter().product();
        // Stream-K pays off when the tiles are too few to spread evenly, so grids of two or
        // more waves are not timed with it.
        for workgroups in STREAM_K_WORKGROUPS.into_iter().filter(|&w| tiles < 2 * u64::from(w) && fits(default_width)) {
            if g.stream_k(kernel, default_width, workgroups).is_ok() {
                push(gemm(GemmSchedule::StreamK(workgroups), default_width));
            }
        }
        // The 64-column kernels are another kernel's entry point at another width: that kernel
        // times the other widths, except the 64 columns the alias already runs.
        let aliased = |width| {
            ConvKernel::ALL
                .into_iter()
                .any(|k| k != kernel && k.gemm_entry() == kernel && k.gemm_tile() == Some((rows, width)))
        };
        let other_widths = if kernel.gemm_entry() == kernel { wave_fitting_widths(g, rows) } else { Vec::new() };
        for width in other_widths.into_iter().filter(|&w| w != default_width && !aliased(w) && fits(w)) {
            for split_k in [1, g.gemm_split_k(kernel, width)] {
                if g.choose_tile_n(kernel, Some(width)).is_ok()
                    && g.choose_split_k(kernel, width, Some(split_k)).is_ok()
                {
                    push(gemm(GemmSchedule::SplitK(split_k), width));
                }
            }
        }
    }
    configs
}

/// For each of `WAVES`, the narrowest tile width `rows` × width whose grid has at most that many
/// workgroups (none when even the widest has more, or when the narrowest already fits a smaller
/// wave).
fn wave_fitting_widths(g: &ConvGeometry, rows: u32) -> Vec<u32> {
    let widths = || crate::GEMM_TILE_N.step_by(8);
    let mut fitted: Vec<u32> = Vec::new();
    for wave in WAVES {
        let fits = |w: &u32| g.gemm_grid((rows, *w)).iter().product::<u64>() <= wave;
        if let Some(width) = widths().find(fits).filter(|w| !fitted.contains(w)) {
            fitted.push(width);
        }
    }
    fitted
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ops::conv_options::{ConvOptions, Precision};
    use crate::tensor::DType;

    /// Tuning times an fp32 Winograd kernel whose products run on the 16-deep staged tiles with
    /// the products' other K loop too (the one R69 does not choose: ahead for F(4×4, 3×3) at 48
    /// input channels), and not where they run on other tiles (F(6×6, 3×3)'s 16 × 16 tiles of
    /// 64 groups here, and every Winograd kernel on a small grid). A tuned loop reaches the plan.
    #[test]
    fn tuning_times_both_k_loops_of_winograd_products() {
        let ctx = crate::Context::new().expect("a GPU context (lavapipe in CI)");
        let same = ConvOptions::default().padding(&[1]);
        let g = ConvGeometry::new(&[1, 48, 96, 96], &[64, 48, 3, 3], None, &same).unwrap();
        let configs = configurations(&ctx, &g);
        let with = |kernel, k_tile_loads| TunedConfig { kernel, tile_n: None, schedule: None, k_tile_loads };
        let f4 = ConvKernel::Winograd4x4;
        assert!(
            configs.contains(&with(f4, None)) && configs.contains(&with(f4, Some(KTileLoads::Ahead))),
            "{configs:?}"
        );
        assert!(!configs.contains(&with(f4, Some(KTileLoads::InIteration))), "{configs:?}");
        assert!(configs.contains(&with(ConvKernel::Winograd6x6, None)), "{configs:?}");
        // Only kernels that take K-tile loads are timed with them.
        assert!(configs.iter().all(|c| c.k_tile_loads.is_none() || c.kernel.takes_k_tile_loads()), "{configs:?}");
        assert!(!configs.iter().any(|c| c.kernel == ConvKernel::Winograd6x6 && c.k_tile_loads.is_some()));
        let small = ConvGeometry::new(&[1, 48, 24, 24], &[64, 48, 3, 3], None, &same).unwrap();
        assert!(configurations(&ctx, &small).iter().all(|c| !c.kernel.is_winograd() || c.k_tile_loads.is_none()));
        // A tuned loop is the plan's.
        ctx.remember_tuning(g.clone(), with(f4, Some(KTileLoads::Ahead)));
        let plan = crate::ops::conv_plan::plan(&ctx, &g, DType::F32, Precision::F32, &ForcedPlan::default()).unwrap();
        assert_eq!((plan.kernel, plan.products_loads), (f4, Some(KTileLoads::Ahead)));
    }

    #[test]
    fn configurations_are_named_with_their_width_when_not_the_default() {
        let config = |kernel, schedule, tile_n| TunedConfig { kernel, tile_n, schedule, k_tile_loads: None };
        let (split, stream) = (GemmSchedule::SplitK, GemmSchedule::StreamK);
        assert_eq!(config(ConvKernel::Gemm, Some(split(1)), Some(128)).to_string(), "gemm");
        assert_eq!(config(ConvKernel::Gemm, Some(split(3)), Some(96)).to_string(), "gemm/n96/k3");
        assert_eq!(config(ConvKernel::GemmN64K16, Some(stream(264)), Some(64)).to_string(), "gemm_n64_k16/stream264");
        assert_eq!(config(ConvKernel::Depthwise, None, None).to_string(), "depthwise");
        // Tuning files written before the width was recorded read as the kernel's default.
        let old: TunedConfig = serde_json::from_str(r#"{"kernel": "gemm", "split_k": 2, "stream_k": null}"#).unwrap();
        assert_eq!(old, config(ConvKernel::Gemm, Some(split(2)), None));
        // K-tile loads are named where they are not the planner's for the tile, and files
        // without them (before v50) read as the planner's.
        let loads = |c: TunedConfig, l| TunedConfig { k_tile_loads: Some(l), ..c };
        let k16 = config(ConvKernel::GemmK16, Some(split(2)), Some(128));
        assert_eq!(loads(k16, KTileLoads::Ahead).to_string(), "gemm_k16/k2/ahead");
        assert_eq!(loads(k16, KTileLoads::InIteration).to_string(), "gemm_k16/k2");
        let m64 = config(ConvKernel::GemmM64K16, Some(split(1)), Some(128));
        assert_eq!(loads(m64, KTileLoads::InIteration).to_string(), "gemm_m64_k16/in_iteration");
        // A Winograd kernel's products' loads are named where set (tuning sets them where they
        // are not R69's or R70's); kernels whose products run on the tensor cores take none.
        let f4 = config(ConvKernel::Winograd4x4, None, None);
        assert_eq!(loads(f4, KTileLoads::Ahead).to_string(), "winograd_4x4/ahead");
        assert_eq!(f4.to_string(), "winograd_4x4");
        let coop = config(ConvKernel::Winograd4x4Coop, None, None);
        assert_eq!(loads(coop, KTileLoads::Ahead).to_string(), "winograd_4x4_coop");
        let json = serde_json::to_string(&loads(k16, KTileLoads::InIteration)).unwrap();
        assert!(json.contains(r#""k_tile_loads":"in_iteration""#), "{json}");
        assert_eq!(serde_json::from_str::<TunedConfig>(&json).unwrap(), loads(k16, KTileLoads::InIteration));
        assert!(!serde_json::to_string(&k16).unwrap().contains("k_tile_loads"));
        // The file format keeps its two fields, so files round-trip both ways.
        for c in [config(ConvKernel::Gemm, Some(stream(132)), Some(72)), config(ConvKernel::Depthwise, None, None)] {
            let json = serde_json::to_string(&c).unwrap();
            assert!(json.contains("\"split_k\"") && json.contains("\"stream_k\""), "{json}");
            assert_eq!(serde_json::from_str::<TunedConfig>(&json).unwrap(), c);
        }
    }

    #[test]
    fn widths_fitted_to_one_two_and_three_tiles_per_multiprocessor() {
        let opts = ConvOptions::default();
        // 8·14² = 1568 columns. 64 rows × 1024 channels: 16 tile rows; 132 would need 196+
        // columns; 264 take 104 (16 × 16 = 256 workgroups), 396 take 72 (16 × 22 = 352).
        let g = ConvGeometry::new(&[8, 256, 14, 14], &[1024, 256, 1, 1], None, &opts).unwrap();
        assert_eq!(wave_fitting_widths(&g, 64), vec![104, 72]);
        // 128 rows: 8 tile rows; 104 columns (8 × 16 = 128), 48 (8 × 33 = 264), 32 (8 × 49 = 392).
        assert_eq!(wave_fitting_widths(&g, 128), vec![104, 48, 32]);
        // A grid that fits one wave at 32 columns gives just that width.
        let small = ConvGeometry::new(&[1, 64, 6, 6], &[16, 64, 3, 3], None, &opts).unwrap();
        assert_eq!(wave_fitting_widths(&small, 64), vec![32]);
    }
}
