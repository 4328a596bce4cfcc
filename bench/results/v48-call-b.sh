# v48 call B: `col` (call A's winner, v48-variant-col.diff) against `col1` (col, and its
# one-column loader for one-tap filters too: `tap_major = icg % bk == 0`, where the two K orders
# coincide), interleaved twice, on the 118 throughput-zoo GEMM layers; registers; then every
# kernel (`--sweep`) on the 8 layers furthest below cuDNN fp32 in call A, with cuDNN fp32/TF32.
# Binaries in bin-v47/ (col) and bin-v48/ (col1), not committed.
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig; export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
xz -dc bin-v47/col.xz > /tmp/wgconv-col; xz -dc bin-v48/col1.xz > /tmp/wgconv-col1; chmod +x /tmp/wgconv-*
R=/tmp/rb; rm -rf $R; mkdir -p $R; T0=$(date +%s)
save() { echo "step $1 at $(($(date +%s)-T0)) s" >> $R/steps.txt; tar czf $OUT/rb.tgz -C $R . ; }
nvidia-smi --query-gpu=name,driver_version,clocks.sm --format=csv > $R/gpu.txt
for b in col col1; do timeout 40 /tmp/wgconv-$b bench --suite bench/results/v48-weak-suite.json --repeat 3 --launches 5 --no-reference --pipeline-stats > $R/stats-$b.txt 2>&1; done; save stats
G=bench/results/v47-gemm-zoo-suite.json; C="--repeat 5 --launches 10 --no-reference"
for r in 1 2; do for b in col col1; do timeout 100 /tmp/wgconv-$b bench --suite $G $C --json $R/g-$b-$r.json > $R/g-$b-$r.txt 2>&1; save g-$b-$r; done; done
W=bench/results/v48-weak-suite.json
timeout 150 /tmp/wgconv-col1 bench --suite $W $C --sweep --json $R/w-sweep.json > $R/w-sweep.txt 2>&1; save w-sweep
timeout 60 python3 bench/torch_reference.py --suite $W --rounds 2 --repeat 5 --launches 10 --also-tf32 --json $R/t-w.json > $R/t-w.txt 2>&1; save t-w
