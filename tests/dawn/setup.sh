#!/usr/bin/env bash
# Sets up what tests/tests/dawn_portability.rs runs, idempotently: Dawn (npm's `webgpu` package,
# pinned in package-lock.json) in tests/dawn/node_modules, and Mesa 25's lavapipe from Debian's
# bookworm-backports unpacked into target/dawn-mesa (nothing installed system-wide). Dawn's Vulkan
# backend rejects the Mesa 22 lavapipe of Debian 12 ("shaderUniform*ArrayDynamicIndexing
# required"); Mesa 25's is accepted, and Vulkan is the backend closest to what a browser runs.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
mesa="$root/target/dawn-mesa"

command -v npm >/dev/null || { echo "dawn: npm (and node) are needed: apt-get install -y nodejs npm" >&2; exit 1; }
# Reinstalled when package-lock.json changes (its hash is kept beside the installed packages).
lock_hash="$(sha256sum "$here/package-lock.json" | cut -d' ' -f1)"
if [ "$(cat "$here/node_modules/.wgconv-lock-hash" 2>/dev/null)" != "$lock_hash" ]; then
    echo "dawn: installing npm's webgpu (Dawn) into tests/dawn/node_modules"
    (cd "$here" && npm ci --no-audit --no-fund --loglevel=error)
    echo "$lock_hash" > "$here/node_modules/.wgconv-lock-hash"
fi

if [ ! -f "$mesa/lvp_icd.json" ]; then
    echo "dawn: fetching Mesa 25's lavapipe from bookworm-backports into target/dawn-mesa"
    mkdir -p "$mesa/apt/lists/partial" "$mesa/debs" "$mesa/root"
    echo "deb http://deb.debian.org/debian bookworm-backports main" > "$mesa/apt/sources.list"
    apt_opts=(-o "Dir::Etc::SourceList=$mesa/apt/sources.list" -o "Dir::Etc::SourceParts=/dev/null"
        -o "Dir::State::Lists=$mesa/apt/lists" -o "Dir::Cache=$mesa/apt/cache")
    # As root, apt would drop to the _apt user, who cannot write into target/.
    [ "$(id -u)" -ne 0 ] || apt_opts+=(-o "APT::Sandbox::User=root")
    apt-get "${apt_opts[@]}" update -qq
    (cd "$mesa/debs" && apt-get "${apt_opts[@]}" download -qq \
        mesa-vulkan-drivers/bookworm-backports mesa-libgallium/bookworm-backports \
        libdrm2/bookworm-backports libdrm-common/bookworm-backports libdrm-amdgpu1/bookworm-backports)
    for deb in "$mesa"/debs/*.deb; do dpkg -x "$deb" "$mesa/root"; done
    driver="$(find "$mesa/root" -name libvulkan_lvp.so | head -1)"
    [ -n "$driver" ] || { echo "dawn: libvulkan_lvp.so not found in the unpacked Mesa packages" >&2; exit 1; }
    lib="$(dirname "$driver")"
    cat > "$mesa/lvp_icd.json.tmp" <<JSON
{"file_format_version": "1.0.1", "ICD": {"library_path": "$lib/libvulkan_lvp.so", "api_version": "1.3.0"}}
JSON
    echo "$lib" > "$mesa/lib_dir"
    mv "$mesa/lvp_icd.json.tmp" "$mesa/lvp_icd.json"
fi

# The unpacked driver links against libraries of the system (LLVM, libdrm's siblings, X/Wayland
# client libraries) that Debian 12's own mesa-vulkan-drivers brings; say which are missing.
missing="$(LD_LIBRARY_PATH="$(cat "$mesa/lib_dir")" ldd "$(cat "$mesa/lib_dir")/libvulkan_lvp.so" | grep 'not found' || true)"
if [ -n "$missing" ]; then
    echo "dawn: Mesa 25's lavapipe lacks system libraries:" >&2
    echo "$missing" >&2
    echo "dawn: install Debian 12's software Vulkan driver, which brings them: apt-get install -y mesa-vulkan-drivers libvulkan1" >&2
    exit 1
fi
