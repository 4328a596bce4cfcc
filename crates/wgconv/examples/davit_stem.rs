//! DaViT's stem end to end: a 7×7, stride-4, padding-3 convolution from RGB to 128 channels with
//! bias, on an image of `SIZE`² pixels (default 224; DaViT uses 768), checked against the CPU
//! reference.
//!
//! `cargo run --release -p wgconv --example davit_stem -- 768`

use std::time::Instant;

use wgconv::{Context, ConvOptions, Tensor, reference};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let size: usize = std::env::args().nth(1).map(|s| s.parse()).transpose()?.unwrap_or(224);
    let ctx = Context::new()?;
    println!("device: {}", ctx.describe());

    // A deterministic "image" and weights.
    let pixels: Vec<f32> = (0..3 * size * size).map(|i| ((i * 7919) % 255) as f32 / 255.0 - 0.5).collect();
    let weights: Vec<f32> = (0..128 * 3 * 7 * 7).map(|i| ((i * 104_729) % 1000) as f32 / 1000.0 - 0.5).collect();
    let bias: Vec<f32> = (0..128).map(|i| i as f32 * 0.01).collect();

    let x = Tensor::from_f32(&ctx, &pixels, &[1, 3, size, size])?;
    let w = Tensor::from_f32(&ctx, &weights, &[128, 3, 7, 7])?;
    let b = Tensor::from_f32(&ctx, &bias, &[128])?;
    let opts = ConvOptions::default().stride(&[4]).padding(&[3]);

    let start = Instant::now();
    let y = ctx.conv2d(&x, &w, Some(&b), &opts)?;
    let out = y.output.to_vec_f32(&ctx)?;
    println!(
        "output {:?} via the {} kernel in {:.1} ms (incl. pipeline compile)",
        y.output.shape(),
        y.kernel.name(),
        start.elapsed().as_secs_f64() * 1e3
    );

    let (expected, _) =
        reference::convolution(&pixels, &[1, 3, size, size], &weights, &[128, 3, 7, 7], Some(&bias), &opts)?;
    let err = reference::relative_error(&out, &expected);
    println!("relative error vs f64 reference: {err:.2e}");
    if err > 1e-5 {
        return Err(format!("relative error {err:e} above 1e-5").into());
    }
    Ok(())
}
