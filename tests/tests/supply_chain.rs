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

/// Licenses accepted for every crate in the dependency graph (the same list as deny.toml).
const ALLOWED: &[&str] = &[
    "MIT",
    "Apache-2.0",
    "BSD-2-Clause",
    "BSD-3-Clause",
    "ISC",
    "Zlib",
    "Unicode-3.0",
    "Unicode-DFS-2016",
    "BSL-1.0",
    "CC0-1.0",
    "MPL-2.0",
    "Unlicense",
];

/// Whether an SPDX expression (also the old `A/B` form) allows use under `ALLOWED`: some `OR`
/// alternative whose `AND` parts (exceptions after `WITH` aside) are all allowed.
fn license_ok(expression: &str) -> bool {
    expression.replace('/', " OR ").split(" OR ").any(|alternative| {
        alternative.split(" AND ").all(|part| {
            let id = part.trim().trim_matches(|c| c == '(' || c == ')').split(" WITH ").next().unwrap_or("").trim();
            ALLOWED.contains(&id)
        })
    })
}

#[test]
fn every_dependency_has_an_allowed_license() {
    assert!(license_ok("MIT OR Apache-2.0") && license_ok("(MIT OR Apache-2.0) AND Unicode-3.0"));
    assert!(license_ok("Apache-2.0 WITH LLVM-exception") && !license_ok("GPL-3.0") && !license_ok("GPL-3.0 AND MIT"));
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let out = std::process::Command::new(cargo)
        .args(["metadata", "--format-version", "1", "--locked"])
        .current_dir(Path::new(env!("CARGO_MANIFEST_DIR")).join(".."))
        .output()
        .unwrap();
    assert!(out.status.success(), "cargo metadata failed: {}", String::from_utf8_lossy(&out.stderr));
    let metadata: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let bad: Vec<String> = metadata["packages"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|p| !p["license"].as_str().is_some_and(license_ok))
        .map(|p| format!("{} {} ({})", p["name"], p["version"], p["license"]))
        .collect();
    assert!(bad.is_empty(), "crates without an allowed license: {bad:?}");
}
