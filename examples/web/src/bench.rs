//! The bench suites on the web: each layer of a `bench/suites/*.json` file timed the way `wgconv
//! bench` times it natively — prepared once, run into one output, the median of samples of
//! back-to-back launches between GPU timestamps after a warm-up — so a browser's WebGPU (Dawn)
//! and native wgpu can be compared on the same GPU.

use serde::{Deserialize, Serialize};
use wgconv::{
    Context, Conv2d, ConvGeometry, ConvOptions, DType, Q8ConvPwArgs, Q8ConvPwOptions, Q8PwGeometry, QuantParams,
    Tensor,
    timing::{self, Sampling},
};

/// One layer of a suite file (the fields `wgconv bench` reads).
#[derive(Clone, Debug, Deserialize, Serialize)]
pub struct SuiteLayer {
    /// Name.
    pub name: String,
    /// `conv2d`, `conv_transpose2d` or `q8_conv_pw`.
    pub op: String,
    /// Batch.
    pub n: usize,
    /// Input channels.
    pub ic: usize,
    /// Output channels.
    pub oc: usize,
    /// Input height.
    pub h: usize,
    /// Input width.
    pub w: usize,
    /// Square kernel size.
    pub k: usize,
    /// Stride.
    pub stride: u32,
    /// Padding.
    pub padding: u32,
    /// Groups.
    pub groups: u32,
}

/// One timed layer.
#[derive(Clone, Debug, Serialize)]
pub struct BenchResult {
    /// The layer's name.
    pub name: String,
    /// The kernel the planner chose.
    pub kernel: String,
    /// Median milliseconds per launch.
    pub median_ms: f64,
    /// Billions of operations per second: 2 × multiply-accumulates / time (floating-point for
    /// the fp32 ops, integer for `q8_conv_pw`).
    pub gflops: f64,
    /// Where the time comes from.
    pub timing_source: String,
}

/// Times every layer of `layers` on `ctx`.
pub async fn run_bench(ctx: &Context, layers: &[SuiteLayer], sampling: &Sampling) -> Result<Vec<BenchResult>, String> {
    let mut results = Vec::with_capacity(layers.len());
    for layer in layers {
        results.push(time_layer(ctx, layer, sampling).await.map_err(|e| format!("layer {}: {e}", layer.name))?);
    }
    Ok(results)
}

async fn time_layer(ctx: &Context, layer: &SuiteLayer, sampling: &Sampling) -> Result<BenchResult, String> {
    let text = |e: wgconv::Error| e.to_string();
    let input_shape = [layer.n, layer.ic, layer.h, layer.w];
    let values = |count: usize| (0..count).map(|i| ((i * 7919) % 1999) as f32 / 1000.0 - 1.0).collect::<Vec<_>>();
    let (kernel, timing, macs) = match layer.op.as_str() {
        "conv2d" | "conv_transpose2d" => {
            let transposed = layer.op == "conv_transpose2d";
            let groups = layer.groups.max(1) as usize;
            let weight_shape = if transposed {
                [layer.ic, layer.oc / groups, layer.k, layer.k]
            } else {
                [layer.oc, layer.ic / groups, layer.k, layer.k]
            };
            let opts = ConvOptions::default()
                .stride(&[layer.stride])
                .padding(&[layer.padding])
                .groups(layer.groups)
                .transposed(transposed);
            let geometry = ConvGeometry::new(&input_shape, &weight_shape, None, &opts).map_err(text)?;
            let x = Tensor::from_f32(ctx, &values(input_shape.iter().product()), &input_shape).map_err(text)?;
            let w = Tensor::from_f32(ctx, &values(weight_shape.iter().product()), &weight_shape).map_err(text)?;
            let out = Tensor::zeros(ctx, &geometry.output_shape(), DType::F32).map_err(text)?;
            let conv = Conv2d::new_async(ctx, &w, None, &opts).await.map_err(text)?;
            let mut kernel = geometry.planned_kernel();
            let timing = timing::median_time_async(ctx, sampling, |b| conv.run_into(b, &x, &out).map(|k| kernel = k))
                .await
                .map_err(text)?;
            (kernel.name(), timing, geometry.macs())
        }
        "q8_conv_pw" => {
            if layer.k != 1 {
                return Err(format!("q8_conv_pw needs k = 1, got {}", layer.k));
            }
            let x: Vec<i8> = values(input_shape.iter().product()).iter().map(|v| (v * 127.0) as i8).collect();
            let w: Vec<i8> = values(layer.oc * layer.ic).iter().map(|v| (v * 127.0) as i8).collect();
            let xt = Tensor::from_i8(ctx, &x, &input_shape).map_err(text)?;
            let wt = Tensor::from_i8(ctx, &w, &[layer.oc, layer.ic]).map_err(text)?;
            let scales = Tensor::from_f32(ctx, &vec![0.01; layer.oc], &[layer.oc]).map_err(text)?;
            let q = QuantParams::new(0.05, 0);
            let args = Q8ConvPwArgs {
                input: &xt,
                input_quant: q,
                weight: &wt,
                weight_scales: &scales,
                weight_sums: None,
                bias: None,
                output_quant: q,
            };
            let opts =
                Q8ConvPwOptions { stride: vec![layer.stride], padding: vec![layer.padding], ..Default::default() };
            let geometry = Q8PwGeometry::new(&args, &opts).map_err(text)?;
            let out = Tensor::zeros(ctx, &geometry.output_shape(), DType::I8).map_err(text)?;
            let mut kernel = geometry.planned_kernel();
            let timing = timing::median_time_async(ctx, sampling, |b| {
                b.q8ta_conv2d_pw_into(&args, &opts, &out).map(|k| kernel = k)
            })
            .await
            .map_err(text)?;
            // One multiply-accumulate per output element and input channel.
            let outputs: usize = geometry.output_shape().iter().product();
            (kernel.name(), timing, (outputs * layer.ic) as u64)
        }
        other => return Err(format!("unknown op {other:?} (conv2d, conv_transpose2d or q8_conv_pw)")),
    };
    Ok(BenchResult {
        name: layer.name.clone(),
        kernel: kernel.to_string(),
        median_ms: timing.ms_per_run,
        gflops: 2.0 * macs as f64 / (timing.ms_per_run * 1e-3) / 1e9,
        timing_source: format!("{:?}", timing.source),
    })
}

/// A table of `results`.
pub fn table(results: &[BenchResult]) -> String {
    let mut text = format!("{:<28} {:<16} {:>10} {:>10}\n", "layer", "kernel", "ms", "GFLOP/s");
    for r in results {
        text += &format!("{:<28} {:<16} {:>10.4} {:>10.0}\n", r.name, r.kernel, r.median_ms, r.gflops);
    }
    text
}
