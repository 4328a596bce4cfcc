#!/usr/bin/env bash
# Runs a node script of this folder under Dawn's Vulkan backend on the lavapipe that setup.sh
# unpacked: `run.sh compile_pipelines.mjs PIPELINES.json` or `run.sh run_wasm.mjs MODULE.js EXPORT ...`.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
mesa="$root/target/dawn-mesa"
if [ ! -d "$here/node_modules/webgpu" ] || [ ! -f "$mesa/lvp_icd.json" ]; then
    echo "dawn: not set up; run: bash tests/dawn/setup.sh" >&2
    exit 2
fi
export VK_ICD_FILENAMES="$mesa/lvp_icd.json" VK_DRIVER_FILES="$mesa/lvp_icd.json"
export LD_LIBRARY_PATH="$(cat "$mesa/lib_dir")${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
script="$1"
shift
exec node "$here/$script" "$@"
