//! The browser example's demo, natively on the test adapter: the code the page runs is checked
//! by `cargo test` too.

#[test]
fn demo_matches_the_reference() {
    let ctx = pollster::block_on(wgconv::Context::new_async()).unwrap_or_else(|e| panic!("{e}"));
    let report = pollster::block_on(wgconv_web_example::run_demo(&ctx, 64)).unwrap_or_else(|e| panic!("{e}"));
    println!("{}", report.text());
    assert!(report.passed(), "{}", report.text());
    assert_eq!(report.layers[0].output_shape, [1, 128, 16, 16]);
    assert_eq!(report.layers[1].output_shape, [1, 256, 16, 16]);
    assert!(report.layers.iter().all(|l| l.gpu_ms > 0.0 && l.first_call_ms > 0.0));
}
