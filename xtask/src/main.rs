//! Project automation. `cargo xtask gen-shaders [--check]` (re)generates the typed bindings of
//! `shaders/*.wgsl` into `crates/wgconv/src/shaders/`; `--check` only compares and fails on drift.

use std::{path::PathBuf, process::ExitCode};

fn workspace_root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("xtask lives one level below the workspace root")
        .to_path_buf()
}

/// (shader directory, output directory, trait the modules implement), relative to the workspace
/// root: the runtime's kernels, which implement the runtime's `GeneratedShader` so one generic
/// function records them all, and the fixture shaders whose generated modules the integration
/// tests compile and run. `tests/tests/codegen_fresh.rs` checks the same list.
const TARGETS: [(&str, &str, Option<&str>); 2] = [
    ("shaders", "crates/wgconv/src/shaders", Some("crate::pipelines::GeneratedShader")),
    ("tests/fixtures/shaders", "tests/src/generated", None),
];

fn gen_shaders(check: bool) -> Result<(), String> {
    for (shaders, out, shader_trait) in TARGETS {
        gen_one(shaders, out, shader_trait, check)?;
    }
    Ok(())
}

fn gen_one(shaders: &str, out: &str, shader_trait: Option<&str>, check: bool) -> Result<(), String> {
    let root = workspace_root();
    let options = shader_trait
        .map_or_else(wgconv_codegen::Options::default, |t| wgconv_codegen::Options::default().with_shader_trait(t));
    let files =
        wgconv_codegen::fs::generate_dir_with(&root.join(shaders), shaders, &options).map_err(|e| e.to_string())?;
    let out_dir = root.join(out);
    if check {
        let problems = wgconv_codegen::fs::check_dir(&out_dir, &files).map_err(|e| e.to_string())?;
        if !problems.is_empty() {
            return Err(format!(
                "{}\ngenerated shader bindings are stale: run `cargo xtask gen-shaders`",
                problems.join("\n")
            ));
        }
        println!("{out}: {} generated files are fresh", files.len());
    } else {
        wgconv_codegen::fs::write_dir(&out_dir, &files).map_err(|e| e.to_string())?;
        println!("wrote {} files to {}", files.len(), out_dir.display());
    }
    Ok(())
}

const USAGE: &str = "usage: cargo xtask gen-shaders [--check] | cargo xtask demo";

/// Whether a Vulkan loader and at least one driver manifest are installed.
fn vulkan_driver_present() -> bool {
    let manifests = ["/usr/share/vulkan/icd.d", "/etc/vulkan/icd.d", "/usr/local/share/vulkan/icd.d"]
        .iter()
        .filter_map(|d| std::fs::read_dir(d).ok())
        .flatten()
        .any(|e| e.ok().is_some_and(|e| e.path().extension().is_some_and(|x| x == "json")));
    let loader = [
        "/usr/lib/x86_64-linux-gnu/libvulkan.so.1",
        "/usr/lib/aarch64-linux-gnu/libvulkan.so.1",
        "/usr/lib/libvulkan.so.1",
        "/usr/lib64/libvulkan.so.1",
    ]
    .iter()
    .any(|p| std::path::Path::new(p).exists());
    manifests && loader
        || std::env::var_os("VK_DRIVER_FILES").is_some()
        || std::env::var_os("VK_ICD_FILENAMES").is_some()
}

fn run(cmd: &mut std::process::Command) -> Result<(), String> {
    let status = cmd.status().map_err(|e| format!("{cmd:?}: {e}"))?;
    if status.success() { Ok(()) } else { Err(format!("{cmd:?} failed with {status}")) }
}

/// The main job: make sure a Vulkan driver exists, then `wgconv info` and `wgconv bench --suite quick`.
fn demo() -> Result<(), String> {
    const INSTALL: &str = "apt-get update && apt-get install -y mesa-vulkan-drivers libvulkan1";
    if !vulkan_driver_present() {
        let is_root = std::process::Command::new("id").arg("-u").output().is_ok_and(|o| o.stdout.starts_with(b"0"));
        if !is_root {
            return Err(format!(
                "no Vulkan driver found. Install the software one (lavapipe) with:\n    sudo sh -c '{INSTALL}'\nthen run `cargo xtask demo` again"
            ));
        }
        println!("no Vulkan driver found; installing Mesa's software driver (lavapipe): {INSTALL}");
        run(std::process::Command::new("sh").arg("-c").arg(format!("DEBIAN_FRONTEND=noninteractive {INSTALL}")))?;
    }
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let wgconv = |args: &[&str]| {
        let mut cmd = std::process::Command::new(&cargo);
        cmd.current_dir(workspace_root()).args(["run", "--quiet", "--release", "-p", "wgconv-cli", "--"]).args(args);
        run(&mut cmd)
    };
    wgconv(&["info"])?;
    wgconv(&["bench", "--suite", "quick"])
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.iter().map(String::as_str).collect::<Vec<_>>().as_slice() {
        ["gen-shaders"] => gen_shaders(false),
        ["gen-shaders", "--check"] => gen_shaders(true),
        ["demo"] => demo(),
        _ => {
            eprintln!("{USAGE}");
            return ExitCode::from(2);
        }
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}
