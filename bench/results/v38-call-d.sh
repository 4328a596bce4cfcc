for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig; export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
R=/tmp/rd; mkdir -p $R; T0=$(date +%s)
save() { echo "step $1 at $(($(date +%s)-T0)) s" >> $R/steps.txt; tar czf $OUT/rd.tgz -C $R . ; }
python3 bench/gpu_check.py /tmp/gc | grep -E "winograd_(fused|coop_planned)" > $R/gc-cmds.txt
while read -r c; do echo "== $c" >> $R/gc.txt; timeout 30 ./bin-ab/wgconv-D $c >> $R/gc.txt 2>&1; echo "rc $?" >> $R/gc.txt; done < $R/gc-cmds.txt; save gc
F="--repeat 5 --launches 10 --no-reference"
for r in 1 2; do for b in D O; do
timeout 40 ./bin-ab/wgconv-$b bench --suite bench/suites/fused-probe.json $F --precision f16 --json $R/$b-p-$r.json > $R/$b-p-$r.txt 2>&1; save $b-p-$r
done; done
for b in D O; do
timeout 70 ./bin-ab/wgconv-$b bench --suite bench/results/v34-winograd-suite.json $F --precision f16 --json $R/$b-w.json > $R/$b-w.txt 2>&1; save $b-w
timeout 30 ./bin-ab/wgconv-$b bench --suite bench/suites/default.json $F --json $R/$b-def.json > $R/$b-def.txt 2>&1; save $b-def
timeout 30 ./bin-ab/wgconv-$b bench --suite bench/suites/default.json $F --precision f16 --json $R/$b-def16.json > $R/$b-def16.txt 2>&1; save $b-def16
timeout 60 ./bin-ab/wgconv-$b bench --suite bench/suites/zoo-throughput.json --models yolov8n_b16,resnet50_b32 $F --precision f16 --json $R/$b-zt.json > $R/$b-zt.txt 2>&1; save $b-zt
done
timeout 100 python3 bench/torch_reference.py --suite bench/suites/zoo-throughput.json --models yolov8n_b16,resnet50_b32 --repeat 5 --launches 10 --also-tf32 --json $R/t-zt.json > $R/t-zt.txt 2>&1; save t-zt
timeout 60 python3 bench/torch_reference.py --suite bench/suites/fused-probe.json --repeat 5 --launches 10 --also-tf32 --json $R/t-p.json > $R/t-p.txt 2>&1; save t-p
