# v48 call C: refitting the pointwise rule R12 on the kernels as they now are. Binary `c2` =
# col (v48-variant-col.diff) with the one-column loader for one-tap filters in the 16-deep
# entries too (call B: 1.08× there, 0.81–1.05× in 32-deep ones). The 66 layers of
# v48-pw-suite.json (every 1×1 layer the planner gives the staged tiles) planned and with each
# candidate kernel forced, two rounds each (a layer keeps its faster); cuDNN fp32/TF32.
# Binary in bin-v48/ (not committed).
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig; export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
xz -dc bin-v48/c2.xz > /tmp/wgconv-c2; chmod +x /tmp/wgconv-*
R=/tmp/rc; rm -rf $R; mkdir -p $R; T0=$(date +%s)
save() { echo "step $1 at $(($(date +%s)-T0)) s" >> $R/steps.txt; tar czf $OUT/rc.tgz -C $R . ; }
nvidia-smi --query-gpu=name,driver_version,clocks.sm --format=csv > $R/gpu.txt
P=bench/results/v48-pw-suite.json; C="--repeat 5 --launches 10 --rounds 2 --no-reference"
timeout 90 /tmp/wgconv-c2 bench --suite $P $C --json $R/p-planned.json > $R/p-planned.txt 2>&1; save planned
for k in gemm_k16 gemm_m64_k16 gemm_n64_k32 gemm_n64_k16 gemm_m64_k32; do
  timeout 70 /tmp/wgconv-c2 bench --suite $P $C --kernel $k --json $R/p-$k.json > $R/p-$k.txt 2>&1; save $k; done
timeout 80 python3 bench/torch_reference.py --suite $P --rounds 2 --repeat 5 --launches 10 --also-tf32 --json $R/t-p.json > $R/t-p.txt 2>&1; save t-p
