//! wgconv in the browser: DaViT's stem (a 7×7, stride-4 convolution from RGB to 128 channels,
//! Florence-2's image encoder's first layer) on an image, then its output quantized to int8 and
//! fed to a pointwise `q8ta_conv2d_pw` layer (128 → 256 channels), each timed on the GPU and
//! checked against wgconv's CPU reference — compiled to wasm, so the reference runs in the page
//! too.
//!
//! The same [`run_demo`] runs in a browser (`index.html`), under Dawn in node (`cargo xtask
//! web`) and natively (`tests/native.rs`). [`bench::run_bench`] times a bench suite there too.

pub mod bench;
#[cfg(target_arch = "wasm32")]
mod web;

use serde::Serialize;
use web_time::Instant;
use wgconv::{
    Context, Conv2d, ConvOptions, DType, Q8ConvPwArgs, Q8ConvPwOptions, Q8PwGeometry, QuantParams, Tensor,
    reference::{self, Q8PwReference},
    timing::{self, Sampling},
};

/// DaViT's stem: 3 → 128 channels, 7×7, stride 4, padding 3, with bias.
const STEM_CHANNELS: usize = 128;
/// The pointwise layer's output channels.
const POINTWISE_CHANNELS: usize = 256;
/// The fp32 convolution's bound on the relative error, as in wgconv's own tests.
const STEM_TOLERANCE: f64 = 1e-5;

/// One layer's result.
#[derive(Clone, Debug, Serialize)]
pub struct LayerResult {
    /// The layer.
    pub name: String,
    /// Input shape, NCHW.
    pub input_shape: Vec<usize>,
    /// Output shape, NCHW.
    pub output_shape: Vec<usize>,
    /// The kernel the planner chose.
    pub kernel: String,
    /// Wall-clock milliseconds of the first call, pipeline compilation and read-back included.
    pub first_call_ms: f64,
    /// Median GPU milliseconds per run after warm-up.
    pub gpu_ms: f64,
    /// Where `gpu_ms` comes from (GPU timestamps, or the wall clock where the device has none).
    pub timing_source: String,
    /// Largest absolute difference from the CPU reference (int8 units for the int8 layer).
    pub max_abs_error: f64,
    /// The error measure the layer is judged by, in words.
    pub error: String,
    /// Whether the error is within the layer's bound.
    pub passed: bool,
}

/// What [`run_demo`] measured.
#[derive(Clone, Debug, Serialize)]
pub struct DemoReport {
    /// The adapter ([`Context::describe`]).
    pub adapter: String,
    /// Both layers, in order.
    pub layers: Vec<LayerResult>,
}

impl DemoReport {
    /// Whether every layer matched its reference.
    pub fn passed(&self) -> bool {
        self.layers.iter().all(|l| l.passed)
    }

    /// A table of the results.
    pub fn text(&self) -> String {
        let mut text = format!("{}\n", self.adapter);
        for l in &self.layers {
            text += &format!(
                "{}: {:?} → {:?} via {}; first call {:.1} ms, then {:.3} ms per run ({}); max error {:.2e}, {} — {}\n",
                l.name,
                l.input_shape,
                l.output_shape,
                l.kernel,
                l.first_call_ms,
                l.gpu_ms,
                l.timing_source,
                l.max_abs_error,
                l.error,
                if l.passed { "ok" } else { "FAILED" }
            );
        }
        text
    }
}

/// The image sizes [`run_demo`] takes (the CPU reference of a 4096² image already takes minutes).
pub const IMAGE_SIZES: std::ops::RangeInclusive<usize> = 8..=4096;

/// Runs both layers on an image of `size`² pixels (in [`IMAGE_SIZES`]) and checks them against
/// the CPU reference.
pub async fn run_demo(ctx: &Context, size: usize) -> wgconv::Result<DemoReport> {
    if !IMAGE_SIZES.contains(&size) {
        return Err(wgconv::Error::InvalidOption {
            option: "size",
            reason: format!("image size {size} is outside {IMAGE_SIZES:?}"),
        });
    }
    let sampling = Sampling { samples: 5, launches: 5, ..Sampling::default() };

    // DaViT's stem on a deterministic "image".
    let input_shape = [1, 3, size, size];
    let weight_shape = [STEM_CHANNELS, 3, 7, 7];
    let pixels: Vec<f32> = (0..3 * size * size).map(|i| ((i * 7919) % 255) as f32 / 255.0 - 0.5).collect();
    let weights: Vec<f32> = (0..STEM_CHANNELS * 3 * 49).map(|i| ((i * 104_729) % 1000) as f32 / 1000.0 - 0.5).collect();
    let bias: Vec<f32> = (0..STEM_CHANNELS).map(|i| i as f32 * 0.01 - 0.6).collect();
    let opts = ConvOptions::default().stride(&[4]).padding(&[3]);
    let x = Tensor::from_f32(ctx, &pixels, &input_shape)?;
    let w = Tensor::from_f32(ctx, &weights, &weight_shape)?;
    let b = Tensor::from_f32(ctx, &bias, &[STEM_CHANNELS])?;

    let started = Instant::now();
    let stem = Conv2d::new_async(ctx, &w, Some(&b), &opts).await?;
    let mut batch = ctx.batch();
    let y = stem.run(&mut batch, &x)?;
    batch.submit_async().await?;
    let features = y.output.to_vec_f32_async(ctx).await?;
    let first_call_ms = started.elapsed().as_secs_f64() * 1e3;
    // Timed into one output, as an app running the layer per frame would.
    let stem_time =
        timing::median_time_async(ctx, &sampling, |batch| stem.run_into(batch, &x, &y.output).map(|_| ())).await?;
    let (expected, output_shape) =
        reference::convolution(&pixels, &input_shape, &weights, &weight_shape, Some(&bias), &opts)?;
    let relative = reference::relative_error(&features, &expected);
    let stem_result = LayerResult {
        name: "DaViT stem (7×7 stride 4, fp32)".into(),
        input_shape: input_shape.to_vec(),
        output_shape: output_shape.clone(),
        kernel: y.kernel.name().into(),
        first_call_ms,
        gpu_ms: stem_time.ms_per_run,
        timing_source: format!("{:?}", stem_time.source),
        // NaN (an unwritten or broken output) counts as an infinite error, not as none.
        max_abs_error: features
            .iter()
            .zip(&expected)
            .map(|(a, r)| (f64::from(*a) - r).abs())
            .map(|d| if d.is_nan() { f64::INFINITY } else { d })
            .fold(0.0, f64::max),
        error: format!("relative error {relative:.1e} (bound {STEM_TOLERANCE:.0e})"),
        passed: relative <= STEM_TOLERANCE,
    };

    // Its features quantized to int8, then a pointwise int8 layer.
    let feature_quant = QuantParams::new(0.05, -3);
    let output_quant = QuantParams::new(0.2, 4);
    let q8_input = ctx.quantize_per_tensor_async(&y.output, feature_quant).await?;
    let pw_weights: Vec<i8> =
        (0..POINTWISE_CHANNELS * STEM_CHANNELS).map(|i| ((i * 7919 + 13) % 255) as u8 as i8).collect();
    let pw_scales: Vec<f32> = (0..POINTWISE_CHANNELS).map(|i| 0.0005 + (i % 7) as f32 * 1e-4).collect();
    let pw_bias: Vec<f32> = (0..POINTWISE_CHANNELS).map(|i| (i % 11) as f32 * 0.1 - 0.5).collect();
    let wq = Tensor::from_i8(ctx, &pw_weights, &[POINTWISE_CHANNELS, STEM_CHANNELS])?;
    let scales = Tensor::from_f32(ctx, &pw_scales, &[POINTWISE_CHANNELS])?;
    let pw_b = Tensor::from_f32(ctx, &pw_bias, &[POINTWISE_CHANNELS])?;
    let args = Q8ConvPwArgs {
        input: &q8_input,
        input_quant: feature_quant,
        weight: &wq,
        weight_scales: &scales,
        weight_sums: None,
        bias: Some(&pw_b),
        output_quant,
    };
    let pw_opts = Q8ConvPwOptions::default();
    let pointwise = Tensor::zeros(ctx, &Q8PwGeometry::new(&args, &pw_opts)?.output_shape(), DType::I8)?;
    let started = Instant::now();
    let mut batch = ctx.batch();
    let kernel = batch.q8ta_conv2d_pw_into(&args, &pw_opts, &pointwise)?;
    batch.submit_async().await?;
    let got = pointwise.to_vec_i8_async(ctx).await?;
    let first_call_ms = started.elapsed().as_secs_f64() * 1e3;
    let pw_time = timing::median_time_async(ctx, &sampling, |batch| {
        batch.q8ta_conv2d_pw_into(&args, &pw_opts, &pointwise).map(|_| ())
    })
    .await?;
    let q8_features = q8_input.to_vec_i8_async(ctx).await?;
    let expected = reference::q8ta_conv2d_pw(&Q8PwReference {
        input: &q8_features,
        input_shape: [1, STEM_CHANNELS, output_shape[2], output_shape[3]],
        input_quant: feature_quant,
        weight: &pw_weights,
        weight_scales: &pw_scales,
        bias: Some(&pw_bias),
        output_quant,
        relu: false,
    })?;
    let d = reference::int8_difference(&got, &expected);
    let pw_result = LayerResult {
        name: "pointwise q8ta_conv2d_pw (int8)".into(),
        input_shape: q8_input.shape().to_vec(),
        output_shape: pointwise.shape().to_vec(),
        kernel: kernel.name().into(),
        first_call_ms,
        gpu_ms: pw_time.ms_per_run,
        timing_source: format!("{:?}", pw_time.source),
        max_abs_error: f64::from(d.max),
        error: format!(
            "{} of {} outputs differ from the integer reference (bound: 0.1 %, each by 1); {} saturated",
            d.differing,
            d.len,
            got.iter().filter(|&&v| v == i8::MIN || v == i8::MAX).count()
        ),
        passed: d.within_criterion(),
    };
    Ok(DemoReport { adapter: ctx.describe(), layers: vec![stem_result, pw_result] })
}
