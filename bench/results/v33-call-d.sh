for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig; export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
R=/tmp/rd; mkdir -p $R; T0=$(date +%s)
save() { echo "step $1 at $(($(date +%s)-T0)) s" >> $R/steps.txt; tar czf $OUT/rd.tgz -C $R . ; }
S="--suite bench/suites/zoo-throughput.json --repeat 5 --launches 10 --no-reference"
M1=regnet_y_1_6gf_b32,yolov8n_b16; M2=mobilenet_v2_b32,efficientnet_b0_b32
for b in D A; do timeout 80 ./bin-ab/wgconv-$b bench $S --models $M1 --json $R/$b-1.json > $R/$b-1.txt 2>&1; save $b-1; done
timeout 60 python3 bench/torch_reference.py --suite bench/suites/zoo-throughput.json --models $M1 --repeat 5 --launches 10 --also-tf32 --json $R/t-1.json > $R/t-1.txt 2>&1; save t-1
for b in D A; do timeout 70 ./bin-ab/wgconv-$b bench $S --models $M2 --json $R/$b-2.json > $R/$b-2.txt 2>&1; save $b-2; done
timeout 50 python3 bench/torch_reference.py --suite bench/suites/zoo-throughput.json --models $M2 --repeat 5 --launches 10 --also-tf32 --json $R/t-2.json > $R/t-2.txt 2>&1; save t-2
