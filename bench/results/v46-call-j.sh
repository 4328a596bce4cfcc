# v46 call J: `wgconv-v46d` (the phase blocks' filter-row and -column tests as pipeline constants)
# against `wgconv-v46b` (uniform tests of KH and KW) and `wgconv-v46` (no test), interleaved, on
# the transposed few-output-channel suite, f32 (and f16: v46b, v46d); cuDNN fp32 in the same call.
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig; export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
for b in v46 v46b v46d; do xz -dc bin-v46/$b.xz > /tmp/wgconv-$b; done; chmod +x /tmp/wgconv-*
R=/tmp/rj; mkdir -p $R; T0=$(date +%s)
save() { echo "step $1 at $(($(date +%s)-T0)) s" >> $R/steps.txt; tar czf $OUT/rj.tgz -C $R . ; }
nvidia-smi --query-gpu=name,driver_version,clocks.sm --format=csv > $R/gpu.txt
S=bench/results/v46-transposed-few-oc-suite.json
C="--repeat 5 --launches 10 --no-reference"
for r in 1 2; do
 for b in v46 v46b v46d; do timeout 40 /tmp/wgconv-$b bench --suite $S $C --json $R/tf-$b-$r.json > $R/tf-$b-$r.txt 2>&1; save tf-$b-$r; done
 for b in v46b v46d; do timeout 40 /tmp/wgconv-$b bench --suite $S $C --dtype f16 --json $R/tf16-$b-$r.json > $R/tf16-$b-$r.txt 2>&1; save tf16-$b-$r; done; done
timeout 60 python3 bench/torch_reference.py --suite $S --rounds 2 --repeat 5 --launches 10 --json $R/t-tf.json > $R/t-tf.txt 2>&1; save t-tf
