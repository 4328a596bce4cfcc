# v55 call C: rule R60 with `direct_tiled` of 4 rows × 8 channels a thread (`r2`, the committed
# form) against the planner before R60 (`b2`) on the 18 suite layers R60 moves
# (`v55-moved-suite.json`), interleaved twice, cuDNN fp32 in the same call; the kernel checked
# against the f64 reference on the device (both tile shapes, paddings, a relu).
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig; export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
xz -dc bin-v55/c.tar.xz | tar xf - -C /tmp; chmod +x /tmp/wgconv-*
R=/tmp/rc; rm -rf $R; mkdir -p $R; T0=$(date +%s)
save() { echo "step $1 at $(($(date +%s)-T0)) s" >> $R/steps.txt; tar czf $OUT/rc.tgz -C $R . ; }
nvidia-smi --query-gpu=name,driver_version,clocks.sm --format=csv > $R/gpu.txt
python3 - <<'PY'
import numpy as np
rng = np.random.default_rng(55)
for name, x, w in [("a", (2, 20, 19, 45), (40, 20, 3, 3)), ("b", (3, 33, 40, 64), (32, 33, 3, 3)), ("c", (1, 64, 70, 31), (9, 64, 3, 3))]:
    np.save(f"/tmp/{name}_x.npy", rng.uniform(-1, 1, x).astype(np.float32))
    np.save(f"/tmp/{name}_w.npy", rng.uniform(-1, 1, w).astype(np.float32))
    np.save(f"/tmp/{name}_b.npy", rng.uniform(-1, 1, w[0]).astype(np.float32))
PY
for c in "a --padding 0,0" "b --padding 1,1 --activation relu" "c --padding 2,1"; do set -- $c; n=$1; shift
  echo "== $n $*" >> $R/gc.txt
  timeout 30 /tmp/wgconv-r2 conv2d --input /tmp/${n}_x.npy --weight /tmp/${n}_w.npy --bias /tmp/${n}_b.npy $* --kernel direct_tiled --out /tmp/${n}_y.npy --check >> $R/gc.txt 2>&1; echo "exit $?" >> $R/gc.txt
done; save gc
M=bench/results/v55-moved-suite.json; S="--repeat 5 --launches 10 --no-reference"
for i in 1 2; do for b in b2 r2; do timeout 30 /tmp/wgconv-$b bench --suite $M $S --json $R/m-$b-$i.json > $R/m-$b-$i.txt 2>&1; save m-$b-$i; done; done
timeout 40 python3 bench/torch_reference.py --suite $M --repeat 5 --launches 10 --also-tf32 --json $R/tm.json > $R/tm.txt 2>&1; save tm
cat $R/steps.txt $R/gpu.txt; grep -v "^output" $R/gc.txt
python3 - <<'PY'
import json, math
tm = json.load(open("/tmp/rc/tm.json"))["torch_ms"]
m = {b: {} for b in ["b2", "r2"]}
k = {}
for b in m:
    for i in (1, 2):
        for l in json.load(open(f"/tmp/rc/m-{b}-{i}.json"))["layers"]:
            m[b][l["name"]] = min(m[b].get(l["name"], 9e9), l["median_ms"]); k[(b, l["name"])] = l["kernel"]
for n in m["r2"]:
    print(f"{n[:40]:40s} {k[('b2', n)][:14]:14s} {m['b2'][n]:.4f} -> {k[('r2', n)][:14]:14s} {m['r2'][n]:.4f} cuDNN {tm[n]:.4f}: old {tm[n]/m['b2'][n]:.2f} new {tm[n]/m['r2'][n]:.2f} x{m['b2'][n]/m['r2'][n]:.2f}")
g = lambda f: math.exp(sum(math.log(f(n)) for n in m["r2"]) / len(m["r2"]))
print("geomean new/old", g(lambda n: m["b2"][n] / m["r2"][n]), "new vs cuDNN", g(lambda n: tm[n] / m["r2"][n]), "old vs cuDNN", g(lambda n: tm[n] / m["b2"][n]))
PY
