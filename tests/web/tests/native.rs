//! The web suite, natively: the same cases `cargo xtask web-test` runs under Dawn, on the test
//! adapter at its own limits and at WebGPU's defaults.

use wgconv_web_tests::{Limits, context, run_suite};

fn run(limits: Limits) {
    let ctx = pollster::block_on(context(limits)).unwrap_or_else(|e| panic!("{e}"));
    let report = pollster::block_on(run_suite(&ctx, limits));
    println!("{}", report.summary());
    assert_eq!(report.failures().count(), 0, "{}", report.summary());
}

#[test]
fn suite_passes_at_the_adapters_limits() {
    run(Limits::Adapter);
}

#[test]
fn suite_passes_at_webgpu_default_limits() {
    run(Limits::WebGpuDefaults);
}
