//! GPU timing of recorded ops: timestamp queries around many back-to-back launches, or the wall
//! clock around submit-and-wait where the device has no timestamp queries.
//!
//! Every function is `async` ([`time_runs_async`], [`median_time_async`]); on native the
//! blocking [`time_runs`] and [`median_time`] wrap them. On the web the wall clock is the
//! browser's (`performance.now()`, through the `web-time` crate), and GPU timestamps are used
//! where the adapter offers `timestamp-query`.

use std::time::Duration;

#[cfg(not(target_arch = "wasm32"))]
pub use crate::blocking::{median_time, time_runs};
use crate::{
    batch::Batch,
    context::Context,
    error::{Error, Result},
    platform::Instant,
};

/// How a time was measured.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TimingSource {
    /// GPU timestamp queries in two marker passes (a no-op dispatch each), one before the first
    /// recorded op and one after the last. Until 2026-12-02 the end timestamp was written in
    /// every pass, which added a query reset and a timestamp write between every two dispatches:
    /// times of short ops measured before then are not comparable with later ones.
    GpuTimestamps,
    /// Host wall clock around submit and wait (includes submission overhead).
    WallClock,
}

/// Average time of one run.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Timing {
    /// Milliseconds per run.
    pub ms_per_run: f64,
    /// How it was measured.
    pub source: TimingSource,
}

/// Records `runs` repetitions of `record` into one batch, submits, waits, and returns the time
/// per repetition. [`time_runs`] is the blocking form (native only).
pub async fn time_runs_async(
    ctx: &Context,
    runs: u32,
    mut record: impl FnMut(&mut Batch<'_>) -> Result<()>,
) -> Result<Timing> {
    let runs = runs.max(1);
    if ctx.features().contains(wgpu::Features::TIMESTAMP_QUERY)
        && let Some(ms_per_run) = timestamped(ctx, runs, &mut record).await?
    {
        return Ok(Timing { ms_per_run, source: TimingSource::GpuTimestamps });
    }
    let mut batch = ctx.batch();
    ctx.synchronize_async().await?;
    let start = Instant::now();
    for _ in 0..runs {
        record(&mut batch)?;
    }
    batch.submit_async().await?;
    ctx.synchronize_async().await?;
    let ms_per_run = start.elapsed().as_secs_f64() * 1e3 / f64::from(runs);
    Ok(Timing { ms_per_run, source: TimingSource::WallClock })
}

/// Milliseconds per run from timestamp queries; `None` when the driver wrote no usable
/// timestamps (an end not after the start).
async fn timestamped(
    ctx: &Context,
    runs: u32,
    record: &mut impl FnMut(&mut Batch<'_>) -> Result<()>,
) -> Result<Option<f64>> {
    let mut batch = ctx.batch();
    let query_set = ctx.device.create_query_set(&wgpu::QuerySetDescriptor {
        label: Some("wgconv timing"),
        ty: wgpu::QueryType::Timestamp,
        count: 2,
    });
    // Slot 0 at the start of a marker pass before the runs, slot 1 at the end of one after them:
    // everything recorded in between is timed (copies too), and nothing is inserted between its
    // dispatches.
    timestamp_pass(ctx, batch.encoder(), &query_set, Some(0), None);
    for _ in 0..runs {
        record(&mut batch)?;
    }
    if batch.is_empty() {
        return Err(Error::NothingRecorded);
    }
    timestamp_pass(ctx, batch.encoder(), &query_set, None, Some(1));
    let resolve = ctx.device.create_buffer(&wgpu::BufferDescriptor {
        label: Some("wgconv timing resolve"),
        size: 16,
        usage: wgpu::BufferUsages::QUERY_RESOLVE | wgpu::BufferUsages::COPY_SRC,
        mapped_at_creation: false,
    });
    let readback = ctx.device.create_buffer(&wgpu::BufferDescriptor {
        label: Some("wgconv timing readback"),
        size: 16,
        usage: wgpu::BufferUsages::COPY_DST | wgpu::BufferUsages::MAP_READ,
        mapped_at_creation: false,
    });
    batch.encoder().resolve_query_set(&query_set, 0..2, &resolve, 0);
    batch.encoder().copy_buffer_to_buffer(&resolve, 0, &readback, 0, 16);
    batch.submit_async().await?;
    let bytes = ctx.read_mapped_async(&readback, "timing").await?;
    let ticks: [u64; 2] = bytemuck::pod_read_unaligned(&bytes[..16]);
    // A zero start is a timestamp that was not written, not the clock's origin.
    if ticks[0] == 0 || ticks[1] <= ticks[0] {
        return Ok(None);
    }
    let ns = (ticks[1] - ticks[0]) as f64 * f64::from(ctx.queue.get_timestamp_period());
    Ok(Some(ns / 1e6 / f64::from(runs)))
}

/// Records a compute pass that writes a timestamp into `query_set` at its beginning and/or end
/// around a no-op dispatch of one workgroup. The dispatch is there because Metal runs no encoder
/// without commands, so an empty pass would write no timestamp (wgpu-native#625). A timestamp at
/// the end of a pass is written after all work recorded before it.
fn timestamp_pass(
    ctx: &Context,
    encoder: &mut wgpu::CommandEncoder,
    query_set: &wgpu::QuerySet,
    beginning_of_pass_write_index: Option<u32>,
    end_of_pass_write_index: Option<u32>,
) {
    let timestamp_writes =
        wgpu::ComputePassTimestampWrites { query_set, beginning_of_pass_write_index, end_of_pass_write_index };
    let label = if beginning_of_pass_write_index.is_some() { "wgconv timing start" } else { "wgconv timing end" };
    let mut pass = encoder.begin_compute_pass(&wgpu::ComputePassDescriptor {
        label: Some(label),
        timestamp_writes: Some(timestamp_writes),
    });
    pass.set_pipeline(timing_marker(ctx));
    pass.dispatch_workgroups(1, 1, 1);
}

/// The no-op pipeline of [`timestamp_pass`]. Its WGSL is inline, not in `shaders/`: it has no
/// bindings, uniforms or constants for the code generator to type.
fn timing_marker(ctx: &Context) -> &wgpu::ComputePipeline {
    ctx.timing_marker.get_or_init(|| {
        let module = ctx.device.create_shader_module(wgpu::ShaderModuleDescriptor {
            label: Some("wgconv timing marker"),
            source: wgpu::ShaderSource::Wgsl("@compute @workgroup_size(1) fn timing_marker() {}".into()),
        });
        ctx.device.create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
            label: Some("wgconv timing marker"),
            layout: None,
            module: &module,
            entry_point: Some("timing_marker"),
            compilation_options: Default::default(),
            cache: None,
        })
    })
}

/// How [`median_time_async`] samples a recorded workload.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sampling {
    /// Timed samples (the median is reported).
    pub samples: u32,
    /// Back-to-back runs inside each sample.
    pub launches: u32,
    /// GPU-busy milliseconds of warm-up before the samples: after an idle gap (a pipeline
    /// compile, the host's setup) a GPU runs at low clocks at first.
    pub warm_up_ms: f64,
    /// Wall-clock cap on the warm-up (tiny workloads cannot fill it in a few round trips).
    pub warm_up_wall: Duration,
    /// GPU milliseconds one sample should last at least: `launches` is raised for workloads
    /// shorter than that. Between samples the GPU idles for a host round trip; a sample of ten
    /// 20 µs runs leaves it idle most of the time and it clocks down (seen on an H200: tiny
    /// layers measured up to 3× slower after idle stretches). 0 keeps `launches` as it is.
    /// [`median_time_async`] applies it; `Conv2d::tune`'s interleaved rounds keep `launches`.
    pub min_sample_ms: f64,
}

impl Default for Sampling {
    fn default() -> Self {
        Self {
            samples: 10,
            launches: 20,
            warm_up_ms: 20.0,
            warm_up_wall: Duration::from_millis(200),
            min_sample_ms: 0.0,
        }
    }
}

/// Median time per run of `record` over `sampling.samples` samples, after one run that compiles
/// pipelines and a warm-up. [`median_time`] is the blocking form (native only).
pub async fn median_time_async(
    ctx: &Context,
    sampling: &Sampling,
    mut record: impl FnMut(&mut Batch<'_>) -> Result<()>,
) -> Result<Timing> {
    let first_ms_per_run = time_runs_async(ctx, 1, &mut record).await?.ms_per_run;
    // The warm GPU's time per run where there was a warm-up, else the first run's.
    let ms_per_run = match warm_up(ctx, sampling, &mut record).await? {
        warm if warm > 0.0 => warm,
        _ => first_ms_per_run,
    };
    let launches = if sampling.min_sample_ms > 0.0 && ms_per_run > 0.0 {
        let needed = (sampling.min_sample_ms / ms_per_run).ceil().min(10_000.0) as u32;
        sampling.launches.max(needed)
    } else {
        sampling.launches
    };
    let mut samples = Vec::with_capacity(sampling.samples as usize);
    let mut source = TimingSource::GpuTimestamps;
    for _ in 0..sampling.samples.max(1) {
        let t = time_runs_async(ctx, launches, &mut record).await?;
        source = t.source;
        samples.push(t.ms_per_run);
    }
    Ok(Timing { ms_per_run: median(&mut samples), source })
}

/// Runs `record` in batches of `sampling.launches` until the GPU has been busy for
/// `sampling.warm_up_ms` (or `sampling.warm_up_wall` has passed): after an idle gap a GPU runs
/// at low clocks at first. Returns the last batch's milliseconds per run (0 without a batch).
pub(crate) async fn warm_up(
    ctx: &Context,
    sampling: &Sampling,
    mut record: impl FnMut(&mut Batch<'_>) -> Result<()>,
) -> Result<f64> {
    let mut busy_ms = 0.0;
    let mut last_ms_per_run = 0.0;
    let started = Instant::now();
    while busy_ms < sampling.warm_up_ms && started.elapsed() < sampling.warm_up_wall {
        last_ms_per_run = time_runs_async(ctx, sampling.launches, &mut record).await?.ms_per_run;
        busy_ms += last_ms_per_run * f64::from(sampling.launches.max(1));
    }
    Ok(last_ms_per_run)
}

/// The median of `samples` (sorted in place); NaN for none.
pub fn median(samples: &mut [f64]) -> f64 {
    if samples.is_empty() {
        return f64::NAN;
    }
    samples.sort_by(f64::total_cmp);
    let mid = samples.len() / 2;
    if samples.len() % 2 == 1 { samples[mid] } else { (samples[mid - 1] + samples[mid]) / 2.0 }
}

#[cfg(test)]
mod tests {
    #[test]
    fn median_of_odd_and_even() {
        assert_eq!(super::median(&mut [3.0, 1.0, 2.0]), 2.0);
        assert_eq!(super::median(&mut [4.0, 1.0, 2.0, 3.0]), 2.5);
        assert!(super::median(&mut []).is_nan());
    }
}
