//! NaN and infinity in a convolution's input come out as PyTorch's do: through every kernel, a
//! NaN stays NaN through ReLU and clamp, and an infinity reaches the outputs it touches (the
//! Winograd kernels excepted: their input transform subtracts inputs, so ∞ − ∞ makes NaN, which
//! `ConvKernel::Winograd`'s documentation says; and F(4×4, 3×3), F(4×4, 5×5) and F(6×6, 3×3),
//! `ConvKernel::Winograd4x4`, `ConvKernel::Winograd5x5Tile4` and `ConvKernel::Winograd6x6`,
//! spread a NaN over the output tiles whose input windows hold it; F(2×2, 3×3) and F(2×2, 5×5)
//! do not). Quantizing NaN gives the zero point.

use wgconv::{
    Activation, ConvGeometry, ConvKernel, ConvOptions, Error, ForcedPlan, GemmSchedule, QuantParams, Tensor, reference,
};
use wgconv_tests::{context, random_f32};

/// Every kernel that can run the layer (and the planner, and a K split where the GEMM runs),
/// each against the f64 reference, whose NaN and infinities must be reproduced exactly.
fn every_kernel_reproduces(input: &[usize], weight: &[usize], opts: &ConvOptions, poison: (usize, f32)) -> usize {
    let ctx = context();
    let mut x = random_f32(11, input.iter().product());
    x[poison.0] = poison.1;
    let w = random_f32(12, weight.iter().product());
    let geometry = ConvGeometry::new(input, weight, None, opts).unwrap();
    let b = random_f32(13, geometry.out_channels() as usize);
    let (expected, shape) = reference::convolution(&x, input, &w, weight, Some(&b), opts).unwrap();
    assert!(expected.iter().any(|v| !v.is_finite()), "the poisoned input reaches an output");
    let (xt, wt) = (Tensor::from_f32(ctx, &x, input).unwrap(), Tensor::from_f32(ctx, &w, weight).unwrap());
    let bt = Tensor::from_f32(ctx, &b, &[b.len()]).unwrap();
    let mut plans: Vec<ForcedPlan> = geometry.supported_kernels().into_iter().map(ForcedPlan::kernel).collect();
    plans.push(ForcedPlan::default());
    if geometry.supports(ConvKernel::Gemm) {
        plans.push(ForcedPlan {
            kernel: Some(ConvKernel::Gemm),
            schedule: Some(GemmSchedule::SplitK(2)),
            tile_n: None,
            k_tile_loads: None,
            tile_order: None,
        });
    }
    let mut checked = 0;
    for forced in plans {
        let out = Tensor::full_f32(ctx, &shape, 0.25).unwrap();
        let used = ctx.convolution_into_forced(&xt, &wt, Some(&bt), &out, opts, &forced).unwrap();
        let winograd = used.transforms_winograd_weight() || used == ConvKernel::Winograd;
        if winograd && poison.1.is_infinite() {
            continue;
        }
        let mut got = out.to_vec_f32(ctx).unwrap();
        let mut expected = expected.clone();
        if matches!(used, ConvKernel::Winograd4x4 | ConvKernel::Winograd5x5Tile4 | ConvKernel::Winograd6x6) {
            // Its output transform mixes all 36 (64) products of a tile, so a NaN input makes
            // NaN of whole 4×4 (6×6) tiles: every NaN of the reference must be NaN, the outputs it spread to
            // are left out, and the rest (most of the output) must match.
            assert!(expected.iter().zip(&got).all(|(e, g)| !e.is_nan() || g.is_nan()), "{} lost a NaN", used.name());
            let kept: Vec<(f32, f64)> =
                got.iter().zip(&expected).filter(|(g, e)| !g.is_nan() || e.is_nan()).map(|(g, e)| (*g, *e)).collect();
            assert!(kept.len() * 2 > got.len(), "{} spread a NaN over most of the output", used.name());
            (got, expected) = kept.into_iter().unzip();
        }
        let err = reference::relative_error(&got, &expected);
        assert!(
            err <= 1e-5,
            "{} ({forced:?}) on {input:?} {opts:?}, input {}: relative error {err:e}",
            used.name(),
            poison.1
        );
        checked += 1;
    }
    checked
}

#[test]
fn nan_stays_nan_through_relu_and_clamp_in_every_kernel() {
    let clamp = Activation::Clamp { min: -0.5, max: 0.5 };
    for activation in [Activation::Relu, clamp] {
        let opts = ConvOptions::default().padding(&[1]).activation(activation);
        // Direct, vec4, GEMM tiles, Winograd, few output channels, register blocks (on 12 × 16,
        // where the 4×4 and 6×6 tiles whose windows hold the NaN are a small part of the output).
        assert!(every_kernel_reproduces(&[1, 4, 12, 16], &[4, 4, 3, 3], &opts, (30, f32::NAN)) >= 8);
        // Depthwise.
        let depthwise = opts.clone().groups(8);
        assert!(every_kernel_reproduces(&[2, 8, 6, 8], &[8, 1, 3, 3], &depthwise, (100, f32::NAN)) >= 4);
        // Pointwise, and the GEMV of a single pixel.
        let pointwise = ConvOptions::default().activation(activation);
        assert!(every_kernel_reproduces(&[2, 8, 4, 4], &[12, 8, 1, 1], &pointwise, (5, f32::NAN)) >= 4);
        every_kernel_reproduces(&[1, 16, 1, 1], &[8, 16, 1, 1], &pointwise, (3, f32::NAN));
        // Transposed, by stride phase.
        let transposed = ConvOptions::default().transposed(true).stride(&[2]).padding(&[1]).activation(activation);
        assert!(every_kernel_reproduces(&[1, 4, 5, 5], &[4, 3, 3, 3], &transposed, (12, f32::NAN)) >= 3);
    }
    // 5×5 filters, Winograd F(2×2, 5×5) among them: its 6×6 windows' outer rows and columns
    // reach only the outputs a direct convolution's would (Bᵀ's and Aᵀ's zeros), so a NaN
    // spreads no further than the reference's; F(4×4, 5×5)'s over the 4×4 tiles whose windows
    // hold it, as above (12 × 16: a small part of the output).
    let five = ConvOptions::default().padding(&[2]).activation(Activation::Relu);
    assert!(every_kernel_reproduces(&[1, 4, 7, 9], &[4, 4, 5, 5], &five, (30, f32::NAN)) >= 8);
    assert!(every_kernel_reproduces(&[1, 4, 12, 16], &[4, 4, 5, 5], &five, (30, f32::NAN)) >= 8);
}

#[test]
fn infinities_reach_their_outputs_outside_winograd() {
    let opts = ConvOptions::default().padding(&[1]);
    for inf in [f32::INFINITY, f32::NEG_INFINITY] {
        assert!(every_kernel_reproduces(&[1, 4, 6, 8], &[4, 4, 3, 3], &opts, (30, inf)) >= 7);
        let transposed = ConvOptions::default().transposed(true).stride(&[2]).padding(&[1]);
        every_kernel_reproduces(&[1, 4, 5, 5], &[4, 3, 3, 3], &transposed, (12, inf));
        let relu = ConvOptions::default().activation(Activation::Relu);
        every_kernel_reproduces(&[2, 8, 4, 4], &[12, 8, 1, 1], &relu, (5, inf));
    }
}

#[test]
fn quantizing_nan_gives_the_zero_point() {
    let ctx = context();
    let q = QuantParams::new(0.1, -7);
    let x = Tensor::from_f32(ctx, &[f32::NAN, 1.0, -f32::NAN, f32::INFINITY, f32::NEG_INFINITY], &[5]).unwrap();
    let got = ctx.quantize_per_tensor(&x, q).unwrap().to_vec_i8(ctx).unwrap();
    assert_eq!(got, vec![-7, 3, -7, 127, -128]);
    assert_eq!(got, reference::quantize_per_tensor(&[f32::NAN, 1.0, -f32::NAN, f32::INFINITY, f32::NEG_INFINITY], q));
    // Subnormal scales are refused: the smallest have an infinite reciprocal (0 × ∞ is NaN), and
    // a GPU may flush any of them to zero.
    for scale in [1e-40, 1e-38] {
        let err = ctx.quantize_per_tensor(&x, QuantParams::new(scale, 0)).unwrap_err();
        assert!(matches!(err, Error::InvalidOption { option: "quantization", .. }), "{err}");
        assert!(err.to_string().contains(&format!("{scale:e}")), "{err}");
    }
    ctx.quantize_per_tensor(&x, QuantParams::new(f32::MIN_POSITIVE, 0)).unwrap();
}
