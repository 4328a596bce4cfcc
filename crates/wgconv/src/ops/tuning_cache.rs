//! Tuning results saved across runs: [`Context::export_tuning`] writes what `Conv2d::tune`
//! measured as JSON tagged with the device and the wgconv version, and
//! [`Context::import_tuning`] takes it back on the same device and version only (another GPU,
//! driver or kernel set would make the measured choices meaningless), checking every entry.

use serde::{Deserialize, Serialize};

use super::{conv_geometry::ConvGeometry, conv_options::ConvOptions, conv_tune::TunedConfig};
use crate::{
    context::Context,
    error::{Error, Result},
};

/// The file: who measured, and what.
#[derive(Debug, Serialize, Deserialize)]
struct TuningFile {
    /// `CARGO_PKG_VERSION` of the wgconv that measured.
    wgconv: String,
    /// The adapter, driver and backend that measured.
    device: String,
    entries: Vec<Entry>,
}

#[derive(Debug, Serialize, Deserialize)]
struct Entry {
    geometry: GeometryRecord,
    config: TunedConfig,
}

/// A [`ConvGeometry`]'s sizes as the file stores them; only [`GeometryRecord::to_geometry`]
/// turns them back into a geometry, through the same validation as any other.
#[derive(Debug, PartialEq, Eq, Serialize, Deserialize)]
struct GeometryRecord {
    n: u32,
    ic: u32,
    ih: u32,
    iw: u32,
    oc: u32,
    oh: u32,
    ow: u32,
    kh: u32,
    kw: u32,
    stride: [u32; 2],
    padding: [u32; 2],
    dilation: [u32; 2],
    output_padding: [u32; 2],
    groups: u32,
    transposed: bool,
    one_d: bool,
}

impl GeometryRecord {
    fn of(g: &ConvGeometry) -> Self {
        Self {
            n: g.n,
            ic: g.ic,
            ih: g.ih,
            iw: g.iw,
            oc: g.oc,
            oh: g.oh,
            ow: g.ow,
            kh: g.kh,
            kw: g.kw,
            stride: g.stride,
            padding: g.padding,
            dilation: g.dilation,
            output_padding: g.output_padding,
            groups: g.groups,
            transposed: g.transposed,
            one_d: g.one_d,
        }
    }

    /// The convolution these sizes describe, validated as `ConvGeometry::new` validates any
    /// (so no later arithmetic on it can fail), or an error when they describe none.
    fn to_geometry(&self) -> Result<ConvGeometry> {
        let g = self;
        if g.groups == 0 {
            return Err(Error::tuning_file("groups 0"));
        }
        let spatial = |h: u32, w: u32| if g.one_d { vec![w as usize] } else { vec![h as usize, w as usize] };
        let mut input = vec![g.n as usize, g.ic as usize];
        input.extend(spatial(g.ih, g.iw));
        let mut weight = if g.transposed {
            vec![g.ic as usize, (g.oc / g.groups) as usize]
        } else {
            vec![g.oc as usize, (g.ic / g.groups) as usize]
        };
        weight.extend(spatial(g.kh, g.kw));
        let pair = |v: [u32; 2]| if g.one_d { vec![v[1]] } else { v.to_vec() };
        let opts = ConvOptions::default()
            .stride(&pair(g.stride))
            .padding(&pair(g.padding))
            .dilation(&pair(g.dilation))
            .output_padding(&pair(g.output_padding))
            .groups(g.groups)
            .transposed(g.transposed);
        let geometry = ConvGeometry::new(&input, &weight, None, &opts)?;
        if GeometryRecord::of(&geometry) != *self {
            return Err(Error::tuning_file("its sizes are not those of any convolution"));
        }
        Ok(geometry)
    }
}

impl Context {
    /// Every configuration `Conv2d::tune` remembered in this context, as JSON tagged with the
    /// device and the wgconv version, for [`Context::import_tuning`] in a later run.
    pub fn export_tuning(&self) -> String {
        let mut entries: Vec<Entry> = self
            .tuned_entries()
            .into_iter()
            .map(|(g, config)| Entry { geometry: GeometryRecord::of(&g), config })
            .collect();
        // A stable order, so an unchanged tuning writes an unchanged file.
        entries.sort_by_key(|e| format!("{:?}", e.geometry));
        let file = TuningFile { wgconv: env!("CARGO_PKG_VERSION").to_string(), device: self.adapter_text(), entries };
        serde_json::to_string_pretty(&file).expect("tuning entries are plain data")
    }

    /// Takes back what [`Context::export_tuning`] wrote, so the planner uses those measured
    /// choices without tuning again, and returns how many there were. An error (naming the
    /// mismatch or the entry) and nothing imported when the JSON is malformed, was measured on
    /// another device, driver or wgconv version, or holds an entry this device cannot run.
    pub fn import_tuning(&self, json: &str) -> Result<usize> {
        let file: TuningFile =
            serde_json::from_str(json).map_err(|e| Error::tuning_file(format!("tuning file is not valid: {e}")))?;
        let (version, device) = (env!("CARGO_PKG_VERSION"), self.adapter_text());
        if file.wgconv != version || file.device != device {
            return Err(Error::tuning_file(format!(
                "tuning file was measured by wgconv {} on {}; this is wgconv {version} on {device}",
                file.wgconv, file.device
            )));
        }
        let mut checked = Vec::with_capacity(file.entries.len());
        for (i, entry) in file.entries.iter().enumerate() {
            let geometry =
                self.check_entry(entry).map_err(|e| Error::tuning_file(format!("tuning file entry {i}: {e}")))?;
            checked.push((geometry, entry.config));
        }
        for (geometry, config) in checked {
            self.remember_tuning(geometry, config);
        }
        Ok(file.entries.len())
    }

    /// The convolution `entry` describes, when `ConvGeometry::new` accepts it and its
    /// configuration can run it on this device.
    fn check_entry(&self, entry: &Entry) -> Result<ConvGeometry> {
        let g = entry.geometry.to_geometry()?;
        let TunedConfig { kernel, tile_n, schedule } = entry.config;
        let storage = self.limits().max_compute_workgroup_storage_size;
        // Tuning measures fp32 kernels only (`supported_kernels`); a tensor-core kernel here would
        // run f16 arithmetic under the default precision.
        if !g.supported_kernels().contains(&kernel) {
            return Err(Error::tuning_file(format!("kernel {} cannot run it on this device", kernel.name())));
        }
        // A GEMM kernel's workgroup memory depends on its tile width.
        let needs = kernel.workgroup_storage_bytes_at(tile_n);
        if needs > storage {
            return Err(Error::tuning_file(format!(
                "kernel {} cannot run it on this device ({needs} bytes of workgroup memory, {storage} allowed)",
                kernel.name_at(tile_n)
            )));
        }
        if kernel.is_gemm() {
            // As `conv_plan::plan` applies a tuned configuration.
            let tile_n = g.choose_tile_n(kernel, tile_n)?;
            g.launch_schedule(kernel, tile_n, schedule)?;
        } else if schedule.is_some() || tile_n.is_some() {
            return Err(Error::tuning_file(format!("kernel {} takes no K-split or tile width", kernel.name())));
        }
        Ok(g)
    }
}
