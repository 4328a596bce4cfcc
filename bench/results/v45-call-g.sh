# v45 call G (an H200 wanted): the committed v45 (`wgconv-head`: R47, R48, the few-output-channel
# kernels' loads in flight) against 534af17 (`wgconv-v45`: R47 only), interleaved, on the
# few-output-channel layers and on R46's pointwise layers on f16 tensors, cuDNN in the same call.
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig; export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
for b in v45 head; do xz -dc bin-v45/$b.xz > /tmp/wgconv-$b; chmod +x /tmp/wgconv-$b; done
R=/tmp/rg; mkdir -p $R; T0=$(date +%s)
save() { echo "step $1 at $(($(date +%s)-T0)) s" >> $R/steps.txt; tar czf $OUT/rg.tgz -C $R . ; }
C="--repeat 5 --launches 10 --no-reference"
for r in 1 2; do for b in v45 head; do
 timeout 30 /tmp/wgconv-$b bench --suite bench/results/v45-fewoc-suite.json $C --json $R/fo-$b-$r.json > $R/fo-$b-$r.txt 2>&1; save fo-$b-$r
 timeout 40 /tmp/wgconv-$b bench --suite bench/results/v43-pw-changed.json $C --dtype f16 --json $R/pw16-$b-$r.json > $R/pw16-$b-$r.txt 2>&1; save pw16-$b-$r; done; done
timeout 40 python3 bench/torch_reference.py --suite bench/results/v45-fewoc-suite.json --rounds 2 --repeat 5 --launches 10 --json $R/t-fo.json > $R/t-fo.txt 2>&1; save t-fo
timeout 40 python3 bench/torch_reference.py --suite bench/results/v43-pw-changed.json --rounds 2 --repeat 5 --launches 10 --dtype float16 --json $R/t16-pw.json > $R/t16-pw.txt 2>&1; save t16-pw
nvidia-smi --query-gpu=name,driver_version,clocks.sm --format=csv > $R/gpu.txt; save gpu
