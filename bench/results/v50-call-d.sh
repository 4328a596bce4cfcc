# v50 call D: the committed v50 (`v50`: K-tiles loaded in their own iteration on the 128-row
# and 64 × 64 16-deep tiles, `KTileLoads`; R53 from K 256) against v49, interleaved, planned:
# the six models of v47-models-suite.json and the default suite twice each, v49-rules-suite.json
# once; cuDNN fp32/TF32 in the same call; then GPU checks of both K-tile loops.
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig; export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
for b in v49/v49 v50/v50; do xz -dc bin-$b.xz > /tmp/wgconv-${b#*/}; done; chmod +x /tmp/wgconv-*
R=/tmp/rd; N=/tmp/rd-npy; rm -rf $R $N; mkdir -p $R $N; T0=$(date +%s)
save() { echo "step $1 at $(($(date +%s)-T0)) s" >> $R/steps.txt; tar czf $OUT/rd.tgz -C $R . ; }
nvidia-smi --query-gpu=name,driver_version,clocks.sm --format=csv > $R/gpu.txt
C="--repeat 5 --launches 10 --no-reference"
bench() { timeout 60 /tmp/wgconv-$2 bench --suite $3 $C --json $R/$1-$2-$4.json > $R/$1-$2-$4.txt 2>&1; save $1-$2-$4; }
M=bench/results/v47-models-suite.json; D=bench/suites/default.json; X=bench/results/v49-rules-suite.json
bench m v50 $M 1; bench m v49 $M 1; bench d v50 $D 1; bench d v49 $D 1
timeout 50 python3 bench/torch_reference.py --suite $M --repeat 5 --launches 10 --also-tf32 --json $R/t-m.json > $R/t-m.txt 2>&1; save t-m
bench m v49 $M 2; bench m v50 $M 2; bench d v49 $D 2; bench d v50 $D 2; bench x v50 $X 1; bench x v49 $X 1
timeout 30 python3 bench/torch_reference.py --suite $D --repeat 5 --launches 10 --also-tf32 --json $R/t-d.json > $R/t-d.txt 2>&1; save t-d
python3 - <<'PY'
import numpy as np
rng = np.random.default_rng(50)
shapes = {"w2v": ([2, 512, 999], [512, 512, 3]), "odd": ([3, 72, 19, 23], [200, 72, 3, 3]),
          "pix": ([4, 1024, 8, 8], [1024, 512, 4, 4]), "up": ([2, 256, 32, 32], [256, 128, 2, 2]),
          "wino": ([4, 256, 14, 14], [256, 256, 3, 3])}
for name, (x, w) in shapes.items():
    np.save(f"/tmp/rd-npy/{name}_x.npy", rng.standard_normal(x).astype(np.float32))
    np.save(f"/tmp/rd-npy/{name}_w.npy", rng.standard_normal(w).astype(np.float32))
PY
run() { n=$1; shift; echo "== $n $*"; timeout 60 /tmp/wgconv-v50 conv2d --input $N/${n}_x.npy --weight $N/${n}_w.npy --out $N/y.npy --check "$@" 2>&1 | tail -2; }
{ for k in gemm_k16 gemm_n64_k16 gemm_m64_k16; do run w2v --stride 2 --kernel $k; run odd --padding 1 --kernel $k; run pix --transposed --stride 2 --padding 1 --kernel $k; done
  run odd --padding 1 --kernel gemm_m64_k16 --tile-n 64; run up --transposed --stride 2; run wino --padding 1 --kernel winograd; run wino --padding 1; } > $R/gc.txt 2>&1; save checks
cat $R/gc.txt $R/steps.txt
