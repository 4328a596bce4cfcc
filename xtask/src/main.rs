//! Project automation. `cargo xtask gen-shaders [--check]` (re)generates the typed bindings of
//! `shaders/*.wgsl` into `crates/wgconv/src/shaders/`; `--check` only compares and fails on drift.

use std::{path::PathBuf, process::ExitCode};

fn workspace_root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("xtask lives one level below the workspace root")
        .to_path_buf()
}

/// (shader directory, output directory), relative to the workspace root: the runtime's kernels, and
/// the fixture shaders whose generated modules the integration tests compile and run.
const TARGETS: [(&str, &str); 2] =
    [("shaders", "crates/wgconv/src/shaders"), ("tests/fixtures/shaders", "tests/src/generated")];

fn gen_shaders(check: bool) -> Result<(), String> {
    for (shaders, out) in TARGETS {
        gen_one(shaders, out, check)?;
    }
    Ok(())
}

fn gen_one(shaders: &str, out: &str, check: bool) -> Result<(), String> {
    let root = workspace_root();
    let files = wgconv_codegen::fs::generate_dir(&root.join(shaders), shaders).map_err(|e| e.to_string())?;
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

const USAGE: &str = "usage: cargo xtask gen-shaders [--check]";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.iter().map(String::as_str).collect::<Vec<_>>().as_slice() {
        ["gen-shaders"] => gen_shaders(false),
        ["gen-shaders", "--check"] => gen_shaders(true),
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
