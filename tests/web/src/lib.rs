//! wgconv's conformance suite for the web: every op and every kernel the planner can choose
//! there, against the CPU reference in f64 with the native tests' tolerances, plus typed errors,
//! timing and tuning — written once against the async API, so the same code runs
//!
//! - built for `wasm32-unknown-unknown` and run under Dawn (Chrome's WebGPU) in node by
//!   `cargo xtask web-test`, through the `runSuite` export (`src/web.rs`), and
//! - natively on the test adapter by `cargo test` (`tests/native.rs`), so a failure under Dawn is
//!   told apart from a failure of the suite itself.
//!
//! Shapes are small: the suite runs on software rasterisers (lavapipe) in CI.

mod cases;
#[cfg(target_arch = "wasm32")]
mod web;

use serde::Serialize;
use wgconv::{AdapterRequest, Context};

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

/// A context on the adapter `AdapterRequest::from_env` picks (the browser's WebGPU on the web)
/// with `limits`: the same path — features, error handling — either way.
pub async fn context(limits: Limits) -> Result<Context, String> {
    let request = AdapterRequest {
        limits: match limits {
            Limits::Adapter => None,
            Limits::WebGpuDefaults => Some(wgpu::Limits::default()),
        },
        ..AdapterRequest::from_env()
    };
    Context::with_request_async(&request).await.map_err(|e| e.to_string())
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
