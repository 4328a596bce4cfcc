//! Tuning results saved across runs: [`Context::export_tuning`] writes what `Conv2d::tune`
//! measured as JSON tagged with the device and the wgconv version, and
//! [`Context::import_tuning`] takes it back on the same device and version only (another GPU,
//! driver or kernel set would make the measured choices meaningless), checking every entry.

use serde::{Deserialize, Serialize};

use super::{conv_geometry::ConvGeometry, conv_geometry::ConvOptions, conv_tune::TunedConfig};
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
    geometry: ConvGeometry,
    config: TunedConfig,
}

impl Context {
    /// Every configuration `Conv2d::tune` remembered in this context, as JSON tagged with the
    /// device and the wgconv version, for [`Context::import_tuning`] in a later run.
    pub fn export_tuning(&self) -> String {
        let mut entries: Vec<Entry> =
            self.tuned_entries().into_iter().map(|(geometry, config)| Entry { geometry, config }).collect();
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
            serde_json::from_str(json).map_err(|e| Error::invalid(format!("tuning file is not valid: {e}")))?;
        let (version, device) = (env!("CARGO_PKG_VERSION"), self.adapter_text());
        if file.wgconv != version || file.device != device {
            return Err(Error::invalid(format!(
                "tuning file was measured by wgconv {} on {}; this is wgconv {version} on {device}",
                file.wgconv, file.device
            )));
        }
        for (i, entry) in file.entries.iter().enumerate() {
            self.check_entry(entry).map_err(|e| Error::invalid(format!("tuning file entry {i}: {e}")))?;
        }
        for entry in &file.entries {
            self.remember_tuning(entry.geometry.clone(), entry.config);
        }
        Ok(file.entries.len())
    }

    /// `entry` describes a convolution `ConvGeometry::new` accepts (so no later arithmetic on it
    /// can fail) and a configuration that can run it on this device.
    fn check_entry(&self, entry: &Entry) -> Result<()> {
        let g = &entry.geometry;
        if g.groups == 0 {
            return Err(Error::invalid("groups 0"));
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
        if ConvGeometry::new(&input, &weight, None, &opts)? != *g {
            return Err(Error::invalid("its sizes are not those of any convolution"));
        }
        let TunedConfig { kernel, split_k, stream_k, tile_n } = entry.config;
        let storage = self.limits().max_compute_workgroup_storage_size;
        // Tuning measures fp32 kernels only (`supported_kernels`); a tensor-core kernel here would
        // run f16 arithmetic under the default precision.
        if !g.supported_kernels().contains(&kernel) {
            return Err(Error::invalid(format!("kernel {} cannot run it on this device", kernel.name())));
        }
        // A GEMM kernel's workgroup memory depends on its tile width.
        let needs = kernel.workgroup_storage_bytes_at(tile_n);
        if needs > storage {
            return Err(Error::invalid(format!(
                "kernel {} cannot run it on this device ({needs} bytes of workgroup memory, {storage} allowed)",
                kernel.name_at(tile_n)
            )));
        }
        match (kernel.gemm_tile().is_some(), stream_k) {
            // As the encoder applies a tuned configuration.
            (true, _) => {
                let tile_n = g.choose_tile_n(kernel, tile_n)?;
                g.gemm_schedule(kernel, tile_n, stream_k.is_none().then_some(split_k), stream_k).map(|_| ())
            }
            (false, None) if split_k == 1 && tile_n.is_none() => Ok(()),
            (false, _) => Err(Error::invalid(format!("kernel {} takes no K-split or tile width", kernel.name()))),
        }
    }
}
