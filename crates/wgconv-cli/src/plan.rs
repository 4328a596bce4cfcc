//! `wgconv plan`: what the fp32 planner chooses for each layer of a suite (kernel, tile width,
//! K-slices), without a GPU: for a model's layers before running them, and for refitting the
//! planner's rules from `wgconv bench --kernel` runs (bench/plan_gain.py reads its JSON).

use std::path::PathBuf;

use serde::Serialize;
use wgconv::GemmSchedule;

use crate::{
    bench::{Layer, layer_geometry, load_suite, select_models},
    error::{CliError, CliResult},
};

/// Arguments of `wgconv plan`.
#[derive(clap::Args, Debug)]
pub struct PlanArgs {
    /// A built-in suite (as `wgconv bench --suite`) or a suite file.
    #[arg(long, default_value = "default")]
    suite: String,
    /// Only the layers of these models (comma-separated `model` names of the suite).
    #[arg(long, value_delimiter = ',')]
    models: Vec<String>,
    /// Also write the plans as JSON here.
    #[arg(long)]
    json: Option<PathBuf>,
}

/// One float layer's plan, as `--json` writes it.
#[derive(Serialize, Debug, PartialEq)]
struct LayerPlan {
    /// The suite's name for the layer.
    name: String,
    /// Its model, where the suite names one.
    model: Option<String>,
    /// The kernel's name, as `wgconv bench` reports it.
    kernel: &'static str,
    /// Output columns per workgroup tile (tile-width GEMM kernels only).
    tile_n: Option<u32>,
    /// K-slices (tile-width GEMM kernels only; 1 where K is not split).
    split_k: Option<u32>,
    /// When the 16-deep staged tiles load a K-tile: `ahead` or `in_iteration` (those tiles only).
    k_tile_loads: Option<&'static str>,
    /// The order of the output tiles: `n_fastest` or `m_fastest` (tile-width GEMM kernels only).
    tile_order: Option<&'static str>,
    /// All of it as `wgconv bench --tune` labels a configuration (`gemm_k16/k4`).
    plan: String,
    /// Multiply-adds of one run of the layer.
    macs: u64,
}

/// The plan of each float layer (int8 layers are planned by the device they run on: whether
/// it has cooperative matrices decides, so they are left out and counted).
fn plan_layers(layers: &[Layer]) -> CliResult<(Vec<LayerPlan>, usize)> {
    let mut plans = Vec::new();
    for layer in layers.iter().filter(|l| l.op.is_float()) {
        let bad = |e: wgconv::Error| CliError::Usage(format!("layer {}: {e}", layer.name));
        let geometry = layer_geometry(layer, &layer.options().map_err(bad)?).map_err(bad)?;
        let config = geometry.planned_config();
        let split_k = config.schedule.map(|s| match s {
            GemmSchedule::SplitK(splits) => splits,
            // Not reached: the planner never picks stream-K (it is a forced or tuned schedule).
            GemmSchedule::StreamK(_) => 1,
        });
        plans.push(LayerPlan {
            name: layer.name.clone(),
            model: layer.model.clone(),
            kernel: config.kernel.name(),
            tile_n: config.tile_n,
            split_k,
            k_tile_loads: config.k_tile_loads.map(wgconv::KTileLoads::name),
            tile_order: geometry.planned_tile_order().map(wgconv::TileOrder::name),
            plan: config.to_string(),
            macs: geometry.macs(),
        });
    }
    Ok((plans, layers.iter().filter(|l| !l.op.is_float()).count()))
}

/// Runs `wgconv plan`.
pub fn run(args: &PlanArgs) -> CliResult<()> {
    let layers = select_models(load_suite(&args.suite)?, &args.models)?;
    let (plans, int8) = plan_layers(&layers)?;
    if let Some(path) = &args.json {
        let text = serde_json::to_string_pretty(&serde_json::json!({ "suite": args.suite, "layers": plans }))
            .map_err(|e| CliError::Runtime(format!("--json: {e}")))?;
        std::fs::write(path, text).map_err(|e| CliError::Runtime(format!("{}: cannot write: {e}", path.display())))?;
    }
    let floats = layers.iter().filter(|l| l.op.is_float());
    match print_table(&plans, floats, int8) {
        // A reader that stopped early (`| head`) is not an error.
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        result => result.map_err(|e| CliError::Runtime(format!("stdout: {e}"))),
    }
}

/// Prints one row per float layer (`layers`, in the order of `plans`) and what the plans leave out.
fn print_table<'a>(plans: &[LayerPlan], layers: impl Iterator<Item = &'a Layer>, int8: usize) -> std::io::Result<()> {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    let width = plans.iter().map(|p| p.name.chars().count()).max().unwrap_or(0).max(5);
    writeln!(out, "{:<width$} {:<36} {:<22} {:>10}", "layer", "shape", "plan", "GMACs")?;
    for (plan, layer) in plans.iter().zip(layers) {
        let shape = layer.shape_text();
        writeln!(out, "{:<width$} {shape:<36} {:<22} {:>10.3}", plan.name, plan.plan, plan.macs as f64 / 1e9)?;
    }
    writeln!(
        out,
        "the fp32 planner's choices as fitted on the H200 (`/kS`: S K-slices; `gemm_small*` split K in slices of \
         their own, not shown); on a device a smaller binding limit can allow fewer K-slices, a kernel the device \
         cannot run falls back, f16 multiplicands can take the tensor cores, and a tuned configuration runs \
         instead where there is one"
    )?;
    if int8 > 0 {
        writeln!(out, "{int8} int8 layer(s) left out: their kernel depends on the device's cooperative matrices")?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plans_each_float_layer_and_counts_the_int8_ones() {
        let layers = Layer::parse_suite(include_str!("../../../bench/suites/default.json")).unwrap();
        let (plans, int8) = plan_layers(&layers).unwrap();
        assert_eq!(plans.len() + int8, layers.len());
        assert!(int8 > 0);
        let dcgan = plans.iter().find(|p| p.name == "dcgan_convT_n8").unwrap();
        // R53 (v49): 128×128 tiles in 4 K-slices.
        assert_eq!((dcgan.kernel, dcgan.tile_n, dcgan.split_k), ("gemm_k16", Some(128), Some(4)));
        assert_eq!(dcgan.plan, "gemm_k16/k4");
        let depthwise = plans.iter().find(|p| p.name == "mobilenetv2_dw_n8").unwrap();
        assert_eq!((depthwise.kernel, depthwise.tile_n, depthwise.split_k), ("depthwise_vec4", None, None));
    }
}
