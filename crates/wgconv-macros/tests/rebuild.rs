//! `#[wgsl_layout]` makes cargo rebuild the crate using it when its shader changes: a real
//! crate with an annotated struct (and nothing else reading the shader) is built, the WGSL
//! struct gains a field, and the next `cargo build` must fail naming it — not print "Finished"
//! from its cache, as it did when the macro read the shader behind cargo's back.
//! (`include_wgsl_bindings!` has always tracked its shader with `include_str!`.)

use std::{
    path::{Path, PathBuf},
    process::Command,
};

const SHADER_V1: &str = "struct Params {\n    a: u32,\n    b: f32,\n}\n\n@group(0) @binding(0) var<uniform> params: Params;\n@group(0) @binding(1) var<storage, read_write> out: array<f32>;\n\n@compute @workgroup_size(1)\nfn main() {\n    out[0] = f32(params.a) + params.b;\n}\n";

fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..").canonicalize().unwrap()
}

fn cargo_build(dir: &Path, target: &Path) -> (bool, String) {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let out = Command::new(cargo)
        .args(["build", "--offline", "--quiet"])
        .current_dir(dir)
        .env("CARGO_TARGET_DIR", target)
        .output()
        .expect("cargo runs");
    (out.status.success(), String::from_utf8_lossy(&out.stderr).into_owned())
}

#[test]
fn editing_the_shader_reruns_the_layout_check() {
    let root = workspace_root();
    // A directory of its own per run (concurrent runs do not share one).
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("rebuild-user-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("src")).unwrap();
    let macros = root.join("crates/wgconv-macros");
    let manifest = format!(
        "[package]\nname = \"rebuild-user\"\nversion = \"0.0.0\"\nedition = \"2024\"\npublish = false\n\n[dependencies]\nwgconv-macros = {{ path = {:?} }}\n\n[workspace]\n",
        macros.display().to_string()
    );
    std::fs::write(dir.join("Cargo.toml"), manifest).unwrap();
    // The workspace's lockfile pins the same versions, so the build needs no network.
    std::fs::copy(root.join("Cargo.lock"), dir.join("Cargo.lock")).unwrap();
    std::fs::write(dir.join("params.wgsl"), SHADER_V1).unwrap();
    std::fs::write(
        dir.join("src/lib.rs"),
        "#[wgconv_macros::wgsl_layout(shader = \"params.wgsl\", ty = \"Params\")]\n#[repr(C)]\n#[derive(Clone, Copy)]\npub struct Params {\n    pub a: u32,\n    pub b: f32,\n}\n",
    )
    .unwrap();
    // Shared across runs (inside this build's target directory) so that only the first one
    // compiles the dependencies.
    let target = Path::new(env!("CARGO_TARGET_TMPDIR")).join("rebuild-check");

    let (ok, stderr) = cargo_build(&dir, &target);
    assert!(ok, "the first build must pass (it builds offline: `cargo fetch` first if crates are missing):\n{stderr}");

    // The WGSL struct gains a field; nothing else changes.
    write_later(&dir.join("params.wgsl"), &SHADER_V1.replace("    b: f32,\n", "    b: f32,\n    c: u32,\n"));
    let (ok, stderr) = cargo_build(&dir, &target);
    assert!(!ok, "the build after the shader edit must fail, not come from cache");
    assert!(stderr.contains("`c: u32`"), "{stderr}");

    // And back: the check passes again.
    write_later(&dir.join("params.wgsl"), SHADER_V1);
    let (ok, stderr) = cargo_build(&dir, &target);
    assert!(ok, "{stderr}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Writes `text` to `path` with a modification time in the future, so cargo sees the edit even
/// where the file system's timestamps are coarser than the time between the two builds.
fn write_later(path: &Path, text: &str) {
    std::fs::write(path, text).unwrap();
    let later = std::time::SystemTime::now() + std::time::Duration::from_secs(2);
    std::fs::File::options().write(true).open(path).unwrap().set_modified(later).unwrap();
}
