for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig; export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
R=/tmp/rb; mkdir -p $R; T0=$(date +%s)
save() { echo "step $1 at $(($(date +%s)-T0)) s" >> $R/steps.txt; tar czf $OUT/rb.tgz -C $R . ; }
python3 bench/gpu_check.py /tmp/gc | grep -E "kernel coop_f16" > $R/gc-cmds.txt
while read -r c; do echo "== $c" >> $R/gc.txt; timeout 30 ./bin-ab/wgconv-new $c >> $R/gc.txt 2>&1; echo "rc $?" >> $R/gc.txt; done < $R/gc-cmds.txt; save gc
F="--repeat 5 --launches 10 --no-reference"
for r in 1 2; do for b in new old; do
timeout 40 ./bin-ab/wgconv-$b bench --suite bench/suites/transposed.json $F --precision f16 --kernel coop_f16 --json $R/$b-T-$r.json > $R/$b-T-$r.txt 2>&1; save $b-T-$r
done; done
for b in new old; do
timeout 40 ./bin-ab/wgconv-$b bench --suite bench/suites/transposed.json $F --dtype f16 --kernel coop_f16 --json $R/$b-T16.json > $R/$b-T16.txt 2>&1; save $b-T16
timeout 40 ./bin-ab/wgconv-$b bench --suite bench/suites/transposed.json $F --precision f16 --json $R/$b-Tp.json > $R/$b-Tp.txt 2>&1; save $b-Tp
timeout 20 ./bin-ab/wgconv-$b bench --suite bench/suites/default.json $F --precision f16 --json $R/$b-def.json > $R/$b-def.txt 2>&1; save $b-def
done
timeout 40 ./bin-ab/wgconv-new bench --suite bench/suites/transposed.json $F --json $R/new-T32.json > $R/new-T32.txt 2>&1; save new-T32
timeout 60 python3 bench/torch_reference.py --suite bench/suites/transposed.json --repeat 5 --launches 10 --also-tf32 --json $R/t-T.json > $R/t-T.txt 2>&1; save t-T
timeout 30 python3 bench/torch_reference.py --suite bench/suites/default.json --repeat 5 --launches 10 --also-tf32 --json $R/t-def.json > $R/t-def.txt 2>&1; save t-def
