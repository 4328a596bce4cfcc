# v60 call C: the zoo-extra suite (378 layers of 18 architectures in neither zoo, v54's held-out
# check) and the throughput zoo (316 layers) scored whole on the v60 planner (`wgconv-b`, R61–R66
# since their last whole runs in v54 and v51), cuDNN fp32 and TF32 in the same call.
# Carry [".gl", "bin-v60"]. Each step is saved as it ends.
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig; export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
xz -dc bin-v60/c.tar.xz | tar xf - -C /tmp; chmod +x /tmp/wgconv-b
R=/tmp/rc; rm -rf $R; mkdir -p $R; T0=$(date +%s)
save() { echo "step $1 at $(($(date +%s)-T0)) s" >> $R/steps.txt; tar czf $OUT/rc.tgz -C $R . ; }
nvidia-smi --query-gpu=name,driver_version --format=csv > $R/gpu.txt; md5sum /tmp/wgconv-b > $R/md5.txt
S="--repeat 5 --launches 10 --no-reference"
Z=bench/suites/zoo-extra.json
timeout 240 /tmp/wgconv-b bench --suite $Z $S --json $R/x.json > $R/x.txt 2>&1; save x
timeout 150 python3 bench/torch_reference.py --suite $Z --repeat 5 --launches 10 --also-tf32 --json $R/xt.json > $R/xt.txt 2>&1; save xt
T=bench/suites/zoo-throughput.json
timeout 240 /tmp/wgconv-b bench --suite $T $S --json $R/z.json > $R/z.txt 2>&1; save z
timeout 150 python3 bench/torch_reference.py --suite $T --repeat 5 --launches 10 --also-tf32 --json $R/zt.json > $R/zt.txt 2>&1; save zt
cat $R/steps.txt $R/gpu.txt
