for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig; export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
R=/tmp/ra; mkdir -p $R; T0=$(date +%s)
save() { echo "step $1 at $(($(date +%s)-T0)) s" >> $R/steps.txt; tar czf $OUT/ra.tgz -C $R . ; }
nvidia-smi --query-gpu=name,driver_version --format=csv > $R/gpu.txt 2>&1
python3 bench/gpu_check.py /tmp/gc | grep -E "winograd" > $R/gc-cmds.txt
while read -r c; do echo "== $c" >> $R/gc.txt; timeout 30 ./bin-ab/wgconv-E $c >> $R/gc.txt 2>&1; echo "rc $?" >> $R/gc.txt; done < $R/gc-cmds.txt; save gc
W="--suite bin-ab/wino-suite.json --repeat 5 --launches 10 --no-reference"
timeout 100 ./bin-ab/wgconv-E bench $W --precision f16 --json $R/E-f16.json > $R/E-f16.txt 2>&1; save E-f16
timeout 100 ./bin-ab/wgconv-D bench $W --precision f16 --json $R/D-f16.json > $R/D-f16.txt 2>&1; save D-f16
timeout 100 python3 bench/torch_reference.py --suite bin-ab/wino-suite.json --repeat 5 --launches 10 --also-tf32 --json $R/t-wino.json > $R/t-wino.txt 2>&1; save t-wino
timeout 100 ./bin-ab/wgconv-E bench $W --json $R/E-f32.json > $R/E-f32.txt 2>&1; save E-f32
S="--suite bench/suites/default.json --repeat 7 --launches 20 --no-reference"
timeout 40 ./bin-ab/wgconv-E bench $S --precision f16 --json $R/E-def-f16.json > $R/E-def-f16.txt 2>&1; save E-def
timeout 40 ./bin-ab/wgconv-D bench $S --precision f16 --json $R/D-def-f16.json > $R/D-def-f16.txt 2>&1; save D-def
timeout 40 python3 bench/torch_reference.py --suite bench/suites/default.json --repeat 7 --launches 20 --also-tf32 --json $R/t-def.json > $R/t-def.txt 2>&1; save t-def
