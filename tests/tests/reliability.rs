//! Reliability: thread safety, steady-state resources, wgpu errors as typed errors.

use std::sync::{Arc, RwLock};

use wgconv::{
    Activation, Context, Conv2d, ConvOptions, DType, Error, Q8ConvPwArgs, Q8ConvPwOptions, QuantParams, Tensor,
    reference,
};
use wgconv_tests::{random_f32, random_i8};

/// The steady-state test reads the whole process's resident memory, which the other tests of
/// this binary grow while they compile pipelines in parallel (seen on a fresh machine without a
/// shader cache): it takes this lock exclusively, every other GPU test takes it shared.
static PROCESS_MEMORY: RwLock<()> = RwLock::new(());

fn shared_process() -> std::sync::RwLockReadGuard<'static, ()> {
    PROCESS_MEMORY.read().unwrap_or_else(|p| p.into_inner())
}

#[test]
fn context_ops_and_tensors_are_send_and_sync() {
    fn assert_send_sync<T: Send + Sync>() {}
    assert_send_sync::<Context>();
    assert_send_sync::<Conv2d>();
    assert_send_sync::<Tensor>();
    assert_send_sync::<Error>();
}

/// One thread's work: a convolution (kernel depends on the thread), an int8 pointwise conv and a
/// quantize round trip, each checked against its reference.
fn mixed_ops(ctx: &Context, thread: u64) {
    let seed = 1000 + thread * 10;
    let (input, weight, opts) = match thread % 4 {
        0 => (vec![1, 8, 9, 9], vec![24, 8, 3, 3], ConvOptions::default().padding(&[1])),
        1 => (vec![2, 6, 7, 7], vec![6, 1, 3, 3], ConvOptions::default().groups(6).stride(&[2])),
        2 => (vec![1, 8, 5, 5], vec![8, 4, 4, 4], ConvOptions::default().transposed(true).stride(&[2]).padding(&[1])),
        _ => (vec![2, 3, 11], vec![5, 3, 3], ConvOptions::default().activation(Activation::Relu)),
    };
    let x = random_f32(seed, input.iter().product());
    let w = random_f32(seed + 1, weight.iter().product());
    let (expected, shape) = reference::convolution(&x, &input, &w, &weight, None, &opts).unwrap();
    let xt = Tensor::from_f32(ctx, &x, &input).unwrap();
    let wt = Tensor::from_f32(ctx, &w, &weight).unwrap();
    let out = Tensor::full_f32(ctx, &shape, f32::NAN).unwrap();
    ctx.convolution_into(&xt, &wt, None, &out, &opts).unwrap();
    let err = reference::relative_error(&out.to_vec_f32(ctx).unwrap(), &expected);
    assert!(err <= 1e-5, "thread {thread}: relative error {err:e}");

    let (n, ic, oc, h, wd) = (1, 8, 5, 4, 4);
    let xq = random_i8(seed + 2, n * ic * h * wd);
    let wq = random_i8(seed + 3, oc * ic);
    let scales = vec![0.01; oc];
    let q = QuantParams::new(0.05, 2);
    let expected = reference::q8ta_conv2d_pw(&reference::Q8PwReference {
        input: &xq,
        input_shape: [n, ic, h, wd],
        input_quant: q,
        weight: &wq,
        weight_scales: &scales,
        bias: None,
        output_quant: q,
        relu: false,
    })
    .unwrap();
    let (xqt, wqt, st) = (
        Tensor::from_i8(ctx, &xq, &[n, ic, h, wd]).unwrap(),
        Tensor::from_i8(ctx, &wq, &[oc, ic]).unwrap(),
        Tensor::from_f32(ctx, &scales, &[oc]).unwrap(),
    );
    let args = Q8ConvPwArgs {
        input: &xqt,
        input_quant: q,
        weight: &wqt,
        weight_scales: &st,
        weight_sums: None,
        bias: None,
        output_quant: q,
    };
    let got = ctx.q8ta_conv2d_pw(&args, &Q8ConvPwOptions::default()).unwrap().to_vec_i8(ctx).unwrap();
    assert!(got.iter().zip(&expected).all(|(a, b)| (i32::from(*a) - i32::from(*b)).abs() <= 1), "thread {thread}");

    let real = random_f32(seed + 4, 101);
    let qt = ctx.quantize_per_tensor(&Tensor::from_f32(ctx, &real, &[101]).unwrap(), q).unwrap();
    assert_eq!(qt.to_vec_i8(ctx).unwrap(), reference::quantize_per_tensor(&real, q), "thread {thread}");
}

#[test]
fn eight_threads_share_one_context() {
    let _shared = shared_process();
    let ctx = Arc::new(Context::new().unwrap());
    let handles: Vec<_> = (0..8)
        .map(|t| {
            let ctx = Arc::clone(&ctx);
            std::thread::spawn(move || {
                for round in 0..3 {
                    mixed_ops(&ctx, t * 3 + round);
                }
            })
        })
        .collect();
    for h in handles {
        h.join().expect("a worker thread panicked");
    }
}

#[test]
fn pipeline_cache_compiles_each_pipeline_once_under_contention() {
    let _shared = shared_process();
    let ctx = Arc::new(Context::new().unwrap());
    let x = Arc::new(Tensor::from_f32(&ctx, &random_f32(1, 4 * 6 * 6), &[1, 4, 6, 6]).unwrap());
    let w = Arc::new(Tensor::from_f32(&ctx, &random_f32(2, 4 * 4 * 9), &[4, 4, 3, 3]).unwrap());
    let barrier = Arc::new(std::sync::Barrier::new(8));
    let handles: Vec<_> = (0..8)
        .map(|_| {
            let (ctx, x, w, barrier) = (Arc::clone(&ctx), Arc::clone(&x), Arc::clone(&w), Arc::clone(&barrier));
            std::thread::spawn(move || {
                barrier.wait();
                ctx.conv2d(&x, &w, None, &ConvOptions::default()).unwrap().output.to_vec_f32(&ctx).unwrap()
            })
        })
        .collect();
    let results: Vec<Vec<f32>> = handles.into_iter().map(|h| h.join().unwrap()).collect();
    assert!(results.windows(2).all(|r| r[0] == r[1]));
    let after = ctx.cached_pipelines();
    ctx.conv2d(&x, &w, None, &ConvOptions::default()).unwrap();
    assert_eq!(ctx.cached_pipelines(), after, "every thread's pipeline was the same cached one");
}

fn resident_kib() -> u64 {
    let statm = std::fs::read_to_string("/proc/self/statm").unwrap_or_default();
    statm.split_whitespace().nth(1).and_then(|p| p.parse::<u64>().ok()).unwrap_or(0) * 4
}

#[test]
fn repeated_calls_reach_a_steady_state() {
    let _exclusive = PROCESS_MEMORY.write().unwrap_or_else(|p| p.into_inner());
    let ctx = Context::new().unwrap();
    let x = Tensor::from_f32(&ctx, &random_f32(3, 8 * 8 * 8), &[1, 8, 8, 8]).unwrap();
    let w = Tensor::from_f32(&ctx, &random_f32(4, 8 * 8 * 9), &[8, 8, 3, 3]).unwrap();
    let conv = Conv2d::new(&ctx, &w, None, &ConvOptions::default().padding(&[1])).unwrap();
    let out = Tensor::zeros(&ctx, &[1, 8, 8, 8], DType::F32).unwrap();
    let run = |calls: usize| {
        for i in 0..calls {
            let mut batch = ctx.batch();
            conv.run_into(&mut batch, &x, &out).unwrap();
            batch.submit().unwrap();
            if i % 50 == 49 {
                ctx.synchronize().unwrap();
            }
        }
        ctx.synchronize().unwrap();
    };
    // Warm up, then two equal windows: a leak grows every window by the same amount, while
    // driver pools (seen on NVIDIA: up to ~3 MiB once) settle after the first.
    run(1000);
    let m1 = resident_kib();
    run(2000);
    let m2 = resident_kib();
    run(2000);
    let m3 = resident_kib();
    let (first, second) = (m2.saturating_sub(m1), m3.saturating_sub(m2));
    eprintln!(
        "resident memory: {m1} KiB after 1000 calls, +{first} KiB over the next 2000, +{second} KiB over 2000 more"
    );
    // Each call makes a uniform buffer and a bind group; keeping them would cost well over 1 KiB.
    assert!(second < 2000, "resident memory still grew by {second} KiB over the last 2000 calls (+{first} before)");
}

#[test]
fn wgpu_validation_errors_come_back_as_typed_errors() {
    let _shared = shared_process();
    let ctx = Context::new().unwrap();
    let buffer = ctx.device().create_buffer(&wgpu::BufferDescriptor {
        label: Some("destroyed input"),
        size: 4 * 16,
        usage: wgconv::TENSOR_USAGE,
        mapped_at_creation: false,
    });
    let x = Tensor::from_buffer(buffer.clone(), &[1, 1, 4, 4], DType::F32).unwrap();
    let w = Tensor::from_f32(&ctx, &[1.0; 9], &[1, 1, 3, 3]).unwrap();
    buffer.destroy();
    let err = ctx.conv2d(&x, &w, None, &ConvOptions::default()).unwrap_err();
    assert!(matches!(err, Error::Gpu { .. }), "{err:?}");
    assert!(err.to_string().contains("destroyed"), "{err}");
    // The context stays usable afterwards.
    let x = Tensor::from_f32(&ctx, &[1.0; 16], &[1, 1, 4, 4]).unwrap();
    assert_eq!(
        ctx.conv2d(&x, &w, None, &ConvOptions::default()).unwrap().output.to_vec_f32(&ctx).unwrap(),
        vec![9.0; 4]
    );
}

#[test]
fn waiting_on_the_gpu_times_out_instead_of_hanging() {
    let _shared = shared_process();
    let mut ctx = Context::new().unwrap();
    // Tenths of a second of work on lavapipe; no GPU finishes it within a zero timeout.
    let x = Tensor::from_f32(&ctx, &random_f32(5, 64 * 64 * 64), &[1, 64, 64, 64]).unwrap();
    let w = Tensor::from_f32(&ctx, &random_f32(6, 64 * 64 * 9), &[64, 64, 3, 3]).unwrap();
    let opts = ConvOptions::default().padding(&[1]);
    let direct = wgconv::ForcedPlan::kernel(wgconv::ConvKernel::Direct);
    let mut batch = ctx.batch();
    for _ in 0..2 {
        batch.convolution_forced(&x, &w, None, &opts, &direct).unwrap();
    }
    batch.submit().unwrap();
    ctx.set_timeout(std::time::Duration::ZERO);
    let err = ctx.synchronize().unwrap_err();
    assert!(matches!(err, Error::Timeout { timeout_ms: 0, .. }), "{err:?}");
    assert!(err.to_string().contains("within 0 ms"), "{err}");
    ctx.set_timeout(std::time::Duration::from_secs(60));
    ctx.synchronize().unwrap();
}
