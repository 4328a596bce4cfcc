for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig; export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
R=/tmp/rb; mkdir -p $R; T0=$(date +%s)
save() { echo "step $1 at $(($(date +%s)-T0)) s" >> $R/steps.txt; tar czf $OUT/rb.tgz -C $R . ; }
python3 bench/gpu_check.py /tmp/gc | grep -E "winograd_fused" > $R/gc-cmds.txt
while read -r c; do echo "== $c" >> $R/gc.txt; timeout 30 ./bin-ab/wgconv-B $c >> $R/gc.txt 2>&1; echo "rc $?" >> $R/gc.txt; done < $R/gc-cmds.txt; save gc
F="--repeat 5 --launches 10 --no-reference --precision f16"
for r in 1 2; do for b in B O; do
timeout 60 ./bin-ab/wgconv-$b bench --suite bench/suites/fused-shapes.json $F --json $R/$b-s-$r.json > $R/$b-s-$r.txt 2>&1; save $b-s-$r
done; done
for b in B O; do
timeout 60 ./bin-ab/wgconv-$b bench --suite bench/suites/zoo-throughput.json --models yolov8n_b16,resnet50_b32 $F --json $R/$b-zt.json > $R/$b-zt.txt 2>&1; save $b-zt
timeout 60 ./bin-ab/wgconv-$b bench --suite bench/suites/zoo.json --models yolov8n,resnet50 $F --json $R/$b-z1.json > $R/$b-z1.txt 2>&1; save $b-z1
done
G="--repeat 5 --launches 10 --no-reference"
timeout 30 ./bin-ab/wgconv-B bench --suite bench/suites/default.json $G --json $R/B-def.json > $R/B-def.txt 2>&1; save B-def
timeout 30 ./bin-ab/wgconv-B bench --suite bench/suites/default.json $G --dtype f16 --json $R/B-def-d16.json > $R/B-def-d16.txt 2>&1; save B-def-d16
timeout 100 python3 bench/torch_reference.py --suite bench/suites/zoo-throughput.json --models yolov8n_b16,resnet50_b32 --repeat 5 --launches 10 --also-tf32 --json $R/t-zt.json > $R/t-zt.txt 2>&1; save t-zt
timeout 100 python3 bench/torch_reference.py --suite bench/suites/zoo.json --models yolov8n,resnet50 --repeat 5 --launches 10 --also-tf32 --json $R/t-z1.json > $R/t-z1.txt 2>&1; save t-z1
