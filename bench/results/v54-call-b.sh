# v54 call B: on the zoo-extra layers below 0.85x cuDNN fp32 in call A and that suite's other
# ungrouped direct layers of one input channel or at most 32 output channels, and 9 layers of the
# zoos in the same classes (`v54-weak-suite.json`, 104 layers): the planner twice and five
# kernels forced once each, to see which kernel wins each weak class (call A's `--sweep` reached only 10 layers in 200 s).
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig; export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
xz -dc bin-v54/base.xz > /tmp/wgconv; chmod +x /tmp/wgconv
R=/tmp/rb; rm -rf $R; mkdir -p $R; T0=$(date +%s)
save() { echo "step $1 at $(($(date +%s)-T0)) s" >> $R/steps.txt; tar czf $OUT/rb.tgz -C $R . ; }
nvidia-smi --query-gpu=name,driver_version,clocks.sm --format=csv > $R/gpu.txt
W=bench/results/v54-weak-suite.json; S="--repeat 5 --launches 10 --no-reference"
timeout 75 /tmp/wgconv bench --suite $W $S --json $R/plan-1.json > $R/plan-1.txt 2>&1; save plan-1
for k in direct_block gemm_n64_k16 gemm_k16 gemm_small_k32 grouped_oc4; do
  timeout 75 /tmp/wgconv bench --suite $W $S --kernel $k --json $R/k-$k.json > $R/k-$k.txt 2>&1; save $k; done
timeout 75 /tmp/wgconv bench --suite $W $S --json $R/plan-2.json > $R/plan-2.txt 2>&1; save plan-2
timeout 60 python3 bench/torch_reference.py --suite $W --repeat 5 --launches 10 --json $R/t.json > $R/t.txt 2>&1; save t
cat $R/steps.txt $R/gpu.txt
