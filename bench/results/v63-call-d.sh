# v63 call D: the Winograd products' grouped 1×1 GEMMs of 180 layers (`v63-products-suite.json`)
# alone, N tiles fastest as Winograd runs them, under five configurations: the planner's kernel
# with its K-tile loads a K-tile ahead (what Winograd runs since v50: `pa`) and in their own
# iteration (`pi`); `gemm_n64_k16`, `gemm_m64_k16` and `gemm_k16` forced, loads in their
# iteration (`n64`, `m64`, `k16`). Carry [".gl", "bin-v63"].
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig; export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
xz -dc bin-v63/e.tar.xz | tar xf - -C /tmp; chmod +x /tmp/wgconv-e
R=/tmp/rd; rm -rf $R; mkdir -p $R; T0=$(date +%s)
save() { echo "step $1 at $(($(date +%s)-T0)) s" >> $R/steps.txt; tar czf $OUT/rd.tgz -C $R . ; }
nvidia-smi --query-gpu=name,driver_version --format=csv > $R/gpu.txt
S="--repeat 5 --launches 10 --no-reference --tile-order n_fastest"; P=bench/results/v63-products-suite.json
timeout 110 /tmp/wgconv-e bench --suite $P $S --k-tile-loads ahead --json $R/pa.json > $R/pa.txt 2>&1; save pa
timeout 110 /tmp/wgconv-e bench --suite $P $S --k-tile-loads in_iteration --json $R/pi.json > $R/pi.txt 2>&1; save pi
for k in n64 m64 k16; do
  timeout 110 /tmp/wgconv-e bench --suite $P $S --kernel $([ $k = k16 ] && echo gemm_k16 || echo gemm_${k}_k16) --k-tile-loads in_iteration --json $R/$k.json > $R/$k.txt 2>&1; save $k
done
cat $R/steps.txt $R/gpu.txt
