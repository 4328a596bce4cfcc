for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig; export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
R=/tmp/rl; mkdir -p $R; T0=$(date +%s); K=./bin-ab/wgconv-k; L=./bin-ab/wgconv-l
save() { echo "step $1 at $(($(date +%s)-T0)) s" >> $R/steps.txt; tar czf $OUT/rl.tgz -C $R . ; }
S="--repeat 5 --launches 10 --no-reference"; P="--repeat 5 --launches 10 --also-tf32"
M=mobilenet_v2_b32,mobilenet_v3_large_b32,efficientnet_b0_b32,regnet_y_1_6gf_b32
for i in 1 2; do
timeout 40 $K bench --suite bin-ab/changed.json $S --json $R/ch-old$i.json > $R/ch-old$i.txt 2>&1
timeout 40 $L bench --suite bin-ab/changed.json $S --json $R/ch-new$i.json > $R/ch-new$i.txt 2>&1; save ch$i
done
timeout 150 $L bench --suite zoo $S --json $R/zoo.json > $R/zoo.txt 2>&1; save zoo
timeout 60 python3 bench/torch_reference.py --suite bench/suites/zoo.json $P --json $R/torch-zoo.json > $R/torch-zoo.txt 2>&1; save tz
timeout 90 $L bench --suite zoo-throughput --models $M $S --json $R/tp4.json > $R/tp4.txt 2>&1; save tp
timeout 60 python3 bench/torch_reference.py --suite bench/suites/zoo-throughput.json --models $M $P --json $R/torch-tp4.json > $R/torch-tp4.txt 2>&1; save ttp
