//! Shader variants: the f32 and f16 expansions of one template (`shaders/templates`), chosen per
//! call by the tensors' dtype.

use crate::tensor::DType;

/// Which expansion of a shader template runs (`shaders/templates`, their `variants` line): each
/// is its own generated module with the same overrides, entry points and bindings.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Variant {
    /// f32 tensors (`NAME.wgsl`).
    F32,
    /// f16 tensors in and out (`NAME_f16.wgsl`).
    F16,
    /// f16 tensors in, f32 partial sums out (`NAME_f16_partial.wgsl`), for split-K.
    F16Partial,
}

impl Variant {
    /// The variant for tensors of `dtype`, writing split-K partial sums when `partial`.
    pub(crate) fn of(dtype: DType, partial: bool) -> Self {
        match (dtype, partial) {
            (DType::F16, true) => Variant::F16Partial,
            (DType::F16, false) => Variant::F16,
            _ => Variant::F32,
        }
    }
}

/// Evaluates `$body` with `$module` naming the generated module of `$variant`: `$f32`, `$f16`,
/// or `$partial` for shaders that write split-K partial sums. The variants' modules have the same
/// items, so one body serves all. A shader without a partial variant never gets
/// `Variant::F16Partial` (only the split-K kernels ask for it): that arm is unreachable.
macro_rules! with_variant_impl {
    ($variant:expr, $module:ident = $f32:ident | $f16:ident | $partial:ident, $body:expr) => {
        match $variant {
            $crate::ops::variant::Variant::F32 => {
                use crate::shaders::$f32 as $module;
                $body
            }
            $crate::ops::variant::Variant::F16 => {
                use crate::shaders::$f16 as $module;
                $body
            }
            $crate::ops::variant::Variant::F16Partial => {
                use crate::shaders::$partial as $module;
                $body
            }
        }
    };
    ($variant:expr, $module:ident = $f32:ident | $f16:ident, $body:expr) => {
        match $variant {
            $crate::ops::variant::Variant::F32 => {
                use crate::shaders::$f32 as $module;
                $body
            }
            $crate::ops::variant::Variant::F16 => {
                use crate::shaders::$f16 as $module;
                $body
            }
            $crate::ops::variant::Variant::F16Partial => {
                unreachable!("{} has no f16-in, f32-out variant; only split-K kernels ask for one", stringify!($f32))
            }
        }
    };
}
pub(crate) use with_variant_impl as with_variant;
