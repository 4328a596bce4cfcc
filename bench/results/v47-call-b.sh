# v47 call B: K-order variants of the staged GEMM tiles on call A's losers and winners, against
# the committed kernels (`v46d`): `tap` (call A's tap-major K), `blk` (channel blocks, each
# block's taps consecutive; new load address form), `blk0` (as blk, the old address form
# without padding). Interleaved twice; registers of the variants.
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig; export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
xz -dc bin-v46/v46d.xz > /tmp/wgconv-v46d; for v in tap blk blk0; do xz -dc bin-v47/$v.xz > /tmp/wgconv-$v; done; chmod +x /tmp/wgconv-*
R=/tmp/rb; mkdir -p $R; T0=$(date +%s)
save() { echo "step $1 at $(($(date +%s)-T0)) s" >> $R/steps.txt; tar czf $OUT/rb.tgz -C $R . ; }
nvidia-smi --query-gpu=name,driver_version,clocks.sm --format=csv > $R/gpu.txt
S=bench/results/v47-stats-suite.json
for b in blk blk0; do timeout 40 /tmp/wgconv-$b bench --suite $S --repeat 3 --launches 5 --no-reference --pipeline-stats > $R/stats-$b.txt 2>&1; done; save stats
G=bench/results/v47-ab-suite.json; C="--repeat 5 --launches 10 --no-reference"
for r in 1 2; do for b in v46d tap blk blk0; do timeout 60 /tmp/wgconv-$b bench --suite $G $C --json $R/g-$b-$r.json > $R/g-$b-$r.txt 2>&1; save g-$b-$r; done; done
