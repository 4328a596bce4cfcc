//! The operations. Each validates its arguments in a pure function, then encodes GPU work.

pub mod conv;
pub mod conv_geometry;
pub mod conv_plan;
pub mod conv_tune;
pub mod quantized;
pub mod tuning_cache;
