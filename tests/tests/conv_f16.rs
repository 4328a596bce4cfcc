//! f16 tensors (`DType::F16`) through every convolution kernel family against the f64 reference
//! of the same f16 values: outputs poisoned with NaN, seeded non-zero data, every kernel that
//! supports each case forced in turn plus the planner, split-K and stream-K forced on the GEMM
//! kernels, and the typed errors for mixed dtypes and a device without `shader-f16`.
//!
//! The bound, per element (`reference::f16_bound_ratio`): |gpu − ref| ≤ 2⁻¹⁰·|ref| +
//! 1e-5·max|ref|: the output's rounding to f16 plus the f32 accumulation. The multiplicands are
//! f16 values already, so the reference sees exactly what the kernels do.

use half::f16;
use wgconv::{
    Activation, ConvGeometry, ConvKernel, ConvOptions, DType, Error, ForcedPlan, GemmSchedule, Tensor, reference,
};
use wgconv_tests::{context, random_f32};

/// Seeded non-zero f16 values (`random_f32` rounded) and the same values as f32.
fn random_f16(seed: u64, count: usize) -> (Vec<f16>, Vec<f32>) {
    let halves: Vec<f16> = random_f32(seed, count).into_iter().map(f16::from_f32).collect();
    let floats = halves.iter().map(|h| h.to_f32()).collect();
    (halves, floats)
}

struct Case<'a> {
    input: &'a [usize],
    weight: &'a [usize],
    opts: ConvOptions,
}

/// Runs `case` (with a bias) in f16 through every kernel that supports it, the planner, and the
/// GEMM kernels with `extra` forced schedules.
fn check(name: &str, seed: u64, case: Case, extra: &[ForcedPlan]) {
    let ctx = context();
    let numel = |s: &[usize]| s.iter().product::<usize>();
    let (xh, x) = random_f16(seed, numel(case.input));
    let (wh, w) = random_f16(seed + 1, numel(case.weight));
    let g0 = ConvGeometry::new(case.input, case.weight, None, &case.opts).unwrap();
    let oc = g0.output_shape()[1];
    let (bh, b) = random_f16(seed + 2, oc);
    let (expected, shape) = reference::convolution(&x, case.input, &w, case.weight, Some(&b), &case.opts).unwrap();

    let xt = Tensor::from_f16(ctx, &xh, case.input).unwrap();
    let wt = Tensor::from_f16(ctx, &wh, case.weight).unwrap();
    let bt = Tensor::from_f16(ctx, &bh, &[oc]).unwrap();
    let kernels = g0.supported_kernels().into_iter().filter(|k| k.runs_f16_tensors());
    let mut runs: Vec<ForcedPlan> = kernels.map(ForcedPlan::kernel).collect();
    runs.push(ForcedPlan::default());
    runs.extend_from_slice(extra);
    let poison = vec![f16::NAN; numel(&shape)];
    for plan in runs {
        let out = Tensor::from_f16(ctx, &poison, &shape).unwrap();
        let kernel = ctx
            .convolution_into_forced(&xt, &wt, Some(&bt), &out, &case.opts, &plan)
            .unwrap_or_else(|e| panic!("{name} {plan:?}: {e}"));
        if let Some(k) = plan.kernel {
            assert_eq!(kernel, k, "{name}: forced kernel not used");
        }
        let got = out.to_vec_f16(ctx).unwrap();
        let worst = reference::f16_bound_ratio(&got, &expected);
        assert!(worst <= 1.0, "{name} via {} ({plan:?}): {worst:.3} × the bound (shape {shape:?})", kernel.name());
    }
    // The allocating form gives an f16 output too.
    let y = ctx.convolution(&xt, &wt, Some(&bt), &case.opts).unwrap();
    assert_eq!(y.output.dtype(), DType::F16);
    assert!(
        reference::f16_bound_ratio(&y.output.to_vec_f16(ctx).unwrap(), &expected) <= 1.0,
        "{name}: allocated output"
    );
}

fn gemm_schedules() -> Vec<ForcedPlan> {
    let split = |k, splits| ForcedPlan { schedule: Some(GemmSchedule::SplitK(splits)), ..ForcedPlan::kernel(k) };
    let stream =
        |k, workgroups| ForcedPlan { schedule: Some(GemmSchedule::StreamK(workgroups)), ..ForcedPlan::kernel(k) };
    vec![
        split(ConvKernel::Gemm, 3),
        split(ConvKernel::GemmM64K32, 2),
        stream(ConvKernel::GemmM64K16, 5),
        ForcedPlan { tile_n: Some(40), ..ForcedPlan::kernel(ConvKernel::GemmN64K16) },
    ]
}

#[test]
fn f16_direct_gemm_and_vec4_kernels() {
    // Odd sizes, padding, stride, ragged GEMM tiles and a K that splits unevenly; IC % 4 == 0
    // so the vec4 kernel runs too.
    let case = Case {
        input: &[2, 8, 11, 9],
        weight: &[20, 8, 3, 3],
        opts: ConvOptions::default().padding(&[1, 2]).stride(&[2, 1]).activation(Activation::Relu),
    };
    check("3x3", 300, case, &gemm_schedules());
    // A 1×1 conv and a dilated grouped one.
    let case = Case { input: &[1, 12, 7, 5], weight: &[6, 12, 1, 1], opts: ConvOptions::default() };
    check("1x1", 310, case, &[]);
    // A 1×1 conv on planes of whole vec4s (`pointwise_vec4` and `pointwise_vec4_split` too), in
    // two output-channel blocks.
    let case = Case { input: &[2, 40, 6, 6], weight: &[20, 40, 1, 1], opts: ConvOptions::default() };
    check("1x1 vec4 planes", 315, case, &[]);
    // 48 and 32 channels: K-tiles within one tap (the one-column loaders) in the staged tiles
    // that divide them, 1×1 in the 16-deep ones.
    let case = Case { input: &[2, 48, 9, 10], weight: &[24, 48, 1, 1], opts: ConvOptions::default() };
    check("1x1 48 channels", 316, case, &gemm_schedules());
    let opts = ConvOptions::default().padding(&[1]).stride(&[2]);
    check("3x3 32 channels", 318, Case { input: &[1, 32, 7, 6], weight: &[20, 32, 3, 3], opts }, &gemm_schedules());
    let opts = ConvOptions::default().groups(2).dilation(&[2]).padding(&[2]);
    check("grouped dilated", 320, Case { input: &[1, 6, 9, 10], weight: &[4, 3, 3, 3], opts }, &[]);
    // An RGB output (`few_oc` among the kernels: K split over 8 threads, ragged runs of 14
    // columns).
    let opts = ConvOptions::default().padding(&[1]).activation(Activation::Relu);
    check("RGB output", 322, Case { input: &[1, 32, 9, 14], weight: &[3, 32, 3, 3], opts }, &[]);
    // Three output pixels (`gemv`, the planner's choice there) with a K of 576.
    let opts = ConvOptions::default().padding(&[1]).stride(&[2]);
    check("3 pixels", 325, Case { input: &[3, 64, 2, 2], weight: &[24, 64, 3, 3], opts }, &[]);
}

#[test]
fn f16_transposed_and_one_dimensional() {
    let opts = ConvOptions::default()
        .transposed(true)
        .stride(&[2])
        .padding(&[1])
        .output_padding(&[1])
        .activation(Activation::Clamp { min: -0.5, max: 0.75 });
    let split = ForcedPlan { schedule: Some(GemmSchedule::SplitK(2)), ..ForcedPlan::kernel(ConvKernel::GemmM64) };
    check("transposed", 330, Case { input: &[2, 6, 5, 7], weight: &[6, 5, 4, 4], opts: opts.clone() }, &[split]);
    // An RGB output (`transposed_few_oc` among the kernels: K split over 8 threads from 16 input
    // channels; at stride 2 in blocks of one pixel per stride phase, f16 runs of 4 adjacent
    // blocks): 19 output columns, 10 blocks a row, so the last run ends ragged.
    let rgb = Case { input: &[2, 16, 5, 9], weight: &[16, 3, 4, 4], opts: opts.clone() };
    assert!(ConvGeometry::new(rgb.input, rgb.weight, None, &rgb.opts).unwrap().supports(ConvKernel::TransposedFewOc));
    check("transposed RGB output", 335, rgb, &[]);
    // The same at stride 3: the stride-phase split (f16 runs of 4 adjacent columns of a phase),
    // phases of 11, 10 and 10 columns.
    let stride3 = Case { input: &[1, 20, 4, 10], weight: &[20, 3, 4, 4], opts: opts.stride(&[3]) };
    assert!(
        ConvGeometry::new(stride3.input, stride3.weight, None, &stride3.opts)
            .unwrap()
            .supports(ConvKernel::TransposedFewOc)
    );
    check("transposed RGB output, stride 3", 336, stride3, &[]);
    let opts = ConvOptions::default().padding(&[2]).stride(&[3]);
    check("conv1d", 340, Case { input: &[2, 4, 29], weight: &[5, 4, 5], opts }, &[]);
}

#[test]
fn f16_depthwise_and_grouped_kernels() {
    // Depthwise 3×3 on a width that is a multiple of 4 (the vec4 row kernel), and one that is not.
    let opts = ConvOptions::default().groups(8).padding(&[1]);
    check("depthwise w16", 350, Case { input: &[2, 8, 13, 16], weight: &[8, 1, 3, 3], opts: opts.clone() }, &[]);
    check("depthwise w15", 360, Case { input: &[1, 8, 10, 15], weight: &[8, 1, 3, 3], opts }, &[]);
    // Depthwise 7×7 stride 2 (tiled window), a channel multiplier, and grouped with 4 output
    // channels per group (grouped_oc4).
    let opts = ConvOptions::default().groups(4).padding(&[3]).stride(&[2]);
    check("depthwise 7x7 s2", 370, Case { input: &[1, 4, 21, 20], weight: &[4, 1, 7, 7], opts }, &[]);
    let opts = ConvOptions::default().groups(3).padding(&[1]);
    check("multiplier", 380, Case { input: &[1, 3, 9, 8], weight: &[6, 1, 3, 3], opts }, &[]);
    let opts = ConvOptions::default().groups(4).padding(&[1]).activation(Activation::Relu);
    check("grouped oc4", 390, Case { input: &[2, 16, 8, 9], weight: &[16, 4, 3, 3], opts }, &[]);
    // A 1D depthwise k31 layer large enough for `depthwise_rows` to run it as one column (R66).
    let opts = ConvOptions::default().groups(128).padding(&[15]);
    check("1D depthwise k31 as a column", 395, Case { input: &[4, 128, 261], weight: &[128, 1, 31], opts }, &[]);
}

/// `DepthwiseVec4` takes f16 tensors whose widths are multiples of 8 in runs of 8 columns
/// (`conv2d_depthwise_vec8.wgsl`): windows of two, three and four runs of 8 halves (the last
/// filled to its 32nd lane), window offsets 0 and 4–7 (padding 0, 4, 3, 2, 1), strides, dilation,
/// filters of 2×2 to 9×9, a channel multiplier, ragged row blocks, the fused activations, runs of
/// 1 and 4 rows (at stride 1 and 2); and a width that is a multiple of 4 only (the 4-wide kernel).
#[test]
fn f16_depthwise_in_runs_of_eight() {
    let dw = |c: u32| ConvOptions::default().groups(c);
    let clamp = Activation::Clamp { min: -0.5, max: 0.5 };
    let cases = [
        ("3x3 w24 clamp", [2, 6, 11, 24], [6, 1, 3, 3], dw(6).padding(&[1]).activation(clamp)),
        ("5x5 w32", [1, 4, 9, 32], [4, 1, 5, 5], dw(4).padding(&[2])),
        ("7x7 w16 relu", [1, 3, 13, 16], [3, 1, 7, 7], dw(3).padding(&[3]).activation(Activation::Relu)),
        ("3x3 s2 w32", [1, 5, 15, 32], [5, 1, 3, 3], dw(5).padding(&[1]).stride(&[2])),
        ("3x3 d2 w16", [1, 2, 10, 16], [2, 1, 3, 3], dw(2).padding(&[2]).dilation(&[2])),
        ("2x2 s2 unpadded w32", [1, 2, 7, 32], [2, 1, 2, 2], dw(2).stride(&[2])),
        ("multiplier 2 w8", [2, 3, 6, 8], [6, 1, 3, 3], dw(3).padding(&[1])),
        // Four runs: offset 5 + 21 lanes, and offset 6 + 26 lanes (all 32); offset 4.
        ("7x7 s2 w32", [1, 3, 9, 32], [3, 1, 7, 7], dw(3).padding(&[3]).stride(&[2])),
        ("5x5 s3 w48", [1, 2, 8, 48], [2, 1, 5, 5], dw(2).padding(&[2]).stride(&[3])),
        ("9x9 w16", [1, 2, 12, 16], [2, 1, 9, 9], dw(2).padding(&[4])),
        ("3x3 w12", [1, 4, 5, 12], [4, 1, 3, 3], dw(4).padding(&[1])),
        // 2^17 threads of 4 rows of the 4-wide kernel: runs of 4 rows, the last block ragged; at
        // stride 2 along the rows too.
        ("3x3 4-row runs", [8, 64, 63, 64], [64, 1, 3, 3], dw(64).padding(&[1])),
        ("3x3 s2x1 4-row runs", [8, 64, 127, 64], [64, 1, 3, 3], dw(64).padding(&[1]).stride(&[2, 1])),
    ];
    for (seed, (name, input, weight, opts)) in (700..).zip(cases) {
        check(name, seed, Case { input: &input, weight: &weight, opts }, &[]);
    }
    // The 8-wide shader ran (the context is shared, so this is all that can be said of it).
    let shaders: Vec<_> = context().compiled_pipelines().into_iter().map(|p| p.shader).collect();
    assert!(shaders.contains(&"shaders/conv2d_depthwise_vec8.wgsl"), "{shaders:?}");
}

#[test]
fn f16_round_trips_odd_lengths() {
    let ctx = context();
    let (h, _) = random_f16(400, 7);
    let t = Tensor::from_f16(ctx, &h, &[7]).unwrap();
    assert_eq!((t.dtype(), t.size_bytes()), (DType::F16, 16));
    assert_eq!(t.to_vec_f16(ctx).unwrap(), h);
    let err = t.to_vec_f32(ctx).unwrap_err();
    assert_eq!(err, Error::DType { tensor: "tensor", expected: DType::F32, got: DType::F16 });
    // Seven halves are not the eight the shape needs.
    let err = Tensor::from_f16(ctx, &h, &[8]).unwrap_err();
    assert!(matches!(err, Error::ByteSize { dtype: DType::F16, expected_bytes: 16, got_bytes: 14, .. }), "{err}");
}

#[test]
fn mixed_dtypes_are_typed_errors() {
    let ctx = context();
    let (xh, x) = random_f16(410, 2 * 4 * 4);
    let (wh, w) = random_f16(411, 3 * 2 * 3 * 3);
    let opts = ConvOptions::default().padding(&[1]);
    let x16 = Tensor::from_f16(ctx, &xh, &[1, 2, 4, 4]).unwrap();
    let w16 = Tensor::from_f16(ctx, &wh, &[3, 2, 3, 3]).unwrap();
    let x32 = Tensor::from_f32(ctx, &x, &[1, 2, 4, 4]).unwrap();
    let w32 = Tensor::from_f32(ctx, &w, &[3, 2, 3, 3]).unwrap();
    let err = ctx.convolution(&x16, &w32, None, &opts).unwrap_err();
    assert_eq!(err, Error::MixedDTypes { tensor: "weight", got: DType::F32, first: "input", expected: DType::F16 });
    assert_eq!(
        err.to_string(),
        "weight is float32, but the input is float16: the tensors of one convolution share a dtype"
    );
    let err = ctx.convolution(&x32, &w16, None, &opts).unwrap_err();
    assert!(matches!(err, Error::MixedDTypes { tensor: "weight", got: DType::F16, .. }), "{err}");
    let b32 = Tensor::from_f32(ctx, &[0.5; 3], &[3]).unwrap();
    let err = ctx.convolution(&x16, &w16, Some(&b32), &opts).unwrap_err();
    assert!(matches!(err, Error::MixedDTypes { tensor: "bias", .. }), "{err}");
    let out32 = Tensor::zeros(ctx, &[1, 3, 4, 4], DType::F32).unwrap();
    let err = ctx.convolution_into(&x16, &w16, None, &out32, &opts).unwrap_err();
    assert!(matches!(err, Error::MixedDTypes { tensor: "output", .. }), "{err}");
    let err = wgconv::Conv2d::new(ctx, &w16, Some(&b32), &opts).unwrap_err();
    assert!(matches!(err, Error::MixedDTypes { tensor: "bias", first: "weight", .. }), "{err}");
    // An int8 input is not a float convolution.
    let xi = Tensor::from_i8(ctx, &[1; 32], &[1, 2, 4, 4]).unwrap();
    let err = ctx.convolution(&xi, &w16, None, &opts).unwrap_err();
    assert_eq!(err, Error::DType { tensor: "input", expected: DType::F32, got: DType::I8 });
}

#[test]
fn winograd_refuses_f16_tensors_by_name_and_the_planner_steps_past_it() {
    let ctx = context();
    let (input, weight) = ([1usize, 32, 10, 10], [64usize, 32, 3, 3]);
    let (xh, _) = random_f16(430, input.iter().product());
    let (wh, _) = random_f16(431, weight.iter().product());
    let opts = ConvOptions::default().padding(&[1]);
    let xt = Tensor::from_f16(ctx, &xh, &input).unwrap();
    let wt = Tensor::from_f16(ctx, &wh, &weight).unwrap();
    let err = ctx.convolution_forced(&xt, &wt, None, &opts, &ForcedPlan::kernel(ConvKernel::Winograd)).unwrap_err();
    assert!(matches!(err, Error::KernelUnavailable { .. }), "{err}");
    assert!(err.to_string().contains("winograd runs f32 tensors (got F16)"), "{err}");
    // A layer R61 gives F(4×4, 3×3) in f32 (128 channels at 96², 1.4 G multiply-adds, 576
    // columns of tiles) takes another kernel with f16 tensors, neither Winograd's: their
    // transforms are f32. Recorded only: large for lavapipe.
    let (input, weight) = ([1usize, 128, 96, 96], [128usize, 128, 3, 3]);
    let g = ConvGeometry::new(&input, &weight, None, &opts).unwrap();
    assert_eq!(g.planned_kernel(), ConvKernel::Winograd4x4);
    let mut batch = ctx.batch();
    for dtype in [DType::F32, DType::F16] {
        let x = Tensor::zeros(ctx, &input, dtype).unwrap();
        let w = Tensor::zeros(ctx, &weight, dtype).unwrap();
        let kernel = batch.convolution(&x, &w, None, &opts).unwrap().kernel;
        assert_eq!(kernel.is_winograd(), dtype == DType::F32, "{dtype:?}: {kernel:?}");
        assert_eq!(kernel == ConvKernel::Winograd4x4, dtype == DType::F32, "{dtype:?}: {kernel:?}");
    }
}

/// Tuning times f32 tensors: a geometry tuned to Winograd runs its f16 tensors on another kernel
/// (the tuning is kept for f32 ones).
#[test]
fn a_winograd_tuning_does_not_apply_to_f16_tensors() {
    // A context of its own: the tuning stays out of the shared one.
    let ctx = wgconv::Context::new().unwrap();
    let (input, weight) = ([1usize, 8, 6, 6], [8usize, 8, 3, 3]);
    let opts = ConvOptions::default().padding(&[1]);
    let (xh, x) = random_f16(440, input.iter().product());
    let (wh, w) = random_f16(441, weight.iter().product());
    let w32 = Tensor::from_f32(&ctx, &w, &weight).unwrap();
    let conv = wgconv::Conv2d::new(&ctx, &w32, None, &opts).unwrap();
    let sampling = wgconv::timing::Sampling { samples: 1, launches: 1, warm_up_ms: 0.0, ..Default::default() };
    conv.tune(&ctx, &input, &sampling).unwrap();
    // The tuning file with its one entry's choice made Winograd.
    let mut file: serde_json::Value = serde_json::from_str(&ctx.export_tuning()).unwrap();
    file["entries"][0]["config"] =
        serde_json::json!({ "kernel": "winograd", "split_k": 1, "stream_k": null, "tile_n": null });
    assert_eq!(ctx.import_tuning(&file.to_string()).unwrap(), 1);
    let x32 = Tensor::from_f32(&ctx, &x, &input).unwrap();
    assert_eq!(ctx.convolution(&x32, &w32, None, &opts).unwrap().kernel, ConvKernel::Winograd);
    let (expected, _) = reference::convolution(&x, &input, &w, &weight, None, &opts).unwrap();
    let xt = Tensor::from_f16(&ctx, &xh, &input).unwrap();
    let wt = Tensor::from_f16(&ctx, &wh, &weight).unwrap();
    let y = ctx.convolution(&xt, &wt, None, &opts).unwrap();
    assert_ne!(y.kernel, ConvKernel::Winograd);
    assert!(reference::f16_bound_ratio(&y.output.to_vec_f16(&ctx).unwrap(), &expected) <= 1.0);
}

#[test]
fn prepared_f16_convolution_packs_the_f16_weight() {
    let ctx = context();
    let (input, weight) = ([2usize, 16, 9, 9], [24usize, 16, 3, 3]);
    let (xh, x) = random_f16(420, input.iter().product());
    let (wh, w) = random_f16(421, weight.iter().product());
    let opts = ConvOptions::default().padding(&[1]);
    let (expected, shape) = reference::convolution(&x, &input, &w, &weight, None, &opts).unwrap();
    let conv = wgconv::Conv2d::new(ctx, &Tensor::from_f16(ctx, &wh, &weight).unwrap(), None, &opts).unwrap();
    let xt = Tensor::from_f16(ctx, &xh, &input).unwrap();
    let out = Tensor::from_f16(ctx, &vec![f16::NAN; shape.iter().product()], &shape).unwrap();
    let mut batch = ctx.batch();
    let kernel = conv.run_into_forced(&mut batch, &xt, &out, &ForcedPlan::kernel(ConvKernel::GemmM64K16)).unwrap();
    batch.submit().unwrap();
    assert_eq!(kernel, ConvKernel::GemmM64K16);
    assert!(reference::f16_bound_ratio(&out.to_vec_f16(ctx).unwrap(), &expected) <= 1.0);
}

#[test]
fn f16_needs_the_shader_f16_feature() {
    // The test device asks for no features.
    let (device, queue) = wgconv_tests::test_device();
    let ctx = wgconv::Context::from_device(device, queue);
    assert!(!ctx.features().contains(wgpu::Features::SHADER_F16));
    let x = Tensor::from_f16(&ctx, &[f16::ONE; 16], &[1, 1, 4, 4]).unwrap();
    let w = Tensor::from_f16(&ctx, &[f16::ONE; 4], &[1, 1, 2, 2]).unwrap();
    let err = ctx.convolution(&x, &w, None, &ConvOptions::default()).unwrap_err();
    assert!(matches!(err, Error::MissingFeature { feature: "shader-f16", .. }), "{err}");
    assert!(err.to_string().contains("needs the device feature `shader-f16`"), "{err}");
}

#[test]
fn the_bound_catches_one_wrong_element() {
    // Values that f16 cannot hold exactly (1/3 + i/7), so rounding to nearest leaves an error of
    // up to half an ulp: within half the bound's first term.
    let expected: Vec<f64> = (0..64).map(|i| 1.0 / 3.0 + f64::from(i) / 7.0).collect();
    let rounded: Vec<f16> = expected.iter().map(|&r| f16::from_f64(r)).collect();
    let ratio = reference::f16_bound_ratio(&rounded, &expected);
    assert!(ratio > 0.0 && ratio <= 0.5, "rounding to nearest is at most half the bound: {ratio}");
    // One element in [2, 4) two ulps off (an ulp of f16 there is 2⁻⁹): over the bound.
    let mut wrong = rounded.clone();
    assert!((2.0..4.0).contains(&f64::from(rounded[15])));
    wrong[15] = f16::from_f64(f64::from(rounded[15]) + 2.0 / 512.0);
    assert!(reference::f16_bound_ratio(&wrong, &expected) > 1.0);
    wrong[15] = f16::NAN;
    assert_eq!(reference::f16_bound_ratio(&wrong, &expected), f64::INFINITY);
}

/// f16 tensors over one storage binding run in batch chunks like f32 ones when each image is a
/// whole number of 4-byte words; an image of an odd element count cannot be split on the word
/// boundaries buffer copies need, and the error says so.
#[test]
fn f16_over_the_binding_limit_runs_in_chunks_or_says_why_not() {
    let (device, queue) = wgconv_tests::device_with(wgpu::Features::SHADER_F16, |a| wgpu::Limits {
        max_storage_buffer_binding_size: 4096,
        ..a
    });
    let ctx = wgconv::Context::from_device(device, queue);
    let opts = ConvOptions::default().padding(&[1]);
    // 4 images of 1024 halves (2 KiB each, 8 KiB in all): chunks of two.
    let (input, weight) = ([4usize, 4, 16, 16], [4usize, 4, 3, 3]);
    let (xh, x) = random_f16(430, input.iter().product());
    let (wh, w) = random_f16(431, weight.iter().product());
    let (expected, _) = reference::convolution(&x, &input, &w, &weight, None, &opts).unwrap();
    let xt = Tensor::from_f16(&ctx, &xh, &input).unwrap();
    let wt = Tensor::from_f16(&ctx, &wh, &weight).unwrap();
    let y = ctx.convolution(&xt, &wt, None, &opts).unwrap();
    assert!(reference::f16_bound_ratio(&y.output.to_vec_f16(&ctx).unwrap(), &expected) <= 1.0);
    // Images of 3·15·15 = 675 halves (1350 bytes): over the limit, and not splittable.
    let odd = [4usize, 3, 15, 15];
    let xt = Tensor::from_f16(&ctx, &random_f16(432, odd.iter().product()).0, &odd).unwrap();
    let wt = Tensor::from_f16(&ctx, &random_f16(433, 4 * 3 * 9).0, &[4, 3, 3, 3]).unwrap();
    let err = ctx.convolution(&xt, &wt, None, &opts).unwrap_err();
    assert!(
        matches!(&err, Error::InvalidShape { reason } if reason.contains("input's f16 images (1350 bytes each)")),
        "{err}"
    );
}
