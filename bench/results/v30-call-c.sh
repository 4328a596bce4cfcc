for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig; export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
mkdir -p /tmp/rc; T0=$(date +%s); N=./bin-ab/wgconv-new
save() { echo "step $1 at $(($(date +%s)-T0)) s" >> /tmp/rc/steps.txt; tar czf $OUT/rc.tgz -C /tmp/rc . ; }
S="--repeat 5 --launches 10 --no-reference"; P="--repeat 5 --launches 10 --also-tf32"
timeout 40 $N bench --suite default $S --json /tmp/rc/default.json > /tmp/rc/default.txt 2>&1; save d
timeout 40 $N bench --suite default $S --precision f16 --json /tmp/rc/default-f16.json > /tmp/rc/default-f16.txt 2>&1; save df
timeout 60 python3 bench/torch_reference.py --suite bench/suites/default.json $P --json /tmp/rc/torch-default.json > /tmp/rc/torch-default.txt 2>&1; save td
timeout 90 $N bench --suite bench/results/v30-weak-suite.json --repeat 5 --launches 10 --no-reference --sweep --json /tmp/rc/weak-sweep.json > /tmp/rc/weak-sweep.txt 2>&1; save w
MT=resnet50_b32,yolov8n_b16,mobilenet_v2_b32,efficientnet_b0_b32,wav2vec2_base_b16,whisper_base_b16,convnext_tiny_b32
timeout 120 $N bench --suite zoo-throughput --models $MT $S --json /tmp/rc/tp.json > /tmp/rc/tp.txt 2>&1; save p
timeout 120 python3 bench/torch_reference.py --suite bench/suites/zoo-throughput.json --models $MT $P --json /tmp/rc/torch-tp.json > /tmp/rc/torch-tp.txt 2>&1; save tp
python3 bench/gpu_check.py /tmp/gc > /tmp/rc/gc-cmds.txt 2>&1
E=$(( $(date +%s) + 140 )); sed -n '52,$p' /tmp/rc/gc-cmds.txt | while read -r line; do [ $(date +%s) -gt $E ] && break; echo "== $line"; timeout 30 $N $line 2>&1 | tail -2; done > /tmp/rc/gc.txt 2>&1; save gc
