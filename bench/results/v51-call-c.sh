# v51 call C: the staged GEMM tiles taking their workgroups M tile fastest (`swz`: the
# workgroups running at once share their input columns) against v51's `new` (33aea83), planned,
# interleaved: the six models of v47-models-suite.json and the default suite twice each; cuDNN
# fp32/TF32 in the same call; GPU checks of the staged tiles on `swz` (a 1D layer, ragged tiles,
# a transposed layer's stride phases, Winograd's products). Binaries are not committed.
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig; export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
for b in new swz; do xz -dc bin-v51/$b.xz > /tmp/wgconv-$b; chmod +x /tmp/wgconv-$b; done
R=/tmp/rc; N=/tmp/rc-npy; rm -rf $R $N; mkdir -p $R $N; T0=$(date +%s)
save() { echo "step $1 at $(($(date +%s)-T0)) s" >> $R/steps.txt; tar czf $OUT/rc.tgz -C $R . ; }
nvidia-smi --query-gpu=name,driver_version,clocks.sm --format=csv > $R/gpu.txt
C="--repeat 5 --launches 10 --no-reference"
bench() { timeout 70 /tmp/wgconv-$2 bench --suite $3 $C --json $R/$1-$2-$4.json > $R/$1-$2-$4.txt 2>&1; save $1-$2-$4; }
M=bench/results/v47-models-suite.json; D=bench/suites/default.json
bench m swz $M 1; bench m new $M 1; bench d swz $D 1; bench d new $D 1
timeout 50 python3 bench/torch_reference.py --suite $M --repeat 5 --launches 10 --also-tf32 --json $R/t-m.json > $R/t-m.txt 2>&1; save t-m
bench m new $M 2; bench m swz $M 2; bench d new $D 2; bench d swz $D 2
python3 - <<'PY'
import numpy as np
rng = np.random.default_rng(51)
shapes = {"w2v": ([2, 512, 999], [512, 512, 3]), "odd": ([3, 72, 19, 23], [200, 72, 3, 3]),
          "pix": ([4, 1024, 8, 8], [1024, 512, 4, 4]), "wino": ([4, 256, 14, 14], [256, 256, 3, 3])}
for name, (x, w) in shapes.items():
    np.save(f"/tmp/rc-npy/{name}_x.npy", rng.standard_normal(x).astype(np.float32))
    np.save(f"/tmp/rc-npy/{name}_w.npy", rng.standard_normal(w).astype(np.float32))
PY
run() { n=$1; shift; echo "== $n $*"; timeout 60 /tmp/wgconv-swz conv2d --input $N/${n}_x.npy --weight $N/${n}_w.npy --out $N/y.npy --check "$@" 2>&1 | tail -2; }
{ for k in gemm gemm_k16 gemm_n64_k16 gemm_m64_k16 gemm_n64_k32; do run w2v --stride 2 --kernel $k; run odd --padding 1 --kernel $k; run pix --transposed --stride 2 --padding 1 --kernel $k; done
  run wino --padding 1 --kernel winograd; run wino --padding 1; } > $R/gc.txt 2>&1; save checks
cat $R/steps.txt; grep -c "relative error" $R/gc.txt
