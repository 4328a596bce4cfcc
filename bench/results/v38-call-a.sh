for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig; export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
R=/tmp/ra; mkdir -p $R; T0=$(date +%s)
save() { echo "step $1 at $(($(date +%s)-T0)) s" >> $R/steps.txt; tar czf $OUT/ra.tgz -C $R . ; }
python3 bench/gpu_check.py /tmp/gc | grep -E "winograd_fused" > $R/gc-cmds.txt
while read -r c; do echo "== $c" >> $R/gc.txt; timeout 30 ./bin-ab/wgconv-A $c >> $R/gc.txt 2>&1; echo "rc $?" >> $R/gc.txt; done < $R/gc-cmds.txt; save gc
D="--suite bench/suites/diffusion.json --repeat 5 --launches 10 --no-reference --precision f16"
for r in 1 2; do
timeout 60 ./bin-ab/wgconv-A bench $D --json $R/plan-$r.json > $R/plan-$r.txt 2>&1; save plan-$r
timeout 60 ./bin-ab/wgconv-A bench $D --kernel winograd_fused --json $R/fu-$r.json > $R/fu-$r.txt 2>&1; save fu-$r
done
timeout 60 ./bin-ab/wgconv-A bench $D --channels-last --json $R/plan-cl.json > $R/plan-cl.txt 2>&1; save plan-cl
timeout 60 ./bin-ab/wgconv-A bench $D --channels-last --kernel winograd_fused --json $R/fu-cl.json > $R/fu-cl.txt 2>&1; save fu-cl
timeout 90 python3 bench/torch_reference.py --suite bench/suites/diffusion.json --repeat 5 --launches 10 --also-tf32 --json $R/t-diff.json > $R/t-diff.txt 2>&1; save t-diff
W="--suite bench/results/v34-winograd-suite.json --repeat 5 --launches 10 --no-reference --precision f16"
timeout 90 ./bin-ab/wgconv-A bench $W --json $R/plan-w.json > $R/plan-w.txt 2>&1; save plan-w
timeout 90 ./bin-ab/wgconv-A bench $W --kernel winograd_fused --json $R/fu-w.json > $R/fu-w.txt 2>&1; save fu-w
timeout 120 python3 bench/torch_reference.py --suite bench/results/v34-winograd-suite.json --repeat 5 --launches 10 --also-tf32 --json $R/t-w.json > $R/t-w.txt 2>&1; save t-w
