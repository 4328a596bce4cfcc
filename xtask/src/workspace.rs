//! Finds the workspace `cargo xtask` was run in, at run time.
//!
//! Not `env!("CARGO_MANIFEST_DIR")`: that is the path compiled into the binary, and with a shared
//! `CARGO_TARGET_DIR` a second copy of the repository reuses the first copy's binary, which then
//! rewrote the first copy's files.

use std::path::{Path, PathBuf};

/// The root of the workspace to work on: found from `CARGO_MANIFEST_DIR` as `cargo run` sets it
/// at run time (the xtask package of the workspace being run), else from the current directory.
pub fn workspace_root() -> Result<PathBuf, String> {
    let start = match std::env::var_os("CARGO_MANIFEST_DIR") {
        Some(dir) => PathBuf::from(dir),
        None => std::env::current_dir().map_err(|e| format!("current directory: {e}"))?,
    };
    find_workspace(&start)
}

/// The nearest directory at or above `start` whose `Cargo.toml` declares a `[workspace]`.
pub fn find_workspace(start: &Path) -> Result<PathBuf, String> {
    start
        .ancestors()
        .find(|dir| {
            std::fs::read_to_string(dir.join("Cargo.toml"))
                .is_ok_and(|toml| toml.lines().any(|line| line.trim() == "[workspace]"))
        })
        .map(Path::to_path_buf)
        .ok_or_else(|| format!("no Cargo.toml with [workspace] at or above {}", start.display()))
}
