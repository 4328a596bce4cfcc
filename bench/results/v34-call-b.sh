for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig; export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
R=/tmp/rb; mkdir -p $R; T0=$(date +%s)
save() { echo "step $1 at $(($(date +%s)-T0)) s" >> $R/steps.txt; tar czf $OUT/rb.tgz -C $R . ; }
nvidia-smi --query-gpu=name,driver_version --format=csv > $R/gpu.txt 2>&1
python3 bench/gpu_check.py /tmp/gc | grep -E "winograd" > $R/gc-cmds.txt
while read -r c; do echo "== $c" >> $R/gc.txt; timeout 30 ./bin-ab/wgconv-F $c >> $R/gc.txt 2>&1; echo "rc $?" >> $R/gc.txt; done < $R/gc-cmds.txt; save gc
W="--suite bin-ab/wino-suite.json --repeat 5 --launches 10 --no-reference"
for b in F E; do timeout 100 ./bin-ab/wgconv-$b bench $W --precision f16 --json $R/$b-f16.json > $R/$b-f16.txt 2>&1; save $b-f16; done
timeout 100 ./bin-ab/wgconv-D bench $W --precision f16 --json $R/D-f16.json > $R/D-f16.txt 2>&1; save D-f16
timeout 100 python3 bench/torch_reference.py --suite bin-ab/wino-suite.json --repeat 5 --launches 10 --also-tf32 --json $R/t-wino.json > $R/t-wino.txt 2>&1; save t-wino
timeout 100 ./bin-ab/wgconv-F bench $W --precision f16 --json $R/F2-f16.json > $R/F2-f16.txt 2>&1; save F2-f16
timeout 100 ./bin-ab/wgconv-F bench $W --json $R/F-f32.json > $R/F-f32.txt 2>&1; save F-f32
S="--suite bench/suites/default.json --repeat 7 --launches 20 --no-reference"
timeout 40 ./bin-ab/wgconv-F bench $S --precision f16 --json $R/F-def-f16.json > $R/F-def-f16.txt 2>&1; save F-def
timeout 40 python3 bench/torch_reference.py --suite bench/suites/default.json --repeat 7 --launches 20 --also-tf32 --json $R/t-def.json > $R/t-def.txt 2>&1; save t-def
