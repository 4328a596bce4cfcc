//! The wasm32 entry point the page (`index.html`) and `tests/dawn/run_wasm.mjs` call.

use serde::Serialize;
use wasm_bindgen::prelude::*;

use crate::DemoReport;

#[wasm_bindgen]
extern "C" {
    #[wasm_bindgen(js_namespace = console, js_name = error)]
    fn console_error(message: &str);
}

/// What `runDemo` resolves to (as JSON).
#[derive(Serialize)]
struct RunResult {
    passed: bool,
    text: String,
    report: DemoReport,
}

/// Creates a context on the page's WebGPU adapter, runs [`crate::run_demo`] on a `size`² image
/// and resolves to `{ passed, text, report }` as JSON; rejects with the error's message when a
/// step fails (no WebGPU, a device error).
#[wasm_bindgen(js_name = runDemo)]
pub async fn run_demo(size: u32) -> Result<String, JsValue> {
    // A panic would otherwise surface as a bare `unreachable` trap.
    std::panic::set_hook(Box::new(|info| console_error(&info.to_string())));
    let error = |e: wgconv::Error| JsValue::from_str(&e.to_string());
    let ctx = wgconv::Context::new_async().await.map_err(error)?;
    let report = crate::run_demo(&ctx, size as usize).await.map_err(error)?;
    let result = RunResult { passed: report.passed(), text: report.text(), report };
    serde_json::to_string(&result).map_err(|e| JsValue::from_str(&e.to_string()))
}
