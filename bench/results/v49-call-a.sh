# v49 call A (prepared in v48, not yet run; an H200 wanted, an H100 does for the fit): refitting
# R15's tile choice for layers with taps on v48's kernels. The committed v48 binary (`v48`,
# build it from the v48 commit) on `v49-taps-suite.json`: planned, and with each staged kernel
# and `grouped_oc4` forced (where a kernel cannot run a layer the planner's runs instead; the
# kernel column says which ran), two rounds each; cuDNN fp32/TF32. About 7 minutes: split the
# forced runs over two calls if the first runs slow.
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig; export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
xz -dc bin-v48/v48.xz > /tmp/wgconv-v48; chmod +x /tmp/wgconv-v48
R=/tmp/ra; rm -rf $R; mkdir -p $R; T0=$(date +%s)
save() { echo "step $1 at $(($(date +%s)-T0)) s" >> $R/steps.txt; tar czf $OUT/ra.tgz -C $R . ; }
nvidia-smi --query-gpu=name,driver_version,clocks.sm --format=csv > $R/gpu.txt
S=bench/results/v49-taps-suite.json; C="--repeat 5 --launches 10 --rounds 2 --no-reference"
timeout 90 /tmp/wgconv-v48 bench --suite $S $C --json $R/p-planned.json > $R/p-planned.txt 2>&1; save planned
for k in gemm_k16 gemm_m64_k16 gemm_n64_k16 gemm_n64_k32 grouped_oc4; do
  timeout 80 /tmp/wgconv-v48 bench --suite $S $C --kernel $k --json $R/p-$k.json > $R/p-$k.txt 2>&1; save $k; done
timeout 80 python3 bench/torch_reference.py --suite $S --rounds 2 --repeat 5 --launches 10 --also-tf32 --json $R/t-p.json > $R/t-p.txt 2>&1; save t-p
