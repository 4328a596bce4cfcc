//! The operations. Each validates its arguments in a pure function, then encodes GPU work.
//!
//! A convolution goes through these modules in order: [`conv_options`] (what the caller asks
//! for) → [`conv_geometry`] (validated sizes, pure) → [`conv_plan`] (which kernel runs it, using
//! the catalog in [`conv_kernel`], the GEMM schedules of [`conv_schedule`] and the launch
//! parameters of [`conv_launch`]) → [`conv_encode`] (records the GPU work), with the public calls
//! in [`conv`] (which runs tensors over one storage binding in batch chunks, or one image in
//! the row bands of [`conv_bands`]) — or [`conv_tune`], which
//! times the candidates instead of planning, with [`tuning_cache`] keeping the results.

pub(crate) mod conv;
pub(crate) mod conv_bands;
pub(crate) mod conv_encode;
pub(crate) mod conv_geometry;
pub(crate) mod conv_kernel;
pub(crate) mod conv_launch;
pub(crate) mod conv_options;
pub(crate) mod conv_plan;
pub(crate) mod conv_schedule;
pub(crate) mod conv_tune;
pub(crate) mod quantized;
pub(crate) mod relayout;
pub(crate) mod tuning_cache;
pub(crate) mod variant;
pub(crate) mod winograd;
