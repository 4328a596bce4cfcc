# v56 call A: (1) v55's call E: `direct_tiled` staging whole vec4s of weights (`r3`, the committed
# form) against call C's form (`r2`, 4 threads a vec4, one component each) on the 18 layers R60
# moves, interleaved twice, cuDNN fp32 in the same call; `r3` checked against the f64 reference
# on the device. (2) R11's bound: the 37 non-Winograd layers of the suites on 128–383 128×128
# tiles with K ≥ 512 and 65+ output channels per group (`v56-r11-suite.json`; DeepLabv3's dilated
# and ASPP 3×3s among them), planned against `gemm_k16` forced, interleaved twice, cuDNN fp32.
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig; export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
xz -dc bin-v56/e.tar.xz | tar xf - -C /tmp; chmod +x /tmp/wgconv-*
R=/tmp/ra; rm -rf $R; mkdir -p $R; T0=$(date +%s)
save() { echo "step $1 at $(($(date +%s)-T0)) s" >> $R/steps.txt; tar czf $OUT/ra.tgz -C $R . ; }
nvidia-smi --query-gpu=name,driver_version,clocks.sm --format=csv > $R/gpu.txt
python3 - <<'PY'
import numpy as np
rng = np.random.default_rng(56)
for name, x, w in [("a", (2, 20, 19, 45), (12, 20, 3, 3)), ("b", (3, 33, 40, 64), (32, 33, 3, 3)), ("c", (1, 64, 70, 31), (70, 64, 3, 3))]:
    np.save(f"/tmp/{name}_x.npy", rng.uniform(-1, 1, x).astype(np.float32))
    np.save(f"/tmp/{name}_w.npy", rng.uniform(-1, 1, w).astype(np.float32))
    np.save(f"/tmp/{name}_b.npy", rng.uniform(-1, 1, w[0]).astype(np.float32))
PY
for c in "a --padding 0,0" "b --padding 1,1 --activation relu" "c --padding 2,1"; do set -- $c; n=$1; shift
  echo "== $n $*" >> $R/gc.txt
  timeout 30 /tmp/wgconv-r3 conv2d --input /tmp/${n}_x.npy --weight /tmp/${n}_w.npy --bias /tmp/${n}_b.npy $* --kernel direct_tiled --out /tmp/${n}_y.npy --check >> $R/gc.txt 2>&1; echo "exit $?" >> $R/gc.txt
done; save gc
M=bench/results/v55-moved-suite.json; S="--repeat 5 --launches 10 --no-reference"
for i in 1 2; do for b in r2 r3; do timeout 30 /tmp/wgconv-$b bench --suite $M $S --json $R/m-$b-$i.json > $R/m-$b-$i.txt 2>&1; save m-$b-$i; done; done
timeout 40 python3 bench/torch_reference.py --suite $M --repeat 5 --launches 10 --json $R/tm.json > $R/tm.txt 2>&1; save tm
E=bench/results/v56-r11-suite.json
for i in 1 2; do
  timeout 60 /tmp/wgconv-r3 bench --suite $E $S --json $R/p-$i.json > $R/p-$i.txt 2>&1; save p-$i
  timeout 60 /tmp/wgconv-r3 bench --suite $E $S --kernel gemm_k16 --json $R/k-$i.json > $R/k-$i.txt 2>&1; save k-$i
done
timeout 90 python3 bench/torch_reference.py --suite $E --repeat 5 --launches 10 --also-tf32 --json $R/te.json > $R/te.txt 2>&1; save te
cat $R/steps.txt $R/gpu.txt; grep -v "^output" $R/gc.txt
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
tm = json.load(open("/tmp/ra/tm.json"))["torch_ms"]
r2 = best([f"/tmp/ra/m-r2-{i}.json" for i in (1, 2)]); r3 = best([f"/tmp/ra/m-r3-{i}.json" for i in (1, 2)])
g = lambda xs: math.exp(sum(map(math.log, xs)) / max(len(xs), 1))
for n in r3: print(f"{n[:40]:40s} r2 {r2[n]:.4f} r3 {r3[n]:.4f} x{r2[n]/r3[n]:.3f} cuDNN {tm[n]:.4f}: {tm[n]/r3[n]:.2f}")
print("E geomean r3 over r2", g([r2[n]/r3[n] for n in r3]), "r3 vs cuDNN", g([tm[n]/r3[n] for n in r3]))
te = json.load(open("/tmp/ra/te.json"))["torch_ms"]
p = best([f"/tmp/ra/p-{i}.json" for i in (1, 2)]); k = best([f"/tmp/ra/k-{i}.json" for i in (1, 2)])
for n in p: print(f"{n[:44]:44s} plan {p[n]:.4f} k16 {k.get(n, 9e9):.4f} x{p[n]/k.get(n, 9e9):.3f} cuDNN {te[n]:.4f}: plan {te[n]/p[n]:.2f} k16 {te[n]/k.get(n, 9e9):.2f}")
PY
