for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig; export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
R=/tmp/rc; mkdir -p $R; T0=$(date +%s)
save() { echo "step $1 at $(($(date +%s)-T0)) s" >> $R/steps.txt; tar czf $OUT/rc.tgz -C $R . ; }
python3 bench/gpu_check.py /tmp/gc | grep -E "winograd_fused" > $R/gc-cmds.txt
while read -r c; do echo "== $c" >> $R/gc.txt; timeout 30 ./bin-ab/wgconv-C $c >> $R/gc.txt 2>&1; echo "rc $?" >> $R/gc.txt; done < $R/gc-cmds.txt; save gc
P="--suite bench/suites/fused-probe.json --repeat 5 --launches 10 --no-reference --precision f16"
for r in 1 2; do
for k in "" coop_f16 winograd_coop winograd_fused; do n=${k:-plan}
timeout 60 ./bin-ab/wgconv-C bench $P ${k:+--kernel $k} --json $R/p-$n-$r.json > $R/p-$n-$r.txt 2>&1; save p-$n-$r; done; done
timeout 60 ./bin-ab/wgconv-C bench $P --channels-last --json $R/p-cl-plan.json > $R/p-cl-plan.txt 2>&1; save cl-plan
timeout 60 ./bin-ab/wgconv-C bench $P --channels-last --kernel winograd_fused --json $R/p-cl-fu.json > $R/p-cl-fu.txt 2>&1; save cl-fu
timeout 90 python3 bench/torch_reference.py --suite bench/suites/fused-probe.json --repeat 5 --launches 10 --also-tf32 --json $R/t-p.json > $R/t-p.txt 2>&1; save t-p
W="--suite bench/results/v34-winograd-suite.json --repeat 5 --launches 10 --no-reference --precision f16"
timeout 90 ./bin-ab/wgconv-C bench $W --json $R/w-plan.json > $R/w-plan.txt 2>&1; save w-plan
timeout 90 ./bin-ab/wgconv-C bench $W --channels-last --json $R/w-cl-plan.json > $R/w-cl-plan.txt 2>&1; save w-cl-plan
timeout 90 ./bin-ab/wgconv-C bench $W --channels-last --kernel winograd_fused --json $R/w-cl-fu.json > $R/w-cl-fu.txt 2>&1; save w-cl-fu
