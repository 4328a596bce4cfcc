# v46 call H (H100 or H200): the committed binary (`wgconv-head`, 2151b89: transposed_few_oc's
# stride-phase split) against the phase-block entry (`wgconv-v46`), interleaved, on the
# transposed few-output-channel suite in f32 and f16, then v45 call G's comparison (few4 + R48 on
# the few-output-channel and f16 pointwise layers), cuDNN in the same call.
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig; export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
xz -dc bin-v45/head.xz > /tmp/wgconv-head; xz -dc bin-v45/v45.xz > /tmp/wgconv-v45; xz -dc bin-v46/v46.xz > /tmp/wgconv-v46; chmod +x /tmp/wgconv-*
R=/tmp/rh; mkdir -p $R; T0=$(date +%s)
save() { echo "step $1 at $(($(date +%s)-T0)) s" >> $R/steps.txt; tar czf $OUT/rh.tgz -C $R . ; }
nvidia-smi --query-gpu=name,driver_version,clocks.sm --format=csv > $R/gpu.txt
S=bench/results/v46-transposed-few-oc-suite.json
C="--repeat 5 --launches 10 --no-reference"
for r in 1 2; do for b in head v46; do
 timeout 40 /tmp/wgconv-$b bench --suite $S $C --json $R/tf-$b-$r.json > $R/tf-$b-$r.txt 2>&1; save tf-$b-$r
 timeout 40 /tmp/wgconv-$b bench --suite $S $C --dtype f16 --json $R/tf16-$b-$r.json > $R/tf16-$b-$r.txt 2>&1; save tf16-$b-$r; done; done
timeout 60 python3 bench/torch_reference.py --suite $S --rounds 2 --repeat 5 --launches 10 --also-tf32 --json $R/t-tf.json > $R/t-tf.txt 2>&1; save t-tf
timeout 60 python3 bench/torch_reference.py --suite $S --rounds 2 --repeat 5 --launches 10 --dtype float16 --json $R/t16-tf.json > $R/t16-tf.txt 2>&1; save t16-tf
for b in v45 head; do
 timeout 30 /tmp/wgconv-$b bench --suite bench/results/v45-fewoc-suite.json $C --json $R/fo-$b.json > $R/fo-$b.txt 2>&1; save fo-$b
 timeout 40 /tmp/wgconv-$b bench --suite bench/results/v43-pw-changed.json $C --dtype f16 --json $R/pw16-$b.json > $R/pw16-$b.txt 2>&1; save pw16-$b; done
timeout 40 python3 bench/torch_reference.py --suite bench/results/v45-fewoc-suite.json --rounds 2 --repeat 5 --launches 10 --json $R/t-fo.json > $R/t-fo.txt 2>&1; save t-fo
timeout 40 python3 bench/torch_reference.py --suite bench/results/v43-pw-changed.json --rounds 2 --repeat 5 --launches 10 --dtype float16 --json $R/t16-pw.json > $R/t16-pw.txt 2>&1; save t16-pw
