for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig; export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
R=/tmp/rd; mkdir -p $R; T0=$(date +%s)
save() { echo "step $1 at $(($(date +%s)-T0)) s" >> $R/steps.txt; tar czf $OUT/rd.tgz -C $R . ; }
python3 bench/gpu_check.py /tmp/gc | grep -E "few_oc" > $R/gc-cmds.txt
while read -r c; do echo "== $c" >> $R/gc.txt; timeout 30 ./bin-ab/wgconv-new $c >> $R/gc.txt 2>&1; echo "rc $?" >> $R/gc.txt; done < $R/gc-cmds.txt; save gc
F="--repeat 5 --launches 10 --no-reference"
for r in 1 2; do for b in new lanes; do
timeout 60 ./bin-ab/wgconv-$b bench --suite bench/suites/few-oc.json $F --json $R/$b-fo-$r.json > $R/$b-fo-$r.txt 2>&1; save $b-fo-$r
timeout 40 ./bin-ab/wgconv-$b bench --suite bench/suites/transposed.json $F --json $R/$b-T-$r.json > $R/$b-T-$r.txt 2>&1; save $b-T-$r
done; done
for b in new lanes; do
timeout 60 ./bin-ab/wgconv-$b bench --suite bench/suites/few-oc.json $F --dtype f16 --json $R/$b-fo16.json > $R/$b-fo16.txt 2>&1; save $b-fo16
done
