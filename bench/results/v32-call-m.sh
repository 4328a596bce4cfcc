for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig; export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
R=/tmp/rm; mkdir -p $R; T0=$(date +%s); L=./bin-ab/wgconv-l; M=./bin-ab/wgconv-m
save() { echo "step $1 at $(($(date +%s)-T0)) s" >> $R/steps.txt; tar czf $OUT/rm.tgz -C $R . ; }
S="--repeat 5 --launches 10 --no-reference"
for i in 1 2; do
timeout 40 $L bench --suite bin-ab/changed.json $S --json $R/ch-l$i.json > $R/ch-l$i.txt 2>&1
timeout 40 $M bench --suite bin-ab/changed.json $S --json $R/ch-m$i.json > $R/ch-m$i.txt 2>&1; save ch$i
done
timeout 80 $L bench --suite bin-ab/pw.json $S --kernel pointwise_vec4 --json $R/v4-l.json > $R/v4-l.txt 2>&1; save v4l
timeout 80 $M bench --suite bin-ab/pw.json $S --kernel pointwise_vec4 --json $R/v4-m.json > $R/v4-m.txt 2>&1; save v4m
timeout 90 $L bench --suite bin-ab/pw.json $S --kernel pointwise_vec4_split --json $R/sp-l.json > $R/sp-l.txt 2>&1; save spl
timeout 90 $M bench --suite bin-ab/pw.json $S --kernel pointwise_vec4_split --json $R/sp-m.json > $R/sp-m.txt 2>&1; save spm
python3 bench/gpu_check.py /tmp/gc | grep -E "pointwise_vec4" > $R/gc-cmds.txt
while read -r c; do echo "== $c" >> $R/gc.txt; timeout 20 $M $c >> $R/gc.txt 2>&1; echo "rc $?" >> $R/gc.txt; done < $R/gc-cmds.txt; save gc
