for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig; export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
tar xJf bin-ab/bins.tar.xz -C bin-ab
R=/tmp/rb; mkdir -p $R; T0=$(date +%s)
save() { echo "step $1 at $(($(date +%s)-T0)) s" >> $R/steps.txt; tar czf $OUT/rb.tgz -C $R . ; }
S=bench/results/v43-pw-changed.json; C="--repeat 5 --launches 10 --no-reference"
for r in 1 2; do for b in v42 v43; do timeout 60 bin-ab/wgconv-$b bench --suite $S $C --json $R/pc-$b-$r.json > $R/pc-$b-$r.txt 2>&1; save pc-$b-$r; done; done
python3 bench/gpu_check.py /tmp/gc > $R/gc-cmds.txt
grep pointwise_vec4 $R/gc-cmds.txt | while read l; do echo "== $l"; timeout 60 bin-ab/wgconv-v43 $l 2>&1 | tail -3; done > $R/gc.txt 2>&1; save gc
M=mobilenet_v2_b32,mobilenet_v3_large_b32,efficientnet_b0_b32,yolov8n_b16,regnet_y_1_6gf_b32,resnet50_b32; Z=bench/suites/zoo-throughput.json
timeout 240 bin-ab/wgconv-v43 bench --suite $Z --models $M --rounds 2 $C --json $R/zt.json > $R/zt.txt 2>&1; save zt
timeout 100 python3 bench/torch_reference.py --suite $Z --models $M --rounds 2 --repeat 5 --launches 10 --also-tf32 --json $R/t-zt.json > $R/t-zt.txt 2>&1; save t-zt
