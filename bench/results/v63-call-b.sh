# v63 call B: where the Winograd layers' time goes. Each layer of `v63-winograd-split-suite.json`
# whole (planned), and its products' grouped 1×1 GEMM alone (`_prod`), planned and with the
# products' own loop (K-tile loads ahead, N tiles fastest), twice each; the device's copy and
# FMA ceilings (--roofline); cuDNN fp32 on the whole layers. Carry [".gl", "bin-v63"].
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig; export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
xz -dc bin-v63/e.tar.xz | tar xf - -C /tmp; chmod +x /tmp/wgconv-e
R=/tmp/rb; rm -rf $R; mkdir -p $R; T0=$(date +%s)
save() { echo "step $1 at $(($(date +%s)-T0)) s" >> $R/steps.txt; tar czf $OUT/rb.tgz -C $R . ; }
nvidia-smi --query-gpu=name,driver_version --format=csv > $R/gpu.txt; md5sum /tmp/wgconv-? > $R/md5.txt
S="--repeat 5 --launches 10 --no-reference"; W=bench/results/v63-winograd-split-suite.json
timeout 120 /tmp/wgconv-e bench --suite $W $S --roofline --json $R/w-1.json > $R/w-1.txt 2>&1; save w-1
timeout 120 /tmp/wgconv-e bench --suite $W $S --k-tile-loads ahead --tile-order n_fastest --json $R/wl-1.json > $R/wl-1.txt 2>&1; save wl-1
timeout 120 /tmp/wgconv-e bench --suite $W $S --json $R/w-2.json > $R/w-2.txt 2>&1; save w-2
timeout 120 /tmp/wgconv-e bench --suite $W $S --k-tile-loads ahead --tile-order n_fastest --json $R/wl-2.json > $R/wl-2.txt 2>&1; save wl-2
timeout 120 python3 bench/torch_reference.py --suite $W --repeat 5 --launches 10 --json $R/t.json > $R/t.txt 2>&1; save t
cat $R/steps.txt $R/gpu.txt
