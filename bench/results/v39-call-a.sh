for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig; export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
R=/tmp/ra; mkdir -p $R; T0=$(date +%s)
save() { echo "step $1 at $(($(date +%s)-T0)) s" >> $R/steps.txt; tar czf $OUT/ra.tgz -C $R . ; }
B=./bin-ab/wgconv-A
python3 bench/gpu_check.py /tmp/gc | grep -E "winograd_fused" > $R/gc-cmds.txt
for v in c64 t16_c64 t32_c80 t16_c80 t16_c96 t16_c128; do export WGCONV_FUSED_SHAPE=$v
while read -r c; do echo "== $v $c" >> $R/gc.txt; timeout 30 $B $c >> $R/gc.txt 2>&1; echo "rc $?" >> $R/gc.txt; done < $R/gc-cmds.txt; done; save gc
unset WGCONV_FUSED_SHAPE
F="--repeat 5 --launches 10 --no-reference --precision f16"
S=bench/suites/fused-shapes.json
timeout 60 $B bench --suite $S $F --json $R/planned.json > $R/planned.txt 2>&1; save planned
for v in c64 t16_c64 t32_c80 t16_c80 t16_c96 t16_c128; do export WGCONV_FUSED_SHAPE=$v
timeout 60 $B bench --suite $S $F --kernel winograd_fused --json $R/$v.json > $R/$v.txt 2>&1; save $v
done
for v in c64 t16_c128; do export WGCONV_FUSED_SHAPE=$v
timeout 40 $B bench --suite bench/suites/diffusion.json $F --kernel winograd_fused --json $R/diff-$v.json > $R/diff-$v.txt 2>&1; save diff-$v
done
timeout 100 python3 bench/torch_reference.py --suite $S --repeat 5 --launches 10 --also-tf32 --json $R/t.json > $R/t.txt 2>&1; save t
