//! `wgconv bench`: time a suite of model layers with GPU timestamps (median of samples, each many
//! back-to-back launches) and compare with the reference kernel (the scalar kernel ported from ExecuTorch).

use std::{io::IsTerminal, path::PathBuf};

use indicatif::{ProgressBar, ProgressStyle};
use serde::Serialize;
use wgconv::{
    Context, Conv2d, ConvGeometry, ConvKernel, ConvOptions, DType, ForcedPlan, GemmSchedule, KTileLoads, MemoryFormat,
    Q8ConvPwArgs, Q8ConvPwOptions, Q8Kernel, QuantParams, Tensor, TileOrder,
    roofline::Roofline,
    timing::{self, TimingSource},
};

use crate::{
    error::{CliError, CliResult},
    pipeline_stats::{PipelineStats, Probed},
};

/// The suites built into the binary, by name (`--suite NAME`): bench/suites/NAME.json.
const BUILT_IN_SUITES: [(&str, &str); 5] = [
    ("default", include_str!("../../../bench/suites/default.json")),
    ("quick", include_str!("../../../bench/suites/quick.json")),
    ("diffusion", include_str!("../../../bench/suites/diffusion.json")),
    ("zoo", include_str!("../../../bench/suites/zoo.json")),
    ("zoo-throughput", include_str!("../../../bench/suites/zoo-throughput.json")),
];

/// Arguments of `wgconv bench`.
#[derive(clap::Args, Debug)]
pub struct BenchArgs {
    /// A built-in suite (`default`, `quick`, `diffusion`, `zoo`: every conv of 14 models at batch 1,
    /// `zoo-throughput`: the same at a throughput batch), or a suite file (the format is in
    /// crates/wgconv/src/suite.rs; bench/export_suite.py writes one from a PyTorch model).
    #[arg(long, default_value = "default")]
    suite: String,
    /// Timed samples per layer (the median is reported).
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u32).range(1..=10_000))]
    repeat: u32,
    /// Rounds: whole passes over the suite, one after another; each layer keeps its fastest
    /// round. On a shared GPU, episodes of what looks like outside load, lasting seconds, slowed
    /// every layer they overlapped (the H200 measured 1.2–3.6× on a stretch of consecutive
    /// layers, docs/PERFORMANCE.md v42); a layer's rounds lie one pass of the suite apart, so a
    /// suite that runs much longer than an episode rarely meets one in every round. Each round's
    /// median is kept in the JSON (`round_ms`), and layers whose rounds differ by more than 10 %
    /// are listed.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=100))]
    rounds: u32,
    /// Back-to-back launches inside each timed sample, at least: layers shorter than 1 ms in all
    /// get more, so that a sample lasts 1 ms (`timing::Sampling::min_sample_ms`; tuning and
    /// `--sweep` keep this count).
    #[arg(long, default_value_t = 20, value_parser = clap::value_parser!(u32).range(1..=10_000))]
    launches: u32,
    /// Also write the results as JSON (with device and driver info).
    #[arg(long)]
    json: Option<PathBuf>,
    /// Also time every kernel that can run each fp32 layer (GEMM kernels at several K-slice
    /// counts): the data behind the planner's rules.
    #[arg(long)]
    sweep: bool,
    /// Tune each fp32 layer first (`Conv2d::tune`: time every configuration, keep the fastest),
    /// as `torch.backends.cudnn.benchmark = True` does for cuDNN.
    #[arg(long)]
    tune: bool,
    /// With --tune: read earlier tuning results from this file (layers found there are not
    /// tuned again; a file from another device, driver or wgconv version is ignored with a
    /// warning) and write every layer's tuning back to it.
    #[arg(long, requires = "tune")]
    tune_cache: Option<PathBuf>,
    /// f32, or f16 to allow f16 multiplicands with f32 sums on tensor cores for the fp32 layers
    /// (cooperative matrices, enabled for this run; layers the tensor-core kernel does not take
    /// stay fp32). The kernel column says which ran.
    #[arg(long, default_value = "f32", value_parser = crate::args::precision)]
    precision: wgconv::Precision,
    /// f32, or f16 for f16 input, weight and output tensors on the float layers (f32 sums; the
    /// tensor-core kernel where the device has cooperative matrices, since the multiplicands
    /// are f16 already). Needs shader-f16.
    #[arg(long, default_value = "f32", value_parser = crate::args::float_dtype)]
    dtype: DType,
    /// Store the float layers' input, weight and output channels-last (NHWC), as PyTorch's
    /// `memory_format=torch.channels_last` does; the time includes any conversion the kernel
    /// that runs needs.
    #[arg(long)]
    channels_last: bool,
    /// First measure the device's ceilings (fp32 FMA rate, copy bandwidth, and with cooperative
    /// matrices their multiply-add rate and a plain f16 GEMM's), then report each layer as a
    /// share of its compute ceiling and of the copy bandwidth (its minimum bytes over its time).
    /// Enables wgpu's experimental cooperative matrices for the run where the device has them
    /// (as `--precision f16` does); fp32 layers still run the fp32 kernels.
    #[arg(long)]
    roofline: bool,
    /// Also time K independent convolutions of each float layer on one input (K outputs) in
    /// each launch, and report the slope (time of K − time of K0) / (K − K0) as the layer's
    /// parallel time (K0 is `--parallel-from`): how bench/ort_webgpu_reference.py times ONNX
    /// Runtime, whose graphs run K parallel convs. Each launch is a compute pass of its own (as
    /// each run of ORT's captured graph is), so its K dispatches may overlap on the GPU, which
    /// flatters small layers; the usual back-to-back time is reported next to it.
    #[arg(long, value_parser = clap::value_parser!(u32).range(2..=64))]
    parallel: Option<u32>,
    /// The smaller count K0 of `--parallel`'s slope (1 unless set; below K). From 1 the slope
    /// includes the first convolutions that fill an idle GPU; ORT's script takes its slope from
    /// a K0 above 1 (`--k-from`) to remove its per-run CPU floor: set the same K0 to compare.
    #[arg(long, requires = "parallel", value_parser = clap::value_parser!(u32).range(1..=63))]
    parallel_from: Option<u32>,
    /// Do not time the reference (seed) kernel: faster runs of big suites.
    #[arg(long)]
    no_reference: bool,
    /// Only the layers of these models (comma-separated `model` names of the suite): a big
    /// suite such as the zoo measured in parts.
    #[arg(long, value_delimiter = ',')]
    models: Vec<String>,
    /// Run this kernel instead of the planner's on every float layer it can run (the planner's
    /// elsewhere; the kernel column says which ran): how one kernel does across a suite, to
    /// compare with a run of the planner's choices.
    #[arg(long, value_parser = crate::args::kernel)]
    kernel: Option<ConvKernel>,
    /// The 16-deep staged GEMM tiles' K-tile loads, `ahead` or `in_iteration`, instead of the
    /// planner's on every float layer that runs those tiles (with `--kernel`, or on the
    /// planner's kernels, the fp32 Winograd kernels' products included; tuned configurations
    /// are then set aside): both loops of one binary compared layer by layer.
    #[arg(long, value_parser = crate::args::k_tile_loads)]
    k_tile_loads: Option<KTileLoads>,
    /// The order in which the staged GEMM tiles take their output tiles, `n_fastest` or
    /// `m_fastest`, instead of the planner's (rule R55) on every float layer that runs those
    /// tiles in K-slices, as `--k-tile-loads` does.
    #[arg(long, value_parser = crate::args::tile_order)]
    tile_order: Option<TileOrder>,
    /// Run this int8 kernel instead of the planner's on every int8 layer it can run (the
    /// planner's elsewhere). The tensor-core one (`q8_coop`) asks for cooperative matrices.
    #[arg(long, value_parser = crate::args::q8_kernel)]
    q8_kernel: Option<Q8Kernel>,
    /// Also report what the Vulkan driver compiled each layer's pipelines to (registers per
    /// thread on NVIDIA, and whatever else it reports through
    /// `VK_KHR_pipeline_executable_properties`): the pipelines a layer compiled first are listed
    /// under it. Each is lowered to SPIR-V as wgpu lowers it and compiled again on a Vulkan
    /// device of the CLI's own; without such a device the report says why.
    #[arg(long)]
    pipeline_stats: bool,
    /// With --pipeline-stats: also write the driver's textual internal representations of each
    /// pipeline (whatever the driver offers through the same extension) into this directory, one
    /// file per layer, pipeline and representation (`{layer}.{pipeline}.{entry}.{n}.txt`).
    #[arg(long, requires = "pipeline_stats")]
    pipeline_ir: Option<PathBuf>,
}

impl BenchArgs {
    /// `--parallel`'s smaller count K0 (`--parallel-from`, 1 unless set).
    fn parallel_from(&self) -> u32 {
        self.parallel_from.unwrap_or(1)
    }
}

/// One layer of a suite: `wgconv::suite::SuiteLayer` (its docs give the format).
pub use wgconv::suite::{SuiteLayer as Layer, SuiteOp as Op};

/// One measured layer.
#[derive(Clone, Debug, Serialize)]
pub struct LayerResult {
    /// The layer.
    #[serde(flatten)]
    pub layer: Layer,
    /// The kernel the planner chose.
    pub kernel: String,
    /// Median milliseconds per launch.
    pub median_ms: f64,
    /// GFLOP/s (fp32) or GOP/s (int8): 2 × multiply-accumulates / time.
    pub gflops: f64,
    /// The reference kernel (ported from ExecuTorch) for this layer.
    pub reference_kernel: String,
    /// Its median milliseconds per launch (none with `--no-reference`).
    pub reference_median_ms: Option<f64>,
    /// reference_median_ms / median_ms.
    pub speedup_vs_reference: Option<f64>,
    /// With `--parallel K`: milliseconds per convolution from the slope between K0 and K
    /// independent convolutions per launch (the report's `parallel`), each launch its own
    /// compute pass (from v52; before, the launches shared one pass, whose barriers serialised
    /// the K convolutions, and K0 was 1).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub parallel_ms: Option<f64>,
    /// With `--sweep`: every (kernel, K-slices) tried, fastest first.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub sweep: Vec<SweepPoint>,
    /// Bytes the layer must move at least: its input, weight and output, once each.
    pub min_bytes: u64,
    /// With `--roofline`: `gflops` as a percentage of the kernel's compute ceiling (the fp32 FMA
    /// rate; the faster cooperative-matrix GEMM's for `coop_f16`; for int8, the fp32 FMA rate ×4,
    /// as `dot4I8Packed` does four multiply-adds per instruction — an assumption that it issues
    /// at the FMA rate, not a measurement).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub percent_of_compute_ceiling: Option<f64>,
    /// With `--roofline`: `min_bytes` over the time, as a percentage of the copy bandwidth.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub percent_of_copy_bandwidth: Option<f64>,
    /// With `--pipeline-stats`: the pipelines this layer compiled first (an earlier layer's are
    /// listed under it), with the driver's statistics.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub pipelines: Vec<PipelineStats>,
    /// With `--rounds` above 1: each round's median milliseconds, in order (`median_ms` and the
    /// other timings are the fastest round's).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub round_ms: Vec<f64>,
}

/// Rounds whose medians differ by more than this factor make a layer unsteady (`--rounds`).
const UNSTEADY_SPREAD: f64 = 1.10;

impl LayerResult {
    /// Folds another round over the same layer in: its median joins `round_ms`, and its timings
    /// replace these when faster (outside load only ever slows a round). The reference kernel's
    /// time and the parallel time keep their own fastest rounds. The sweep is the kept round's,
    /// or the earlier one where the kept round has none (`--tune` sweeps only in the first
    /// round: later rounds find the layer tuned).
    fn keep_fastest(&mut self, next: LayerResult) {
        fn fastest(a: Option<f64>, b: Option<f64>) -> Option<f64> {
            match (a, b) {
                (Some(a), Some(b)) => Some(a.min(b)),
                (a, b) => a.or(b),
            }
        }
        if self.round_ms.is_empty() {
            self.round_ms.push(self.median_ms);
        }
        self.round_ms.push(next.median_ms);
        let reference_ms = fastest(self.reference_median_ms, next.reference_median_ms);
        let parallel_ms = fastest(self.parallel_ms, next.parallel_ms);
        if next.median_ms < self.median_ms {
            let round_ms = std::mem::take(&mut self.round_ms);
            let earlier_sweep = std::mem::take(&mut self.sweep);
            *self = LayerResult { round_ms, ..next };
            if self.sweep.is_empty() {
                self.sweep = earlier_sweep;
            }
        }
        self.reference_median_ms = reference_ms;
        self.speedup_vs_reference = reference_ms.map(|r| r / self.median_ms);
        self.parallel_ms = parallel_ms;
    }

    /// The slowest round over the fastest, where that exceeds [`UNSTEADY_SPREAD`].
    fn unsteady_spread(&self) -> Option<f64> {
        let (min, max) = self.round_ms.iter().fold((f64::INFINITY, 0.0f64), |(lo, hi), &ms| (lo.min(ms), hi.max(ms)));
        (min > 0.0 && max / min > UNSTEADY_SPREAD).then(|| max / min)
    }
}

/// One configuration timed by `--sweep`.
#[derive(Clone, Debug, Serialize)]
pub struct SweepPoint {
    /// Kernel.
    pub kernel: String,
    /// K-slices forced by the configuration (1 for kernels without split-K, with stream-K, and
    /// for the small-grid kernels, which slice K by their own rule).
    pub split_k: u32,
    /// Stream-K workgroups, when the configuration uses stream-K.
    pub stream_k: Option<u32>,
    /// GEMM tile width (output columns per workgroup); none for other kernels.
    pub tile_n: Option<u32>,
    /// The 16-deep tiles' K-tile loads where the configuration sets them (`ahead` or
    /// `in_iteration`: the loop the planner does not pick for the tile); none: the planner's.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub k_tile_loads: Option<&'static str>,
    /// The configuration as `kernel`, `kernel/kN` (N K-slices), `kernel/streamW`, with `/nW`
    /// after the kernel for a tile width other than its default and `/ahead` or `/in_iteration`
    /// for K-tile loads other than the planner's.
    pub config: String,
    /// Median milliseconds per launch.
    pub median_ms: f64,
}

/// A tuning's candidates as sweep points.
fn sweep_points(tuning: &wgconv::Tuning) -> Vec<SweepPoint> {
    tuning
        .candidates
        .iter()
        .map(|c| SweepPoint {
            kernel: c.config.kernel.name().to_string(),
            split_k: match c.config.schedule {
                Some(GemmSchedule::SplitK(splits)) => splits,
                _ => 1,
            },
            stream_k: match c.config.schedule {
                Some(GemmSchedule::StreamK(workgroups)) => Some(workgroups),
                _ => None,
            },
            tile_n: c.config.tile_n,
            k_tile_loads: c.config.k_tile_loads.map(KTileLoads::name),
            config: c.config.to_string(),
            median_ms: c.ms,
        })
        .collect()
}

/// Host cost of a prepared 3×3 convolution on a 1×16×16×16 input (pipelines cached), mean over
/// `calls`.
#[derive(Clone, Copy, Debug, Serialize)]
struct HostCost {
    /// Recording one op into an open batch.
    record_us: f64,
    /// One op recorded into its own batch and submitted: host time inside our calls only, so a
    /// GPU that falls behind on tiny submissions does not count (the GPU idles between calls).
    call_us: f64,
    /// The same loop's wall time, back to back with no pause: bounded by how fast the driver and
    /// GPU retire one submission each.
    back_to_back_us: f64,
    /// The floor under `call_us` set by wgpu and the driver: an empty command encoder created,
    /// finished and submitted, timed the same way.
    empty_submit_us: f64,
    /// One validation + out-of-memory error-scope pair pushed and popped (each op and each
    /// submission is wrapped in one, so that wgpu errors come back as typed errors).
    error_scopes_us: f64,
}

fn host_cost(ctx: &Context, calls: u32) -> CliResult<HostCost> {
    let x = Tensor::from_f32(ctx, &data(5, 16 * 16 * 16), &[1, 16, 16, 16])?;
    let w = Tensor::from_f32(ctx, &data(6, 16 * 16 * 9), &[16, 16, 3, 3])?;
    let conv = Conv2d::new(ctx, &w, None, &ConvOptions::default().padding(&[1]))?;
    let out = Tensor::zeros(ctx, &[1, 16, 16, 16], DType::F32)?;
    let mut batch = ctx.batch();
    conv.run_into(&mut batch, &x, &out)?;
    let start = std::time::Instant::now();
    for _ in 0..calls {
        conv.run_into(&mut batch, &x, &out)?;
    }
    let record_us = start.elapsed().as_secs_f64() * 1e6 / f64::from(calls);
    batch.submit()?;
    ctx.synchronize()?;
    // Each call on an idle GPU: time only record + submit, then wait outside the clock.
    let mut inside = std::time::Duration::ZERO;
    for _ in 0..calls {
        let start = std::time::Instant::now();
        let mut batch = ctx.batch();
        conv.run_into(&mut batch, &x, &out)?;
        batch.submit()?;
        inside += start.elapsed();
        ctx.synchronize()?;
    }
    let call_us = inside.as_secs_f64() * 1e6 / f64::from(calls);
    let start = std::time::Instant::now();
    for _ in 0..calls {
        let mut batch = ctx.batch();
        conv.run_into(&mut batch, &x, &out)?;
        batch.submit()?;
    }
    let back_to_back_us = start.elapsed().as_secs_f64() * 1e6 / f64::from(calls);
    ctx.synchronize()?;
    let device = ctx.device();
    let mut inside = std::time::Duration::ZERO;
    for _ in 0..calls {
        let start = std::time::Instant::now();
        let encoder = device.create_command_encoder(&wgpu::CommandEncoderDescriptor { label: None });
        ctx.queue().submit([encoder.finish()]);
        inside += start.elapsed();
        ctx.synchronize()?;
    }
    let empty_submit_us = inside.as_secs_f64() * 1e6 / f64::from(calls);
    let start = std::time::Instant::now();
    for _ in 0..calls {
        let oom = device.push_error_scope(wgpu::ErrorFilter::OutOfMemory);
        let validation = device.push_error_scope(wgpu::ErrorFilter::Validation);
        let _ = pollster::block_on(validation.pop());
        let _ = pollster::block_on(oom.pop());
    }
    let error_scopes_us = start.elapsed().as_secs_f64() * 1e6 / f64::from(calls);
    Ok(HostCost { record_us, call_us, back_to_back_us, empty_submit_us, error_scopes_us })
}

#[derive(Serialize)]
struct Report<'a> {
    wgconv_version: &'static str,
    host_cost: HostCost,
    device: DeviceInfo,
    timing: &'static str,
    samples: u32,
    /// Rounds over the suite (`--rounds`); each layer reports its fastest.
    rounds: u32,
    /// Launches per sample at least: layers whose samples would last under `min_sample_ms` get
    /// more.
    launches_per_sample: u32,
    min_sample_ms: f64,
    /// `f32`, or `f16` when f16 multiplicands were allowed (`--precision f16`).
    precision: &'static str,
    /// The float layers' tensors: `float32`, or `float16` (`--dtype f16`).
    dtype: &'static str,
    /// Their memory format: `contiguous_format`, or `channels_last` (`--channels-last`).
    memory_format: &'static str,
    /// With `--kernel`: the kernel run instead of the planner's wherever it could run.
    #[serde(skip_serializing_if = "Option::is_none")]
    forced_kernel: Option<&'static str>,
    /// With `--q8-kernel`: the int8 kernel run instead of the planner's wherever it could run.
    #[serde(skip_serializing_if = "Option::is_none")]
    forced_q8_kernel: Option<&'static str>,
    /// With `--k-tile-loads`: the 16-deep staged tiles' K-tile loads wherever they ran.
    #[serde(skip_serializing_if = "Option::is_none")]
    forced_k_tile_loads: Option<&'static str>,
    /// With `--tile-order`: the staged tiles' tile order wherever they ran in K-slices.
    #[serde(skip_serializing_if = "Option::is_none")]
    forced_tile_order: Option<&'static str>,
    /// With `--parallel`: how the layers' `parallel_ms` were timed.
    #[serde(skip_serializing_if = "Option::is_none")]
    parallel: Option<ParallelReport>,
    /// With `--roofline`: the device's ceilings.
    #[serde(skip_serializing_if = "Option::is_none")]
    roofline: Option<RooflineReport>,
    layers: &'a [LayerResult],
    /// Per model (the layers' `model`): the summed time of its layers, each × its count.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    models: Vec<ModelTotal>,
}

/// A model's summed convolution time.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ModelTotal {
    /// The model.
    pub model: String,
    /// Σ layer median ms × count.
    pub ms: f64,
    /// Distinct layers.
    pub layers: usize,
    /// Layer occurrences (Σ count).
    pub convolutions: u64,
}

/// The summed time of each model's layers (each × its count), in the order models first appear;
/// layers without a model are left out.
pub fn model_totals(results: &[LayerResult]) -> Vec<ModelTotal> {
    let mut totals: Vec<ModelTotal> = Vec::new();
    for r in results {
        let Some(model) = &r.layer.model else { continue };
        let at = match totals.iter().position(|t| &t.model == model) {
            Some(at) => at,
            None => {
                totals.push(ModelTotal { model: model.clone(), ms: 0.0, layers: 0, convolutions: 0 });
                totals.len() - 1
            }
        };
        let total = &mut totals[at];
        total.ms += r.median_ms * f64::from(r.layer.count);
        total.layers += 1;
        total.convolutions += u64::from(r.layer.count);
    }
    totals
}

/// `wgconv::roofline::Roofline` as JSON.
#[derive(Clone, Debug, Serialize)]
struct RooflineReport {
    fma_gflops: f64,
    dot4_gops: f64,
    copy_gbps: f64,
    copy_bytes: u64,
    coop_mma_gflops: Option<f64>,
    coop_gemm_gflops: Option<f64>,
    coop_gemm_direct_gflops: Option<f64>,
    coop_gemm_variants: Option<Vec<(&'static str, f64)>>,
    coop_gemm_size: Option<u32>,
    coop_gemm_relative_error: Option<f64>,
    coop_gemm_wrong: Option<Vec<(&'static str, f64)>>,
    coop_unavailable: Option<String>,
}

impl From<&Roofline> for RooflineReport {
    fn from(r: &Roofline) -> Self {
        let coop = r.coop.as_ref().ok();
        Self {
            fma_gflops: r.fma_gflops,
            dot4_gops: r.dot4_gops,
            copy_gbps: r.copy_gbps,
            copy_bytes: r.copy_bytes,
            coop_mma_gflops: coop.map(|c| c.mma_gflops),
            coop_gemm_gflops: coop.map(|c| c.gemm_gflops),
            coop_gemm_direct_gflops: coop.map(|c| c.gemm_direct_gflops),
            coop_gemm_variants: coop.map(|c| c.gemm_variants.clone()),
            coop_gemm_size: coop.map(|c| c.gemm_size),
            coop_gemm_relative_error: coop.map(|c| c.gemm_relative_error),
            coop_gemm_wrong: coop.map(|c| c.gemm_wrong.clone()),
            coop_unavailable: r.coop.as_ref().err().cloned(),
        }
    }
}

/// Measures the ceilings and prints them (small problems on a CPU rasteriser).
fn measure_roofline(ctx: &Context, args: &BenchArgs) -> CliResult<Roofline> {
    let small = ctx.adapter_info().device_type == wgpu::DeviceType::Cpu;
    let r = wgconv::roofline::measure(ctx, &sampling(args), small)?;
    println!(
        "roofline: fp32 FMA {:.1} TFLOP/s; int8 dot4I8Packed {:.1} TOP/s; copy {:.0} GB/s ({} MiB read and written)",
        r.fma_gflops / 1e3,
        r.dot4_gops / 1e3,
        r.copy_gbps,
        r.copy_bytes >> 20
    );
    match &r.coop {
        Ok(c) => println!(
            "roofline: f16 cooperative matrices {:.1} TFLOP/s from workgroup memory; a {n}×{n}×{n} GEMM {:.1} TFLOP/s staged through workgroup memory, {:.1} loading fragments from global memory (checked: relative error {:.1e} at 256³)",
            c.mma_gflops / 1e3,
            c.gemm_gflops / 1e3,
            c.gemm_direct_gflops / 1e3,
            c.gemm_relative_error,
            n = c.gemm_size
        ),
        Err(why) => println!("roofline: cooperative matrices not measured: {why}"),
    }
    if let Ok(c) = &r.coop {
        let variants: Vec<String> =
            c.gemm_variants.iter().map(|(name, rate)| format!("{name} {:.1}", rate / 1e3)).collect();
        println!("roofline: staged GEMM variants (TFLOP/s): {}", variants.join(", "));
        for (name, error) in &c.gemm_wrong {
            println!(
                "roofline: staged GEMM variant {name} is wrong on this device (relative error {error:e} at 256³): not timed"
            );
        }
    }
    Ok(r)
}

/// Fills in a layer's shares of `roofline`: the tensor-core kernels' of the staged
/// cooperative-matrix GEMM, the other int8 kernels' of the `dot4I8Packed` rate, the rest's of the
/// fp32 FMA rate.
fn apply_roofline(r: &mut LayerResult, roofline: &Roofline) {
    let coop = roofline.coop.as_ref().map(|c| c.gemm_gflops.max(c.gemm_direct_gflops));
    let ceiling = if r.kernel.starts_with("coop") || r.kernel == wgconv::Q8Kernel::Coop.name() {
        coop.unwrap_or(roofline.fma_gflops)
    } else if r.layer.op == Op::Q8ConvPw {
        roofline.dot4_gops
    } else {
        roofline.fma_gflops
    };
    r.percent_of_compute_ceiling = Some(100.0 * r.gflops / ceiling);
    let gbps = r.min_bytes as f64 / (r.median_ms * 1e-3) / 1e9;
    r.percent_of_copy_bandwidth = Some(100.0 * gbps / roofline.copy_gbps);
}

#[derive(Serialize)]
struct DeviceInfo {
    name: String,
    backend: String,
    device_type: String,
    driver: String,
    driver_info: String,
}

pub(crate) fn load_suite(name: &str) -> CliResult<Vec<Layer>> {
    let (text, origin) = match BUILT_IN_SUITES.iter().find(|(built_in, _)| *built_in == name) {
        Some((_, text)) => (text.to_string(), format!("built-in {name} suite")),
        None => (
            std::fs::read_to_string(name).map_err(|e| CliError::Usage(format!("{name}: cannot read suite: {e}")))?,
            name.to_string(),
        ),
    };
    let layers = Layer::parse_suite(&text).map_err(|e| CliError::Usage(format!("{origin}: invalid suite: {e}")))?;
    if layers.is_empty() {
        return Err(CliError::Usage(format!("{origin}: the suite has no layers")));
    }
    Ok(layers)
}

/// The geometry of float `layer` (its shapes and bias) under `opts`.
pub(crate) fn layer_geometry(layer: &Layer, opts: &ConvOptions) -> wgconv::Result<ConvGeometry> {
    let bias = [layer.oc];
    ConvGeometry::new(&layer.input_shape(), &layer.weight_shape(), layer.bias.then_some(&bias[..]), opts)
}

/// How `--parallel` timed the layers: the slope between `from` and `k` convolutions a launch.
#[derive(Serialize)]
struct ParallelReport {
    k: u32,
    from: u32,
    /// `own_compute_pass`: each launch recorded into a compute pass of its own (from v52;
    /// reports without this record shared one pass, and their K convolutions ran serialised).
    launch: &'static str,
}

/// The layers of `models` (all when empty); a name no layer has is a usage error listing those
/// the suite has.
pub(crate) fn select_models(layers: Vec<Layer>, models: &[String]) -> CliResult<Vec<Layer>> {
    if models.is_empty() {
        return Ok(layers);
    }
    let known: std::collections::BTreeSet<&str> = layers.iter().filter_map(|l| l.model.as_deref()).collect();
    if let Some(missing) = models.iter().find(|m| !known.contains(m.as_str())) {
        let known: Vec<&str> = known.into_iter().collect();
        return Err(CliError::Usage(format!(
            "--models: the suite has no model {missing:?} (it has: {})",
            if known.is_empty() { "none".to_string() } else { known.join(", ") }
        )));
    }
    Ok(layers.into_iter().filter(|l| l.model.as_ref().is_some_and(|m| models.contains(m))).collect())
}

/// The float layers' memory format (`--channels-last`).
fn memory_format(args: &BenchArgs) -> MemoryFormat {
    if args.channels_last { MemoryFormat::ChannelsLast } else { MemoryFormat::Contiguous }
}

/// Deterministic data in [-1, 1) for benchmarks (values do not affect timing).
fn data(seed: u64, count: usize) -> Vec<f32> {
    let mut s = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
    (0..count)
        .map(|_| {
            s = s.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
            ((s >> 40) as f32 / (1u64 << 24) as f32) * 2.0 - 1.0
        })
        .collect()
}

fn median_time(
    ctx: &Context,
    args: &BenchArgs,
    record: impl FnMut(&mut wgconv::Batch<'_>) -> wgconv::Result<()>,
) -> CliResult<(f64, TimingSource)> {
    let t = timing::median_time(ctx, &sampling(args), record)?;
    Ok((t.ms_per_run, t.source))
}

fn sampling(args: &BenchArgs) -> timing::Sampling {
    // Longer warm-up and samples of at least a millisecond than the library's defaults: a bench
    // must keep the GPU at its clocks through a suite of 20 µs layers (timing::Sampling).
    timing::Sampling {
        samples: args.repeat,
        launches: args.launches,
        warm_up_ms: 100.0,
        warm_up_wall: std::time::Duration::from_secs(1),
        min_sample_ms: 1.0,
    }
}

fn run_layer(ctx: &Context, layer: &Layer, args: &BenchArgs) -> CliResult<(LayerResult, TimingSource)> {
    let bad = |e: wgconv::Error| CliError::Usage(format!("layer {}: {e}", layer.name));
    let input_shape = layer.input_shape();
    let mut sweep = Vec::new();
    let (kernel, median_ms, reference_kernel, reference_ms, parallel_ms, macs, min_bytes, source) = match layer.op {
        Op::Q8ConvPw => {
            let x: Vec<i8> = data(3, input_shape.iter().product()).iter().map(|v| (v * 127.0) as i8).collect();
            let w: Vec<i8> = data(4, layer.oc * layer.ic).iter().map(|v| (v * 127.0) as i8).collect();
            let xt = Tensor::from_i8(ctx, &x, &input_shape)?;
            let wt = Tensor::from_i8(ctx, &w, &[layer.oc, layer.ic])?;
            let st = Tensor::from_f32(ctx, &vec![0.01; layer.oc], &[layer.oc])?;
            let q = QuantParams::new(0.05, 0);
            let args_q8 = Q8ConvPwArgs {
                input: &xt,
                input_quant: q,
                weight: &wt,
                weight_scales: &st,
                weight_sums: None,
                bias: None,
                output_quant: q,
            };
            let opts = Q8ConvPwOptions {
                stride: layer.stride.to_vec(),
                padding: layer.padding.to_vec(),
                groups: layer.groups,
                ..Default::default()
            };
            let geometry = wgconv::Q8PwGeometry::new(&args_q8, &opts).map_err(bad)?;
            if layer.filter() != (1, 1) {
                let (kh, kw) = layer.filter();
                return Err(CliError::Usage(format!(
                    "layer {}: q8_conv_pw needs a 1×1 filter, got {kh}×{kw}",
                    layer.name
                )));
            }
            let out = Tensor::zeros(ctx, &geometry.output_shape(), DType::I8)?;
            let mut chosen = geometry.planned_kernel_with(ctx.cooperative_f16());
            // `--q8-kernel` where it can run here (recording it once, unsubmitted, tells).
            let forced = args.q8_kernel.filter(|kernel| {
                let mut probe = ctx.batch();
                probe.q8ta_conv2d_pw_into_forced(&args_q8, &opts, *kernel, &out).is_ok()
            });
            let (ms, source) = median_time(ctx, args, |b| {
                match forced {
                    Some(kernel) => b.q8ta_conv2d_pw_into_forced(&args_q8, &opts, kernel, &out),
                    None => b.q8ta_conv2d_pw_into(&args_q8, &opts, &out),
                }
                .map(|k| chosen = k)
            })?;
            let reference = Q8Kernel::Scalar;
            let reference_ms = if chosen == reference {
                Some(ms)
            } else if args.no_reference {
                None
            } else {
                let run = |b: &mut wgconv::Batch<'_>| b.q8ta_conv2d_pw_into_forced(&args_q8, &opts, reference, &out);
                Some(median_time(ctx, args, |b| run(b).map(|_| ()))?.0)
            };
            let macs = (input_shape.iter().product::<usize>() / layer.ic * layer.oc * layer.ic) as u64;
            let outputs: usize = geometry.output_shape().iter().product();
            let bytes = (x.len() + w.len() + outputs) as u64 + 4 * layer.oc as u64;
            (chosen.name().to_string(), ms, reference.name().to_string(), reference_ms, None, macs, bytes, source)
        }
        op => {
            let transposed = op.is_transposed();
            let weight_shape = layer.weight_shape();
            let opts = layer.options().map_err(bad)?.precision(args.precision);
            let oc = layer.oc;
            let geometry = layer_geometry(layer, &opts).map_err(bad)?;
            // Channels-last is a rank-4 layout: 1D layers keep theirs.
            let format = if op.is_1d() { MemoryFormat::Contiguous } else { memory_format(args) };
            let x = Tensor::from_f32_as(ctx, &data(1, input_shape.iter().product()), &input_shape, args.dtype)?;
            let x = ctx.to_memory_format(&x, format)?;
            let w = Tensor::from_f32_as(ctx, &data(2, weight_shape.iter().product()), &weight_shape, args.dtype)?;
            let w = ctx.to_memory_format(&w, format)?;
            let out = Tensor::zeros(ctx, &geometry.output_shape(), args.dtype)?.with_memory_format(format)?;
            let bias = layer.bias.then(|| Tensor::from_f32_as(ctx, &data(3, oc), &[oc], args.dtype)).transpose()?;
            // Prepared once for this input (weight prepacked, and transformed for the Winograd
            // kernel `--kernel` forces or the planner runs), run many times: what a model does.
            let conv = match args.kernel {
                Some(kernel) => Conv2d::new_forced(ctx, &w, bias.as_ref(), &opts, &ForcedPlan::kernel(kernel))?,
                None => Conv2d::new_for_input(ctx, &w, bias.as_ref(), &opts, &input_shape)?,
            };
            if args.sweep || (args.tune && ctx.tuned(&geometry).is_none()) {
                let tuning = conv.tune(ctx, &input_shape, &sampling(args))?;
                for (config, error) in &tuning.skipped {
                    eprintln!("layer {}: {config} cannot run here: {error}", layer.name);
                }
                sweep = sweep_points(&tuning);
                if !args.tune {
                    ctx.forget_tuning();
                }
            }
            // Labelled with the kernel that ran (the planner's may fall back on a device with
            // less workgroup memory); tuned layers with their whole configuration.
            let mut chosen = geometry.planned_kernel();
            // `--kernel` (and `--k-tile-loads`, `--tile-order`) where it can run here: recording
            // it once (unsubmitted) tells, whatever stops it (the shape, the device's workgroup
            // memory or cooperative matrices). Where the kernel cannot run, the loads and order
            // alone still apply to the planner's kernel.
            let runs_here = |plan: &ForcedPlan| {
                let mut probe = ctx.batch();
                conv.run_into_forced(&mut probe, &x, &out, plan).is_ok()
            };
            let loads_only =
                ForcedPlan { k_tile_loads: args.k_tile_loads, tile_order: args.tile_order, ..ForcedPlan::default() };
            let forced = [ForcedPlan { kernel: args.kernel, ..loads_only }, loads_only]
                .into_iter()
                .filter(|plan| !plan.is_empty())
                .find(runs_here);
            let run = |b: &mut wgconv::Batch<'_>, out: &Tensor| match &forced {
                Some(plan) => conv.run_into_forced(b, &x, out, plan),
                None => conv.run_into(b, &x, out),
            };
            let (ms, source) = median_time(ctx, args, |b| run(b, &out).map(|k| chosen = k))?;
            // (With f16 allowed the tensor-core kernel runs ahead of a tuned fp32 configuration;
            // a forced kernel runs the planner's tile and schedule, not a tuned one's.)
            let label = ctx
                .tuned(&geometry)
                .filter(|t| t.kernel == chosen && forced.is_none())
                .map_or_else(|| chosen.name().to_string(), |t| t.to_string());
            let reference = if transposed { ConvKernel::Transposed } else { ConvKernel::Direct };
            // Right after the back-to-back time, before the reference kernel runs: the slope
            // compares two timings of one warm GPU.
            let parallel_ms = match args.parallel {
                Some(k) => {
                    let outs = (0..k)
                        .map(|_| Tensor::zeros(ctx, &geometry.output_shape(), args.dtype)?.with_memory_format(format))
                        .collect::<wgconv::Result<Vec<_>>>()?;
                    // Each launch in a compute pass of its own, as each run of ORT's captured
                    // graph is: in one pass, every output written again by the next launch
                    // would put a barrier before each dispatch and serialise the K convs
                    // (before v52 they shared one). The pass boundary's cost is in both times.
                    let record = |b: &mut wgconv::Batch<'_>, outs: &[Tensor]| {
                        b.start_new_pass();
                        outs.iter().try_for_each(|o| run(b, o).map(|_| ()))
                    };
                    let from = args.parallel_from();
                    let (from_ms, _) = median_time(ctx, args, |b| record(b, &outs[..from as usize]))?;
                    let (all_ms, _) = median_time(ctx, args, |b| record(b, &outs))?;
                    Some((all_ms - from_ms) / f64::from(k - from))
                }
                None => None,
            };
            let reference_ms = if reference == chosen {
                Some(ms)
            } else if args.no_reference {
                None
            } else {
                let forced = ForcedPlan::kernel(reference);
                Some(median_time(ctx, args, |b| conv.run_into_forced(b, &x, &out, &forced).map(|_| ()))?.0)
            };
            let elements = input_shape.iter().product::<usize>()
                + weight_shape.iter().product::<usize>()
                + geometry.output_shape().iter().product::<usize>()
                + if layer.bias { oc } else { 0 };
            let bytes = args.dtype.element_bytes() * elements as u64;
            (label, ms, reference.name().to_string(), reference_ms, parallel_ms, geometry.macs(), bytes, source)
        }
    };
    let gflops = 2.0 * macs as f64 / (median_ms * 1e-3) / 1e9;
    let result = LayerResult {
        layer: layer.clone(),
        kernel,
        median_ms,
        gflops,
        reference_kernel,
        reference_median_ms: reference_ms,
        speedup_vs_reference: reference_ms.map(|r| r / median_ms),
        parallel_ms,
        sweep,
        min_bytes,
        percent_of_compute_ceiling: None,
        percent_of_copy_bandwidth: None,
        round_ms: Vec::new(),
        pipelines: Vec::new(),
    };
    Ok((result, source))
}

/// Runs `wgconv bench`.
pub fn run(args: &BenchArgs) -> CliResult<()> {
    if let (Some(k), Some(from)) = (args.parallel, args.parallel_from)
        && from >= k
    {
        return Err(CliError::Usage(format!("--parallel-from {from} must be below --parallel {k}")));
    }
    let layers = select_models(load_suite(&args.suite)?, &args.models)?;
    // The roofline measures cooperative matrices where the device has them: ask for them (the
    // layers still run at `args.precision`; the planner uses them only with f16 allowed).
    // f16 tensors run on the tensor cores where the device has them: ask for them too.
    // So do the int8 tensor-core kernels when forced.
    let coop_request =
        if args.roofline || args.dtype == DType::F16 || args.q8_kernel.is_some_and(Q8Kernel::is_tensor_core) {
            wgconv::Precision::AllowF16
        } else {
            args.precision
        };
    let ctx = crate::context_for(coop_request, None)?;
    eprintln!("device: {}", ctx.describe());
    if let Some(path) = args.tune_cache.as_ref().filter(|p| p.exists()) {
        let text = std::fs::read_to_string(path)
            .map_err(|e| CliError::Usage(format!("cannot read {}: {e}", path.display())))?;
        match ctx.import_tuning(&text) {
            Ok(count) => eprintln!("tuning: {count} layers from {}", path.display()),
            Err(e) => eprintln!("tuning: ignoring {} ({e}); tuning again", path.display()),
        }
    }
    let roofline = if args.roofline { Some(measure_roofline(&ctx, args)?) } else { None };
    let steps = layers.len() * args.rounds as usize;
    let progress = ProgressBar::new(steps as u64);
    progress.set_style(ProgressStyle::with_template("{bar:30} {pos}/{len} {msg}").expect("static template"));
    let mut results: Vec<LayerResult> = Vec::new();
    let mut source = TimingSource::GpuTimestamps;
    // With --pipeline-stats: each layer's first-compiled pipelines, as (layer index, pipeline).
    let mut first_compiled = Vec::new();
    // Whole rounds one after another, so that the rounds of one layer lie a pass of the suite apart.
    for (step, (index, layer)) in (0..args.rounds).flat_map(|_| layers.iter().enumerate()).enumerate() {
        progress.set_message(layer.name.clone());
        let before = if args.pipeline_stats { ctx.compiled_pipelines() } else { Vec::new() };
        let (r, s) = run_layer(&ctx, layer, args)?;
        if args.pipeline_stats {
            let new = ctx.compiled_pipelines().into_iter().filter(|p| !before.contains(p));
            first_compiled.extend(new.map(|p| (index, p)));
        }
        // Without a terminal the bar draws nothing: a line per layer and round shows progress in
        // logs and keeps what a run cut short had measured.
        if !std::io::stderr().is_terminal() {
            let sweep: Vec<String> = r.sweep.iter().map(|p| format!("{} {:.4}", p.config, p.median_ms)).collect();
            eprintln!(
                "{}/{} {} {} {:.4} ms {}",
                step + 1,
                steps,
                r.layer.name,
                r.kernel,
                r.median_ms,
                sweep.join(", ")
            );
        }
        source = s;
        match results.get_mut(index) {
            Some(kept) => kept.keep_fastest(r),
            None => results.push(r),
        }
        progress.inc(1);
    }
    progress.finish_and_clear();
    if let Some(roofline) = &roofline {
        results.iter_mut().for_each(|r| apply_roofline(r, roofline));
    }
    if args.pipeline_stats {
        let (at, pipelines): (Vec<usize>, Vec<_>) = first_compiled.into_iter().unzip();
        let info = ctx.adapter_info();
        let target = crate::pipeline_stats::ProbeTarget {
            vendor_device: Some((info.vendor, info.device)),
            subgroups: ctx.device().features().contains(wgpu::Features::SUBGROUP),
            checks: ctx.shader_checks(),
            capture_representations: args.pipeline_ir.is_some(),
        };
        let (prober_device, stats) = crate::pipeline_stats::collect(&pipelines, target);
        eprintln!("pipeline statistics from: {}", prober_device.as_deref().unwrap_or("(no device)"));
        for (index, stats) in at.into_iter().zip(stats) {
            let layer = &mut results[index];
            if let Some(dir) = &args.pipeline_ir {
                // The timings matter more than the representations: a failed write is reported.
                let written =
                    crate::pipeline_stats::write_representations(dir, &layer.layer.name, layer.pipelines.len(), &stats);
                if let Probed::Statistics { representations_error: Some(why), .. } = &stats.statistics {
                    eprintln!("layer {}, {}: no representations: {why}", layer.layer.name, stats.entry);
                }
                if let Err(e) = written {
                    eprintln!("{}: cannot write representations of layer {}: {e}", dir.display(), layer.layer.name);
                }
            }
            layer.pipelines.push(stats);
        }
    }
    if let Some(path) = &args.tune_cache {
        std::fs::write(path, ctx.export_tuning())
            .map_err(|e| CliError::Runtime(format!("cannot write {}: {e}", path.display())))?;
    }
    println!(
        "{:<26} {:<34} {:<15} {:>10} {:>12} {:>8}{}",
        "layer",
        "shape (N, IC→OC, H×W, k s p g)",
        "kernel",
        "median ms",
        "GFLOP/s",
        "vs ref",
        if args.parallel.is_some() { "  parallel ms" } else { "" }
    );
    for r in &results {
        let vs_reference = r.speedup_vs_reference.map_or_else(|| "-".to_string(), |s| format!("{s:.2}×"));
        let parallel = r.parallel_ms.map_or_else(String::new, |p| format!(" {p:>12.4}"));
        println!(
            "{:<26} {:<34} {:<15} {:>10.4} {:>12.1} {:>8}{parallel}",
            r.layer.name,
            r.layer.shape_text(),
            r.kernel,
            r.median_ms,
            r.gflops,
            vs_reference
        );
    }
    if roofline.is_some() {
        println!("{:<26} {:<15} {:>18} {:>18}", "layer", "kernel", "% compute ceiling", "% copy bandwidth");
        for r in &results {
            println!(
                "{:<26} {:<15} {:>17.1}% {:>17.1}%",
                r.layer.name,
                r.kernel,
                r.percent_of_compute_ceiling.unwrap_or(f64::NAN),
                r.percent_of_copy_bandwidth.unwrap_or(f64::NAN)
            );
        }
    }
    for r in results.iter().filter(|r| !r.pipelines.is_empty()) {
        for p in &r.pipelines {
            println!("pipeline {}: {}", r.layer.name, p.summary());
        }
    }
    for r in results.iter().filter(|r| !r.sweep.is_empty()) {
        let points: Vec<String> = r.sweep.iter().map(|p| format!("{} {:.4}", p.config, p.median_ms)).collect();
        println!("sweep {}: {}", r.layer.name, points.join(", "));
    }
    let models = model_totals(&results);
    for m in &models {
        println!(
            "model {}: {:.4} ms of convolutions ({} distinct layers, {} convolutions, each layer × its count)",
            m.model, m.ms, m.layers, m.convolutions
        );
    }
    for r in &results {
        if let Some(spread) = r.unsteady_spread() {
            let rounds: Vec<String> = r.round_ms.iter().map(|ms| format!("{ms:.4}")).collect();
            println!(
                "unsteady {}: rounds {} ms ({spread:.2}× apart; the fastest is reported)",
                r.layer.name,
                rounds.join(", ")
            );
        }
    }
    println!(
        "timing: {:?}, median of {} samples × at least {} launches (more for layers under 1 ms a sample){}",
        source,
        args.repeat,
        args.launches,
        if args.rounds > 1 { format!(", fastest of {} rounds over the suite", args.rounds) } else { String::new() }
    );
    let host = host_cost(&ctx, 500)?;
    println!(
        "host cost per op (pipelines cached): {:.1} µs to record into a batch, {:.1} µs to record and submit \
         alone ({:.1} µs per call back to back, GPU included); an empty submission {:.1} µs, an error-scope pair {:.2} µs",
        host.record_us, host.call_us, host.back_to_back_us, host.empty_submit_us, host.error_scopes_us
    );
    if let Some(path) = &args.json {
        let info = ctx.adapter_info();
        let device = DeviceInfo {
            name: info.name.clone(),
            backend: format!("{:?}", info.backend),
            device_type: format!("{:?}", info.device_type),
            driver: info.driver.clone(),
            driver_info: info.driver_info.clone(),
        };
        let report = Report {
            wgconv_version: env!("CARGO_PKG_VERSION"),
            host_cost: host,
            device,
            timing: match source {
                TimingSource::GpuTimestamps => "gpu_timestamps",
                TimingSource::WallClock => "wall_clock",
            },
            samples: args.repeat,
            rounds: args.rounds,
            launches_per_sample: args.launches,
            min_sample_ms: sampling(args).min_sample_ms,
            precision: if args.precision == wgconv::Precision::AllowF16 { "f16" } else { "f32" },
            dtype: args.dtype.name(),
            memory_format: if args.channels_last {
                MemoryFormat::ChannelsLast.name()
            } else {
                MemoryFormat::Contiguous.name()
            },
            forced_kernel: args.kernel.map(ConvKernel::name),
            forced_q8_kernel: args.q8_kernel.map(Q8Kernel::name),
            forced_k_tile_loads: args.k_tile_loads.map(KTileLoads::name),
            forced_tile_order: args.tile_order.map(TileOrder::name),
            parallel: args.parallel.map(|k| ParallelReport {
                k,
                from: args.parallel_from(),
                launch: "own_compute_pass",
            }),
            roofline: roofline.as_ref().map(RooflineReport::from),
            layers: &results,
            models,
        };
        let text = serde_json::to_string_pretty(&report).map_err(|e| CliError::Runtime(e.to_string()))?;
        std::fs::write(path, text).map_err(|e| CliError::Runtime(format!("{}: cannot write: {e}", path.display())))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn built_in_suites_parse() {
        let default = load_suite("default").unwrap();
        assert_eq!(default.len(), 16);
        assert!(
            default.iter().any(|l| l.name == "mobilenetv2_dw_s2_n8"
                && l.stride == wgconv::suite::Axes::All(2)
                && l.groups == 144)
        );
        assert!(!load_suite("quick").unwrap().is_empty());
        assert!(matches!(load_suite("/nonexistent.json"), Err(CliError::Usage(_))));
    }

    #[test]
    fn models_select_layers() {
        let zoo = || load_suite("zoo").unwrap();
        let picked = select_models(zoo(), &["yolov8n".into(), "whisper_base".into()]).unwrap();
        assert_eq!(picked.len(), 44);
        assert!(picked.iter().all(|l| matches!(l.model.as_deref(), Some("yolov8n" | "whisper_base"))));
        assert_eq!(select_models(zoo(), &[]).unwrap().len(), zoo().len());
        let Err(CliError::Usage(e)) = select_models(zoo(), &["resnet5".into()]) else { panic!("expected an error") };
        assert!(e.contains("no model \"resnet5\"") && e.contains("resnet50"), "{e}");
        let Err(CliError::Usage(e)) = select_models(load_suite("default").unwrap(), &["x".into()]) else {
            panic!("expected an error")
        };
        assert!(e.contains("it has: none"), "{e}");
    }

    fn sweep_points_of(points: &[(&str, f64)]) -> Vec<SweepPoint> {
        let point = |&(kernel, median_ms): &(&str, f64)| SweepPoint {
            kernel: kernel.into(),
            split_k: 1,
            stream_k: None,
            tile_n: None,
            k_tile_loads: None,
            config: kernel.into(),
            median_ms,
        };
        points.iter().map(point).collect()
    }

    fn timed(median_ms: f64, kernel: &str) -> LayerResult {
        LayerResult {
            layer: load_suite("quick").unwrap().remove(0),
            kernel: kernel.into(),
            median_ms,
            gflops: 1.0 / median_ms,
            reference_kernel: "direct".into(),
            reference_median_ms: None,
            speedup_vs_reference: None,
            parallel_ms: None,
            sweep: Vec::new(),
            min_bytes: 1,
            percent_of_compute_ceiling: None,
            percent_of_copy_bandwidth: None,
            pipelines: Vec::new(),
            round_ms: Vec::new(),
        }
    }

    /// `--rounds`: a layer keeps its fastest round's timings and lists every round; a spread
    /// over 10 % marks it unsteady. The reference keeps its own fastest round, and a sweep from
    /// the first round survives later rounds without one.
    #[test]
    fn rounds_keep_the_fastest_and_flag_spread() {
        let mut kept = timed(2.0, "first");
        kept.reference_median_ms = Some(5.0);
        kept.sweep = sweep_points_of(&[("first", 2.0)]);
        assert_eq!(kept.unsteady_spread(), None, "one round has no spread");
        let mut second = timed(1.0, "second");
        second.reference_median_ms = Some(8.0);
        kept.keep_fastest(second);
        kept.keep_fastest(timed(1.5, "third"));
        assert_eq!(kept.round_ms, [2.0, 1.0, 1.5]);
        assert_eq!((kept.median_ms, kept.kernel.as_str(), kept.gflops), (1.0, "second", 1.0));
        assert_eq!((kept.reference_median_ms, kept.speedup_vs_reference), (Some(5.0), Some(5.0)));
        assert_eq!(kept.sweep.len(), 1, "the first round's sweep");
        assert_eq!(kept.unsteady_spread(), Some(2.0));
        let mut steady = timed(1.0, "a");
        steady.keep_fastest(timed(1.05, "b"));
        assert_eq!((steady.median_ms, steady.kernel.as_str()), (1.0, "a"));
        assert_eq!(steady.unsteady_spread(), None);
    }

    /// Every layer of every built-in suite is one the ops accept, and the zoo covers its models
    /// at both batches.
    #[test]
    fn built_in_layers_are_valid_convolutions() {
        for (name, _) in BUILT_IN_SUITES {
            for layer in load_suite(name).unwrap() {
                if !layer.op.is_float() {
                    continue;
                }
                let geometry = layer_geometry(&layer, &layer.options().unwrap());
                assert!(geometry.is_ok(), "{name}: {}: {:?}", layer.name, geometry.err());
            }
        }
        for (name, batch_one) in [("zoo", true), ("zoo-throughput", false)] {
            let layers = load_suite(name).unwrap();
            let models: std::collections::BTreeSet<_> = layers.iter().filter_map(|l| l.model.clone()).collect();
            assert_eq!(models.len(), 14, "{name}: {models:?}");
            assert_eq!(layers.iter().all(|l| l.n == 1), batch_one, "{name}");
            assert!(layers.iter().all(|l| l.model.is_some()), "{name}: a layer without a model");
        }
    }
}
