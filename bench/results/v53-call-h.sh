# v53 call H: R57 (`direct_block` for 1D stems of K ≤ 10 into more than 64 channels) planned,
# against the build before it (803a749's binary, R51's tiles and the depthwise kernel there),
# interleaved twice over the stems suite and wav2vec 2.0 at batch 16 and 1; cuDNN fp32 in the
# same call; the planned stems checked against the f64 reference on the device.
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig; export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
xz -dc bin-v53/roof.xz > /tmp/wgconv-old; xz -dc bin-v53/r57.xz > /tmp/wgconv-new; chmod +x /tmp/wgconv-*
R=/tmp/rh; rm -rf $R; mkdir -p $R; T0=$(date +%s)
save() { echo "step $1 at $(($(date +%s)-T0)) s" >> $R/steps.txt; tar czf $OUT/rh.tgz -C $R . ; }
nvidia-smi --query-gpu=name,driver_version,clocks.sm --format=csv > $R/gpu.txt
python3 - <<'PY'
import numpy as np
rng = np.random.default_rng(57)
for name, shape, ws in [("stem", (2, 1, 16003), (512, 1, 1, 10)), ("k7", (3, 1, 5001), (128, 1, 1, 7))]:
    np.save(f"/tmp/{name}_x.npy", rng.uniform(-1, 1, (shape[0], shape[1], 1, shape[2])).astype(np.float32))
    np.save(f"/tmp/{name}_w.npy", rng.uniform(-1, 1, ws).astype(np.float32))
    np.save(f"/tmp/{name}_b.npy", rng.uniform(-1, 1, ws[0]).astype(np.float32))
PY
for c in "stem --stride 1,5" "k7 --activation relu"; do set -- $c; n=$1; shift
  echo "== $n $*" >> $R/gc.txt
  timeout 30 /tmp/wgconv-new conv2d --input /tmp/${n}_x.npy --weight /tmp/${n}_w.npy --bias /tmp/${n}_b.npy $* --out /tmp/${n}_y.npy --check >> $R/gc.txt 2>&1; echo "exit $?" >> $R/gc.txt
done; save gc
T=bench/results/v53-stems-suite.json; M=bench/results/v47-models-suite.json; S="--repeat 5 --launches 10 --no-reference"
for i in 1 2; do
  for b in old new; do
    timeout 60 /tmp/wgconv-$b bench --suite $T $S --json $R/st-$b-$i.json > $R/st-$b-$i.txt 2>&1; save st-$b-$i
    timeout 60 /tmp/wgconv-$b bench --suite $M $S --models wav2vec2_base_b16 --json $R/w16-$b-$i.json > $R/w16-$b-$i.txt 2>&1; save w16-$b-$i
    timeout 60 /tmp/wgconv-$b bench --suite zoo $S --models wav2vec2_base --json $R/w1-$b-$i.json > $R/w1-$b-$i.txt 2>&1; save w1-$b-$i
  done
done
timeout 60 python3 bench/torch_reference.py --suite $M --models wav2vec2_base_b16 --repeat 5 --launches 10 --rounds 2 --json $R/t-w16.json > $R/t-w16.txt 2>&1; save t-w16
timeout 60 python3 bench/torch_reference.py --suite bench/suites/zoo.json --models wav2vec2_base --repeat 5 --launches 10 --rounds 2 --json $R/t-w1.json > $R/t-w1.txt 2>&1; save t-w1
cat $R/steps.txt $R/gpu.txt; grep -v "^output\|^GPU" $R/gc.txt; grep -h "^model" $R/w16-*.txt $R/w1-*.txt
