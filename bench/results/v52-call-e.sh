# v52 call E: R56 held out: both int8 tile widths forced over 110 held-out int8 pointwise layers
# (v52-int8-heldout-suite.json), interleaved twice, and the planned build once.
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig; export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
xz -dc bin-v52/from.xz > /tmp/wgconv-new; chmod +x /tmp/wgconv-*
R=/tmp/re; rm -rf $R; mkdir -p $R; T0=$(date +%s)
save() { echo "step $1 at $(($(date +%s)-T0)) s" >> $R/steps.txt; tar czf $OUT/re.tgz -C $R . ; }
nvidia-smi --query-gpu=name,driver_version,clocks.sm --format=csv > $R/gpu.txt
I=bench/results/v52-int8-heldout-suite.json; S="--repeat 5 --launches 10 --no-reference"
for i in 1 2; do for k in q8_dot4_gemm q8_dot4_gemm_n32; do
  timeout 70 /tmp/wgconv-new bench --suite $I $S --q8-kernel $k --json $R/h-$k-$i.json > $R/h-$k-$i.txt 2>&1; save h-$k-$i
done; done
timeout 60 python3 bench/torch_reference.py --suite $I --repeat 5 --launches 10 --json $R/t-h.json > $R/t-h.txt 2>&1; save t-h
cat $R/steps.txt
