//! The wasm32 entry point the page (`index.html`) and `tests/dawn/run_wasm.mjs` call.

use serde::Serialize;
use wasm_bindgen::prelude::*;

#[wasm_bindgen]
extern "C" {
    #[wasm_bindgen(js_namespace = console, js_name = error)]
    fn console_error(message: &str);
}

/// What `runDemo` resolves to (as JSON).
#[derive(Serialize)]
struct RunResult<T> {
    passed: bool,
    text: String,
    report: T,
}

fn install_panic_hook() {
    // A panic would otherwise surface as a bare `unreachable` trap.
    std::panic::set_hook(Box::new(|info| console_error(&info.to_string())));
}

fn to_json<T: Serialize>(result: &RunResult<T>) -> Result<String, JsValue> {
    serde_json::to_string(result).map_err(|e| JsValue::from_str(&e.to_string()))
}

/// Creates a context on the page's WebGPU adapter, runs [`crate::run_demo`] on a `size`² image
/// and resolves to `{ passed, text, report }` as JSON; rejects with the error's message when a
/// step fails (no WebGPU, a device error).
#[wasm_bindgen(js_name = runDemo)]
pub async fn run_demo(size: u32) -> Result<String, JsValue> {
    install_panic_hook();
    let error = |e: wgconv::Error| JsValue::from_str(&e.to_string());
    let ctx = wgconv::Context::new_async().await.map_err(error)?;
    let report = crate::run_demo(&ctx, size as usize).await.map_err(error)?;
    to_json(&RunResult { passed: report.passed(), text: report.text(), report })
}

/// Times every layer of `suite` (a `bench/suites/*.json` file's text) with `samples` samples of
/// `launches` back-to-back runs each, and resolves to `{ passed, text, report }` as JSON with
/// one `BenchResult` per layer; rejects on the first layer that fails.
#[wasm_bindgen(js_name = runBench)]
pub async fn run_bench(suite: String, samples: u32, launches: u32) -> Result<String, JsValue> {
    install_panic_hook();
    let layers =
        crate::bench::SuiteLayer::parse_suite(&suite).map_err(|e| JsValue::from_str(&format!("suite: {e}")))?;
    let ctx = wgconv::Context::new_async().await.map_err(|e| JsValue::from_str(&e.to_string()))?;
    let sampling = wgconv::timing::Sampling { samples, launches, ..Default::default() };
    let results = crate::bench::run_bench(&ctx, &layers, &sampling).await.map_err(|e| JsValue::from_str(&e))?;
    let text = format!("{}\n{}", ctx.describe(), crate::bench::table(&results));
    to_json(&RunResult { passed: true, text, report: results })
}
