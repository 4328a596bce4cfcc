//! `cargo xtask web` and `cargo xtask web-test`: build the web crates (`examples/web`,
//! `tests/web`) for `wasm32-unknown-unknown`, wrap them with wasm-bindgen, and run them under
//! Dawn — the WebGPU implementation inside Chrome — in node.
//!
//! rustup cannot download the wasm32 standard library on the machines this project is built on,
//! so the build uses Debian's second toolchain, `rustc-web` (Rust 1.96 with its std source), and
//! builds std from source (`-Zbuild-std`, enabled on a stable compiler by `RUSTC_BOOTSTRAP=1`).
//! wasm-bindgen-cli must be exactly the version of the `wasm-bindgen` crate in Cargo.lock.
//!
//! Elsewhere, `WGCONV_WASM_CARGO=/path/to/cargo` names a cargo whose toolchain has the
//! `wasm32-unknown-unknown` target installed (e.g. rustup's after `rustup target add
//! wasm32-unknown-unknown`): the build then uses that target's prebuilt std.

use std::{
    path::{Path, PathBuf},
    process::Command,
};

/// Debian's packages of the wasm-capable toolchain: rustc and cargo 1.96, std's source where
/// `-Zbuild-std` looks for it, and `rust-lld` (the wasm32 linker, which needs `lld-22`).
const DEBIAN_PACKAGES: &str = "rustc-web cargo-web rust-web-src rust-web-llvm lld-22";
/// Debian's cargo of that toolchain (rustup's `cargo` in ~/.cargo/bin would shadow it on PATH).
const DEBIAN_CARGO: &str = "/usr/bin/cargo";
/// The workspace's `rust-version`: the oldest Debian toolchain that builds it (bookworm's main
/// archive has rustc-web 1.85; bookworm-security has 1.96).
const MIN_MINOR_VERSION: u32 = 88;
/// Where `rust-web-src` puts std's source.
const STD_SOURCE: &str = "/usr/lib/rustlib/src/rust/library";
const WASM_TARGET: &str = "wasm32-unknown-unknown";

/// A web crate: its package name and where its wasm-bindgen output goes.
struct WebCrate {
    package: &'static str,
    out_dir: &'static str,
}

const EXAMPLE: WebCrate = WebCrate { package: "wgconv-web-example", out_dir: "examples/web/pkg" };
const SUITE: WebCrate = WebCrate { package: "wgconv-web-tests", out_dir: "target/wasm/pkg" };

impl WebCrate {
    /// The JS module wasm-bindgen writes (its wasm file lies beside it, `_bg.wasm`).
    fn module(&self, root: &Path) -> PathBuf {
        root.join(self.out_dir).join(format!("{}.js", self.package.replace('-', "_")))
    }
}

/// `cargo xtask web`: builds the browser example and runs it under Dawn in node on a
/// `size`² image; says how to open it in a browser.
pub fn web(root: &Path, size: u32) -> Result<(), String> {
    build(root, &[EXAMPLE])?;
    set_up_dawn(root)?;
    println!("\nThe example under Dawn (Chrome's WebGPU) in node:");
    run_under_dawn(root, &EXAMPLE, "runDemo", &[&size.to_string()])?;
    println!(
        "\nIn a browser with WebGPU: serve the folder and open it, e.g.\n    python3 -m http.server -d {} 8000\n    → http://localhost:8000/",
        root.join("examples/web").display()
    );
    Ok(())
}

/// `cargo xtask web-test`: builds the web suite and the example, then runs the suite under Dawn
/// at the adapter's limits and at WebGPU's default limits, and the example on a small image.
/// Fails when any of them fails (after running all).
pub fn web_test(root: &Path) -> Result<(), String> {
    build(root, &[SUITE, EXAMPLE])?;
    set_up_dawn(root)?;
    let runs = [(&SUITE, "runSuite", "adapter"), (&SUITE, "runSuite", "webgpu-defaults"), (&EXAMPLE, "runDemo", "64")];
    let mut failed = Vec::new();
    for (krate, export, argument) in runs {
        println!("\n{export}({argument}) under Dawn in node:");
        if let Err(e) = run_under_dawn(root, krate, export, &[argument]) {
            eprintln!("{e}");
            failed.push(format!("{export}({argument})"));
        }
    }
    if failed.is_empty() { Ok(()) } else { Err(format!("failed under Dawn: {}", failed.join(", "))) }
}

/// Builds `crates` for wasm32 in release and writes their wasm-bindgen modules.
fn build(root: &Path, crates: &[WebCrate]) -> Result<(), String> {
    let toolchain = wasm_toolchain()?;
    let wasm_bindgen = ensure_wasm_bindgen(root)?;
    let target_dir = root.join("target/wasm");
    let mut cargo = Command::new(&toolchain.cargo);
    cargo
        .current_dir(root)
        .args(["build", "--release", "--locked", "--target", WASM_TARGET])
        .args(crates.iter().flat_map(|c| ["-p", c.package]));
    // What rustup's cargo set for this xtask (RUSTC, RUSTUP_TOOLCHAIN, RUSTFLAGS, CARGO_*, a
    // library path into rustup's sysroot …) would steer the other toolchain's build.
    for (name, _) in std::env::vars_os() {
        let name = name.to_string_lossy();
        let kept = matches!(name.as_ref(), "CARGO_HOME" | "RUSTUP_HOME");
        if (name.starts_with("RUST") || name.starts_with("CARGO") || name == "LD_LIBRARY_PATH") && !kept {
            cargo.env_remove(name.as_ref());
        }
    }
    cargo.env("CARGO_TARGET_DIR", &target_dir);
    if toolchain.build_std {
        cargo
            .arg("-Zbuild-std=std,panic_abort")
            .env("RUSTC_BOOTSTRAP", "1")
            .env("PATH", format!("/usr/bin:{}", std::env::var("PATH").unwrap_or_default()));
    }
    let std_from = if toolchain.build_std { "std from source; " } else { "" };
    println!("web: building {} for {WASM_TARGET} ({std_from}cold ~10 min on 2 cores)", package_list(crates));
    run_denying_warnings(&mut cargo)?;
    for krate in crates {
        let wasm =
            target_dir.join(WASM_TARGET).join("release").join(format!("{}.wasm", krate.package.replace('-', "_")));
        run(Command::new(&wasm_bindgen)
            .args(["--target", "web", "--no-typescript", "--out-dir"])
            .arg(root.join(krate.out_dir))
            .arg(&wasm))?;
    }
    Ok(())
}

fn package_list(crates: &[WebCrate]) -> String {
    crates.iter().map(|c| c.package).collect::<Vec<_>>().join(" and ")
}

/// Runs a cargo build, echoing its output, and fails when it fails or when one of our crates
/// has warnings: clippy (native only) does not see the code compiled for wasm32 alone.
fn run_denying_warnings(cargo: &mut Command) -> Result<(), String> {
    let mut child = cargo.stderr(std::process::Stdio::piped()).spawn().map_err(|e| format!("{cargo:?}: {e}"))?;
    let stderr = child.stderr.take().ok_or("cargo's stderr was not piped")?;
    let mut warned = Vec::new();
    for line in std::io::BufRead::lines(std::io::BufReader::new(stderr)) {
        let line = line.map_err(|e| e.to_string())?;
        eprintln!("{line}");
        // cargo's summary line: warning: `wgconv` (lib) generated 2 warnings
        if let Some(rest) = line.strip_prefix("warning: `wgconv")
            && rest.contains("generated")
        {
            warned.push(line.clone());
        }
    }
    let status = child.wait().map_err(|e| format!("{cargo:?}: {e}"))?;
    if !status.success() {
        return Err(format!("{cargo:?} failed with {status}"));
    }
    if warned.is_empty() { Ok(()) } else { Err(format!("warnings in the wasm32 build: {}", warned.join("; "))) }
}

/// Installs Dawn and the lavapipe it runs on (`tests/dawn/setup.sh`, idempotent).
fn set_up_dawn(root: &Path) -> Result<(), String> {
    run(Command::new("bash").arg(root.join("tests/dawn/setup.sh")))
}

/// Runs `export(arguments)` of `krate`'s module under Dawn (`tests/dawn/run_wasm.mjs`).
fn run_under_dawn(root: &Path, krate: &WebCrate, export: &str, arguments: &[&str]) -> Result<(), String> {
    run(Command::new("bash")
        .arg(root.join("tests/dawn/run.sh"))
        .arg("run_wasm.mjs")
        .arg(krate.module(root))
        .arg(export)
        .args(arguments))
}

/// The cargo that builds for wasm32, and whether it must build std from source.
struct WasmToolchain {
    cargo: PathBuf,
    build_std: bool,
}

/// `WGCONV_WASM_CARGO` when set; else Debian's rustc-web toolchain, installed when missing and
/// this runs as root (otherwise the error says what to install).
fn wasm_toolchain() -> Result<WasmToolchain, String> {
    if let Some(cargo) = std::env::var_os("WGCONV_WASM_CARGO") {
        return Ok(WasmToolchain { cargo: cargo.into(), build_std: false });
    }
    let debian = WasmToolchain { cargo: DEBIAN_CARGO.into(), build_std: true };
    if debian_toolchain_ready() {
        return Ok(debian);
    }
    let install = format!("apt-get update && apt-get install -y {DEBIAN_PACKAGES}");
    let needs = format!(
        "the wasm32 build needs Debian 12's rustc-web toolchain, 1.{MIN_MINOR_VERSION} or later (bookworm-security has it): cargo at {DEBIAN_CARGO}, std's source at {STD_SOURCE}, rust-lld"
    );
    if !is_root() {
        return Err(format!(
            "{needs}. Install it with\n    sudo sh -c '{install}'\nor point WGCONV_WASM_CARGO at a cargo whose toolchain has the {WASM_TARGET} target"
        ));
    }
    println!("web: installing Debian's rustc-web toolchain: {install}");
    apt(&install)?;
    if debian_toolchain_ready() {
        Ok(debian)
    } else {
        Err(format!("{needs}; after `{install}` it is still missing or older"))
    }
}

/// Whether Debian's cargo is rustc-web's, recent enough, with std's source and the linker.
fn debian_toolchain_ready() -> bool {
    let version = Command::new(DEBIAN_CARGO)
        .arg("--version")
        .output()
        .ok()
        .filter(|o| o.status.success())
        .and_then(|o| minor_version(&String::from_utf8_lossy(&o.stdout)));
    version.is_some_and(|minor| minor >= MIN_MINOR_VERSION)
        && Path::new(STD_SOURCE).exists()
        && Path::new("/usr/bin/rust-lld").exists()
}

/// The minor version in `cargo 1.96.0 (…)`.
pub fn minor_version(version_line: &str) -> Option<u32> {
    let version = version_line.strip_prefix("cargo 1.")?;
    version.split('.').next()?.parse().ok()
}

/// The wasm-bindgen CLI of exactly Cargo.lock's wasm-bindgen version: on PATH, or installed
/// into `target/web-tools` (with the cargo running this xtask) when not found.
fn ensure_wasm_bindgen(root: &Path) -> Result<PathBuf, String> {
    let version =
        locked_version(&std::fs::read_to_string(root.join("Cargo.lock")).map_err(|e| e.to_string())?, "wasm-bindgen")
            .ok_or("Cargo.lock has no wasm-bindgen")?;
    let local = root.join("target/web-tools/bin/wasm-bindgen");
    let reports_version = |binary: &Path| {
        Command::new(binary)
            .arg("--version")
            .output()
            .is_ok_and(|o| String::from_utf8_lossy(&o.stdout).trim() == format!("wasm-bindgen {version}"))
    };
    for candidate in [local.clone(), PathBuf::from("wasm-bindgen")] {
        if reports_version(&candidate) {
            return Ok(candidate);
        }
    }
    println!("web: installing wasm-bindgen-cli {version} into target/web-tools (~4 min)");
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    // Not --locked: the CLI's lockfile pins a crate version the index no longer offers.
    run(Command::new(cargo)
        .args(["install", "wasm-bindgen-cli", "--version", &format!("={version}"), "--root"])
        .arg(root.join("target/web-tools")))?;
    if reports_version(&local) { Ok(local) } else { Err(format!("{} is not wasm-bindgen {version}", local.display())) }
}

/// The version of package `name` in a Cargo.lock's text (the first, if several).
pub fn locked_version(lockfile: &str, name: &str) -> Option<String> {
    let header = format!("name = \"{name}\"\n");
    let rest = &lockfile[lockfile.find(&header)? + header.len()..];
    let line = rest.lines().next()?;
    Some(line.strip_prefix("version = \"")?.strip_suffix('"')?.to_string())
}

/// Whether this runs as root (so it may install system packages).
pub fn is_root() -> bool {
    Command::new("id").arg("-u").output().is_ok_and(|o| String::from_utf8_lossy(&o.stdout).trim() == "0")
}

/// Runs an `apt-get …` command line non-interactively (as root: see [`is_root`]).
pub fn apt(command: &str) -> Result<(), String> {
    run(Command::new("sh").arg("-c").arg(format!("DEBIAN_FRONTEND=noninteractive {command}")))
}

/// Runs `cmd`, failing with the command line when it does.
pub fn run(cmd: &mut Command) -> Result<(), String> {
    let status = cmd.status().map_err(|e| format!("{cmd:?}: {e}"))?;
    if status.success() { Ok(()) } else { Err(format!("{cmd:?} failed with {status}")) }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_a_locked_version() {
        let lock = "[[package]]\nname = \"wasm-bindgen-futures\"\nversion = \"0.4.80\"\n\n[[package]]\nname = \"wasm-bindgen\"\nversion = \"0.2.130\"\nsource = \"x\"\n";
        assert_eq!(locked_version(lock, "wasm-bindgen").as_deref(), Some("0.2.130"));
        assert_eq!(locked_version(lock, "wasm-bindgen-futures").as_deref(), Some("0.4.80"));
        assert_eq!(locked_version(lock, "js-sys"), None);
    }

    #[test]
    fn reads_cargo_minor_versions() {
        assert_eq!(minor_version("cargo 1.96.0 (30a34c682 2026-05-25) (built from a source tarball)"), Some(96));
        assert_eq!(minor_version("cargo 1.100.1"), Some(100));
        assert_eq!(minor_version("cargo 0.66.0"), None);
        assert_eq!(minor_version("rustc 1.96.0"), None);
    }
}
