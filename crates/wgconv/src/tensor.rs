//! GPU tensors: a storage buffer plus shape and dtype, with upload and download.

use crate::{
    context::{Context, DeviceKey},
    error::{Error, Result},
};

/// Element type of a tensor.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum DType {
    /// 32-bit float, one element per 4 bytes.
    F32,
    /// 16-bit IEEE float ([`half::f16`]), two per 4-byte word (little-endian); the last word is
    /// padded. Convolutions take f16 tensors on devices with `SHADER_F16` and compute in f32.
    F16,
    /// Signed 8-bit integer, stored four per `u32` word (little-endian); the last word is padded.
    I8,
}

impl DType {
    /// Bytes a tensor of `numel` elements occupies in a buffer: whole 4-byte words. Saturates
    /// at `u64::MAX` (no device has a buffer that large, so the size check after it fails).
    pub fn storage_bytes(self, numel: u64) -> u64 {
        numel.checked_mul(self.element_bytes()).and_then(|bytes| bytes.checked_next_multiple_of(4)).unwrap_or(u64::MAX)
    }

    /// Bytes one element occupies (before the buffer is padded to whole words).
    pub fn element_bytes(self) -> u64 {
        match self {
            DType::F32 => 4,
            DType::F16 => 2,
            DType::I8 => 1,
        }
    }

    /// The name NumPy and PyTorch give the type (`float32`, `float16`, `int8`).
    pub fn name(self) -> &'static str {
        match self {
            DType::F32 => "float32",
            DType::F16 => "float16",
            DType::I8 => "int8",
        }
    }
}

impl std::fmt::Display for DType {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// Usage flags of every buffer the crate allocates or wraps.
pub const TENSOR_USAGE: wgpu::BufferUsages =
    wgpu::BufferUsages::STORAGE.union(wgpu::BufferUsages::COPY_SRC).union(wgpu::BufferUsages::COPY_DST);

/// How a rank-4 tensor's elements are ordered in its buffer. The shape is always the logical
/// `[N, C, H, W]`, as in PyTorch, whose `memory_format` this mirrors.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum MemoryFormat {
    /// Row-major in the shape's order: NCHW for images (`torch.contiguous_format`).
    #[default]
    Contiguous,
    /// NHWC: the channels of a pixel are adjacent (`torch.channels_last`). Rank 4 only.
    ChannelsLast,
}

impl MemoryFormat {
    /// PyTorch's name for it (`contiguous_format`, `channels_last`).
    pub fn name(self) -> &'static str {
        match self {
            MemoryFormat::Contiguous => "contiguous_format",
            MemoryFormat::ChannelsLast => "channels_last",
        }
    }
}

impl std::fmt::Display for MemoryFormat {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// A tensor in GPU memory: dense, row-major in its logical shape's order (NCHW for images)
/// unless its [`MemoryFormat`] says NHWC.
#[derive(Clone, Debug)]
pub struct Tensor {
    buffer: wgpu::Buffer,
    shape: Vec<usize>,
    dtype: DType,
    format: MemoryFormat,
    /// The context that made the tensor, so that ops of another context refuse it (wgpu cannot
    /// bind another device's buffer, and panics when asked to); `None` for a wrapped buffer
    /// ([`Tensor::from_buffer`]), whose device wgpu does not tell.
    device: Option<DeviceKey>,
}

/// Element count of `shape`, or an error when it is empty of elements or overflows.
pub(crate) fn numel(tensor: &'static str, shape: &[usize]) -> Result<u64> {
    let mut n: u64 = 1;
    for &d in shape {
        n = n.checked_mul(d as u64).ok_or(Error::TooManyElements {
            tensor,
            count: u64::MAX,
            limit: u64::from(u32::MAX),
        })?;
    }
    if n == 0 {
        return Err(Error::shape(format!("{tensor} shape {shape:?} has no elements")));
    }
    Ok(n)
}

impl Tensor {
    /// A tensor may be as large as a buffer; ops that cannot bind it whole split the work or
    /// reject it with the binding limit.
    fn check_fits(ctx: &Context, tensor: &'static str, bytes: u64) -> Result<()> {
        let limit = ctx.limits().max_buffer_size;
        if bytes > limit {
            return Err(Error::BufferTooLarge { tensor, bytes, limit });
        }
        Ok(())
    }

    fn upload(ctx: &Context, bytes: &[u8], shape: &[usize], dtype: DType) -> Result<Self> {
        let n = numel("tensor", shape)?;
        let expected = dtype.storage_bytes(n);
        let data_bytes = (bytes.len() as u64).div_ceil(4) * 4;
        let given_elements = bytes.len() as u64 / dtype.element_bytes();
        if given_elements != n || data_bytes != expected {
            return Err(Error::ByteSize {
                tensor: "tensor",
                shape: shape.to_vec(),
                dtype,
                expected_bytes: expected,
                got_bytes: bytes.len() as u64,
            });
        }
        Self::check_fits(ctx, "tensor", expected)?;
        let buffer = ctx.device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("wgconv tensor"),
            size: expected,
            usage: TENSOR_USAGE,
            mapped_at_creation: false,
        });
        let mut padded;
        let data = if bytes.len() as u64 == expected {
            bytes
        } else {
            padded = bytes.to_vec();
            padded.resize(expected as usize, 0);
            &padded[..]
        };
        ctx.queue.write_buffer(&buffer, 0, data);
        Ok(Self::made_by(ctx, buffer, shape, dtype))
    }

    /// Uploads f32 data of the given shape.
    pub fn from_f32(ctx: &Context, data: &[f32], shape: &[usize]) -> Result<Self> {
        Self::upload(ctx, bytemuck::cast_slice(data), shape, DType::F32)
    }

    /// Uploads f16 data of the given shape (packed two per word).
    pub fn from_f16(ctx: &Context, data: &[half::f16], shape: &[usize]) -> Result<Self> {
        Self::upload(ctx, bytemuck::cast_slice(data), shape, DType::F16)
    }

    /// Uploads f32 values as a tensor of `dtype`: f32 as they are, or f16 rounded to nearest
    /// (the conversion `half::f16::from_f32` does). Errors: [`Error::DType`] for int8, which
    /// needs quantization ([`crate::Batch::quantize_per_tensor`]).
    pub fn from_f32_as(ctx: &Context, data: &[f32], shape: &[usize], dtype: DType) -> Result<Self> {
        match dtype {
            DType::F32 => Self::from_f32(ctx, data, shape),
            DType::F16 => {
                let halves: Vec<half::f16> = data.iter().map(|&v| half::f16::from_f32(v)).collect();
                Self::from_f16(ctx, &halves, shape)
            }
            got => Err(Error::DType { tensor: "tensor", expected: DType::F32, got }),
        }
    }

    /// Uploads int8 data of the given shape (packed four per word).
    pub fn from_i8(ctx: &Context, data: &[i8], shape: &[usize]) -> Result<Self> {
        Self::upload(ctx, bytemuck::cast_slice(data), shape, DType::I8)
    }

    /// A new tensor with every byte zero.
    pub fn zeros(ctx: &Context, shape: &[usize], dtype: DType) -> Result<Self> {
        let bytes = dtype.storage_bytes(numel("tensor", shape)?);
        Self::check_fits(ctx, "tensor", bytes)?;
        let buffer = ctx.device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("wgconv tensor"),
            size: bytes,
            usage: TENSOR_USAGE,
            mapped_at_creation: false,
        });
        Ok(Self::made_by(ctx, buffer, shape, dtype))
    }

    /// A tensor of `ctx`'s device on `buffer`, contiguous.
    fn made_by(ctx: &Context, buffer: wgpu::Buffer, shape: &[usize], dtype: DType) -> Self {
        let device = Some(ctx.device_key.clone());
        Self { buffer, shape: shape.to_vec(), dtype, format: MemoryFormat::Contiguous, device }
    }

    /// A new f32 tensor with every element `value` (tests poison outputs with NaN).
    pub fn full_f32(ctx: &Context, shape: &[usize], value: f32) -> Result<Self> {
        let n = numel("tensor", shape)?;
        // Checked before the host vector is allocated: a shape too large for any buffer fails
        // here, not in the allocator.
        Self::check_fits(ctx, "tensor", DType::F32.storage_bytes(n))?;
        let n = usize::try_from(n).map_err(|_| Error::TooManyElements {
            tensor: "tensor",
            count: n,
            limit: usize::MAX as u64,
        })?;
        Self::from_f32(ctx, &vec![value; n], shape)
    }

    /// Wraps a buffer the application owns. Its size must be exactly what `shape` and `dtype`
    /// need and it must have `STORAGE | COPY_SRC | COPY_DST` usage. The buffer must come from
    /// the device of the contexts that use the tensor: wgpu does not tell a buffer's device, so
    /// this one cannot be checked.
    pub fn from_buffer(buffer: wgpu::Buffer, shape: &[usize], dtype: DType) -> Result<Self> {
        let expected = dtype.storage_bytes(numel("tensor", shape)?);
        if buffer.size() != expected {
            return Err(Error::ByteSize {
                tensor: "tensor",
                shape: shape.to_vec(),
                dtype,
                expected_bytes: expected,
                got_bytes: buffer.size(),
            });
        }
        let missing = TENSOR_USAGE - buffer.usage();
        if !missing.is_empty() {
            return Err(Error::BufferUsage { tensor: "tensor", missing: format!("{missing:?}") });
        }
        Ok(Self { buffer, shape: shape.to_vec(), dtype, format: MemoryFormat::Contiguous, device: None })
    }

    /// [`Error::ForeignTensor`] naming the tensor `name` when another context made it.
    pub(crate) fn check_device(&self, ctx: &Context, name: &'static str) -> Result<()> {
        match &self.device {
            Some(device) if *device != ctx.device_key => Err(Error::ForeignTensor { tensor: name }),
            _ => Ok(()),
        }
    }

    /// The underlying buffer.
    pub fn buffer(&self) -> &wgpu::Buffer {
        &self.buffer
    }

    /// The shape.
    pub fn shape(&self) -> &[usize] {
        &self.shape
    }

    /// The element type.
    pub fn dtype(&self) -> DType {
        self.dtype
    }

    /// How the elements are ordered in the buffer.
    pub fn memory_format(&self) -> MemoryFormat {
        self.format
    }

    /// The same buffer, declared to hold its elements in `format`'s order; no data moves. Use it
    /// for data uploaded (or written by other GPU work) in NHWC order; [`crate::Batch::to_memory_format`]
    /// converts the data instead. Downloads (`to_vec_*`) return the elements in the buffer's
    /// order.
    ///
    /// Errors: [`Error::MemoryFormat`] for `ChannelsLast` on a tensor that is not rank 4.
    pub fn with_memory_format(self, format: MemoryFormat) -> Result<Self> {
        if format == MemoryFormat::ChannelsLast && self.shape.len() != 4 {
            return Err(Error::MemoryFormat {
                tensor: "tensor",
                reason: format!("channels_last needs a rank-4 [N, C, H, W] shape, got {:?}", self.shape),
            });
        }
        Ok(Self { format, ..self })
    }

    /// Number of elements.
    pub fn numel(&self) -> usize {
        self.shape.iter().product()
    }

    /// Bytes in the buffer.
    pub fn size_bytes(&self) -> u64 {
        self.buffer.size()
    }

    /// Downloads an f32 tensor, once the work queued before has run. [`Tensor::to_vec_f32`] is
    /// the blocking form (native only).
    ///
    /// Errors: [`Error::DType`] for a tensor of another type; [`Error::ForeignTensor`] for a
    /// tensor of another context's device; wgpu's errors of the download, and on the
    /// web those of work recorded since the last awaited call ([`crate::Batch::submit_async`]),
    /// as [`Error::Gpu`]; on native [`Error::Timeout`] past the context's timeout.
    pub async fn to_vec_f32_async(&self, ctx: &Context) -> Result<Vec<f32>> {
        self.expect_dtype("tensor", DType::F32)?;
        Ok(bytemuck::cast_slice(&self.download_async(ctx).await?).to_vec())
    }

    /// Downloads an f16 tensor, once the work queued before has run. [`Tensor::to_vec_f16`] is
    /// the blocking form (native only). Errors as [`Tensor::to_vec_f32_async`]'s.
    pub async fn to_vec_f16_async(&self, ctx: &Context) -> Result<Vec<half::f16>> {
        self.expect_dtype("tensor", DType::F16)?;
        let mut bytes = self.download_async(ctx).await?;
        bytes.truncate(self.numel() * 2);
        Ok(bytemuck::cast_slice(&bytes).to_vec())
    }

    /// Downloads an int8 tensor, once the work queued before has run. [`Tensor::to_vec_i8`] is
    /// the blocking form (native only). Errors as [`Tensor::to_vec_f32_async`]'s.
    pub async fn to_vec_i8_async(&self, ctx: &Context) -> Result<Vec<i8>> {
        self.expect_dtype("tensor", DType::I8)?;
        let mut bytes = self.download_async(ctx).await?;
        bytes.truncate(self.numel());
        Ok(bytemuck::cast_slice(&bytes).to_vec())
    }

    pub(crate) fn expect_dtype(&self, tensor: &'static str, expected: DType) -> Result<()> {
        if self.dtype != expected {
            return Err(Error::DType { tensor, expected, got: self.dtype });
        }
        Ok(())
    }

    async fn download_async(&self, ctx: &Context) -> Result<Vec<u8>> {
        self.check_device(ctx, "tensor")?;
        let staging = ctx.device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("wgconv download"),
            size: self.buffer.size(),
            usage: wgpu::BufferUsages::COPY_DST | wgpu::BufferUsages::MAP_READ,
            mapped_at_creation: false,
        });
        ctx.capture("download", || {
            let mut encoder = ctx.device.create_command_encoder(&Default::default());
            encoder.copy_buffer_to_buffer(&self.buffer, 0, &staging, 0, self.buffer.size());
            ctx.queue.submit([encoder.finish()]);
            Ok(())
        })?;
        ctx.settle("download").await?;
        ctx.read_mapped_async(&staging, "download").await
    }
}
