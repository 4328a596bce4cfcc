# v50 call B (right after call A, same warm machine): v49 call B's rules part (R51–R54 drafted
# as `r51` against v48 on v49-rules-suite.json: the 20 fit layers they move and 22 held-out
# layers, interleaved twice, cuDNN in the same call), then v49 call C's GPU checks of the routes
# R51–R54 add (`v49`) and of the `late` variant's staged GEMM kernels, forced.
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig; export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
for b in v48/v48 v49/v49 v49/r51 v50/late; do xz -dc bin-$b.xz > /tmp/wgconv-${b#*/}; done; chmod +x /tmp/wgconv-*
R=/tmp/rb; rm -rf $R; mkdir -p $R/npy; T0=$(date +%s)
save() { echo "step $1 at $(($(date +%s)-T0)) s" >> $R/steps.txt; tar czf $OUT/rb.tgz -C $R . ; }
C="--repeat 5 --launches 10 --no-reference"
bench() { timeout 70 /tmp/wgconv-$2 bench --suite $3 $C --json $R/$1-$2-$4.json > $R/$1-$2-$4.txt 2>&1; save $1-$2-$4; }
X=bench/results/v49-rules-suite.json
bench x r51 $X 1; bench x v48 $X 1
timeout 60 python3 bench/torch_reference.py --suite $X --rounds 2 --repeat 5 --launches 10 --also-tf32 --json $R/t-x.json > $R/t-x.txt 2>&1; save t-x
bench x v48 $X 2; bench x r51 $X 2
python3 - <<'PY'
import numpy as np
rng = np.random.default_rng(49)
shapes = {"stem": ([2, 1, 16000], [512, 1, 10]), "sd8": ([1, 1280, 8, 8], [1280, 1280, 3, 3]),
          "hifi": ([2, 512, 64], [512, 256, 16]), "pix": ([4, 1024, 8, 8], [1024, 512, 4, 4]),
          "sd16": ([1, 640, 16, 16], [1280, 640, 3, 3]), "w2v": ([2, 512, 999], [512, 512, 3]),
          "odd": ([3, 72, 19, 23], [200, 72, 3, 3])}
for name, (x, w) in shapes.items():
    np.save(f"/tmp/rb/npy/{name}_x.npy", rng.standard_normal(x).astype(np.float32))
    np.save(f"/tmp/rb/npy/{name}_w.npy", rng.standard_normal(w).astype(np.float32))
PY
run() { b=$1; n=$2; shift 2; echo "== $b $n $*"; timeout 60 /tmp/wgconv-$b conv2d --input $R/npy/${n}_x.npy --weight $R/npy/${n}_w.npy --out $R/y.npy --check "$@" 2>&1 | tail -3; }
{ run v49 stem --stride 5; run v49 sd8 --padding 1; run v49 hifi --transposed --stride 8 --padding 4
  run v49 pix --transposed --stride 2 --padding 1; run v49 sd16 --padding 1
  for k in gemm gemm_k16 gemm_m64_k16 gemm_n64_k16 gemm_m64_k32; do
    run late w2v --stride 2 --kernel $k; run late odd --padding 1 --kernel $k; run late pix --transposed --stride 2 --padding 1 --kernel $k; done
} > $R/gc.txt 2>&1; save checks
cat $R/gc.txt $R/steps.txt
