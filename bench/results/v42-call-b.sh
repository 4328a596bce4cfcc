for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig; export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
R=/tmp/rb; mkdir -p $R; T0=$(date +%s)
save() { echo "step $1 at $(($(date +%s)-T0)) s" >> $R/steps.txt; tar czf $OUT/rb.tgz -C $R . ; }
B=./bin-ab/wgconv-v41; F="--no-reference"
nvidia-smi -q -d CLOCK,PERFORMANCE,POWER > $R/smi0.txt 2>&1; nvidia-smi > $R/smi-list.txt 2>&1
for r in 1 2; do
timeout 150 $B bench --suite bench/results/v42-flip-suite.json $F --json $R/flip-$r.json > $R/flip-$r.txt 2>&1; save flip-$r
timeout 100 $B bench --suite bench/suites/zoo-throughput.json --models resnet50_b32,mobilenet_v3_large_b32 $F --json $R/zt-$r.json > $R/zt-$r.txt 2>&1; save zt-$r
done
nvidia-smi -q -d CLOCK,PERFORMANCE,POWER > $R/smi1.txt 2>&1; save end
