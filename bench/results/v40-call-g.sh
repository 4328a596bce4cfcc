for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig; export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
R=/tmp/rg; mkdir -p $R; T0=$(date +%s); B=./bin-ab/wgconv-v40
save() { echo "step $1 at $(($(date +%s)-T0)) s" >> $R/steps.txt; tar czf $OUT/rg.tgz -C $R . ; }
S="--repeat 5 --launches 10 --no-reference"; P="--repeat 5 --launches 10 --also-tf32"
timeout 170 $B bench --suite bench/suites/zoo.json $S --json $R/zoo.json > $R/zoo.txt 2>&1; save zoo
timeout 90 python3 bench/torch_reference.py --suite bench/suites/zoo.json $P --json $R/t-zoo.json > $R/t-zoo.txt 2>&1; save tz
