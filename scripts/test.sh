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
# The Python bench tools' tests: those needing torch or onnxruntime skip where they are missing.
if command -v python3 >/dev/null 2>&1; then
    python3 -m unittest discover -s bench -p 'test_*.py' -t .
fi
# The crate on the web: the wasm32 build of the web suite and the browser example, run under Dawn
# in node at the adapter's limits and at WebGPU's defaults (installs Debian's rustc-web toolchain
# when root and wasm-bindgen-cli into target/web-tools when missing).
cargo xtask web-test
# Licenses and duplicate versions (offline); advisories need a fetched database, so not here.
if command -v cargo-deny >/dev/null 2>&1; then
    cargo deny --offline check licenses bans
fi
