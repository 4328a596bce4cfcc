for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig; export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
R=/tmp/re; mkdir -p $R; T0=$(date +%s)
save() { echo "step $1 at $(($(date +%s)-T0)) s" >> $R/steps.txt; tar czf $OUT/re.tgz -C $R . ; }
python3 bench/gpu_check.py /tmp/gc | grep -E "few_oc|gemm_transposed|gemm_small_transposed" > $R/gc-cmds.txt
while read -r c; do echo "== $c" >> $R/gc.txt; timeout 30 ./bin-ab/wgconv-new $c >> $R/gc.txt 2>&1; echo "rc $?" >> $R/gc.txt; done < $R/gc-cmds.txt; save gc
F="--repeat 5 --launches 10 --no-reference"
for r in 1 2; do for b in new named; do
timeout 40 ./bin-ab/wgconv-$b bench --suite bench/suites/transposed.json $F --json $R/$b-T-$r.json > $R/$b-T-$r.txt 2>&1; save $b-T-$r
timeout 40 ./bin-ab/wgconv-$b bench --suite bench/suites/transposed.json $F --kernel transposed_few_oc --json $R/$b-Tf-$r.json > $R/$b-Tf-$r.txt 2>&1; save $b-Tf-$r
done; done
timeout 60 python3 bench/torch_reference.py --suite bench/suites/transposed.json --repeat 5 --launches 10 --also-tf32 --json $R/t-T.json > $R/t-T.txt 2>&1; save t-T
