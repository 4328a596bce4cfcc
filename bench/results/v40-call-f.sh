for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig; export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
R=/tmp/rf; mkdir -p $R; T0=$(date +%s)
save() { echo "step $1 at $(($(date +%s)-T0)) s" >> $R/steps.txt; tar czf $OUT/rf.tgz -C $R . ; }
python3 bench/gpu_check.py /tmp/gc | grep -E "few_oc" > $R/gc-cmds.txt
while read -r c; do echo "== $c" >> $R/gc.txt; timeout 30 ./bin-ab/wgconv-run8 $c >> $R/gc.txt 2>&1; echo "rc $?" >> $R/gc.txt; done < $R/gc-cmds.txt; save gc
F="--repeat 5 --launches 10 --no-reference"
for r in 1 2; do for b in run8 head; do
timeout 60 ./bin-ab/wgconv-$b bench --suite bench/suites/few-oc.json $F --json $R/$b-fo-$r.json > $R/$b-fo-$r.txt 2>&1; save $b-fo-$r
timeout 40 ./bin-ab/wgconv-$b bench --suite bench/suites/transposed.json $F --kernel transposed_few_oc --json $R/$b-Tf-$r.json > $R/$b-Tf-$r.txt 2>&1; save $b-Tf-$r
done; done
