#!/usr/bin/env bash
# The whole test suite: generated bindings fresh, formatting, lints, then every test.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo xtask gen-shaders --check
cargo fmt --all --check
cargo clippy --workspace --all-targets -- -D warnings
cargo test --workspace
