//! Every invalid convolution gets a typed error whose message names the offending values.

use wgconv::{Activation, ConvGeometry, ConvOptions, DType, Error, Tensor};
use wgconv_tests::{context, random_f32};

fn opts() -> ConvOptions {
    ConvOptions::default()
}

fn tensor(shape: &[usize]) -> Tensor {
    Tensor::from_f32(context(), &random_f32(7, shape.iter().product()), shape).unwrap()
}

/// Runs the conv on the GPU path and returns its error message.
fn gpu_error(input: &[usize], weight: &[usize], bias: Option<&[usize]>, o: &ConvOptions) -> (Error, String) {
    let bias = bias.map(tensor);
    let err = context().convolution(&tensor(input), &tensor(weight), bias.as_ref(), o).unwrap_err();
    let text = err.to_string();
    (err, text)
}

fn assert_mentions(text: &str, parts: &[&str]) {
    for p in parts {
        assert!(text.contains(p), "message {text:?} should mention {p:?}");
    }
}

#[test]
fn input_rank() {
    let (err, text) = gpu_error(&[3, 8], &[2, 3, 1, 1], None, &opts());
    assert!(matches!(err, Error::Rank { tensor: "input", got: 2, .. }));
    assert_mentions(&text, &["input", "rank 2", "[3, 8]"]);
}

#[test]
fn weight_rank_must_match_input() {
    let (err, text) = gpu_error(&[1, 3, 8, 8], &[2, 3, 3], None, &opts());
    assert!(matches!(err, Error::Rank { tensor: "weight", got: 3, .. }));
    assert_mentions(&text, &["weight", "rank 3", "[2, 3, 3]"]);
    let (_, text) = gpu_error(&[1, 3, 8], &[2, 3, 3, 3], None, &opts());
    assert_mentions(&text, &["1D", "rank 4"]);
}

#[test]
fn dtype_must_be_f32() {
    let ctx = context();
    let x = Tensor::from_i8(ctx, &[1; 16], &[1, 1, 4, 4]).unwrap();
    let err = ctx.conv2d(&x, &tensor(&[1, 1, 3, 3]), None, &opts()).unwrap_err();
    assert_eq!(err, Error::DType { tensor: "input", expected: DType::F32, got: DType::I8 });
    assert_mentions(&err.to_string(), &["input", "float32", "int8"]);
}

#[test]
fn data_and_buffer_sizes_must_match_the_shape() {
    let ctx = context();
    let err = Tensor::from_f32(ctx, &[1.0; 15], &[1, 1, 4, 4]).unwrap_err();
    assert_mentions(&err.to_string(), &["[1, 1, 4, 4]", "64 bytes", "has 60"]);
    let buffer = ctx.device().create_buffer(&wgpu::BufferDescriptor {
        label: None,
        size: 60,
        usage: wgconv::TENSOR_USAGE,
        mapped_at_creation: false,
    });
    let err = Tensor::from_buffer(buffer, &[1, 1, 4, 4], DType::F32).unwrap_err();
    assert!(matches!(err, Error::ByteSize { expected_bytes: 64, got_bytes: 60, .. }), "{err}");
    let buffer = ctx.device().create_buffer(&wgpu::BufferDescriptor {
        label: None,
        size: 64,
        usage: wgpu::BufferUsages::STORAGE,
        mapped_at_creation: false,
    });
    let err = Tensor::from_buffer(buffer, &[1, 1, 4, 4], DType::F32).unwrap_err();
    assert_mentions(&err.to_string(), &["COPY_SRC", "COPY_DST"]);
}

#[test]
fn wrapped_buffers_work() {
    let ctx = context();
    let buffer = ctx.device().create_buffer(&wgpu::BufferDescriptor {
        label: None,
        size: 64,
        usage: wgconv::TENSOR_USAGE,
        mapped_at_creation: false,
    });
    ctx.queue().write_buffer(&buffer, 0, bytemuck::cast_slice(&[2.0f32; 16]));
    let x = Tensor::from_buffer(buffer, &[1, 1, 4, 4], DType::F32).unwrap();
    let w = Tensor::from_f32(ctx, &[1.0; 4], &[1, 1, 2, 2]).unwrap();
    let y = ctx.conv2d(&x, &w, None, &opts()).unwrap();
    assert_eq!(y.output.to_vec_f32(ctx).unwrap(), vec![8.0; 9]);
}

#[test]
fn groups_must_divide_input_and_output_channels() {
    let (_, text) = gpu_error(&[1, 6, 5, 5], &[4, 2, 3, 3], None, &opts().groups(4));
    assert_mentions(&text, &["groups 4", "6 input channels"]);
    let (_, text) = gpu_error(&[1, 6, 5, 5], &[4, 2, 3, 3], None, &opts().groups(3));
    assert_mentions(&text, &["groups 3", "4 output channels"]);
    let (_, text) = gpu_error(&[1, 6, 5, 5], &[4, 6, 3, 3], None, &opts().groups(0));
    assert_mentions(&text, &["groups", "got 0"]);
}

#[test]
fn weight_channels_must_match() {
    let (_, text) = gpu_error(&[1, 6, 5, 5], &[4, 3, 3, 3], None, &opts());
    assert_mentions(&text, &["[4, 3, 3, 3]", "3 channels per group", "6 / groups 1 = 6"]);
    let (_, text) = gpu_error(&[1, 6, 5, 5], &[4, 3, 3, 3], None, &opts().transposed(true));
    assert_mentions(&text, &["transposed weight [4, 3, 3, 3]", "4 input channels", "input has 6"]);
}

#[test]
fn zero_stride_dilation_or_kernel() {
    let (_, text) = gpu_error(&[1, 1, 5, 5], &[1, 1, 3, 3], None, &opts().stride(&[1, 0]));
    assert_mentions(&text, &["stride along width", "got 0"]);
    let (_, text) = gpu_error(&[1, 1, 5, 5], &[1, 1, 3, 3], None, &opts().dilation(&[0]));
    assert_mentions(&text, &["dilation along height", "got 0"]);
    let err = ConvGeometry::new(&[1, 1, 5, 5], &[1, 1, 0, 3], None, &opts()).unwrap_err();
    assert_mentions(&err.to_string(), &["weight shape [1, 1, 0, 3]", "zero dimension"]);
}

#[test]
fn parameter_lists_take_one_or_two_values() {
    let (_, text) = gpu_error(&[1, 1, 5, 5], &[1, 1, 3, 3], None, &opts().padding(&[1, 1, 1]));
    assert_mentions(&text, &["padding", "got 3", "[1, 1, 1]"]);
}

#[test]
fn kernel_larger_than_padded_input() {
    let (_, text) = gpu_error(&[1, 1, 4, 9], &[1, 1, 3, 3], None, &opts().dilation(&[2, 1]));
    assert_mentions(&text, &["kernel height of 3", "extent 5", "padded input height of 4"]);
}

#[test]
fn output_padding_rules() {
    let (_, text) = gpu_error(&[1, 1, 5, 5], &[1, 1, 3, 3], None, &opts().output_padding(&[1]));
    assert_mentions(&text, &["output_padding 1", "only valid for a transposed"]);
    let (_, text) =
        gpu_error(&[1, 1, 5, 5], &[1, 1, 3, 3], None, &opts().transposed(true).stride(&[2]).output_padding(&[0, 2]));
    assert_mentions(&text, &["output_padding 2 along width", "stride 2", "dilation 1"]);
}

#[test]
fn bias_shape() {
    let (_, text) = gpu_error(&[1, 2, 5, 5], &[3, 2, 3, 3], Some(&[2]), &opts());
    assert_mentions(&text, &["bias must have shape [3]", "got [2]"]);
}

#[test]
fn clamp_bounds() {
    let (_, text) =
        gpu_error(&[1, 1, 5, 5], &[1, 1, 3, 3], None, &opts().activation(Activation::Clamp { min: 1.0, max: -1.0 }));
    assert_mentions(&text, &["min 1", "max -1"]);
}

#[test]
fn output_count_over_u32() {
    let err = ConvGeometry::new(&[70_000, 1, 256, 256], &[1, 1, 1, 1], None, &opts()).unwrap_err();
    assert!(matches!(err, Error::TooManyElements { tensor: "output", count: 4_587_520_000, .. }), "{err}");
}

#[test]
fn tensors_over_the_buffer_and_binding_limits() {
    let ctx = context();
    let max_buffer = ctx.limits().max_buffer_size;
    let err = Tensor::zeros(ctx, &[1, 1, 1, (max_buffer / 4 + 1) as usize], DType::F32).unwrap_err();
    assert!(matches!(err, Error::BufferTooLarge { .. }), "{err}");
    assert_mentions(&err.to_string(), &["max_buffer_size", &max_buffer.to_string()]);
    // An op that cannot bind a tensor whole (and cannot split it) names the binding limit.
    let limit = ctx.limits().max_storage_buffer_binding_size;
    let x = Tensor::zeros(ctx, &[1, 1, 1, (limit / 4 + 1) as usize], DType::F32).unwrap();
    let err = ctx.conv2d(&x, &tensor(&[1, 1, 1, 1]), None, &opts()).unwrap_err();
    assert!(matches!(err, Error::BindingTooLarge { .. }), "{err}");
    assert_mentions(&err.to_string(), &["max_storage_buffer_binding_size", &limit.to_string()]);
}

#[test]
fn shapes_too_large_for_any_buffer() {
    // Element counts whose byte size overflows u64 are refused before any allocation.
    let ctx = context();
    let err = Tensor::zeros(ctx, &[1 << 31, 1 << 31], DType::F32).unwrap_err();
    assert!(matches!(err, Error::BufferTooLarge { bytes: u64::MAX, .. }), "{err}");
    let err = Tensor::full_f32(ctx, &[1 << 62], 0.0).unwrap_err();
    assert!(matches!(err, Error::BufferTooLarge { .. }), "{err}");
    let err = Tensor::from_f32(ctx, &[1.0], &[1 << 62]).unwrap_err();
    assert!(matches!(err, Error::ByteSize { got_bytes: 4, .. }), "{err}");
    assert_eq!(DType::F32.storage_bytes(u64::MAX / 2), u64::MAX);
    assert_eq!(DType::I8.storage_bytes(u64::MAX - 1), u64::MAX);
}

#[test]
fn tensors_of_another_context_are_refused() {
    let ctx = context();
    let other = wgconv_tests::context_with_limits(|limits| limits);
    let foreign = Tensor::from_f32(&other, &random_f32(3, 16), &[1, 1, 4, 4]).unwrap();
    let weight = tensor(&[1, 1, 3, 3]);
    let err = ctx.conv2d(&foreign, &weight, None, &opts()).unwrap_err();
    assert_eq!(err, Error::ForeignTensor { tensor: "input" });
    assert_mentions(&err.to_string(), &["input", "another context"]);
    // Two contexts on one device do not share tensors either (their devices cannot be told apart).
    let (device, queue) = (other.device().clone(), other.queue().clone());
    let same_device = wgconv::Context::from_device(device, queue);
    assert_eq!(
        same_device.conv2d(&foreign, &weight, None, &opts()).unwrap_err(),
        Error::ForeignTensor { tensor: "input" }
    );
    let foreign_weight = Tensor::from_f32(&other, &random_f32(4, 9), &[1, 1, 3, 3]).unwrap();
    let err = ctx.conv2d(&tensor(&[1, 1, 4, 4]), &foreign_weight, None, &opts()).unwrap_err();
    assert_eq!(err, Error::ForeignTensor { tensor: "weight" });
    assert_eq!(foreign.to_vec_f32(ctx).unwrap_err(), Error::ForeignTensor { tensor: "tensor" });
    // Channels-last tensors are converted before the kernels run: refused before that too.
    let nhwc = foreign.clone().with_memory_format(wgconv::MemoryFormat::ChannelsLast).unwrap();
    assert_eq!(ctx.conv2d(&nhwc, &weight, None, &opts()).unwrap_err(), Error::ForeignTensor { tensor: "input" });
    let err = ctx.quantize_per_tensor(&foreign, wgconv::QuantParams::new(0.1, 0)).unwrap_err();
    assert_eq!(err, Error::ForeignTensor { tensor: "input" });
    // A prepared convolution belongs to its context: another context's batch refuses its weight.
    let conv = wgconv::Conv2d::new(ctx, &weight, None, &opts()).unwrap();
    let mut batch = other.batch();
    assert_eq!(conv.run(&mut batch, &foreign).unwrap_err(), Error::ForeignTensor { tensor: "weight" });
    assert_eq!(
        wgconv::Conv2d::new(&other, &weight, None, &opts()).unwrap_err(),
        Error::ForeignTensor { tensor: "weight" }
    );
    // The tensor's own context still runs it.
    assert_eq!(other.conv2d(&foreign, &foreign_weight, None, &opts()).unwrap().output.shape(), &[1, 1, 2, 2]);
}

#[test]
fn caller_supplied_output_of_the_wrong_shape() {
    let ctx = context();
    let out = Tensor::zeros(ctx, &[1, 2, 3, 4], DType::F32).unwrap();
    let err = ctx.convolution_into(&tensor(&[1, 1, 5, 5]), &tensor(&[2, 1, 3, 3]), None, &out, &opts()).unwrap_err();
    assert_eq!(err, Error::OutputShape { expected: vec![1, 2, 3, 3], got: vec![1, 2, 3, 4] });
}

#[test]
fn no_matching_adapter_says_how_to_get_one() {
    let request =
        wgconv::AdapterRequest { name_contains: Some("no-such-adapter-anywhere".into()), ..Default::default() };
    let err = wgconv::Context::with_request(&request).unwrap_err();
    assert!(matches!(err, Error::NoAdapter { .. }));
    assert_mentions(&err.to_string(), &["mesa-vulkan-drivers", "no-such-adapter-anywhere"]);
}
