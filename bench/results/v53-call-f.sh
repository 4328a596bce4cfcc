# v53 call F: wav2vec 2.0 b16's layers, planned and tuned (`--tune`: every configuration wgconv
# has for each layer timed, the fastest kept), cuDNN fp32 in the same call: is the 2 % gap the
# planner's or the kernels'?
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig; export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
xz -dc bin-v53/roof.xz > /tmp/wgconv; chmod +x /tmp/wgconv
R=/tmp/rf; rm -rf $R; mkdir -p $R; T0=$(date +%s)
save() { echo "step $1 at $(($(date +%s)-T0)) s" >> $R/steps.txt; tar czf $OUT/rf.tgz -C $R . ; }
nvidia-smi --query-gpu=name,driver_version,clocks.sm --format=csv > $R/gpu.txt
M=bench/results/v47-models-suite.json; S="--repeat 5 --launches 10 --no-reference --models wav2vec2_base_b16"
timeout 60 /tmp/wgconv bench --suite $M $S --rounds 2 --json $R/plan.json > $R/plan.txt 2>&1; save plan
timeout 300 /tmp/wgconv bench --suite $M $S --tune --tune-cache $R/tune-cache.json --json $R/tune.json > $R/tune.txt 2>&1; save tune
timeout 60 /tmp/wgconv bench --suite $M $S --rounds 2 --json $R/plan2.json > $R/plan2.txt 2>&1; save plan2
timeout 60 python3 bench/torch_reference.py --suite $M --models wav2vec2_base_b16 --repeat 5 --launches 10 --rounds 2 --json $R/t.json > $R/t.txt 2>&1; save t
cat $R/steps.txt $R/gpu.txt; grep "wav2vec\|^model" $R/plan.txt $R/tune.txt $R/plan2.txt | cut -c1-200
