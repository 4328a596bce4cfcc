//! Parsers for the CLI's compound arguments.

use wgconv::Activation;

/// One value for both spatial dims, or two (H, W).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pair(pub Vec<u32>);

/// `2` or `2,3` (H, W) → one or two values.
pub fn pair(s: &str) -> Result<Pair, String> {
    let values: Result<Vec<u32>, _> = s.split(',').map(|v| v.trim().parse::<u32>()).collect();
    match values {
        Ok(v) if (1..=2).contains(&v.len()) => Ok(Pair(v)),
        _ => Err(format!("expected a non-negative integer or two separated by a comma (H,W), got {s:?}")),
    }
}

/// A kernel name for `--kernel`.
pub fn kernel(s: &str) -> Result<wgconv::ConvKernel, String> {
    wgconv::ConvKernel::from_name(s).ok_or_else(|| {
        let names: Vec<&str> = wgconv::ConvKernel::ALL.iter().map(|k| k.name()).collect();
        format!("unknown kernel {s:?}: use one of {}", names.join(", "))
    })
}

/// The 16-deep staged GEMM tiles' K-tile loads for `--k-tile-loads`: `ahead` or `in_iteration`.
pub fn k_tile_loads(s: &str) -> Result<wgconv::KTileLoads, String> {
    wgconv::KTileLoads::from_name(s).ok_or_else(|| {
        let names: Vec<&str> = wgconv::KTileLoads::ALL.iter().map(|l| l.name()).collect();
        format!("unknown K-tile loads {s:?}: use one of {}", names.join(", "))
    })
}

/// The staged GEMM tiles' tile order for `--tile-order`: `n_fastest` or `m_fastest`.
pub fn tile_order(s: &str) -> Result<wgconv::TileOrder, String> {
    wgconv::TileOrder::from_name(s).ok_or_else(|| {
        let names: Vec<&str> = wgconv::TileOrder::ALL.iter().map(|o| o.name()).collect();
        format!("unknown tile order {s:?}: use one of {}", names.join(", "))
    })
}

/// An int8 kernel name for `--q8-kernel` / `q8-conv-pw --kernel`.
pub fn q8_kernel(s: &str) -> Result<wgconv::Q8Kernel, String> {
    wgconv::Q8Kernel::from_name(s).ok_or_else(|| {
        let names: Vec<&str> = wgconv::Q8Kernel::ALL.iter().map(|k| k.name()).collect();
        format!("unknown int8 kernel {s:?}: use one of {}", names.join(", "))
    })
}

/// A GEMM tile width: a multiple of 8 in `wgconv::GEMM_TILE_N`.
pub fn tile_width(s: &str) -> Result<u32, String> {
    let range = wgconv::GEMM_TILE_N;
    match s.parse::<u32>() {
        Ok(w) if range.contains(&w) && w.is_multiple_of(8) => Ok(w),
        _ => Err(format!(
            "tile_n {s} is not a GEMM tile width (a multiple of 8 from {} to {})",
            range.start(),
            range.end()
        )),
    }
}

/// A `--check` tolerance: a finite number, at least 0 (NaN would pass every check).
pub fn tolerance(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(t) if t.is_finite() && t >= 0.0 => Ok(t),
        _ => Err(format!("tolerance {s} is not a finite number >= 0")),
    }
}

/// `f32` or `f16` (f16 multiplicands allowed: tensor cores where the device has them).
pub fn precision(s: &str) -> Result<wgconv::Precision, String> {
    match s {
        "f32" => Ok(wgconv::Precision::F32),
        "f16" => Ok(wgconv::Precision::AllowF16),
        _ => Err(format!("unknown precision {s:?}: use f32 or f16")),
    }
}

/// `f32` or `f16`: the element type of a benchmark's float tensors.
pub fn float_dtype(s: &str) -> Result<wgconv::DType, String> {
    match s {
        "f32" => Ok(wgconv::DType::F32),
        "f16" => Ok(wgconv::DType::F16),
        _ => Err(format!("unknown dtype {s:?}: use f32 or f16")),
    }
}

/// `none`, `relu` or `clamp:MIN,MAX`.
pub fn activation(s: &str) -> Result<Activation, String> {
    s.parse()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pairs() {
        assert_eq!(pair("2").unwrap(), Pair(vec![2]));
        assert_eq!(pair("2,3").unwrap(), Pair(vec![2, 3]));
        for bad in ["", "1,2,3", "-1", "a", "2,", "99999999999"] {
            assert!(pair(bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn tile_widths() {
        assert_eq!(tile_width("32").unwrap(), 32);
        assert_eq!(tile_width("104").unwrap(), 104);
        for bad in ["", "0", "24", "36", "136", "-8", "wide"] {
            assert!(tile_width(bad).unwrap_err().contains(&format!("tile_n {bad} is not")), "{bad:?}");
        }
    }

    #[test]
    fn activations() {
        assert_eq!(activation("relu").unwrap(), Activation::Relu);
        assert_eq!(activation("clamp:0,6").unwrap(), Activation::Clamp { min: 0.0, max: 6.0 });
        for bad in ["gelu", "clamp:1", "clamp:6,0", "clamp:nan,1", "clamp:0,inf", "clamp:"] {
            assert!(activation(bad).is_err(), "{bad:?}");
        }
    }
}
