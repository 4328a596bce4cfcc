//! The wasm32 entry point: `runSuite(limits)` for `tests/dawn/run_wasm.mjs` (or a page).

use serde::Serialize;
use wasm_bindgen::prelude::*;

use crate::{Limits, Report};

#[wasm_bindgen]
extern "C" {
    #[wasm_bindgen(js_namespace = console, js_name = error)]
    fn console_error(message: &str);
}

/// What `runSuite` resolves to (as JSON): the shape every wasm entry that
/// `tests/dawn/run_wasm.mjs` runs returns.
#[derive(Serialize)]
struct RunResult {
    passed: bool,
    text: String,
    report: Report,
}

/// Runs the suite on a context with `limits` (`"adapter"` or `"webgpu-defaults"`) and resolves
/// to `{ passed, text, report }` as JSON; rejects only when no context can be made.
#[wasm_bindgen(js_name = runSuite)]
pub async fn run_suite(limits: String) -> Result<String, JsValue> {
    // A panic would otherwise surface as a bare `unreachable` trap.
    std::panic::set_hook(Box::new(|info| console_error(&info.to_string())));
    let limits = Limits::from_name(&limits).ok_or_else(|| JsValue::from_str(&format!("unknown limits {limits:?}")))?;
    let ctx = crate::context(limits).await.map_err(|e| JsValue::from_str(&e))?;
    let report = crate::run_suite(&ctx, limits).await;
    let result = RunResult { passed: report.passed(), text: report.summary(), report };
    serde_json::to_string(&result).map_err(|e| JsValue::from_str(&e.to_string()))
}
