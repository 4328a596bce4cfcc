//! Every pipeline the runtime compiles for the shaders it ships to the web, compiled again by
//! Dawn (the WebGPU implementation in Chrome, through npm's `webgpu` package): a WGSL change that
//! naga accepts but Tint rejects fails here, not in a user's browser. The pipelines are the ones
//! a `Context` really compiles (`Context::compiled_pipelines`) while running every kernel family
//! — forced and planned, GEMM widths, split-K, stream-K, activations, transposed, 1D, int8 — at
//! WebGPU's default limits and at the adapter's, on f32 and (at the adapter's) f16 tensors, plus
//! the roofline's plain kernels. The tensor-core shaders (`enable wgpu_cooperative_matrix`: the
//! conv kernels and the roofline's) are not among them: they need wgpu's own cooperative-matrix
//! extension, which the web does not have, and nothing runs them there; nor are the passes that
//! only run around them (the weight prepack `conv_pack_coop`, Winograd's f16 transformed inputs
//! `conv2d_winograd_f16_out` and `conv2d_winograd4_f16_out`).
//!
//! Needs `bash tests/dawn/setup.sh` (which `scripts/test.sh` runs) and node.

use std::{collections::BTreeMap, path::Path, process::Command};

use wgconv::{
    Activation, CompiledPipeline, Context, ConvGeometry, ConvKernel, ConvOptions, DType, ForcedPlan, GemmSchedule,
    MemoryFormat, Q8ConvPwArgs, Q8ConvPwOptions, Q8Kernel, QuantParams, Tensor,
};

/// (input, weight, options, every kernel?) of the convolutions run: through the planner, and
/// where marked through every kernel that supports the shape, forced (the GEMM kernels also at
/// another tile width with split-K, and with stream-K). Few shapes: Tint and lavapipe take
/// seconds for each GEMM pipeline, and the filter geometry is specialised per shape.
fn convolutions() -> Vec<(Vec<usize>, Vec<usize>, ConvOptions, bool)> {
    let o = ConvOptions::default;
    let clamp = Activation::Clamp { min: -1.0, max: 1.0 };
    vec![
        // Dense 3×3 with padding and a fused ReLU: the direct kernels and every GEMM entry point.
        (vec![1, 16, 12, 12], vec![32, 16, 3, 3], o().padding(&[1]).activation(Activation::Relu), true),
        // Depthwise, width a multiple of 8: every depthwise kernel (f16 tensors: the 8-wide one)…
        (vec![2, 32, 16, 16], vec![32, 1, 3, 3], o().groups(32).padding(&[1]), true),
        // …and of 4 only (f16 tensors: the 4-wide one).
        (vec![1, 16, 6, 12], vec![16, 1, 3, 3], o().groups(16).padding(&[1]), true),
        // Groups of 4 channels (ResNeXt-like): `grouped_oc4`.
        (vec![1, 32, 8, 8], vec![32, 4, 3, 3], o().groups(8).padding(&[1]), true),
        // Pointwise on planes of whole vec4s with clamp: `pointwise_vec4` and its K split, in two
        // channel blocks.
        (vec![2, 24, 6, 6], vec![20, 24, 1, 1], o().activation(clamp), true),
        // Transposed, by stride phase.
        (vec![2, 16, 5, 5], vec![16, 8, 4, 4], o().transposed(true).stride(&[2]).padding(&[1]), false),
        // Transposed to 3 channels (an RGB output): every transposed kernel, `transposed_few_oc` too.
        (vec![2, 16, 5, 5], vec![16, 3, 4, 4], o().transposed(true).stride(&[2]).padding(&[1]), true),
        // Planned only: four output pixels in all (two images of 2×1: `gemv`), long K (split-K),
        // a strided stem with clamp, 1D, dilated groups, a large depthwise filter on an odd
        // width, a channel multiplier.
        (vec![2, 64, 3, 3], vec![40, 64, 3, 3], o().stride(&[2]).padding(&[1, 0]), false),
        (vec![1, 128, 6, 6], vec![16, 128, 3, 3], o().padding(&[1]), false),
        (vec![1, 3, 32, 32], vec![16, 3, 7, 7], o().stride(&[2]).padding(&[3]).activation(clamp), false),
        (vec![2, 8, 40], vec![16, 8, 5], o().padding(&[2]), false),
        (vec![1, 8, 11, 9], vec![8, 4, 3, 3], o().groups(2).dilation(&[2]).padding(&[2]), false),
        (vec![1, 8, 20, 21], vec![8, 1, 7, 7], o().groups(8).padding(&[3]), false),
        (vec![1, 6, 8, 8], vec![12, 1, 3, 3], o().groups(6).padding(&[1]), false),
    ]
}

/// Runs [`convolutions`] on `dtype` tensors: through the planner, and where marked (and `forced`
/// is set) through each kernel that supports the shape.
fn run_convolutions(ctx: &Context, forced: bool, dtype: DType) {
    for (input, weight, options, every_kernel) in convolutions() {
        let geometry = ConvGeometry::new(&input, &weight, None, &options).unwrap();
        let x = Tensor::zeros(ctx, &input, dtype).unwrap();
        let w = Tensor::zeros(ctx, &weight, dtype).unwrap();
        let bias = Tensor::zeros(ctx, &[geometry.out_channels() as usize], dtype).unwrap();
        let mut plans = vec![ForcedPlan::default()];
        for kernel in geometry.supported_kernels().into_iter().filter(|_| forced && every_kernel) {
            plans.push(ForcedPlan::kernel(kernel));
            if kernel == ConvKernel::Gemm {
                let split = Some(GemmSchedule::SplitK(2));
                plans.push(ForcedPlan { tile_n: Some(40), schedule: split, ..ForcedPlan::kernel(kernel) });
                // Stream-K runs direct convolutions only (a transposed one refuses it, typed).
                if geometry.reference_kernel() != ConvKernel::Transposed {
                    plans.push(ForcedPlan { schedule: Some(GemmSchedule::StreamK(3)), ..ForcedPlan::kernel(kernel) });
                }
            }
        }
        for plan in plans {
            // A kernel the device cannot run (workgroup memory at the default limits) is a typed
            // error and compiles nothing: that is the planner's business, not this test's.
            match ctx.convolution_forced(&x, &w, Some(&bias), &options, &plan) {
                Ok(_) | Err(wgconv::Error::KernelUnavailable { .. }) => {}
                Err(e) => panic!("{input:?} * {weight:?} with {plan:?}: {e}"),
            }
        }
    }
    // Winograd F(2×2, 5×5) and F(4×4, 5×5), whose filters no case above has, and F(4×4, 3×3) on a dilated
    // filter, alone (every kernel on those shapes would compile each GEMM pipeline again for its
    // filter): f32 tensors only, as they run.
    if forced && dtype == DType::F32 {
        let (input, weight) = ([1, 8, 9, 9], [8, 8, 5, 5]);
        let (x, w) = (Tensor::zeros(ctx, &input, dtype).unwrap(), Tensor::zeros(ctx, &weight, dtype).unwrap());
        let options = ConvOptions::default().padding(&[2]).activation(Activation::Relu);
        for kernel in [ConvKernel::Winograd5x5, ConvKernel::Winograd5x5Tile4] {
            let plan = ForcedPlan::kernel(kernel);
            ctx.convolution_forced(&x, &w, None, &options, &plan).unwrap_or_else(|e| panic!("{}: {e}", kernel.name()));
        }
        // F(4×4, 3×3) on a dilated filter: its dilation is a pipeline constant.
        let (input, weight) = ([1, 8, 13, 11], [8, 8, 3, 3]);
        let (x, w) = (Tensor::zeros(ctx, &input, dtype).unwrap(), Tensor::zeros(ctx, &weight, dtype).unwrap());
        let options = ConvOptions::default().padding(&[2]).dilation(&[2]);
        let plan = ForcedPlan::kernel(ConvKernel::Winograd4x4);
        ctx.convolution_forced(&x, &w, None, &options, &plan).unwrap_or_else(|e| panic!("dilated winograd_4x4: {e}"));
    }
}

/// The int8 ops: both `q8ta_conv2d_pw` kernels, with and without ReLU, and (de)quantization.
fn run_int8(ctx: &Context) {
    let (n, ic, oc, h, w) = (1, 16, 8, 4, 4);
    let x = Tensor::from_i8(ctx, &vec![1; n * ic * h * w], &[n, ic, h, w]).unwrap();
    let weight = Tensor::from_i8(ctx, &vec![1; oc * ic], &[oc, ic]).unwrap();
    let scales = Tensor::from_f32(ctx, &vec![0.01; oc], &[oc]).unwrap();
    let q = QuantParams::new(0.05, 0);
    let args = Q8ConvPwArgs {
        input: &x,
        input_quant: q,
        weight: &weight,
        weight_scales: &scales,
        weight_sums: None,
        bias: None,
        output_quant: q,
    };
    for activation in [Activation::None, Activation::Relu] {
        let opts = Q8ConvPwOptions { activation, ..Default::default() };
        for kernel in [Q8Kernel::Scalar, Q8Kernel::Dot4Gemm, Q8Kernel::Dot4GemmN32] {
            let out = Tensor::zeros(ctx, &[n, oc, h, w], DType::I8).unwrap();
            let mut batch = ctx.batch();
            batch.q8ta_conv2d_pw_into_forced(&args, &opts, kernel, &out).unwrap();
            batch.submit().unwrap();
        }
    }
    let f = Tensor::zeros(ctx, &[1, 4, 8, 8], DType::F32).unwrap();
    let i8s = ctx.quantize_per_tensor(&f, q).unwrap();
    ctx.dequantize_per_tensor(&i8s, q).unwrap();
}

/// A context on a device with WebGPU's default limits (16 KiB of workgroup memory, 256
/// invocations), as a browser may grant.
fn default_limits_context() -> Context {
    wgconv_tests::context_with_limits(|_| wgpu::Limits::default())
}

#[test]
fn dawn_compiles_every_pipeline_the_runtime_does() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
    let mut pipelines: Vec<CompiledPipeline> = Vec::new();
    // At WebGPU's default limits the planner's fallbacks differ; at the adapter's, every kernel.
    for (ctx, forced) in [(default_limits_context(), false), (Context::new().unwrap(), true)] {
        run_convolutions(&ctx, forced, DType::F32);
        // The f16 variants once, at the adapter's limits (the default-limits device has no
        // shader-f16).
        if forced {
            run_convolutions(&ctx, true, DType::F16);
        }
        // Memory-format conversions both ways (f16 where the device has shader-f16).
        let dtypes: &[DType] = if forced { &[DType::F32, DType::F16] } else { &[DType::F32] };
        for &dtype in dtypes {
            let t = Tensor::zeros(&ctx, &[1, 3, 4, 5], dtype).unwrap();
            let cl = ctx.to_memory_format(&t, MemoryFormat::ChannelsLast).unwrap();
            ctx.to_memory_format(&cl, MemoryFormat::Contiguous).unwrap();
        }
        run_int8(&ctx);
        let quick = wgconv::timing::Sampling { samples: 1, launches: 1, warm_up_ms: 0.0, ..Default::default() };
        wgconv::roofline::measure(&ctx, &quick, true).unwrap();
        pipelines.extend(ctx.compiled_pipelines());
    }
    pipelines.sort_by(|a, b| format!("{a:?}").cmp(&format!("{b:?}")));
    pipelines.dedup();
    let shaders: std::collections::BTreeSet<&str> = pipelines.iter().map(|p| p.shader).collect();
    // Every shader file but the tensor-core ones (see the module doc) is exercised.
    let shipped = std::fs::read_dir(root.join("shaders")).unwrap().filter_map(|e| {
        let name = e.ok()?.file_name().into_string().ok()?;
        name.ends_with(".wgsl").then(|| format!("shaders/{name}"))
    });
    // The tensor-core shaders, and the passes that run only around the channels-last tensor-core
    // kernel, its weight prepack and `winograd_coop`'s and `winograd_4x4_coop`'s f16 input
    // transforms (so no context without cooperative matrices compiles them).
    let tensor_core = |shader: &String| {
        shader.starts_with("shaders/conv_pack_coop")
            || shader == "shaders/conv2d_winograd_f16_out.wgsl"
            || shader == "shaders/conv2d_winograd4_f16_out.wgsl"
            || std::fs::read_to_string(root.join(shader)).unwrap().contains("enable wgpu_cooperative_matrix;")
    };
    for shader in shipped.filter(|s| !tensor_core(s)) {
        assert!(shaders.contains(shader.as_str()), "no pipeline of {shader} was compiled: add a case that uses it");
    }
    let list: Vec<serde_json::Value> = pipelines
        .iter()
        .map(|p| {
            let constants: BTreeMap<&str, f64> = p.constants.iter().copied().collect();
            serde_json::json!({ "shader": p.shader, "entry": p.entry, "constants": constants })
        })
        .collect();
    let file = Path::new(env!("CARGO_TARGET_TMPDIR")).join("dawn-pipelines.json");
    std::fs::write(&file, serde_json::to_string_pretty(&list).unwrap()).unwrap();

    let output = Command::new("bash")
        .arg(root.join("tests/dawn/run.sh"))
        .arg("compile_pipelines.mjs")
        .arg(&file)
        .arg(root)
        .output()
        .expect("bash runs tests/dawn/run.sh");
    let text = format!("{}{}", String::from_utf8_lossy(&output.stdout), String::from_utf8_lossy(&output.stderr));
    assert!(
        output.status.success(),
        "Dawn rejected pipelines that wgpu accepts ({} listed in {}):\n{text}",
        pipelines.len(),
        file.display()
    );
    println!("{text}");
    assert!(text.contains(&format!("{n} of {n} pipelines compiled", n = pipelines.len())), "{text}");
    // The list is not trivially small: every kernel family ran.
    assert!(pipelines.len() >= 40, "{} pipelines", pipelines.len());
}
