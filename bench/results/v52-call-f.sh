# v52 call F: R56 as a wave rule (`waves`) against R56 as < 96 tiles (`from`), both planned,
# interleaved twice, over the held-out and the fitted int8 layers.
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig; export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
xz -dc bin-v52/from.xz > /tmp/wgconv-from; xz -dc bin-v52/waves.xz > /tmp/wgconv-waves; chmod +x /tmp/wgconv-*
R=/tmp/rf; rm -rf $R; mkdir -p $R; T0=$(date +%s)
save() { echo "step $1 at $(($(date +%s)-T0)) s" >> $R/steps.txt; tar czf $OUT/rf.tgz -C $R . ; }
nvidia-smi --query-gpu=name,driver_version,clocks.sm --format=csv > $R/gpu.txt
S="--repeat 5 --launches 10 --no-reference"
for i in 1 2; do for b in from waves; do
  timeout 60 /tmp/wgconv-$b bench --suite bench/results/v52-int8-heldout-suite.json $S --json $R/h-$b-$i.json > $R/h-$b-$i.txt 2>&1; save h-$b-$i
  timeout 30 /tmp/wgconv-$b bench --suite bench/results/v52-int8-suite.json $S --json $R/f-$b-$i.json > $R/f-$b-$i.txt 2>&1; save f-$b-$i
done; done
cat $R/steps.txt
