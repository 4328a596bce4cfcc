# v53 call G: `direct_block` against R51's `gemm_m64_k16` on 1D stems of R51's class (call F's
# tuning found it 1.13× on wav2vec 2.0 b16's stem), forced and planned, interleaved twice; the
# stem checked against the f64 reference on the device with direct_block forced.
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig; export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
xz -dc bin-v53/roof.xz > /tmp/wgconv; chmod +x /tmp/wgconv
R=/tmp/rg; rm -rf $R; mkdir -p $R; T0=$(date +%s)
save() { echo "step $1 at $(($(date +%s)-T0)) s" >> $R/steps.txt; tar czf $OUT/rg.tgz -C $R . ; }
nvidia-smi --query-gpu=name,driver_version,clocks.sm --format=csv > $R/gpu.txt
python3 - <<'PY'
import numpy as np
rng = np.random.default_rng(53)
for name, shape, ws in [("stem", (2, 1, 16003), (512, 1, 1, 10)), ("stereo", (3, 2, 9001), (136, 2, 1, 8))]:
    np.save(f"/tmp/{name}_x.npy", rng.uniform(-1, 1, (shape[0], shape[1], 1, shape[2])).astype(np.float32))
    np.save(f"/tmp/{name}_w.npy", rng.uniform(-1, 1, ws).astype(np.float32))
    np.save(f"/tmp/{name}_b.npy", rng.uniform(-1, 1, ws[0]).astype(np.float32))
PY
for c in "stem --stride 1,5" "stereo --stride 1,4 --activation relu"; do set -- $c; n=$1; shift
  echo "== $n $*" >> $R/gc.txt
  timeout 30 /tmp/wgconv conv2d --input /tmp/${n}_x.npy --weight /tmp/${n}_w.npy --bias /tmp/${n}_b.npy $* --kernel direct_block --out /tmp/${n}_y.npy --check >> $R/gc.txt 2>&1; echo "exit $?" >> $R/gc.txt
done; save gc
T=bench/results/v53-stems-suite.json; S="--repeat 5 --launches 10 --no-reference"
for i in 1 2; do
  timeout 60 /tmp/wgconv bench --suite $T $S --json $R/plan-$i.json > $R/plan-$i.txt 2>&1; save plan-$i
  timeout 60 /tmp/wgconv bench --suite $T $S --kernel direct_block --json $R/db-$i.json > $R/db-$i.txt 2>&1; save db-$i
done
timeout 60 python3 bench/torch_reference.py --suite $T --repeat 5 --launches 10 --json $R/t.json > $R/t.txt 2>&1; save t
cat $R/steps.txt $R/gpu.txt $R/gc.txt | grep -v "^output\|^GPU"
