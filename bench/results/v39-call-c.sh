for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig; export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
R=/tmp/rc; mkdir -p $R; T0=$(date +%s)
save() { echo "step $1 at $(($(date +%s)-T0)) s" >> $R/steps.txt; tar czf $OUT/rc.tgz -C $R . ; }
python3 bench/gpu_check.py /tmp/gc | grep -E "depthwise.*_f16" > $R/gc-cmds.txt
while read -r c; do echo "== $c" >> $R/gc.txt; timeout 30 ./bin-ab/wgconv-C $c >> $R/gc.txt 2>&1; echo "rc $?" >> $R/gc.txt; done < $R/gc-cmds.txt; save gc
F="--repeat 5 --launches 10 --no-reference"
S=bench/suites/depthwise-zoo.json
for r in 1 2; do
timeout 40 ./bin-ab/wgconv-C bench --suite $S $F --json $R/C-32-$r.json > $R/C-32-$r.txt 2>&1; save C-32-$r
timeout 40 ./bin-ab/wgconv-C bench --suite $S $F --dtype f16 --json $R/C-16-$r.json > $R/C-16-$r.txt 2>&1; save C-16-$r
timeout 40 ./bin-ab/wgconv-B bench --suite $S $F --dtype f16 --json $R/B-16-$r.json > $R/B-16-$r.txt 2>&1; save B-16-$r
done
timeout 30 ./bin-ab/wgconv-C bench --suite bench/suites/default.json $F --dtype f16 --json $R/C-def16.json > $R/C-def16.txt 2>&1; save C-def16
timeout 30 ./bin-ab/wgconv-C bench --suite bench/suites/default.json $F --json $R/C-def.json > $R/C-def.txt 2>&1; save C-def
