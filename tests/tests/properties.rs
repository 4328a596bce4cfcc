//! Property tests (seeded, bounded for CI): random valid convolutions through every kernel equal
//! the f64 reference; random invalid arguments always give a typed error, never a panic; the same
//! for the int8 ops.

use proptest::{prelude::*, test_runner::RngSeed};
use wgconv::{
    Activation, ConvGeometry, ConvKernel, ConvOptions, ForcedPlan, GemmSchedule, Q8ConvPwArgs, Q8ConvPwOptions,
    Q8Kernel, Q8PwGeometry, QuantParams, Tensor, reference,
};
use wgconv_tests::{context, random_f32, random_i8};

fn config(cases: u32) -> ProptestConfig {
    ProptestConfig {
        cases,
        rng_seed: RngSeed::Fixed(0x5eed_c0de),
        failure_persistence: None,
        ..ProptestConfig::default()
    }
}

/// A convolution description: sizes are drawn small so lavapipe runs dozens per second.
#[derive(Debug, Clone)]
struct ConvCase {
    n: usize,
    groups: u32,
    icg: usize,
    ocg: usize,
    spatial: Vec<usize>,
    kernel: Vec<usize>,
    opts: ConvOptions,
    transposed: bool,
    bias: bool,
    /// GEMM tile width for the stream-K run.
    tile_n: u32,
}

fn conv_case() -> impl Strategy<Value = ConvCase> {
    (
        1usize..=2,
        1u32..=3,
        1usize..=5,
        1usize..=5,
        prop::bool::ANY,
        (1usize..=9, 1usize..=9),
        (1usize..=4, 1usize..=4),
        (1u32..=3, 1u32..=3, 0u32..=2, 0u32..=2, 1u32..=3, 1u32..=3),
        prop::bool::ANY,
        (0u32..=2, prop::bool::ANY),
        (4u32..=16).prop_map(|eighths| eighths * 8),
    )
        .prop_map(
            |(
                n,
                groups,
                icg,
                ocg,
                one_d,
                (h, w),
                (kh, kw),
                (sh, sw, ph, pw, dh, dw),
                transposed,
                (op, bias),
                tile_n,
            )| {
                let (spatial, kernel, stride, padding, dilation) = if one_d {
                    (vec![w], vec![kw], vec![sw], vec![pw], vec![dw])
                } else {
                    (vec![h, w], vec![kh, kw], vec![sh, sw], vec![ph, pw], vec![dh, dw])
                };
                let output_padding: Vec<u32> = if transposed {
                    stride.iter().zip(&dilation).map(|(s, d)| op.min(s.max(d) - 1)).collect()
                } else {
                    vec![0; stride.len()]
                };
                let opts = ConvOptions::default()
                    .stride(&stride)
                    .padding(&padding)
                    .dilation(&dilation)
                    .output_padding(&output_padding)
                    .groups(groups)
                    .transposed(transposed)
                    .activation(if op == 1 { Activation::Relu } else { Activation::None });
                ConvCase { n, groups, icg, ocg, spatial, kernel, opts, transposed, bias, tile_n }
            },
        )
}

impl ConvCase {
    fn shapes(&self) -> (Vec<usize>, Vec<usize>, usize) {
        let g = self.groups as usize;
        let mut input = vec![self.n, self.icg * g];
        input.extend(&self.spatial);
        let mut weight = if self.transposed { vec![self.icg * g, self.ocg] } else { vec![self.ocg * g, self.icg] };
        weight.extend(&self.kernel);
        (input, weight, self.ocg * g)
    }
}

proptest! {
    #![proptest_config(config(24))]

    #[test]
    fn every_kernel_matches_the_reference(case in conv_case()) {
        let (input, weight, oc) = case.shapes();
        let bias_shape = [oc];
        let geometry = ConvGeometry::new(&input, &weight, case.bias.then_some(&bias_shape[..]), &case.opts);
        // Kernels larger than the padded input are rejected; those cases are not about numerics.
        prop_assume!(geometry.is_ok());
        let geometry = geometry.unwrap();
        let ctx = context();
        let x = random_f32(1, input.iter().product());
        let w = random_f32(2, weight.iter().product());
        let b = case.bias.then(|| random_f32(3, oc));
        let (expected, shape) = reference::convolution(&x, &input, &w, &weight, b.as_deref(), &case.opts).unwrap();
        let xt = Tensor::from_f32(ctx, &x, &input).unwrap();
        let wt = Tensor::from_f32(ctx, &w, &weight).unwrap();
        let bt = b.as_ref().map(|b| Tensor::from_f32(ctx, b, &[oc]).unwrap());
        let mut kernels: Vec<Option<ConvKernel>> = geometry.supported_kernels().into_iter().map(Some).collect();
        kernels.push(None);
        for kernel in kernels {
            let out = Tensor::full_f32(ctx, &shape, f32::NAN).unwrap();
            let forced = ForcedPlan { kernel, ..ForcedPlan::default() };
            let used = ctx.convolution_into_forced(&xt, &wt, bt.as_ref(), &out, &case.opts, &forced).unwrap();
            let err = reference::relative_error(&out.to_vec_f32(ctx).unwrap(), &expected);
            prop_assert!(err <= 1e-5, "{} on {:?}: relative error {:e}", used.name(), case, err);
        }
        // Stream-K over three workgroups where it can run (tiles and K-tiles then split unevenly),
        // in tiles of a random width; where it cannot, the error names the forced value.
        if geometry.supports(ConvKernel::Gemm) {
            let out = Tensor::full_f32(ctx, &shape, f32::NAN).unwrap();
            let forced = ForcedPlan {
                kernel: Some(ConvKernel::Gemm),
                tile_n: Some(case.tile_n),
                schedule: Some(GemmSchedule::StreamK(3)),
                k_tile_loads: None,
                tile_order: None,
            };
            match ctx.convolution_into_forced(&xt, &wt, bt.as_ref(), &out, &case.opts, &forced) {
                Ok(_) => {
                    let err = reference::relative_error(&out.to_vec_f32(ctx).unwrap(), &expected);
                    prop_assert!(err <= 1e-5, "stream-K on {:?}: relative error {:e}", case, err);
                }
                Err(e) => prop_assert!(e.to_string().contains("stream_k 3"), "{:?}: {}", case, e),
            }
        }
    }
}

fn small_list() -> impl Strategy<Value = Vec<u32>> {
    prop::collection::vec(0u32..=3, 0..=3)
}

proptest! {
    #![proptest_config(config(512))]

    /// Any shapes and options: `ConvGeometry::new` returns Ok or a typed error, never panics, and
    /// an Ok geometry has a non-empty output that fits u32 indices.
    #[test]
    fn invalid_convolutions_are_typed_errors(
        input in prop::collection::vec(0usize..=6, 0..=5),
        weight in prop::collection::vec(0usize..=6, 0..=5),
        bias in prop::option::of(prop::collection::vec(0usize..=6, 0..=2)),
        stride in small_list(), padding in small_list(), dilation in small_list(), output_padding in small_list(),
        groups in 0u32..=4, transposed in prop::bool::ANY, clamp in (-2.0f32..2.0, -2.0f32..2.0),
    ) {
        let opts = ConvOptions::default()
            .stride(&stride)
            .padding(&padding)
            .dilation(&dilation)
            .output_padding(&output_padding)
            .groups(groups)
            .transposed(transposed)
            .activation(Activation::Clamp { min: clamp.0, max: clamp.1 });
        match ConvGeometry::new(&input, &weight, bias.as_deref(), &opts) {
            Ok(g) => {
                let count: u64 = g.output_shape().iter().map(|d| *d as u64).product();
                prop_assert!(count > 0 && count <= u64::from(u32::MAX));
                prop_assert!(!g.supported_kernels().is_empty());
            }
            Err(e) => prop_assert!(!e.to_string().is_empty()),
        }
    }

    /// int8 shape checks never panic either.
    #[test]
    fn invalid_q8_shapes_are_typed_errors(
        input in prop::collection::vec(0usize..=70_000, 0..=5),
        weight in prop::collection::vec(0usize..=70_000, 0..=3),
        stride in small_list(), groups in 0u32..=3,
    ) {
        let opts = Q8ConvPwOptions { stride, groups, ..Default::default() };
        if let Ok(g) = Q8PwGeometry::from_shapes(&input, &weight, &opts) {
            prop_assert!(g.output_shape().iter().all(|d| *d > 0));
        }
    }
}

proptest! {
    #![proptest_config(config(16))]

    #[test]
    fn q8_kernels_match_the_integer_reference(
        n in 1usize..=2, ic4 in 1usize..=6, ic_extra in 0usize..=1, oc in 1usize..=9, h in 1usize..=5, w in 1usize..=9,
        zp_in in -128i32..=127, zp_out in -128i32..=127, relu in prop::bool::ANY, bias in prop::bool::ANY, seed in 0u64..1000,
    ) {
        let ic = ic4 * 4 + ic_extra;
        let ctx = context();
        let x = random_i8(seed, n * ic * h * w);
        let wq = random_i8(seed + 1, oc * ic);
        let scales: Vec<f32> = random_f32(seed + 2, oc).iter().map(|v| v.abs() * 0.02).collect();
        let b = bias.then(|| random_f32(seed + 3, oc));
        let (input_quant, output_quant) = (QuantParams::new(0.03, zp_in), QuantParams::new(0.07, zp_out));
        let expected = reference::q8ta_conv2d_pw(&reference::Q8PwReference {
            input: &x, input_shape: [n, ic, h, w], input_quant, weight: &wq, weight_scales: &scales,
            bias: b.as_deref(), output_quant, relu,
        }).unwrap();
        let xt = Tensor::from_i8(ctx, &x, &[n, ic, h, w]).unwrap();
        let wt = Tensor::from_i8(ctx, &wq, &[oc, ic]).unwrap();
        let st = Tensor::from_f32(ctx, &scales, &[oc]).unwrap();
        let bt = b.as_ref().map(|b| Tensor::from_f32(ctx, b, &[oc]).unwrap());
        let args = Q8ConvPwArgs { input: &xt, input_quant, weight: &wt, weight_scales: &st, weight_sums: None, bias: bt.as_ref(), output_quant };
        let activation = if relu { Activation::Relu } else { Activation::None };
        let geometry = Q8PwGeometry::new(&args, &Q8ConvPwOptions { activation, ..Default::default() }).unwrap();
        for kernel in [Q8Kernel::Scalar, Q8Kernel::Dot4Gemm, Q8Kernel::Dot4GemmN32].into_iter().filter(|k| geometry.supports(*k)) {
            let out = Tensor::from_i8(ctx, &vec![127; expected.len()], &[n, oc, h, w]).unwrap();
            let mut batch = ctx.batch();
            let opts = Q8ConvPwOptions { activation, ..Default::default() };
            batch.q8ta_conv2d_pw_into_forced(&args, &opts, kernel, &out).unwrap();
            batch.submit().unwrap();
            let got = out.to_vec_i8(ctx).unwrap();
            let off_by_one = got.iter().zip(&expected).filter(|(a, b)| a != b).count();
            let worst = got.iter().zip(&expected).map(|(a, b)| (i32::from(*a) - i32::from(*b)).abs()).max().unwrap_or(0);
            prop_assert!(worst <= 1, "{}: difference {}", kernel.name(), worst);
            // ≥ 99.9 % bit-exact: on outputs this small that allows no mismatch below 1000 elements.
            prop_assert!(off_by_one as f64 <= 0.001 * expected.len() as f64, "{}: {} mismatches", kernel.name(), off_by_one);
        }
    }

    #[test]
    fn quantize_round_trip_matches_the_reference(
        len in 1usize..=300, scale in 0.001f32..2.0, zp in -128i32..=127, seed in 0u64..1000, spread in 0.1f32..300.0,
    ) {
        let ctx = context();
        let q = QuantParams::new(scale, zp);
        let x: Vec<f32> = random_f32(seed, len).iter().map(|v| v * spread).collect();
        let xt = Tensor::from_f32(ctx, &x, &[len]).unwrap();
        let qt = ctx.quantize_per_tensor(&xt, q).unwrap();
        let quantized = qt.to_vec_i8(ctx).unwrap();
        prop_assert_eq!(&quantized, &reference::quantize_per_tensor(&x, q));
        let back = ctx.dequantize_per_tensor(&qt, q).unwrap().to_vec_f32(ctx).unwrap();
        prop_assert_eq!(back, reference::dequantize_per_tensor(&quantized, q));
    }
}
