# v56 call B: `winograd_4x4` (F(4×4, 3×3), new) forced against the planner on the 146 3×3
# stride-1 layers of one group, 32+ channels in and out and 0.2+ G multiply-adds of the zoos,
# zoo-extra, the default and diffusion suites (`v56-w4-suite.json`; 105 of them planned on
# `winograd`, F(2×2, 3×3)), interleaved twice, cuDNN fp32 in the same call; `winograd_4x4`
# checked against the f64 reference on the device first.
# NOT RUN in v56 (no device machine could be started). `bin-v56/b.tar.xz` must hold `wgconv-b`
# built from the committed tree (the interpolation points changed after v56's build of it).
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig; export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
xz -dc bin-v56/b.tar.xz | tar xf - -C /tmp; chmod +x /tmp/wgconv-*
R=/tmp/rb; rm -rf $R; mkdir -p $R; T0=$(date +%s)
save() { echo "step $1 at $(($(date +%s)-T0)) s" >> $R/steps.txt; tar czf $OUT/rb.tgz -C $R . ; }
nvidia-smi --query-gpu=name,driver_version,clocks.sm --format=csv > $R/gpu.txt
python3 - <<'PY'
import numpy as np
rng = np.random.default_rng(57)
for name, x, w in [("a", (2, 20, 19, 45), (40, 20, 3, 3)), ("b", (3, 64, 40, 64), (96, 64, 3, 3)), ("c", (1, 256, 30, 31), (130, 256, 3, 3))]:
    np.save(f"/tmp/{name}_x.npy", rng.uniform(-1, 1, x).astype(np.float32))
    np.save(f"/tmp/{name}_w.npy", rng.uniform(-1, 1, w).astype(np.float32))
    np.save(f"/tmp/{name}_b.npy", rng.uniform(-1, 1, w[0]).astype(np.float32))
PY
for c in "a --padding 0,0" "b --padding 1,1 --activation relu" "c --padding 2,1"; do set -- $c; n=$1; shift
  echo "== $n $*" >> $R/gc.txt
  for k in winograd_4x4 winograd; do timeout 30 /tmp/wgconv-b conv2d --input /tmp/${n}_x.npy --weight /tmp/${n}_w.npy --bias /tmp/${n}_b.npy $* --kernel $k --out /tmp/${n}_y.npy --check 2>&1 | grep -i "error\|relative" >> $R/gc.txt; done
done; save gc
E=bench/results/v56-w4-suite.json; S="--repeat 5 --launches 10 --no-reference"
# Round 1, cuDNN, then round 2 (each step saved: a call cut short keeps what ran).
for i in 1 2; do
  timeout 120 /tmp/wgconv-b bench --suite $E $S --json $R/p-$i.json > $R/p-$i.txt 2>&1; save p-$i
  timeout 120 /tmp/wgconv-b bench --suite $E $S --kernel winograd_4x4 --json $R/w-$i.json > $R/w-$i.txt 2>&1; save w-$i
  if [ $i = 1 ]; then timeout 100 python3 bench/torch_reference.py --suite $E --repeat 5 --launches 10 --also-tf32 --json $R/te.json > $R/te.txt 2>&1; save te; fi
done
cat $R/steps.txt $R/gpu.txt $R/gc.txt
python3 - <<'PY'
import json, math
def best(paths):
    m = {}
    for p in paths:
        try:
            for l in json.load(open(p))["layers"]:
                m[l["name"]] = min(m.get(l["name"], 9e9), l["median_ms"])
        except Exception as e: print("missing", p, e)
    return m
try: te = json.load(open("/tmp/rb/te.json"))["torch_ms"]
except Exception: te = {}
p = best([f"/tmp/rb/p-{i}.json" for i in (1, 2)]); w = best([f"/tmp/rb/w-{i}.json" for i in (1, 2)])
g = lambda xs: math.exp(sum(map(math.log, xs)) / max(len(xs), 1))
for n in p: print(f"{n[:44]:44s} plan {p[n]:.4f} w4 {w.get(n, 9e9):.4f} x{p[n]/w.get(n, 9e9):.3f} cuDNN {te.get(n, 0):.4f}")
print("w4 over plan geomean", g([p[n]/w[n] for n in p if n in w]), "wins", sum(p[n] > w.get(n, 9e9) for n in p), "of", len(p))
PY
