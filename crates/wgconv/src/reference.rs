//! CPU references in f64, used by the tests and by `wgconv … --check`.

use crate::{
    error::{Error, Result},
    ops::{conv_geometry::ConvGeometry, conv_options::ConvOptions, quantized::QuantParams},
    tensor::DType,
};

/// [`Error::ByteSize`] naming `tensor` when `len` f32 values do not make `shape`.
fn check_len(tensor: &'static str, len: usize, shape: &[usize]) -> Result<()> {
    let numel: usize = shape.iter().product();
    if len != numel {
        let bytes = |n: usize| n as u64 * 4;
        let (expected_bytes, got_bytes) = (bytes(numel), bytes(len));
        return Err(Error::ByteSize { tensor, shape: shape.to_vec(), dtype: DType::F32, expected_bytes, got_bytes });
    }
    Ok(())
}

/// The per-element references of `quantize_per_tensor` and `dequantize_per_tensor`.
pub use crate::ops::quantized::{dequantize_value, quantize_value};

/// Convolution on the host in f64. Shapes as for the GPU op; returns the output and its shape.
/// Transposed convolutions are computed in scatter form (each input element adds into the
/// outputs it reaches), independently of the GPU's gather form.
pub fn convolution(
    input: &[f32],
    input_shape: &[usize],
    weight: &[f32],
    weight_shape: &[usize],
    bias: Option<&[f32]>,
    opts: &ConvOptions,
) -> Result<(Vec<f64>, Vec<usize>)> {
    let bias_shape = bias.map(|b| vec![b.len()]);
    let g = ConvGeometry::new(input_shape, weight_shape, bias_shape.as_deref(), opts)?;
    check_len("input", input.len(), input_shape)?;
    check_len("weight", weight.len(), weight_shape)?;
    let [n, ic, ih, iw, oc, oh, ow, kh, kw, groups] =
        [g.n, g.ic, g.ih, g.iw, g.oc, g.oh, g.ow, g.kh, g.kw, g.groups].map(|v| v as usize);
    let [sh, sw] = g.stride.map(|v| v as i64);
    let [ph, pw] = g.padding.map(|v| v as i64);
    let [dh, dw] = g.dilation.map(|v| v as i64);
    let (icg, ocg) = (ic / groups, oc / groups);
    let mut out = vec![0f64; n * oc * oh * ow];
    let x = |b: usize, c: usize, y: usize, xx: usize| f64::from(input[((b * ic + c) * ih + y) * iw + xx]);
    if !g.transposed {
        for b in 0..n {
            for o in 0..oc {
                let grp = o / ocg;
                for y in 0..oh {
                    for xx in 0..ow {
                        let mut acc = 0f64;
                        for i in 0..icg {
                            for ky in 0..kh {
                                let iy = y as i64 * sh - ph + ky as i64 * dh;
                                if iy < 0 || iy >= ih as i64 {
                                    continue;
                                }
                                for kx in 0..kw {
                                    let ix = xx as i64 * sw - pw + kx as i64 * dw;
                                    if ix < 0 || ix >= iw as i64 {
                                        continue;
                                    }
                                    let w = f64::from(weight[((o * icg + i) * kh + ky) * kw + kx]);
                                    acc += x(b, grp * icg + i, iy as usize, ix as usize) * w;
                                }
                            }
                        }
                        out[((b * oc + o) * oh + y) * ow + xx] = acc;
                    }
                }
            }
        }
    } else {
        for b in 0..n {
            for c in 0..ic {
                let grp = c / icg;
                for y in 0..ih {
                    for xx in 0..iw {
                        let v = x(b, c, y, xx);
                        for j in 0..ocg {
                            let o = grp * ocg + j;
                            for ky in 0..kh {
                                let oy = y as i64 * sh - ph + ky as i64 * dh;
                                if oy < 0 || oy >= oh as i64 {
                                    continue;
                                }
                                for kx in 0..kw {
                                    let ox = xx as i64 * sw - pw + kx as i64 * dw;
                                    if ox < 0 || ox >= ow as i64 {
                                        continue;
                                    }
                                    let w = f64::from(weight[((c * ocg + j) * kh + ky) * kw + kx]);
                                    out[((b * oc + o) * oh + oy as usize) * ow + ox as usize] += v * w;
                                }
                            }
                        }
                    }
                }
            }
        }
    }
    for (i, v) in out.iter_mut().enumerate() {
        let o = (i / (oh * ow)) % oc;
        if let Some(bias) = bias {
            *v += f64::from(bias[o]);
        }
        *v = opts.activation.apply(*v);
    }
    Ok((out, g.output_shape()))
}

/// Quantization parameters and data of a host-side `q8ta_conv2d_pw` (see [`q8ta_conv2d_pw`]).
#[derive(Clone, Copy, Debug)]
pub struct Q8PwReference<'a> {
    /// int8 input, NCHW.
    pub input: &'a [i8],
    /// `[N, IC, H, W]`.
    pub input_shape: [usize; 4],
    /// Input quantization.
    pub input_quant: QuantParams,
    /// int8 weight `[OC, IC]`.
    pub weight: &'a [i8],
    /// Per-output-channel weight scales.
    pub weight_scales: &'a [f32],
    /// Optional bias.
    pub bias: Option<&'a [f32]>,
    /// Output quantization.
    pub output_quant: QuantParams,
    /// Fused ReLU.
    pub relu: bool,
}

/// `q8ta_conv2d_pw` on the host: exact i32 accumulation, then the f32 epilogue in the kernel's
/// order. Errors: [`Error::InvalidShape`] when the input, weight or bias length does not match
/// the shape (`[N, IC, H, W]`, `[OC, IC]` with OC the number of weight scales, `[OC]`).
pub fn q8ta_conv2d_pw(r: &Q8PwReference<'_>) -> Result<Vec<i8>> {
    let [n, ic, h, w] = r.input_shape;
    let oc = r.weight_scales.len();
    let lengths = [
        ("input", r.input.len(), n * ic * h * w),
        ("weight", r.weight.len(), oc * ic),
        ("bias", r.bias.map_or(oc, <[f32]>::len), oc),
    ];
    for (name, got, expected) in lengths {
        if got != expected {
            return Err(Error::shape(format!(
                "q8ta_conv2d_pw reference: {name} has {got} values, the input shape {:?} and {oc} weight scales need {expected}",
                r.input_shape
            )));
        }
    }
    let hw = h * w;
    let inv_output_scale = (1.0 / f64::from(r.output_quant.scale)) as f32;
    let mut out = vec![0i8; n * oc * hw];
    for b in 0..n {
        for o in 0..oc {
            for p in 0..hw {
                let acc: i32 = (0..ic)
                    .map(|c| {
                        let x = i32::from(r.input[(b * ic + c) * hw + p]) - r.input_quant.zero_point;
                        x * i32::from(r.weight[o * ic + c])
                    })
                    .sum();
                let mut v = acc as f32 * r.input_quant.scale * r.weight_scales[o];
                if let Some(bias) = r.bias {
                    v += bias[o];
                }
                if r.relu {
                    v = v.max(0.0);
                }
                let q = ((v * inv_output_scale).round_ties_even() as i32).saturating_add(r.output_quant.zero_point);
                out[(b * oc + o) * hw + p] = q.clamp(-128, 127) as i8;
            }
        }
    }
    Ok(out)
}

/// `quantize_per_tensor` on the host.
pub fn quantize_per_tensor(x: &[f32], q: QuantParams) -> Vec<i8> {
    x.iter().map(|v| quantize_value(*v, q)).collect()
}

/// `dequantize_per_tensor` on the host.
pub fn dequantize_per_tensor(x: &[i8], q: QuantParams) -> Vec<f32> {
    x.iter().map(|v| dequantize_value(*v, q)).collect()
}

/// `x` rounded to the nearest IEEE f16 value (ties to even; f16 subnormals kept, ±∞ from
/// 65520, the halfway point above the largest value 65504), as an f32: what the `coop_f16` kernel's multiplicands are. A reference for
/// [`crate::Precision::AllowF16`] rounds its inputs and weights with it first.
pub fn round_to_f16(x: f32) -> f32 {
    if !x.is_finite() {
        return x;
    }
    let a = x.abs();
    // The f16 halfway point above its largest value, 65504; ties to even round up to ∞.
    if a >= 65_520.0 {
        return f32::INFINITY.copysign(x);
    }
    // Spacing of f16 values around `a`: 2^(e − 10) in binade e, 2^−24 among the subnormals.
    let binade = if a < 2f32.powi(-14) { -14 } else { ((a.to_bits() >> 23) & 0xff) as i32 - 127 };
    let spacing = 2f32.powi(binade - 10);
    // Both scalings are by powers of two, so exact.
    ((a / spacing).round_ties_even() * spacing).copysign(x)
}

/// How int8 outputs differ from their reference ([`int8_difference`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Int8Difference {
    /// Outputs that are not bit-exact.
    pub differing: usize,
    /// The largest difference, in int8 steps.
    pub max: i32,
    /// Outputs compared.
    pub len: usize,
}

impl Int8Difference {
    /// The int8 ops' accuracy criterion: at least 99.9 % of the outputs bit-exact and none off by
    /// more than 1 (the float requantization may round a tie the other way).
    pub fn within_criterion(&self) -> bool {
        self.max <= 1 && self.differing * 1000 <= self.len
    }
}

/// Compares int8 outputs with their reference, element by element.
pub fn int8_difference(actual: &[i8], reference: &[i8]) -> Int8Difference {
    assert_eq!(actual.len(), reference.len(), "length mismatch");
    let steps = actual.iter().zip(reference).map(|(a, r)| (i32::from(*a) - i32::from(*r)).abs());
    Int8Difference {
        differing: steps.clone().filter(|&d| d != 0).count(),
        max: steps.max().unwrap_or(0),
        len: actual.len(),
    }
}

/// How far an f16 convolution output is from its f64 reference (computed on the same f16
/// values), as a multiple of the bound the tests and `wgconv conv2d --check` allow: the largest
/// |actual − reference| / (2⁻¹⁰·|reference| + 1e-5·max|reference|) over the elements, ∞ for a NaN.
/// ≤ 1 passes. The first term is the output's rounding to f16 (11 significant bits: 2⁻¹¹
/// relative when rounded to nearest; WGSL lets a conversion round to either neighbour, hence
/// 2⁻¹⁰); the second is the f32 accumulation, the fp32 tests' 1e-5 (it also covers f16
/// subnormals, spaced 2⁻²⁴).
///
/// An element whose reference is NaN or infinite matches only the same value (NaN, or the
/// infinity of the same sign) and counts no further; finite references set the scale.
///
/// # Panics
/// When the slices' lengths differ.
pub fn f16_bound_ratio(actual: &[half::f16], reference: &[f64]) -> f64 {
    assert_eq!(actual.len(), reference.len(), "length mismatch");
    let scale = reference.iter().filter(|r| r.is_finite()).fold(0f64, |m, r| m.max(r.abs()));
    actual
        .iter()
        .zip(reference)
        .map(|(a, r)| {
            let a = f64::from(a.to_f32());
            if same_non_finite(a, *r) {
                return 0.0;
            }
            let d = (a - r).abs();
            if d.is_nan() { f64::INFINITY } else { d / (r.abs() / 1024.0 + 1e-5 * scale) }
        })
        .fold(0f64, f64::max)
}

/// Whether `a` and `r` are the same NaN-or-infinity: a non-finite reference that the output
/// reproduces (a NaN input propagates to NaN outputs, as in PyTorch).
fn same_non_finite(a: f64, r: f64) -> bool {
    (a.is_nan() && r.is_nan()) || (a.is_infinite() && a == r)
}

/// ‖a − b‖₂ / ‖b‖₂ (0 when both are zero): the error measure the tests bound. Elements whose
/// reference is NaN or infinite must equal it (NaN, or the infinity of the same sign) and are
/// left out of both norms; any other NaN or mismatch makes the error infinite.
///
/// # Panics
/// When the slices' lengths differ.
pub fn relative_error(actual: &[f32], reference: &[f64]) -> f64 {
    assert_eq!(actual.len(), reference.len(), "length mismatch");
    let (mut diff, mut norm) = (0f64, 0f64);
    for (a, r) in actual.iter().zip(reference) {
        if same_non_finite(f64::from(*a), *r) {
            continue;
        }
        let d = f64::from(*a) - r;
        diff += if d.is_nan() { f64::INFINITY } else { d * d };
        if r.is_finite() {
            norm += r * r;
        }
    }
    if norm == 0.0 { diff.sqrt() } else { (diff / norm).sqrt() }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn direct_conv_by_hand() {
        // 1×1×3×3 input, 2×2 kernel of ones, stride 1: sums of 2×2 windows, plus bias.
        let x: Vec<f32> = (1..=9).map(|v| v as f32).collect();
        let (y, shape) =
            convolution(&x, &[1, 1, 3, 3], &[1.0; 4], &[1, 1, 2, 2], Some(&[0.5]), &ConvOptions::default()).unwrap();
        assert_eq!(shape, vec![1, 1, 2, 2]);
        assert_eq!(y, vec![12.5, 16.5, 24.5, 28.5]);
    }

    #[test]
    fn transposed_conv_by_hand() {
        // Stride 2 transposed 1D conv of [1, 2] with kernel [1, 10]: [1, 10, 2, 20].
        let (y, shape) = convolution(
            &[1.0, 2.0],
            &[1, 1, 2],
            &[1.0, 10.0],
            &[1, 1, 2],
            None,
            &ConvOptions::default().stride(&[2]).transposed(true),
        )
        .unwrap();
        assert_eq!(shape, vec![1, 1, 4]);
        assert_eq!(y, vec![1.0, 10.0, 2.0, 20.0]);
    }

    #[test]
    fn f16_rounding_ties_to_even() {
        let cases = [
            (1.0, 1.0),
            (1.0 + 2f32.powi(-11), 1.0),
            (1.0 + 3.0 * 2f32.powi(-11), 1.0 + 2f32.powi(-9)),
            (-(1.0 + 2f32.powi(-10)), -(1.0 + 2f32.powi(-10))),
            (0.1, 0.099_975_586),
            (2f32.powi(-24), 2f32.powi(-24)),
            (2f32.powi(-25), 0.0),
            (3.0 * 2f32.powi(-26), 2f32.powi(-24)),
            (2047.5, 2048.0),
            (65_504.0, 65_504.0),
            (65_519.0, 65_504.0),
            (65_520.0, f32::INFINITY),
            (-1e9, f32::NEG_INFINITY),
        ];
        for (x, want) in cases {
            assert_eq!(round_to_f16(x), want, "{x:e}");
        }
        assert!(round_to_f16(f32::NAN).is_nan());
    }

    #[test]
    fn int8_difference_counts_and_bounds() {
        let d = int8_difference(&[1, -128, 5, 7], &[1, 127, 6, 7]);
        assert_eq!(d, Int8Difference { differing: 2, max: 255, len: 4 });
        assert!(!d.within_criterion());
        let one_off: Vec<i8> = (0..1000).map(|i| if i == 0 { 1 } else { 0 }).collect();
        assert!(int8_difference(&one_off, &[0; 1000]).within_criterion());
        assert!(!int8_difference(&one_off[..999], &[0; 999]).within_criterion());
    }

    #[test]
    fn relative_error_flags_nan() {
        assert_eq!(relative_error(&[1.0, 2.0], &[1.0, 2.0]), 0.0);
        assert!(relative_error(&[f32::NAN, 2.0], &[1.0, 2.0]).is_infinite());
    }

    #[test]
    fn non_finite_references_must_be_reproduced() {
        let (nan, inf) = (f64::NAN, f64::INFINITY);
        assert_eq!(relative_error(&[f32::NAN, 2.0, f32::INFINITY], &[nan, 2.0, inf]), 0.0);
        assert!(relative_error(&[0.0, 2.0], &[nan, 2.0]).is_infinite());
        assert!(relative_error(&[f32::NEG_INFINITY, 2.0], &[inf, 2.0]).is_infinite());
        assert!(relative_error(&[f32::NAN, 2.0], &[inf, 2.0]).is_infinite());
        let half = |v: f32| half::f16::from_f32(v);
        assert_eq!(f16_bound_ratio(&[half(f32::NAN), half(1e4)], &[nan, 1e4]), 0.0);
        assert!(f16_bound_ratio(&[half(1.0), half(1e4)], &[nan, 1e4]).is_infinite());
    }

    #[test]
    fn lengths_that_do_not_make_the_shape_are_errors() {
        let opts = ConvOptions::default();
        let err = convolution(&[1.0; 3], &[1, 1, 2, 2], &[1.0], &[1, 1, 1, 1], None, &opts).unwrap_err();
        assert!(matches!(err, Error::ByteSize { tensor: "input", expected_bytes: 16, got_bytes: 12, .. }), "{err}");
        let err = convolution(&[1.0; 4], &[1, 1, 2, 2], &[], &[1, 1, 1, 1], None, &opts).unwrap_err();
        assert!(matches!(err, Error::ByteSize { tensor: "weight", .. }), "{err}");
        let q = QuantParams::new(0.1, 0);
        let r = Q8PwReference {
            input: &[1; 7],
            input_shape: [1, 2, 2, 2],
            input_quant: q,
            weight: &[1; 2],
            weight_scales: &[1.0],
            bias: None,
            output_quant: q,
            relu: false,
        };
        let err = q8ta_conv2d_pw(&r).unwrap_err();
        assert!(err.to_string().contains("input has 7 values"), "{err}");
        assert_eq!(q8ta_conv2d_pw(&Q8PwReference { input: &[1; 8], ..r }).unwrap().len(), 4);
    }

    #[test]
    fn relu_keeps_nan_as_pytorch_does() {
        use crate::Activation;
        assert!(Activation::Relu.apply(f64::NAN).is_nan());
        assert!(Activation::Clamp { min: 0.0, max: 6.0 }.apply(f64::NAN).is_nan());
        assert_eq!(Activation::Relu.apply(-1.0), 0.0);
    }
}
