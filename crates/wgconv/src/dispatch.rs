//! Workgroup sizing and the 2D fold of large 1D grids.

use crate::error::{Error, Result};

/// Workgroups per grid dimension that every WebGPU device allows (the default
/// `max_compute_workgroups_per_dimension`): the GEMM-shaped kernels size their grids to it.
pub(crate) const MAX_WORKGROUPS_PER_DIM: u64 = 65_535;

/// How a kernel with one thread per work item is launched.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Grid {
    /// Threads per workgroup (the `wg_size` override).
    pub wg_size: u32,
    /// Workgroups in x and y.
    pub workgroups: [u32; 2],
    /// Threads per grid row (the `stride_x` override): item = gid.y * stride_x + gid.x.
    pub stride_x: u32,
}

impl Grid {
    /// Workgroup counts for `dispatch_workgroups` (z = 1).
    pub fn dims(&self) -> [u32; 3] {
        [self.workgroups[0], self.workgroups[1], 1]
    }
}

/// `min(256, device limits)`: 256 fills an SM on every desktop GPU and is the reference kernels' choice.
pub fn workgroup_size(limits: &wgpu::Limits) -> u32 {
    256.min(max_workgroup_threads(limits))
}

/// The most threads a one-dimensional (x) workgroup may have on a device with `limits`.
pub fn max_workgroup_threads(limits: &wgpu::Limits) -> u32 {
    limits.max_compute_invocations_per_workgroup.min(limits.max_compute_workgroup_size_x)
}

/// Covers `items` threads with workgroups of `wg_size`, folding into a near-square 2D grid when
/// the workgroup count exceeds `max_per_dim`.
pub fn grid(items: u64, wg_size: u32, max_per_dim: u32) -> Result<Grid> {
    let groups = items.div_ceil(u64::from(wg_size)).max(1);
    let max = u64::from(max_per_dim);
    let (x, y) = if groups <= max {
        (groups, 1)
    } else {
        let x = (groups as f64).sqrt().ceil() as u64;
        let x = x.min(max);
        (x, groups.div_ceil(x))
    };
    if y > max {
        return Err(Error::DispatchTooLarge { workgroups: groups, limit: max_per_dim });
    }
    let stride_x = u32::try_from(x * u64::from(wg_size))
        .map_err(|_| Error::DispatchTooLarge { workgroups: groups, limit: max_per_dim })?;
    Ok(Grid { wg_size, workgroups: [x as u32, y as u32], stride_x })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn small_grids_stay_1d() {
        assert_eq!(grid(1000, 256, 65535).unwrap(), Grid { wg_size: 256, workgroups: [4, 1], stride_x: 1024 });
        assert_eq!(grid(1, 64, 65535).unwrap().workgroups, [1, 1]);
    }

    #[test]
    fn large_grids_fold_near_square_and_cover_every_item() {
        let items = 256 * 65536 + 3;
        let g = grid(items, 256, 65535).unwrap();
        assert!(g.workgroups[0] <= 65535 && g.workgroups[1] <= 65535);
        assert_eq!(g.workgroups, [257, 256]);
        assert!(u64::from(g.workgroups[0]) * u64::from(g.workgroups[1]) * 256 >= items);
        assert_eq!(g.stride_x, g.workgroups[0] * 256);
    }

    #[test]
    fn grids_beyond_2d_are_an_error() {
        let err = grid(u64::from(u32::MAX) * 1024, 1, 65535).unwrap_err();
        assert!(matches!(err, Error::DispatchTooLarge { limit: 65535, .. }), "{err}");
    }

    #[test]
    fn workgroup_size_respects_limits() {
        let mut l = wgpu::Limits::default();
        assert_eq!(workgroup_size(&l), 256);
        l.max_compute_invocations_per_workgroup = 128;
        assert_eq!(workgroup_size(&l), 128);
    }
}
