# v47 call C: the committed v47 kernels (`wgconv-v47`: K-tiles within one tap where ICg is a
# multiple of the K-tile depth and the filter has taps, channel-major loads without padding)
# against v46d, interleaved twice, on the 118 throughput-zoo GEMM layers; cuDNN fp32 and TF32 in
# the same call; `gpu_check.py`'s GEMM cases on v47 first; registers.
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig; export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
xz -dc bin-v46/v46d.xz > /tmp/wgconv-v46d; xz -dc bin-v47/v47.xz > /tmp/wgconv-v47; chmod +x /tmp/wgconv-*
R=/tmp/rc; mkdir -p $R; T0=$(date +%s)
save() { echo "step $1 at $(($(date +%s)-T0)) s" >> $R/steps.txt; tar czf $OUT/rc.tgz -C $R . ; }
nvidia-smi --query-gpu=name,driver_version,clocks.sm --format=csv > $R/gpu.txt
python3 bench/gpu_check.py /tmp/gc > $R/gc-cmds.txt
grep -i "gemm\|winograd" $R/gc-cmds.txt | while read l; do echo "== $l"; timeout 20 /tmp/wgconv-v47 $l 2>&1 | tail -2; done > $R/gc.txt 2>&1; save gc
timeout 40 /tmp/wgconv-v47 bench --suite bench/results/v47-stats-suite.json --repeat 3 --launches 5 --no-reference --pipeline-stats > $R/stats-v47.txt 2>&1; save stats
G=bench/results/v47-gemm-zoo-suite.json; C="--repeat 5 --launches 10 --no-reference"
for r in 1 2; do for b in v46d v47; do timeout 110 /tmp/wgconv-$b bench --suite $G $C --json $R/g-$b-$r.json > $R/g-$b-$r.txt 2>&1; save g-$b-$r; done; done
timeout 100 python3 bench/torch_reference.py --suite $G --rounds 2 --repeat 5 --launches 10 --also-tf32 --json $R/t-g.json > $R/t-g.txt 2>&1; save t-g
