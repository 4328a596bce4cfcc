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

#[test]
fn bench_times_every_op_of_a_suite() {
    use wgconv_web_example::bench::{SuiteLayer, run_bench};
    let ctx = pollster::block_on(wgconv::Context::new_async()).unwrap_or_else(|e| panic!("{e}"));
    let suite = r#"[
      {"name": "c", "op": "conv2d", "n": 1, "ic": 8, "oc": 16, "h": 12, "w": 12, "k": 3, "stride": 1, "padding": 1, "groups": 1},
      {"name": "t", "op": "conv_transpose2d", "n": 1, "ic": 8, "oc": 4, "h": 6, "w": 6, "k": 4, "stride": 2, "padding": 1, "groups": 1},
      {"name": "q", "op": "q8_conv_pw", "n": 1, "ic": 16, "oc": 8, "h": 8, "w": 8, "k": 1, "stride": 1, "padding": 0, "groups": 1}
    ]"#;
    let layers = SuiteLayer::parse_suite(suite).unwrap();
    let sampling = wgconv::timing::Sampling { samples: 2, launches: 2, warm_up_ms: 0.0, ..Default::default() };
    let results = pollster::block_on(run_bench(&ctx, &layers, &sampling)).unwrap();
    assert_eq!(results.iter().map(|r| r.name.as_str()).collect::<Vec<_>>(), ["c", "t", "q"]);
    assert!(results.iter().all(|r| r.median_ms > 0.0 && r.gflops > 0.0 && !r.kernel.is_empty()), "{results:?}");
    // An unknown op is refused when the suite is read, naming it.
    let err = SuiteLayer::parse_suite(&suite.replace("q8_conv_pw", "pool")).unwrap_err().to_string();
    assert!(err.contains("unknown variant `pool`"), "{err}");
    // The suite files of bench/suites parse.
    let default =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../bench/suites/default.json")).unwrap();
    assert!(SuiteLayer::parse_suite(&default).unwrap().len() >= 16);
}
