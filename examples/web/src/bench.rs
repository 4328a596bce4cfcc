//! The bench suites on the web: each layer of a `bench/suites/*.json` file timed the way `wgconv
//! bench` times it natively — prepared once, run into one output, the median of samples of
//! back-to-back launches between GPU timestamps after a warm-up — so a browser's WebGPU (Dawn)
//! and native wgpu can be compared on the same GPU.

use serde::Serialize;
use wgconv::{
    Context, Conv2d, ConvGeometry, DType, Q8ConvPwArgs, Q8ConvPwOptions, Q8PwGeometry, QuantParams, Tensor,
    timing::{self, Sampling},
};

/// One layer of a suite file: the format `wgconv bench` reads (`wgconv::suite`).
pub use wgconv::suite::SuiteLayer;
use wgconv::suite::SuiteOp;

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
    let input_shape = layer.input_shape();
    let values = |count: usize| (0..count).map(|i| ((i * 7919) % 1999) as f32 / 1000.0 - 1.0).collect::<Vec<_>>();
    let (kernel, timing, macs) = match layer.op {
        SuiteOp::Q8ConvPw => {
            if layer.filter() != (1, 1) {
                return Err(format!("q8_conv_pw needs a 1×1 filter, got {:?}", layer.filter()));
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
            let opts = Q8ConvPwOptions {
                stride: layer.stride.to_vec(),
                padding: layer.padding.to_vec(),
                ..Default::default()
            };
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
        _ => {
            let weight_shape = layer.weight_shape();
            let opts = layer.options().map_err(text)?;
            let oc = layer.oc;
            let bias_shape = [oc];
            let geometry = ConvGeometry::new(&input_shape, &weight_shape, layer.bias.then_some(&bias_shape[..]), &opts)
                .map_err(text)?;
            let x = Tensor::from_f32(ctx, &values(input_shape.iter().product()), &input_shape).map_err(text)?;
            let w = Tensor::from_f32(ctx, &values(weight_shape.iter().product()), &weight_shape).map_err(text)?;
            let bias = layer.bias.then(|| Tensor::from_f32(ctx, &values(oc), &[oc])).transpose().map_err(text)?;
            let out = Tensor::zeros(ctx, &geometry.output_shape(), DType::F32).map_err(text)?;
            let conv = Conv2d::new_async(ctx, &w, bias.as_ref(), &opts).await.map_err(text)?;
            let mut kernel = geometry.planned_kernel();
            let timing = timing::median_time_async(ctx, sampling, |b| conv.run_into(b, &x, &out).map(|k| kernel = k))
                .await
                .map_err(text)?;
            (kernel.name(), timing, geometry.macs())
        }
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
