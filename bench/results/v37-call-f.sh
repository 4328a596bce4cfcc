for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig; export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
R=/tmp/rf; mkdir -p $R; T0=$(date +%s)
save() { echo "step $1 at $(($(date +%s)-T0)) s" >> $R/steps.txt; tar czf $OUT/rf.tgz -C $R . ; }
python3 bench/gpu_check.py /tmp/gc | grep -E "few_oc" > $R/gc-cmds.txt
while read -r c; do echo "== T $c" >> $R/gc.txt; timeout 60 ./bin-ab/wgconv-T $c >> $R/gc.txt 2>&1; echo "rc $?" >> $R/gc.txt; done < $R/gc-cmds.txt; save gc
timeout 60 ./bin-ab/wgconv-T bench --suite default --repeat 5 --launches 10 --no-reference --json $R/T-def.json > $R/T-def.txt 2>&1; save T-def
timeout 60 ./bin-ab/wgconv-O bench --suite default --repeat 5 --launches 10 --no-reference --json $R/O-def.json > $R/O-def.txt 2>&1; save O-def
