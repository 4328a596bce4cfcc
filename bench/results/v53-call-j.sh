# v53 call J: single-channel stems outside R57 (1D into 16–64 channels, 2D grayscale stems):
# `direct_block` forced against the planner (R57's build), interleaved twice; cuDNN fp32.
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig; export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
xz -dc bin-v53/r57.xz > /tmp/wgconv; chmod +x /tmp/wgconv
R=/tmp/rj; rm -rf $R; mkdir -p $R; T0=$(date +%s)
save() { echo "step $1 at $(($(date +%s)-T0)) s" >> $R/steps.txt; tar czf $OUT/rj.tgz -C $R . ; }
nvidia-smi --query-gpu=name,driver_version,clocks.sm --format=csv > $R/gpu.txt
T=bench/results/v53-mono-suite.json; S="--repeat 5 --launches 10 --no-reference"
for i in 1 2; do
  timeout 60 /tmp/wgconv bench --suite $T $S --json $R/plan-$i.json > $R/plan-$i.txt 2>&1; save plan-$i
  timeout 60 /tmp/wgconv bench --suite $T $S --kernel direct_block --json $R/db-$i.json > $R/db-$i.txt 2>&1; save db-$i
done
timeout 60 python3 bench/torch_reference.py --suite $T --repeat 5 --launches 10 --json $R/t.json > $R/t.txt 2>&1; save t
cat $R/steps.txt $R/gpu.txt
