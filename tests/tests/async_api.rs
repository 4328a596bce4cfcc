//! The async API on native: every `_async` call, driven by `pollster::block_on`, gives what its
//! blocking form gives — the same values and the same typed errors — and its future is `Send`.

use pollster::block_on;
use wgconv::{
    Context, Conv2d, ConvOptions, DType, Error, ForcedPlan, Q8ConvPwArgs, Q8ConvPwOptions, QuantParams, Tensor,
    reference,
    timing::{self, Sampling},
};
use wgconv_tests::{random_f32, random_i8};

fn context() -> Context {
    block_on(Context::new_async()).unwrap_or_else(|e| panic!("{e}"))
}

fn tensor(ctx: &Context, seed: u64, shape: &[usize]) -> Tensor {
    Tensor::from_f32(ctx, &random_f32(seed, shape.iter().product()), shape).unwrap()
}

#[test]
fn futures_are_send_on_native() {
    fn assert_send<T: Send>(_: &T) {}
    let ctx = context();
    let (x, w) = (tensor(&ctx, 1, &[1, 2, 5, 5]), tensor(&ctx, 2, &[3, 2, 3, 3]));
    let opts = ConvOptions::default();
    assert_send(&Context::new_async());
    assert_send(&ctx.convolution_async(&x, &w, None, &opts));
    assert_send(&ctx.synchronize_async());
    assert_send(&ctx.batch().submit_async());
    assert_send(&x.to_vec_f32_async(&ctx));
    assert_send(&Conv2d::new_async(&ctx, &w, None, &opts));
    assert_send(&Conv2d::new_for_input_async(&ctx, &w, None, &opts, &[1, 2, 5, 5]));
    let conv = Conv2d::new(&ctx, &w, None, &opts).unwrap();
    assert_send(&conv.tune_async(&ctx, &[1, 2, 5, 5], &Sampling::default()));
    assert_send(&timing::time_runs_async(&ctx, 1, |_| Ok(())));
}

#[test]
fn async_calls_give_what_the_blocking_ones_give() {
    let ctx = context();
    assert_eq!(
        block_on(wgconv::enumerate_adapters_async(None)).iter().map(|a| a.info.name.clone()).collect::<Vec<_>>(),
        wgconv::enumerate_adapters(None).iter().map(|a| a.info.name.clone()).collect::<Vec<_>>()
    );
    let (xs, ws) = ([2, 4, 9, 9], [6, 4, 3, 3]);
    let (x, w, b) = (tensor(&ctx, 3, &xs), tensor(&ctx, 4, &ws), tensor(&ctx, 5, &[6]));
    let opts = ConvOptions::default().padding(&[1]).stride(&[2]);
    let (expected, shape) = reference::convolution(
        &random_f32(3, xs.iter().product()),
        &xs,
        &random_f32(4, ws.iter().product()),
        &ws,
        Some(&random_f32(5, 6)),
        &opts,
    )
    .unwrap();

    // One-op calls and reads.
    let blocking = ctx.convolution(&x, &w, Some(&b), &opts).unwrap();
    let awaited = block_on(ctx.convolution_async(&x, &w, Some(&b), &opts)).unwrap();
    assert_eq!((awaited.output.shape(), awaited.kernel), (&shape[..], blocking.kernel));
    let values = block_on(awaited.output.to_vec_f32_async(&ctx)).unwrap();
    assert_eq!(values, blocking.output.to_vec_f32(&ctx).unwrap());
    assert!(reference::relative_error(&values, &expected) <= 1e-5);
    let conv2d = block_on(ctx.conv2d_async(&x, &w, Some(&b), &opts.clone().transposed(true))).unwrap();
    assert_eq!(block_on(conv2d.output.to_vec_f32_async(&ctx)).unwrap(), values);
    let wt = tensor(&ctx, 6, &[6, 2, 3, 3]);
    let transposed = block_on(ctx.conv_transpose2d_async(&awaited.output, &wt, None, &opts)).unwrap();
    assert_eq!(
        block_on(transposed.output.to_vec_f32_async(&ctx)).unwrap(),
        ctx.conv_transpose2d(&awaited.output, &wt, None, &opts).unwrap().output.to_vec_f32(&ctx).unwrap()
    );

    // A batch, a prepared convolution, synchronisation.
    let conv = block_on(Conv2d::new_async(&ctx, &w, Some(&b), &opts)).unwrap();
    let mut batch = ctx.batch();
    let first = conv.run(&mut batch, &x).unwrap();
    let forced = batch.convolution_forced(&x, &w, Some(&b), &opts, &ForcedPlan::default()).unwrap();
    block_on(batch.submit_async()).unwrap();
    block_on(ctx.synchronize_async()).unwrap();
    assert_eq!(block_on(first.output.to_vec_f32_async(&ctx)).unwrap(), values);
    assert_eq!(block_on(forced.output.to_vec_f32_async(&ctx)).unwrap(), values);

    // int8: quantize, the pointwise convolution, dequantize.
    let q = QuantParams::new(0.05, 2);
    let q8 = block_on(ctx.quantize_per_tensor_async(&x, q)).unwrap();
    let q8_values = block_on(q8.to_vec_i8_async(&ctx)).unwrap();
    assert_eq!(q8_values, ctx.quantize_per_tensor(&x, q).unwrap().to_vec_i8(&ctx).unwrap());
    let back = block_on(ctx.dequantize_per_tensor_async(&q8, q)).unwrap();
    assert_eq!(
        block_on(back.to_vec_f32_async(&ctx)).unwrap(),
        ctx.dequantize_per_tensor(&q8, q).unwrap().to_vec_f32(&ctx).unwrap()
    );
    let (wq, scales) = (
        Tensor::from_i8(&ctx, &random_i8(7, 5 * 4), &[5, 4]).unwrap(),
        Tensor::from_f32(&ctx, &[0.01; 5], &[5]).unwrap(),
    );
    let args = Q8ConvPwArgs {
        input: &q8,
        input_quant: q,
        weight: &wq,
        weight_scales: &scales,
        weight_sums: None,
        bias: None,
        output_quant: q,
    };
    let pw = block_on(ctx.q8ta_conv2d_pw_async(&args, &Q8ConvPwOptions::default())).unwrap();
    assert_eq!(
        block_on(pw.to_vec_i8_async(&ctx)).unwrap(),
        ctx.q8ta_conv2d_pw(&args, &Q8ConvPwOptions::default()).unwrap().to_vec_i8(&ctx).unwrap()
    );

    // Timing and tuning.
    let record = |batch: &mut wgconv::Batch<'_>| conv.run(batch, &x).map(|_| ());
    let once = block_on(timing::time_runs_async(&ctx, 2, record)).unwrap();
    assert!(once.ms_per_run > 0.0 && once.source == timing::time_runs(&ctx, 2, record).unwrap().source);
    let quick = Sampling { samples: 2, launches: 2, warm_up_ms: 0.0, ..Sampling::default() };
    assert!(block_on(timing::median_time_async(&ctx, &quick, record)).unwrap().ms_per_run > 0.0);
    let tuning = block_on(conv.tune_async(&ctx, &xs, &quick)).unwrap();
    let geometry = wgconv::ConvGeometry::new(&xs, &ws, Some(&[6]), &opts).unwrap();
    assert_eq!(ctx.tuned(&geometry), Some(tuning.best().config));
}

#[test]
fn async_errors_are_the_blocking_ones() {
    let ctx = context();
    let w = tensor(&ctx, 8, &[1, 1, 3, 3]);
    let opts = ConvOptions::default();
    let destroyed = || {
        let buffer = ctx.device().create_buffer(&wgpu::BufferDescriptor {
            label: Some("destroyed input"),
            size: 4 * 16,
            usage: wgconv::TENSOR_USAGE,
            mapped_at_creation: false,
        });
        (Tensor::from_buffer(buffer.clone(), &[1, 1, 4, 4], DType::F32).unwrap(), buffer)
    };

    // Argument errors, before any GPU work.
    let x = tensor(&ctx, 9, &[1, 1, 4, 4]);
    let bad = ConvOptions::default().stride(&[0]);
    assert_eq!(
        block_on(ctx.convolution_async(&x, &w, None, &bad)).unwrap_err(),
        ctx.convolution(&x, &w, None, &bad).unwrap_err()
    );
    let q8 = Tensor::from_i8(&ctx, &[1; 16], &[1, 1, 4, 4]).unwrap();
    let dtype = block_on(q8.to_vec_f32_async(&ctx)).unwrap_err();
    assert!(matches!(dtype, Error::DType { .. }), "{dtype:?}");
    assert_eq!(dtype, q8.to_vec_f32(&ctx).unwrap_err());

    // A wgpu validation error in a one-op call.
    let one_op = |awaited: bool| {
        let (x, buffer) = destroyed();
        buffer.destroy();
        if awaited { block_on(ctx.conv2d_async(&x, &w, None, &opts)) } else { ctx.conv2d(&x, &w, None, &opts) }
            .unwrap_err()
    };
    let err = one_op(true);
    assert!(matches!(err, Error::Gpu { .. }) && err.to_string().contains("destroyed"), "{err:?}");
    assert_eq!(err, one_op(false));

    // One raised by the submission itself: a buffer destroyed after recording.
    let submitted = |awaited: bool| {
        let (x, buffer) = destroyed();
        let mut batch = ctx.batch();
        batch.convolution(&x, &w, None, &opts).unwrap();
        buffer.destroy();
        if awaited { block_on(batch.submit_async()) } else { batch.submit() }.unwrap_err()
    };
    let err = submitted(true);
    assert!(matches!(&err, Error::Gpu { operation, .. } if operation == "submit"), "{err:?}");
    assert_eq!(err, submitted(false));

    // The context stays usable.
    let y = block_on(ctx.conv2d_async(&x, &w, None, &opts)).unwrap();
    assert_eq!(
        block_on(y.output.to_vec_f32_async(&ctx)).unwrap(),
        ctx.conv2d(&x, &w, None, &opts).unwrap().output.to_vec_f32(&ctx).unwrap()
    );
    block_on(ctx.synchronize_async()).unwrap();
}
