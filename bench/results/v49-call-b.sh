# v49 call B (not run in v49: no device could be started; for the next session): rules R51–R54
# against v48 (`v48`). On v49-rules-suite.json (the 20 fit layers they move and the 22 held-out
# layers) the draft rules (`r51`, which also moved 1D and short-K transposed layers: their data
# decides whether R53 should take those) against v48, interleaved twice; the committed rules'
# estimate is `bench/plan_gain.py --plan <wgconv plan --json> --planned x-v48-* --forced x-r51-*`.
# Then the committed v49 (`v49`) against v48 on the six models of v47-models-suite.json and the
# default suite, once each (steps in order of need, each saved as it ends); cuDNN fp32/TF32 in
# the same call. Binaries in bin-v48/ and bin-v49/ (not committed).
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig; export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
xz -dc bin-v48/v48.xz > /tmp/wgconv-v48; xz -dc bin-v49/r51.xz > /tmp/wgconv-r51; xz -dc bin-v49/v49.xz > /tmp/wgconv-v49; chmod +x /tmp/wgconv-*
R=/tmp/rb; rm -rf $R; mkdir -p $R; T0=$(date +%s)
save() { echo "step $1 at $(($(date +%s)-T0)) s" >> $R/steps.txt; tar czf $OUT/rb.tgz -C $R . ; }
nvidia-smi --query-gpu=name,driver_version,clocks.sm --format=csv > $R/gpu.txt
C="--repeat 5 --launches 10 --no-reference"
bench() { timeout 70 /tmp/wgconv-$2 bench --suite $3 $C --json $R/$1-$2-$4.json > $R/$1-$2-$4.txt 2>&1; save $1-$2-$4; }
torch() { timeout 60 python3 bench/torch_reference.py --suite $2 --rounds 2 --repeat 5 --launches 10 --also-tf32 --json $R/t-$1.json > $R/t-$1.txt 2>&1; save t-$1; }
X=bench/results/v49-rules-suite.json; M=bench/results/v47-models-suite.json; D=bench/suites/default.json
bench x r51 $X 1; bench x v48 $X 1; torch x $X; bench x r51 $X 2; bench x v48 $X 2
bench m v49 $M 1; bench m v48 $M 1; torch m $M
bench d v49 $D 1; bench d v48 $D 1; torch d $D
