# v51 call D: rule R55 on held-out layers. The committed R55 build (`bin-v51/r55.xz`) over
# v51-heldout-suite.json (12 layers of models in no suite: 7 that R55 takes, 5 it leaves), with
# `--tile-order n_fastest` and `m_fastest` forced, interleaved twice; cuDNN in the same call.
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig; export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
xz -dc bin-v51/r55.xz > /tmp/wgconv-r55; chmod +x /tmp/wgconv-r55
R=/tmp/rd; rm -rf $R; mkdir -p $R; T0=$(date +%s)
save() { echo "step $1 at $(($(date +%s)-T0)) s" >> $R/steps.txt; tar czf $OUT/rd.tgz -C $R . ; }
nvidia-smi --query-gpu=name,driver_version,clocks.sm --format=csv > $R/gpu.txt
C="--repeat 5 --launches 10 --no-reference"; S=bench/results/v51-heldout-suite.json
for r in 1 2; do for o in n_fastest m_fastest; do
  timeout 60 /tmp/wgconv-r55 bench --suite $S $C --tile-order $o --json $R/h-$o-$r.json > $R/h-$o-$r.txt 2>&1; save h-$o-$r; done; done
timeout 60 python3 bench/torch_reference.py --suite $S --repeat 5 --launches 10 --also-tf32 --json $R/t-h.json > $R/t-h.txt 2>&1; save t-h
cat $R/steps.txt
