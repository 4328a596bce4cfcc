//! xtask works on the workspace it is run in, found at run time (not the one it was built in).

use xtask::workspace::{find_workspace, workspace_root};

#[test]
fn the_root_is_found_from_cargo_manifest_dir_at_run_time() {
    // `cargo test` sets CARGO_MANIFEST_DIR for the test process, as `cargo run` does for xtask.
    let root = workspace_root().unwrap();
    assert!(root.join("xtask/Cargo.toml").is_file(), "{}", root.display());
    assert!(root.join("shaders/templates").is_dir(), "{}", root.display());
}

#[test]
fn find_workspace_walks_up_past_member_manifests() {
    let dir = std::env::temp_dir().join(format!("xtask-find-workspace-{}", std::process::id()));
    let nested = dir.join("member/src/deep");
    std::fs::create_dir_all(&nested).unwrap();
    std::fs::write(dir.join("Cargo.toml"), "[workspace]\nmembers = [\"member\"]\n").unwrap();
    std::fs::write(dir.join("member/Cargo.toml"), "[package]\nname = \"member\"\n").unwrap();
    assert_eq!(find_workspace(&nested).unwrap(), dir);
    assert_eq!(find_workspace(&dir.join("member")).unwrap(), dir);
    std::fs::remove_dir_all(&dir).unwrap();
}
