# v55 call A: `direct_tiled` (direct 3×3 from input tiles in workgroup memory, forced) against
# the planner's kernels on every 3×3 stride-1 ungrouped layer of ≤ 256 output channels of the
# suites (`v55-tiled-suite.json`, 133 layers), interleaved, cuDNN fp32 in the same call; the
# kernel checked against the f64 reference on the device; the driver's register counts. Two builds:
# `bin-v55/a.xz` stages each chunk of 4 input channels after the last one's math, `b.xz` loads it
# into registers during the last one's math (the committed form if it wins).
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig; export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
for b in a b; do xz -dc bin-v55/$b.xz > /tmp/wgconv-$b; chmod +x /tmp/wgconv-$b; done
R=/tmp/ra; rm -rf $R; mkdir -p $R; T0=$(date +%s)
save() { echo "step $1 at $(($(date +%s)-T0)) s" >> $R/steps.txt; tar czf $OUT/ra.tgz -C $R . ; }
nvidia-smi --query-gpu=name,driver_version,clocks.sm --format=csv > $R/gpu.txt
python3 - <<'PY'
import numpy as np
rng = np.random.default_rng(55)
for name, x, w in [("a", (2, 20, 19, 45), (40, 20, 3, 3)), ("b", (3, 33, 40, 64), (32, 33, 3, 3)), ("c", (1, 64, 70, 31), (96, 64, 3, 3))]:
    np.save(f"/tmp/{name}_x.npy", rng.uniform(-1, 1, x).astype(np.float32))
    np.save(f"/tmp/{name}_w.npy", rng.uniform(-1, 1, w).astype(np.float32))
    np.save(f"/tmp/{name}_b.npy", rng.uniform(-1, 1, w[0]).astype(np.float32))
PY
for c in "a --padding 0,0" "b --padding 1,1 --activation relu" "c --padding 2,1"; do set -- $c; n=$1; shift
  echo "== $n $*" >> $R/gc.txt
  timeout 30 /tmp/wgconv-b conv2d --input /tmp/${n}_x.npy --weight /tmp/${n}_w.npy --bias /tmp/${n}_b.npy $* --kernel direct_tiled --out /tmp/${n}_y.npy --check >> $R/gc.txt 2>&1; echo "exit $?" >> $R/gc.txt
done; save gc
T=bench/results/v55-tiled-suite.json; S="--repeat 5 --launches 10 --no-reference"
timeout 100 /tmp/wgconv-a bench --suite $T $S --json $R/plan-1.json > $R/plan-1.txt 2>&1; save plan-1
for b in a b; do timeout 100 /tmp/wgconv-$b bench --suite $T $S --kernel direct_tiled --json $R/tiled-$b.json > $R/tiled-$b.txt 2>&1; save tiled-$b; done
timeout 100 python3 bench/torch_reference.py --suite $T --repeat 5 --launches 10 --json $R/t.json > $R/t.txt 2>&1; save t
timeout 60 /tmp/wgconv-b bench --suite zoo-extra --models esrgan_x4_b4 --repeat 3 --launches 10 --no-reference --kernel direct_tiled --pipeline-stats > $R/stats.txt 2>&1; save stats
cat $R/steps.txt $R/gpu.txt; grep -v "^output" $R/gc.txt
python3 - <<'PY'
import json
p = {l["name"]: l for l in json.load(open("/tmp/ra/plan-1.json"))["layers"]}
k = {l["name"]: l for l in json.load(open("/tmp/ra/tiled-a.json"))["layers"]}
kb = {l["name"]: l for l in json.load(open("/tmp/ra/tiled-b.json"))["layers"]}
t = json.load(open("/tmp/ra/t.json"))["torch_ms"]
for n, l in p.items():
    kk = k.get(n, {})
    if kk.get("kernel") != "direct_tiled": continue
    print(f"{n[:40]:40s} {l['n']:3d} {l['ic']:4d}->{l['oc']:4d} {l['w']:4d} {l['kernel'][:14]:14s} plan {t[n]/l['median_ms']:.2f} a {t[n]/kk['median_ms']:.2f} b {t[n]/kb[n]['median_ms']:.2f} x{l['median_ms']/min(kk['median_ms'], kb[n]['median_ms']):.2f}")
PY
