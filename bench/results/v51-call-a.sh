# v51 call A (prepared in v50, not run: no device time left): the committed v50 binary
# (`bin-v50/v50.xz`, built from f9e9525; not committed) on the throughput
# zoo with the 16-deep tiles' K-tile loads forced each way (`--k-tile-loads`), against the
# planner's choice, one binary: every zoo layer the 16-deep tiles run, both loops, to refit
# `ConvKernel::fitted_k_tile_loads` on 316 layers (v50 fitted it on six models, an H100) and to
# check it on the H200. Then cuDNN in the same call.
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig; export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
xz -dc bin-v50/v50.xz > /tmp/wgconv-v50; chmod +x /tmp/wgconv-v50
R=/tmp/ra; rm -rf $R; mkdir -p $R; T0=$(date +%s)
save() { echo "step $1 at $(($(date +%s)-T0)) s" >> $R/steps.txt; tar czf $OUT/ra.tgz -C $R . ; }
nvidia-smi --query-gpu=name,driver_version,clocks.sm --format=csv > $R/gpu.txt
Z=bench/suites/zoo-throughput.json; C="--repeat 5 --launches 10 --no-reference"
# A warm-up pass compiles every pipeline (a cold machine's first pass ran past 60 s in v50).
timeout 200 /tmp/wgconv-v50 bench --suite $Z --repeat 1 --launches 1 --no-reference > /dev/null 2>&1; save warm
for l in planned ahead in_iteration; do
  F=""; [ $l != planned ] && F="--k-tile-loads $l"
  timeout 150 /tmp/wgconv-v50 bench --suite $Z $C $F --json $R/zt-$l.json > $R/zt-$l.txt 2>&1; save zt-$l; done
timeout 150 python3 bench/torch_reference.py --suite $Z --repeat 5 --launches 10 --also-tf32 --json $R/t-zt.json > $R/t-zt.txt 2>&1; save t-zt
cat $R/steps.txt
# Then: python3 bench/ab.py --a $R/zt-ahead.json --b $R/zt-in_iteration.json (layers the
# 16-deep tiles run differ between the two; others are noise), and bench/best_of.py for the zoo.
