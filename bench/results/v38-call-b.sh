for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig; export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
R=/tmp/rb; mkdir -p $R; T0=$(date +%s)
save() { echo "step $1 at $(($(date +%s)-T0)) s" >> $R/steps.txt; tar czf $OUT/rb.tgz -C $R . ; }
python3 bench/gpu_check.py /tmp/gc | grep -E "winograd_fused_(ragged|channels_last_ragged|long_k)" > $R/gc-cmds.txt
D="--suite bench/suites/diffusion.json --repeat 5 --launches 10 --no-reference --precision f16 --kernel winograd_fused"
for v in np t16 c32 t16_c32 base; do export WGCONV_FUSED_ENTRY=$v
while read -r c; do echo "== $v $c" >> $R/gc.txt; timeout 30 ./bin-ab/wgconv-B $c >> $R/gc.txt 2>&1; echo "rc $?" >> $R/gc.txt; done < $R/gc-cmds.txt
timeout 60 ./bin-ab/wgconv-B bench $D --json $R/fu-$v.json > $R/fu-$v.txt 2>&1; save fu-$v
done
