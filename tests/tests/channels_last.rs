//! Channels-last (NHWC) tensors: the memory-format conversion both ways on f32 and f16 against
//! a host transpose, and convolutions of channels-last tensors — every kernel family, f32 and
//! f16, direct and transposed — whose output follows the input's format, against the f64
//! reference with NaN-poisoned outputs; and the typed errors.

use half::f16;
use wgconv::{ConvGeometry, ConvKernel, ConvOptions, DType, Error, ForcedPlan, MemoryFormat, Tensor, reference};
use wgconv_tests::{context, random_f32};

const TOLERANCE: f64 = 1e-5;

/// NCHW data of `shape` in NHWC order.
fn to_nhwc<T: Copy>(data: &[T], [n, c, h, w]: [usize; 4]) -> Vec<T> {
    let mut out = Vec::with_capacity(data.len());
    for b in 0..n {
        for y in 0..h {
            for x in 0..w {
                for ch in 0..c {
                    out.push(data[((b * c + ch) * h + y) * w + x]);
                }
            }
        }
    }
    out
}

#[test]
fn conversion_both_ways_matches_a_host_transpose() {
    let ctx = context();
    let shape = [2usize, 5, 3, 7];
    let x = random_f32(500, shape.iter().product());
    let t = Tensor::from_f32(ctx, &x, &shape).unwrap();
    assert_eq!(t.memory_format(), MemoryFormat::Contiguous);
    let cl = ctx.to_memory_format(&t, MemoryFormat::ChannelsLast).unwrap();
    assert_eq!((cl.memory_format(), cl.shape()), (MemoryFormat::ChannelsLast, &shape[..]));
    assert_eq!(cl.to_vec_f32(ctx).unwrap(), to_nhwc(&x, shape));
    let back = ctx.to_memory_format(&cl, MemoryFormat::Contiguous).unwrap();
    assert_eq!(back.to_vec_f32(ctx).unwrap(), x);
    // f16, an odd element count (210 halves: the last word half used).
    let h: Vec<f16> = x.iter().map(|&v| f16::from_f32(v)).collect();
    let t16 = Tensor::from_f16(ctx, &h, &shape).unwrap();
    let cl16 = ctx.to_memory_format(&t16, MemoryFormat::ChannelsLast).unwrap();
    assert_eq!(cl16.to_vec_f16(ctx).unwrap(), to_nhwc(&h, shape));
    let back16 = ctx.to_memory_format(&cl16, MemoryFormat::Contiguous).unwrap();
    assert_eq!(back16.to_vec_f16(ctx).unwrap(), h);
    // Already in the format: the same buffer back.
    let same = ctx.to_memory_format(&cl, MemoryFormat::ChannelsLast).unwrap();
    assert_eq!(same.buffer(), cl.buffer());
}

#[test]
fn memory_format_errors_are_typed() {
    let ctx = context();
    let t3 = Tensor::from_f32(ctx, &[1.0; 12], &[1, 3, 4]).unwrap();
    let err = t3.clone().with_memory_format(MemoryFormat::ChannelsLast).unwrap_err();
    assert!(matches!(&err, Error::MemoryFormat { reason, .. } if reason.contains("[1, 3, 4]")), "{err}");
    let err = ctx.to_memory_format(&t3, MemoryFormat::ChannelsLast).unwrap_err();
    assert!(matches!(err, Error::MemoryFormat { .. }), "{err}");
    let i8s = Tensor::from_i8(ctx, &[1; 16], &[1, 1, 4, 4]).unwrap();
    let err = ctx.to_memory_format(&i8s, MemoryFormat::ChannelsLast).unwrap_err();
    assert!(matches!(err, Error::DType { got: DType::I8, .. }), "{err}");
    // A convolution's output follows its input's format.
    let x = Tensor::from_f32(ctx, &random_f32(501, 2 * 16), &[1, 2, 4, 4]).unwrap();
    let w = Tensor::from_f32(ctx, &random_f32(502, 3 * 2 * 9), &[3, 2, 3, 3]).unwrap();
    let opts = ConvOptions::default().padding(&[1]);
    let out_cl =
        Tensor::zeros(ctx, &[1, 3, 4, 4], DType::F32).unwrap().with_memory_format(MemoryFormat::ChannelsLast).unwrap();
    let err = ctx.convolution_into(&x, &w, None, &out_cl, &opts).unwrap_err();
    assert!(
        matches!(&err, Error::MemoryFormat { tensor: "output", reason } if reason.contains("contiguous_format")),
        "{err}"
    );
}

/// Runs one case with a channels-last input (and, when `weight_cl`, weight) through every
/// kernel that supports it and the planner, in `dtype`, against the reference.
fn check(
    name: &str,
    seed: u64,
    input: [usize; 4],
    weight: [usize; 4],
    opts: ConvOptions,
    dtype: DType,
    weight_cl: bool,
) {
    let ctx = context();
    let x = random_f32(seed, input.iter().product());
    let w = random_f32(seed + 1, weight.iter().product());
    let g = ConvGeometry::new(&input, &weight, None, &opts).unwrap();
    let oc = g.output_shape()[1];
    let b = random_f32(seed + 2, oc);
    // f16 tensors hold f16 values: the reference sees the same ones.
    let round = |v: &[f32]| -> Vec<f32> {
        v.iter().map(|&e| if dtype == DType::F16 { f16::from_f32(e).to_f32() } else { e }).collect()
    };
    let (x, w, b) = (round(&x), round(&w), round(&b));
    let (expected, shape) = reference::convolution(&x, &input, &w, &weight, Some(&b), &opts).unwrap();
    let out_shape: [usize; 4] = shape.clone().try_into().unwrap();
    let upload = |data: &[f32], shape: &[usize]| Tensor::from_f32_as(ctx, data, shape, dtype).unwrap();
    let channels_last = |t: Tensor| t.with_memory_format(MemoryFormat::ChannelsLast).unwrap();
    let xt = channels_last(upload(&to_nhwc(&x, input), &input));
    let wt = if weight_cl { channels_last(upload(&to_nhwc(&w, weight), &weight)) } else { upload(&w, &weight) };
    let bt = upload(&b, &[oc]);
    let expected_nhwc = to_nhwc(&expected, out_shape);
    let kernels = g.supported_kernels().into_iter().filter(|k| dtype == DType::F32 || k.runs_f16_tensors());
    let mut runs: Vec<ForcedPlan> = kernels.map(ForcedPlan::kernel).collect();
    runs.push(ForcedPlan::default());
    for plan in runs {
        let poison = channels_last(match dtype {
            DType::F16 => Tensor::from_f16(ctx, &vec![f16::NAN; expected.len()], &shape).unwrap(),
            _ => Tensor::full_f32(ctx, &shape, f32::NAN).unwrap(),
        });
        let kernel = ctx
            .convolution_into_forced(&xt, &wt, Some(&bt), &poison, &opts, &plan)
            .unwrap_or_else(|e| panic!("{name} {plan:?}: {e}"));
        let (ok, err) = match dtype {
            DType::F16 => {
                let ratio = reference::f16_bound_ratio(&poison.to_vec_f16(ctx).unwrap(), &expected_nhwc);
                (ratio <= 1.0, ratio)
            }
            _ => {
                let err = reference::relative_error(&poison.to_vec_f32(ctx).unwrap(), &expected_nhwc);
                (err <= TOLERANCE, err)
            }
        };
        assert!(ok, "{name} ({dtype}) via {}: error {err:e}", kernel.name());
    }
    // The allocating form's output is channels-last too.
    let y = ctx.convolution(&xt, &wt, Some(&bt), &opts).unwrap();
    assert_eq!(y.output.memory_format(), MemoryFormat::ChannelsLast);
}

#[test]
fn channels_last_convolutions_match_the_reference() {
    let o = ConvOptions::default;
    for dtype in [DType::F32, DType::F16] {
        check("3x3", 510, [2, 8, 9, 7], [12, 8, 3, 3], o().padding(&[1]).stride(&[2, 1]), dtype, false);
        check("3x3 weight cl", 520, [1, 8, 6, 6], [4, 8, 3, 3], o().padding(&[1]), dtype, true);
        check("depthwise", 530, [2, 8, 8, 12], [8, 1, 3, 3], o().groups(8).padding(&[1]), dtype, false);
        let transposed = o().transposed(true).stride(&[2]).padding(&[1]);
        check("transposed", 540, [1, 6, 5, 4], [6, 3, 4, 4], transposed, dtype, false);
    }
}

#[test]
fn prepared_convolution_takes_a_channels_last_weight() {
    let ctx = context();
    let (input, weight) = ([1usize, 4, 5, 5], [6usize, 4, 3, 3]);
    let x = random_f32(550, input.iter().product());
    let w = random_f32(551, weight.iter().product());
    let opts = ConvOptions::default().padding(&[1]);
    let (expected, _) = reference::convolution(&x, &input, &w, &weight, None, &opts).unwrap();
    let wt =
        Tensor::from_f32(ctx, &to_nhwc(&w, weight), &weight).unwrap().with_memory_format(MemoryFormat::ChannelsLast);
    let conv = wgconv::Conv2d::new(ctx, &wt.unwrap(), None, &opts).unwrap();
    let xt = Tensor::from_f32(ctx, &x, &input).unwrap();
    let mut batch = ctx.batch();
    let y = conv.run_forced(&mut batch, &xt, &ForcedPlan::kernel(ConvKernel::Gemm)).unwrap();
    batch.submit().unwrap();
    assert_eq!(y.output.memory_format(), MemoryFormat::Contiguous);
    assert!(reference::relative_error(&y.output.to_vec_f32(ctx).unwrap(), &expected) <= TOLERANCE);
}

/// The channels-last tensor-core kernel where the device has cooperative matrices (checked
/// against the reference: it is exact on f16 values); elsewhere forcing it is a typed error and
/// the planner runs channels-last tensors on the other kernels.
#[test]
fn coop_nhwc_runs_only_with_cooperative_matrices() {
    let ctx = context();
    let (input, weight) = ([2usize, 16, 7, 9], [24usize, 16, 3, 3]);
    let x: Vec<f32> = random_f32(560, input.iter().product()).iter().map(|&v| f16::from_f32(v).to_f32()).collect();
    let w: Vec<f32> = random_f32(561, weight.iter().product()).iter().map(|&v| f16::from_f32(v).to_f32()).collect();
    let opts = ConvOptions::default().padding(&[1]);
    let (expected, shape) = reference::convolution(&x, &input, &w, &weight, None, &opts).unwrap();
    let half = |v: &[f32]| v.iter().map(|&e| f16::from_f32(e)).collect::<Vec<_>>();
    let xt = Tensor::from_f16(ctx, &half(&to_nhwc(&x, input)), &input).unwrap();
    let xt = xt.with_memory_format(MemoryFormat::ChannelsLast).unwrap();
    let wt = Tensor::from_f16(ctx, &half(&w), &weight).unwrap();
    let forced = ForcedPlan::kernel(ConvKernel::CoopNhwc);
    let planned = ctx.convolution(&xt, &wt, None, &opts).unwrap();
    let expected_nhwc = to_nhwc(&expected, shape.clone().try_into().unwrap());
    assert!(reference::f16_bound_ratio(&planned.output.to_vec_f16(ctx).unwrap(), &expected_nhwc) <= 1.0);
    if ctx.cooperative_f16() {
        assert_eq!(planned.kernel, ConvKernel::CoopNhwc);
        let y = ctx.convolution_forced(&xt, &wt, None, &opts, &forced).unwrap();
        assert!(reference::f16_bound_ratio(&y.output.to_vec_f16(ctx).unwrap(), &expected_nhwc) <= 1.0);
    } else {
        assert_ne!(planned.kernel, ConvKernel::CoopNhwc);
        let err = ctx.convolution_forced(&xt, &wt, None, &opts, &forced).unwrap_err();
        assert!(matches!(&err, Error::KernelUnavailable { kernel, .. } if kernel == "coop_nhwc"), "{err}");
        assert!(err.to_string().contains("kernel coop_nhwc needs f16 16×16×16 cooperative matrices"), "{err}");
    }
}
