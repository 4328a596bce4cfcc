//! Supply-chain rules that need no network: one version each of the GPU stack (the codegen
//! validates with the same naga that wgpu compiles shaders with), and every workspace crate
//! licensed as the workspace says.

use std::{collections::BTreeMap, path::Path};

fn lock_versions() -> BTreeMap<String, Vec<String>> {
    let lock = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("../Cargo.lock")).unwrap();
    let mut versions: BTreeMap<String, Vec<String>> = BTreeMap::new();
    let mut name = None;
    for line in lock.lines() {
        if let Some(n) = line.strip_prefix("name = ") {
            name = Some(n.trim_matches('"').to_string());
        } else if let (Some(v), Some(n)) = (line.strip_prefix("version = "), name.take()) {
            versions.entry(n).or_default().push(v.trim_matches('"').to_string());
        }
    }
    versions
}

#[test]
fn one_version_of_wgpu_and_naga_sharing_a_major() {
    let versions = lock_versions();
    for krate in ["wgpu", "wgpu-core", "wgpu-hal", "wgpu-types", "naga"] {
        let v = versions.get(krate).unwrap_or_else(|| panic!("{krate} missing from Cargo.lock"));
        assert_eq!(v.len(), 1, "{krate} appears in {} versions: {v:?}", v.len());
    }
    let major = |k: &str| versions[k][0].split('.').next().unwrap().to_string();
    assert_eq!(major("wgpu"), major("naga"), "wgpu and naga must share a major version");
}

#[test]
fn deny_config_is_checked_in() {
    let deny = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("../deny.toml")).unwrap();
    assert!(deny.contains("[licenses]") && deny.contains("[bans]"));
}
