//! int8 ops against host references: `q8ta_conv2d_pw` with exact integer accumulation (≥ 99.9 %
//! bit-exact, every output within 1), quantize/dequantize bit-exact, and the float → quantize →
//! q8 conv → dequantize chain against the float convolution within the quantization bound.

use wgconv::{
    Activation, ConvOptions, DType, Error, Q8ConvPwArgs, Q8ConvPwOptions, Q8Kernel, QuantParams, Tensor,
    reference::{self, Q8PwReference},
};
use wgconv_tests::{context, random_f32, random_i8};

struct Q8Case {
    n: usize,
    ic: usize,
    oc: usize,
    h: usize,
    w: usize,
    bias: bool,
    relu: bool,
    input_quant: QuantParams,
    output_quant: QuantParams,
}

impl Default for Q8Case {
    fn default() -> Self {
        Self {
            n: 1,
            ic: 8,
            oc: 4,
            h: 3,
            w: 7,
            bias: true,
            relu: false,
            input_quant: QuantParams::new(0.02, 3),
            output_quant: QuantParams::new(0.05, -5),
        }
    }
}

/// Runs a case; returns (outputs, how many differ from the reference, the max difference).
fn run_q8(name: &str, seed: u64, c: &Q8Case) -> (Vec<i8>, usize, i32) {
    let ctx = context();
    let x = random_i8(seed, c.n * c.ic * c.h * c.w);
    let w = random_i8(seed + 1, c.oc * c.ic);
    let scales: Vec<f32> = random_f32(seed + 2, c.oc).iter().map(|v| v.abs() * 0.01).collect();
    let bias = c.bias.then(|| random_f32(seed + 3, c.oc));
    let expected = reference::q8ta_conv2d_pw(&Q8PwReference {
        input: &x,
        input_shape: [c.n, c.ic, c.h, c.w],
        input_quant: c.input_quant,
        weight: &w,
        weight_scales: &scales,
        bias: bias.as_deref(),
        output_quant: c.output_quant,
        relu: c.relu,
    })
    .unwrap();
    let xt = Tensor::from_i8(ctx, &x, &[c.n, c.ic, c.h, c.w]).unwrap();
    let wt = Tensor::from_i8(ctx, &w, &[c.oc, c.ic]).unwrap();
    let st = Tensor::from_f32(ctx, &scales, &[c.oc]).unwrap();
    let bt = bias.as_ref().map(|b| Tensor::from_f32(ctx, b, &[c.oc]).unwrap());
    let args = Q8ConvPwArgs {
        input: &xt,
        input_quant: c.input_quant,
        weight: &wt,
        weight_scales: &st,
        weight_sums: None,
        bias: bt.as_ref(),
        output_quant: c.output_quant,
    };
    let opts =
        Q8ConvPwOptions { activation: if c.relu { Activation::Relu } else { Activation::None }, ..Default::default() };
    let geometry = wgconv::Q8PwGeometry::new(&args, &opts).unwrap();
    // Every kernel that supports the shape (the tensor-core ones where the context has cooperative
    // matrices: not on lavapipe), then the planner.
    let runs: Vec<Option<Q8Kernel>> = Q8Kernel::ALL
        .into_iter()
        .filter(|k| geometry.supports(*k) && (!k.is_tensor_core() || ctx.cooperative_f16()))
        .map(Some)
        .chain([None])
        .collect();
    let mut result: Option<(Vec<i8>, usize, i32)> = None;
    for kernel in runs {
        // Poison: 0x7f7f… is a plausible int8 value, so unwritten bytes show up as mismatches.
        let out = Tensor::from_i8(ctx, &vec![127; expected.len()], &[c.n, c.oc, c.h, c.w]).unwrap();
        let mut batch = ctx.batch();
        let used = match kernel {
            Some(k) => batch.q8ta_conv2d_pw_into_forced(&args, &opts, k, &out),
            None => batch.q8ta_conv2d_pw_into(&args, &opts, &out),
        }
        .unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(used, kernel.unwrap_or(geometry.planned_kernel_with(ctx.cooperative_f16())), "{name}");
        batch.submit().unwrap();
        let got = out.to_vec_i8(ctx).unwrap();
        let reference::Int8Difference { differing: mismatches, max: max_diff, .. } =
            reference::int8_difference(&got, &expected);
        assert!(max_diff <= 1, "{name} via {}: an output differs by {max_diff} from the reference", used.name());
        assert!(
            mismatches as f64 <= 0.001 * expected.len() as f64,
            "{name} via {}: {mismatches} of {} outputs not bit-exact",
            used.name(),
            expected.len()
        );
        // The kernels sum exactly in integers and requantise with the same f32 arithmetic, so
        // they agree byte for byte (the host reference may round differently by 1).
        if let Some((first, ..)) = &result {
            let differing = first.iter().zip(&got).filter(|(a, b)| a != b).count();
            assert_eq!(differing, 0, "{name} via {}: {differing} bytes differ from q8_scalar's", used.name());
        }
        result = Some((got, mismatches, max_diff));
    }
    result.expect("the planner ran")
}

#[test]
fn partial_channel_blocks_and_odd_widths() {
    for (oc, w) in [(1, 7), (2, 13), (3, 14)] {
        run_q8(&format!("oc {oc} w {w}"), 10 + oc as u64, &Q8Case { oc, w, ..Default::default() });
    }
}

#[test]
fn dot4_gemm_shapes_with_partial_tiles() {
    for (n, ic, oc, h, w) in [
        (2, 8, 70, 4, 17),
        (1, 1024, 5, 4, 4),
        (3, 12, 64, 8, 8),
        (1, 4, 1, 1, 4),
        (2, 68, 130, 2, 34),
        // 40 and 100 output channels: in the 32-pixel tiles' second weight slots (channels
        // 32–63 of a tile) some threads load and others do not.
        (2, 72, 40, 4, 12),
        (1, 132, 100, 2, 34),
        (3, 8, 70, 6, 6),
        (5, 20, 3, 2, 10),
    ] {
        let c = Q8Case { n, ic, oc, h, w, ..Default::default() };
        run_q8(&format!("gemm n{n} ic{ic} oc{oc} {h}x{w}"), 90 + oc as u64, &c);
    }
    run_q8(
        "gemm relu",
        95,
        &Q8Case {
            ic: 16,
            oc: 9,
            h: 4,
            w: 5,
            relu: true,
            input_quant: QuantParams::new(0.03, -7),
            ..Default::default()
        },
    );
}

#[test]
fn dot4_gemm_grid_past_65535_column_tiles() {
    // 2048 × 2052 pixels are 65 664 tiles of 64 columns: the grid continues along z.
    let c = Q8Case { n: 1, ic: 4, oc: 3, h: 2048, w: 2052, ..Default::default() };
    run_q8("gemm 65664 column tiles", 96, &c);
}

#[test]
fn input_channels_not_a_multiple_of_four_and_batches() {
    run_q8("ic 5, n 3", 20, &Q8Case { n: 3, ic: 5, oc: 3, h: 2, w: 13, ..Default::default() });
}

#[test]
fn large_input_channel_count() {
    run_q8(
        "ic 1024",
        30,
        &Q8Case {
            ic: 1024,
            oc: 6,
            h: 2,
            w: 7,
            input_quant: QuantParams::new(0.001, 0),
            output_quant: QuantParams::new(0.4, 2),
            ..Default::default()
        },
    );
}

#[test]
fn bias_off_and_relu() {
    run_q8("no bias", 40, &Q8Case { bias: false, ..Default::default() });
    let (out, _, _) =
        run_q8("relu", 41, &Q8Case { relu: true, output_quant: QuantParams::new(0.05, -20), ..Default::default() });
    assert!(out.iter().all(|v| *v >= -20), "relu output below the zero point");
}

#[test]
fn saturates_at_both_ends() {
    // A tiny output scale pushes most results past ±127.
    let (out, _, _) =
        run_q8("saturation", 50, &Q8Case { ic: 64, output_quant: QuantParams::new(0.0005, 0), ..Default::default() });
    assert!(out.contains(&127) && out.contains(&-128), "expected saturation at both ends");
}

#[test]
fn quantize_and_dequantize_are_bit_exact() {
    let ctx = context();
    let q = QuantParams::new(0.037, -7);
    let mut x: Vec<f32> = random_f32(60, 1001).iter().map(|v| v * 6.0).collect();
    // Exact ties (k + 0.5) · scale and far out-of-range values.
    x.extend([0.5 * 0.037, 1.5 * 0.037, -2.5 * 0.037, 1e9, -1e9, 0.0]);
    let xt = Tensor::from_f32(ctx, &x, &[x.len()]).unwrap();
    let qt = ctx.quantize_per_tensor(&xt, q).unwrap();
    let quantized = qt.to_vec_i8(ctx).unwrap();
    assert_eq!(quantized, reference::quantize_per_tensor(&x, q));
    assert!(quantized.contains(&127) && quantized.contains(&-128));
    let back = ctx.dequantize_per_tensor(&qt, q).unwrap().to_vec_f32(ctx).unwrap();
    let expected = reference::dequantize_per_tensor(&quantized, q);
    assert_eq!(
        back.iter().map(|v| v.to_bits()).collect::<Vec<_>>(),
        expected.iter().map(|v| v.to_bits()).collect::<Vec<_>>()
    );
}

#[test]
fn float_to_quantized_conv_and_back_stays_within_the_quantization_bound() {
    let ctx = context();
    let (n, ic, oc, h, w) = (2, 16, 5, 7, 7);
    let x = random_f32(70, n * ic * h * w);
    let wf = random_f32(71, oc * ic);
    let bias = random_f32(72, oc);
    // Symmetric per-channel weight quantization, as PT2E does.
    let w_scales: Vec<f32> =
        (0..oc).map(|o| wf[o * ic..(o + 1) * ic].iter().fold(0f32, |m, v| m.max(v.abs())) / 127.0).collect();
    let wq: Vec<i8> = (0..oc * ic).map(|i| (wf[i] / w_scales[i / ic]).round().clamp(-127.0, 127.0) as i8).collect();
    let input_quant = QuantParams::new(2.0 / 255.0, 0);
    let (float_out, _) =
        reference::convolution(&x, &[n, ic, h, w], &wf, &[oc, ic, 1, 1], Some(&bias), &ConvOptions::default()).unwrap();
    let max_abs = float_out.iter().fold(0f64, |m, v| m.max(v.abs())) as f32;
    let output_quant = QuantParams::new(max_abs / 120.0, 1);

    let xt = Tensor::from_f32(ctx, &x, &[n, ic, h, w]).unwrap();
    let wt = Tensor::from_i8(ctx, &wq, &[oc, ic]).unwrap();
    let st = Tensor::from_f32(ctx, &w_scales, &[oc]).unwrap();
    let bt = Tensor::from_f32(ctx, &bias, &[oc]).unwrap();
    let mut batch = ctx.batch();
    let xq = batch.quantize_per_tensor(&xt, input_quant).unwrap();
    let args = Q8ConvPwArgs {
        input: &xq,
        input_quant,
        weight: &wt,
        weight_scales: &st,
        weight_sums: None,
        bias: Some(&bt),
        output_quant,
    };
    let yq = batch.q8ta_conv2d_pw(&args, &Q8ConvPwOptions::default()).unwrap();
    let y = batch.dequantize_per_tensor(&yq, output_quant).unwrap();
    batch.submit().unwrap();
    let got = y.to_vec_f32(ctx).unwrap();

    // Per output: input rounding (≤ s_in/2 per tap) times |w|, weight rounding (≤ s_w/2) times |x|,
    // their product, plus one output step (rounding, and an off-by-one from f32 epilogue order).
    let hw = h * w;
    for (i, (g, f)) in got.iter().zip(&float_out).enumerate() {
        let (b, o, p) = (i / (oc * hw), (i / hw) % oc, i % hw);
        let bound: f64 = (0..ic)
            .map(|c| {
                let xv = f64::from(x[(b * ic + c) * hw + p]).abs();
                let wv = f64::from(wf[o * ic + c]).abs();
                let (si, sw) = (f64::from(input_quant.scale), f64::from(w_scales[o]));
                wv * si / 2.0 + xv * sw / 2.0 + si * sw / 4.0
            })
            .sum::<f64>()
            + f64::from(output_quant.scale);
        let err = (f64::from(*g) - f).abs();
        assert!(err <= bound, "output {i}: |{g} − {f}| = {err} > bound {bound}");
    }
}

/// The valid arguments the error cases start from.
struct Valid {
    x: Tensor,
    w: Tensor,
    s: Tensor,
}

fn valid() -> Valid {
    let ctx = context();
    Valid {
        x: Tensor::from_i8(ctx, &[1; 2 * 4 * 3 * 3], &[2, 4, 3, 3]).unwrap(),
        w: Tensor::from_i8(ctx, &[1; 3 * 4], &[3, 4]).unwrap(),
        s: Tensor::from_f32(ctx, &[0.1; 3], &[3]).unwrap(),
    }
}

/// Runs `q8ta_conv2d_pw` on the valid arguments changed by `mutate`; returns the error message.
fn q8_error<'a>(valid: &'a Valid, mutate: impl FnOnce(&mut Q8ConvPwArgs<'a>, &mut Q8ConvPwOptions)) -> String {
    let mut args = Q8ConvPwArgs {
        input: &valid.x,
        input_quant: QuantParams::new(0.1, 0),
        weight: &valid.w,
        weight_scales: &valid.s,
        weight_sums: None,
        bias: None,
        output_quant: QuantParams::new(0.1, 0),
    };
    let mut opts = Q8ConvPwOptions::default();
    mutate(&mut args, &mut opts);
    context().q8ta_conv2d_pw(&args, &opts).unwrap_err().to_string()
}

fn expect(text: String, parts: &[&str]) {
    for p in parts {
        assert!(text.contains(p), "{text:?} should mention {p:?}");
    }
}

#[test]
fn q8_errors_name_the_values() {
    let ctx = context();
    let v = valid();
    let f32_input = Tensor::from_f32(ctx, &[1.0; 2 * 4 * 3 * 3], &[2, 4, 3, 3]).unwrap();
    expect(q8_error(&v, |a, _| a.input = &f32_input), &["input", "int8", "float32"]);
    let f32_weight = Tensor::from_f32(ctx, &[1.0; 12], &[3, 4]).unwrap();
    expect(q8_error(&v, |a, _| a.weight = &f32_weight), &["weight", "int8"]);
    let rank3 = Tensor::from_i8(ctx, &[1; 4 * 9], &[4, 3, 3]).unwrap();
    expect(q8_error(&v, |a, _| a.input = &rank3), &["input", "rank 3", "[4, 3, 3]"]);
    let rank4_weight = Tensor::from_i8(ctx, &[1; 12], &[3, 4, 1, 1]).unwrap();
    expect(q8_error(&v, |a, _| a.weight = &rank4_weight), &["weight", "[OC, IC]", "rank 4"]);
    let wrong_ic = Tensor::from_i8(ctx, &[1; 15], &[3, 5]).unwrap();
    expect(q8_error(&v, |a, _| a.weight = &wrong_ic), &["5 input channels", "has 4"]);
    let short_scales = Tensor::from_f32(ctx, &[0.1; 2], &[2]).unwrap();
    expect(q8_error(&v, |a, _| a.weight_scales = &short_scales), &["weight_scales", "[3]", "[2]"]);
    let int_bias = Tensor::from_i8(ctx, &[1; 3], &[3]).unwrap();
    expect(q8_error(&v, |a, _| a.bias = Some(&int_bias)), &["bias", "float32", "int8"]);
    expect(q8_error(&v, |a, _| a.weight_sums = Some(&[1, 2])), &["weight_sums", "3 values", "got 2"]);
    expect(q8_error(&v, |_, o| o.stride = vec![2]), &["stride 1", "[2]"]);
    expect(q8_error(&v, |_, o| o.padding = vec![0, 1]), &["padding 0", "[0, 1]"]);
    expect(q8_error(&v, |_, o| o.dilation = vec![3]), &["dilation 1", "[3]"]);
    expect(q8_error(&v, |_, o| o.groups = 2), &["groups 1", "got 2"]);
    expect(q8_error(&v, |_, o| o.activation = Activation::Clamp { min: 0.0, max: 6.0 }), &["none or relu", "Clamp"]);
    expect(q8_error(&v, |a, _| a.input_quant.scale = -1.0), &["input scale", "-1"]);
    expect(q8_error(&v, |a, _| a.output_quant.scale = f32::INFINITY), &["output scale", "inf"]);
    expect(q8_error(&v, |a, _| a.input_quant.zero_point = -129), &["input zero point", "-129"]);
    expect(q8_error(&v, |a, _| a.output_quant.zero_point = 200), &["output zero point", "200"]);
}

#[test]
fn tensor_core_kernels_need_cooperative_matrices() {
    let ctx = context();
    if ctx.cooperative_f16() {
        return; // a device that has them runs them in every shape test above
    }
    let v = valid();
    // H·W = 4: a shape the tensor-core kernels take.
    let x = Tensor::from_i8(ctx, &[1; 2 * 4 * 2 * 2], &[2, 4, 2, 2]).unwrap();
    let args = Q8ConvPwArgs {
        input: &x,
        input_quant: QuantParams::new(0.1, 0),
        weight: &v.w,
        weight_scales: &v.s,
        weight_sums: None,
        bias: None,
        output_quant: QuantParams::new(0.1, 0),
    };
    let out = Tensor::zeros(ctx, &[2, 3, 2, 2], DType::I8).unwrap();
    let kernel = Q8Kernel::Coop;
    let err = ctx.batch().q8ta_conv2d_pw_into_forced(&args, &Q8ConvPwOptions::default(), kernel, &out).unwrap_err();
    assert!(matches!(&err, Error::KernelUnavailable { kernel: k, .. } if k == kernel.name()), "{err}");
    expect(err.to_string(), &["cooperative matrices", "WGCONV_COOPERATIVE_MATRIX"]);
    // The planner does not pick it here.
    let g = wgconv::Q8PwGeometry::new(&args, &Q8ConvPwOptions::default()).unwrap();
    assert_eq!(ctx.batch().q8ta_conv2d_pw_into(&args, &Q8ConvPwOptions::default(), &out).unwrap(), g.planned_kernel());
}

#[test]
fn q8_output_and_numel_errors() {
    let ctx = context();
    let x = Tensor::from_i8(ctx, &[1; 4 * 9], &[1, 4, 3, 3]).unwrap();
    let w = Tensor::from_i8(ctx, &[1; 8], &[2, 4]).unwrap();
    let s = Tensor::from_f32(ctx, &[0.1; 2], &[2]).unwrap();
    let q = QuantParams::new(0.1, 0);
    let args = Q8ConvPwArgs {
        input: &x,
        input_quant: q,
        weight: &w,
        weight_scales: &s,
        weight_sums: None,
        bias: None,
        output_quant: q,
    };
    let wrong = Tensor::zeros(ctx, &[1, 3, 3, 3], DType::I8).unwrap();
    let mut batch = ctx.batch();
    let err = batch.q8ta_conv2d_pw_into(&args, &Q8ConvPwOptions::default(), &wrong).unwrap_err();
    assert_eq!(err, Error::OutputShape { expected: vec![1, 2, 3, 3], got: vec![1, 3, 3, 3] });
    let float_out = Tensor::zeros(ctx, &[1, 2, 3, 3], DType::F32).unwrap();
    let err = batch.q8ta_conv2d_pw_into(&args, &Q8ConvPwOptions::default(), &float_out).unwrap_err();
    assert!(matches!(err, Error::DType { tensor: "output", .. }));
    // Empty tensors cannot be made; an empty or over-u32 output is rejected by the pure shape check.
    let err = Tensor::zeros(ctx, &[1, 0, 3, 3], DType::I8).unwrap_err();
    assert!(err.to_string().contains("no elements"), "{err}");
    let err = wgconv::Q8PwGeometry::from_shapes(&[1, 4, 0, 3], &[2, 4], &Q8ConvPwOptions::default()).unwrap_err();
    assert!(err.to_string().contains("output shape [1, 2, 0, 3] is empty"), "{err}");
    let err =
        wgconv::Q8PwGeometry::from_shapes(&[4096, 4, 1024, 1024], &[2, 4], &Q8ConvPwOptions::default()).unwrap_err();
    assert!(matches!(err, Error::TooManyElements { tensor: "output", .. }), "{err}");
    // quantize/dequantize validate their scale and zero point too.
    let err =
        ctx.quantize_per_tensor(&Tensor::zeros(ctx, &[4], DType::F32).unwrap(), QuantParams::new(0.0, 0)).unwrap_err();
    assert!(err.to_string().contains("quantize scale must be positive and finite, got 0"), "{err}");
    let err = ctx
        .dequantize_per_tensor(&Tensor::zeros(ctx, &[4], DType::I8).unwrap(), QuantParams::new(1.0, 300))
        .unwrap_err();
    assert!(err.to_string().contains("dequantize zero point must be in [-128, 127], got 300"), "{err}");
}
