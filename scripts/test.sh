#!/usr/bin/env bash
# The whole test suite: generated files fresh, formatting, lints, docs, then every test.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo xtask gen-shaders --check
cargo fmt --all --check
cargo clippy --workspace --all-targets -- -D warnings
RUSTDOCFLAGS="-D warnings" cargo doc --workspace --no-deps --quiet
# Dawn (npm's webgpu) and Mesa 25's lavapipe for tests/tests/dawn_portability.rs (idempotent).
bash tests/dawn/setup.sh
cargo test --workspace
# Licenses and duplicate versions (offline); advisories need a fetched database, so not here.
if command -v cargo-deny >/dev/null 2>&1; then
    cargo deny --offline check licenses bans
fi
