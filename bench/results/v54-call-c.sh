# v54 call C: R57's 2D stems, R58, R59 and R15's 384-tile bound (`bin-v54/r58.xz`) against the
# committed planner (`bin-v54/base.xz`) on every suite layer whose plan they move
# (`v54-moved-suite.json`, 45 layers), interleaved twice, cuDNN fp32 in the same call; four
# shapes of the new classes checked against the f64 reference with `direct_block` forced;
# then zoo-extra whole on the new planner.
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig; export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
for b in base r58; do xz -dc bin-v54/$b.xz > /tmp/wgconv-$b; chmod +x /tmp/wgconv-$b; done
R=/tmp/rc; rm -rf $R; mkdir -p $R; T0=$(date +%s)
save() { echo "step $1 at $(($(date +%s)-T0)) s" >> $R/steps.txt; tar czf $OUT/rc.tgz -C $R . ; }
nvidia-smi --query-gpu=name,driver_version,clocks.sm --format=csv > $R/gpu.txt
M=bench/results/v54-moved-suite.json; S="--repeat 5 --launches 10 --no-reference"
for i in 1 2; do for b in base r58; do
  timeout 45 /tmp/wgconv-$b bench --suite $M $S --json $R/$b-$i.json > $R/$b-$i.txt 2>&1; save $b-$i; done; done
timeout 40 python3 bench/torch_reference.py --suite $M --repeat 5 --launches 10 --json $R/t.json > $R/t.txt 2>&1; save t
python3 - <<'PY'
import numpy as np
rng = np.random.default_rng(54)
for name, x, w in [("stem", (2, 1, 61, 40), (256, 1, 3, 3)), ("few", (2, 32, 40, 40), (9, 32, 3, 3)),
                   ("wave", (1, 32, 1, 3000), (32, 32, 1, 11)), ("box", (1, 256, 30, 40), (12, 256, 1, 1))]:
    np.save(f"/tmp/{name}_x.npy", rng.uniform(-1, 1, x).astype(np.float32))
    np.save(f"/tmp/{name}_w.npy", rng.uniform(-1, 1, w).astype(np.float32))
    np.save(f"/tmp/{name}_b.npy", rng.uniform(-1, 1, w[0]).astype(np.float32))
PY
for c in "stem --stride 2,2" "few --padding 1,1 --activation relu" "wave --padding 0,25 --dilation 1,5" "box"; do set -- $c; n=$1; shift
  echo "== $n $*" >> $R/gc.txt
  timeout 30 /tmp/wgconv-r58 conv2d --input /tmp/${n}_x.npy --weight /tmp/${n}_w.npy --bias /tmp/${n}_b.npy $* --kernel direct_block --out /tmp/${n}_y.npy --check >> $R/gc.txt 2>&1; echo "exit $?" >> $R/gc.txt
done; save gc
timeout 170 /tmp/wgconv-r58 bench --suite bench/suites/zoo-extra.json $S --json $R/ze.json > $R/ze.txt 2>&1; save ze
cat $R/steps.txt $R/gpu.txt; grep -v "^output" $R/gc.txt
