# v47 call A: tap-major K-tiles in the staged GEMM tiles (`wgconv-tap`) against the committed
# kernels (`wgconv-v46d`, 874c1d6 = bcc21fc's kernels), interleaved twice, on the 118
# throughput-zoo layers v44 planned on the GEMM tiles; registers of both; cuDNN fp32 and TF32.
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig; export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
xz -dc bin-v46/v46d.xz > /tmp/wgconv-v46d; xz -dc bin-v47/tap.xz > /tmp/wgconv-tap; chmod +x /tmp/wgconv-*
R=/tmp/ra; mkdir -p $R; T0=$(date +%s)
save() { echo "step $1 at $(($(date +%s)-T0)) s" >> $R/steps.txt; tar czf $OUT/ra.tgz -C $R . ; }
nvidia-smi --query-gpu=name,driver_version,clocks.sm --format=csv > $R/gpu.txt
S=bench/results/v47-stats-suite.json
for b in v46d tap; do timeout 40 /tmp/wgconv-$b bench --suite $S --repeat 3 --launches 5 --no-reference --pipeline-stats > $R/stats-$b.txt 2>&1; done; save stats
G=bench/results/v47-gemm-zoo-suite.json; C="--repeat 5 --launches 10 --no-reference"
for r in 1 2; do for b in v46d tap; do timeout 110 /tmp/wgconv-$b bench --suite $G $C --json $R/g-$b-$r.json > $R/g-$b-$r.txt 2>&1; save g-$b-$r; done; done
timeout 100 python3 bench/torch_reference.py --suite $G --rounds 2 --repeat 5 --launches 10 --also-tf32 --json $R/t-g.json > $R/t-g.txt 2>&1; save t-g
