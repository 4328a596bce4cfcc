for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig; export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
R=/tmp/rd; mkdir -p $R; T0=$(date +%s); B=./bin-ab/wgconv-v41
save() { echo "step $1 at $(($(date +%s)-T0)) s" >> $R/steps.txt; tar czf $OUT/rd.tgz -C $R . ; }
S="--repeat 5 --launches 10 --no-reference"; P="--repeat 5 --launches 10 --also-tf32"
timeout 150 $B bench --suite zoo-throughput $S --json $R/zt.json > $R/zt.txt 2>&1; save zt
timeout 30 $B bench --suite default $S --json $R/def.json > $R/def.txt 2>&1; save def
timeout 30 $B bench --suite default $S --precision f16 --json $R/def16.json > $R/def16.txt 2>&1; save def16
timeout 130 python3 bench/torch_reference.py --suite bench/suites/zoo-throughput.json $P --json $R/t-zt.json > $R/t-zt.txt 2>&1; save t-zt
timeout 40 python3 bench/torch_reference.py --suite bench/suites/default.json $P --json $R/t-def.json > $R/t-def.txt 2>&1; save t-def
