for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig; export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
R=/tmp/re; mkdir -p $R; T0=$(date +%s)
save() { echo "step $1 at $(($(date +%s)-T0)) s" >> $R/steps.txt; tar czf $OUT/re.tgz -C $R . ; }
python3 bench/gpu_check.py /tmp/gc | grep -E "winograd_fused_(ragged|channels_last_ragged|long_k|large)" > $R/gc-cmds.txt
for v in pu pu_np; do export WGCONV_FUSED_ENTRY=$v
while read -r c; do echo "== $v $c" >> $R/gc.txt; timeout 30 ./bin-ab/wgconv-E $c >> $R/gc.txt 2>&1; echo "rc $?" >> $R/gc.txt; done < $R/gc-cmds.txt; done; save gc
F="--repeat 5 --launches 10 --no-reference --precision f16 --kernel winograd_fused"
for s in bench/suites/diffusion.json bench/suites/fused-probe.json bench/results/v34-winograd-suite.json; do n=$(basename $s .json)
for v in base pu pu_np; do export WGCONV_FUSED_ENTRY=$v
timeout 70 ./bin-ab/wgconv-E bench --suite $s $F --json $R/$v-$n.json > $R/$v-$n.txt 2>&1; save $v-$n
done; done
