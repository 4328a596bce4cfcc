//! Project automation. `cargo xtask gen-shaders [--check]` expands the WGSL templates of
//! `shaders/templates/` into `shaders/*.wgsl` and generates their typed bindings into
//! `crates/wgconv/src/shaders/` (and the test fixtures' into `tests/src/generated/`); `--check`
//! writes nothing and fails on any stale file. `cargo xtask demo` runs the CLI's quick benchmark.
//! `cargo xtask web [--size N]` builds the browser example for wasm32 and runs it under Dawn in
//! node; `cargo xtask web-test` runs the web conformance suite there too.

use std::process::ExitCode;

use xtask::{
    gen_shaders::gen_shaders,
    web::{self, run},
    workspace::workspace_root,
};

fn run_gen_shaders(check: bool) -> Result<(), String> {
    for line in gen_shaders(&workspace_root()?, check)? {
        println!("{line}");
    }
    Ok(())
}

const USAGE: &str = "usage: cargo xtask gen-shaders [--check] | demo | web [--size N] | web-test";

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

/// The main job: make sure a Vulkan driver exists, then `wgconv info` and `wgconv bench --suite quick`.
fn demo() -> Result<(), String> {
    const INSTALL: &str = "apt-get update && apt-get install -y mesa-vulkan-drivers libvulkan1";
    if !vulkan_driver_present() {
        if !web::is_root() {
            return Err(format!(
                "no Vulkan driver found. Install the software one (lavapipe) with:\n    sudo sh -c '{INSTALL}'\nthen run `cargo xtask demo` again"
            ));
        }
        println!("no Vulkan driver found; installing Mesa's software driver (lavapipe): {INSTALL}");
        web::apt(INSTALL)?;
    }
    let root = workspace_root()?;
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let wgconv = |args: &[&str]| {
        let mut cmd = std::process::Command::new(&cargo);
        cmd.current_dir(&root).args(["run", "--quiet", "--release", "-p", "wgconv-cli", "--"]).args(args);
        run(&mut cmd)
    };
    wgconv(&["info"])?;
    wgconv(&["bench", "--suite", "quick"])
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.iter().map(String::as_str).collect::<Vec<_>>().as_slice() {
        ["gen-shaders"] => run_gen_shaders(false),
        ["gen-shaders", "--check"] => run_gen_shaders(true),
        ["demo"] => demo(),
        ["web"] => workspace_root().and_then(|root| web::web(&root, 224)),
        ["web", "--size", size] => match size.parse() {
            Ok(size) if size >= 8 => workspace_root().and_then(|root| web::web(&root, size)),
            _ => Err(format!("--size takes an image size of at least 8 pixels, not {size:?}")),
        },
        ["web-test"] => workspace_root().and_then(|root| web::web_test(&root)),
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
