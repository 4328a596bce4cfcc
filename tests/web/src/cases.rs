//! The cases. Each returns what it measured (`Ok`) or what went wrong (`Err`); none panics on a
//! wrong result, so one failure does not hide the others.

use wgconv::{
    Activation, Context, Conv2d, ConvGeometry, ConvKernel, ConvOptions, DType, Error, ForcedPlan, GemmSchedule,
    MemoryFormat, Q8ConvPwArgs, Q8ConvPwOptions, Q8Kernel, QuantParams, Tensor,
    reference::{self, Q8PwReference},
    timing::{self, Sampling},
};
use wgconv_tests::{random_f32, random_i8};

use web_time::Instant;

use crate::{Limits, Outcome, Report};

/// The relative error the native tests allow fp32 convolutions (`tests/tests/conv.rs`).
const TOLERANCE: f64 = 1e-5;

type CaseResult = Result<String, String>;

/// Runs every case on `ctx`, whose device was created with `limits`.
pub async fn run_suite(ctx: &Context, limits: Limits) -> Report {
    let mut report = Report {
        adapter: ctx.describe(),
        limits: limits.name().to_string(),
        workgroup_storage_bytes: ctx.limits().max_compute_workgroup_storage_size,
        outcomes: Vec::new(),
    };
    // Each case is timed from the end of the previous one (wall clock: pipeline compiles count).
    let mut last = Instant::now();
    let mut record = |name: &str, result: CaseResult| {
        let (passed, detail) = match result {
            Ok(detail) => (true, detail),
            Err(detail) => (false, detail),
        };
        let ms = last.elapsed().as_secs_f64() * 1e3;
        last = Instant::now();
        report.outcomes.push(Outcome { name: name.to_string(), passed, detail, ms });
    };

    for (name, case) in planner_cases() {
        record(&format!("planner: {name}"), check_conv(ctx, &case).await);
    }
    for (name, case) in forced_cases() {
        record(&format!("forced: {name}"), check_conv(ctx, &case).await);
    }
    for (name, case) in q8_cases() {
        record(&format!("q8ta_conv2d_pw: {name}"), check_q8(ctx, &case).await);
    }
    record("quantize_per_tensor and dequantize_per_tensor", check_quantize(ctx).await);
    record("a prepared Conv2d run twice in one batch", check_prepared(ctx).await);
    record("f16 and channels-last tensors", check_f16_channels_last(ctx).await);
    record("typed errors for bad arguments", check_argument_errors(ctx).await);
    record("a GPU validation error comes back typed, then the context works", check_gpu_error(ctx).await);
    record("timing", check_timing(ctx).await);
    record("tuning", check_tuning(ctx).await);
    report
}

/// One convolution to run and check.
struct ConvCase {
    input: Vec<usize>,
    weight: Vec<usize>,
    bias: bool,
    opts: ConvOptions,
    forced: ForcedPlan,
}

impl ConvCase {
    fn new(input: &[usize], weight: &[usize], opts: ConvOptions) -> Self {
        Self { input: input.to_vec(), weight: weight.to_vec(), bias: true, opts, forced: ForcedPlan::default() }
    }

    fn forced(mut self, forced: ForcedPlan) -> Self {
        self.forced = forced;
        self
    }
}

/// Layers the planner chooses kernels for: the classes of real models, small.
fn planner_cases() -> Vec<(&'static str, ConvCase)> {
    let pad = |p| ConvOptions::default().padding(&[p]);
    vec![
        ("3×3, 8→16 channels, 12², batch 2", ConvCase::new(&[2, 8, 12, 12], &[16, 8, 3, 3], pad(1))),
        (
            "DaViT-like stem, 7×7 stride 4, 3→32, 32²",
            ConvCase::new(&[1, 3, 32, 32], &[32, 3, 7, 7], pad(3).stride(&[4])),
        ),
        ("pointwise 1×1, 32→64, 8², batch 2", ConvCase::new(&[2, 32, 8, 8], &[64, 32, 1, 1], pad(0))),
        ("3×3 stride 2 dilation 2", ConvCase::new(&[1, 8, 15, 13], &[8, 8, 3, 3], pad(2).stride(&[2]).dilation(&[2]))),
        (
            "3×5 kernel, padding 1×2, stride 1×2",
            ConvCase::new(&[1, 4, 9, 11], &[6, 4, 3, 5], pad(0).padding(&[1, 2]).stride(&[1, 2])),
        ),
        ("depthwise 3×3, 32 channels, 16²", ConvCase::new(&[1, 32, 16, 16], &[32, 1, 3, 3], pad(1).groups(32))),
        ("depthwise 7×7, 16 channels, 14²", ConvCase::new(&[1, 16, 14, 14], &[16, 1, 7, 7], pad(3).groups(16))),
        ("depthwise with channel multiplier 2", ConvCase::new(&[1, 8, 10, 10], &[16, 1, 3, 3], pad(1).groups(8))),
        ("grouped 3×3, 4 groups, 16→32", ConvCase::new(&[1, 16, 10, 10], &[32, 4, 3, 3], pad(1).groups(4))),
        ("long K, small grid: 64 channels at 4²", ConvCase::new(&[1, 64, 4, 4], &[32, 64, 3, 3], pad(1))),
        (
            "transposed 3×3 stride 2, output_padding 1",
            ConvCase::new(&[1, 8, 6, 6], &[8, 4, 3, 3], pad(1).stride(&[2]).output_padding(&[1]).transposed(true)),
        ),
        (
            "transposed 4×4 stride 2, 2 groups",
            ConvCase::new(&[2, 8, 5, 5], &[8, 3, 4, 4], pad(1).stride(&[2]).groups(2).transposed(true)),
        ),
        ("transposed dilation 2", ConvCase::new(&[1, 4, 5, 5], &[4, 4, 3, 3], pad(0).dilation(&[2]).transposed(true))),
        ("conv1d, kernel 5 stride 2", ConvCase::new(&[2, 8, 40], &[16, 8, 5], pad(2).stride(&[2]))),
        (
            "conv1d transposed, kernel 4 stride 2",
            ConvCase::new(&[1, 8, 20], &[8, 4, 4], pad(1).stride(&[2]).transposed(true)),
        ),
        ("fused ReLU", ConvCase::new(&[1, 8, 9, 9], &[8, 8, 3, 3], pad(1).activation(Activation::Relu))),
        (
            "fused clamp (ReLU6)",
            ConvCase::new(&[1, 8, 9, 9], &[8, 8, 3, 3], pad(1).activation(Activation::Clamp { min: 0.0, max: 0.5 })),
        ),
        ("no bias", ConvCase { bias: false, ..ConvCase::new(&[1, 4, 7, 7], &[4, 4, 3, 3], pad(1)) }),
    ]
}

/// Every kernel the planner can choose, forced on a shape it supports, and the GEMM schedules.
fn forced_cases() -> Vec<(String, ConvCase)> {
    let dense = || ConvCase::new(&[2, 8, 10, 10], &[16, 8, 3, 3], ConvOptions::default().padding(&[1]));
    let depthwise = || ConvCase::new(&[1, 16, 16, 16], &[16, 1, 3, 3], ConvOptions::default().padding(&[1]).groups(16));
    let grouped = || ConvCase::new(&[1, 16, 8, 8], &[16, 4, 3, 3], ConvOptions::default().padding(&[1]).groups(4));
    let transposed = || {
        let opts = ConvOptions::default().padding(&[1]).stride(&[2]).output_padding(&[1]).transposed(true);
        ConvCase::new(&[1, 8, 6, 6], &[8, 8, 3, 3], opts)
    };
    let long_k = || ConvCase::new(&[1, 64, 4, 4], &[32, 64, 3, 3], ConvOptions::default().padding(&[1]));
    // Winograd F(2×2, 5×5)'s and F(4×4, 5×5)'s filter: ragged 2×2 and 4×4 tiles (9×9 outputs).
    let five = || ConvCase::new(&[2, 8, 9, 9], &[12, 8, 5, 5], ConvOptions::default().padding(&[2]));
    let few_oc = || {
        let opts = ConvOptions::default().padding(&[1]).stride(&[2]).transposed(true);
        // 24 input channels: the K-split entry point (8 threads per pixel).
        ConvCase::new(&[1, 24, 6, 5], &[24, 3, 4, 4], opts)
    };
    // Two images of 1×2 pixels after stride and padding: 4 output pixels in all.
    let few_pixels = || {
        let opts = ConvOptions::default().padding(&[1]).stride(&[2, 3]).activation(Activation::Relu);
        ConvCase::new(&[2, 40, 2, 4], &[24, 40, 3, 3], opts)
    };
    // 36 pixels a plane (9 vec4s), 20 output channels (2 blocks of 12, the last partly past
    // them), 40 input channels (a chunk of 32 staged weights and a short one).
    let pointwise = || {
        let opts = ConvOptions::default().activation(Activation::Relu);
        ConvCase::new(&[2, 40, 6, 6], &[20, 40, 1, 1], opts)
    };
    let mut cases = Vec::new();
    for kernel in ConvKernel::ALL {
        let case = match kernel {
            // Runs only with cooperative matrices, which the web lacks: checked as an error instead.
            ConvKernel::CoopF16 => continue,
            ConvKernel::Transposed => transposed(),
            ConvKernel::TransposedFewOc => few_oc(),
            // 3 output channels, 20 input channels (8 slices of 3, the last of 2, the others
            // idle past them) and rows of 9 (runs of 4, 4 and 1).
            ConvKernel::FewOc => ConvCase::new(&[1, 20, 7, 9], &[3, 20, 3, 3], ConvOptions::default().padding(&[1])),
            ConvKernel::Gemv => few_pixels(),
            ConvKernel::Depthwise
            | ConvKernel::DepthwiseTiled
            | ConvKernel::DepthwiseRows
            | ConvKernel::DepthwiseVec4 => depthwise(),
            ConvKernel::GroupedOc4 => grouped(),
            ConvKernel::PointwiseVec4 | ConvKernel::PointwiseVec4Split => pointwise(),
            ConvKernel::Winograd5x5 | ConvKernel::Winograd5x5Tile4 => five(),
            _ => dense(),
        };
        cases.push((kernel.name().to_string(), case.forced(ForcedPlan::kernel(kernel))));
    }
    cases.push((
        "gemm on a transposed convolution (stride phases)".into(),
        transposed().forced(ForcedPlan::kernel(ConvKernel::Gemm)),
    ));
    cases.push((
        "gemm_small on a transposed convolution (stride phases)".into(),
        transposed().forced(ForcedPlan::kernel(ConvKernel::GemmSmall)),
    ));
    cases.push((
        "gemm_small_k32 on a transposed convolution (stride phases)".into(),
        transposed().forced(ForcedPlan::kernel(ConvKernel::GemmSmallK32)),
    ));
    // F(4×4, 3×3) on a dilated filter: the output's 4 phases tiled alone (ragged in each), the
    // dilation a pipeline constant.
    let dilated = ConvCase::new(&[1, 8, 13, 11], &[12, 8, 3, 3], ConvOptions::default().padding(&[2]).dilation(&[2]));
    cases
        .push(("winograd_4x4 on a dilated filter".into(), dilated.forced(ForcedPlan::kernel(ConvKernel::Winograd4x4))));
    // K 576 in 2 K-slices across workgroups (the split-K reduce pass).
    cases.push(("gemm_small_k32 in K-slices".into(), long_k().forced(ForcedPlan::kernel(ConvKernel::GemmSmallK32))));
    cases.push((
        "gemm_m64 at 64 columns".into(),
        dense().forced(ForcedPlan { tile_n: Some(64), ..ForcedPlan::kernel(ConvKernel::GemmM64) }),
    ));
    for schedule in [GemmSchedule::SplitK(4), GemmSchedule::StreamK(6)] {
        let forced = ForcedPlan { schedule: Some(schedule), ..ForcedPlan::kernel(ConvKernel::GemmM64K16) };
        cases.push((format!("gemm_m64_k16 with {schedule:?}"), long_k().forced(forced)));
    }
    cases
}

/// Runs `case` into an output poisoned with NaN (so unwritten elements fail) and compares it with
/// the f64 reference. A forced kernel that needs more workgroup memory than the device allows
/// must be refused with the error that names it.
async fn check_conv(ctx: &Context, case: &ConvCase) -> CaseResult {
    let seed = case.input.iter().chain(&case.weight).fold(17u64, |s, &d| s * 31 + d as u64);
    let x = random_f32(seed, case.input.iter().product());
    let w = random_f32(seed + 1, case.weight.iter().product());
    let channels = ConvGeometry::new(&case.input, &case.weight, None, &case.opts).map_err(text)?.output_shape()[1];
    let b = case.bias.then(|| random_f32(seed + 2, channels));
    let (expected, shape) =
        reference::convolution(&x, &case.input, &w, &case.weight, b.as_deref(), &case.opts).map_err(text)?;

    let xt = Tensor::from_f32(ctx, &x, &case.input).map_err(text)?;
    let wt = Tensor::from_f32(ctx, &w, &case.weight).map_err(text)?;
    let bt = b.as_ref().map(|b| Tensor::from_f32(ctx, b, &[b.len()])).transpose().map_err(text)?;
    let output = Tensor::full_f32(ctx, &shape, f32::NAN).map_err(text)?;
    let mut batch = ctx.batch();
    let kernel = match batch.convolution_into_forced(&xt, &wt, bt.as_ref(), &output, &case.opts, &case.forced) {
        Ok(kernel) => kernel,
        Err(e @ Error::KernelUnavailable { .. })
            if case
                .forced
                .kernel
                .is_some_and(|k| k.workgroup_storage_bytes() > ctx.limits().max_compute_workgroup_storage_size) =>
        {
            return Ok(format!("refused as it should be: {e}"));
        }
        Err(e) => return Err(e.to_string()),
    };
    batch.submit_async().await.map_err(text)?;
    let got = output.to_vec_f32_async(ctx).await.map_err(text)?;

    if let Some(forced) = case.forced.kernel
        && forced != kernel
    {
        return Err(format!("forced {} but {} ran", forced.name(), kernel.name()));
    }
    let err = reference::relative_error(&got, &expected);
    if err <= TOLERANCE {
        Ok(format!("{:?} → {shape:?} via {}, relative error {err:.1e}", case.input, kernel.name()))
    } else {
        Err(format!("via {}: relative error {err:e} > {TOLERANCE:e}", kernel.name()))
    }
}

/// One `q8ta_conv2d_pw` layer.
struct Q8Case {
    input: [usize; 4],
    oc: usize,
    relu: bool,
    kernel: Option<Q8Kernel>,
}

fn q8_cases() -> Vec<(&'static str, Q8Case)> {
    vec![
        ("planner, 16→8 channels, 6×7", Q8Case { input: [1, 16, 6, 7], oc: 8, relu: false, kernel: None }),
        ("planner, batch 2, 32→24, 8², ReLU", Q8Case { input: [2, 32, 8, 8], oc: 24, relu: true, kernel: None }),
        (
            "scalar kernel, odd sizes",
            Q8Case { input: [1, 5, 3, 5], oc: 3, relu: false, kernel: Some(Q8Kernel::Scalar) },
        ),
        (
            "dot4 GEMM kernel, 64→72, 10²",
            Q8Case { input: [1, 64, 10, 10], oc: 72, relu: false, kernel: Some(Q8Kernel::Dot4Gemm) },
        ),
    ]
}

/// Checks a q8 case by the native criteria: at least 99.9 % of the outputs bit-exact, every one
/// within 1 (the float requantization may round a tie the other way). Runs twice, into outputs
/// poisoned with each extreme, so an unwritten element cannot pass.
async fn check_q8(ctx: &Context, case: &Q8Case) -> CaseResult {
    let [n, ic, h, w] = case.input;
    let seed = (n * 1000 + ic * 100 + case.oc) as u64;
    let x = random_i8(seed, n * ic * h * w);
    let weight = random_i8(seed + 1, case.oc * ic);
    let scales: Vec<f32> = random_f32(seed + 2, case.oc).iter().map(|v| v.abs() * 0.01).collect();
    let bias = random_f32(seed + 3, case.oc);
    let (input_quant, output_quant) = (QuantParams::new(0.02, 3), QuantParams::new(0.05, -5));
    let expected = reference::q8ta_conv2d_pw(&Q8PwReference {
        input: &x,
        input_shape: case.input,
        input_quant,
        weight: &weight,
        weight_scales: &scales,
        bias: Some(&bias),
        output_quant,
        relu: case.relu,
    })
    .map_err(text)?;
    let xt = Tensor::from_i8(ctx, &x, &case.input).map_err(text)?;
    let wt = Tensor::from_i8(ctx, &weight, &[case.oc, ic]).map_err(text)?;
    let st = Tensor::from_f32(ctx, &scales, &[case.oc]).map_err(text)?;
    let bt = Tensor::from_f32(ctx, &bias, &[case.oc]).map_err(text)?;
    let args = Q8ConvPwArgs {
        input: &xt,
        input_quant,
        weight: &wt,
        weight_scales: &st,
        weight_sums: None,
        bias: Some(&bt),
        output_quant,
    };
    let opts = Q8ConvPwOptions {
        activation: if case.relu { Activation::Relu } else { Activation::None },
        ..Default::default()
    };
    let mut summary = String::new();
    for poison in [i8::MIN, i8::MAX] {
        let output = Tensor::from_i8(ctx, &vec![poison; expected.len()], &[n, case.oc, h, w]).map_err(text)?;
        let mut batch = ctx.batch();
        let kernel = match case.kernel {
            Some(kernel) => batch.q8ta_conv2d_pw_into_forced(&args, &opts, kernel, &output),
            None => batch.q8ta_conv2d_pw_into(&args, &opts, &output),
        }
        .map_err(text)?;
        batch.submit_async().await.map_err(text)?;
        let got = output.to_vec_i8_async(ctx).await.map_err(text)?;
        let d = reference::int8_difference(&got, &expected);
        if !d.within_criterion() {
            return Err(format!(
                "via {} (poison {poison}): {} of {} outputs differ, by up to {}",
                kernel.name(),
                d.differing,
                d.len,
                d.max
            ));
        }
        summary = format!("via {}: {} of {} outputs off by 1, none by more", kernel.name(), d.differing, d.len);
    }
    Ok(summary)
}

/// `quantize_per_tensor` and `dequantize_per_tensor` bit-exact against the reference.
async fn check_quantize(ctx: &Context) -> CaseResult {
    let q = QuantParams::new(0.013, -7);
    // Values that saturate at both ends too.
    let values: Vec<f32> = random_f32(41, 2 * 3 * 5 * 7).iter().map(|v| v * 2.5).collect();
    let x = Tensor::from_f32(ctx, &values, &[2, 3, 5, 7]).map_err(text)?;
    let quantized = ctx.quantize_per_tensor_async(&x, q).await.map_err(text)?;
    let got = quantized.to_vec_i8_async(ctx).await.map_err(text)?;
    let expected = reference::quantize_per_tensor(&values, q);
    let wrong = got.iter().zip(&expected).filter(|(a, b)| a != b).count();
    if wrong > 0 {
        return Err(format!("quantize: {wrong} of {} values differ from the reference", got.len()));
    }
    let back = ctx.dequantize_per_tensor_async(&quantized, q).await.map_err(text)?;
    let got_back = back.to_vec_f32_async(ctx).await.map_err(text)?;
    let expected_back = reference::dequantize_per_tensor(&expected, q);
    let wrong = got_back.iter().zip(&expected_back).filter(|(a, b)| a.to_bits() != b.to_bits()).count();
    if wrong > 0 {
        return Err(format!("dequantize: {wrong} of {} values differ from the reference", got_back.len()));
    }
    let saturated = got.iter().filter(|&&v| v == i8::MIN || v == i8::MAX).count();
    Ok(format!("{} values bit-exact both ways ({saturated} saturated)", got.len()))
}

/// A prepared convolution (weights packed once) run on two inputs in one submission.
async fn check_prepared(ctx: &Context) -> CaseResult {
    let (xs, ws) = ([1, 16, 9, 9], [24, 16, 3, 3]);
    let opts = ConvOptions::default().padding(&[1]).activation(Activation::Relu);
    let weight = random_f32(51, ws.iter().product());
    let wt = Tensor::from_f32(ctx, &weight, &ws).map_err(text)?;
    let conv = Conv2d::new_async(ctx, &wt, None, &opts).await.map_err(text)?;
    let inputs = [random_f32(52, xs.iter().product()), random_f32(53, xs.iter().product())];
    let tensors = inputs.iter().map(|x| Tensor::from_f32(ctx, x, &xs)).collect::<Result<Vec<_>, _>>().map_err(text)?;
    let mut batch = ctx.batch();
    let outputs = tensors.iter().map(|x| conv.run(&mut batch, x)).collect::<Result<Vec<_>, _>>().map_err(text)?;
    batch.submit_async().await.map_err(text)?;
    let mut worst = 0f64;
    for (x, y) in inputs.iter().zip(&outputs) {
        let (expected, _) = reference::convolution(x, &xs, &weight, &ws, None, &opts).map_err(text)?;
        worst = worst.max(reference::relative_error(&y.output.to_vec_f32_async(ctx).await.map_err(text)?, &expected));
    }
    if worst <= TOLERANCE {
        Ok(format!("via {}, relative error {worst:.1e}", outputs[0].kernel.name()))
    } else {
        Err(format!("relative error {worst:e} > {TOLERANCE:e}"))
    }
}

/// f16 tensors in channels-last memory format through the planner (a 3×3 layer with bias and ReLU
/// and a depthwise one), checked against the f64 reference of the same f16 values within the f16
/// bound (`reference::f16_bound_ratio`); the output comes back channels-last. A device without
/// shader-f16 must refuse f16 with the typed error naming it, and run the f32 channels-last case.
async fn check_f16_channels_last(ctx: &Context) -> CaseResult {
    let has_f16 = ctx.features().contains(wgpu::Features::SHADER_F16);
    let dtype = if has_f16 { DType::F16 } else { DType::F32 };
    let mut details = Vec::new();
    let layers = [
        ([2usize, 8, 7, 9], [12usize, 8, 3, 3], ConvOptions::default().padding(&[1]).activation(Activation::Relu)),
        ([1, 8, 8, 12], [8, 1, 3, 3], ConvOptions::default().padding(&[1]).groups(8)),
    ];
    for (input, weight, opts) in layers {
        let round = |v: Vec<f32>| -> Vec<f32> {
            v.into_iter().map(|e| if has_f16 { half::f16::from_f32(e).to_f32() } else { e }).collect()
        };
        let x = round(random_f32(71, input.iter().product()));
        let w = round(random_f32(72, weight.iter().product()));
        let oc = weight[0];
        let b = round(random_f32(73, oc));
        let (expected, shape) = reference::convolution(&x, &input, &w, &weight, Some(&b), &opts).map_err(text)?;
        let xt = Tensor::from_f32_as(ctx, &x, &input, dtype).map_err(text)?;
        let xt = ctx.to_memory_format_async(&xt, MemoryFormat::ChannelsLast).await.map_err(text)?;
        let wt = Tensor::from_f32_as(ctx, &w, &weight, dtype).map_err(text)?;
        let bt = Tensor::from_f32_as(ctx, &b, &[oc], dtype).map_err(text)?;
        let y = ctx.convolution_async(&xt, &wt, Some(&bt), &opts).await.map_err(text)?;
        if y.output.memory_format() != MemoryFormat::ChannelsLast {
            return Err(format!("the output is {}, not channels_last", y.output.memory_format()));
        }
        let y = ctx.to_memory_format_async(&y.output, MemoryFormat::Contiguous).await.map_err(text)?;
        let (ok, measure) = if has_f16 {
            let ratio = reference::f16_bound_ratio(&y.to_vec_f16_async(ctx).await.map_err(text)?, &expected);
            (ratio <= 1.0, format!("{ratio:.2} of the f16 bound"))
        } else {
            let err = reference::relative_error(&y.to_vec_f32_async(ctx).await.map_err(text)?, &expected);
            (err <= TOLERANCE, format!("relative error {err:.1e}"))
        };
        if !ok {
            return Err(format!("{input:?} * {weight:?} in {}: {measure}", dtype.name()));
        }
        details.push(format!("{:?} → {shape:?}: {measure}", input));
    }
    if !has_f16 {
        let h = Tensor::from_f16(ctx, &[half::f16::ONE; 16], &[1, 1, 4, 4]).map_err(text)?;
        let hw = Tensor::from_f16(ctx, &[half::f16::ONE; 4], &[1, 1, 2, 2]).map_err(text)?;
        match ctx.convolution_async(&h, &hw, None, &ConvOptions::default()).await {
            Err(Error::MissingFeature { feature: "shader-f16", .. }) => {
                details.push("f16 refused: no shader-f16".into())
            }
            other => return Err(format!("f16 without shader-f16 must be refused, got {other:?}")),
        }
    }
    Ok(format!("{}: {}", dtype.name(), details.join("; ")))
}

/// Bad arguments give the typed error that names the value, before any GPU work.
async fn check_argument_errors(ctx: &Context) -> CaseResult {
    let x = Tensor::from_f32(ctx, &random_f32(61, 2 * 4 * 4), &[1, 2, 4, 4]).map_err(text)?;
    let w = Tensor::from_f32(ctx, &random_f32(62, 3 * 2 * 3 * 3), &[3, 2, 3, 3]).map_err(text)?;
    let wrong_channels = Tensor::from_f32(ctx, &random_f32(63, 3 * 5 * 3 * 3), &[3, 5, 3, 3]).map_err(text)?;
    let q8 = Tensor::from_i8(ctx, &random_i8(64, 2 * 4 * 4), &[1, 2, 4, 4]).map_err(text)?;
    let opts = ConvOptions::default();
    let mut seen = Vec::new();
    let mut expect = |what: &str, result: wgconv::Result<()>, expected: fn(&Error) -> bool| match result {
        Err(e) if expected(&e) => {
            seen.push(what.to_string());
            Ok(())
        }
        Err(e) => Err(format!("{what}: unexpected error {e:?}")),
        Ok(()) => Err(format!("{what}: accepted")),
    };
    let ok = |_| ();
    let zero_stride = ctx.convolution_async(&x, &w, None, &opts.clone().stride(&[0])).await.map(ok);
    expect("stride 0", zero_stride, |e| matches!(e, Error::InvalidOption { option, .. } if *option == "stride"))?;
    let channels = ctx.convolution_async(&x, &wrong_channels, None, &opts).await.map(ok);
    expect(
        "5 weight channels for 2 input channels",
        channels,
        |e| matches!(e, Error::InvalidShape { reason } if reason.contains("[3, 5, 3, 3] has 5 channels per group")),
    )?;
    let int8 = ctx.convolution_async(&q8, &w, None, &opts).await.map(ok);
    expect("an int8 input to the fp32 convolution", int8, |e| matches!(e, Error::DType { .. }))?;
    let read = q8.to_vec_f32_async(ctx).await.map(|_| ());
    expect("an int8 tensor read as f32", read, |e| matches!(e, Error::DType { .. }))?;
    let length = Tensor::from_f32(ctx, &[1.0; 5], &[1, 1, 2, 2]).map(|_| ());
    expect("5 values for 4 elements", length, |e| matches!(e, Error::ByteSize { got_bytes: 20, .. }))?;
    let mut batch = ctx.batch();
    let coop = batch.convolution_forced(&x, &w, None, &opts, &ForcedPlan::kernel(ConvKernel::CoopF16)).map(|_| ());
    if !ctx.cooperative_f16() {
        expect(
            "coop_f16 forced without cooperative matrices",
            coop,
            |e| matches!(e, Error::KernelUnavailable { kernel, .. } if kernel == "coop_f16"),
        )?;
    }
    let q8_stride = Q8ConvPwOptions { stride: vec![2], ..Default::default() };
    let scales = Tensor::from_f32(ctx, &[0.01; 3], &[3]).map_err(text)?;
    let wq = Tensor::from_i8(ctx, &[1; 6], &[3, 2]).map_err(text)?;
    let q = QuantParams::new(0.1, 0);
    let args = Q8ConvPwArgs {
        input: &q8,
        input_quant: q,
        weight: &wq,
        weight_scales: &scales,
        weight_sums: None,
        bias: None,
        output_quant: q,
    };
    let strided = ctx.q8ta_conv2d_pw_async(&args, &q8_stride).await.map(|_| ());
    expect("q8ta_conv2d_pw with stride 2", strided, |e| matches!(e, Error::InvalidOption { .. }))?;
    let bad_scale = ctx.quantize_per_tensor_async(&x, QuantParams::new(0.0, 0)).await.map(|_| ());
    expect("quantization scale 0", bad_scale, |e| matches!(e, Error::InvalidOption { .. }))?;
    Ok(format!("{} errors: {}", seen.len(), seen.join("; ")))
}

/// A buffer destroyed before the call: wgpu's validation error comes back from the awaited call
/// (on the web error scopes resolve later: the runtime settles them before returning), and the
/// context keeps working.
async fn check_gpu_error(ctx: &Context) -> CaseResult {
    let buffer = ctx.device().create_buffer(&wgpu::BufferDescriptor {
        label: Some("destroyed input"),
        size: 4 * 16,
        usage: wgconv::TENSOR_USAGE,
        mapped_at_creation: false,
    });
    let x = Tensor::from_buffer(buffer.clone(), &[1, 1, 4, 4], DType::F32).map_err(text)?;
    let w = Tensor::from_f32(ctx, &[0.5; 9], &[1, 1, 3, 3]).map_err(text)?;
    buffer.destroy();
    let opts = ConvOptions::default();
    let error = match ctx.conv2d_async(&x, &w, None, &opts).await {
        Err(e @ Error::Gpu { .. }) => e,
        Err(e) => return Err(format!("expected a GPU error, got {e:?}")),
        Ok(_) => return Err("a destroyed input was accepted".into()),
    };
    let values: Vec<f32> = (1..=16).map(|v| v as f32).collect();
    let good = Tensor::from_f32(ctx, &values, &[1, 1, 4, 4]).map_err(text)?;
    let y = ctx.conv2d_async(&good, &w, None, &opts).await.map_err(|e| format!("after the error: {e}"))?;
    let got = y.output.to_vec_f32_async(ctx).await.map_err(text)?;
    let (expected, _) =
        reference::convolution(&values, &[1, 1, 4, 4], &[0.5; 9], &[1, 1, 3, 3], None, &opts).map_err(text)?;
    let err = reference::relative_error(&got, &expected);
    if err > TOLERANCE {
        return Err(format!("after the error: relative error {err:e}"));
    }
    let error = error.to_string().split_whitespace().collect::<Vec<_>>().join(" ");
    Ok(format!("{error}; the next call is right (relative error {err:.1e})"))
}

/// Timing a convolution: a positive median, from GPU timestamps where the device has them.
async fn check_timing(ctx: &Context) -> CaseResult {
    let (xs, ws) = ([1, 16, 16, 16], [16, 16, 3, 3]);
    let x = Tensor::from_f32(ctx, &random_f32(71, xs.iter().product()), &xs).map_err(text)?;
    let w = Tensor::from_f32(ctx, &random_f32(72, ws.iter().product()), &ws).map_err(text)?;
    let conv = Conv2d::new_async(ctx, &w, None, &ConvOptions::default().padding(&[1])).await.map_err(text)?;
    let sampling = quick_sampling();
    let timing =
        timing::median_time_async(ctx, &sampling, |batch| conv.run(batch, &x).map(|_| ())).await.map_err(text)?;
    if timing.ms_per_run > 0.0 && timing.ms_per_run.is_finite() {
        Ok(format!("{:.3} ms per run ({:?})", timing.ms_per_run, timing.source))
    } else {
        Err(format!("time {} ms", timing.ms_per_run))
    }
}

/// Tuning times the candidates, remembers the fastest, and the tuned plan gives the right answer.
async fn check_tuning(ctx: &Context) -> CaseResult {
    let (xs, ws) = ([1, 8, 8, 8], [16, 8, 3, 3]);
    let opts = ConvOptions::default().padding(&[1]);
    let (x, weight) = (random_f32(81, xs.iter().product()), random_f32(82, ws.iter().product()));
    let wt = Tensor::from_f32(ctx, &weight, &ws).map_err(text)?;
    let conv = Conv2d::new_async(ctx, &wt, None, &opts).await.map_err(text)?;
    let tuning = conv.tune_async(ctx, &xs, &quick_sampling()).await.map_err(text)?;
    let geometry = ConvGeometry::new(&xs, &ws, None, &opts).map_err(text)?;
    let best = tuning.best().config;
    if ctx.tuned(&geometry) != Some(best) {
        return Err(format!("tuned {best:?} but the context remembers {:?}", ctx.tuned(&geometry)));
    }
    let xt = Tensor::from_f32(ctx, &x, &xs).map_err(text)?;
    let mut batch = ctx.batch();
    let y = conv.run(&mut batch, &xt).map_err(text)?;
    batch.submit_async().await.map_err(text)?;
    let (expected, _) = reference::convolution(&x, &xs, &weight, &ws, None, &opts).map_err(text)?;
    let err = reference::relative_error(&y.output.to_vec_f32_async(ctx).await.map_err(text)?, &expected);
    if y.kernel != best.kernel || err > TOLERANCE {
        return Err(format!("tuned {} ran {} with relative error {err:e}", best.kernel.name(), y.kernel.name()));
    }
    Ok(format!("{} candidates, best {} ({:.3} ms)", tuning.candidates.len(), best.kernel.name(), tuning.best().ms))
}

fn quick_sampling() -> Sampling {
    Sampling { samples: 3, launches: 2, warm_up_ms: 0.0, ..Sampling::default() }
}

fn text(e: impl std::fmt::Display) -> String {
    e.to_string()
}
