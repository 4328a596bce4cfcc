for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig; export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
tar xJf bin-ab/bins.tar.xz -C bin-ab; B=bin-ab/wgconv-v44
R=/tmp/ra; mkdir -p $R; T0=$(date +%s)
save() { echo "step $1 at $(($(date +%s)-T0)) s" >> $R/steps.txt; tar czf $OUT/ra.tgz -C $R . ; }
python3 bench/gpu_check.py /tmp/gc > $R/gc-cmds.txt
grep -E 'direct_block|pointwise' $R/gc-cmds.txt | while read l; do echo "== $l"; timeout 60 $B $l 2>&1 | tail -3; done > $R/gc.txt 2>&1; save gc
C="--repeat 5 --launches 10 --no-reference"
timeout 90 $B bench --suite bench/results/v44-stats-suite.json --kernel direct_block --pipeline-stats $C --json $R/st.json > $R/st.txt 2>&1; save st
S=bench/results/v44-block-suite.json
for r in 1 2; do for k in plan direct_block; do a=; [ $k = plan ] || a="--kernel $k"
 timeout 110 $B bench --suite $S $C $a --json $R/$k-$r.json > $R/$k-$r.txt 2>&1; save $k-$r; done; done
timeout 100 python3 bench/torch_reference.py --suite $S --rounds 2 --repeat 5 --launches 10 --also-tf32 --json $R/t.json > $R/t.txt 2>&1; save t
