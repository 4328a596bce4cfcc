//! The same check as `cargo xtask gen-shaders --check`: editing a `.wgsl` without regenerating
//! fails `cargo test`.

use std::path::Path;

#[test]
fn generated_bindings_are_fresh() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
    // As xtask's TARGETS: the runtime's modules implement its `GeneratedShader`.
    let runtime = wgconv_codegen::Options::default().with_shader_trait("crate::pipelines::GeneratedShader");
    for (shaders, out, options) in [
        ("shaders", "crates/wgconv/src/shaders", runtime),
        ("tests/fixtures/shaders", "tests/src/generated", wgconv_codegen::Options::default()),
    ] {
        let files = wgconv_codegen::fs::generate_dir_with(&root.join(shaders), shaders, &options).unwrap();
        let problems = wgconv_codegen::fs::check_dir(&root.join(out), &files).unwrap();
        assert!(problems.is_empty(), "{}\nstale bindings in {out}: run `cargo xtask gen-shaders`", problems.join("\n"));
    }
}

#[test]
fn check_reports_a_stale_file_with_a_diff() {
    let dir = std::env::temp_dir().join(format!("wgconv-stale-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
    let files = wgconv_codegen::fs::generate_dir(&root.join("tests/fixtures/shaders"), "fixtures").unwrap();
    wgconv_codegen::fs::write_dir(&dir, &files).unwrap();
    assert!(wgconv_codegen::fs::check_dir(&dir, &files).unwrap().is_empty());

    let target = dir.join("layout_zoo.rs");
    let edited = std::fs::read_to_string(&target).unwrap().replace("pub bias: f32", "pub bias: u32");
    std::fs::write(&target, edited).unwrap();
    std::fs::write(dir.join("orphan.rs"), "// no shader").unwrap();
    std::fs::remove_file(dir.join("overrides.rs")).unwrap();
    let problems = wgconv_codegen::fs::check_dir(&dir, &files).unwrap().join("\n");
    assert!(problems.contains("-    pub bias: u32"), "{problems}");
    assert!(problems.contains("+    pub bias: f32"), "{problems}");
    assert!(problems.contains("orphan.rs: generated file without a shader"), "{problems}");
    assert!(problems.contains("overrides.rs (on disk)"), "{problems}");
    std::fs::remove_dir_all(&dir).unwrap();
}
