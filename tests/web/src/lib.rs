//! wgconv's conformance suite for the web: every op and every kernel the planner can choose
//! there, against the CPU reference in f64 with the native tests' tolerances, plus typed errors,
//! timing and tuning — written once against the async API, so the same code runs
//!
//! - built for `wasm32-unknown-unknown` and run under Dawn (Chrome's WebGPU) in node by
//!   `cargo xtask web-test`, through the exported [`web`] entry point, and
//! - natively on the test adapter by `cargo test` (`tests/native.rs`), so a failure under Dawn is
//!   told apart from a failure of the suite itself.
//!
//! Shapes are small: the suite runs on software rasterisers (lavapipe) in CI.

mod cases;
#[cfg(target_arch = "wasm32")]
mod web;

use serde::Serialize;
use wgconv::Context;

pub use cases::run_suite;

/// The limits a suite context asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Limits {
    /// The adapter's own limits, as `Context::new_async` asks for them.
    Adapter,
    /// WebGPU's default limits (16 KiB of workgroup memory, 256 invocations, 128 MiB storage
    /// bindings): all a page may get without asking, and what some browsers grant.
    WebGpuDefaults,
}

impl Limits {
    /// The name the JSON report and the runners use.
    pub fn name(self) -> &'static str {
        match self {
            Limits::Adapter => "adapter",
            Limits::WebGpuDefaults => "webgpu-defaults",
        }
    }

    /// The limits called `name` (as [`Limits::name`] spells it).
    pub fn from_name(name: &str) -> Option<Limits> {
        [Limits::Adapter, Limits::WebGpuDefaults].into_iter().find(|l| l.name() == name)
    }
}

/// A context on the first adapter (the browser's WebGPU on the web) with `limits`.
pub async fn context(limits: Limits) -> Result<Context, String> {
    match limits {
        Limits::Adapter => Context::new_async().await.map_err(|e| e.to_string()),
        Limits::WebGpuDefaults => {
            let instance = wgpu::Instance::new(wgpu::InstanceDescriptor::new_without_display_handle());
            let adapter = instance
                .request_adapter(&wgpu::RequestAdapterOptions::default())
                .await
                .map_err(|e| format!("no adapter: {e}"))?;
            let descriptor = wgpu::DeviceDescriptor {
                label: Some("wgconv web suite (WebGPU default limits)"),
                required_limits: wgpu::Limits::default(),
                ..Default::default()
            };
            let (device, queue) =
                adapter.request_device(&descriptor).await.map_err(|e| format!("request_device: {e}"))?;
            Ok(Context::from_device(device, queue))
        }
    }
}

/// One case's result.
#[derive(Clone, Debug, Serialize)]
pub struct Outcome {
    /// What was checked.
    pub name: String,
    /// Whether it passed.
    pub passed: bool,
    /// The measured facts (kernel, error) when it passed; what went wrong when it did not.
    pub detail: String,
    /// Wall-clock milliseconds the case took, pipeline compilation included.
    pub ms: f64,
}

/// The suite's results on one context.
#[derive(Clone, Debug, Serialize)]
pub struct Report {
    /// The adapter and backend ([`Context::describe`]).
    pub adapter: String,
    /// [`Limits::name`] of the context.
    pub limits: String,
    /// The context's workgroup-memory limit in bytes.
    pub workgroup_storage_bytes: u32,
    /// Every case, in the order run.
    pub outcomes: Vec<Outcome>,
}

impl Report {
    /// The cases that failed.
    pub fn failures(&self) -> impl Iterator<Item = &Outcome> {
        self.outcomes.iter().filter(|o| !o.passed)
    }

    /// Whether every case passed.
    pub fn passed(&self) -> bool {
        self.outcomes.iter().all(|o| o.passed)
    }

    /// A line per case and a summary, as the runners print them.
    pub fn summary(&self) -> String {
        let mut text = format!("{} [{} limits]\n", self.adapter, self.limits);
        for o in &self.outcomes {
            let status = if o.passed { "ok  " } else { "FAIL" };
            text += &format!("  {status} {}: {} ({:.0} ms)\n", o.name, o.detail, o.ms);
        }
        let failed = self.failures().count();
        text += &format!("{} of {} cases passed", self.outcomes.len() - failed, self.outcomes.len());
        text
    }
}
