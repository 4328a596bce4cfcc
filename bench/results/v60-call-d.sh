# v60 call D: DenseNet-121 b32 of zoo-extra again, 3 rounds each side (each layer its fastest
# round): in call C five consecutive 1×1 layers of its second block (l8–l12) ran 1.3–1.85× their
# v54 call A times on the same kernel and configuration, an apparent outside-load episode (v42).
# Carry [".gl", "bin-v60"].
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig; export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
xz -dc bin-v60/c.tar.xz | tar xf - -C /tmp; chmod +x /tmp/wgconv-b
R=/tmp/rd; rm -rf $R; mkdir -p $R; T0=$(date +%s)
save() { echo "step $1 at $(($(date +%s)-T0)) s" >> $R/steps.txt; tar czf $OUT/rd.tgz -C $R . ; }
nvidia-smi --query-gpu=name,driver_version --format=csv > $R/gpu.txt
Z="--suite bench/suites/zoo-extra.json --models densenet121_b32,alexnet_b64"
timeout 200 /tmp/wgconv-b bench $Z --repeat 5 --launches 10 --no-reference --rounds 3 --json $R/d.json > $R/d.txt 2>&1; save d
timeout 150 python3 bench/torch_reference.py $Z --repeat 5 --launches 10 --rounds 3 --also-tf32 --json $R/dt.json > $R/dt.txt 2>&1; save dt
cat $R/steps.txt
