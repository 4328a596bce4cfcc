//! `wgconv`: run convolution ops on `.npy` files, list adapters, and benchmark real model layers.

mod args;
mod bench;
mod error;
mod npy;
mod pipeline_stats;
mod plan;

use std::{path::PathBuf, process::ExitCode};

use clap::{Parser, Subcommand};
use error::{CliError, CliResult};
use wgconv::{Activation, Context, ConvOptions, Q8ConvPwArgs, Q8ConvPwOptions, QuantParams, Tensor, reference, timing};

/// GPU convolution on WebGPU: run ops on .npy files and benchmark model layers.
#[derive(Parser, Debug)]
#[command(name = "wgconv", version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// List every adapter wgpu finds and the limits and features that matter here.
    Info,
    /// NCHW convolution of f32 or f16 .npy files (direct or transposed, 1D for rank-3 inputs).
    Conv2d(Conv2dArgs),
    /// int8 pointwise convolution (q8ta_conv2d_pw); X, W and Y are int8 (|i1) .npy files.
    #[command(name = "q8-conv-pw")]
    Q8ConvPw(Q8Args),
    /// quantize_per_tensor: f32 → int8.
    Quantize(QuantArgs),
    /// dequantize_per_tensor: int8 → f32.
    Dequantize(QuantArgs),
    /// Benchmark a suite of model layers with GPU timestamps.
    Bench(bench::BenchArgs),
    /// The fp32 planner's kernel, tile width and K-slices for each layer of a suite (no GPU needed).
    Plan(plan::PlanArgs),
}

#[derive(clap::Args, Debug)]
struct Conv2dArgs {
    /// Input, f32 or f16 [N, C, H, W] (or [N, C, L]); the convolution runs in its dtype.
    #[arg(long)]
    input: PathBuf,
    /// Weight, the input's dtype, [OC, IC/groups, KH, KW] ([IC, OC/groups, KH, KW] when transposed).
    #[arg(long)]
    weight: PathBuf,
    /// Bias, the input's dtype, `[OC]`.
    #[arg(long)]
    bias: Option<PathBuf>,
    /// Stride: S or SH,SW.
    #[arg(long, allow_negative_numbers = true, default_value = "1", value_parser = args::pair)]
    stride: args::Pair,
    /// Padding: P or PH,PW.
    #[arg(long, allow_negative_numbers = true, default_value = "0", value_parser = args::pair)]
    padding: args::Pair,
    /// Dilation: D or DH,DW.
    #[arg(long, allow_negative_numbers = true, default_value = "1", value_parser = args::pair)]
    dilation: args::Pair,
    /// Channel groups.
    #[arg(long, default_value_t = 1, allow_negative_numbers = true)]
    groups: u32,
    /// Transposed convolution.
    #[arg(long)]
    transposed: bool,
    /// Output padding (transposed): OP or OPH,OPW.
    #[arg(long, allow_negative_numbers = true, default_value = "0", value_parser = args::pair)]
    output_padding: args::Pair,
    /// none, relu or clamp:MIN,MAX.
    #[arg(long, default_value = "none", value_parser = args::activation)]
    activation: Activation,
    /// Run this kernel instead of the planner's (e.g. gemm_n64_k16, depthwise); an error when it
    /// cannot run the convolution.
    #[arg(long, value_parser = args::kernel)]
    kernel: Option<wgconv::ConvKernel>,
    /// GEMM kernels: output columns per workgroup tile (a multiple of 8 from 32 to 128) instead
    /// of the planner's; ignored when another kernel runs.
    #[arg(long, value_parser = args::tile_width)]
    tile_n: Option<u32>,
    /// The 16-deep staged GEMM tiles (gemm_k16, gemm_m64_k16, gemm_n64_k16), those of the fp32
    /// Winograd kernels' products included: `ahead` (the next K-tile loaded before this one's
    /// multiply-adds) or `in_iteration` (each K-tile loaded in its own iteration) instead of the
    /// planner's choice; ignored when another kernel runs.
    #[arg(long, value_parser = args::k_tile_loads)]
    k_tile_loads: Option<wgconv::KTileLoads>,
    /// The staged GEMM tiles in K-slices: `n_fastest` or `m_fastest` (output tiles taken along
    /// the output channels first) instead of the planner's order; ignored when another kernel
    /// runs.
    #[arg(long, value_parser = args::tile_order)]
    tile_order: Option<wgconv::TileOrder>,
    /// f32, or f16 to allow f16 multiplicands with f32 sums on tensor cores (cooperative
    /// matrices, enabled for this run; fp32 where the device lacks them). --check then rounds
    /// the reference's inputs to f16 when a tensor-core kernel ran, except after winograd_coop,
    /// winograd_4x4_coop and winograd_fused, whose f16 multiplicands are the transformed operands
    /// rounded: they are checked against the exact reference, which needs a looser --tolerance
    /// (about 3e-3; about 1e-2 after winograd_4x4_coop).
    #[arg(long, default_value = "f32", value_parser = args::precision)]
    precision: wgconv::Precision,
    /// Run on channels-last (NHWC) tensors, as PyTorch's `channels_last`: the input is converted
    /// before the timed run, the output (channels-last, as the input) converted back for --out.
    #[arg(long)]
    channels_last: bool,
    /// Output .npy (the input's dtype).
    #[arg(long)]
    out: PathBuf,
    /// Also compute the CPU f64 reference and print the relative error (exit 1 above tolerance).
    #[arg(long)]
    check: bool,
    /// Relative-error tolerance for --check of f32 outputs (f16 outputs are held to the f16
    /// bound that --check prints instead).
    #[arg(long, default_value_t = 1e-5, allow_negative_numbers = true, value_parser = args::tolerance)]
    tolerance: f64,
}

#[derive(clap::Args, Debug)]
struct Q8Args {
    /// Input, int8 [N, IC, H, W].
    #[arg(long)]
    input: PathBuf,
    /// Weight, int8 [OC, IC].
    #[arg(long)]
    weight: PathBuf,
    /// Per-output-channel weight scales, f32 `[OC]`.
    #[arg(long)]
    weight_scales: PathBuf,
    /// Bias, f32 `[OC]`.
    #[arg(long)]
    bias: Option<PathBuf>,
    /// Input scale.
    #[arg(long, allow_negative_numbers = true)]
    input_scale: f32,
    /// Input zero point.
    #[arg(long, allow_negative_numbers = true)]
    input_zero_point: i32,
    /// Output scale.
    #[arg(long, allow_negative_numbers = true)]
    output_scale: f32,
    /// Output zero point.
    #[arg(long, allow_negative_numbers = true)]
    output_zero_point: i32,
    /// none or relu.
    #[arg(long, default_value = "none", value_parser = ["none", "relu"])]
    activation: String,
    /// Output .npy (int8).
    #[arg(long)]
    out: PathBuf,
    /// Also compute the CPU reference: at least 99.9 % bit-exact and every output within 1.
    #[arg(long)]
    check: bool,
    /// Run this kernel instead of the planner's (`q8_scalar`, `q8_dot4_gemm`, `q8_dot4_gemm_n32`,
    /// or `q8_coop`, which asks for cooperative matrices).
    #[arg(long, value_parser = args::q8_kernel)]
    kernel: Option<wgconv::Q8Kernel>,
    /// Also run the integer reference kernel (`q8_scalar`) on the GPU and fail unless every
    /// output byte is identical (the int8 kernels are exact: this checks that on the device).
    #[arg(long)]
    bit_exact: bool,
}

#[derive(clap::Args, Debug)]
struct QuantArgs {
    /// Input .npy (f32 for quantize, int8 for dequantize).
    #[arg(long)]
    input: PathBuf,
    /// Scale.
    #[arg(long, allow_negative_numbers = true)]
    scale: f32,
    /// Zero point.
    #[arg(long, allow_negative_numbers = true)]
    zero_point: i32,
    /// Output .npy.
    #[arg(long)]
    out: PathBuf,
}

fn context() -> CliResult<Context> {
    Ok(Context::new()?)
}

/// The context for a convolution: with cooperative matrices enabled when f16 is allowed or the
/// tensor-core kernel is forced.
pub(crate) fn context_for(precision: wgconv::Precision, kernel: Option<wgconv::ConvKernel>) -> CliResult<Context> {
    let mut request = wgconv::AdapterRequest::try_from_env()?;
    request.cooperative_matrix |=
        precision == wgconv::Precision::AllowF16 || kernel.is_some_and(wgconv::ConvKernel::is_tensor_core);
    Ok(Context::with_request(&request)?)
}

fn info() -> CliResult<()> {
    let adapters = wgconv::enumerate_adapters(None);
    if adapters.is_empty() {
        return Err(CliError::Runtime(wgconv::Error::NoAdapter { filter: String::new() }.to_string()));
    }
    for (i, a) in adapters.iter().enumerate() {
        let (l, f) = (&a.limits, a.features);
        println!("adapter {i}: {} ({:?}, {:?})", a.info.name, a.info.backend, a.info.device_type);
        println!("  driver: {} {}", a.info.driver, a.info.driver_info);
        println!("  max workgroup invocations: {}", l.max_compute_invocations_per_workgroup);
        println!("  workgroup storage: {} bytes", l.max_compute_workgroup_storage_size);
        println!("  max storage binding: {} bytes", l.max_storage_buffer_binding_size);
        println!("  max workgroups per dimension: {}", l.max_compute_workgroups_per_dimension);
        for (name, feature) in [
            ("timestamp queries", wgpu::Features::TIMESTAMP_QUERY),
            ("subgroups", wgpu::Features::SUBGROUP),
            ("shader f16", wgpu::Features::SHADER_F16),
            ("cooperative matrix", wgpu::Features::EXPERIMENTAL_COOPERATIVE_MATRIX),
        ] {
            println!("  {name}: {}", if f.contains(feature) { "yes" } else { "no" });
        }
    }
    Ok(())
}

fn conv2d(a: &Conv2dArgs) -> CliResult<()> {
    let x = npy::read_float(&a.input, &[3, 4])?;
    let w = npy::read_float(&a.weight, &[3, 4])?;
    let b = a.bias.as_deref().map(|p| npy::read_float(p, &[1])).transpose()?;
    // The input's dtype is the convolution's: the weight and bias must share it.
    for (path, array) in [(Some(&a.weight), Some(&w)), (a.bias.as_ref(), b.as_ref())] {
        if let (Some(path), Some(array)) = (path, array)
            && array.dtype() != x.dtype()
        {
            return Err(CliError::Usage(format!(
                "{}: dtype {} differs from the input's {}: a convolution's tensors share one dtype",
                path.display(),
                array.dtype().descr(),
                x.dtype().descr()
            )));
        }
    }
    let opts = ConvOptions::default()
        .stride(&a.stride.0)
        .padding(&a.padding.0)
        .dilation(&a.dilation.0)
        .output_padding(&a.output_padding.0)
        .groups(a.groups)
        .transposed(a.transposed)
        .activation(a.activation)
        .precision(a.precision);
    let forced = wgconv::ForcedPlan {
        kernel: a.kernel,
        tile_n: a.tile_n,
        schedule: None,
        k_tile_loads: a.k_tile_loads,
        tile_order: a.tile_order,
    };
    // Validate before touching the GPU, so bad arguments are usage errors even without an adapter.
    let geometry = wgconv::ConvGeometry::new(x.shape(), w.shape(), b.as_ref().map(|b| b.shape()), &opts)?;
    // f16 tensors hold f16 multiplicands already: they take the tensor cores where the device
    // has them (as `Precision::AllowF16` does), so ask for cooperative matrices.
    let coop_precision = if x.dtype() == npy::NpyDType::F16 { wgconv::Precision::AllowF16 } else { a.precision };
    let ctx = context_for(coop_precision, a.kernel)?;
    let upload = |array: &npy::FloatArray| match array {
        npy::FloatArray::F32(v) => Tensor::from_f32(&ctx, &v.data, &v.shape),
        npy::FloatArray::F16(v) => Tensor::from_f16(&ctx, &v.data, &v.shape),
    };
    let (xt, wt) = (upload(&x)?, upload(&w)?);
    let bt = b.as_ref().map(upload).transpose()?;
    let format = if a.channels_last { wgconv::MemoryFormat::ChannelsLast } else { wgconv::MemoryFormat::Contiguous };
    let xt = ctx.to_memory_format(&xt, format)?;
    let out = Tensor::zeros(&ctx, &geometry.output_shape(), xt.dtype())?.with_memory_format(format)?;
    let mut kernel = None;
    let time = timing::time_runs(&ctx, 1, |batch| {
        kernel = Some(batch.convolution_into_forced(&xt, &wt, bt.as_ref(), &out, &opts, &forced)?);
        Ok(())
    })?;
    // The output as f32 for the check; written in the input's dtype, NCHW.
    let out = ctx.to_memory_format(&out, wgconv::MemoryFormat::Contiguous)?;
    let y = match x.dtype() {
        npy::NpyDType::F16 => {
            let halves = out.to_vec_f16(&ctx)?;
            npy::write_f16(&a.out, out.shape(), &halves)?;
            npy::FloatArray::F16(npy::NpyArray { shape: out.shape().to_vec(), data: halves })
        }
        _ => {
            let floats = out.to_vec_f32(&ctx)?;
            npy::write_f32(&a.out, out.shape(), &floats)?;
            npy::FloatArray::F32(npy::NpyArray { shape: out.shape().to_vec(), data: floats })
        }
    };
    let kernel = kernel.ok_or_else(|| CliError::Runtime("no kernel ran".into()))?;
    println!("output shape: {:?} ({})", out.shape(), out.dtype());
    println!("kernel: {}", kernel.name());
    println!("GPU time: {:.3} ms ({:?}, first run incl. any pipeline warm-up)", time.ms_per_run, time.source);
    if a.check {
        // The tensor-core kernels multiply f16-rounded inputs and weights; so does their reference
        // (f16 tensors hold such values already). Not the Winograd ones (`WinogradCoop`,
        // `Winograd4x4Coop`, `WinogradFused`), which round their transformed operands instead:
        // they are checked against the exact reference (a looser --tolerance).
        let f16 = kernel.is_tensor_core() && !kernel.transforms_winograd_weight();
        let rounded =
            |v: Vec<f32>| v.into_iter().map(|e| if f16 { reference::round_to_f16(e) } else { e }).collect::<Vec<_>>();
        let bias = b.as_ref().map(npy::FloatArray::to_f32);
        let (expected, _) = reference::convolution(
            &rounded(x.to_f32()),
            x.shape(),
            &rounded(w.to_f32()),
            w.shape(),
            bias.as_deref(),
            &opts,
        )?;
        match &y {
            npy::FloatArray::F16(y) => {
                let ratio = reference::f16_bound_ratio(&y.data, &expected);
                println!(
                    "f16 output vs f64 reference: {ratio:.3} of the bound 2^-10·|ref| + 1e-5·max|ref| per element"
                );
                if ratio.is_nan() || ratio > 1.0 {
                    return Err(CliError::Runtime(format!("error {ratio:.3} × the f16 bound")));
                }
            }
            npy::FloatArray::F32(y) => {
                let err = reference::relative_error(&y.data, &expected);
                println!("relative error vs f64 reference: {err:.3e} (tolerance {:.1e})", a.tolerance);
                if err.is_nan() || err > a.tolerance {
                    let hint = match kernel {
                        wgconv::ConvKernel::WinogradCoop | wgconv::ConvKernel::WinogradFused => {
                            " (Winograd on the tensor cores rounds its transformed operands to f16: try --tolerance 3e-3)"
                        }
                        wgconv::ConvKernel::Winograd4x4Coop => {
                            " (F(4×4, 3×3) on the tensor cores rounds its transformed operands to f16, and its \
                             transforms' larger coefficients amplify that: try --tolerance 1e-2)"
                        }
                        _ => "",
                    };
                    return Err(CliError::Runtime(format!("relative error {err:e} exceeds {:e}{hint}", a.tolerance)));
                }
            }
        }
    }
    Ok(())
}

fn q8_conv_pw(a: &Q8Args) -> CliResult<()> {
    let x = npy::read_i8(&a.input, &[4])?;
    let w = npy::read_i8(&a.weight, &[2])?;
    let s = npy::read_f32(&a.weight_scales, &[1])?;
    let b = a.bias.as_deref().map(|p| npy::read_f32(p, &[1])).transpose()?;
    let relu = a.activation == "relu";
    let opts =
        Q8ConvPwOptions { activation: if relu { Activation::Relu } else { Activation::None }, ..Default::default() };
    let input_quant = QuantParams::new(a.input_scale, a.input_zero_point);
    let output_quant = QuantParams::new(a.output_scale, a.output_zero_point);
    input_quant.validate("input")?;
    output_quant.validate("output")?;
    wgconv::Q8PwGeometry::from_shapes(&x.shape, &w.shape, &opts)?;
    let ctx = if a.kernel.is_some_and(wgconv::Q8Kernel::is_tensor_core) {
        context_for(wgconv::Precision::AllowF16, None)?
    } else {
        context()?
    };
    let xt = Tensor::from_i8(&ctx, &x.data, &x.shape)?;
    let wt = Tensor::from_i8(&ctx, &w.data, &w.shape)?;
    let st = Tensor::from_f32(&ctx, &s.data, &s.shape)?;
    let bt = b.as_ref().map(|b| Tensor::from_f32(&ctx, &b.data, &b.shape)).transpose()?;
    let args = Q8ConvPwArgs {
        input: &xt,
        input_quant,
        weight: &wt,
        weight_scales: &st,
        weight_sums: None,
        bias: bt.as_ref(),
        output_quant,
    };
    let geometry = wgconv::Q8PwGeometry::new(&args, &opts)?;
    // Poisoned with 127, and `--bit-exact`'s second buffer with −128: a byte either kernel
    // leaves unwritten differs between them.
    let numel = geometry.output_shape().iter().product();
    let out = Tensor::from_i8(&ctx, &vec![127; numel], &geometry.output_shape())?;
    let mut kernel = None;
    let time = timing::time_runs(&ctx, 1, |batch| {
        kernel = Some(match a.kernel {
            Some(forced) => batch.q8ta_conv2d_pw_into_forced(&args, &opts, forced, &out)?,
            None => batch.q8ta_conv2d_pw_into(&args, &opts, &out)?,
        });
        Ok(())
    })?;
    let y = out.to_vec_i8(&ctx)?;
    npy::write_i8(&a.out, out.shape(), &y)?;
    println!("output shape: {:?}", out.shape());
    println!("kernel: {}", kernel.map_or("?", |k| k.name()));
    println!("GPU time: {:.3} ms ({:?})", time.ms_per_run, time.source);
    if a.check {
        let expected = reference::q8ta_conv2d_pw(&reference::Q8PwReference {
            input: &x.data,
            input_shape: [x.shape[0], x.shape[1], x.shape[2], x.shape[3]],
            input_quant,
            weight: &w.data,
            weight_scales: &s.data,
            bias: b.as_ref().map(|b| &b.data[..]),
            output_quant,
            relu,
        })?;
        let mismatches = y.iter().zip(&expected).filter(|(g, e)| g != e).count();
        let max_diff = y.iter().zip(&expected).map(|(g, e)| (i32::from(*g) - i32::from(*e)).abs()).max().unwrap_or(0);
        println!("vs CPU reference: {mismatches} of {} outputs differ, max difference {max_diff}", y.len());
        if max_diff > 1 || mismatches as f64 > 0.001 * y.len() as f64 {
            return Err(CliError::Runtime("int8 output differs from the reference beyond tolerance".into()));
        }
    }
    if a.bit_exact {
        let scalar_out = Tensor::from_i8(&ctx, &vec![-128; y.len()], out.shape())?;
        let mut batch = ctx.batch();
        batch.q8ta_conv2d_pw_into_forced(&args, &opts, wgconv::Q8Kernel::Scalar, &scalar_out)?;
        batch.submit()?;
        let scalar = scalar_out.to_vec_i8(&ctx)?;
        let differing = y.iter().zip(&scalar).filter(|(g, e)| g != e).count();
        println!("vs q8_scalar on the GPU: {differing} of {} output bytes differ", y.len());
        if differing > 0 {
            return Err(CliError::Runtime(format!("{differing} output bytes differ from q8_scalar's")));
        }
    }
    Ok(())
}

fn quantize(a: &QuantArgs) -> CliResult<()> {
    let q = QuantParams::new(a.scale, a.zero_point);
    q.validate("quantize")?;
    let x = npy::read_f32(&a.input, &[])?;
    let ctx = context()?;
    let y = ctx.quantize_per_tensor(&Tensor::from_f32(&ctx, &x.data, &x.shape)?, q)?;
    npy::write_i8(&a.out, y.shape(), &y.to_vec_i8(&ctx)?)?;
    println!("output shape: {:?}", y.shape());
    Ok(())
}

fn dequantize(a: &QuantArgs) -> CliResult<()> {
    let q = QuantParams::new(a.scale, a.zero_point);
    q.validate("dequantize")?;
    let x = npy::read_i8(&a.input, &[])?;
    let ctx = context()?;
    let y = ctx.dequantize_per_tensor(&Tensor::from_i8(&ctx, &x.data, &x.shape)?, q)?;
    npy::write_f32(&a.out, y.shape(), &y.to_vec_f32(&ctx)?)?;
    println!("output shape: {:?}", y.shape());
    Ok(())
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            // --help and --version print to stdout and succeed; real parse errors exit 2.
            let _ = e.print();
            return ExitCode::from(if e.use_stderr() { 2 } else { 0 });
        }
    };
    let result = match &cli.command {
        Command::Info => info(),
        Command::Conv2d(a) => conv2d(a),
        Command::Q8ConvPw(a) => q8_conv_pw(a),
        Command::Quantize(a) => quantize(a),
        Command::Dequantize(a) => dequantize(a),
        Command::Bench(a) => bench::run(a),
        Command::Plan(a) => plan::run(a),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {}", e.message());
            ExitCode::from(e.exit_code())
        }
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn clap_definitions_are_consistent() {
        use clap::CommandFactory;
        super::Cli::command().debug_assert();
    }
}
