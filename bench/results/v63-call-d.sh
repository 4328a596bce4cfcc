# v63 call D: the 180 Winograd layers of the v63 planner among R61's 146, the 5×5 suite and the
# held-out suite, whole (`v63-winograd-suite.json`), v63's build (`wgconv-e`, products' loads ahead)
# against `wgconv-f` (the same with the products' loads in their own iteration), interleaved
# e, f, f, e. Carry [".gl", "bin-v63"].
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig; export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
for b in e f; do xz -dc bin-v63/$b.tar.xz | tar xf - -C /tmp; chmod +x /tmp/wgconv-$b; done
R=/tmp/rd; rm -rf $R; mkdir -p $R; T0=$(date +%s)
save() { echo "step $1 at $(($(date +%s)-T0)) s" >> $R/steps.txt; tar czf $OUT/rd.tgz -C $R . ; }
nvidia-smi --query-gpu=name,driver_version --format=csv > $R/gpu.txt; md5sum /tmp/wgconv-? > $R/md5.txt
S="--repeat 5 --launches 10 --no-reference"
W="--suite bench/results/v63-winograd-suite.json"
timeout 100 /tmp/wgconv-e bench $W $S --json $R/e-1.json > $R/e-1.txt 2>&1; save e-1
timeout 100 /tmp/wgconv-f bench $W $S --json $R/f-1.json > $R/f-1.txt 2>&1; save f-1
timeout 100 /tmp/wgconv-f bench $W $S --json $R/f-2.json > $R/f-2.txt 2>&1; save f-2
timeout 100 /tmp/wgconv-e bench $W $S --json $R/e-2.json > $R/e-2.txt 2>&1; save e-2
cat $R/steps.txt $R/gpu.txt
