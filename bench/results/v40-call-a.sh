for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig; export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
R=/tmp/ra; mkdir -p $R; T0=$(date +%s)
save() { echo "step $1 at $(($(date +%s)-T0)) s" >> $R/steps.txt; tar czf $OUT/ra.tgz -C $R . ; }
nvidia-smi --query-gpu=name,driver_version --format=csv > $R/smi.txt 2>&1
python3 bench/gpu_check.py /tmp/gc | grep -E "kernel coop_f16" > $R/gc-cmds.txt
while read -r c; do echo "== $c" >> $R/gc.txt; timeout 30 ./bin-ab/wgconv-new $c >> $R/gc.txt 2>&1; echo "rc $?" >> $R/gc.txt; done < $R/gc-cmds.txt; save gc
F="--repeat 5 --launches 10 --no-reference --precision f16"
for b in new old; do
timeout 40 ./bin-ab/wgconv-$b bench --suite bench/suites/transposed.json $F --kernel coop_f16 --json $R/$b-T.json > $R/$b-T.txt 2>&1; save $b-T
timeout 20 ./bin-ab/wgconv-$b bench --suite bench/suites/default.json $F --json $R/$b-def.json > $R/$b-def.txt 2>&1; save $b-def
done
for b in new old; do
timeout 150 ./bin-ab/wgconv-$b bench --suite bench/suites/coop-f16.json $F --json $R/$b-C.json > $R/$b-C.txt 2>&1; save $b-C
done
timeout 40 ./bin-ab/wgconv-new bench --suite bench/suites/transposed.json --repeat 5 --launches 10 --no-reference --json $R/new-T-fp32.json > $R/new-T-fp32.txt 2>&1; save new-T-fp32
timeout 60 python3 bench/torch_reference.py --suite bench/suites/transposed.json --repeat 5 --launches 10 --also-tf32 --json $R/t-T.json > $R/t-T.txt 2>&1; save t-T
timeout 30 python3 bench/torch_reference.py --suite bench/suites/default.json --repeat 5 --launches 10 --also-tf32 --json $R/t-def.json > $R/t-def.txt 2>&1; save t-def
timeout 120 python3 bench/torch_reference.py --suite bench/suites/coop-f16.json --repeat 5 --launches 10 --also-tf32 --json $R/t-C.json > $R/t-C.txt 2>&1; save t-C
