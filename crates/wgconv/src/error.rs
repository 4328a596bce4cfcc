//! The one error type of the crate. Every variant carries the offending values.

use crate::tensor::DType;

/// Result alias used throughout the crate.
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// Everything that can go wrong, from adapter selection to a convolution's arguments.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// wgpu found no adapter matching the request.
    #[error(
        "no GPU adapter found{filter}: install a Vulkan driver (on Debian/Ubuntu: `apt-get install -y mesa-vulkan-drivers libvulkan1` for the software one) or check WGCONV_BACKEND / WGCONV_ADAPTER"
    )]
    NoAdapter {
        /// Description of the filters in force (backend, adapter substring), or empty.
        filter: String,
    },
    /// The adapter refused to create a device.
    #[error("requesting a device from adapter `{adapter}` failed: {reason}")]
    RequestDevice {
        /// Adapter name.
        adapter: String,
        /// wgpu's message.
        reason: String,
    },
    /// A tensor has the wrong number of dimensions.
    #[error("{tensor} must have rank {expected}, got rank {got} (shape {shape:?})")]
    Rank {
        /// Which argument.
        tensor: &'static str,
        /// What was expected, e.g. "4 (NCHW)".
        expected: String,
        /// The rank given.
        got: usize,
        /// The shape given.
        shape: Vec<usize>,
    },
    /// A tensor has the wrong element type.
    #[error("{tensor} must be {expected}, got {got}")]
    DType {
        /// Which argument.
        tensor: &'static str,
        /// Required dtype.
        expected: DType,
        /// Given dtype.
        got: DType,
    },
    /// An operation's tensors have different element types (a convolution's input, weight,
    /// bias and output share one: f32 or f16).
    #[error("{tensor} is {got}, but the {first} is {expected}: the tensors of one convolution share a dtype")]
    MixedDTypes {
        /// The tensor whose dtype differs.
        tensor: &'static str,
        /// Its dtype.
        got: DType,
        /// The tensor that set the dtype (the input, or a prepared convolution's weight).
        first: &'static str,
        /// That tensor's dtype.
        expected: DType,
    },
    /// A tensor's memory format does not suit the operation: channels-last on a tensor that is
    /// not rank 4, or a convolution's output in another format than its input.
    #[error("{tensor}: {reason}")]
    MemoryFormat {
        /// Which tensor.
        tensor: &'static str,
        /// What is wrong, naming the formats or the shape.
        reason: String,
    },
    /// The device lacks a feature the operation needs.
    #[error("{what} needs the device feature `{feature}`, which this device does not have ({device})")]
    MissingFeature {
        /// The WebGPU name of the feature (`shader-f16`).
        feature: &'static str,
        /// What needs it.
        what: String,
        /// The adapter, as [`crate::Context::describe`] says.
        device: String,
    },
    /// Shape and data (or buffer) disagree in size.
    #[error("{tensor}: shape {shape:?} of {dtype} needs {expected_bytes} bytes, the data has {got_bytes}")]
    ByteSize {
        /// Which tensor.
        tensor: &'static str,
        /// Its shape.
        shape: Vec<usize>,
        /// Its dtype.
        dtype: DType,
        /// Bytes the shape needs.
        expected_bytes: u64,
        /// Bytes given.
        got_bytes: u64,
    },
    /// A wrapped buffer lacks a usage flag the ops need.
    #[error("buffer for {tensor} lacks usage {missing}; create it with STORAGE | COPY_SRC | COPY_DST")]
    BufferUsage {
        /// Which tensor.
        tensor: &'static str,
        /// The missing flags.
        missing: String,
    },
    /// A tensor made by another context was passed to this context's operation (wgpu binds a
    /// buffer only on the device that made it, and cannot tell which that is).
    #[error(
        "{tensor} was made by another context: a tensor belongs to the context that made it (even two contexts on one device do not share tensors; download and upload it, or use one context)"
    )]
    ForeignTensor {
        /// Which tensor.
        tensor: &'static str,
    },
    /// Tensor shapes that do not make the operation: channels that disagree, groups that do
    /// not divide them, a filter larger than the padded input, a bias of the wrong length.
    #[error("{reason}")]
    InvalidShape {
        /// What is wrong, naming the shapes.
        reason: String,
    },
    /// An option's value is out of range, or not supported by the operation.
    #[error("{reason}")]
    InvalidOption {
        /// The option (`stride`, `groups`, `tile_n`, `split_k`, …).
        option: &'static str,
        /// What is wrong, naming the value.
        reason: String,
    },
    /// A kernel cannot run this operation here: one asked for (forced, or from a tuning file)
    /// does not handle the shape, or the device lacks the workgroup memory or features that a
    /// kernel needs and no fallback is left (planned kernels included).
    #[error("{reason}")]
    KernelUnavailable {
        /// The kernel's name.
        kernel: String,
        /// Why, naming the shape or the device limit.
        reason: String,
    },
    /// A tuning file (`Context::import_tuning`) is malformed, from another device or version,
    /// or holds an entry this device cannot run.
    #[error("{reason}")]
    TuningFile {
        /// What is wrong with it.
        reason: String,
    },
    /// `timing` was asked to time a closure that recorded no GPU work.
    #[error("nothing was recorded to time")]
    NothingRecorded,
    /// A tensor's element count does not fit the 32-bit indices the kernels use.
    #[error("{tensor} has {count} elements, more than the {limit} the kernels can index")]
    TooManyElements {
        /// Which tensor.
        tensor: &'static str,
        /// Its element count.
        count: u64,
        /// u32::MAX.
        limit: u64,
    },
    /// A tensor does not fit one storage binding on this device.
    #[error("{tensor} needs {bytes} bytes, over this device's max_storage_buffer_binding_size of {limit} bytes")]
    BindingTooLarge {
        /// Which tensor.
        tensor: &'static str,
        /// Its size in bytes.
        bytes: u64,
        /// The device limit.
        limit: u64,
    },
    /// A tensor is larger than any buffer this device can create.
    #[error("{tensor} needs {bytes} bytes, over this device's max_buffer_size of {limit} bytes")]
    BufferTooLarge {
        /// Which tensor.
        tensor: &'static str,
        /// Its size in bytes.
        bytes: u64,
        /// The device limit.
        limit: u64,
    },
    /// A caller-supplied output tensor has the wrong shape.
    #[error("output tensor has shape {got:?}, the operation produces {expected:?}")]
    OutputShape {
        /// The shape the op produces.
        expected: Vec<usize>,
        /// The shape supplied.
        got: Vec<usize>,
    },
    /// Even a 2D grid of workgroups cannot cover the work.
    #[error("{workgroups} workgroups exceed the device's {limit} × {limit} 2D dispatch grid")]
    DispatchTooLarge {
        /// Workgroups needed.
        workgroups: u64,
        /// max_compute_workgroups_per_dimension.
        limit: u32,
    },
    /// wgpu reported an error (validation, out of memory, device lost) for this call.
    #[error("GPU error during {operation}: {message}")]
    Gpu {
        /// What we were doing.
        operation: String,
        /// wgpu's message.
        message: String,
    },
    /// Waiting for the GPU exceeded the context's timeout.
    #[error("GPU did not finish {operation} within {timeout_ms} ms")]
    Timeout {
        /// What we waited for.
        operation: String,
        /// The timeout in milliseconds.
        timeout_ms: u128,
    },
}

/// `count` as the kernels' 32-bit index, or [`Error::TooManyElements`] naming `tensor`.
pub(crate) fn fits_u32(tensor: &'static str, count: u64) -> Result<u32> {
    u32::try_from(count).map_err(|_| Error::TooManyElements { tensor, count, limit: u64::from(u32::MAX) })
}

impl Error {
    pub(crate) fn shape(reason: impl Into<String>) -> Self {
        Error::InvalidShape { reason: reason.into() }
    }

    pub(crate) fn option(option: &'static str, reason: impl Into<String>) -> Self {
        Error::InvalidOption { option, reason: reason.into() }
    }

    pub(crate) fn unavailable(kernel: &str, reason: impl Into<String>) -> Self {
        Error::KernelUnavailable { kernel: kernel.to_string(), reason: reason.into() }
    }

    pub(crate) fn tuning_file(reason: impl Into<String>) -> Self {
        Error::TuningFile { reason: reason.into() }
    }
}
