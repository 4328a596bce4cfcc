for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig; export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
R=/tmp/rj; mkdir -p $R; T0=$(date +%s); J=./bin-ab/wgconv-j
save() { echo "step $1 at $(($(date +%s)-T0)) s" >> $R/steps.txt; tar czf $OUT/rj.tgz -C $R . ; }
S="--repeat 5 --launches 10 --no-reference"
timeout 80 $J bench --suite bin-ab/pw.json $S --kernel pointwise_vec4 --json $R/pw-forced.json > $R/pw-forced.txt 2>&1; save f
timeout 130 $J bench --suite bin-ab/pw.json $S --json $R/pw-planned.json > $R/pw-planned.txt 2>&1; save p
python3 bench/gpu_check.py /tmp/gc | grep -E "pointwise_vec4" > $R/gc-cmds.txt
while read -r c; do echo "== $c" >> $R/gc.txt; timeout 20 $J $c >> $R/gc.txt 2>&1; echo "rc $?" >> $R/gc.txt; done < $R/gc-cmds.txt; save gc
