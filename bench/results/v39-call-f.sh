for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig; export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
R=/tmp/rf; mkdir -p $R; T0=$(date +%s)
save() { echo "step $1 at $(($(date +%s)-T0)) s" >> $R/steps.txt; tar czf $OUT/rf.tgz -C $R . ; }
python3 bench/gpu_check.py /tmp/gc | grep -E "winograd_fused_channels_last_planned|depthwise_vec4_long_runs_f16" > $R/gc-cmds.txt
while read -r c; do echo "== $c" >> $R/gc.txt; timeout 30 ./bin-ab/wgconv-F $c >> $R/gc.txt 2>&1; echo "rc $?" >> $R/gc.txt; done < $R/gc-cmds.txt; save gc
F="--repeat 5 --launches 10 --no-reference"
for b in F C; do
timeout 40 ./bin-ab/wgconv-$b bench --suite bench/suites/depthwise-zoo.json $F --dtype f16 --json $R/$b-dw.json > $R/$b-dw.txt 2>&1; save $b-dw
timeout 50 ./bin-ab/wgconv-$b bench --suite bench/suites/fused-shapes.json $F --precision f16 --channels-last --json $R/$b-cl.json > $R/$b-cl.txt 2>&1; save $b-cl
done
