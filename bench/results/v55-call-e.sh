# v55 call E: `direct_tiled` staging whole vec4s of weights (`r3`, the committed form: no two
# threads store components of one vector) against call C's form (`r2`, 4 threads a vec4, one
# component each) on the 18 layers R60 moves, interleaved twice, cuDNN fp32 in the same call;
# `r3` checked against the f64 reference on the device. NOT RUN in v55 (no device time was left):
# the next session's first call (build `r2` from f09cb57's tree and `r3` from the committed one).
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig; export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
xz -dc bin-v55/e.tar.xz | tar xf - -C /tmp; chmod +x /tmp/wgconv-*
R=/tmp/re; rm -rf $R; mkdir -p $R; T0=$(date +%s)
save() { echo "step $1 at $(($(date +%s)-T0)) s" >> $R/steps.txt; tar czf $OUT/re.tgz -C $R . ; }
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
cat $R/steps.txt $R/gpu.txt; grep -v "^output" $R/gc.txt
python3 - <<'PY'
import json, math
tm = json.load(open("/tmp/re/tm.json"))["torch_ms"]
m = {b: {} for b in ["r2", "r3"]}
for b in m:
    for i in (1, 2):
        for l in json.load(open(f"/tmp/re/m-{b}-{i}.json"))["layers"]:
            m[b][l["name"]] = min(m[b].get(l["name"], 9e9), l["median_ms"])
for n in m["r3"]:
    print(f"{n[:40]:40s} r2 {m['r2'][n]:.4f} r3 {m['r3'][n]:.4f} x{m['r2'][n]/m['r3'][n]:.3f} cuDNN {tm[n]:.4f}: {tm[n]/m['r3'][n]:.2f}")
g = lambda f: math.exp(sum(math.log(f(n)) for n in m["r3"]) / len(m["r3"]))
print("geomean r3 over r2", g(lambda n: m["r2"][n] / m["r3"][n]), "r3 vs cuDNN", g(lambda n: tm[n] / m["r3"][n]))
PY
