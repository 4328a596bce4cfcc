for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig; export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
R=/tmp/rf; mkdir -p $R; T0=$(date +%s); B=./bin-ab/wgconv-v42
save() { echo "step $1 at $(($(date +%s)-T0)) s" >> $R/steps.txt; tar czf $OUT/rf.tgz -C $R . ; }
M=resnet50_b32,mobilenet_v2_b32,yolov8n_b16; Z=bench/suites/zoo-throughput.json
timeout 70 $B bench --suite bench/results/v42-weak-suite.json --sweep --repeat 5 --launches 10 --no-reference --json $R/sweep.json > $R/sweep.txt 2>&1; save sweep
timeout 110 $B bench --suite $Z --models $M --rounds 2 --repeat 5 --launches 10 --no-reference --json $R/zt.json > $R/zt.txt 2>&1; save zt
timeout 100 python3 bench/torch_reference.py --suite $Z --models $M --rounds 2 --repeat 5 --launches 10 --also-tf32 --json $R/t-zt.json > $R/t-zt.txt 2>&1; save t-zt
