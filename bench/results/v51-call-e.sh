# v51 call E: the committed R55 build (`bin-v51/r55.xz`) planned over v47's six models, once,
# cuDNN fp32/TF32 in the same call: the models' summed conv time with R55.
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig; export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
xz -dc bin-v51/r55.xz > /tmp/wgconv-r55; chmod +x /tmp/wgconv-r55
R=/tmp/re; rm -rf $R; mkdir -p $R; T0=$(date +%s)
save() { echo "step $1 at $(($(date +%s)-T0)) s" >> $R/steps.txt; tar czf $OUT/re.tgz -C $R . ; }
nvidia-smi --query-gpu=name,driver_version,clocks.sm --format=csv > $R/gpu.txt
M=bench/results/v47-models-suite.json
timeout 60 /tmp/wgconv-r55 bench --suite $M --repeat 5 --launches 10 --no-reference --json $R/m-r55.json > $R/m-r55.txt 2>&1; save m-r55
timeout 45 python3 bench/torch_reference.py --suite $M --repeat 5 --launches 10 --also-tf32 --json $R/t-m.json > $R/t-m.txt 2>&1; save t-m
cat $R/steps.txt; grep "^model" $R/m-r55.txt
