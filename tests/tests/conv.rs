//! fp32 convolution on the GPU against the f64 CPU reference: outputs poisoned with NaN before each
//! run, seeded non-zero data, relative error ‖gpu − ref‖ / ‖ref‖ ≤ 1e-5, and the kernel asserted.

use wgconv::{
    Activation, ConvGeometry, ConvKernel, ConvOptions, DType, ForcedPlan, GemmSchedule, KTileLoads, MemoryFormat,
    Precision, Tensor, TileOrder, reference,
};
use wgconv_tests::{context, random_f32};

const TOLERANCE: f64 = 1e-5;

struct Case<'a> {
    input: &'a [usize],
    weight: &'a [usize],
    bias: bool,
    opts: ConvOptions,
    kernel: ConvKernel,
}

/// Runs one case through every kernel that supports it and through the planner, each into an
/// output poisoned with NaN, against the reference. `case.kernel` is the reference kernel.
/// Returns the reference output for further checks.
fn check(name: &str, seed: u64, case: Case) -> Vec<f64> {
    let geometry = ConvGeometry::new(case.input, case.weight, None, &case.opts).unwrap();
    let mut runs: Vec<Option<ConvKernel>> = geometry.supported_kernels().into_iter().map(Some).collect();
    runs.push(None);
    check_runs(name, seed, case, &runs)
}

/// As [`check`], with `forced`'s tile width and K schedule on every run.
fn check_forced(name: &str, seed: u64, case: Case, forced: ForcedPlan) -> Vec<f64> {
    let geometry = ConvGeometry::new(case.input, case.weight, None, &case.opts).unwrap();
    let mut runs: Vec<Option<ConvKernel>> = geometry.supported_kernels().into_iter().map(Some).collect();
    runs.push(None);
    check_runs_forced(name, seed, case, &runs, forced)
}

/// Output channels of the convolution of `input` by `weight` (dim 1 of its output).
fn output_channels(input: &[usize], weight: &[usize], opts: &ConvOptions) -> usize {
    ConvGeometry::new(input, weight, None, opts).unwrap().output_shape()[1]
}

/// As [`check`], through the given kernels only (`None`: the planner's choice).
fn check_runs(name: &str, seed: u64, case: Case, runs: &[Option<ConvKernel>]) -> Vec<f64> {
    check_runs_forced(name, seed, case, runs, ForcedPlan::default())
}

/// As [`check_runs`], each run with `base`'s tile width and K schedule forced too.
fn check_runs_forced(name: &str, seed: u64, case: Case, runs: &[Option<ConvKernel>], base: ForcedPlan) -> Vec<f64> {
    let ctx = context();
    let numel = |s: &[usize]| s.iter().product::<usize>();
    let x = random_f32(seed, numel(case.input));
    let w = random_f32(seed + 1, numel(case.weight));
    let oc = output_channels(case.input, case.weight, &case.opts);
    let b = case.bias.then(|| random_f32(seed + 2, oc));
    let (expected, shape) = reference::convolution(&x, case.input, &w, case.weight, b.as_deref(), &case.opts)
        .unwrap_or_else(|e| panic!("{name}: reference rejected the case: {e}"));
    let bias_shape = [oc];
    let geometry = ConvGeometry::new(case.input, case.weight, b.as_ref().map(|_| &bias_shape[..]), &case.opts).unwrap();
    assert_eq!(geometry.reference_kernel(), case.kernel, "{name}: wrong reference route");

    let xt = Tensor::from_f32(ctx, &x, case.input).unwrap();
    let wt = Tensor::from_f32(ctx, &w, case.weight).unwrap();
    let bt = b.as_ref().map(|b| Tensor::from_f32(ctx, b, &[oc]).unwrap());
    for &forced in runs {
        let out = Tensor::full_f32(ctx, &shape, f32::NAN).unwrap();
        let plan = ForcedPlan { kernel: forced, ..base };
        let kernel = ctx
            .convolution_into_forced(&xt, &wt, bt.as_ref(), &out, &case.opts, &plan)
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        match forced {
            Some(k) => assert_eq!(kernel, k, "{name}: forced kernel not used"),
            // A tile width or K schedule forced without a kernel picks among the staged GEMM
            // kernels, which the small-grid ones and the few-output-channel ones are not.
            None if (matches!(
                geometry.planned_kernel(),
                ConvKernel::GemmSmall
                    | ConvKernel::GemmSmallK32
                    | ConvKernel::TransposedFewOc
                    | ConvKernel::FewOc
                    | ConvKernel::Winograd
                    | ConvKernel::Winograd4x4
                    | ConvKernel::Winograd6x6
                    | ConvKernel::Winograd5x5Tile4
                    | ConvKernel::PointwiseVec4
                    | ConvKernel::PointwiseVec4Split
                    | ConvKernel::DirectBlock
                    | ConvKernel::DirectTiled
            ) || (geometry.planned_kernel() == ConvKernel::GroupedOc4 && geometry.groups() == 1))
                && (base.tile_n.is_some() || base.schedule.is_some()) =>
            {
                assert!(kernel.is_gemm(), "{name}: a forced tile width or schedule ran {kernel:?}")
            }
            None => assert_eq!(kernel, geometry.planned_kernel(), "{name}: planner choice not used"),
        }
        let got = out.to_vec_f32(ctx).unwrap();
        let err = reference::relative_error(&got, &expected);
        assert!(
            err <= TOLERANCE,
            "{name} via {}: relative error {err:e} > {TOLERANCE:e} (shape {shape:?})",
            kernel.name()
        );
    }
    expected
}

fn opts() -> ConvOptions {
    ConvOptions::default()
}

#[test]
fn odd_sizes_scalar_kernel() {
    let case = Case {
        input: &[1, 3, 7, 9],
        weight: &[5, 3, 3, 3],
        bias: true,
        opts: opts().padding(&[1]),
        kernel: ConvKernel::Direct,
    };
    check("odd sizes", 1, case);
}

#[test]
fn distinct_h_and_w_settings() {
    let o = opts().stride(&[2, 1]).padding(&[1, 0]).dilation(&[1, 2]);
    let a = check(
        "asymmetric",
        2,
        Case { input: &[2, 3, 11, 13], weight: &[4, 3, 3, 2], bias: true, opts: o, kernel: ConvKernel::Direct },
    );
    // The same case with H and W settings swapped is a different convolution: a kernel that mixed
    // up the axes could not pass both.
    let swapped = opts().stride(&[1, 2]).padding(&[0, 1]).dilation(&[2, 1]);
    let b = check(
        "asymmetric swapped",
        2,
        Case { input: &[2, 3, 11, 13], weight: &[4, 3, 3, 2], bias: true, opts: swapped, kernel: ConvKernel::Direct },
    );
    assert_ne!(a.len(), b.len());
}

/// `few_oc` (direct convolutions of up to 4 output channels per group, K split over 8 threads
/// per run of 4 pixels), checked by `check` with every other kernel that runs each case: an RGB
/// output (ragged runs: 19 columns), stride 2 with dilation 2, grouped (3 channels a group), a
/// K shorter than the 8 slices (5 input channels: idle slices), 1D, and a clamp.
#[test]
fn few_output_channels_direct() {
    let few_oc_runs = |case: &Case| {
        let g = ConvGeometry::new(case.input, case.weight, None, &case.opts).unwrap();
        assert!(g.supports(ConvKernel::FewOc), "{:?} {:?}", case.input, case.weight);
    };
    let clamp = Activation::Clamp { min: -0.5, max: 0.6 };
    let cases = [
        (
            "RGB output, ragged runs",
            Case {
                input: &[1, 16, 13, 19],
                weight: &[3, 16, 3, 3],
                bias: true,
                opts: opts().padding(&[1]).activation(Activation::Relu),
                kernel: ConvKernel::DirectVec4,
            },
        ),
        (
            "stride 2, dilation 2",
            Case {
                input: &[2, 24, 17, 23],
                weight: &[4, 24, 3, 3],
                bias: true,
                opts: opts().stride(&[2]).dilation(&[2]).padding(&[2]),
                kernel: ConvKernel::DirectVec4,
            },
        ),
        (
            "grouped, 3 a group",
            Case {
                input: &[1, 32, 9, 10],
                weight: &[6, 16, 3, 3],
                bias: true,
                opts: opts().groups(2).padding(&[1, 0]).activation(clamp),
                kernel: ConvKernel::DirectVec4,
            },
        ),
        (
            "5 input channels",
            Case { input: &[1, 5, 8, 8], weight: &[1, 5, 3, 3], bias: false, opts: opts(), kernel: ConvKernel::Direct },
        ),
        (
            "1D",
            Case {
                input: &[2, 20, 37],
                weight: &[2, 20, 5],
                bias: true,
                opts: opts().padding(&[2]),
                kernel: ConvKernel::DirectVec4,
            },
        ),
        (
            // 38 runs a row: 32 of a 128-column chunk, pixels 32 columns apart, then 6 of the
            // last 22 columns, pixels 6 apart (22 = 4 · 6 − 2, so its last two runs have 3).
            "wide rows",
            Case {
                input: &[1, 16, 3, 150],
                weight: &[3, 16, 3, 3],
                bias: true,
                opts: opts().padding(&[1]),
                kernel: ConvKernel::DirectVec4,
            },
        ),
        (
            // Rows of 3 columns: one run a row, so a warp's runs take all 10 rows of both
            // images (and 22 past them).
            "rows narrower than a run",
            Case {
                input: &[2, 16, 5, 3],
                weight: &[3, 16, 3, 3],
                bias: false,
                opts: opts().padding(&[1]),
                kernel: ConvKernel::DirectVec4,
            },
        ),
    ];
    for (seed, (name, case)) in (770..).zip(cases) {
        few_oc_runs(&case);
        check(name, seed, case);
    }
    let five = ConvGeometry::new(&[1, 4, 5, 5], &[5, 4, 3, 3], None, &opts()).unwrap();
    assert!(!five.supports(ConvKernel::FewOc), "5 output channels a group");
    let transposed = ConvGeometry::new(&[1, 4, 5, 5], &[4, 3, 3, 3], None, &opts().transposed(true)).unwrap();
    assert!(!transposed.supports(ConvKernel::FewOc), "transposed");
}

#[test]
fn dilations_two_to_four() {
    for d in 2..=4u32 {
        let case = Case {
            input: &[1, 2, 12, 10],
            weight: &[3, 2, 3, 3],
            bias: false,
            opts: opts().dilation(&[d]).padding(&[d]),
            kernel: ConvKernel::Direct,
        };
        check(&format!("dilation {d}"), 10 + u64::from(d), case);
    }
}

/// Large dilations and paddings against the image, where the staged GEMM tiles skip the K-tiles
/// of taps that read only padding for all their columns (`skip_taps`): a 3×3 at dilation 9 on
/// 10 × 10 maps (tiles within one image and across two; the 128-column tiles do not skip, too
/// few of their taps read only padding), a 1D filter whose tiles lose half their taps, padding so wide that whole tiles read no input (their output is the bias alone),
/// and a dilation past the map, where only the centre tap reads it (filter rows and columns
/// skipped together). Each through every staged GEMM kernel, then the 16-deep ones with each
/// K-tile loaded in its own iteration, in 3 K-slices (which begin and end inside the skipped
/// taps), stream-K, and at 32 columns; and a strided, grouped layer.
#[test]
fn gemm_tiles_skip_taps_that_read_only_padding() {
    let runs: Vec<_> = ConvKernel::ALL.into_iter().filter(|k| k.is_gemm()).map(Some).collect();
    assert_eq!(runs.len(), 7, "the seven staged GEMM kernels");
    let deep16 = [Some(ConvKernel::GemmK16), Some(ConvKernel::GemmN64K16)];
    let cases = [
        (
            "3×3 d9 p9 on 10²",
            &[2usize, 32, 10, 10][..],
            &[24usize, 32, 3, 3][..],
            false,
            opts().dilation(&[9]).padding(&[9]),
        ),
        ("1D k8 d96 p336", &[2, 32, 256], &[8, 32, 8], false, opts().dilation(&[96]).padding(&[336])),
        ("3×3 p8 on 2 × 3", &[1, 32, 2, 3], &[8, 32, 3, 3], true, opts().padding(&[8])),
        ("3×3 d16 p16 on 12 × 13", &[1, 32, 12, 13], &[16, 32, 3, 3], false, opts().dilation(&[16]).padding(&[16])),
    ];
    for (i, (name, input, weight, bias, opts)) in cases.into_iter().enumerate() {
        let seed = 9100 + 10 * i as u64;
        let case = || Case { input, weight, bias, opts: opts.clone(), kernel: ConvKernel::DirectVec4 };
        check_runs(name, seed, case(), &runs);
        let in_iteration = ForcedPlan { k_tile_loads: Some(KTileLoads::InIteration), ..ForcedPlan::default() };
        check_runs_forced(&format!("{name}, loads in iteration"), seed, case(), &deep16, in_iteration);
        for schedule in [GemmSchedule::SplitK(3), GemmSchedule::StreamK(5)] {
            let forced = ForcedPlan { schedule: Some(schedule), ..ForcedPlan::default() };
            check_runs_forced(&format!("{name}, {schedule:?}"), seed, case(), &deep16, forced);
        }
        let narrow = ForcedPlan { tile_n: Some(32), ..ForcedPlan::default() };
        check_runs_forced(&format!("{name}, 32 columns"), seed, case(), &[Some(ConvKernel::GemmM64K16)], narrow);
    }
    // Stride 2 and two groups on the 64-column tiles, M tiles fastest.
    let strided = Case {
        input: &[1, 64, 20, 34],
        weight: &[48, 32, 3, 3],
        bias: true,
        opts: opts().stride(&[2]).dilation(&[16]).padding(&[16]).groups(2),
        kernel: ConvKernel::DirectVec4,
    };
    let m_fastest = ForcedPlan { tile_order: Some(TileOrder::MFastest), ..ForcedPlan::default() };
    let n64 = [Some(ConvKernel::GemmN64K16), Some(ConvKernel::GemmN64K32)];
    check_runs_forced("3×3 s2 d12 p12, 2 groups", 9150, strided, &n64, m_fastest);
}

#[test]
fn grouped_depthwise_and_channel_multiplier() {
    check(
        "groups 2",
        20,
        Case {
            input: &[1, 6, 8, 7],
            weight: &[4, 3, 3, 3],
            bias: true,
            opts: opts().groups(2).padding(&[1]),
            kernel: ConvKernel::Direct,
        },
    );
    check(
        "depthwise",
        21,
        Case {
            input: &[2, 5, 9, 9],
            weight: &[5, 1, 3, 3],
            bias: true,
            opts: opts().groups(5).padding(&[1]).stride(&[2]),
            kernel: ConvKernel::Direct,
        },
    );
    // Eight and sixteen channels per group: the depthwise kernel's longest channel loops (every
    // supported kernel runs each case).
    for (i, (input, weight)) in
        [(&[1, 16, 7, 9][..], &[6, 8, 3, 3][..]), (&[1, 32, 6, 5][..], &[4, 16, 3, 3][..])].into_iter().enumerate()
    {
        let options = opts().groups(2).padding(&[1]);
        let g = ConvGeometry::new(input, weight, None, &options).unwrap();
        assert!(g.supports(ConvKernel::Depthwise));
        let case = Case { input, weight, bias: true, opts: options, kernel: ConvKernel::DirectVec4 };
        check(&format!("{} channels per group", weight[1]), 24 + i as u64, case);
    }
    // Four channels per group in and out (ResNeXt): the planner takes four output channels per
    // thread.
    let (input, weight) = (&[2, 8, 9, 11][..], &[8, 4, 3, 3][..]);
    let g = ConvGeometry::new(input, weight, None, &opts().groups(2).padding(&[1])).unwrap();
    assert_eq!(g.planned_kernel(), ConvKernel::GroupedOc4);
    check(
        "resnext-like groups",
        23,
        Case { input, weight, bias: true, opts: opts().groups(2).padding(&[1]), kernel: ConvKernel::DirectVec4 },
    );
    check(
        "multiplier 2",
        22,
        Case {
            input: &[1, 4, 6, 6],
            weight: &[8, 1, 3, 3],
            bias: false,
            opts: opts().groups(4),
            kernel: ConvKernel::Direct,
        },
    );
}

/// Four output channels of a group per thread (`grouped_oc4`): ResNeXt-like groups of 4 in and
/// 4 out with bias, a strided layer with 8 per group and an output width that is no multiple
/// of 4, and a depthwise layer with channel multiplier 4 and dilation.
#[test]
fn grouped_four_output_channels_per_thread() {
    let cases = [
        (
            "g4 in4 out4",
            Case {
                input: &[2, 16, 9, 11],
                weight: &[16, 4, 3, 3],
                bias: true,
                opts: opts().groups(4).padding(&[1]),
                kernel: ConvKernel::DirectVec4,
            },
        ),
        (
            "g2 in8 out8 s2",
            Case {
                input: &[1, 16, 13, 14],
                weight: &[16, 8, 3, 3],
                bias: false,
                opts: opts().groups(2).padding(&[1]).stride(&[2]),
                kernel: ConvKernel::DirectVec4,
            },
        ),
        (
            "multiplier 4 dilated",
            Case {
                input: &[1, 3, 10, 7],
                weight: &[12, 1, 3, 3],
                bias: true,
                opts: opts().groups(3).padding(&[2]).dilation(&[2]),
                kernel: ConvKernel::Direct,
            },
        ),
    ];
    for (i, (name, case)) in cases.into_iter().enumerate() {
        let g = ConvGeometry::new(case.input, case.weight, None, &case.opts).unwrap();
        assert!(g.supports(ConvKernel::GroupedOc4), "{name}");
        check(name, 90 + i as u64, case);
    }
}

/// The row-run depthwise kernel at each run length (8, 4, 2 and 1 rows per thread, chosen by
/// thread count, so the cases are thin images of many channels), with ragged last runs: stride
/// 1, and 8 rows at stride 2 with dilation 2; 4 rows with ReLU; a channel multiplier of 2
/// with stride 2, dilation 2 and clamp; a 7×7 filter on a short output (at most 2 rows); and
/// 1×3 on a tiny one (1 row). The GEMM kernels would also run these but are slow on a
/// software rasteriser, so only this kernel and the planner run.
#[test]
fn depthwise_row_runs_of_each_length() {
    let clamp = Activation::Clamp { min: -0.5, max: 0.6 };
    // (name, input, weight, options, rows per thread)
    type RowsCase = (&'static str, &'static [usize], &'static [usize], ConvOptions, u32);
    let cases: [RowsCase; 6] = [
        ("8 rows, 17 tall", &[2, 4864, 17, 9], &[4864, 1, 3, 3], opts().groups(4864).padding(&[1]), 8),
        (
            "8 rows, s2 d2, 17 tall",
            &[1, 13000, 34, 13],
            &[13000, 1, 3, 3],
            opts().groups(13000).padding(&[2]).stride(&[2]).dilation(&[2]),
            8,
        ),
        (
            "4 rows, 10 tall, relu",
            &[2, 3200, 10, 7],
            &[3200, 1, 3, 3],
            opts().groups(3200).padding(&[1]).activation(Activation::Relu),
            4,
        ),
        (
            "2 rows, multiplier 2, s2 d2, clamp",
            &[1, 1000, 25, 11],
            &[2000, 1, 3, 3],
            opts().groups(1000).padding(&[2]).stride(&[2]).dilation(&[2]).activation(clamp),
            2,
        ),
        ("7x7 short output", &[2, 1000, 7, 9], &[1000, 1, 7, 7], opts().groups(1000).padding(&[3]), 2),
        ("1x3 tiny", &[1, 3, 5, 6], &[3, 1, 1, 3], opts().groups(3).padding(&[0, 1]), 1),
    ];
    for (i, (name, input, weight, options, rows_per_thread)) in cases.into_iter().enumerate() {
        let g = ConvGeometry::new(input, weight, None, &options).unwrap();
        // The run length chosen is pinned by `conv_launch`'s unit tests; here the kernel runs.
        let _ = rows_per_thread;
        assert_eq!(g.planned_kernel(), ConvKernel::DepthwiseRows, "{name}");
        let case = Case { input, weight, bias: i % 2 == 0, opts: options, kernel: ConvKernel::Direct };
        check_runs(name, 70 + i as u64, case, &[Some(ConvKernel::DepthwiseRows), None]);
    }
}

/// `depthwise_rows` on single-row layers large enough that it runs them as one column (R66: a
/// plane of one row of W taken as W rows of one, 2 output rows a thread): Conformer's k31
/// "same" depthwise over a ragged length (the last run one row), stride 2 with dilation 2, a
/// channel multiplier of 2, and a 2D layer of one row with a 1×9 filter and a clamp (301 wide:
/// widths of whole vec4s take R4's `depthwise_vec4` instead); bias on every other case. Each
/// is large enough for 2 rows a thread as a column (unit tests in `conv_launch` pin that). Each runs the kernel forced and the planner, into NaN-poisoned outputs,
/// against the f64 reference.
#[test]
fn depthwise_rows_single_rows_as_columns() {
    let clamp = Activation::Clamp { min: -0.5, max: 0.6 };
    type ColumnCase = (&'static str, &'static [usize], &'static [usize], ConvOptions);
    let cases: [ColumnCase; 4] = [
        ("1D k31 same, 261 long", &[4, 128, 261], &[128, 1, 31], opts().groups(128).padding(&[15])),
        ("1D k7 s2 d2", &[2, 512, 260], &[512, 1, 7], opts().groups(512).padding(&[6]).stride(&[2]).dilation(&[2])),
        ("1D multiplier 2, k5", &[2, 200, 330], &[400, 1, 5], opts().groups(200).padding(&[2])),
        (
            "2D one row, 1x9, clamp",
            &[2, 256, 1, 301],
            &[256, 1, 1, 9],
            opts().groups(256).padding(&[0, 4]).activation(clamp),
        ),
    ];
    for (i, (name, input, weight, options)) in cases.into_iter().enumerate() {
        let g = ConvGeometry::new(input, weight, None, &options).unwrap();
        assert_eq!(g.planned_kernel(), ConvKernel::DepthwiseRows, "{name}");
        let case = Case { input, weight, bias: i % 2 == 0, opts: options, kernel: ConvKernel::Direct };
        check_runs(name, 780 + i as u64, case, &[Some(ConvKernel::DepthwiseRows), None]);
    }
}

/// The vec4 depthwise kernel: widths that are multiples of 4, runs of 1, 2 and 4 rows (chosen
/// by thread count: the long runs on thin images of many channels) with ragged last runs, 2
/// rows also at stride 2 with dilation 2, paddings that put the first aligned vec4 one or two
/// vec4s left of the image (pad 2, 3, 5), stride 2, a channel multiplier, 5×5 and 7×7 filters
/// (three vec4s per input row at stride 1, four at stride 2), dilation 2, 1×3 and 3×1 filters
/// (no column padding), bias and fused activations.
#[test]
fn depthwise_vec4_quads() {
    let clamp = Activation::Clamp { min: -0.4, max: 0.5 };
    type Vec4Case = (&'static str, &'static [usize], &'static [usize], ConvOptions);
    let cases: [Vec4Case; 12] = [
        ("4 rows, 10 tall", &[1, 11000, 10, 16], &[11000, 1, 3, 3], opts().groups(11000).padding(&[1])),
        ("7x7, 2 rows, 7 tall", &[2, 6000, 7, 12], &[6000, 1, 7, 7], opts().groups(6000).padding(&[3])),
        (
            "2 rows, s2 d2, 11 tall",
            &[2, 7000, 22, 16],
            &[7000, 1, 3, 3],
            opts().groups(7000).padding(&[2]).stride(&[2]).dilation(&[2]),
        ),
        ("k3 s1 p1", &[2, 5, 13, 16], &[5, 1, 3, 3], opts().groups(5).padding(&[1])),
        (
            "k3 s2 multiplier 2 relu",
            &[1, 3, 17, 24],
            &[6, 1, 3, 3],
            opts().groups(3).padding(&[1]).stride(&[2]).activation(Activation::Relu),
        ),
        ("k7 s1 p3", &[1, 4, 9, 20], &[4, 1, 7, 7], opts().groups(4).padding(&[3])),
        ("k5 p2 clamp", &[1, 2, 6, 8], &[2, 1, 5, 5], opts().groups(2).padding(&[2]).activation(clamp)),
        ("k1x3", &[1, 3, 5, 8], &[3, 1, 1, 3], opts().groups(3).padding(&[0, 1])),
        ("k3x1, no column padding", &[1, 3, 6, 12], &[3, 1, 3, 1], opts().groups(3).padding(&[1, 0])),
        ("k3 d2 p2", &[1, 2, 10, 16], &[2, 1, 3, 3], opts().groups(2).padding(&[2]).dilation(&[2])),
        ("k3 p5", &[1, 2, 6, 8], &[2, 1, 3, 3], opts().groups(2).padding(&[5])),
        ("k7 s2 p3", &[1, 2, 15, 32], &[2, 1, 7, 7], opts().groups(2).padding(&[3]).stride(&[2])),
    ];
    for (i, (name, input, weight, options)) in cases.into_iter().enumerate() {
        let g = ConvGeometry::new(input, weight, None, &options).unwrap();
        assert_eq!(g.planned_kernel(), ConvKernel::DepthwiseVec4, "{name}");
        let case = Case { input, weight, bias: i % 2 == 0, opts: options, kernel: ConvKernel::Direct };
        check_runs(name, 110 + i as u64, case, &[Some(ConvKernel::DepthwiseVec4), None]);
    }
    // Widths that are no multiple of 4, in or out: not this kernel.
    for (input, padding) in [(&[1, 2, 6, 10][..], 1), (&[1, 2, 6, 8][..], 0)] {
        let g = ConvGeometry::new(input, &[2, 1, 3, 3], None, &opts().groups(2).padding(&[padding])).unwrap();
        assert!(!g.supports(ConvKernel::DepthwiseVec4), "{input:?} padding {padding}");
    }
}

/// The tiled depthwise kernel over several blocks in both directions (32 columns, 8–32 rows per
/// block), each tile-height choice, ragged last blocks, dilation, a channel multiplier, and
/// windows that only fit with shorter blocks or not at all.
#[test]
fn depthwise_tiles_cover_every_block() {
    // (name, input, weight, options, expected output rows per thread, planner's kernel)
    type DepthwiseCase = (&'static str, &'static [usize], &'static [usize], ConvOptions, u32, ConvKernel);
    let (rows, tiled, vec4) = (ConvKernel::DepthwiseRows, ConvKernel::DepthwiseTiled, ConvKernel::DepthwiseVec4);
    let cases: [DepthwiseCase; 6] = [
        ("k3 s1 tall", &[2, 3, 64, 45], &[3, 1, 3, 3], opts().groups(3).padding(&[1]), 4, rows),
        (
            "k5x3 dilated multiplier",
            &[1, 2, 20, 67],
            &[6, 1, 5, 3],
            opts().groups(2).padding(&[2, 1]).dilation(&[1, 2]),
            4,
            rows,
        ),
        ("k3 s2", &[1, 4, 61, 70], &[4, 1, 3, 3], opts().groups(4).padding(&[1]).stride(&[2]), 2, rows),
        ("k7 s1 p3", &[1, 2, 33, 40], &[2, 1, 7, 7], opts().groups(2).padding(&[3]), 2, vec4),
        // 41 wide: no vec4 quads, so the planner tiles this 7×7 filter.
        ("k7 s1 p3, odd width", &[1, 2, 33, 41], &[2, 1, 7, 7], opts().groups(2).padding(&[3]), 2, tiled),
        (
            "k3 s3 dilation 4",
            &[1, 2, 40, 60],
            &[2, 1, 3, 3],
            opts().groups(2).padding(&[4]).stride(&[3]).dilation(&[4]),
            1,
            rows,
        ),
    ];
    for (i, (name, input, weight, options, rows_per_thread, planned)) in cases.into_iter().enumerate() {
        let g = ConvGeometry::new(input, weight, None, &options).unwrap();
        let _ = rows_per_thread;
        assert_eq!(g.planned_kernel(), planned, "{name}");
        let case = Case { input, weight, bias: i % 2 == 0, opts: options, kernel: ConvKernel::Direct };
        check(name, 40 + i as u64, case);
    }
    // A window over 16 KiB even 8 rows tall: an untiled kernel runs it.
    let (input, weight) = (&[1, 2, 60, 200][..], &[2, 1, 3, 3][..]);
    let options = opts().groups(2).stride(&[1, 6]).dilation(&[20, 40]).padding(&[20, 40]);
    let g = ConvGeometry::new(input, weight, None, &options).unwrap();
    assert_eq!(g.planned_kernel(), ConvKernel::DepthwiseRows);
    check("window too large", 50, Case { input, weight, bias: true, opts: options, kernel: ConvKernel::Direct });
}

#[test]
fn pointwise_with_padding_and_kernels_wider_than_the_input() {
    check(
        "1x1 padded",
        30,
        Case {
            input: &[1, 3, 5, 4],
            weight: &[6, 3, 1, 1],
            bias: true,
            opts: opts().padding(&[1]),
            kernel: ConvKernel::Direct,
        },
    );
    check(
        "5x5 on 3x3",
        31,
        Case {
            input: &[1, 2, 3, 3],
            weight: &[3, 2, 5, 5],
            bias: false,
            opts: opts().padding(&[2]),
            kernel: ConvKernel::Direct,
        },
    );
    check(
        "1x1 image",
        32,
        Case {
            input: &[3, 3, 1, 1],
            weight: &[2, 3, 3, 3],
            bias: true,
            opts: opts().padding(&[1]),
            kernel: ConvKernel::Direct,
        },
    );
}

/// Outputs of at most 4 pixels in all run as matrix-vector products (`gemv`, among the kernels
/// `check` runs): squeeze-and-excitation FCs (the planner's choice), K giving 32, 64, 128 and 256
/// lanes, channels not a multiple of a workgroup's rows, padding, strides, dilation
/// and groups over 4 pixels of two images, and conv1d.
#[test]
fn few_output_pixels_as_matrix_vector_products() {
    let planned = |input: &[usize], weight: &[usize], opts: &ConvOptions| {
        ConvGeometry::new(input, weight, None, opts).unwrap().planned_kernel()
    };
    let fc =
        |input, weight, kernel| Case { input, weight, bias: true, opts: opts().activation(Activation::Relu), kernel };
    // Excitation (30 → 336: 8 rows of 32 lanes) and squeeze (600 → 20: 2 rows of 128 lanes).
    let excite = fc(&[1, 30, 1, 1], &[336, 30, 1, 1], ConvKernel::Direct);
    assert_eq!(planned(excite.input, excite.weight, &excite.opts), ConvKernel::Gemv);
    check("excitation FC", 700, excite);
    let squeeze = fc(&[1, 600, 1, 1], &[20, 600, 1, 1], ConvKernel::DirectVec4);
    assert_eq!(planned(squeeze.input, squeeze.weight, &squeeze.opts), ConvKernel::Gemv);
    check("squeeze FC", 701, squeeze);
    // A U-Net's innermost down-conv: 2×2 → 1×1 by a 4×4 filter, K 4096 (256 lanes, one
    // channel per workgroup).
    let inner = Case {
        input: &[1, 256, 2, 2],
        weight: &[12, 256, 4, 4],
        bias: false,
        opts: opts().stride(&[2]).padding(&[1]),
        kernel: ConvKernel::DirectVec4,
    };
    assert_eq!(planned(inner.input, inner.weight, &inner.opts), ConvKernel::Gemv);
    check("innermost 4x4 down-conv", 702, inner);
    // K 432: 64 lanes, 4 channels a workgroup.
    check(
        "3x3 to one pixel, K 432",
        705,
        Case {
            input: &[1, 48, 3, 3],
            weight: &[20, 48, 3, 3],
            bias: true,
            opts: opts(),
            kernel: ConvKernel::DirectVec4,
        },
    );
    // Two images of 2×1 outputs: padding, stride and dilation per axis, 2 groups, 14 channels
    // (ragged rows: K 36 gives 32 lanes, 8 channels a workgroup).
    check(
        "4 pixels, grouped",
        703,
        Case {
            input: &[2, 8, 4, 5],
            weight: &[14, 4, 3, 3],
            bias: true,
            opts: opts().groups(2).stride(&[2, 3]).padding(&[1, 0]).dilation(&[1, 2]),
            kernel: ConvKernel::DirectVec4,
        },
    );
    check(
        "conv1d to 3 outputs",
        704,
        Case {
            input: &[1, 40, 9],
            weight: &[24, 40, 5],
            bias: true,
            opts: opts().stride(&[2]),
            kernel: ConvKernel::DirectVec4,
        },
    );
    // Five pixels, and transposed convolutions, are not its business.
    let five = ConvGeometry::new(&[5, 8, 1, 1], &[16, 8, 1, 1], None, &opts()).unwrap();
    assert!(!five.supports(ConvKernel::Gemv));
    let transposed = ConvGeometry::new(&[1, 8, 1, 1], &[8, 16, 1, 1], None, &opts().transposed(true)).unwrap();
    assert!(!transposed.supports(ConvKernel::Gemv));
}

#[test]
fn vec4_kernel_when_channels_per_group_divide_by_four() {
    check(
        "vec4",
        40,
        Case {
            input: &[2, 8, 7, 6],
            weight: &[5, 8, 3, 3],
            bias: true,
            opts: opts().padding(&[1]),
            kernel: ConvKernel::DirectVec4,
        },
    );
    check(
        "vec4 grouped",
        41,
        Case {
            input: &[1, 8, 5, 5],
            weight: &[6, 4, 3, 2],
            bias: false,
            opts: opts().groups(2).stride(&[2, 1]).dilation(&[1, 2]),
            kernel: ConvKernel::DirectVec4,
        },
    );
    check(
        "vec4 3 channels is scalar",
        42,
        Case {
            input: &[1, 12, 5, 5],
            weight: &[4, 3, 3, 3],
            bias: false,
            opts: opts().groups(4),
            kernel: ConvKernel::Direct,
        },
    );
}

#[test]
fn transposed() {
    let t = || opts().transposed(true);
    check(
        "transposed",
        50,
        Case {
            input: &[2, 3, 5, 4],
            weight: &[3, 4, 3, 3],
            bias: true,
            opts: t().stride(&[2]).padding(&[1]),
            kernel: ConvKernel::Transposed,
        },
    );
    check(
        "transposed output_padding",
        51,
        Case {
            input: &[1, 2, 4, 5],
            weight: &[2, 3, 3, 2],
            bias: false,
            opts: t().stride(&[2, 3]).padding(&[1, 0]).output_padding(&[1, 2]),
            kernel: ConvKernel::Transposed,
        },
    );
    // output_padding 3 > stride 2 is allowed because dilation 4 is larger.
    check(
        "output_padding > stride",
        52,
        Case {
            input: &[1, 2, 4, 4],
            weight: &[2, 2, 3, 3],
            bias: true,
            opts: t().stride(&[2]).dilation(&[4]).output_padding(&[3]),
            kernel: ConvKernel::Transposed,
        },
    );
    check(
        "grouped transposed",
        53,
        Case {
            input: &[2, 4, 5, 5],
            weight: &[4, 3, 4, 4],
            bias: true,
            opts: t().groups(2).stride(&[2]).padding(&[1]),
            kernel: ConvKernel::Transposed,
        },
    );
    // Few output channels per group (`transposed_few_oc` among the kernels checked): an RGB
    // output layer; stride 3 with dilation and output padding (13×14 outputs, not multiples of
    // the stride); one channel per group; a stride far above the output, which it leaves to
    // the other kernels.
    let rgb = Case {
        input: &[2, 16, 6, 5],
        weight: &[16, 3, 4, 4],
        bias: true,
        opts: t().stride(&[2]).padding(&[1]).activation(Activation::Relu),
        kernel: ConvKernel::Transposed,
    };
    let geometry = ConvGeometry::new(rgb.input, rgb.weight, Some(&[3]), &rgb.opts).unwrap();
    assert!(geometry.supports(ConvKernel::TransposedFewOc));
    check("transposed RGB output", 55, rgb);
    // K split over 8 threads per pixel (16+ input channels a group): 37 a group (the last
    // thread's share short), 2 groups of 2 output channels, 2 × 10 × 14 pixels (not whole
    // workgroups of 32), output padding.
    let split = Case {
        input: &[2, 74, 5, 7],
        weight: &[74, 2, 3, 3],
        bias: true,
        opts: t().groups(2).stride(&[2]).padding(&[1]).output_padding(&[1]),
        kernel: ConvKernel::Transposed,
    };
    let geometry = ConvGeometry::new(split.input, split.weight, Some(&[4]), &split.opts).unwrap();
    assert!(geometry.supports(ConvKernel::TransposedFewOc));
    check("transposed few channels, K split", 157, split);
    // The same with stride 3 and dilation 3: 31 output columns, 11, 10 and 10 per stride
    // phase (sub-grid rows of 11), in 3 runs a row of 4, 4 and 3 pixels 3 columns apart, fewer
    // where the phase ends at 10; taps in a pixel's phase whose input column is
    // negative (output column 2, filter column 2: (2 + 1 − 2·3) / 3 = −1), and rows alike.
    let split_strided = Case {
        input: &[1, 20, 4, 9],
        weight: &[20, 2, 3, 3],
        bias: true,
        opts: t().stride(&[3]).dilation(&[3]).padding(&[1]).output_padding(&[1, 2]),
        kernel: ConvKernel::Transposed,
    };
    let geometry =
        ConvGeometry::new(split_strided.input, split_strided.weight, Some(&[2]), &split_strided.opts).unwrap();
    assert!(geometry.supports(ConvKernel::TransposedFewOc));
    check("transposed few channels, K split, stride 3, dilation 3", 158, split_strided);
    // Wide rows: 271 output columns (output padding), stride phases of 136 and 135 columns in
    // 34 runs a row: 32 of a 128-column chunk, then 2 of the last 8 or 7 sub-grid columns, pixels
    // 2 apart (the last run of the odd phase with 3); two groups of 2 output channels, two images.
    let split_wide = Case {
        input: &[2, 40, 2, 135],
        weight: &[40, 2, 4, 4],
        bias: true,
        opts: t().groups(2).stride(&[2]).padding(&[1]).output_padding(&[0, 1]),
        kernel: ConvKernel::Transposed,
    };
    let geometry = ConvGeometry::new(split_wide.input, split_wide.weight, Some(&[4]), &split_wide.opts).unwrap();
    assert!(geometry.supports(ConvKernel::TransposedFewOc));
    assert_eq!(geometry.output_shape(), [2, 4, 4, 271]);
    check("transposed few channels, K split, wide rows", 161, split_wide);
    check(
        "transposed few channels, stride 3, dilation 2",
        56,
        Case {
            input: &[1, 5, 4, 7],
            weight: &[5, 2, 3, 2],
            bias: true,
            opts: t().stride(&[3]).dilation(&[2]).padding(&[1]).output_padding(&[1, 2]),
            kernel: ConvKernel::Transposed,
        },
    );
    check(
        "transposed one channel per group",
        57,
        Case {
            input: &[1, 6, 5, 5],
            weight: &[6, 1, 3, 3],
            bias: true,
            opts: t().groups(6).stride(&[2]),
            kernel: ConvKernel::Transposed,
        },
    );
    let sparse = ConvGeometry::new(&[2, 1, 1, 1], &[1, 1, 2, 2], None, &t().stride(&[i32::MAX as u32])).unwrap();
    assert!(!sparse.supports(ConvKernel::TransposedFewOc), "stride² idle threads per output");
    let five = ConvGeometry::new(&[1, 4, 5, 5], &[4, 5, 3, 3], None, &t().stride(&[2])).unwrap();
    assert!(!five.supports(ConvKernel::TransposedFewOc), "5 output channels a group");
    check(
        "dcgan-like",
        54,
        Case {
            input: &[2, 8, 4, 4],
            weight: &[8, 4, 4, 4],
            bias: false,
            opts: t().stride(&[2]).padding(&[1]),
            kernel: ConvKernel::Transposed,
        },
    );
}

/// `transposed_few_oc` at stride 2 × 2 with one group and 16+ input channels runs in blocks of
/// 2 × 2 output pixels, one of each stride phase, that gather the same 2 × 2 input pixels
/// (`conv_transpose2d_few_oc_phases`): filters of 1 × 1 to 4 × 4 (a 1 × 1 leaves three phases
/// to the bias), paddings that drop a block's first row or column (odd) or whole blocks (2, 3),
/// output padding, input channels that leave the last slices short or empty and take two rounds
/// of staged weights, rows of more than 128 block columns, 1 to 4 output channels, two images.
#[test]
fn transposed_few_output_channels_in_phase_blocks() {
    let t = || opts().transposed(true).stride(&[2]);
    let cases = [
        (
            "RGB output, 4x4, padding 1",
            Case {
                input: &[2, 24, 6, 7],
                weight: &[24, 3, 4, 4],
                bias: true,
                opts: t().padding(&[1]).activation(Activation::Relu),
                kernel: ConvKernel::Transposed,
            },
        ),
        (
            // 37 channels: 5 a slice, two rounds of staged weights, the last slice 2.
            "3x3, output padding 1, one channel, 37 input channels",
            Case {
                input: &[1, 37, 5, 9],
                weight: &[37, 1, 3, 3],
                bias: true,
                opts: t().padding(&[1]).output_padding(&[1]),
                kernel: ConvKernel::Transposed,
            },
        ),
        (
            "2x2, no padding, 4 channels",
            Case {
                input: &[2, 16, 3, 4],
                weight: &[16, 4, 2, 2],
                bias: false,
                opts: t(),
                kernel: ConvKernel::Transposed,
            },
        ),
        (
            // 17 channels: 3 a slice, slice 5 with 2, slices 6 and 7 with none.
            "4x3 filter, padding 2 and 1, clamp, 17 input channels",
            Case {
                input: &[1, 17, 5, 6],
                weight: &[17, 2, 4, 3],
                bias: true,
                opts: t().padding(&[2, 1]).activation(Activation::Clamp { min: -0.4, max: 0.5 }),
                kernel: ConvKernel::Transposed,
            },
        ),
        (
            // 141 block columns: 32 runs of a 128-column chunk, then 4 of the last 13.
            "wide rows",
            Case {
                input: &[1, 16, 2, 140],
                weight: &[16, 3, 4, 4],
                bias: true,
                opts: t().padding(&[1]),
                kernel: ConvKernel::Transposed,
            },
        ),
        (
            "1x1 filter",
            Case {
                input: &[1, 16, 3, 3],
                weight: &[16, 3, 1, 1],
                bias: true,
                opts: t(),
                kernel: ConvKernel::Transposed,
            },
        ),
        (
            "4x4, padding 3",
            Case {
                input: &[2, 16, 4, 5],
                weight: &[16, 2, 4, 4],
                bias: true,
                opts: t().padding(&[3]),
                kernel: ConvKernel::Transposed,
            },
        ),
    ];
    for (seed, (name, case)) in (900..).zip(cases) {
        let geometry = ConvGeometry::new(case.input, case.weight, None, &case.opts).unwrap();
        assert!(geometry.supports(ConvKernel::TransposedFewOc), "{name}");
        check_runs(name, seed, case, &[Some(ConvKernel::TransposedFewOc), Some(ConvKernel::Transposed), None]);
    }
    // They ran the phase blocks (not the stride-phase split, which shares the kernel's name),
    // with and without filter rows and columns 2–3 (the 2 × 2 and 1 × 1 filters: without).
    let far_rows = |far: f64| {
        context().compiled_pipelines().iter().any(|p| {
            p.entry == "conv_transpose2d_few_oc_phases"
                && p.constants.iter().any(|&(key, value)| key == "phase_far_rows" && value == far)
        })
    };
    assert!(far_rows(1.0) && far_rows(0.0));
}

#[test]
fn one_dimensional() {
    let out = check(
        "conv1d",
        60,
        Case {
            input: &[2, 3, 17],
            weight: &[4, 3, 5],
            bias: true,
            opts: opts().stride(&[2]).padding(&[2]).dilation(&[2]),
            kernel: ConvKernel::Direct,
        },
    );
    assert_eq!(out.len(), 2 * 4 * 7);
    // A 1-channel stem with many outputs (wav2vec 2.0's raw-audio conv) is not depthwise (R24):
    // into 32+ channels, R57's register blocks; into 16, a GEMM (on a grid this small, the
    // small-grid one, R27).
    for (seed, oc, planned) in [(62, 32, ConvKernel::DirectBlock), (1062, 16, ConvKernel::GemmSmallK32)] {
        let stem = Case {
            input: &[1, 1, 203],
            weight: &[oc, 1, 10],
            bias: false,
            opts: opts().stride(&[5]),
            kernel: ConvKernel::Direct,
        };
        let g = ConvGeometry::new(stem.input, stem.weight, None, &stem.opts).unwrap();
        assert_eq!(g.planned_kernel(), planned, "{oc} channels");
        check("1-channel stem", seed, stem);
    }
    check(
        "conv_transpose1d",
        61,
        Case {
            input: &[1, 4, 6],
            weight: &[4, 2, 3],
            bias: true,
            opts: opts().transposed(true).stride(&[3]).output_padding(&[2]),
            kernel: ConvKernel::Transposed,
        },
    );
    // A vocoder's upsampler (HiFi-GAN's k16 s8 p4: two taps a stride phase) through every
    // kernel, the 128×128 tiles among them (which R53 does not give 1D layers: not measured).
    let upsampler = Case {
        input: &[2, 8, 5],
        weight: &[8, 6, 16],
        bias: true,
        opts: opts().transposed(true).stride(&[8]).padding(&[4]),
        kernel: ConvKernel::Transposed,
    };
    let geometry = ConvGeometry::new(upsampler.input, upsampler.weight, None, &upsampler.opts).unwrap();
    assert!(geometry.supports(ConvKernel::GemmK16));
    check("conv_transpose1d k16 s8", 63, upsampler);
}

#[test]
fn fused_activations() {
    check(
        "relu",
        70,
        Case {
            input: &[1, 4, 6, 6],
            weight: &[4, 4, 3, 3],
            bias: true,
            opts: opts().activation(Activation::Relu),
            kernel: ConvKernel::DirectVec4,
        },
    );
    let clamp = Activation::Clamp { min: -0.3, max: 0.4 };
    check(
        "clamp",
        71,
        Case {
            input: &[1, 3, 6, 6],
            weight: &[4, 3, 3, 3],
            bias: true,
            opts: opts().activation(clamp),
            kernel: ConvKernel::Direct,
        },
    );
    check(
        "clamp transposed",
        72,
        Case {
            input: &[1, 3, 4, 4],
            weight: &[3, 2, 2, 2],
            bias: false,
            opts: opts().transposed(true).stride(&[2]).activation(clamp),
            kernel: ConvKernel::Transposed,
        },
    );
}

#[test]
fn large_enough_to_fold_the_dispatch_into_2d() {
    // 2 × 2050 × 4100 = 16.8 M outputs > 65535 workgroups × 256 threads.
    check(
        "2d fold",
        80,
        Case {
            input: &[1, 1, 2050, 4100],
            weight: &[2, 1, 1, 1],
            bias: true,
            opts: opts(),
            kernel: ConvKernel::Direct,
        },
    );
}

#[test]
fn batched_ops_chain_without_host_sync() {
    let ctx = context();
    let x = random_f32(90, 2 * 4 * 6 * 6);
    let w1 = random_f32(91, 8 * 4 * 3 * 3);
    let w2 = random_f32(92, 3 * 8);
    let xt = Tensor::from_f32(ctx, &x, &[2, 4, 6, 6]).unwrap();
    let w1t = Tensor::from_f32(ctx, &w1, &[8, 4, 3, 3]).unwrap();
    let w2t = Tensor::from_f32(ctx, &w2, &[3, 8, 1, 1]).unwrap();
    let mut batch = ctx.batch();
    let y = batch.convolution(&xt, &w1t, None, &opts().padding(&[1]).activation(Activation::Relu)).unwrap();
    let z = batch.convolution(&y.output, &w2t, None, &opts()).unwrap();
    assert_eq!(batch.len(), 2);
    batch.submit().unwrap();
    let (y_ref, _) = reference::convolution(
        &x,
        &[2, 4, 6, 6],
        &w1,
        &[8, 4, 3, 3],
        None,
        &opts().padding(&[1]).activation(Activation::Relu),
    )
    .unwrap();
    let y_ref32: Vec<f32> = y_ref.iter().map(|v| *v as f32).collect();
    let (z_ref, _) = reference::convolution(&y_ref32, &[2, 8, 6, 6], &w2, &[3, 8, 1, 1], None, &opts()).unwrap();
    let err = reference::relative_error(&z.output.to_vec_f32(ctx).unwrap(), &z_ref);
    assert!(err <= TOLERANCE, "chained relative error {err:e}");
}

/// A batch dropped unsubmitted, its compute pass still open, leaves the context working: the
/// next op on it runs and is correct, and nothing is left to wait for.
#[test]
fn a_batch_dropped_with_its_pass_open_leaves_the_context_working() {
    let ctx = wgconv::Context::new().unwrap();
    let (x, w) = (random_f32(96, 16), random_f32(97, 9));
    let xt = Tensor::from_f32(&ctx, &x, &[1, 1, 4, 4]).unwrap();
    let wt = Tensor::from_f32(&ctx, &w, &[1, 1, 3, 3]).unwrap();
    let mut batch = ctx.batch();
    batch.convolution(&xt, &wt, None, &opts()).unwrap();
    drop(batch);
    let y = ctx.conv2d(&xt, &wt, None, &opts()).unwrap();
    let (want, _) = reference::convolution(&x, &[1, 1, 4, 4], &w, &[1, 1, 3, 3], None, &opts()).unwrap();
    let err = reference::relative_error(&y.output.to_vec_f32(&ctx).unwrap(), &want);
    assert!(err <= TOLERANCE, "relative error {err:e}");
    ctx.synchronize().unwrap();
}

/// A batch records its dispatches into one compute pass: the hazards between them (a read
/// after a write, a write after a read, two writes, and the split-K scratch that both 3×3 ops
/// write and reduce) must still order them, as wgpu's barriers per dispatch do. The same chain
/// with a new pass before each op (`Batch::start_new_pass`), where wgpu moves the barriers
/// for each pass's first uses ahead of the pass, must give the same results.
#[test]
fn one_batch_orders_dependent_dispatches() {
    let ctx = context();
    let shape = [2, 32, 12, 12];
    let numel = shape.iter().product();
    let x = random_f32(93, numel);
    let w1 = random_f32(94, 32 * 32 * 9);
    let w2 = random_f32(95, 32 * 32);
    let xt = Tensor::from_f32(ctx, &x, &shape).unwrap();
    let padded = opts().padding(&[1]);
    let first = wgconv::Conv2d::new(ctx, &Tensor::from_f32(ctx, &w1, &[32, 32, 3, 3]).unwrap(), None, &padded).unwrap();
    let second =
        wgconv::Conv2d::new(ctx, &Tensor::from_f32(ctx, &w2, &[32, 32, 1, 1]).unwrap(), None, &opts()).unwrap();
    // The 3×3 op in 3 K-slices: a GEMM dispatch into the scratch, then a reduce dispatch.
    let split = ForcedPlan { schedule: Some(GemmSchedule::SplitK(3)), ..ForcedPlan::kernel(ConvKernel::GemmN64K16) };

    let to_f32 = |v: Vec<f64>| v.iter().map(|&e| e as f32).collect::<Vec<f32>>();
    let conv = |input: &[f32], w: &[f32], w_shape: &[usize], o: &ConvOptions| {
        reference::convolution(input, &shape, w, w_shape, None, o).unwrap().0
    };
    let y1 = to_f32(conv(&x, &w1, &[32, 32, 3, 3], &padded));
    let z1 = to_f32(conv(&y1, &w2, &[32, 32, 1, 1], &opts()));
    let y2 = conv(&z1, &w1, &[32, 32, 3, 3], &padded);
    let z2 = conv(&to_f32(y2.clone()), &w2, &[32, 32, 1, 1], &opts());

    for new_pass_per_op in [false, true] {
        let y = Tensor::full_f32(ctx, &shape, f32::NAN).unwrap();
        let z = Tensor::full_f32(ctx, &shape, f32::NAN).unwrap();
        let mut batch = ctx.batch();
        let pass = |batch: &mut wgconv::Batch<'_>| {
            if new_pass_per_op {
                batch.start_new_pass();
            }
        };
        pass(&mut batch);
        first.run_into_forced(&mut batch, &xt, &y, &split).unwrap(); // y = first(x)
        pass(&mut batch);
        second.run_into(&mut batch, &y, &z).unwrap(); // z = second(y): reads what was just written
        pass(&mut batch);
        first.run_into_forced(&mut batch, &z, &y, &split).unwrap(); // y = first(z): overwrites what was read
        pass(&mut batch);
        second.run_into(&mut batch, &y, &z).unwrap(); // z = second(y): a second write of z
        assert_eq!(batch.len(), 6, "two split 3×3 ops of two dispatches each, two 1×1 ops of one");
        batch.submit().unwrap();

        let err_y = reference::relative_error(&y.to_vec_f32(ctx).unwrap(), &y2);
        let err_z = reference::relative_error(&z.to_vec_f32(ctx).unwrap(), &z2);
        assert!(
            err_y <= TOLERANCE && err_z <= TOLERANCE,
            "new pass per op {new_pass_per_op}: relative errors y {err_y:e}, z {err_z:e}"
        );
    }
}

#[test]
fn pipelines_are_cached() {
    let ctx = wgconv::Context::new().unwrap();
    let x = Tensor::from_f32(&ctx, &random_f32(100, 16), &[1, 1, 4, 4]).unwrap();
    let w = Tensor::from_f32(&ctx, &random_f32(101, 9), &[1, 1, 3, 3]).unwrap();
    ctx.conv2d(&x, &w, None, &opts()).unwrap();
    let after_first = ctx.cached_pipelines();
    for _ in 0..3 {
        ctx.conv2d(&x, &w, None, &opts()).unwrap();
    }
    assert_eq!(ctx.cached_pipelines(), after_first);
    ctx.conv2d(&x, &w, None, &opts().activation(Activation::Relu)).unwrap();
    assert_eq!(ctx.cached_pipelines(), after_first + 1);
}

#[test]
fn uniforms_are_shared_by_equal_parameters_only() {
    let ctx = wgconv::Context::new().unwrap();
    let x = Tensor::from_f32(&ctx, &random_f32(102, 2 * 3 * 6 * 6), &[2, 3, 6, 6]).unwrap();
    let w = Tensor::from_f32(&ctx, &random_f32(103, 4 * 3 * 9), &[4, 3, 3, 3]).unwrap();
    let padded = opts().padding(&[1]);
    let check = |o: &ConvOptions| {
        let y = ctx.conv2d(&x, &w, None, o).unwrap();
        let (want, _) = reference::convolution(
            &x.to_vec_f32(&ctx).unwrap(),
            &[2, 3, 6, 6],
            &w.to_vec_f32(&ctx).unwrap(),
            &[4, 3, 3, 3],
            None,
            o,
        )
        .unwrap();
        let err = reference::relative_error(&y.output.to_vec_f32(&ctx).unwrap(), &want);
        assert!(err <= TOLERANCE, "relative error {err:e} with {o:?}");
    };
    check(&opts());
    let after_first = ctx.cached_uniforms();
    assert!(after_first >= 1);
    check(&opts());
    assert_eq!(ctx.cached_uniforms(), after_first, "a repeated call creates no uniform buffer");
    // Another geometry gets its own parameters; alternating must never pick up the other's.
    check(&padded);
    assert!(ctx.cached_uniforms() > after_first);
    let both = ctx.cached_uniforms();
    check(&opts());
    check(&padded);
    assert_eq!(ctx.cached_uniforms(), both);
}

#[test]
fn context_from_an_existing_device() {
    let (device, queue) = wgconv_tests::test_device();
    let ctx = wgconv::Context::from_device(device, queue);
    let x = random_f32(110, 2 * 5 * 5);
    let w = random_f32(111, 3 * 2 * 2 * 2);
    let xt = Tensor::from_f32(&ctx, &x, &[1, 2, 5, 5]).unwrap();
    let wt = Tensor::from_f32(&ctx, &w, &[3, 2, 2, 2]).unwrap();
    let y = ctx.conv2d(&xt, &wt, None, &opts()).unwrap();
    let (r, _) = reference::convolution(&x, &[1, 2, 5, 5], &w, &[3, 2, 2, 2], None, &opts()).unwrap();
    assert!(reference::relative_error(&y.output.to_vec_f32(&ctx).unwrap(), &r) <= TOLERANCE);
}

/// A context whose storage bindings hold at most `bytes` (tensors over it run in parts).
fn context_with_binding_limit(bytes: u64) -> wgconv::Context {
    wgconv_tests::context_with_limits(|adapter| wgpu::Limits { max_storage_buffer_binding_size: bytes, ..adapter })
}

/// A context on the default adapter that allows `threads` threads a workgroup (128: the
/// few-output-channel kernels' K-split entry points need 256).
fn narrow_workgroup_context(threads: u32) -> wgconv::Context {
    wgconv_tests::context_with_limits(|adapter| wgpu::Limits {
        max_compute_invocations_per_workgroup: threads,
        max_compute_workgroup_size_x: threads,
        ..adapter
    })
}

/// A context on the default adapter limited to 16 352 bytes of workgroup memory (under WebGPU's
/// default 16 KiB).
fn small_workgroup_memory_context() -> wgconv::Context {
    wgconv_tests::context_with_limits(|adapter| wgpu::Limits { max_compute_workgroup_storage_size: 16_352, ..adapter })
}

/// On a device with less than 16 KiB of workgroup memory the planner steps back from the
/// kernels that need 16 KiB (tiled depthwise to row runs, the small-grid GEMM and 32-deep GEMM
/// tiles to 16-deep ones), and forcing one is an error.
#[test]
fn kernels_fit_small_workgroup_memory() {
    let ctx = small_workgroup_memory_context();
    // The planner's kernel for a normal device is `planned`; `ran` runs here, and is correct.
    let steps_back = |input: &[usize], weight: &[usize], options: &ConvOptions, seed, planned, ran| {
        let g = ConvGeometry::new(input, weight, None, options).unwrap();
        assert_eq!(g.planned_kernel(), planned, "{input:?} {weight:?}");
        let x = random_f32(seed, input.iter().product());
        let w = random_f32(seed + 1, weight.iter().product());
        let xt = Tensor::from_f32(&ctx, &x, input).unwrap();
        let wt = Tensor::from_f32(&ctx, &w, weight).unwrap();
        let y = ctx.convolution(&xt, &wt, None, options).unwrap();
        assert_eq!(y.kernel, ran, "{input:?} {weight:?}");
        let (r, _) = reference::convolution(&x, input, &w, weight, None, options).unwrap();
        assert!(reference::relative_error(&y.output.to_vec_f32(&ctx).unwrap(), &r) <= TOLERANCE);
        (g, xt, wt, r)
    };
    // 33 wide: no vec4 quads, so the planner tiles this 5×5 filter.
    let options = opts().groups(2).padding(&[2]);
    let tiled = ConvKernel::DepthwiseTiled;
    let (_, xt, wt, _) = steps_back(&[1, 2, 12, 33], &[2, 1, 5, 5], &options, 112, tiled, ConvKernel::DepthwiseRows);
    let err = ctx.convolution_forced(&xt, &wt, None, &options, &ForcedPlan::kernel(tiled)).unwrap_err();
    assert!(err.to_string().contains("16384 bytes of workgroup memory; this device allows 16352"), "{err}");
    // A 33×33 filter: tiled on this 41-wide input, but too large for the row runs' unrolled
    // window (1089 taps), so the steps back go on to the four-column depthwise kernel.
    let options = opts().groups(2).padding(&[16]);
    let (g, ..) = steps_back(&[1, 2, 40, 41], &[2, 1, 33, 33], &options, 116, tiled, ConvKernel::Depthwise);
    assert!(!g.supports(ConvKernel::DepthwiseRows));
    // The small-grid GEMM (exactly 16 KiB) steps back to 64×64 tiles 16 deep (8 KiB); forced,
    // either small-grid kernel is refused with the bytes it needs.
    let options = opts().padding(&[1]);
    let small = ConvKernel::GemmSmallK32;
    let (_, xt, wt, _) = steps_back(&[1, 16, 12, 12], &[32, 16, 3, 3], &options, 118, small, ConvKernel::GemmN64K16);
    for kernel in [ConvKernel::GemmSmall, ConvKernel::GemmSmallK32] {
        let err = ctx.convolution_forced(&xt, &wt, None, &options, &ForcedPlan::kernel(kernel)).unwrap_err();
        assert!(err.to_string().contains("16384 bytes of workgroup memory; this device allows 16352"), "{err}");
    }
    // A few-channel layer R27 gives the small-grid tiles (4 outputs, K 2880) steps back to its
    // reference kernel, not to a mostly empty GEMM tile.
    steps_back(&[1, 320, 6, 6], &[4, 320, 3, 3], &options, 119, small, ConvKernel::DirectVec4);
    // The planner's default GEMM (64×64 tiles 32 deep, 16 KiB; 288 tiles of 64 channels, too
    // many for the small-grid tiles) steps back to 16-deep K-tiles.
    let (planned, ran) = (ConvKernel::GemmN64K32, ConvKernel::GemmN64K16);
    let (_, xt, wt, r) = steps_back(&[1, 8, 96, 192], &[64, 8, 3, 3], &options, 114, planned, ran);
    // Workgroup memory follows the tile width: 64×128 tiles 32 deep need 24 576 bytes, 64×64
    // 16 384 (over this device's 16 352), 64×32 12 288 (they run).
    let m64_k32 = |tile_n| ForcedPlan { tile_n: Some(tile_n), ..ForcedPlan::kernel(ConvKernel::GemmM64K32) };
    let y = ctx.convolution_forced(&xt, &wt, None, &options, &m64_k32(32)).unwrap();
    assert!(reference::relative_error(&y.output.to_vec_f32(&ctx).unwrap(), &r) <= TOLERANCE);
    let err = ctx.convolution_forced(&xt, &wt, None, &options, &m64_k32(64)).unwrap_err().to_string();
    assert!(err.contains("gemm_m64_k32 at tile_n 64 needs 16384 bytes of workgroup memory"), "{err}");
}

/// R30 plans the few-output-channel kernel for an RGB output on the staged tiles' grids, K split
/// over a 256-thread workgroup: a device that allows 128 threads runs the staged tiles R30
/// replaced, and a tile width forced without a kernel picks a staged GEMM kernel.
#[test]
fn rgb_outputs_step_back_to_the_staged_tiles() {
    let (input, weight) = ([4, 16, 64, 64], [16, 3, 4, 4]);
    let options = opts().transposed(true).stride(&[2]).padding(&[1]);
    let g = ConvGeometry::new(&input, &weight, None, &options).unwrap();
    assert_eq!(g.planned_kernel(), ConvKernel::TransposedFewOc);
    let x = random_f32(121, input.iter().product());
    let w = random_f32(122, weight.iter().product());
    let (r, _) = reference::convolution(&x, &input, &w, &weight, None, &options).unwrap();
    let narrow = narrow_workgroup_context(128);
    let wide = context();
    let tile = ForcedPlan { tile_n: Some(64), ..ForcedPlan::default() };
    for (ctx, plan, expect_staged) in
        [(wide, ForcedPlan::default(), false), (&narrow, ForcedPlan::default(), true), (wide, tile, true)]
    {
        let xt = Tensor::from_f32(ctx, &x, &input).unwrap();
        let wt = Tensor::from_f32(ctx, &w, &weight).unwrap();
        let y = ctx.convolution_forced(&xt, &wt, None, &options, &plan).unwrap();
        assert_eq!(y.kernel.is_gemm(), expect_staged, "{:?}", y.kernel);
        assert!(reference::relative_error(&y.output.to_vec_f32(ctx).unwrap(), &r) <= TOLERANCE, "{:?}", y.kernel);
    }
}

/// R43 plans `few_oc` for an RGB output of K 576 over 96² pixels; a device that allows 128
/// threads a workgroup runs the reference kernel instead, and forcing `few_oc` there is an error
/// naming what it needs; a tile width forced without a kernel picks a staged GEMM kernel.
#[test]
fn rgb_outputs_take_few_oc_or_step_back() {
    let (input, weight) = ([1, 64, 96, 96], [3, 64, 3, 3]);
    let options = opts().padding(&[1]).activation(Activation::Relu);
    let g = ConvGeometry::new(&input, &weight, None, &options).unwrap();
    assert_eq!(g.planned_kernel(), ConvKernel::FewOc);
    let x = random_f32(780, input.iter().product());
    let w = random_f32(781, weight.iter().product());
    let (r, shape) = reference::convolution(&x, &input, &w, &weight, None, &options).unwrap();
    let narrow = narrow_workgroup_context(128);
    let tile = ForcedPlan { tile_n: Some(64), ..ForcedPlan::default() };
    for (ctx, plan, expected) in [
        (context(), ForcedPlan::default(), Some(ConvKernel::FewOc)),
        (&narrow, ForcedPlan::default(), Some(ConvKernel::DirectVec4)),
        (context(), tile, None),
    ] {
        let xt = Tensor::from_f32(ctx, &x, &input).unwrap();
        let wt = Tensor::from_f32(ctx, &w, &weight).unwrap();
        let y = Tensor::full_f32(ctx, &shape, f32::NAN).unwrap();
        let kernel = ctx.convolution_into_forced(&xt, &wt, None, &y, &options, &plan).unwrap();
        match expected {
            Some(k) => assert_eq!(kernel, k),
            None => assert!(kernel.is_gemm(), "{kernel:?}"),
        }
        let err = reference::relative_error(&y.to_vec_f32(ctx).unwrap(), &r);
        assert!(err <= TOLERANCE, "{kernel:?}: relative error {err:e}");
    }
    let xt = Tensor::from_f32(&narrow, &x, &input).unwrap();
    let wt = Tensor::from_f32(&narrow, &w, &weight).unwrap();
    let forced = ForcedPlan::kernel(ConvKernel::FewOc);
    let err = narrow.convolution_forced(&xt, &wt, None, &options, &forced).unwrap_err().to_string();
    assert!(err.contains("few_oc needs a workgroup of 256 threads") && err.contains("allows 128 threads"), "{err}");
}

/// Winograd's transformed input and products must each fit one storage binding: where one
/// image's do not, its tile rows run in bands whose intermediates do, and the planner keeps
/// Winograd. (Recorded only: the layer is large for lavapipe; the next test runs bands.)
#[test]
fn winograd_runs_in_bands_when_its_intermediates_exceed_a_binding() {
    // 80 channels at 232²: 3.2 G multiply-adds; F(2×2, 3×3)'s transformed input 16·80·116² f32 =
    // 68.9 MB, one tile row of it 594 KB; F(4×4, 3×3)'s (R61 plans it) 36·80·58² f32 = 38.7 MB.
    let (input, weight) = ([1, 80, 232, 232], [80, 80, 3, 3]);
    let options = opts().padding(&[1]);
    let g = ConvGeometry::new(&input, &weight, None, &options).unwrap();
    assert_eq!(g.planned_kernel(), ConvKernel::Winograd4x4);
    let narrow = context_with_binding_limit(64 << 20);
    let narrower = context_with_binding_limit(32 << 20);
    assert!(narrow.limits().max_storage_buffer_binding_size < 16 * 80 * 116 * 116 * 4);
    assert!(narrower.limits().max_storage_buffer_binding_size < 36 * 80 * 58 * 58 * 4);
    for ctx in [context(), &narrow, &narrower] {
        let xt = Tensor::zeros(ctx, &input, wgconv::DType::F32).unwrap();
        let wt = Tensor::zeros(ctx, &weight, wgconv::DType::F32).unwrap();
        let mut batch = ctx.batch();
        let planned = batch.convolution(&xt, &wt, None, &options).unwrap().kernel;
        assert_eq!(planned, ConvKernel::Winograd4x4);
        let forced = batch.convolution_forced(&xt, &wt, None, &options, &ForcedPlan::kernel(ConvKernel::Winograd));
        assert_eq!(forced.unwrap().kernel, ConvKernel::Winograd);
    }
    // Not even one tile row fits 512 KiB: forcing Winograd is an error that says what must fit.
    let tiny = context_with_binding_limit(512 << 10);
    let xt = Tensor::zeros(&tiny, &[1, 80, 4, 232], wgconv::DType::F32).unwrap();
    let wt = Tensor::zeros(&tiny, &weight, wgconv::DType::F32).unwrap();
    let mut batch = tiny.batch();
    let forced = batch.convolution_forced(&xt, &wt, None, &options, &ForcedPlan::kernel(ConvKernel::Winograd));
    let err = forced.unwrap_err().to_string();
    assert!(err.contains("transformed input (296960 f32)") && err.contains("524288-byte"), "{err}");
    assert!(err.contains("one tile row of one image do (148480 f32"), "{err}");
}

/// Images whose Winograd intermediates exceed a binding run in bands of tile rows, each band's
/// three passes through intermediates that hold one band: every output written (NaN-poisoned),
/// the bands' edges and the ragged last tile row and column matching the f64 reference.
#[test]
fn winograd_bands_match_the_reference() {
    // 40 KiB bindings: one image's products (16·12·tiles f32) do not fit, four or five tile rows'
    // do. [2, 8, 20, 20]: 10 tile rows of 10 in 2 bands of 5, images bound at aligned offsets;
    // [1, 8, 19, 21]: 10 × 11 tiles, the last row and column cut, in bands of 4, 4 and 2.
    let ctx = context_with_binding_limit(40 << 10);
    let options = opts().padding(&[1]).activation(Activation::Relu);
    // Passes: the weight transform, then 3 per band (2 images × 2 bands; 3 bands).
    for (seed, input, passes) in [(760, [2usize, 8, 20, 20], 1 + 2 * 2 * 3), (763, [1, 8, 19, 21], 1 + 3 * 3)] {
        let weight = [12usize, 8, 3, 3];
        let x = random_f32(seed, input.iter().product());
        let w = random_f32(seed + 1, weight.iter().product());
        let b = random_f32(seed + 2, 12);
        let (expected, shape) = reference::convolution(&x, &input, &w, &weight, Some(&b), &options).unwrap();
        let xt = Tensor::from_f32(&ctx, &x, &input).unwrap();
        let wt = Tensor::from_f32(&ctx, &w, &weight).unwrap();
        let bt = Tensor::from_f32(&ctx, &b, &[12]).unwrap();
        let y = Tensor::full_f32(&ctx, &shape, f32::NAN).unwrap();
        let forced = ForcedPlan::kernel(ConvKernel::Winograd);
        let mut batch = ctx.batch();
        let kernel = batch.convolution_into_forced(&xt, &wt, Some(&bt), &y, &options, &forced).unwrap();
        assert_eq!(kernel, ConvKernel::Winograd);
        assert_eq!(batch.len(), passes, "{input:?}");
        batch.submit().unwrap();
        let err = reference::relative_error(&y.to_vec_f32(&ctx).unwrap(), &expected);
        assert!(err <= TOLERANCE, "{input:?}: relative error {err:e}");
    }
}

/// Split-K's partial sums (one f32 output per K-slice) are capped by the binding limit too: a
/// layer split into row bands that each fill most of a binding, on a grid small enough that the
/// planner splits K, runs fewer slices (here none) instead of failing on a scratch over the
/// limit, planned and with only the kernel forced; a K schedule forced over the limit, K-slices
/// or stream-K, is a typed error naming the partial sums.
#[test]
fn split_k_partial_sums_fit_the_binding_limit() {
    // 32 channels at 96²: input and output 1.18 MB, in bands of rows that fit 256 KiB (about 20
    // rows, 1920 pixels: a 32-row × 1920-column GEMM of 60 64-column tiles, split in K by R22).
    let ctx = context_with_binding_limit(256 << 10);
    let (input, weight) = ([1usize, 32, 96, 96], [32usize, 32, 3, 3]);
    let options = opts().padding(&[1]).activation(Activation::Relu);
    let x = random_f32(790, input.iter().product());
    let w = random_f32(791, weight.iter().product());
    let b = random_f32(792, 32);
    let (expected, shape) = reference::convolution(&x, &input, &w, &weight, Some(&b), &options).unwrap();
    let xt = Tensor::from_f32(&ctx, &x, &input).unwrap();
    let wt = Tensor::from_f32(&ctx, &w, &weight).unwrap();
    let bt = Tensor::from_f32(&ctx, &b, &[32]).unwrap();
    for schedule in [GemmSchedule::SplitK(4), GemmSchedule::StreamK(8)] {
        let forced = ForcedPlan { schedule: Some(schedule), ..ForcedPlan::kernel(ConvKernel::GemmN64K16) };
        let y = Tensor::full_f32(&ctx, &shape, f32::NAN).unwrap();
        let err = ctx.batch().convolution_into_forced(&xt, &wt, Some(&bt), &y, &options, &forced).unwrap_err();
        assert!(err.to_string().contains("split-K partial sums"), "{schedule:?}: {err}");
    }
    for forced in [ForcedPlan::default(), ForcedPlan::kernel(ConvKernel::GemmN64K16)] {
        let y = Tensor::full_f32(&ctx, &shape, f32::NAN).unwrap();
        let mut batch = ctx.batch();
        batch.convolution_into_forced(&xt, &wt, Some(&bt), &y, &options, &forced).unwrap();
        batch.submit().unwrap();
        let err = reference::relative_error(&y.to_vec_f32(&ctx).unwrap(), &expected);
        assert!(err <= TOLERANCE, "{forced:?}: relative error {err:e}");
    }
}

/// Winograd's transformed weight (16/9 the weight) must fit one storage binding too: where the
/// weight fits and its transform does not, `Conv2d::new` keeps no transform, forcing Winograd is
/// an error that says so, and the planner runs another kernel.
#[test]
fn winograd_needs_its_transformed_weight_to_fit_a_binding() {
    // Weight 64·64·9·4 = 147 456 bytes; its transform 16·64·64·4 = 262 144; the intermediates of
    // a 4×4 image 16·64·4·4 = 16 384.
    let narrow = context_with_binding_limit(192 << 10);
    let (input, weight) = ([1usize, 64, 4, 4], [64usize, 64, 3, 3]);
    let options = opts().padding(&[1]);
    let w = random_f32(750, weight.iter().product());
    let x = random_f32(751, input.iter().product());
    let (expected, _) = reference::convolution(&x, &input, &w, &weight, None, &options).unwrap();
    let wt = Tensor::from_f32(&narrow, &w, &weight).unwrap();
    let xt = Tensor::from_f32(&narrow, &x, &input).unwrap();
    let conv = wgconv::Conv2d::new(&narrow, &wt, None, &options).unwrap();
    let mut batch = narrow.batch();
    let err = conv.run_forced(&mut batch, &xt, &ForcedPlan::kernel(ConvKernel::Winograd)).unwrap_err().to_string();
    assert!(err.contains("winograd") && err.contains("196608-byte"), "{err}");
    let y = conv.run(&mut batch, &xt).unwrap();
    assert_ne!(y.kernel, ConvKernel::Winograd);
    batch.submit().unwrap();
    assert!(reference::relative_error(&y.output.to_vec_f32(&narrow).unwrap(), &expected) <= TOLERANCE);
}

/// A batch over one storage binding runs in chunks of images: Winograd, forced, transforms the
/// weight once for all of them, and each chunk runs in parts of whole images where its
/// intermediates exceed the binding.
#[test]
fn winograd_in_batch_chunks_transforms_the_weight_once() {
    // Images of 8·8·8 f32 = 2 KiB; 6 of them (12 KiB) over a 10 KiB binding: chunks of 5 and 1.
    // Per image the transformed input is 16·8·16 f32 = 8 KiB: one image a part.
    let narrow = context_with_binding_limit(10 << 10);
    let (input, weight) = ([6usize, 8, 8, 8], [8usize, 8, 3, 3]);
    let options = opts().padding(&[1]).activation(Activation::Relu);
    let x = random_f32(760, input.iter().product());
    let w = random_f32(761, weight.iter().product());
    let (expected, shape) = reference::convolution(&x, &input, &w, &weight, None, &options).unwrap();
    let xt = Tensor::from_f32(&narrow, &x, &input).unwrap();
    let wt = Tensor::from_f32(&narrow, &w, &weight).unwrap();
    let out = Tensor::full_f32(&narrow, &shape, f32::NAN).unwrap();
    let mut batch = narrow.batch();
    let forced = ForcedPlan::kernel(ConvKernel::Winograd);
    let kernel = batch.convolution_into_forced(&xt, &wt, None, &out, &options, &forced).unwrap();
    assert_eq!(kernel, ConvKernel::Winograd);
    // One weight transform, then three passes for each of the 6 images.
    assert_eq!(batch.len(), 1 + 6 * 3);
    batch.submit().unwrap();
    let err = reference::relative_error(&out.to_vec_f32(&narrow).unwrap(), &expected);
    assert!(err <= TOLERANCE, "{err:e}");
}

/// A batch whose Winograd intermediates exceed a storage binding runs in parts of whole images,
/// each bound at its (aligned) offset in the input and output.
#[test]
fn winograd_runs_large_batches_in_parts() {
    // Per image: transformed input 16·16·8·8 f32 = 64 KiB; images of 16 KiB in and 12 KiB out.
    let (input, weight) = ([3, 16, 16, 16], [12, 16, 3, 3]);
    let options = opts().padding(&[1]).activation(Activation::Relu);
    let narrow = context_with_binding_limit(128 << 10);
    let x = random_f32(720, input.iter().product());
    let w = random_f32(721, weight.iter().product());
    let b = random_f32(722, 12);
    let (expected, shape) = reference::convolution(&x, &input, &w, &weight, Some(&b), &options).unwrap();
    let xt = Tensor::from_f32(&narrow, &x, &input).unwrap();
    let wt = Tensor::from_f32(&narrow, &w, &weight).unwrap();
    let bt = Tensor::from_f32(&narrow, &b, &[12]).unwrap();
    let out = Tensor::full_f32(&narrow, &shape, f32::NAN).unwrap();
    let mut batch = narrow.batch();
    let forced = ForcedPlan::kernel(ConvKernel::Winograd);
    let kernel = batch.convolution_into_forced(&xt, &wt, Some(&bt), &out, &options, &forced).unwrap();
    assert_eq!(kernel, ConvKernel::Winograd);
    // The weight transform, then two parts (2 images, 1 image) of three passes each.
    assert_eq!(batch.len(), 7);
    batch.submit().unwrap();
    let err = reference::relative_error(&out.to_vec_f32(&narrow).unwrap(), &expected);
    assert!(err <= TOLERANCE, "{err:e}");
}

/// Winograd `kernel`, forced on `shapes` (input, weight) with a bias under storage bindings of
/// `limit` bytes, where it must record `passes` passes (its weight transform, then three a band
/// of each part), against the f64 reference into a NaN-poisoned output.
fn check_winograd_in_bands(
    kernel: ConvKernel,
    seed: u64,
    limit: u64,
    shapes: ([usize; 4], [usize; 4]),
    options: &ConvOptions,
    passes: usize,
) {
    let ctx = context_with_binding_limit(limit);
    let ((input, weight), oc) = (shapes, shapes.1[0]);
    let x = random_f32(seed, input.iter().product());
    let w = random_f32(seed + 1, weight.iter().product());
    let b = random_f32(seed + 2, oc);
    let (expected, shape) = reference::convolution(&x, &input, &w, &weight, Some(&b), options).unwrap();
    let xt = Tensor::from_f32(&ctx, &x, &input).unwrap();
    let wt = Tensor::from_f32(&ctx, &w, &weight).unwrap();
    let bt = Tensor::from_f32(&ctx, &b, &[oc]).unwrap();
    let y = Tensor::full_f32(&ctx, &shape, f32::NAN).unwrap();
    let mut batch = ctx.batch();
    let forced = ForcedPlan::kernel(kernel);
    assert_eq!(batch.convolution_into_forced(&xt, &wt, Some(&bt), &y, options, &forced).unwrap(), kernel);
    assert_eq!(batch.len(), passes, "{kernel:?} at {limit} bytes");
    batch.submit().unwrap();
    let err = reference::relative_error(&y.to_vec_f32(&ctx).unwrap(), &expected);
    assert!(err <= TOLERANCE, "{kernel:?}: bands at {limit} bytes: relative error {err:e}");
}

/// Winograd `kernel`, forced on channels-last tensors of `shapes` (seeds from `seed`, a bias):
/// its output stays channels-last and matches the f64 reference.
fn check_winograd_channels_last(
    kernel: ConvKernel,
    seed: u64,
    shapes: ([usize; 4], [usize; 4]),
    options: &ConvOptions,
) {
    let ctx = context();
    let ((input, weight), oc) = (shapes, shapes.1[0]);
    let x = random_f32(seed, input.iter().product());
    let w = random_f32(seed + 1, weight.iter().product());
    let b = random_f32(seed + 2, oc);
    let (expected, _) = reference::convolution(&x, &input, &w, &weight, Some(&b), options).unwrap();
    let xt = ctx.to_memory_format(&Tensor::from_f32(ctx, &x, &input).unwrap(), MemoryFormat::ChannelsLast).unwrap();
    let (wt, bt) = (Tensor::from_f32(ctx, &w, &weight).unwrap(), Tensor::from_f32(ctx, &b, &[oc]).unwrap());
    let y = ctx.convolution_forced(&xt, &wt, Some(&bt), options, &ForcedPlan::kernel(kernel)).unwrap();
    assert_eq!((y.kernel, y.output.memory_format()), (kernel, MemoryFormat::ChannelsLast));
    let got = ctx.to_memory_format(&y.output, MemoryFormat::Contiguous).unwrap().to_vec_f32(ctx).unwrap();
    let err = reference::relative_error(&got, &expected);
    assert!(err <= TOLERANCE, "{kernel:?}: channels-last: relative error {err:e}");
}

/// Winograd `kernel` forced on a 64→64 layer of `filter`×`filter` taps ("same" padding) whose
/// transformed weight (`transformed_len` f32) exceeds 512 KiB bindings: a typed error naming the
/// kernel and that length.
fn check_winograd_weight_over_binding(kernel: ConvKernel, seed: u64, filter: usize, transformed_len: u64) {
    let narrow = context_with_binding_limit(512 << 10);
    let x = Tensor::from_f32(&narrow, &random_f32(seed, 64 * 16), &[1, 64, 4, 4]).unwrap();
    let taps = filter * filter;
    let w = Tensor::from_f32(&narrow, &random_f32(seed + 1, 64 * 64 * taps), &[64, 64, filter, filter]).unwrap();
    let padded = opts().padding(&[filter as u32 / 2]);
    let forced = ForcedPlan::kernel(kernel);
    let err = narrow.convolution_forced(&x, &w, None, &padded, &forced).unwrap_err().to_string();
    let len = format!("transformed weight ({transformed_len} f32)");
    assert!(err.contains(kernel.name()) && err.contains(&len), "{err}");
}

/// Winograd `kernel` (of `filters.0`×`filters.0` filters) forced on filters it does not run:
/// stride 2, dilation 2, and `filters.1`×`filters.1` taps: typed errors naming it.
fn check_winograd_refuses(kernel: ConvKernel, seed: u64, filters: (usize, usize)) {
    let ctx = context();
    let forced = ForcedPlan::kernel(kernel);
    let filter = |seed: u64, r: usize| Tensor::from_f32(ctx, &random_f32(seed, 2 * 2 * r * r), &[2, 2, r, r]).unwrap();
    let x = Tensor::from_f32(ctx, &random_f32(seed, 2 * 12 * 12), &[1, 2, 12, 12]).unwrap();
    let (own, other) = (filter(seed + 1, filters.0), filter(seed + 2, filters.1));
    let other_padded = opts().padding(&[filters.1 as u32 / 2]);
    for (weight, options) in [(&own, opts().stride(&[2])), (&own, opts().dilation(&[2])), (&other, other_padded)] {
        let err = ctx.convolution_forced(&x, weight, None, &options, &forced).unwrap_err().to_string();
        assert!(err.contains(kernel.name()), "{options:?}: {err}");
    }
}

/// Winograd `kernel`, forced through a `Conv2d` (its weight transformed once, at `Conv2d`'s
/// making) on `shapes` under storage bindings of `limit` bytes, where it must run in `parts`
/// parts of whole images (three passes each), against the f64 reference.
fn check_winograd_conv2d_in_parts(
    kernel: ConvKernel,
    seed: u64,
    limit: u64,
    shapes: ([usize; 4], [usize; 4]),
    options: &ConvOptions,
    parts: usize,
) {
    let ctx = context_with_binding_limit(limit);
    let (input, weight) = shapes;
    let x = random_f32(seed, input.iter().product());
    let w = random_f32(seed + 1, weight.iter().product());
    let (expected, shape) = reference::convolution(&x, &input, &w, &weight, None, options).unwrap();
    let xt = Tensor::from_f32(&ctx, &x, &input).unwrap();
    let wt = Tensor::from_f32(&ctx, &w, &weight).unwrap();
    let forced = ForcedPlan::kernel(kernel);
    let conv = wgconv::Conv2d::new_forced(&ctx, &wt, None, options, &forced).unwrap();
    let y = Tensor::full_f32(&ctx, &shape, f32::NAN).unwrap();
    let mut batch = ctx.batch();
    assert_eq!(conv.run_into_forced(&mut batch, &xt, &y, &forced).unwrap(), kernel);
    // No weight transform here (the `Conv2d`'s), then three passes for each part.
    assert_eq!(batch.len(), parts * 3, "{kernel:?}");
    batch.submit().unwrap();
    let err = reference::relative_error(&y.to_vec_f32(&ctx).unwrap(), &expected);
    assert!(err <= TOLERANCE, "{kernel:?}: parts: relative error {err:e}");
}

/// Winograd F(4×4, 3×3), forced: ragged tiles (every output size mod 4), paddings 0–2, output
/// channels not a multiple of 4, bias or none, relu and clamp, several images; then in bands of
/// tile rows and in parts of whole images where its intermediates (36/16 the input and output)
/// exceed a binding; and through a `Conv2d` that keeps its transformed weight. Every output
/// NaN-poisoned first, each against the f64 reference.
#[test]
fn winograd_4x4_matches_the_reference() {
    let w4 = ConvKernel::Winograd4x4;
    let relu = opts().activation(Activation::Relu);
    let clamp = opts().activation(Activation::Clamp { min: -0.5, max: 0.75 });
    // (The kernel each case names is its reference route: `DirectVec4` at 4k input channels.)
    let (vec4, scalar) = (ConvKernel::DirectVec4, ConvKernel::Direct);
    let cases = [
        (
            "4x4 exact",
            Case { input: &[1, 8, 8, 12], weight: &[8, 8, 3, 3], bias: true, opts: opts().padding(&[1]), kernel: vec4 },
        ),
        (
            "ragged 1 and 3",
            Case {
                input: &[2, 5, 11, 9],
                weight: &[13, 5, 3, 3],
                bias: true,
                opts: opts().padding(&[1]),
                kernel: scalar,
            },
        ),
        (
            "ragged 2, unpadded",
            Case { input: &[1, 12, 12, 16], weight: &[6, 12, 3, 3], bias: false, opts: opts(), kernel: vec4 },
        ),
        (
            "padded 2×1",
            Case {
                input: &[1, 7, 6, 10],
                weight: &[9, 7, 3, 3],
                bias: true,
                opts: relu.padding(&[2, 1]),
                kernel: scalar,
            },
        ),
        (
            "one tile row",
            Case { input: &[3, 4, 3, 21], weight: &[4, 4, 3, 3], bias: true, opts: clamp.padding(&[1]), kernel: vec4 },
        ),
        (
            "wide",
            Case {
                input: &[1, 16, 5, 70],
                weight: &[20, 16, 3, 3],
                bias: false,
                opts: opts().padding(&[0, 1]),
                kernel: vec4,
            },
        ),
    ];
    for (i, (name, case)) in cases.into_iter().enumerate() {
        check_runs_forced(name, 900 + 3 * i as u64, case, &[Some(w4)], ForcedPlan::default());
    }

    // 24 KiB bindings, 12 output channels: [2, 8, 18, 24]'s transformed input per image
    // (36·8·5·6 f32 = 34.6 KB) does not fit, two of its five tile rows' products (36·12·6 f32 a
    // row) do: each image in bands of 2, 2 and 1 tile rows, the last cut (18 rows); its tensors
    // exceed the binding too, so each image runs as a convolution of its own, the weight
    // transformed once for both. 32 KiB, 8 output channels: the tensors fit, the images are
    // bound at aligned offsets (13,824 bytes each), in bands of 3 and 2 tile rows.
    let options = opts().padding(&[1]).activation(Activation::Relu);
    for (seed, limit, oc, bands) in [(930, 24 << 10, 12usize, 3), (935, 32 << 10, 8, 2)] {
        // The weight transform, then three passes per band of each of the 2 images.
        let passes = 1 + 2 * bands * 3;
        check_winograd_in_bands(w4, seed, limit, ([2, 8, 18, 24], [oc, 8, 3, 3]), &options, passes);
    }

    // 96 KiB bindings: per image the transformed input is 36·16·4·4 f32 = 36 KiB; 3 images of
    // 16 KiB in and 12 KiB out run in parts of 2 and 1.
    check_winograd_conv2d_in_parts(w4, 940, 96 << 10, ([3, 16, 16, 16], [12, 16, 3, 3]), &options, 2);

    // Its transformed weight is 36/9 the weight (`Winograd`'s 16/9): on 512 KiB bindings a 64→64
    // layer's (36·64·64 f32 = 576 KiB) does not fit where `Winograd`'s (256 KiB) does. Forced, a
    // typed error naming the transformed weight; `Winograd` runs there.
    let narrow = context_with_binding_limit(512 << 10);
    let x = Tensor::from_f32(&narrow, &random_f32(945, 64 * 16), &[1, 64, 4, 4]).unwrap();
    let w = Tensor::from_f32(&narrow, &random_f32(946, 64 * 64 * 9), &[64, 64, 3, 3]).unwrap();
    let padded = opts().padding(&[1]);
    let err = narrow.convolution_forced(&x, &w, None, &padded, &ForcedPlan::kernel(w4)).unwrap_err().to_string();
    assert!(err.contains("winograd_4x4") && err.contains("transformed weight (147456 f32)"), "{err}");
    let f2 = ForcedPlan::kernel(ConvKernel::Winograd);
    assert_eq!(narrow.convolution_forced(&x, &w, None, &padded, &f2).unwrap().kernel, ConvKernel::Winograd);

    // Forced on a filter it does not run (stride 2): a typed error naming the kernel.
    let ctx = context();
    let x = Tensor::from_f32(ctx, &random_f32(950, 2 * 8 * 8), &[1, 2, 8, 8]).unwrap();
    let w = Tensor::from_f32(ctx, &random_f32(951, 2 * 2 * 9), &[2, 2, 3, 3]).unwrap();
    let strided = opts().stride(&[2]);
    let err = ctx.convolution_forced(&x, &w, None, &strided, &ForcedPlan::kernel(w4)).unwrap_err().to_string();
    assert!(err.contains("winograd_4x4"), "{err}");
}

/// Winograd F(4×4, 3×3) on dilated filters, forced: the output's dilation² phases each tiled
/// alone. Dilation 2 (phases of 9 and 8 rows: ragged tiles in each), 3 × 2 (unequal along the
/// axes) with padding 3 × 2, along one axis only, "same" dilation 4 with bias and relu, an image narrower than the
/// dilation (7 columns at dilation 12: phases past the output, ASPP-like), 12 output channels,
/// two images; in bands of tile rows and in parts of whole images where its intermediates
/// exceed a binding, through a `Conv2d` that keeps its transformed weight. Every output
/// NaN-poisoned first, each against the f64 reference.
#[test]
fn winograd_4x4_runs_dilated_filters() {
    let w4 = ConvKernel::Winograd4x4;
    let relu = opts().activation(Activation::Relu);
    let (vec4, scalar) = (ConvKernel::DirectVec4, ConvKernel::Direct);
    let cases = [
        (
            "dilation 2, ragged phases",
            Case {
                input: &[2, 8, 19, 17],
                weight: &[12, 8, 3, 3],
                bias: true,
                opts: opts().padding(&[1]).dilation(&[2]),
                kernel: vec4,
            },
        ),
        (
            "dilation 3×2, padding 3×2",
            Case {
                input: &[1, 5, 23, 18],
                weight: &[7, 5, 3, 3],
                bias: false,
                opts: opts().padding(&[3, 2]).dilation(&[3, 2]),
                kernel: scalar,
            },
        ),
        (
            "same, dilation 4, relu",
            Case {
                input: &[1, 4, 21, 26],
                weight: &[8, 4, 3, 3],
                bias: true,
                opts: relu.padding(&[4]).dilation(&[4]),
                kernel: vec4,
            },
        ),
        (
            "dilated along rows only",
            Case {
                input: &[1, 6, 14, 17],
                weight: &[5, 6, 3, 3],
                bias: false,
                opts: opts().padding(&[2, 1]).dilation(&[2, 1]),
                kernel: scalar,
            },
        ),
        (
            "dilated along columns only",
            Case {
                input: &[2, 4, 10, 23],
                weight: &[6, 4, 3, 3],
                bias: true,
                opts: opts().padding(&[1, 3]).dilation(&[1, 3]),
                kernel: vec4,
            },
        ),
        (
            "dilation 12 over 7 columns",
            Case {
                input: &[1, 8, 9, 7],
                weight: &[4, 8, 3, 3],
                bias: true,
                opts: opts().padding(&[12]).dilation(&[12]),
                kernel: vec4,
            },
        ),
    ];
    for (i, (name, case)) in cases.into_iter().enumerate() {
        let g = ConvGeometry::new(case.input, case.weight, None, &case.opts).unwrap();
        assert!(g.supports(w4), "{name}");
        // The other Winograd kernels run undilated filters only.
        let others =
            [ConvKernel::Winograd, ConvKernel::WinogradCoop, ConvKernel::Winograd4x4Coop, ConvKernel::WinogradFused];
        for other in others {
            assert!(!g.supports(other), "{name}: {other:?}");
        }
        check_runs_forced(name, 960 + 3 * i as u64, case, &[Some(w4)], ForcedPlan::default());
    }
    // 24 KiB bindings: [2, 8, 18, 24] at dilation 2 has 2 · ⌈9 / 4⌉ = 6 tile rows of 2 · ⌈12 / 4⌉
    // = 6 tiles; its transformed input per image (36·8·6·6 f32 = 41.5 KB) does not fit, two tile
    // rows of products (36·12·6 f32 a row) do: each image in bands of 2 tile rows (3 bands), each
    // band a mix of both row phases' tiles.
    let options = opts().padding(&[2]).dilation(&[2]).activation(Activation::Relu);
    check_winograd_in_bands(w4, 975, 24 << 10, ([2, 8, 18, 24], [12, 8, 3, 3]), &options, 1 + 2 * 3 * 3);
    // Through a `Conv2d` that keeps its transformed weight (the weight's transform does not
    // depend on the dilation; unpadded, so the filter's own 3×3 window would not suit it), 3
    // images at dilation 2 in parts of 2 and 1 (12² outputs: 2 · ⌈6 / 4⌉ tile rows and columns,
    // 36·16·4·4 f32 = 36 KiB of transformed input per image on 96 KiB bindings).
    let unpadded = opts().dilation(&[2]).activation(Activation::Relu);
    check_winograd_conv2d_in_parts(w4, 978, 96 << 10, ([3, 16, 16, 16], [12, 16, 3, 3]), &unpadded, 2);
    // Dilated filters the others refuse: 5×5 at dilation 2 (`Winograd5x5`, F(2×2, 5×5)).
    let g = ConvGeometry::new(&[1, 8, 20, 20], &[8, 8, 5, 5], None, &opts().dilation(&[2])).unwrap();
    assert!(!g.supports(ConvKernel::Winograd5x5) && !g.supports(w4));
}

/// Winograd F(2×2, 5×5), forced: ragged tiles (odd and even output sizes), paddings 0–2 and
/// 2×1, output channels not a multiple of 4, bias or none, relu and clamp, several images,
/// channels-last tensors (through a relayout); in bands of tile rows and in parts of whole
/// images where its intermediates (9 times the input and output) exceed a binding, through a
/// `Conv2d` that keeps its transformed weight; typed errors where it cannot run. Every output
/// NaN-poisoned first, each against the f64 reference.
#[test]
fn winograd_5x5_matches_the_reference() {
    let w5 = ConvKernel::Winograd5x5;
    let relu = opts().activation(Activation::Relu);
    let clamp = opts().activation(Activation::Clamp { min: -0.5, max: 0.75 });
    let (vec4, scalar) = (ConvKernel::DirectVec4, ConvKernel::Direct);
    let cases = [
        (
            "2x2 exact",
            Case { input: &[1, 8, 8, 12], weight: &[8, 8, 5, 5], bias: true, opts: opts().padding(&[2]), kernel: vec4 },
        ),
        (
            "ragged",
            Case {
                input: &[2, 5, 11, 9],
                weight: &[13, 5, 5, 5],
                bias: true,
                opts: relu.padding(&[2]),
                kernel: scalar,
            },
        ),
        ("unpadded", Case { input: &[1, 12, 12, 15], weight: &[6, 12, 5, 5], bias: false, opts: opts(), kernel: vec4 }),
        (
            "padded 2×1, one tile row",
            Case {
                input: &[3, 7, 2, 10],
                weight: &[9, 7, 5, 5],
                bias: true,
                opts: clamp.padding(&[2, 1]),
                kernel: scalar,
            },
        ),
        (
            "padded 1, wide",
            Case {
                input: &[1, 16, 5, 70],
                weight: &[20, 16, 5, 5],
                bias: false,
                opts: opts().padding(&[1]),
                kernel: vec4,
            },
        ),
    ];
    for (i, (name, case)) in cases.into_iter().enumerate() {
        check_runs_forced(name, 960 + 3 * i as u64, case, &[Some(w5)], ForcedPlan::default());
    }

    // Channels-last tensors: the output follows the input's format.
    let options = opts().padding(&[2]).activation(Activation::Relu);
    check_winograd_channels_last(w5, 980, ([2, 8, 9, 7], [12, 8, 5, 5]), &options);

    // 64 KiB bindings, 12 output channels, [2, 8, 18, 24] padded 2: 9 × 12 tiles an image, a
    // tile row's products 36·12·12 f32 (20 736 bytes), so 3 rows a band; each image (13 824
    // bytes in, 20 736 out: aligned) in a part of its own, in 3 bands.
    // The weight transform, then three passes per band of each of the 2 images.
    check_winograd_in_bands(w5, 985, 64 << 10, ([2, 8, 18, 24], [12, 8, 5, 5]), &options, 1 + 2 * 3 * 3);

    // 96 KiB bindings: per image the transformed input is 36·16·4·4 f32 = 36 KiB; 3 images run
    // in parts of 2 and 1.
    check_winograd_conv2d_in_parts(w5, 990, 96 << 10, ([3, 16, 8, 8], [12, 16, 5, 5]), &options, 2);

    // Its transformed weight is 36/25 the weight: on 512 KiB bindings a 64→64 layer's
    // (36·64·64 f32 = 576 KiB) does not fit. Forced, a typed error naming it.
    check_winograd_weight_over_binding(w5, 992, 5, 147_456);

    // Forced on filters it does not run (stride 2, dilation 2, 3×3): typed errors naming it.
    check_winograd_refuses(w5, 995, (5, 3));
}

/// Winograd F(4×4, 5×5), forced: ragged tiles (every output size mod 4), paddings 0–2, bias or
/// none, relu and clamp, several images; channels-last tensors; in bands of tile rows and in
/// parts of whole images where its intermediates (4 times the input and output) exceed a
/// binding, through a `Conv2d` that keeps its transformed weight; typed errors where it cannot
/// run. Every output NaN-poisoned first, each against the f64 reference.
#[test]
fn winograd_5x5_tile4_matches_the_reference() {
    let w54 = ConvKernel::Winograd5x5Tile4;
    let relu = opts().activation(Activation::Relu);
    let clamp = opts().activation(Activation::Clamp { min: -0.5, max: 0.75 });
    let (vec4, scalar) = (ConvKernel::DirectVec4, ConvKernel::Direct);
    let case = |input, weight, bias, opts, kernel| Case { input, weight, bias, opts, kernel };
    let cases = [
        // Output sizes mod 4: 0 × 0, 3 × 1, 2 × 3 (unpadded), 1 × 2 (one tile row), 1 × 0 (many
        // columns), 1 × 1.
        ("4x4 exact", case(&[1, 8, 8, 12], &[8, 8, 5, 5], true, opts().padding(&[2]), vec4)),
        ("ragged", case(&[2, 5, 11, 9], &[13, 5, 5, 5], true, relu.clone().padding(&[2]), scalar)),
        ("unpadded", case(&[1, 12, 10, 15], &[6, 12, 5, 5], false, opts(), vec4)),
        ("padded 2×1, one tile row", case(&[3, 7, 1, 12], &[9, 7, 5, 5], true, clamp.padding(&[2, 1]), scalar)),
        ("padded 1, wide", case(&[1, 16, 3, 70], &[20, 16, 5, 5], false, opts().padding(&[1]), vec4)),
        ("AlexNet's channels", case(&[2, 64, 13, 13], &[192, 64, 5, 5], true, relu.padding(&[2]), vec4)),
    ];
    for (i, (name, case)) in cases.into_iter().enumerate() {
        check_runs_forced(name, 1200 + 3 * i as u64, case, &[Some(w54)], ForcedPlan::default());
    }

    // Channels-last tensors: the output follows the input's format.
    let options = opts().padding(&[2]).activation(Activation::Relu);
    check_winograd_channels_last(w54, 1220, ([2, 8, 9, 7], [12, 8, 5, 5]), &options);

    // 64 KiB bindings, 12 output channels, [2, 8, 18, 24] padded 2: 5 × 6 tiles an image, a
    // tile row's products 64·12·6 f32 (18 432 bytes), so 3 rows fit and the 5 rows run in 2
    // bands of 3 and 2; each image (13 824 bytes in, 20 736 out: aligned) in a part of its own.
    // The weight transform, then three passes per band of each of the 2 images.
    check_winograd_in_bands(w54, 1225, 64 << 10, ([2, 8, 18, 24], [12, 8, 5, 5]), &options, 1 + 2 * 2 * 3);

    // 32 KiB bindings: per image the products are 64·12·2·2 f32 (12 KiB) and a tile row's 6 KiB,
    // so 5 rows fit: 3 images run in parts of 2 and 1.
    check_winograd_conv2d_in_parts(w54, 1230, 32 << 10, ([3, 8, 8, 8], [12, 8, 5, 5]), &options, 2);

    // Its transformed weight is 64/25 the weight: on 512 KiB bindings a 64→64 layer's
    // (64·64·64 f32 = 1 MiB) does not fit. Forced, a typed error naming it.
    check_winograd_weight_over_binding(w54, 1232, 5, 262_144);

    // Forced on filters it does not run (stride 2, dilation 2, 3×3): typed errors naming it.
    check_winograd_refuses(w54, 1235, (5, 3));
}

/// Winograd F(6×6, 3×3), forced: ragged tiles (output sizes mod 6 from 0 to 5), paddings 0–2,
/// bias or none, relu and clamp, several images; channels-last tensors; in bands of tile rows
/// and in parts of whole images, through a `Conv2d` that keeps its transformed weight; typed
/// errors where it cannot run. Every output NaN-poisoned first, each against the f64 reference.
#[test]
fn winograd_6x6_matches_the_reference() {
    let w6 = ConvKernel::Winograd6x6;
    let relu = opts().activation(Activation::Relu);
    let clamp = opts().activation(Activation::Clamp { min: -0.5, max: 0.75 });
    let (vec4, scalar) = (ConvKernel::DirectVec4, ConvKernel::Direct);
    let case = |input, weight, bias, opts, kernel| Case { input, weight, bias, opts, kernel };
    let cases = [
        // Output sizes mod 6: 0 × 0, 5 × 3, 4 × 2 (unpadded), 1 × 4, 3 × 1 (one tile row), 2 × 5
        // (many columns).
        ("6x6 exact", case(&[1, 8, 12, 12], &[8, 8, 3, 3], true, opts().padding(&[1]), vec4)),
        ("ragged 5 and 3", case(&[2, 5, 11, 9], &[13, 5, 3, 3], true, opts().padding(&[1]), scalar)),
        ("ragged, unpadded", case(&[1, 12, 12, 16], &[6, 12, 3, 3], false, opts(), vec4)),
        ("padded 2×1", case(&[1, 7, 5, 10], &[9, 7, 3, 3], true, relu.padding(&[2, 1]), scalar)),
        ("one tile row", case(&[3, 4, 3, 19], &[4, 4, 3, 3], true, clamp.padding(&[1]), vec4)),
        ("wide", case(&[1, 16, 10, 71], &[20, 16, 3, 3], false, opts().padding(&[0, 1]), vec4)),
    ];
    for (i, (name, case)) in cases.into_iter().enumerate() {
        check_runs_forced(name, 1300 + 3 * i as u64, case, &[Some(w6)], ForcedPlan::default());
    }

    // Channels-last tensors: the output follows the input's format.
    let options = opts().padding(&[1]).activation(Activation::Relu);
    check_winograd_channels_last(w6, 1320, ([2, 8, 9, 13], [12, 8, 3, 3]), &options);

    // 48 KiB bindings, 12 output channels, [2, 8, 30, 24] padded 1: 5 × 4 tiles an image, a
    // tile row's products 64·12·4 f32 (12 288 bytes), so 4 rows fit and the 5 rows run in 2
    // bands of 3 and 2; each image (23 040 bytes in, 34 560 out: aligned) in a part of its own.
    // The weight transform, then three passes per band of each of the 2 images.
    check_winograd_in_bands(w6, 1325, 48 << 10, ([2, 8, 30, 24], [12, 8, 3, 3]), &options, 1 + 2 * 2 * 3);

    // 32 KiB bindings: per image the products are 64·12·2·2 f32 (12 KiB) and a tile row's 6 KiB,
    // so 5 rows fit: 3 images of 12 × 12 run in parts of 2 and 1.
    check_winograd_conv2d_in_parts(w6, 1330, 32 << 10, ([3, 8, 12, 12], [12, 8, 3, 3]), &options, 2);

    // Its transformed weight is 64/9 the weight: on 512 KiB bindings a 64→64 layer's
    // (64·64·64 f32 = 1 MiB) does not fit. Forced, a typed error naming it.
    check_winograd_weight_over_binding(w6, 1332, 3, 262_144);

    // Forced on filters it does not run (stride 2, dilation 2, 5×5): typed errors naming it.
    check_winograd_refuses(w6, 1335, (3, 5));
}

#[test]
fn gpu_timestamps_time_recorded_ops() {
    let ctx = context();
    let x = Tensor::from_f32(ctx, &random_f32(120, 8 * 16 * 16), &[1, 8, 16, 16]).unwrap();
    let w = Tensor::from_f32(ctx, &random_f32(121, 8 * 8 * 9), &[8, 8, 3, 3]).unwrap();
    let t = wgconv::timing::time_runs(ctx, 3, |b| b.convolution(&x, &w, None, &opts()).map(|_| ())).unwrap();
    assert!(t.ms_per_run > 0.0 && t.ms_per_run.is_finite(), "{t:?}");
    if ctx.features().contains(wgpu::Features::TIMESTAMP_QUERY) {
        assert_eq!(t.source, wgconv::timing::TimingSource::GpuTimestamps);
    }
}

/// `Sampling::min_sample_ms` raises the launches of a sample for short workloads (so the GPU does
/// not idle between samples), and 0 leaves them as given.
#[test]
fn samples_are_lengthened_for_short_workloads() {
    let ctx = context();
    let x = Tensor::from_f32(ctx, &random_f32(122, 4 * 8 * 8), &[1, 4, 8, 8]).unwrap();
    let w = Tensor::from_f32(ctx, &random_f32(123, 4 * 4), &[4, 4, 1, 1]).unwrap();
    let records = |min_sample_ms: f64| {
        let sampling =
            wgconv::timing::Sampling { samples: 2, launches: 1, warm_up_ms: 0.0, min_sample_ms, ..Default::default() };
        let mut count = 0u32;
        let t = wgconv::timing::median_time(ctx, &sampling, |b| {
            count += 1;
            b.convolution(&x, &w, None, &opts()).map(|_| ())
        })
        .unwrap();
        assert!(t.ms_per_run > 0.0 && t.ms_per_run.is_finite(), "{t:?}");
        count
    };
    // One first run, then two samples of one launch each.
    assert_eq!(records(0.0), 3);
    // A sample of at least a minute of this 8×8 layer needs far more than one launch (capped
    // at 10 000 a sample).
    let lengthened = records(60_000.0);
    assert!(lengthened > 3 && lengthened <= 1 + 2 * 10_000, "{lengthened}");
}

#[test]
fn prepared_convolution_runs_many_inputs() {
    let ctx = context();
    // (weight, options, input channels, output channels)
    for (weight_shape, opts, ic, oc) in [
        (vec![24, 8, 3, 3], opts().padding(&[1]).stride(&[2]), 8, 24),
        (vec![8, 6, 4, 4], opts().transposed(true).stride(&[2]).padding(&[1]).groups(2), 8, 12),
        (vec![20, 3, 5], opts().padding(&[2]), 3, 20),
    ] {
        let w = random_f32(130, weight_shape.iter().product());
        let wt = Tensor::from_f32(ctx, &w, &weight_shape).unwrap();
        let b = random_f32(131, oc);
        let bt = Tensor::from_f32(ctx, &b, &[oc]).unwrap();
        let conv = wgconv::Conv2d::new(ctx, &wt, Some(&bt), &opts).unwrap();
        for (i, spatial) in [vec![9, 11], vec![16, 16]].into_iter().enumerate() {
            let mut shape = vec![2, ic];
            shape.extend(if weight_shape.len() == 3 { &spatial[1..] } else { &spatial[..] });
            let x = random_f32(132 + i as u64, shape.iter().product());
            let xt = Tensor::from_f32(ctx, &x, &shape).unwrap();
            let (expected, out_shape) = reference::convolution(&x, &shape, &w, &weight_shape, Some(&b), &opts).unwrap();
            let out = Tensor::full_f32(ctx, &out_shape, f32::NAN).unwrap();
            let mut batch = ctx.batch();
            let kernel = conv.run_into(&mut batch, &xt, &out).unwrap();
            // Prepared: one dispatch per run, whatever the kernel (no repacking, no duplicates).
            assert_eq!(batch.len(), 1, "{weight_shape:?} via {}", kernel.name());
            batch.submit().unwrap();
            let err = reference::relative_error(&out.to_vec_f32(ctx).unwrap(), &expected);
            assert!(err <= TOLERANCE, "{weight_shape:?} {shape:?} via {}: {err:e}", kernel.name());
        }
    }
    let wt = Tensor::from_f32(ctx, &[1.0; 12], &[3, 4]).unwrap();
    let err = wgconv::Conv2d::new(ctx, &wt, None, &opts()).unwrap_err();
    assert!(err.to_string().contains("[3, 4]"), "{err}");
    let wt = Tensor::from_f32(ctx, &[1.0; 18], &[3, 2, 3]).unwrap();
    let err = wgconv::Conv2d::new(ctx, &wt, None, &opts().groups(2)).unwrap_err();
    assert!(err.to_string().contains("groups 2 does not divide"), "{err}");
}

/// R32: a 3→16 stem on a grid the staged tiles would run (1024 tiles of 64×64) runs on
/// `grouped_oc4`, planned, with every other kernel that supports it against the same reference;
/// and a 1×1 layer of 40 input channels (over the 16 R9 plans it for) forced on it.
#[test]
fn few_output_channels_on_large_grids_run_grouped_oc4() {
    let (input, weight) = ([1usize, 3, 256, 256], [16usize, 3, 3, 3]);
    let options = opts().padding(&[1]).activation(Activation::Relu);
    let g = ConvGeometry::new(&input, &weight, None, &options).unwrap();
    assert_eq!(g.planned_kernel(), ConvKernel::GroupedOc4);
    check(
        "3→16 stem",
        740,
        Case { input: &input, weight: &weight, bias: true, opts: options, kernel: ConvKernel::Direct },
    );
    let case = Case {
        input: &[2, 40, 9, 11],
        weight: &[12, 40, 1, 1],
        bias: true,
        opts: opts(),
        kernel: ConvKernel::DirectVec4,
    };
    check_runs("40→12 pointwise", 742, case, &[Some(ConvKernel::GroupedOc4)]);
    // A tile width forced without a kernel is a staged GEMM choice, which R32's layers leave.
    let case =
        Case { input: &input, weight: &weight, bias: false, opts: opts().padding(&[1]), kernel: ConvKernel::Direct };
    check_runs_forced(
        "3→16 stem, tile 64",
        744,
        case,
        &[None],
        ForcedPlan { tile_n: Some(64), ..ForcedPlan::default() },
    );
}

/// Winograd F(2×2, 3×3), forced (and the planner's choice, another kernel at these small sizes,
/// against the same reference): odd output sizes (the last tiles cut), padding 0,
/// 1 and 2, channel counts that are not multiples of 4 (the transformed weight's padding), a
/// product GEMM of few channels (which the planner would give a non-GEMM kernel: stepped to the
/// staged tiles), a single tile, and each activation with a bias.
#[test]
fn winograd_tiles_padding_and_odd_sizes() {
    let clamp = Activation::Clamp { min: -0.5, max: 0.25 };
    let cases: [(&[usize], &[usize], u32, Activation); 6] = [
        (&[1, 5, 7, 9], &[6, 5, 3, 3], 1, Activation::None),
        (&[2, 37, 10, 6], &[19, 37, 3, 3], 0, Activation::Relu),
        (&[1, 20, 5, 13], &[33, 20, 3, 3], 2, clamp),
        (&[1, 3, 3, 3], &[4, 3, 3, 3], 0, Activation::None),
        (&[1, 16, 8, 8], &[16, 16, 3, 3], 1, Activation::None),
        (&[3, 64, 6, 11], &[72, 64, 3, 3], 1, Activation::Relu),
    ];
    for (i, (input, weight, pad, activation)) in cases.into_iter().enumerate() {
        let opts = opts().padding(&[pad]).activation(activation);
        let kernel = ConvGeometry::new(input, weight, None, &opts).unwrap().reference_kernel();
        let case = Case { input, weight, bias: true, opts, kernel };
        check_runs(
            &format!("winograd {input:?} * {weight:?} pad {pad}"),
            700 + i as u64,
            case,
            &[Some(ConvKernel::Winograd), None],
        );
    }
}

/// A prepared convolution transforms its weight for Winograd once: each run records the input
/// transform, the products and the output transform, one dispatch fewer than the one-op form;
/// one prepared for a forced Winograd kernel ([`wgconv::Conv2d::new_forced`]) likewise.
#[test]
fn prepared_winograd_transforms_the_weight_once() {
    let ctx = context();
    // 64+ channels in and out: what R31 plans Winograd for, so `Conv2d::new` keeps the transform.
    let (input, weight) = ([2usize, 64, 9, 7], [68usize, 64, 3, 3]);
    let opts = opts().padding(&[1]);
    let x = random_f32(710, input.iter().product());
    let w = random_f32(711, weight.iter().product());
    let b = random_f32(712, 68);
    let (expected, shape) = reference::convolution(&x, &input, &w, &weight, Some(&b), &opts).unwrap();
    let (xt, wt) = (Tensor::from_f32(ctx, &x, &input).unwrap(), Tensor::from_f32(ctx, &w, &weight).unwrap());
    let bt = Tensor::from_f32(ctx, &b, &[68]).unwrap();
    let forced = ForcedPlan::kernel(ConvKernel::Winograd);
    let conv = wgconv::Conv2d::new(ctx, &wt, Some(&bt), &opts).unwrap();
    let mut dispatches = Vec::new();
    for prepared in [true, false] {
        let out = Tensor::full_f32(ctx, &shape, f32::NAN).unwrap();
        let mut batch = ctx.batch();
        let kernel = match prepared {
            true => conv.run_into_forced(&mut batch, &xt, &out, &forced),
            false => batch.convolution_into_forced(&xt, &wt, Some(&bt), &out, &opts, &forced),
        }
        .unwrap();
        assert_eq!(kernel, ConvKernel::Winograd);
        dispatches.push(batch.len());
        batch.submit().unwrap();
        let err = reference::relative_error(&out.to_vec_f32(ctx).unwrap(), &expected);
        assert!(err <= TOLERANCE, "prepared {prepared}: {err:e}");
    }
    assert_eq!(dispatches, [3, 4]);
    // Fewer channels: no transform kept, so a forced run transforms the weight itself.
    let (w_small, small) = (random_f32(713, 20 * 12 * 9), [20usize, 12, 3, 3]);
    let conv = wgconv::Conv2d::new(ctx, &Tensor::from_f32(ctx, &w_small, &small).unwrap(), None, &opts).unwrap();
    let x_small = Tensor::from_f32(ctx, &random_f32(714, 12 * 49), &[1, 12, 7, 7]).unwrap();
    let mut batch = ctx.batch();
    assert_eq!(conv.run_forced(&mut batch, &x_small, &forced).unwrap().kernel, ConvKernel::Winograd);
    assert_eq!(batch.len(), 4);
    // … unless prepared for the kernel forced.
    let wt_small = Tensor::from_f32(ctx, &w_small, &small).unwrap();
    let conv = wgconv::Conv2d::new_forced(ctx, &wt_small, None, &opts, &forced).unwrap();
    let mut batch = ctx.batch();
    assert_eq!(conv.run_forced(&mut batch, &x_small, &forced).unwrap().kernel, ConvKernel::Winograd);
    assert_eq!(batch.len(), 3);
}

/// A `Conv2d` prepared for its input's size (`Conv2d::new_for_input`) keeps the transform of the
/// Winograd kernel the planner runs on it: R61's F(4×4, 3×3) on a wide grid, which `Conv2d::new`,
/// not knowing the size, leaves to each run (it keeps F(2×2, 3×3)'s). Both match the reference.
#[test]
fn prepared_for_an_input_keeps_the_planned_winograd_transform() {
    let ctx = context();
    // 64 → 80 at 66²: 200.7 M multiply-adds over 17 × 17 tiles of 4×4, what R61 takes.
    let (input, weight) = ([1usize, 64, 66, 66], [80usize, 64, 3, 3]);
    let opts = opts().padding(&[1]).activation(Activation::Relu);
    let g = ConvGeometry::new(&input, &weight, None, &opts).unwrap();
    assert_eq!(g.planned_kernel(), ConvKernel::Winograd4x4);
    let x = random_f32(770, input.iter().product());
    let w = random_f32(771, weight.iter().product());
    let (expected, shape) = reference::convolution(&x, &input, &w, &weight, None, &opts).unwrap();
    let (xt, wt) = (Tensor::from_f32(ctx, &x, &input).unwrap(), Tensor::from_f32(ctx, &w, &weight).unwrap());
    let mut dispatches = Vec::new();
    for for_input in [true, false] {
        let conv = match for_input {
            true => wgconv::Conv2d::new_for_input(ctx, &wt, None, &opts, &input),
            false => wgconv::Conv2d::new(ctx, &wt, None, &opts),
        }
        .unwrap();
        let out = Tensor::full_f32(ctx, &shape, f32::NAN).unwrap();
        let mut batch = ctx.batch();
        assert_eq!(conv.run_into(&mut batch, &xt, &out).unwrap(), ConvKernel::Winograd4x4);
        dispatches.push(batch.len());
        batch.submit().unwrap();
        let err = reference::relative_error(&out.to_vec_f32(ctx).unwrap(), &expected);
        assert!(err <= TOLERANCE, "prepared for the input {for_input}: {err:e}");
    }
    // The weight transform in the run, only where the `Conv2d` did not keep it.
    assert_eq!(dispatches[1], dispatches[0] + 1, "{dispatches:?}");
    // An input that does not suit the weight: the geometry's typed error, naming both.
    let err = wgconv::Conv2d::new_for_input(ctx, &wt, None, &opts, &[1, 32, 66, 66]).unwrap_err();
    assert!(matches!(err, wgconv::Error::InvalidShape { .. }), "{err}");
    assert!(err.to_string().contains("has 64 channels per group") && err.to_string().contains("32"), "{err}");
}

/// The planner's 5×5 Winograd on a `Conv2d`: `Conv2d::new` keeps F(4×4, 5×5)'s transform for
/// 32+ channels in and out (R68), which a grid of 49+ columns of 4×4 tiles runs on as it is (one
/// dispatch fewer than a convolution without the `Conv2d`, which transforms the weight: AlexNet's
/// 64 → 192 at batch 1 has 49); a smaller grid runs a GEMM kernel on the GEMM weight the
/// `Conv2d` packed (again one dispatch fewer: the packing). Each against the f64 reference,
/// outputs NaN-poisoned.
#[test]
fn planned_5x5_winograd_runs_on_the_kept_transform() {
    let ctx = context();
    let opts = opts().padding(&[2]).activation(Activation::Relu);
    let tile4 = ConvKernel::Winograd5x5Tile4;
    let cases = [
        // 2 images of 8 × 8 tiles: 128 columns.
        ([2usize, 32, 32, 32], [40usize, 32, 5, 5], true),
        // 7 × 7 tiles: 49 columns.
        ([1, 64, 27, 27], [192, 64, 5, 5], true),
        // 4 × 4 tiles: 16 columns.
        ([1, 32, 14, 14], [48, 32, 5, 5], false),
    ];
    for (i, (input, weight, kept)) in cases.into_iter().enumerate() {
        let g = ConvGeometry::new(&input, &weight, None, &opts).unwrap();
        let planned = g.planned_kernel();
        assert_eq!(planned == tile4, kept, "{input:?}: {planned:?}");
        let x = random_f32(775 + 2 * i as u64, input.iter().product());
        let w = random_f32(776 + 2 * i as u64, weight.iter().product());
        let (expected, shape) = reference::convolution(&x, &input, &w, &weight, None, &opts).unwrap();
        let (xt, wt) = (Tensor::from_f32(ctx, &x, &input).unwrap(), Tensor::from_f32(ctx, &w, &weight).unwrap());
        let mut dispatches = Vec::new();
        for with_conv2d in [true, false] {
            let out = Tensor::full_f32(ctx, &shape, f32::NAN).unwrap();
            let mut batch = ctx.batch();
            let kernel = match with_conv2d {
                true => wgconv::Conv2d::new(ctx, &wt, None, &opts).unwrap().run_into(&mut batch, &xt, &out),
                false => batch.convolution_into(&xt, &wt, None, &out, &opts),
            }
            .unwrap();
            assert_eq!(kernel, planned, "{input:?}");
            dispatches.push(batch.len());
            batch.submit().unwrap();
            let err = reference::relative_error(&out.to_vec_f32(ctx).unwrap(), &expected);
            assert!(err <= TOLERANCE, "{input:?}, with a Conv2d {with_conv2d}: {err:e}");
        }
        assert_eq!(dispatches[0] + 1, dispatches[1], "{input:?}: {dispatches:?}");
    }
}

/// A layer R67 plans on F(6×6, 3×3) whose transformed weight (64 · 192 · 160 f32, 7.5 MiB)
/// exceeds the device's 7 MiB bindings runs R61's F(4×4, 3×3), whose weight (36 · 192 · 160,
/// 4.2 MiB) fits, not the kernel planned without either (F(2×2, 3×3) here). The image (6.75 MiB)
/// fits, so the layer is not run in bands of rows, each planned anew. 96² at batch 1 is 256
/// columns of 6×6 tiles. The output is NaN-poisoned and must be finite everywhere; eight output
/// channels across its output-channel tiles are compared with the f64 reference (all 160 take
/// 40 s unoptimised).
#[test]
fn planned_winograd_6x6_over_a_binding_runs_winograd_4x4() {
    let ctx = context_with_binding_limit(7 << 20);
    let (input, weight) = ([1usize, 192, 96, 96], [160usize, 192, 3, 3]);
    let options = opts().padding(&[1]);
    let g = ConvGeometry::new(&input, &weight, None, &options).unwrap();
    assert_eq!(g.planned_kernel(), ConvKernel::Winograd6x6);
    let x = random_f32(1401, input.iter().product());
    let w = random_f32(1402, weight.iter().product());
    let (xt, wt) = (Tensor::from_f32(&ctx, &x, &input).unwrap(), Tensor::from_f32(&ctx, &w, &weight).unwrap());
    let out = Tensor::full_f32(&ctx, &g.output_shape(), f32::NAN).unwrap();
    let mut batch = ctx.batch();
    assert_eq!(batch.convolution_into(&xt, &wt, None, &out, &options).unwrap(), ConvKernel::Winograd4x4);
    batch.submit().unwrap();
    let y = out.to_vec_f32(&ctx).unwrap();
    assert!(y.iter().all(|v| v.is_finite()), "unwritten or non-finite outputs");
    let some = SomeChannels::new(&[0, 1, 63, 64, 127, 128, 158, 159], (&x, &input), (&w, &weight), &options);
    let err = some.error(&y);
    assert!(err <= TOLERANCE, "{err:e}");
}

/// The f64 reference of a few output channels of a one-image convolution, where all of them
/// would take too long unoptimised.
struct SomeChannels {
    channels: Vec<usize>,
    plane: usize,
    expected: Vec<f64>,
}

impl SomeChannels {
    /// `channels` of the convolution of `input` (data, shape [1, IC, H, W]) by `weight`.
    fn new(channels: &[usize], input: (&[f32], &[usize]), weight: (&[f32], &[usize]), options: &ConvOptions) -> Self {
        let ((x, input_shape), (w, weight_shape)) = (input, weight);
        let filter = weight_shape[1..].iter().product::<usize>();
        let w_some: Vec<f32> = channels.iter().flat_map(|&oc| &w[oc * filter..(oc + 1) * filter]).copied().collect();
        let some_shape = [channels.len(), weight_shape[1], weight_shape[2], weight_shape[3]];
        let (expected, shape) = reference::convolution(x, input_shape, &w_some, &some_shape, None, options).unwrap();
        Self { channels: channels.to_vec(), plane: shape[2..].iter().product(), expected }
    }

    /// The relative error of those channels of the output `y` ([1, OC, OH, OW]).
    fn error(&self, y: &[f32]) -> f64 {
        let plane = self.plane;
        let y_some: Vec<f32> = self.channels.iter().flat_map(|&oc| &y[oc * plane..(oc + 1) * plane]).copied().collect();
        reference::relative_error(&y_some, &self.expected)
    }
}

/// Winograd's products in K-slices (1024 input channels on 4 tiles: the small-grid GEMM splits
/// K): the slices are addressed by the products' size, not by the scratch buffer's, which a
/// larger Winograd layer run before on the same context left longer; and a batch in parts, whose
/// last part is smaller than the first.
#[test]
fn winograd_products_in_k_slices_after_a_larger_layer() {
    let ctx = wgconv::Context::new().unwrap();
    let forced = ForcedPlan::kernel(ConvKernel::Winograd);
    // Returns the dispatches recorded: weight transform, then per part the input transform, the
    // GEMM (and the split-K reduce) and the output transform.
    let run = |ctx: &wgconv::Context, input: &[usize], weight: &[usize], seed: u64| {
        let opts = opts().padding(&[1]);
        let x = random_f32(seed, input.iter().product());
        let w = random_f32(seed + 1, weight.iter().product());
        let (expected, shape) = reference::convolution(&x, input, &w, weight, None, &opts).unwrap();
        let xt = Tensor::from_f32(ctx, &x, input).unwrap();
        let wt = Tensor::from_f32(ctx, &w, weight).unwrap();
        let out = Tensor::full_f32(ctx, &shape, f32::NAN).unwrap();
        let mut batch = ctx.batch();
        let kernel = batch.convolution_into_forced(&xt, &wt, None, &out, &opts, &forced).unwrap();
        assert_eq!(kernel, ConvKernel::Winograd);
        let dispatches = batch.len();
        batch.submit().unwrap();
        let err = reference::relative_error(&out.to_vec_f32(ctx).unwrap(), &expected);
        assert!(err <= TOLERANCE, "{input:?} * {weight:?}: {err:e}");
        dispatches
    };
    assert_eq!(run(&ctx, &[1, 8, 64, 64], &[8, 8, 3, 3], 730), 4);
    // K 1024 on 4 tiles: the products split K (a reduce pass).
    assert_eq!(run(&ctx, &[1, 1024, 4, 4], &[4, 1024, 3, 3], 732), 5);
    // Three images of 16·1024·4 f32 (256 KiB) of transformed input each, two to a part.
    let narrow = context_with_binding_limit(512 << 10);
    assert_eq!(run(&narrow, &[3, 1024, 4, 4], &[4, 1024, 3, 3], 734), 9);
}

#[test]
fn split_k_for_small_grids_with_long_k() {
    // K = 128·9 = 1152 (144 K-tiles of 8) on one tile: long enough for the planner to split.
    // The planner splits these two (its choice is pinned by `conv_plan`'s unit tests): a split
    // records one dispatch more than the same convolution forced unsplit, the reduce pass.
    let dispatches = |input: &[usize], weight: &[usize], options: &ConvOptions, forced: &ForcedPlan| {
        let ctx = context();
        let xt = Tensor::zeros(ctx, input, wgconv::DType::F32).unwrap();
        let wt = Tensor::zeros(ctx, weight, wgconv::DType::F32).unwrap();
        let mut batch = ctx.batch();
        batch.convolution_forced(&xt, &wt, None, options, forced).unwrap();
        batch.len()
    };
    let unsplit = ForcedPlan { schedule: Some(GemmSchedule::SplitK(1)), ..ForcedPlan::default() };
    let splits_k = |input: &[usize], weight: &[usize], options: &ConvOptions| {
        dispatches(input, weight, options, &ForcedPlan::default()) == dispatches(input, weight, options, &unsplit) + 1
    };
    assert!(splits_k(&[1, 128, 6, 6], &[16, 128, 3, 3], &opts().padding(&[1])), "expected split-K");
    // The planner's split, then forced ones: uneven slices, and more slices than K-tiles.
    for (i, splits) in [None, Some(5), Some(150)].into_iter().enumerate() {
        let case = Case {
            input: &[1, 128, 6, 6],
            weight: &[16, 128, 3, 3],
            bias: true,
            opts: opts().padding(&[1]).activation(Activation::Relu),
            kernel: ConvKernel::DirectVec4,
        };
        let forced = ForcedPlan { schedule: splits.map(GemmSchedule::SplitK), ..ForcedPlan::default() };
        check_forced(&format!("split-K direct {splits:?}"), 140 + i as u64, case, forced);
    }
    // A batch-1 pointwise layer on a tiny grid splits K under 1024 too (rule R23: MobileNetV2's
    // last 1×1 at 7×7; K 960 is too long for the small-grid kernel, R26), with a bias and an
    // activation applied once, after the slices are added.
    assert!(splits_k(&[1, 960, 5, 5], &[24, 960, 1, 1], &opts()), "expected split-K");
    check(
        "split-K pointwise, tiny grid",
        146,
        Case {
            input: &[1, 960, 5, 5],
            weight: &[24, 960, 1, 1],
            bias: true,
            opts: opts().activation(Activation::Clamp { min: -0.5, max: 0.5 }),
            kernel: ConvKernel::DirectVec4,
        },
    );
    let t = opts().transposed(true).stride(&[2]).padding(&[1]);
    // K per stride phase = 256·2·2 = 1024.
    assert!(splits_k(&[2, 256, 3, 3], &[256, 8, 4, 4], &t), "expected split-K");
    check(
        "split-K transposed",
        145,
        Case { input: &[2, 256, 3, 3], weight: &[256, 8, 4, 4], bias: true, opts: t, kernel: ConvKernel::Transposed },
    );
    // A forced split whose scratch would exceed one storage binding is an error, and leaves the
    // shared scratch usable: the planner's split-K run afterwards still matches the reference.
    // The split must stay within the grid's 65,535 layers (one layer here) to reach the scratch
    // limit, so the image grows with the device's binding limit: 6×6 at 128 MiB (lavapipe),
    // 23×23 at 2 GiB (the H200).
    let ctx = context();
    let limit = ctx.limits().max_storage_buffer_binding_size;
    let splits_over_the_limit = |side: u64| limit / 4 / (16 * side * side) + 1;
    let side = (6..).find(|side| splits_over_the_limit(*side) <= 65_535).unwrap();
    let huge = splits_over_the_limit(side) as u32;
    let xs = random_f32(148, 128 * 36);
    let ws = random_f32(149, 16 * 128 * 9);
    let xt = Tensor::from_f32(ctx, &xs, &[1, 128, 6, 6]).unwrap();
    let wt = Tensor::from_f32(ctx, &ws, &[16, 128, 3, 3]).unwrap();
    let xl = Tensor::zeros(ctx, &[1, 128, side as usize, side as usize], wgconv::DType::F32).unwrap();
    let forced = ForcedPlan { schedule: Some(GemmSchedule::SplitK(huge)), ..ForcedPlan::kernel(ConvKernel::GemmM64) };
    let err = ctx.convolution_forced(&xl, &wt, None, &opts().padding(&[1]), &forced).unwrap_err();
    assert!(err.to_string().contains("split-K partial sums"), "{err}");
    let (expected, _) =
        reference::convolution(&xs, &[1, 128, 6, 6], &ws, &[16, 128, 3, 3], None, &opts().padding(&[1])).unwrap();
    let got = ctx.convolution(&xt, &wt, None, &opts().padding(&[1])).unwrap().output.to_vec_f32(ctx).unwrap();
    assert!(reference::relative_error(&got, &expected) <= TOLERANCE);
    // A forced split the grid cannot hold is a typed error naming it.
    for bad in [0, 70_000] {
        let o = ForcedPlan { schedule: Some(GemmSchedule::SplitK(bad)), ..ForcedPlan::kernel(ConvKernel::Gemm) };
        let err = ctx.convolution_forced(&xt, &wt, None, &opts().padding(&[1]), &o).unwrap_err();
        assert!(err.to_string().contains(&format!("split_k {bad}")), "{err}");
    }
}

#[test]
fn strides_of_2_16_run_on_the_per_output_kernels() {
    // The GEMM pipeline failed to build for stride 65536 (its folded constants overflow u32);
    // such strides are now planned onto kernels that take them, every one checked here.
    check(
        "stride 65536",
        175,
        Case {
            input: &[1, 16, 1, 1],
            weight: &[16, 16, 1, 1],
            bias: true,
            opts: opts().stride(&[65_536]),
            kernel: ConvKernel::DirectVec4,
        },
    );
}

#[test]
fn stream_k_matches_the_reference() {
    // Stream-K zero-fills the partial-sum slices no workgroup of a tile writes; a fresh scratch
    // is zeros already and would hide a missing fill. Leave non-zero partial sums in the shared
    // scratch first (8 slices of 2×64×16² outputs: more than any case below needs).
    let ctx = context();
    let x = Tensor::from_f32(ctx, &random_f32(159, 2 * 64 * 256), &[2, 64, 16, 16]).unwrap();
    let w = Tensor::from_f32(ctx, &random_f32(158, 64 * 64 * 9), &[64, 64, 3, 3]).unwrap();
    let split = ForcedPlan { schedule: Some(GemmSchedule::SplitK(8)), ..ForcedPlan::kernel(ConvKernel::Gemm) };
    ctx.convolution_forced(&x, &w, None, &opts().padding(&[1]), &split).unwrap();
    // One tile shared by 1, 3, 7 workgroups, and by one workgroup per K-tile of the 32-deep
    // kernel (18 of them; 2 and 4 K-tiles each on the 16- and 8-deep kernels).
    let stream_k =
        |workgroups| ForcedPlan { schedule: Some(GemmSchedule::StreamK(workgroups)), ..ForcedPlan::default() };
    for (i, workgroups) in [1, 3, 7, 18].into_iter().enumerate() {
        let case = Case {
            input: &[1, 64, 6, 6],
            weight: &[16, 64, 3, 3],
            bias: true,
            opts: opts().padding(&[1]).activation(Activation::Relu),
            kernel: ConvKernel::DirectVec4,
        };
        check_forced(
            &format!("stream-K one tile, {workgroups} workgroups"),
            160 + i as u64,
            case,
            stream_k(workgroups),
        );
    }
    // Six tiles (three along N, two groups) of 18 K-tiles over 5 workgroups: workgroups span
    // tiles and tiles span workgroups; 16-deep K-tiles split differently (every kernel runs).
    let case = Case {
        input: &[2, 32, 12, 12],
        weight: &[64, 16, 3, 3],
        bias: true,
        opts: opts().padding(&[1]).groups(2),
        kernel: ConvKernel::DirectVec4,
    };
    check_forced("stream-K grouped", 170, case, stream_k(5));
    // Stream-K on a transposed convolution is an error (forcing both ways of splitting K
    // cannot be written: `GemmSchedule` is one or the other).
    let xt = Tensor::from_f32(ctx, &random_f32(171, 64 * 36), &[1, 64, 6, 6]).unwrap();
    let t = opts().transposed(true).stride(&[2]);
    let gemm_stream = ForcedPlan { kernel: Some(ConvKernel::Gemm), ..stream_k(8) };
    let wt = Tensor::from_f32(ctx, &random_f32(173, 64 * 8 * 4), &[64, 8, 2, 2]).unwrap();
    let err = ctx.convolution_forced(&xt, &wt, None, &t, &gemm_stream).unwrap_err();
    assert!(err.to_string().contains("stream_k 8"), "{err}");
}

/// The storage-binding limit of [`binding_limited_context`]: lavapipe's, and what browsers grant
/// by default.
const BINDING_LIMIT: u64 = 128 << 20;

/// A context whose device allows storage bindings of at most [`BINDING_LIMIT`], so the tests of
/// tensors over one binding run the same shapes on every device (on an H200's 2 GiB bindings two
/// images over the limit would not even fit its 4 GiB buffers).
fn binding_limited_context() -> &'static wgconv::Context {
    static CONTEXT: std::sync::OnceLock<wgconv::Context> = std::sync::OnceLock::new();
    CONTEXT.get_or_init(|| {
        wgconv_tests::context_with_limits(|adapter| wgpu::Limits {
            max_storage_buffer_binding_size: adapter.max_storage_buffer_binding_size.min(BINDING_LIMIT),
            ..adapter
        })
    })
}

/// Runs one convolution whose input or output exceeds the binding limit (the planner's route:
/// batch chunks or row bands) into an output poisoned with NaN, with a bias, against the reference.
fn check_over_the_limit(name: &str, seed: u64, input: &[usize], weight: &[usize], opts: &ConvOptions) {
    let ctx = binding_limited_context();
    let limit = ctx.limits().max_storage_buffer_binding_size;
    let numel = |s: &[usize]| s.iter().product::<usize>();
    let x = random_f32(seed, numel(input));
    let w = random_f32(seed + 1, numel(weight));
    let oc = output_channels(input, weight, opts);
    let b = random_f32(seed + 2, oc);
    let (expected, shape) = reference::convolution(&x, input, &w, weight, Some(&b), opts).unwrap();
    let xt = Tensor::from_f32(ctx, &x, input).unwrap();
    let wt = Tensor::from_f32(ctx, &w, weight).unwrap();
    let bt = Tensor::from_f32(ctx, &b, &[oc]).unwrap();
    let out = Tensor::full_f32(ctx, &shape, f32::NAN).unwrap();
    assert!(xt.size_bytes() > limit || out.size_bytes() > limit, "{name}: {input:?} → {shape:?} fits one binding");
    ctx.convolution_into(&xt, &wt, Some(&bt), &out, opts).unwrap_or_else(|e| panic!("{name}: {e}"));
    let err = reference::relative_error(&out.to_vec_f32(ctx).unwrap(), &expected);
    assert!(err <= TOLERANCE, "{name}: relative error {err:e} > {TOLERANCE:e} ({input:?} → {shape:?})");
}

/// Floats of one storage binding on this device (128 MiB of them on lavapipe), and the side of
/// a square image of `channels` channels just over it.
fn binding_floats_and_side(channels: usize) -> (usize, usize) {
    let floats = (binding_limited_context().limits().max_storage_buffer_binding_size / 4) as usize;
    (floats, (floats / channels).isqrt() + 2)
}

#[test]
fn tensors_over_the_binding_limit_are_split_over_the_batch() {
    let ctx = binding_limited_context();
    let limit = ctx.limits().max_storage_buffer_binding_size;
    // Two images whose total is just over the binding limit (128 MiB on lavapipe).
    let side = (((limit / 4 / 2) as f64).sqrt() as usize) + 2;
    let shape = [2, 1, side, side];
    assert!((shape.iter().product::<usize>() * 4) as u64 > limit);
    let x = random_f32(150, shape.iter().product());
    let w = random_f32(151, 2);
    let b = random_f32(152, 1);
    let xt = Tensor::from_f32(ctx, &x, &shape).unwrap();
    let wt = Tensor::from_f32(ctx, &w, &[1, 1, 1, 2]).unwrap();
    let bt = Tensor::from_f32(ctx, &b, &[1]).unwrap();
    let opts = opts().padding(&[0, 1]);
    let (expected, out_shape) = reference::convolution(&x, &shape, &w, &[1, 1, 1, 2], Some(&b), &opts).unwrap();
    let out = Tensor::full_f32(ctx, &out_shape, f32::NAN).unwrap();
    assert!(out.size_bytes() > limit);
    ctx.convolution_into(&xt, &wt, Some(&bt), &out, &opts).unwrap();
    let err = reference::relative_error(&out.to_vec_f32(ctx).unwrap(), &expected);
    assert!(err <= TOLERANCE, "relative error {err:e}");

    // Two images each over the limit (their outputs: three channels of the padded image) run
    // image by image in row bands.
    let (_, side) = binding_floats_and_side(3);
    let o = opts.padding(&[1, 0]).activation(Activation::Clamp { min: -0.5, max: 0.75 });
    check_over_the_limit("batch of 2, each output over the limit", 153, &[2, 1, side, side], &[3, 1, 1, 1], &o);
}

#[test]
fn tensors_over_the_binding_limit_in_one_image_are_split_into_row_bands() {
    // Input over the limit (two channels): a 3×1 filter, stride 2, dilation 2 along H, padding
    // on both axes, so bands read halos and the first and last read padding rows.
    let (floats, side) = binding_floats_and_side(2);
    let o = opts().stride(&[2]).dilation(&[2, 1]).padding(&[2, 1]).activation(Activation::Relu);
    check_over_the_limit("input over the limit", 155, &[1, 2, side, side], &[2, 2, 3, 1], &o);
    // Output over the limit (five channels from two), the input within it.
    let side = (floats / 5).isqrt() + 2;
    check_over_the_limit("output over the limit", 158, &[1, 2, side, side], &[5, 2, 1, 1], &opts().padding(&[1]));
    // Transposed, output over the limit: stride 2, padding 1, output padding along H only.
    let side = (floats / 8).isqrt() + 2;
    let t = opts().transposed(true).stride(&[2]).padding(&[1]).output_padding(&[1, 0]);
    check_over_the_limit("transposed output over the limit", 161, &[1, 2, side, side], &[2, 2, 3, 2], &t);
    // 1D: bands along the length.
    let o = opts().padding(&[1]).activation(Activation::Relu);
    check_over_the_limit("1D input over the limit", 164, &[1, 1, floats + 64], &[1, 1, 3], &o);
}

#[test]
fn gemm_tiles_with_partial_rows_and_columns() {
    // 70 and 130 output channels: partial 64- and 128-row tiles; 9×9 and 12×11 outputs: partial columns.
    check(
        "gemm oc 70",
        160,
        Case {
            input: &[1, 8, 9, 9],
            weight: &[70, 8, 3, 3],
            bias: true,
            opts: opts().padding(&[1]),
            kernel: ConvKernel::DirectVec4,
        },
    );
    check(
        "gemm oc 130",
        161,
        Case { input: &[2, 6, 12, 11], weight: &[130, 6, 1, 1], bias: false, opts: opts(), kernel: ConvKernel::Direct },
    );
    check(
        "gemm grouped oc 2x66",
        162,
        Case {
            input: &[1, 4, 6, 6],
            weight: &[132, 2, 2, 2],
            bias: true,
            opts: opts().groups(2),
            kernel: ConvKernel::Direct,
        },
    );
}

/// The staged GEMM tiles run K-tiles within one filter tap where the channels per group are a
/// multiple of the K-tile depth (8, 16 or 32) and the filter has more than one tap (16-deep
/// tiles: any filter, so 1×1 filters get their one-column loaders): padding,
/// strides, dilation, groups, a 1×3 filter without padding, transposed filters' stride phases
/// (of equal tap counts, and of 3×3, 3×2, 2×3 and 2×2 taps), split-K slices and stream-K
/// segments that start inside a channel block's run of taps, and channel counts that keep the
/// channel-major order (24: a multiple of 8 only).
#[test]
fn gemm_k_tiles_within_one_tap() {
    let padded = || Case {
        input: &[2, 32, 9, 11],
        weight: &[20, 32, 3, 3],
        bias: true,
        opts: opts().padding(&[1]).stride(&[2]).activation(Activation::Relu),
        kernel: ConvKernel::DirectVec4,
    };
    check("tap-major, 3×3 s2 p1, 32 channels", 170, padded());
    check(
        "tap-major, dilated, 2 groups of 16",
        171,
        Case {
            input: &[1, 32, 10, 10],
            weight: &[24, 16, 3, 3],
            bias: false,
            opts: opts().padding(&[2]).dilation(&[2]).groups(2),
            kernel: ConvKernel::DirectVec4,
        },
    );
    check(
        "tap-major, 1×3 s2 without padding (a conv1d)",
        172,
        Case {
            input: &[2, 16, 1, 41],
            weight: &[36, 16, 1, 3],
            bias: true,
            opts: opts().stride(&[1, 2]),
            kernel: ConvKernel::DirectVec4,
        },
    );
    check(
        "tap-major, 24 channels (channel-major at K-tiles of 16 and 32)",
        173,
        Case {
            input: &[1, 24, 7, 8],
            weight: &[40, 24, 3, 3],
            bias: true,
            opts: opts().padding(&[1]),
            kernel: ConvKernel::DirectVec4,
        },
    );
    // 5×5 at stride 2: phases of 3×3, 3×2, 2×3 and 2×2 taps (per-phase tap counts at run time).
    let transposed_5x5 = || Case {
        input: &[1, 32, 4, 5],
        weight: &[32, 6, 5, 5],
        bias: false,
        opts: opts().transposed(true).stride(&[2]).padding(&[2]).output_padding(&[1]),
        kernel: ConvKernel::Transposed,
    };
    check("tap-major, transposed 5×5 s2", 177, transposed_5x5());
    let split = ForcedPlan { schedule: Some(GemmSchedule::SplitK(3)), ..ForcedPlan::default() };
    check_forced("tap-major, transposed 5×5 s2, split-K 3", 178, transposed_5x5(), split);
    check(
        "tap-major, transposed 4×4 s2",
        174,
        Case {
            input: &[1, 16, 5, 6],
            weight: &[16, 12, 4, 4],
            bias: true,
            opts: opts().transposed(true).stride(&[2]).padding(&[1]),
            kernel: ConvKernel::Transposed,
        },
    );
    // 1×1 filters: the 16-deep tiles give them the one-column loaders too (48 channels: three
    // K-tiles of 16; channel-major at 8 and 32 deep), strided and in K-slices as well.
    let pointwise_48 = |stride: u32| Case {
        input: &[2, 48, 7, 9],
        weight: &[40, 48, 1, 1],
        bias: true,
        opts: opts().stride(&[stride]).activation(Activation::Relu),
        kernel: ConvKernel::DirectVec4,
    };
    check("one tap, 1×1 with 48 channels", 179, pointwise_48(1));
    // The rest through the staged tiles only (and the planner's choice): strided, in K-slices,
    // and at tile widths that are not powers of two (the loaders' column-to-vec4 map, two loader
    // rows of 40 or 72 columns), 1×1 and 3×3.
    let staged: Vec<_> = {
        use ConvKernel::{Gemm, GemmK16, GemmM64, GemmM64K16, GemmM64K32};
        [Gemm, GemmM64, GemmK16, GemmM64K16, GemmM64K32].into_iter().map(Some).chain([None]).collect()
    };
    check_runs("one tap, 1×1 s2 with 48 channels", 180, pointwise_48(2), &staged);
    let split = ForcedPlan { schedule: Some(GemmSchedule::SplitK(2)), ..ForcedPlan::default() };
    check_runs_forced("one tap, 1×1 with 48 channels, split-K 2", 181, pointwise_48(1), &staged, split);
    let staged = &staged[..staged.len() - 1];
    for (i, tile_n) in [40, 72].into_iter().enumerate() {
        let width = ForcedPlan { tile_n: Some(tile_n), ..ForcedPlan::default() };
        check_runs_forced(&format!("one tap, 1×1, tile_n {tile_n}"), 183 + i as u64, pointwise_48(1), staged, width);
    }
    let width = ForcedPlan { tile_n: Some(40), ..ForcedPlan::default() };
    check_runs_forced("tap-major, 3×3 s2 p1, tile_n 40", 185, padded(), staged, width);
    // Transposed 3×3 at stride 2: phases of 2×2, 2×1, 1×2 and one tap. With 32 channels every
    // phase is tap-major in the 16-deep tiles and channel-major in the 8- and 32-deep ones
    // (where the one-tap phase keeps their four-column loaders).
    check(
        "one tap, a phase of transposed 3×3 s2",
        182,
        Case {
            input: &[1, 32, 5, 6],
            weight: &[32, 10, 3, 3],
            bias: true,
            opts: opts().transposed(true).stride(&[2]).padding(&[1]).output_padding(&[1]),
            kernel: ConvKernel::Transposed,
        },
    );
    // 36 K-tiles of 8 (4 channel blocks of 9 taps): slices of 8 and stream-K segments start and
    // end inside a block's run of taps.
    for (i, schedule) in [GemmSchedule::SplitK(5), GemmSchedule::StreamK(7)].into_iter().enumerate() {
        let forced = ForcedPlan { schedule: Some(schedule), ..ForcedPlan::default() };
        check_forced(&format!("tap-major, {schedule:?}"), 175 + i as u64, padded(), forced);
    }
}

/// `Conv2d::tune` times every configuration, the planner then runs the fastest for that
/// geometry (still matching the reference), a forced kernel still wins, and forgetting restores
/// the planner's rules. A fresh context keeps the remembered choice away from other tests.
#[test]
fn tuning_picks_the_fastest_measured_configuration() {
    let (device, queue) = wgconv_tests::test_device();
    let ctx = wgconv::Context::from_device(device, queue);
    let (input, weight) = ([1, 64, 6, 6], [16, 64, 3, 3]);
    let options = opts().padding(&[1]);
    let x = random_f32(150, 64 * 36);
    let w = random_f32(151, 16 * 64 * 9);
    let xt = Tensor::from_f32(&ctx, &x, &input).unwrap();
    let wt = Tensor::from_f32(&ctx, &w, &weight).unwrap();
    let conv = wgconv::Conv2d::new(&ctx, &wt, None, &options).unwrap();
    let sampling = wgconv::timing::Sampling { samples: 1, launches: 1, warm_up_ms: 0.0, ..Default::default() };
    let tuning = conv.tune(&ctx, &input, &sampling).unwrap();

    let configs: Vec<(ConvKernel, Option<GemmSchedule>)> =
        tuning.candidates.iter().map(|c| (c.config.kernel, c.config.schedule)).collect();
    let split = |k| Some(GemmSchedule::SplitK(k));
    for expected in [
        (ConvKernel::Direct, None),
        (ConvKernel::DirectVec4, None),
        (ConvKernel::Gemm, split(1)),
        (ConvKernel::Gemm, split(2)),
    ] {
        assert!(configs.contains(&expected), "{expected:?} missing from {configs:?}");
    }
    // A 1×16 output fits any grid into one wave: 32-column tiles are timed too.
    let widths: Vec<(ConvKernel, Option<u32>)> =
        tuning.candidates.iter().map(|c| (c.config.kernel, c.config.tile_n)).collect();
    assert!(widths.contains(&(ConvKernel::Gemm, Some(32))) && widths.contains(&(ConvKernel::Gemm, Some(128))));
    assert!(tuning.candidates.windows(2).all(|c| c[0].ms <= c[1].ms && c[0].ms > 0.0));
    assert!(tuning.skipped.is_empty(), "{:?}", tuning.skipped);
    // Every kernel that runs the layer is timed, `direct_block` too; the fastest (the first, as
    // sorted above) is remembered.
    assert!(configs.contains(&(ConvKernel::DirectBlock, None)), "{configs:?}");
    assert_eq!(ctx.tuned(&tuning.geometry), Some(tuning.candidates[0].config));

    let (expected, _) = reference::convolution(&x, &input, &w, &weight, None, &options).unwrap();
    let y = ctx.convolution(&xt, &wt, None, &options).unwrap();
    assert_eq!(y.kernel, tuning.best().config.kernel);
    assert!(reference::relative_error(&y.output.to_vec_f32(&ctx).unwrap(), &expected) <= TOLERANCE);
    // The remembered K-slices too: split-K records the GEMM and its reduce pass.
    let mut batch = ctx.batch();
    conv.run(&mut batch, &xt).unwrap();
    let split_k = matches!(tuning.best().config.schedule, Some(GemmSchedule::SplitK(s)) if s > 1);
    if split_k {
        assert_eq!(batch.len(), 2, "{:?}", tuning.best());
    }
    // As many dispatches as the same configuration forced (the small-grid kernels split K by their own rule).
    let best = tuning.best().config;
    let mut forced_batch = ctx.batch();
    let plan = best.forced_plan();
    conv.run_forced(&mut forced_batch, &xt, &plan).unwrap();
    assert_eq!(batch.len(), forced_batch.len(), "{:?}", tuning.best());
    forced_batch.submit().unwrap();
    batch.submit().unwrap();
    let forced = ctx.convolution_forced(&xt, &wt, None, &options, &ForcedPlan::kernel(ConvKernel::Direct)).unwrap();
    assert_eq!(forced.kernel, ConvKernel::Direct);

    // Exported, then imported by another context on the same device: the same choice, untuned.
    let exported = ctx.export_tuning();
    let fresh = || {
        let (device, queue) = wgconv_tests::test_device();
        wgconv::Context::from_device(device, queue)
    };
    let other = fresh();
    assert_eq!(other.import_tuning(&exported).unwrap(), 1);
    assert_eq!(other.tuned(&tuning.geometry), Some(tuning.best().config));
    // Refused whole, naming why: another device, malformed JSON, sizes of no convolution, a
    // kernel that cannot run the convolution.
    let best_kernel = format!("\"kernel\": \"{}\"", tuning.best().config.kernel.name());
    assert!(exported.contains(&best_kernel) && exported.contains("\"oh\": 6"), "{exported}");
    let refused = [
        (exported.replacen("\"device\": \"", "\"device\": \"another GPU, not ", 1), "measured by"),
        ("{".to_string(), "not valid"),
        (exported.replacen("\"oh\": 6", "\"oh\": 7", 1), "not those of any convolution"),
        (exported.replace(&best_kernel, "\"kernel\": \"depthwise_tiled\""), "cannot run"),
        (exported.replace(&best_kernel, "\"kernel\": \"coop_f16\""), "cannot run"),
        (with_tile_width(&exported.replace(&best_kernel, "\"kernel\": \"gemm\""), "36"), "tile_n 36 is not"),
        (with_tile_width(&with_loads(&exported, "gemm"), "128"), "gemm takes no K-tile loads"),
    ];
    for (text, reason) in refused {
        let other = fresh();
        let err = other.import_tuning(&text).unwrap_err().to_string();
        assert!(err.contains(reason), "{err}");
        assert_eq!(other.tuned(&tuning.geometry), None);
    }
    // A 16-deep tile's K-tile loads are taken (files before v50 have none: the planner's), also
    // where the tuned configuration named loads of its own.
    let twice = with_loads(&with_loads(&exported, "gemm_k16"), "gemm_k16");
    assert_eq!(twice.matches("k_tile_loads").count(), 1, "{twice}");
    let loads = fresh();
    assert_eq!(loads.import_tuning(&with_tile_width(&with_loads(&exported, "gemm_k16"), "128")).unwrap(), 1);
    let taken = loads.tuned(&tuning.geometry).unwrap();
    assert_eq!((taken.kernel, taken.k_tile_loads), (ConvKernel::GemmK16, Some(KTileLoads::InIteration)));
    // On a device with less workgroup memory, a width whose tiles do not fit is refused too
    // (64×128 tiles 32 deep: 24 576 bytes), where the same kernel at 32 columns is taken.
    let small = small_workgroup_memory_context();
    let wide = with_tile_width(&exported.replace(&best_kernel, "\"kernel\": \"gemm_m64_k32\""), "128");
    let err = small.import_tuning(&wide).unwrap_err().to_string();
    assert!(err.contains("gemm_m64_k32 at tile_n 128 cannot run it on this device"), "{err}");
    let narrow = with_tile_width(&exported.replace(&best_kernel, "\"kernel\": \"gemm_m64_k32\""), "32");
    assert_eq!(small.import_tuning(&narrow).unwrap(), 1);
    ctx.forget_tuning();
    assert_eq!(ctx.tuned(&tuning.geometry), None);
    assert_eq!(ctx.convolution(&xt, &wt, None, &options).unwrap().kernel, tuning.geometry.planned_kernel());
}

/// `exported` (one entry) with its kernel replaced by `kernel` and K-tile loads `in_iteration`
/// (any it had dropped first: JSON with a field named twice does not parse).
fn with_loads(exported: &str, kernel: &str) -> String {
    let exported = &without_loads(exported);
    let at = exported.find("\"kernel\": \"").expect("a kernel field");
    let end = at + exported[at..].find(',').unwrap();
    let entry = format!("\"kernel\": \"{kernel}\", \"k_tile_loads\": \"in_iteration\"");
    format!("{}{entry}{}", &exported[..at], &exported[end..])
}

/// `exported` (one entry) without its `k_tile_loads` field, if it has one, and the comma that
/// separated it from its neighbour.
fn without_loads(exported: &str) -> String {
    let key = "\"k_tile_loads\": \"";
    let Some(at) = exported.find(key) else { return exported.to_string() };
    let value_end = at + key.len() + exported[at + key.len()..].find('"').expect("a closing quote") + 1;
    let rest = &exported[value_end..];
    let (start, end) = match rest.trim_start().starts_with(',') {
        true => (at, value_end + rest.find(',').unwrap() + 1),
        false => (exported[..at].rfind(',').expect("a field before it"), value_end),
    };
    format!("{}{}", &exported[..start], &exported[end..])
}

/// `exported` (one tuning entry) with its tile width set to `width`.
fn with_tile_width(exported: &str, width: &str) -> String {
    let at = exported.find("\"tile_n\": ").expect("a tile_n field") + "\"tile_n\": ".len();
    let end = at + exported[at..].find([',', '}', '\n']).unwrap();
    format!("{}{width}{}", &exported[..at], &exported[end..])
}

/// `Precision::AllowF16` runs the tensor-core kernel where the context has cooperative matrices
/// (checked against a reference whose inputs are rounded to f16, as the kernel's are) and the
/// fp32 planner's kernel elsewhere (lavapipe), to fp32 accuracy; forcing the tensor-core kernel
/// without them is an error that says what is missing.
#[test]
fn f16_precision_uses_cooperative_matrices_only_where_the_device_has_them() {
    let ctx = context();
    let (input, weight) = ([2usize, 8, 9, 9], [24usize, 8, 3, 3]);
    let x = random_f32(170, input.iter().product());
    let w = random_f32(171, weight.iter().product());
    let b = random_f32(172, 24);
    let xt = Tensor::from_f32(ctx, &x, &input).unwrap();
    let wt = Tensor::from_f32(ctx, &w, &weight).unwrap();
    let bt = Tensor::from_f32(ctx, &b, &[24]).unwrap();
    let f16_opts = opts().padding(&[1]).activation(Activation::Relu).precision(Precision::AllowF16);
    let g = ConvGeometry::new(&input, &weight, Some(&[24]), &f16_opts).unwrap();
    let out = Tensor::full_f32(ctx, &g.output_shape(), f32::NAN).unwrap();
    let kernel = ctx.convolution_into(&xt, &wt, Some(&bt), &out, &f16_opts).unwrap();
    let coop = ctx.cooperative_f16();
    let round =
        |v: &[f32]| -> Vec<f32> { v.iter().map(|&e| if coop { reference::round_to_f16(e) } else { e }).collect() };
    let (expected, _) = reference::convolution(&round(&x), &input, &round(&w), &weight, Some(&b), &f16_opts).unwrap();
    let err = reference::relative_error(&out.to_vec_f32(ctx).unwrap(), &expected);
    assert!(err <= TOLERANCE, "via {}: {err:e}", kernel.name());
    if coop {
        assert_eq!(kernel, ConvKernel::CoopF16);
    } else {
        assert_eq!(kernel, g.planned_kernel(), "no cooperative matrices: the fp32 plan");
        let forced = ForcedPlan::kernel(ConvKernel::CoopF16);
        let err = ctx.convolution_forced(&xt, &wt, None, &f16_opts, &forced).unwrap_err().to_string();
        assert!(err.contains("coop_f16 needs") && err.contains("WGCONV_COOPERATIVE_MATRIX=1"), "{err}");
    }
    // fp32, the default, never takes the tensor-core kernel.
    let fp32 = ctx.convolution(&xt, &wt, Some(&bt), &opts().padding(&[1])).unwrap();
    assert_ne!(fp32.kernel, ConvKernel::CoopF16);
}

/// Winograd with its products on the tensor cores: where f16 is allowed, the layers R31 gives
/// Winograd keep it at 256+ input channels (R40), their products on the tensor cores
/// (`winograd_coop`) where the context has cooperative matrices, else on the fp32 GEMM
/// (`winograd`, which runs every R31 layer without them); those of 128 channels run
/// `winograd_fused` there (R44). `winograd_coop` and `winograd_4x4_coop` forced without them
/// are a typed error naming them; with them, they match the exact reference within 3e-3 and
/// 1e-2 (they round the transformed operands to f16, 2^-11 each, which F(4×4, 3×3)'s larger
/// transform coefficients amplify) and refuse input channels that are not a multiple of 8 by
/// their count.
#[test]
fn winograd_keeps_its_layers_where_f16_is_allowed() {
    let ctx = context();
    let f16_opts = opts().padding(&[1]).precision(Precision::AllowF16);
    let coop = ctx.cooperative_f16();
    // Layers R31 gives Winograd (1.4 G multiply-adds each), recorded only: large for lavapipe.
    // R40 keeps the one of 256 input channels on Winograd; 128 (on 144 workgroups) go to R44's
    // `winograd_fused`.
    // (R61 gives the second F(4×4, 3×3) in f32: 576 columns of 4×4 tiles.)
    for (channels, size, kept) in [(256usize, 48usize, true), (128, 96, false)] {
        let (input, weight) = ([1, channels, size, size], [channels, channels, 3, 3]);
        let g = ConvGeometry::new(&input, &weight, None, &f16_opts).unwrap();
        assert!(g.planned_kernel().is_winograd(), "{:?}", g.planned_kernel());
        let mut batch = ctx.batch();
        let x = Tensor::zeros(ctx, &input, DType::F32).unwrap();
        let w = Tensor::zeros(ctx, &weight, DType::F32).unwrap();
        let kernel = batch.convolution(&x, &w, None, &f16_opts).unwrap().kernel;
        let expected = match (coop, kept) {
            // No tensor cores: the fp32 planner's, F(4×4, 3×3) for the second (R61).
            (false, _) => g.planned_kernel(),
            (true, true) => ConvKernel::WinogradCoop,
            (true, false) => ConvKernel::WinogradFused,
        };
        assert_eq!(kernel, expected, "{channels} channels");
    }
    let kernels = [(ConvKernel::WinogradCoop, 3e-3), (ConvKernel::Winograd4x4Coop, 1e-2)];
    for ((kernel, bound), (ic, seed)) in kernels.into_iter().flat_map(|k| [(k, (16usize, 180)), (k, (12, 183))]) {
        let forced = ForcedPlan::kernel(kernel);
        let name = kernel.name();
        let (input, weight) = ([2usize, ic, 11, 9], [24usize, ic, 3, 3]);
        let x = random_f32(seed, input.iter().product());
        let w = random_f32(seed + 1, weight.iter().product());
        let b = random_f32(seed + 2, 24);
        let xt = Tensor::from_f32(ctx, &x, &input).unwrap();
        let wt = Tensor::from_f32(ctx, &w, &weight).unwrap();
        let bt = Tensor::from_f32(ctx, &b, &[24]).unwrap();
        let result = ctx.convolution_forced(&xt, &wt, Some(&bt), &f16_opts, &forced);
        match (coop, ic % 8) {
            (false, _) => {
                let err = result.unwrap_err().to_string();
                assert!(err.contains(&format!("{name} needs")) && err.contains("cooperative matrices"), "{err}");
            }
            (true, 0) => {
                let y = result.unwrap();
                let (expected, _) = reference::convolution(&x, &input, &w, &weight, Some(&b), &f16_opts).unwrap();
                let err = reference::relative_error(&y.output.to_vec_f32(ctx).unwrap(), &expected);
                assert!(err <= bound, "{name}: {err:e}");
            }
            (true, _) => {
                let err = result.unwrap_err().to_string();
                assert!(err.contains(&format!("{name} cannot run")) && err.contains("12 input"), "{err}");
            }
        }
    }
}

/// Winograd in one pass (`winograd_fused`): where f16 is allowed and the context has cooperative
/// matrices, R44 plans it for 32–128 channels in and out (beyond 80 input channels on larger
/// grids only); forced without them it is a typed
/// error naming them, and on f16 tensors one naming their dtype; with them it matches the exact
/// reference within 3e-3 (the transformed operands rounded to f16, as `winograd_coop`'s) on
/// NCHW and channels-last tensors, with ragged tiles and channel counts.
#[test]
fn winograd_fused_runs_where_f16_is_allowed() {
    let ctx = context();
    let f16_opts = opts().padding(&[1]).precision(Precision::AllowF16).activation(Activation::Relu);
    let coop = ctx.cooperative_f16();
    // R44's channel counts, recorded only.
    let (input, weight) = ([8usize, 64, 40, 36], [96usize, 64, 3, 3]);
    let x = Tensor::zeros(ctx, &input, DType::F32).unwrap();
    let w = Tensor::zeros(ctx, &weight, DType::F32).unwrap();
    let kernel = ctx.batch().convolution(&x, &w, None, &f16_opts).unwrap().kernel;
    assert_eq!(kernel == ConvKernel::WinogradFused, coop, "{kernel:?}");
    let forced = ForcedPlan::kernel(ConvKernel::WinogradFused);
    // 37 → 70 channels: a partial step of 16 input channels and a partial workgroup of 64
    // output channels; 9×7 outputs in 2 images: the last row and column of tiles cut, the last
    // workgroup's tiles past the last image's.
    let (input, weight) = ([2usize, 37, 11, 9], [70usize, 37, 3, 3]);
    let x = random_f32(190, input.iter().product());
    let w = random_f32(191, weight.iter().product());
    let b = random_f32(192, 70);
    let (expected, _) = reference::convolution(&x, &input, &w, &weight, Some(&b), &f16_opts).unwrap();
    let bt = Tensor::from_f32(ctx, &b, &[70]).unwrap();
    for format in [MemoryFormat::Contiguous, MemoryFormat::ChannelsLast] {
        let xt = ctx.to_memory_format(&Tensor::from_f32(ctx, &x, &input).unwrap(), format).unwrap();
        let wt = Tensor::from_f32(ctx, &w, &weight).unwrap();
        let result = ctx.convolution_forced(&xt, &wt, Some(&bt), &f16_opts, &forced);
        if !coop {
            let err = result.unwrap_err().to_string();
            assert!(err.contains("winograd_fused needs") && err.contains("cooperative matrices"), "{err}");
            continue;
        }
        let y = result.unwrap();
        assert_eq!((y.kernel, y.output.memory_format()), (ConvKernel::WinogradFused, format));
        let got = ctx.to_memory_format(&y.output, MemoryFormat::Contiguous).unwrap().to_vec_f32(ctx).unwrap();
        let err = reference::relative_error(&got, &expected);
        assert!(err <= 3e-3, "winograd_fused, {format}: {err:e}");
    }
    if coop {
        // A prepared convolution keeps the fused transform (R44's channel counts): one dispatch
        // a run. Forced to `WinogradCoop`, whose transformed weight is laid out otherwise, it
        // transforms its own and still matches.
        let xt = Tensor::from_f32(ctx, &x, &input).unwrap();
        let wt = Tensor::from_f32(ctx, &w, &weight).unwrap();
        let conv = wgconv::Conv2d::new(ctx, &wt, Some(&bt), &f16_opts).unwrap();
        let mut batch = ctx.batch();
        assert_eq!(conv.run_forced(&mut batch, &xt, &forced).unwrap().kernel, ConvKernel::WinogradFused);
        assert_eq!(batch.len(), 1);
        let (input8, weight8) = ([1usize, 40, 9, 7], [24usize, 40, 3, 3]);
        let (x8, w8) = (random_f32(193, 40 * 63), random_f32(194, 24 * 40 * 9));
        let (expected8, shape8) = reference::convolution(&x8, &input8, &w8, &weight8, None, &f16_opts).unwrap();
        let conv = wgconv::Conv2d::new(ctx, &Tensor::from_f32(ctx, &w8, &weight8).unwrap(), None, &f16_opts).unwrap();
        let y8 = Tensor::full_f32(ctx, &shape8, f32::NAN).unwrap();
        let x8t = Tensor::from_f32(ctx, &x8, &input8).unwrap();
        let mut batch = ctx.batch();
        let coop_forced = ForcedPlan::kernel(ConvKernel::WinogradCoop);
        assert_eq!(conv.run_into_forced(&mut batch, &x8t, &y8, &coop_forced).unwrap(), ConvKernel::WinogradCoop);
        batch.submit().unwrap();
        let err = reference::relative_error(&y8.to_vec_f32(ctx).unwrap(), &expected8);
        assert!(err <= 3e-3, "winograd_coop from a Conv2d keeping the fused transform: {err:e}");
        let x16 = Tensor::from_f32_as(ctx, &x, &input, DType::F16).unwrap();
        let w16 = Tensor::from_f32_as(ctx, &w, &weight, DType::F16).unwrap();
        let err = ctx.convolution_forced(&x16, &w16, None, &f16_opts, &forced).unwrap_err().to_string();
        assert!(err.contains("winograd_fused runs f32 tensors"), "{err}");
    }
}

/// The GEMM kernels at tile widths other than their defaults (the `tile_n` override; workgroups
/// of 2·tile_n threads, some not whole warps; A tiles shared out over slots partly filled),
/// direct and transposed, with K-slices and stream-K, match the reference on ragged M, N and K;
/// a width the kernels cannot take is an error naming it.
#[test]
fn gemm_tile_widths_match_the_reference() {
    // A context of its own: its pipeline count is not moved by tests running in parallel.
    let ctx = &wgconv::Context::new().unwrap();
    let direct = opts().padding(&[1]).activation(Activation::Relu);
    let transposed = opts().transposed(true).stride(&[2]).padding(&[1]);
    // (input, weight, options): 100 output channels, 2·9·11 = 198 columns, K = 24·9 = 216;
    // transposed: 4 phases of 2·5·6 columns, K = 12·2·2 = 48 per phase.
    let direct_case = ([2usize, 24, 9, 11], [100usize, 24, 3, 3], direct);
    let transposed_case = ([2usize, 12, 5, 6], [12usize, 100, 4, 4], transposed);
    let runs: [(ConvKernel, u32, Option<u32>, Option<u32>); 8] = [
        (ConvKernel::Gemm, 48, None, None),
        (ConvKernel::GemmK16, 32, Some(3), None),
        (ConvKernel::GemmM64, 104, None, None),
        (ConvKernel::GemmM64K16, 72, None, Some(5)),
        (ConvKernel::GemmM64K32, 120, None, None),
        (ConvKernel::GemmN64K16, 40, None, None),
        (ConvKernel::GemmN64K32, 128, Some(2), None),
        (ConvKernel::Gemm, 88, None, None),
    ];
    for (seed, (input, weight, options), transposed) in
        [(160, direct_case.clone(), false), (170, transposed_case, true)]
    {
        let numel = |s: &[usize]| s.iter().product::<usize>();
        let x = random_f32(seed, numel(&input));
        let w = random_f32(seed + 1, numel(&weight));
        let oc = output_channels(&input, &weight, &options);
        let b = random_f32(seed + 2, oc);
        let (expected, shape) = reference::convolution(&x, &input, &w, &weight, Some(&b), &options).unwrap();
        let xt = Tensor::from_f32(ctx, &x, &input).unwrap();
        let wt = Tensor::from_f32(ctx, &w, &weight).unwrap();
        let bt = Tensor::from_f32(ctx, &b, &[oc]).unwrap();
        for (i, &(kernel, width, splits, stream)) in runs.iter().enumerate() {
            // Stream-K takes direct convolutions only.
            let stream = stream.filter(|_| !transposed);
            let schedule = splits.map(GemmSchedule::SplitK).or(stream.map(GemmSchedule::StreamK));
            let o = ForcedPlan {
                kernel: Some(kernel),
                tile_n: Some(width),
                schedule,
                k_tile_loads: None,
                tile_order: None,
            };
            let out = Tensor::full_f32(ctx, &shape, f32::NAN).unwrap();
            let pipelines = ctx.cached_pipelines();
            let used = ctx.convolution_into_forced(&xt, &wt, Some(&bt), &out, &options, &o).unwrap();
            assert_eq!(used, kernel);
            // The last run differs from the first only in its width: the width reaches the
            // pipeline (a width set aside would reuse the first run's pipeline).
            if i == runs.len() - 1 {
                assert_eq!(ctx.cached_pipelines(), pipelines + 1, "tile_n {width} compiled no pipeline of its own");
            }
            let err = reference::relative_error(&out.to_vec_f32(ctx).unwrap(), &expected);
            let what = format!("{} at tile_n {width}, split {splits:?}, stream {stream:?}", kernel.name());
            assert!(err <= TOLERANCE, "{what} (transposed {transposed}): relative error {err:e}");
        }
    }
    let (input, weight, options) = direct_case;
    let xt = Tensor::from_f32(ctx, &random_f32(180, input.iter().product()), &input).unwrap();
    let wt = Tensor::from_f32(ctx, &random_f32(181, weight.iter().product()), &weight).unwrap();
    let width = |kernel| ForcedPlan { tile_n: Some(100), ..ForcedPlan::kernel(kernel) };
    let err = ctx.convolution_forced(&xt, &wt, None, &options, &width(ConvKernel::Gemm));
    assert!(err.unwrap_err().to_string().contains("tile_n 100 is not a GEMM tile width"));
    // Forced with a kernel that has no tiles, the width does not apply.
    let y = ctx.convolution_forced(&xt, &wt, None, &options, &width(ConvKernel::DirectVec4)).unwrap();
    assert_eq!(y.kernel, ConvKernel::DirectVec4);
}

/// `direct_block` (forced: the planner takes it on large grids only, R47) on the shapes it is for and at
/// its edges: stride-2 3×3 layers (13 and 19 output columns), 20 output channels in 2 blocks of
/// 12 (the last partly past them), 3 images of 78 pixels in one partly full chunk of 512 pixels
/// (each thread's 4 pixels 32 apart, across rows and images), and 3 images of 380 pixels in 3
/// chunks (two of them across images); a 3-channel 7×7 stem at stride 2, a 7×7 filter over 6
/// input channels (staged in chunks of 4 and 2), a dilated 5×3 filter with per-axis padding and
/// a clamp, a 1D layer, a 1×1 layer; and the layers it refuses.
#[test]
fn direct_block_runs_register_blocks() {
    let clamp = || opts().activation(Activation::Clamp { min: -0.5, max: 0.75 });
    let cases = [
        (
            "3×3 s2, 13 columns, 6→20",
            &[3usize, 6, 11, 26][..],
            &[20usize, 6, 3, 3][..],
            opts().stride(&[2]).padding(&[1]),
        ),
        ("3×3 s2, 19 columns, 3 chunks", &[3, 16, 40, 38], &[32, 16, 3, 3], opts().stride(&[2]).padding(&[1])),
        (
            "7×7 s2 stem, 3→24",
            &[2, 3, 30, 27],
            &[24, 3, 7, 7],
            opts().stride(&[2]).padding(&[3]).activation(Activation::Relu),
        ),
        ("7×7, 6→16, 2 staged chunks", &[1, 6, 15, 14], &[16, 6, 7, 7], opts().padding(&[3])),
        ("5×3 dilated, padding 2×1, clamp", &[1, 5, 17, 9], &[8, 5, 5, 3], clamp().dilation(&[2, 1]).padding(&[2, 1])),
        ("1D k5 s3, 9→36", &[2, 9, 50], &[36, 9, 5], opts().stride(&[3]).padding(&[2])),
        ("1×1, 10→4", &[1, 10, 5, 6], &[4, 10, 1, 1], opts()),
    ];
    for (i, (name, input, weight, options)) in cases.into_iter().enumerate() {
        let g = ConvGeometry::new(input, weight, None, &options).unwrap();
        assert!(g.supports(ConvKernel::DirectBlock), "{name}");
        // The reference route: 4 input channels a step where they divide.
        let reference = if input[1] % 4 == 0 { ConvKernel::DirectVec4 } else { ConvKernel::Direct };
        let case = Case { input, weight, bias: i != 4, opts: options, kernel: reference };
        check_runs(name, 790 + i as u64, case, &[Some(ConvKernel::DirectBlock)]);
    }
    // Planned (R47): YOLOv8n's 3→16 stem at 640², 102,400 output pixels, the smallest grid R47
    // takes.
    let (input, weight, options) =
        (&[1usize, 3, 640, 640][..], &[16usize, 3, 3, 3][..], opts().stride(&[2]).padding(&[1]));
    let g = ConvGeometry::new(input, weight, None, &options).unwrap();
    assert_eq!(g.planned_kernel(), ConvKernel::DirectBlock);
    let case = || Case { input, weight, bias: true, opts: options.clone(), kernel: ConvKernel::Direct };
    check_runs("R47's stem, planned", 797, case(), &[None]);
    // A tile width forced without a kernel runs the staged tiles instead.
    let width = ForcedPlan { tile_n: Some(64), ..ForcedPlan::default() };
    check_runs_forced("R47's stem, tile width forced", 798, case(), &[None], width);
    // Planned (R57): single-channel stems into 32 or more channels — 1D ones of K ≤ 10
    // (wav2vec 2.0's k10 s5 shape, 96 channels: 6 blocks of 16, over 2 clips of 1003 samples; a
    // 1→32 k7 stem, padded, with a relu) and, since v54, 2D ones strided or of 5×5+ filters (a
    // grayscale 7×7 s2 stem, ragged: 19 × 17 outputs; a 5×5 one into 40 channels, 2 blocks of 16
    // and a partial third).
    for (i, (input, weight, options)) in [
        (&[2usize, 1, 1003][..], &[96usize, 1, 10][..], opts().stride(&[5])),
        (&[1, 1, 500], &[32, 1, 7], opts().padding(&[3]).activation(Activation::Relu)),
        (&[2, 1, 37, 33], &[32, 1, 7, 7], opts().stride(&[2]).padding(&[3])),
        (&[1, 1, 21, 18], &[40, 1, 5, 5], opts().padding(&[2]).activation(Activation::Relu)),
    ]
    .into_iter()
    .enumerate()
    {
        let g = ConvGeometry::new(input, weight, None, &options).unwrap();
        assert_eq!(g.planned_kernel(), ConvKernel::DirectBlock, "{input:?} {weight:?}");
        let case = Case { input, weight, bias: true, opts: options, kernel: ConvKernel::Direct };
        check_runs("R57's stem, planned", 801 + i as u64, case, &[None]);
    }
    // Planned (R58, v54): 8–15 output channels with K over 144 on 102,400+ output pixels, where
    // the reference kernel ran before: a detector's box head, 160→12 1×1 at 321² (planes of part
    // vec4s: on whole ones R64's pointwise stream takes it since v60).
    let (input, weight) = (&[1usize, 160, 321, 321][..], &[12usize, 160, 1, 1][..]);
    let g = ConvGeometry::new(input, weight, None, &opts()).unwrap();
    assert_eq!(g.planned_kernel(), ConvKernel::DirectBlock);
    let case = Case { input, weight, bias: true, opts: opts(), kernel: ConvKernel::DirectVec4 };
    check_runs("R58's box head, planned", 805, case, &[None]);
    // A device allowing 48 threads a workgroup: one group of 32 interleaved lanes (a partial
    // second group would leave pixels unwritten).
    let ctx48 = narrow_workgroup_context(48);
    let (input, weight, options) = ([2usize, 16, 21, 23], [24usize, 16, 3, 3], opts().stride(&[2]).padding(&[1]));
    let x = random_f32(799, input.iter().product());
    let w = random_f32(800, weight.iter().product());
    let (expected, shape) = reference::convolution(&x, &input, &w, &weight, None, &options).unwrap();
    let xt = Tensor::from_f32(&ctx48, &x, &input).unwrap();
    let wt = Tensor::from_f32(&ctx48, &w, &weight).unwrap();
    let out = Tensor::full_f32(&ctx48, &shape, f32::NAN).unwrap();
    let plan = ForcedPlan::kernel(ConvKernel::DirectBlock);
    assert_eq!(ctx48.convolution_into_forced(&xt, &wt, None, &out, &options, &plan).unwrap(), ConvKernel::DirectBlock);
    let err = reference::relative_error(&out.to_vec_f32(&ctx48).unwrap(), &expected);
    assert!(err <= TOLERANCE, "48 threads a workgroup: relative error {err:e}");
    for (input, weight, options) in [
        ([1usize, 4, 12, 12], [4usize, 4, 8, 7], opts()),
        ([1, 8, 6, 6], [8, 4, 3, 3], opts().groups(2)),
        ([1, 8, 6, 6], [8, 8, 3, 3], opts().transposed(true)),
    ] {
        let g = ConvGeometry::new(&input, &weight, None, &options).unwrap();
        assert!(!g.supports(ConvKernel::DirectBlock), "{input:?} {weight:?} {options:?}");
    }
}

/// `direct_tiled` (forced): tiles of 8 rows × 16 channels (up to 16 output channels) and of 4
/// rows × 32 channels (more), ragged at every edge — rows past the image in the last tile row,
/// columns past it in the last tile column (45, 70 and 31 columns), channels past the last in
/// the last block (12, 20, 40 and 70 channels) — input channels in full chunks of 4 and a short
/// last one (7, 9, 33), paddings of 0, 1 and 2 × 1 (tiles whose input starts before the image
/// and ends past it) on both tile shapes, one image and several, bias or none, a relu and a
/// clamp; a layer R60 plans on it (with a tile width forced, the staged tiles run instead); a
/// device that does not take its 128-thread workgroup; and the layers it refuses.
#[test]
fn direct_tiled_runs_staged_tiles() {
    let clamp = || opts().activation(Activation::Clamp { min: -0.5, max: 0.75 });
    let cases = [
        ("12 channels, 8-row tiles, 19 × 45, unpadded", &[2usize, 7, 21, 47][..], &[12usize, 7, 3, 3][..], opts()),
        ("16 channels, 8-row tiles, padding 2 × 1, clamp", &[1, 9, 12, 31], &[16, 9, 3, 3], clamp().padding(&[2, 1])),
        ("20 channels, 4-row tiles, unpadded", &[2, 7, 21, 47], &[20, 7, 3, 3], opts()),
        (
            "32 channels, 4-row tiles, relu",
            &[3, 33, 17, 70],
            &[32, 33, 3, 3],
            opts().padding(&[1]).activation(Activation::Relu),
        ),
        ("40 channels, 2 blocks, padding 2 × 1, clamp", &[1, 9, 12, 31], &[40, 9, 3, 3], clamp().padding(&[2, 1])),
        ("70 channels, 3 blocks, 64 columns", &[2, 16, 9, 64], &[70, 16, 3, 3], opts().padding(&[1])),
    ];
    for (i, (name, input, weight, options)) in cases.into_iter().enumerate() {
        let g = ConvGeometry::new(input, weight, None, &options).unwrap();
        assert!(g.supports(ConvKernel::DirectTiled), "{name}");
        let reference = if input[1] % 4 == 0 { ConvKernel::DirectVec4 } else { ConvKernel::Direct };
        let case = Case { input, weight, bias: i != 4, opts: options, kernel: reference };
        check_runs(name, 830 + i as u64, case, &[Some(ConvKernel::DirectTiled)]);
    }
    // Planned (R60): 16 channels in and out (8-row tiles) over 130 × 128 outputs (16,640
    // pixels; R60 takes 16,384+), ragged tile rows (130 = 16 · 8 + 2), a relu.
    let (input, weight) = (&[1usize, 16, 130, 128][..], &[16usize, 16, 3, 3][..]);
    let options = opts().padding(&[1]).activation(Activation::Relu);
    let g = ConvGeometry::new(input, weight, None, &options).unwrap();
    assert_eq!(g.planned_kernel(), ConvKernel::DirectTiled);
    let case = || Case { input, weight, bias: true, opts: options.clone(), kernel: ConvKernel::DirectVec4 };
    check_runs("R60's layer, planned", 836, case(), &[None]);
    // A tile width forced without a kernel runs the staged tiles instead.
    let width = ForcedPlan { tile_n: Some(64), ..ForcedPlan::default() };
    check_runs_forced("R60's layer, tile width forced", 837, case(), &[None], width);
    // A device allowing 64 threads a workgroup: the planned layer runs the reference kernel, and
    // forcing `direct_tiled` is an error naming the workgroup it needs.
    let ctx64 = narrow_workgroup_context(64);
    let x = random_f32(838, input.iter().product());
    let w = random_f32(839, weight.iter().product());
    let (expected, shape) = reference::convolution(&x, input, &w, weight, None, &options).unwrap();
    let xt = Tensor::from_f32(&ctx64, &x, input).unwrap();
    let wt = Tensor::from_f32(&ctx64, &w, weight).unwrap();
    let out = Tensor::full_f32(&ctx64, &shape, f32::NAN).unwrap();
    let planned = ctx64.convolution_into_forced(&xt, &wt, None, &out, &options, &ForcedPlan::default()).unwrap();
    assert_eq!(planned, ConvKernel::DirectVec4);
    let err = reference::relative_error(&out.to_vec_f32(&ctx64).unwrap(), &expected);
    assert!(err <= TOLERANCE, "64 threads a workgroup: relative error {err:e}");
    let forced = ForcedPlan::kernel(ConvKernel::DirectTiled);
    let refused = ctx64.convolution_into_forced(&xt, &wt, None, &out, &options, &forced).unwrap_err();
    assert!(refused.to_string().contains("128 threads"), "{refused}");
    for (input, weight, options) in [
        (&[1usize, 4, 12, 12][..], &[4usize, 4, 3, 3][..], opts().stride(&[2])),
        (&[1, 4, 12, 12], &[4, 4, 3, 3], opts().dilation(&[2])),
        (&[1, 8, 12, 12], &[8, 4, 3, 3], opts().groups(2)),
        (&[1, 4, 12, 12], &[4, 4, 5, 5], opts()),
        (&[1, 4, 12, 12], &[4, 4, 3, 1], opts()),
        (&[1, 8, 6, 6], &[8, 8, 3, 3], opts().transposed(true)),
        (&[1, 4, 30], &[4, 4, 3], opts()),
    ] {
        let g = ConvGeometry::new(input, weight, None, &options).unwrap();
        assert!(!g.supports(ConvKernel::DirectTiled), "{input:?} {weight:?} {options:?}");
    }
}

/// `pointwise_vec4` and `pointwise_vec4_split` (each forced; every other kernel that supports the
/// case runs too): planes of 36, 8 and 144 pixels (the split's chunks of 32 vec4s: one partly
/// full, two with the second ragged; the main entry point's chunks of 128 vec4s run through the
/// images' planes, one image of the five 144-pixel ones split between two chunks), output
/// channels in one block, in blocks whose last is
/// partly past them, and in 6 full blocks; input channels in one short staged chunk (3: a
/// K-slice with none, a step of 8 loads with 5 past the channels) and in several (33: a last
/// chunk of one channel; 37: four full steps of 8, then one of 5); bias and a fused clamp;
/// a 1D layer. Only 1×1 stride-1 unpadded ungrouped layers with planes of whole vec4s run.
#[test]
fn pointwise_vec4_streams_whole_planes() {
    let clamp = || opts().activation(Activation::Clamp { min: -0.5, max: 0.75 });
    let cases = [
        ("36 pixels, 40→20 (2 blocks of 12)", &[2usize, 40, 6, 6][..], &[20usize, 40, 1, 1][..], opts()),
        ("8 pixels, 3→4, clamp", &[3, 3, 2, 4], &[4, 3, 1, 1], clamp()),
        ("16 pixels, 70→96 (6 blocks of 16, 3 chunks)", &[1, 70, 4, 4], &[96, 70, 1, 1], opts()),
        ("1D, 20 columns, 33→7", &[2, 33, 20], &[7, 33, 1], clamp()),
        ("5 × 144 pixels, 37→24 (2 blocks of 12; chunks across images)", &[5, 37, 12, 12], &[24, 37, 1, 1], opts()),
    ];
    for (i, (name, input, weight, options)) in cases.into_iter().enumerate() {
        let g = ConvGeometry::new(input, weight, None, &options).unwrap();
        assert!(g.supports(ConvKernel::PointwiseVec4) && g.supports(ConvKernel::PointwiseVec4Split), "{name}");
        // The reference route: 4 input channels a step where they divide.
        let reference = if input[1] % 4 == 0 { ConvKernel::DirectVec4 } else { ConvKernel::Direct };
        let case = Case { input, weight, bias: i != 1, opts: options, kernel: reference };
        check(name, 760 + i as u64, case);
    }
    for (input, weight, options) in [
        ([1usize, 8, 3, 5], [4usize, 8, 1, 1], opts()),
        ([1, 8, 4, 4], [4, 8, 1, 1], opts().stride(&[2])),
        ([1, 8, 4, 4], [4, 8, 1, 1], opts().padding(&[1])),
        ([1, 8, 4, 4], [4, 4, 1, 1], opts().groups(2)),
        ([1, 8, 4, 4], [8, 4, 1, 1], opts().transposed(true)),
    ] {
        let g = ConvGeometry::new(&input, &weight, None, &options).unwrap();
        for kernel in [ConvKernel::PointwiseVec4, ConvKernel::PointwiseVec4Split] {
            assert!(!g.supports(kernel), "{kernel:?} {input:?} {weight:?} {options:?}");
        }
    }
}

/// Both tile orders of the staged tiles (`ForcedPlan::tile_order`: output tiles taken N tile
/// or M tile fastest) on the 16-deep staged tiles with 2+ M tiles, at their default widths in
/// K-slices and not, and under stream-K (which keeps its own order): a padded, strided direct
/// layer with ragged tiles and a transposed one (stride phases as sub-problems). The
/// M-fastest order compiles a pipeline of its own, and the planner's choice (N fastest on
/// layers this small, R55) reuses the other's.
#[test]
fn both_tile_orders_match_the_reference() {
    // The 128-row tiles, and the 64-row ones at 128 and 64 columns: the order is the same code
    // in every staged entry point.
    let staged = [Some(ConvKernel::GemmK16), Some(ConvKernel::GemmM64K16), Some(ConvKernel::GemmN64K16)];
    let schedules = [GemmSchedule::SplitK(1), GemmSchedule::SplitK(3), GemmSchedule::StreamK(5)];
    let runs = TileOrder::ALL.into_iter().flat_map(|o| schedules.map(|s| (o, s)));
    for (i, (order, schedule)) in runs.enumerate() {
        let base = ForcedPlan { schedule: Some(schedule), tile_order: Some(order), ..ForcedPlan::default() };
        let name = format!("{}, {schedule:?}", order.name());
        let direct = Case {
            input: &[2, 24, 13, 11],
            weight: &[140, 24, 3, 3],
            bias: true,
            opts: opts().stride(&[2, 1]).padding(&[1]).activation(Activation::Relu),
            kernel: ConvKernel::DirectVec4,
        };
        check_runs_forced(&format!("direct, {name}"), 860 + i as u64, direct, &staged, base);
        if matches!(schedule, GemmSchedule::StreamK(_)) {
            continue; // Stream-K runs direct convolutions only.
        }
        let transposed = Case {
            input: &[2, 16, 7, 6],
            weight: &[16, 136, 3, 3],
            bias: true,
            opts: opts().transposed(true).stride(&[2]).padding(&[1]),
            kernel: ConvKernel::Transposed,
        };
        check_runs_forced(&format!("transposed, {name}"), 870 + i as u64, transposed, &staged, base);
    }
    // A context of its own: pipelines other tests compile meanwhile in the shared one would count.
    let ctx = &wgconv::Context::new().unwrap();
    let (input, weight) = ([1, 16, 9, 10], [130, 16, 3, 3]);
    let opts = opts().padding(&[1]);
    let xt = Tensor::from_f32(ctx, &random_f32(880, 16 * 90), &input).unwrap();
    let wt = Tensor::from_f32(ctx, &random_f32(881, 130 * 16 * 9), &weight).unwrap();
    let geometry = ConvGeometry::new(&input, &weight, None, &opts).unwrap();
    let shape = geometry.output_shape();
    let runs = [(Some(TileOrder::NFastest), None), (Some(TileOrder::MFastest), Some(1)), (None, Some(0))];
    for (order, new_pipelines) in runs {
        let forced = ForcedPlan { tile_order: order, ..ForcedPlan::kernel(ConvKernel::GemmK16) };
        let before = ctx.cached_pipelines();
        let out = Tensor::full_f32(ctx, &shape, f32::NAN).unwrap();
        ctx.convolution_into_forced(&xt, &wt, None, &out, &opts, &forced).unwrap();
        if let Some(added) = new_pipelines {
            assert_eq!(ctx.cached_pipelines(), before + added, "{order:?}");
        }
    }
}

/// Winograd's products on the 16-deep staged tiles take the K loop forced
/// (`ForcedPlan::k_tile_loads`), else R69's or R70's, on F(4×4, 3×3) at 24 × 24 tiles: 48 input
/// channels into 64, whose products run on `gemm_m64_k16` (R69: in the iteration), and 136 into
/// 72, on `gemm_n64_k16` (R70: in the iteration; 72 a ragged second tile of rows; the library's
/// `wide_products_run_on_square_tiles` checks the tiles). The other loop compiles one more
/// pipeline, the same loop none, and each matches the f64 reference (four output channels, for
/// time; every output must be written).
#[test]
fn winograd_products_take_the_forced_k_loop() {
    let layers = [
        ([1usize, 48, 96, 96], [64usize, 48, 3, 3], [0, 31, 32, 63]),
        ([1, 136, 96, 96], [72, 136, 3, 3], [0, 63, 64, 71]),
    ];
    for ((input, weight, checked), seed) in layers.into_iter().zip([1501, 1601]) {
        // A context of its own: pipelines other tests compile meanwhile in the shared one would
        // count.
        let ctx = &wgconv::Context::new().unwrap();
        let options = opts().padding(&[1]);
        let x = random_f32(seed, input.iter().product());
        let w = random_f32(seed + 1, weight.iter().product());
        let some = SomeChannels::new(&checked, (&x, &input), (&w, &weight), &options);
        let (xt, wt) = (Tensor::from_f32(ctx, &x, &input).unwrap(), Tensor::from_f32(ctx, &w, &weight).unwrap());
        let shape = ConvGeometry::new(&input, &weight, None, &options).unwrap().output_shape();
        let runs = [
            (None, None),
            (Some(KTileLoads::Ahead), Some(1)),
            (Some(KTileLoads::InIteration), Some(0)),
            (None, Some(0)),
        ];
        for (loads, new_pipelines) in runs {
            let forced = ForcedPlan { k_tile_loads: loads, ..ForcedPlan::kernel(ConvKernel::Winograd4x4) };
            let before = ctx.cached_pipelines();
            let out = Tensor::full_f32(ctx, &shape, f32::NAN).unwrap();
            ctx.convolution_into_forced(&xt, &wt, None, &out, &options, &forced).unwrap();
            let what = format!("{} channels, {loads:?} loads", input[1]);
            if let Some(added) = new_pipelines {
                assert_eq!(ctx.cached_pipelines(), before + added, "{what}");
            }
            let y = out.to_vec_f32(ctx).unwrap();
            assert!(y.iter().all(|v| v.is_finite()), "{what}: unwritten or non-finite outputs");
            let err = some.error(&y);
            assert!(err <= TOLERANCE, "{what}: {err:e}");
        }
    }
}

/// Both K loops of the 16-deep staged tiles (`ForcedPlan::k_tile_loads`: the next K-tile loaded
/// ahead of the multiply-adds, or each in its own iteration) on each of their tiles, at their
/// default widths in K-slices and not, and 64 columns wide: a padded, strided direct layer
/// (ragged tiles, channels not a multiple of 16, four columns a loader) and a transposed one
/// (stride phases of 1 to 4 taps). Each loop compiles a pipeline of its own (a forced loop set
/// aside would reuse the other's), and the planner's choice one of the two.
#[test]
fn both_k_tile_loops_match_the_reference() {
    let sixteen_deep = [Some(ConvKernel::GemmK16), Some(ConvKernel::GemmM64K16), Some(ConvKernel::GemmN64K16)];
    let runs = KTileLoads::ALL.into_iter().flat_map(|l| [(l, 1, None), (l, 3, None), (l, 1, Some(64))]);
    for (i, (loads, splits, tile_n)) in runs.enumerate() {
        let schedule = Some(GemmSchedule::SplitK(splits));
        let base = ForcedPlan { schedule, tile_n, k_tile_loads: Some(loads), ..ForcedPlan::default() };
        let name = format!("{} loads, {splits} K-slices, tile_n {tile_n:?}", loads.name());
        let direct = Case {
            input: &[2, 40, 13, 11],
            weight: &[140, 40, 3, 3],
            bias: true,
            opts: opts().stride(&[2, 1]).padding(&[1]).activation(Activation::Relu),
            kernel: ConvKernel::DirectVec4,
        };
        check_runs_forced(&format!("direct, {name}"), 700 + i as u64, direct, &sixteen_deep, base);
        let transposed = Case {
            input: &[2, 32, 7, 6],
            weight: &[32, 136, 3, 3],
            bias: true,
            opts: opts().transposed(true).stride(&[2]).padding(&[1]),
            kernel: ConvKernel::Transposed,
        };
        check_runs_forced(&format!("transposed, {name}"), 710 + i as u64, transposed, &sixteen_deep, base);
    }
    // A context of its own: pipelines other tests compile meanwhile in the shared one would count.
    let ctx = &wgconv::Context::new().unwrap();
    let (input, weight) = ([1, 48, 9, 10], [130, 48, 3, 3]);
    let opts = opts().padding(&[1]);
    let xt = Tensor::from_f32(ctx, &random_f32(720, 48 * 90), &input).unwrap();
    let wt = Tensor::from_f32(ctx, &random_f32(721, 130 * 48 * 9), &weight).unwrap();
    let shape = ConvGeometry::new(&input, &weight, None, &opts).unwrap().output_shape();
    for kernel in [ConvKernel::GemmK16, ConvKernel::GemmM64K16, ConvKernel::GemmN64K16] {
        // The first run may compile more (the weight's packing); then each loop adds its own
        // pipeline once, and the planner's choice (`None`) reuses one of the two.
        let runs = [(Some(KTileLoads::Ahead), None), (Some(KTileLoads::InIteration), Some(1)), (None, Some(0))];
        for (loads, new_pipelines) in runs.into_iter().chain([(Some(KTileLoads::Ahead), Some(0))]) {
            let forced = ForcedPlan { k_tile_loads: loads, ..ForcedPlan::kernel(kernel) };
            let before = ctx.cached_pipelines();
            let out = Tensor::full_f32(ctx, &shape, f32::NAN).unwrap();
            ctx.convolution_into_forced(&xt, &wt, None, &out, &opts, &forced).unwrap();
            if let Some(added) = new_pipelines {
                assert_eq!(ctx.cached_pipelines(), before + added, "{} with {loads:?} loads", kernel.name());
            }
        }
    }
}
