for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig; export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
R=/tmp/rh; mkdir -p $R; T0=$(date +%s); H=./bin-ab/wgconv-h
save() { echo "step $1 at $(($(date +%s)-T0)) s" >> $R/steps.txt; tar czf $OUT/rh.tgz -C $R . ; }
S="--repeat 5 --launches 10 --no-reference"; P="--repeat 5 --launches 10 --also-tf32"
timeout 150 $H bench --suite zoo $S --json $R/zoo.json > $R/zoo.txt 2>&1; save z
timeout 130 $H bench --suite zoo-throughput $S --json $R/tp.json > $R/tp.txt 2>&1; save tp
timeout 30 $H bench --suite default $S --json $R/default.json > $R/default.txt 2>&1; save d
timeout 30 $H bench --suite default $S --precision f16 --json $R/default-f16.json > $R/default-f16.txt 2>&1; save d16
timeout 170 python3 bench/torch_reference.py --suite bench/suites/zoo.json $P --json $R/torch-zoo.json > $R/torch-zoo.txt 2>&1; save tz
timeout 100 python3 bench/torch_reference.py --suite bench/suites/zoo-throughput.json $P --json $R/torch-tp.json > $R/torch-tp.txt 2>&1; save ttp
timeout 40 python3 bench/torch_reference.py --suite bench/suites/default.json $P --json $R/torch-default.json > $R/torch-default.txt 2>&1; save td
