# v51 call B: the throughput zoo (316 layers of 14 models) on the v51 binary
# (`bin-v51/new.xz`: v50's kernels and planner, `direct_block` with interleaved pixels),
# planned and with the 16-deep tiles' K-tile loads forced each way (`--k-tile-loads`): every zoo
# layer those tiles run, both loops, to refit `ConvKernel::fitted_k_tile_loads` on 316 layers
# (v50 fitted it on six models, an H100), and the zoo scored whole. cuDNN in the same call.
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig; export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
xz -dc bin-v51/new.xz > /tmp/wgconv-new; chmod +x /tmp/wgconv-new
R=/tmp/rb; rm -rf $R; mkdir -p $R; T0=$(date +%s)
save() { echo "step $1 at $(($(date +%s)-T0)) s" >> $R/steps.txt; tar czf $OUT/rb.tgz -C $R . ; }
nvidia-smi --query-gpu=name,driver_version,clocks.sm --format=csv > $R/gpu.txt
Z=bench/suites/zoo-throughput.json; C="--repeat 5 --launches 10 --no-reference"
for l in planned ahead in_iteration; do
  F=""; [ $l != planned ] && F="--k-tile-loads $l"
  timeout 170 /tmp/wgconv-new bench --suite $Z $C $F --json $R/zt-$l.json > $R/zt-$l.txt 2>&1; save zt-$l; done
timeout 120 python3 bench/torch_reference.py --suite $Z --repeat 5 --launches 10 --also-tf32 --json $R/t-zt.json > $R/t-zt.txt 2>&1; save t-zt
cat $R/steps.txt
