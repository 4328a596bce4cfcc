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
        let TunedConfig { kernel, tile_n, schedule, k_tile_loads } = entry.config;
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
        if let Some(loads) = k_tile_loads.filter(|_| !kernel.takes_k_tile_loads()) {
            let name = kernel.name();
            return Err(Error::tuning_file(format!("kernel {name} takes no K-tile loads (got {})", loads.name())));
        }
        Ok(g)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{ConvKernel, GemmSchedule};

    /// A file as wgconv wrote it before `ConvGeometry`'s fields went private and `TunedConfig`
    /// took a `GemmSchedule` (commit 873bca2): three entries, one without `tile_n` (older still),
    /// one with stream-K. It still reads, to the same geometries and configurations.
    #[test]
    fn files_written_by_earlier_versions_still_read() {
        // 64 → 64 (or, transposed, → 32) channels, 3×3, padding 1: 6×6 stays 6×6 either way.
        let geometry = |n, transposed: bool| {
            let oc = if transposed { 32 } else { 64 };
            format!(
                r#"{{"n": {n}, "ic": 64, "ih": 6, "iw": 6, "oc": {oc}, "oh": 6, "ow": 6, "kh": 3, "kw": 3,
                "stride": [1, 1], "padding": [1, 1], "dilation": [1, 1], "output_padding": [0, 0],
                "groups": 1, "transposed": {transposed}, "one_d": false}}"#
            )
        };
        let json = format!(
            r#"{{"wgconv": "0.1.0", "device": "lavapipe", "entries": [
                {{"geometry": {}, "config": {{"kernel": "gemm", "split_k": 2, "stream_k": null, "tile_n": 96}}}},
                {{"geometry": {}, "config": {{"kernel": "gemm_m64_k16", "split_k": 1, "stream_k": 132}}}},
                {{"geometry": {}, "config": {{"kernel": "direct_vec4", "split_k": 1, "stream_k": null, "tile_n": null}}}}
            ]}}"#,
            geometry(1, false),
            geometry(2, false),
            geometry(1, true)
        );
        let file: TuningFile = serde_json::from_str(&json).unwrap();
        let configs: Vec<TunedConfig> = file.entries.iter().map(|e| e.config).collect();
        assert_eq!(
            configs,
            [
                TunedConfig {
                    kernel: ConvKernel::Gemm,
                    tile_n: Some(96),
                    schedule: Some(GemmSchedule::SplitK(2)),
                    k_tile_loads: None
                },
                TunedConfig {
                    kernel: ConvKernel::GemmM64K16,
                    tile_n: None,
                    schedule: Some(GemmSchedule::StreamK(132)),
                    k_tile_loads: None
                },
                TunedConfig { kernel: ConvKernel::DirectVec4, tile_n: None, schedule: None, k_tile_loads: None },
            ]
        );
        let geometries: Vec<ConvGeometry> = file.entries.iter().map(|e| e.geometry.to_geometry().unwrap()).collect();
        assert_eq!(geometries[1].batch(), 2);
        assert!(geometries[2].is_transposed() && geometries[2].out_channels() == 32);
        // Written back, each entry has the fields of the old format, in the old order.
        let again = serde_json::to_string(&file.entries[0]).unwrap();
        assert!(
            again.starts_with(r#"{"geometry":{"n":1,"ic":64,"ih":6,"iw":6,"oc":64,"oh":6,"ow":6,"kh":3,"kw":3,"#),
            "{again}"
        );
        assert!(again.ends_with(r#""config":{"kernel":"gemm","split_k":2,"stream_k":null,"tile_n":96}}"#), "{again}");
    }

    /// Sizes that no convolution has are refused by name.
    #[test]
    fn impossible_geometries_are_refused() {
        let record = GeometryRecord {
            n: 1,
            ic: 4,
            ih: 5,
            iw: 5,
            oc: 4,
            oh: 9,
            ow: 9,
            kh: 3,
            kw: 3,
            stride: [1, 1],
            padding: [0, 0],
            dilation: [1, 1],
            output_padding: [0, 0],
            groups: 1,
            transposed: false,
            one_d: false,
        };
        let err = record.to_geometry().unwrap_err();
        assert!(matches!(err, Error::TuningFile { .. }), "{err:?}");
        assert_eq!(err.to_string(), "its sizes are not those of any convolution");
    }
}
