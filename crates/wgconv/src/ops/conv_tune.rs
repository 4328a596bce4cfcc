//! Measured kernel choice, like `cudnn.benchmark`: [`Conv2d::tune`] times every kernel (and GEMM
//! K-slice count) that can run a convolution on this device and remembers the fastest in the
//! [`Context`], where the planner takes it for that geometry from then on. The planner's rules
//! were fitted on one GPU (an H200); tuning fits the choice to the GPU at hand.

use super::{conv::Conv2d, conv_geometry::ConvGeometry, conv_plan::ConvKernel};
use crate::{
    context::Context,
    error::{Error, Result},
    tensor::{DType, Tensor},
    timing::{self, Sampling},
};

/// A kernel and its K-slices (1 for kernels without split-K).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TunedConfig {
    /// Kernel.
    pub kernel: ConvKernel,
    /// K-slices of a GEMM kernel (1 otherwise).
    pub split_k: u32,
}

/// One configuration that [`Conv2d::tune`] timed.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Candidate {
    /// What ran.
    pub config: TunedConfig,
    /// Median milliseconds per run.
    pub ms: f64,
}

/// Every configuration [`Conv2d::tune`] timed, fastest first; the first is the one remembered.
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
    /// The fastest configuration.
    pub fn best(&self) -> Candidate {
        self.candidates[0]
    }
}

/// Leading candidates timed a second time.
const CONFIRMED: usize = 3;

/// K-slice counts tried on GEMM kernels (besides the planner's own choice).
const SPLITS: [u32; 6] = [1, 2, 3, 4, 6, 8];

impl Conv2d {
    /// Times every configuration that can run this convolution on inputs of `input_shape` on
    /// this device (each kernel that fits the device; GEMM kernels at several K-slice counts,
    /// each slice at least 32 deep), remembers the fastest in `ctx` for that geometry, and
    /// returns what was measured. Costs a pipeline compile and `sampling` runs per candidate;
    /// run it once per layer shape, before the timed work.
    ///
    /// ```no_run
    /// use wgconv::{Context, Conv2d, ConvOptions, Tensor, timing::Sampling};
    /// let ctx = Context::new()?;
    /// let w = Tensor::from_f32(&ctx, &vec![0.1; 256 * 128 * 9], &[256, 128, 3, 3])?;
    /// let conv = Conv2d::new(&ctx, &w, None, &ConvOptions::default().padding(&[1]))?;
    /// let tuning = conv.tune(&ctx, &[8, 128, 28, 28], &Sampling::default())?;
    /// println!("{:?}", tuning.best());
    /// # Ok::<(), wgconv::Error>(())
    /// ```
    pub fn tune(&self, ctx: &Context, input_shape: &[usize], sampling: &Sampling) -> Result<Tuning> {
        let bias_shape = self.bias.as_ref().map(Tensor::shape);
        let geometry = ConvGeometry::new(input_shape, self.weight.shape(), bias_shape, &self.opts)?;
        // Values do not change the timing; zero-filled buffers need no upload.
        let input = Tensor::zeros(ctx, input_shape, DType::F32)?;
        let output = Tensor::zeros(ctx, &geometry.output_shape(), DType::F32)?;
        let time = |config: TunedConfig| -> Result<f64> {
            let gemm = config.kernel.gemm_tile().is_some();
            let opts = self.opts.clone().kernel(Some(config.kernel)).split_k(gemm.then_some(config.split_k));
            let t = timing::median_time(ctx, sampling, |batch| {
                self.run_into_with(batch, &input, &output, &opts).map(|_| ())
            })?;
            Ok(t.ms_per_run)
        };
        // A configuration the device cannot run (a pipeline its driver rejects, memory it lacks)
        // is left out rather than failing the tuning; only when none runs is that an error.
        let mut candidates = Vec::new();
        let mut skipped = Vec::new();
        let mut first_error = None;
        for config in configurations(ctx, &geometry) {
            match time(config) {
                Ok(ms) => candidates.push(Candidate { config, ms }),
                Err(e) => {
                    skipped.push((config, e.to_string()));
                    first_error.get_or_insert(e);
                }
            }
        }
        if candidates.is_empty() {
            return Err(first_error.unwrap_or_else(|| Error::invalid("no kernel can run this convolution")));
        }
        candidates.sort_by(|a, b| a.ms.total_cmp(&b.ms));
        // Time the leaders again in reverse order and keep each one's better time: on the H200,
        // configurations timed late in a long run measured slower than the same ones timed
        // early, so one pass in a fixed order would favour whatever came first.
        for candidate in candidates.iter_mut().take(CONFIRMED).rev() {
            candidate.ms = candidate.ms.min(time(candidate.config)?);
        }
        candidates.sort_by(|a, b| a.ms.total_cmp(&b.ms));
        ctx.remember_tuning(geometry.clone(), candidates[0].config);
        // The widest split timed grew the shared split-K scratch; the chosen one may need less.
        ctx.release_scratch();
        Ok(Tuning { geometry, candidates, skipped })
    }
}

/// Every configuration worth timing for `g` on this device.
fn configurations(ctx: &Context, g: &ConvGeometry) -> Vec<TunedConfig> {
    let storage = ctx.limits().max_compute_workgroup_storage_size;
    let k_tiles = g.gemm_k_depth().div_ceil(8);
    let mut configs = Vec::new();
    for kernel in g.supported_kernels().into_iter().filter(|k| k.workgroup_storage_bytes() <= storage) {
        if kernel.gemm_tile().is_none() {
            configs.push(TunedConfig { kernel, split_k: 1 });
            continue;
        }
        let planned = g.gemm_split_k(kernel);
        let mut splits: Vec<u32> = SPLITS.into_iter().filter(|&s| s == 1 || k_tiles >= 4 * u64::from(s)).collect();
        if !splits.contains(&planned) {
            splits.push(planned);
        }
        for split_k in splits {
            if g.choose_split_k(kernel, Some(split_k)).is_ok() {
                configs.push(TunedConfig { kernel, split_k });
            }
        }
    }
    configs
}
