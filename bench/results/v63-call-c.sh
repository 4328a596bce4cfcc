# v63 call C: every configuration tuning tries (`--sweep`) on the products' grouped 1×1 GEMMs of
# call B's Winograd layers (`v63-prod-suite.json`). Carry [".gl", "bin-v63"].
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig; export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
xz -dc bin-v63/e.tar.xz | tar xf - -C /tmp; chmod +x /tmp/wgconv-e
R=/tmp/rc; rm -rf $R; mkdir -p $R; T0=$(date +%s)
save() { echo "step $1 at $(($(date +%s)-T0)) s" >> $R/steps.txt; tar czf $OUT/rc.tgz -C $R . ; }
timeout 400 /tmp/wgconv-e bench --suite bench/results/v63-prod-suite.json --repeat 5 --launches 10 --no-reference --sweep --json $R/s.json > $R/s.txt 2>&1; save s
cat $R/steps.txt
