//! The device's ceilings, measured: the fp32 FMA rate, the int8 `dot4I8Packed` rate, the copy
//! bandwidth and — where the device has f16 cooperative matrices — their multiply-add rate from
//! workgroup memory and a plain GEMM's from global memory (`shaders/roofline.wgsl`,
//! `shaders/roofline_coop.wgsl`).
//! `wgconv bench --roofline` prints them and each layer's share of them.

use half::f16;

use crate::{
    batch::{Batch, Pass},
    context::Context,
    dispatch,
    error::{Error, Result},
    shaders::{roofline, roofline_coop},
    tensor::{DType, Tensor},
    timing::{self, Sampling},
};

/// What [`measure_async`] measured.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct Roofline {
    /// fp32 FMA rate, GFLOP/s (an FMA counts 2).
    pub fma_gflops: f64,
    /// int8 `dot4I8Packed` rate, GOP/s (4 multiply-adds a dot product, each counts 2): the
    /// ceiling of the int8 kernels that use it.
    pub dot4_gops: f64,
    /// Copy bandwidth, GB/s (bytes read + bytes written, 10^9 per second).
    pub copy_gbps: f64,
    /// Bytes the copy read (and wrote): larger than the last-level cache where the device
    /// allows a binding that large.
    pub copy_bytes: u64,
    /// The cooperative-matrix ceilings, or why they were not measured.
    pub coop: std::result::Result<CoopRoofline, String>,
}

/// The f16 × f16 + f32 cooperative-matrix ceilings.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct CoopRoofline {
    /// Multiply-add rate with both operands in workgroup memory, GFLOP/s.
    pub mma_gflops: f64,
    /// A plain `size`³ GEMM from global memory, its K-tiles staged through workgroup memory:
    /// the fastest variant's GFLOP/s.
    pub gemm_gflops: f64,
    /// Every staged variant timed (entry point of `shaders/roofline_coop.wgsl`, GFLOP/s).
    pub gemm_variants: Vec<(&'static str, f64)>,
    /// The same GEMM with every fragment loaded straight from global memory, GFLOP/s.
    pub gemm_direct_gflops: f64,
    /// M = N = K of that GEMM.
    pub gemm_size: u32,
    /// The GEMMs' largest relative error (L2) on a 256³ problem against the host's f64 product
    /// of the same f16 operands (exact in f32: a variant above 1e-6 is wrong).
    pub gemm_relative_error: f64,
    /// Staged variants the device got wrong at 256³ (entry point, relative error; infinite where
    /// an element was left unwritten): not timed. The variants differ in how they hold their tiles,
    /// so this is how a driver that misreads one form shows; the plain `coop_gemm` and the
    /// direct GEMM must be right, or the measurement fails.
    pub gemm_wrong: Vec<(&'static str, f64)>,
}

/// Threads of the FMA kernel and its loop count: 2^20 threads × 1,024 iterations × 32 vec4 FMAs
/// ≈ 2.7·10^11 FLOPs, milliseconds on a large GPU. Smaller on a software rasteriser.
const FMA_THREADS: u64 = 1 << 20;
/// Operations per thread and iteration of either peak kernel: 32 steps (8 chains × 4 unrolled)
/// of 4 multiply-adds (a vec4 FMA's lanes, or a dot product's int8 pairs), 2 each.
const PEAK_OPS_PER_ITERATION: f64 = 32.0 * 4.0 * 2.0;
/// The copy's size: 256 MiB, five times the H200's 50 MB L2, or the binding limit.
const COPY_BYTES: u64 = 256 << 20;
/// The timed GEMM's size.
const GEMM_SIZE: u32 = 4096;
/// `coop_mma` steps per subgroup (8 multiply-adds each).
const MMA_STEPS: u32 = 4096;
/// `coop_mma` workgroups: 16 per multiprocessor of the H200 (132), many waves on smaller GPUs.
const MMA_WORKGROUPS: u32 = 2112;

/// Measures the ceilings on `ctx` with `sampling` (the software rasteriser of CI gets smaller
/// problems when `small` is set). [`measure`] is the blocking form (native only).
pub async fn measure_async(ctx: &Context, sampling: &Sampling, small: bool) -> Result<Roofline> {
    let fma_gflops = peak_rate(ctx, sampling, small, roofline::Entry::FmaPeak).await?;
    let dot4_gops = peak_rate(ctx, sampling, small, roofline::Entry::Dot4Peak).await?;
    let (copy_gbps, copy_bytes) = copy_rate(ctx, sampling, small).await?;
    // A failure here (a kernel the device rejects or gets wrong) is reported in `coop`, and the
    // plain ceilings still stand.
    let coop = if ctx.cooperative_f16() {
        coop_rates(ctx, sampling, small).await
    } else {
        Err("this context has no f16 cooperative matrices (WGCONV_COOPERATIVE_MATRIX=1 on a device that has them)"
            .into())
    };
    Ok(Roofline { fma_gflops, dot4_gops, copy_gbps, copy_bytes, coop })
}

/// Blocking [`measure_async`].
#[cfg(not(target_arch = "wasm32"))]
pub fn measure(ctx: &Context, sampling: &Sampling, small: bool) -> Result<Roofline> {
    crate::platform::block_on(measure_async(ctx, sampling, small))
}

/// Records one `roofline.wgsl` dispatch over `threads` threads.
fn record_plain(
    batch: &mut Batch<'_>,
    entry: roofline::Entry,
    threads: u64,
    iterations: u32,
    src: &Tensor,
    dst: &Tensor,
) -> Result<()> {
    let limits = batch.context().limits();
    let grid = dispatch::grid(threads, dispatch::workgroup_size(&limits), limits.max_compute_workgroups_per_dimension)?;
    let mut overrides = roofline::Overrides::new(grid.stride_x);
    overrides.wg_size = grid.wg_size;
    overrides.fma_iterations = iterations;
    let group = roofline::BindGroup0 {
        src: src.buffer().as_entire_buffer_binding(),
        dst: dst.buffer().as_entire_buffer_binding(),
    };
    batch.record::<roofline::Shader>("roofline", Pass::new(entry, &overrides, grid.dims()), &group)
}

/// The rate of `entry` (`FmaPeak` or `Dot4Peak`), G operations per second.
async fn peak_rate(ctx: &Context, sampling: &Sampling, small: bool, entry: roofline::Entry) -> Result<f64> {
    let (threads, iterations) = if small { (1 << 12, 16) } else { (FMA_THREADS, 1024) };
    let constants = match entry {
        // m = 0.999…, c = 1e-6: the chains stay finite however long they run.
        roofline::Entry::FmaPeak => [[0.999_999f32; 4], [1e-6; 4]].concat(),
        // m = 0x01010101 (each step sums the value's bytes), c = 3: integers wrap harmlessly.
        _ => [[f32::from_bits(0x0101_0101); 4], [f32::from_bits(3); 4]].concat(),
    };
    let src = Tensor::from_f32(ctx, &constants, &[8])?;
    let dst = Tensor::zeros(ctx, &[threads as usize * 4], DType::F32)?;
    let timing =
        timing::median_time_async(ctx, sampling, |batch| record_plain(batch, entry, threads, iterations, &src, &dst))
            .await?;
    Ok(threads as f64 * f64::from(iterations) * PEAK_OPS_PER_ITERATION / (timing.ms_per_run * 1e-3) / 1e9)
}

async fn copy_rate(ctx: &Context, sampling: &Sampling, small: bool) -> Result<(f64, u64)> {
    let limits = ctx.limits();
    let largest = limits.max_storage_buffer_binding_size.min(limits.max_buffer_size);
    let bytes = if small { 1 << 20 } else { COPY_BYTES.min(largest / 16 * 16) };
    let floats = (bytes / 4) as usize;
    let src = Tensor::zeros(ctx, &[floats], DType::F32)?;
    let dst = Tensor::zeros(ctx, &[floats], DType::F32)?;
    let timing = timing::median_time_async(ctx, sampling, |batch| {
        record_plain(batch, roofline::Entry::CopyVec4, bytes / 16, 1, &src, &dst)
    })
    .await?;
    Ok((2.0 * bytes as f64 / (timing.ms_per_run * 1e-3) / 1e9, bytes))
}

/// The f16 operands of a GEMM as packed halves (two per f32 slot), in tensors the shader reads
/// as `vec4<u32>`.
fn packed_halves(ctx: &Context, values: &[f32]) -> Result<Tensor> {
    let words: Vec<f32> = values
        .chunks(2)
        .map(|pair| {
            let lo = u32::from(f16::from_f32(pair[0]).to_bits());
            let hi = u32::from(f16::from_f32(pair.get(1).copied().unwrap_or(0.0)).to_bits());
            f32::from_bits(lo | hi << 16)
        })
        .collect();
    Tensor::from_f32(ctx, &words, &[words.len()])
}

fn gemm_params(ctx: &Context, size: u32, steps: u32) -> Result<wgpu::Buffer> {
    ctx.uniform("GemmParams", &roofline_coop::GemmParams::new(size, size, size, steps))
}

fn record_coop(
    batch: &mut Batch<'_>,
    entry: roofline_coop::Entry,
    workgroups: [u32; 3],
    tensors: [&Tensor; 3],
    params: &wgpu::Buffer,
) -> Result<()> {
    let overrides = roofline_coop::Overrides::new();
    let group = roofline_coop::BindGroup0 {
        a: tensors[0].buffer().as_entire_buffer_binding(),
        b: tensors[1].buffer().as_entire_buffer_binding(),
        c: tensors[2].buffer().as_entire_buffer_binding(),
        params: params.as_entire_buffer_binding(),
        a_h: tensors[0].buffer().as_entire_buffer_binding(),
        b_h: tensors[1].buffer().as_entire_buffer_binding(),
    };
    batch.record::<roofline_coop::Shader>(
        "roofline (cooperative matrices)",
        Pass::new(entry, &overrides, workgroups),
        &group,
    )
}

/// Seeded values in [-1, 1) with few significant bits, exact in f16.
fn small_values(seed: u32, count: usize) -> Vec<f32> {
    // The seed is mixed in before the multiply: added after it, it would vanish in the shift.
    (0..count)
        .map(|i| (((i as u32) ^ seed.wrapping_mul(0x9e37_79b9)).wrapping_mul(2_654_435_761) >> 24) as f32 / 128.0 - 1.0)
        .collect()
}

/// Relative error above which a GEMM variant is wrong: the operands have 8 significant bits and
/// every partial sum at 256³ is a multiple of 2^-14 below 2^8, so f32 accumulation is exact.
const GEMM_TOLERANCE: f64 = 1e-6;

async fn coop_rates(ctx: &Context, sampling: &Sampling, small: bool) -> std::result::Result<CoopRoofline, String> {
    use roofline_coop::Entry;
    let text = |e: Error| e.to_string();
    let wgmem = ctx.limits().max_compute_workgroup_storage_size;
    let o = roofline_coop::Overrides::new();
    // (entry point, columns of C per workgroup, the K step its loop needs: the K-tile depth, or
    // two K-tiles for the pipelined ones); the last loads fragments straight from memory.
    // Variants needing more workgroup memory than the device has are skipped.
    let gemms: Vec<(Entry, u32, u32)> = [
        (Entry::CoopGemm, 128, 32),
        (Entry::CoopGemmK64, 128, 64),
        (Entry::CoopGemmN256, 256, 32),
        (Entry::CoopGemmH4, 128, 32),
        (Entry::CoopGemmDb, 128, 64),
        (Entry::CoopGemmDbK16, 128, 32),
        (Entry::CoopGemmDbN256, 256, 32),
        (Entry::CoopGemmDirect, 128, 16),
    ]
    .into_iter()
    .filter(|(entry, ..)| entry.workgroup_memory_bytes(&o) <= wgmem)
    .collect();
    if gemms.last().map(|g| g.0) != Some(Entry::CoopGemmDirect) || gemms.len() < 2 {
        return Err(format!("the GEMM kernels need more than this device's {wgmem} bytes of workgroup memory"));
    }
    // Correctness first, on a 256³ problem: a wrong variant is reported, not timed (a wrong
    // `coop_gemm` or direct GEMM fails the measurement).
    let check = 256u32;
    let len = (check * check) as usize;
    let (av, bv) = (small_values(1, len), small_values(2, len));
    let (a, b) = (packed_halves(ctx, &av).map_err(text)?, packed_halves(ctx, &bv).map_err(text)?);
    let n = check as usize;
    let halves = |values: &[f32]| values.iter().map(|&v| f16::from_f32(v).to_f64()).collect::<Vec<f64>>();
    let (a16, b16) = (halves(&av), halves(&bv));
    let mut expected = vec![0f64; len];
    for i in 0..n {
        for k in 0..n {
            let aik = a16[i * n + k];
            for j in 0..n {
                expected[i * n + j] += aik * b16[k * n + j];
            }
        }
    }
    let params = gemm_params(ctx, check, 0).map_err(text)?;
    let mut gemm_relative_error = 0f64;
    let mut gemm_wrong = Vec::new();
    let mut right = Vec::with_capacity(gemms.len());
    for &(entry, tile_n, depth) in &gemms {
        debug_assert!(check.is_multiple_of(tile_n) && check.is_multiple_of(128) && check.is_multiple_of(depth));
        let c = Tensor::full_f32(ctx, &[len], f32::NAN).map_err(text)?;
        let mut batch = ctx.batch();
        record_coop(&mut batch, entry, [check / tile_n, check / 128, 1], [&a, &b, &c], &params).map_err(text)?;
        batch.submit_async().await.map_err(text)?;
        let error = crate::reference::relative_error(&c.to_vec_f32_async(ctx).await.map_err(text)?, &expected);
        // NaN-poisoned: an unwritten element makes the error infinite.
        if error.is_nan() || error > GEMM_TOLERANCE {
            if matches!(entry, Entry::CoopGemm | Entry::CoopGemmDirect) {
                return Err(format!("`{}` is wrong at 256³: relative error {error:e}", entry.name()));
            }
            gemm_wrong.push((entry.name(), error));
            continue;
        }
        gemm_relative_error = gemm_relative_error.max(error);
        right.push((entry, tile_n, depth));
    }
    let gemms = right;

    // The timed GEMMs.
    let size = if small { check } else { GEMM_SIZE };
    let elements = (size as usize) * (size as usize);
    let a = packed_halves(ctx, &small_values(3, elements)).map_err(text)?;
    let b = packed_halves(ctx, &small_values(4, elements)).map_err(text)?;
    let c = Tensor::zeros(ctx, &[elements], DType::F32).map_err(text)?;
    let params = gemm_params(ctx, size, 0).map_err(text)?;
    let mut rates = Vec::with_capacity(gemms.len());
    // The first variant is timed twice and its first timing dropped: on a GPU that was idle
    // (a fresh machine), the first ran at 0.46–0.55× its speed in 2 of 7 runs of v53 (clocks
    // still rising through the sampler's warm-up).
    let first = gemms.first().copied();
    for &(entry, tile_n, depth) in first.iter().chain(&gemms) {
        debug_assert!(size.is_multiple_of(tile_n) && size.is_multiple_of(128) && size.is_multiple_of(depth));
        let timing = timing::median_time_async(ctx, sampling, |batch| {
            record_coop(batch, entry, [size / tile_n, size / 128, 1], [&a, &b, &c], &params)
        })
        .await
        .map_err(text)?;
        rates.push((entry.name(), 2.0 * f64::from(size).powi(3) / (timing.ms_per_run * 1e-3) / 1e9));
    }
    rates.remove(0);
    let gemm_direct_gflops = rates.pop().map_or(0.0, |(_, rate)| rate);
    let gemm_gflops = rates.iter().map(|&(_, rate)| rate).fold(0.0, f64::max);

    // The multiply-add ceiling over a grid of many waves (16 workgroups per multiprocessor of
    // the H200's 132); `coop_mma` runs its steps two at a time.
    let (workgroups, steps) = if small { (4u32, 64u32) } else { (MMA_WORKGROUPS, MMA_STEPS) };
    debug_assert!(steps.is_multiple_of(2));
    let sink = Tensor::zeros(ctx, &[workgroups as usize * 8 * 2048], DType::F32).map_err(text)?;
    let params = gemm_params(ctx, 0, steps).map_err(text)?;
    let mma = timing::median_time_async(ctx, sampling, |batch| {
        record_coop(batch, Entry::CoopMma, [workgroups, 1, 1], [&a, &b, &sink], &params)
    })
    .await
    .map_err(text)?;
    let flops = f64::from(workgroups) * 8.0 * f64::from(steps) * 8.0 * 2.0 * 16.0 * 16.0 * 16.0;
    let mma_gflops = flops / (mma.ms_per_run * 1e-3) / 1e9;
    Ok(CoopRoofline {
        mma_gflops,
        gemm_gflops,
        gemm_variants: rates,
        gemm_direct_gflops,
        gemm_size: size,
        gemm_relative_error,
        gemm_wrong,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// No device in CI has cooperative matrices: at least check that naga lowers every entry
    /// point to SPIR-V with the multiply-adds as written (8 per 16 of K per 64×32 block).
    #[test]
    fn coop_roofline_compiles_to_spirv() {
        for (entry, expected) in [
            (roofline_coop::Entry::CoopGemm, 16),
            (roofline_coop::Entry::CoopGemmK64, 32),
            (roofline_coop::Entry::CoopGemmN256, 32),
            (roofline_coop::Entry::CoopGemmH4, 16),
            (roofline_coop::Entry::CoopGemmDb, 32),
            (roofline_coop::Entry::CoopGemmDbK16, 16),
            (roofline_coop::Entry::CoopGemmDbN256, 32),
            (roofline_coop::Entry::CoopGemmDirect, 8),
            (roofline_coop::Entry::CoopMma, 16),
        ] {
            let mul_adds = crate::coop_spirv::coop_multiply_adds(roofline_coop::SOURCE, entry.name(), &[]);
            assert_eq!(mul_adds, expected, "{}", entry.name());
        }
    }

    #[test]
    fn gemm_operands_are_exact_in_f16() {
        assert!(small_values(1, 1000).iter().all(|&v| f16::from_f32(v).to_f32() == v));
        assert!(small_values(1, 1000).iter().any(|&v| v != small_values(1, 1)[0]));
        // A and B differ, so a kernel that mixes them up cannot pass the check.
        assert_ne!(small_values(1, 1000), small_values(2, 1000));
    }
}
