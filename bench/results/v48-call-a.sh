# v48 call A (prepared in v47, not yet run; an H200 wanted, an H100 does for the A/B): the
# committed v47 kernels (`wgconv-v47c` = 0f9a0df) against `col`
# (`v48-variant-col.diff` on v47c: with K-tiles within one tap each B loader takes one column and
# half the K-tile's rows, so one column position, padding test and tile address per K-tile),
# and `col0` (`v48-variant-col0.diff`: col, and the tap-major address form without padding too),
# interleaved twice, on the 118 throughput-zoo GEMM layers; registers; cuDNN fp32 and TF32.
# Binaries in bin-v46/ and bin-v47/ (not committed; rebuild v47c from 0f9a0df, col and col0 with the diffs).
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig; export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
for b in v47c col col0; do xz -dc bin-v47/$b.xz > /tmp/wgconv-$b; done; chmod +x /tmp/wgconv-*
R=/tmp/ra; rm -rf $R; mkdir -p $R; T0=$(date +%s)
save() { echo "step $1 at $(($(date +%s)-T0)) s" >> $R/steps.txt; tar czf $OUT/ra.tgz -C $R . ; }
nvidia-smi --query-gpu=name,driver_version,clocks.sm --format=csv > $R/gpu.txt
for b in v47c col col0; do timeout 40 /tmp/wgconv-$b bench --suite bench/results/v47-stats-suite.json --repeat 3 --launches 5 --no-reference --pipeline-stats > $R/stats-$b.txt 2>&1; done; save stats
G=bench/results/v47-gemm-zoo-suite.json; C="--repeat 5 --launches 10 --no-reference"
for r in 1 2; do for b in v47c col col0; do timeout 100 /tmp/wgconv-$b bench --suite $G $C --json $R/g-$b-$r.json > $R/g-$b-$r.txt 2>&1; save g-$b-$r; done; done
timeout 100 python3 bench/torch_reference.py --suite $G --rounds 2 --repeat 5 --launches 10 --also-tf32 --json $R/t-g.json > $R/t-g.txt 2>&1; save t-g
