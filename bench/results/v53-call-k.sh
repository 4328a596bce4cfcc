# v53 call K: R57 widened to 32+ output channels (`bin-v53/r57b.xz`) planned against R57 as first
# committed (`r57.xz`, more than 64), interleaved twice over the single-channel stems of call J
# and call G's stems; a planned 1→32 k7 stem checked against the f64 reference on the device.
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig; export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
xz -dc bin-v53/r57.xz > /tmp/wgconv-old; xz -dc bin-v53/r57b.xz > /tmp/wgconv-new; chmod +x /tmp/wgconv-*
R=/tmp/rk; rm -rf $R; mkdir -p $R; T0=$(date +%s)
save() { echo "step $1 at $(($(date +%s)-T0)) s" >> $R/steps.txt; tar czf $OUT/rk.tgz -C $R . ; }
nvidia-smi --query-gpu=name,driver_version,clocks.sm --format=csv > $R/gpu.txt
python3 - <<'PY'
import numpy as np
rng = np.random.default_rng(58)
np.save("/tmp/m_x.npy", rng.uniform(-1, 1, (4, 1, 1, 7001)).astype(np.float32))
np.save("/tmp/m_w.npy", rng.uniform(-1, 1, (40, 1, 1, 7)).astype(np.float32))
np.save("/tmp/m_b.npy", rng.uniform(-1, 1, 40).astype(np.float32))
PY
timeout 30 /tmp/wgconv-new conv2d --input /tmp/m_x.npy --weight /tmp/m_w.npy --bias /tmp/m_b.npy --padding 0,3 --activation relu --out /tmp/m_y.npy --check > $R/gc.txt 2>&1; echo "exit $?" >> $R/gc.txt; save gc
S="--repeat 5 --launches 10 --no-reference"
for i in 1 2; do
  for b in old new; do
    for t in mono stems; do
      timeout 60 /tmp/wgconv-$b bench --suite bench/results/v53-$t-suite.json $S --json $R/$t-$b-$i.json > $R/$t-$b-$i.txt 2>&1; save $t-$b-$i
    done
  done
done
cat $R/steps.txt $R/gpu.txt $R/gc.txt | grep -v "^output\|^GPU"
