//! `cargo xtask gen-shaders --check` as a test: on the real tree (editing a template or a shader
//! without regenerating fails `cargo test`), and on copies of it that were edited.

use std::path::{Path, PathBuf};

use xtask::gen_shaders::{FIX, gen_shaders};
use xtask::workspace::workspace_root;

fn root() -> PathBuf {
    workspace_root().unwrap()
}

#[test]
fn generated_files_are_fresh() {
    if let Err(e) = gen_shaders(&root(), true) {
        panic!("{e}");
    }
}

/// A temporary copy of every directory the generator reads or writes, removed when dropped.
struct Copy(PathBuf);

impl Copy {
    fn new(tag: &str) -> Self {
        let dir = std::env::temp_dir().join(format!("xtask-{tag}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        for sub in ["shaders", "crates/wgconv/src/shaders", "tests/fixtures/shaders", "tests/src/generated"] {
            copy_dir(&root().join(sub), &dir.join(sub));
        }
        Self(dir)
    }

    fn edit(&self, file: &str, from: &str, to: &str) {
        let path = self.0.join(file);
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(text.contains(from), "{file} has no {from:?}");
        std::fs::write(&path, text.replacen(from, to, 1)).unwrap();
    }
}

impl Drop for Copy {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let path = entry.unwrap().path();
        let target = to.join(path.file_name().unwrap());
        if path.is_dir() { copy_dir(&path, &target) } else { std::fs::copy(&path, &target).map(drop).unwrap() }
    }
}

#[test]
fn a_template_edit_makes_its_shader_and_bindings_stale() {
    let copy = Copy::new("template-edit");
    gen_shaders(&copy.0, true).unwrap();
    copy.edit("shaders/templates/quantize.wgsl", "override wg_size: u32 = 256;", "override wg_size: u32 = 128;");
    let err = gen_shaders(&copy.0, true).unwrap_err();
    assert!(err.contains("  shaders/quantize.wgsl\n"), "{err}");
    assert!(err.contains("  crates/wgconv/src/shaders/quantize.rs\n"), "{err}");
    assert!(err.contains("+override wg_size: u32 = 128;"), "{err}");
    assert!(err.contains(&format!("run `{FIX}`")), "{err}");
    assert!(!err.contains("shaders/dequantize.wgsl"), "{err}");
    // Regenerating fixes it.
    gen_shaders(&copy.0, false).unwrap();
    gen_shaders(&copy.0, true).unwrap();
}

#[test]
fn a_prelude_edit_makes_every_shader_that_imports_it_stale() {
    let copy = Copy::new("prelude-edit");
    copy.edit("shaders/templates/prelude/conv.wgsl", "    has_bias: u32,", "    has_bias: u32,\n    extra: u32,");
    let err = gen_shaders(&copy.0, true).unwrap_err();
    for name in ["conv2d", "conv2d_gemm", "conv2d_coop", "conv2d_depthwise_vec4"] {
        assert!(err.contains(&format!("  shaders/{name}.wgsl\n")), "{name}: {err}");
        assert!(err.contains(&format!("  crates/wgconv/src/shaders/{name}.rs\n")), "{name}: {err}");
    }
    assert!(!err.contains("shaders/quantize.wgsl"), "{err}");
    assert!(err.contains(&format!("run `{FIX}`")), "{err}");
}

#[test]
fn a_shader_edited_by_hand_is_stale_and_a_shader_without_template_is_refused() {
    let copy = Copy::new("shader-edit");
    copy.edit("shaders/conv_pack.wgsl", "override wg_size", "override  wg_size");
    let err = gen_shaders(&copy.0, true).unwrap_err();
    assert!(err.contains("  shaders/conv_pack.wgsl\n"), "{err}");
    // The bindings are made from the expansion, which is unchanged.
    assert!(!err.contains("crates/wgconv/src/shaders/conv_pack.rs"), "{err}");

    std::fs::write(copy.0.join("shaders/new_kernel.wgsl"), "").unwrap();
    let err = gen_shaders(&copy.0, false).unwrap_err();
    assert!(err.contains("shaders/new_kernel.wgsl has no template shaders/templates/new_kernel.wgsl"), "{err}");
}

#[test]
fn a_template_error_names_the_template() {
    let copy = Copy::new("template-error");
    copy.edit("shaders/templates/conv2d.wgsl", "{{ conv.activate() }}", "{{ conv.activat() }}");
    let err = gen_shaders(&copy.0, true).unwrap_err();
    assert!(err.contains("shaders/templates/conv2d.wgsl"), "{err}");
}

#[test]
fn check_reports_a_stale_binding_with_a_diff() {
    let copy = Copy::new("stale-binding");
    let dir = copy.0.join("tests/src/generated");
    let target = dir.join("layout_zoo.rs");
    let edited = std::fs::read_to_string(&target).unwrap().replace("pub bias: f32", "pub bias: u32");
    std::fs::write(&target, edited).unwrap();
    std::fs::write(dir.join("orphan.rs"), "// no shader").unwrap();
    std::fs::remove_file(dir.join("overrides.rs")).unwrap();
    let problems = gen_shaders(&copy.0, true).unwrap_err();
    assert!(problems.contains("-    pub bias: u32"), "{problems}");
    assert!(problems.contains("+    pub bias: f32"), "{problems}");
    assert!(problems.contains("orphan.rs: generated file without a shader"), "{problems}");
    assert!(problems.contains("overrides.rs (on disk)"), "{problems}");
    for name in ["layout_zoo.rs", "orphan.rs", "overrides.rs"] {
        assert!(problems.contains(&format!("  tests/src/generated/{name}\n")), "{name}: {problems}");
    }
}

#[test]
fn the_binary_works_on_the_workspace_cargo_run_names_not_the_one_it_was_built_in() {
    let copy = Copy::new("binary");
    std::fs::write(copy.0.join("Cargo.toml"), "[workspace]\n").unwrap();
    std::fs::create_dir_all(copy.0.join("xtask")).unwrap();
    copy.edit("shaders/templates/dequantize.wgsl", "override wg_size: u32 = 256;", "override wg_size: u32 = 64;");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_xtask"))
        .args(["gen-shaders", "--check"])
        .env("CARGO_MANIFEST_DIR", copy.0.join("xtask"))
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "{stderr}");
    assert!(stderr.contains("  shaders/dequantize.wgsl\n"), "{stderr}");
    // The edit exists only in the copy: the binary read the copy, not the tree it was built in.
    assert!(stderr.contains("+override wg_size: u32 = 64;"), "{stderr}");
}
