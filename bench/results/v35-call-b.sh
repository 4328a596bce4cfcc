for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig; export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
R=/tmp/rb; mkdir -p $R; T0=$(date +%s)
save() { echo "step $1 at $(($(date +%s)-T0)) s" >> $R/steps.txt; tar czf $OUT/rb.tgz -C $R . ; }
python3 bench/gpu_check.py /tmp/gc | grep -E "winograd_coop" > $R/gc-cmds.txt
while read -r c; do echo "== K $c" >> $R/gc.txt; timeout 30 ./bin-ab/wgconv-K $c >> $R/gc.txt 2>&1; echo "rc $?" >> $R/gc.txt; done < $R/gc-cmds.txt; save gc
W="--suite bench/results/v34-winograd-suite.json --repeat 5 --launches 10 --no-reference --precision f16"
for r in 1 2; do for b in K J G; do timeout 70 ./bin-ab/wgconv-$b bench $W --json $R/$b-f16-$r.json > $R/$b-f16-$r.txt 2>&1; save $b-f16-$r; done; done
timeout 80 ./bin-ab/wgconv-K bench $W --channels-last --json $R/K-cl.json > $R/K-cl.txt 2>&1; save K-cl
timeout 80 ./bin-ab/wgconv-K bench $W --channels-last --kernel winograd_coop --json $R/K-cl-wc.json > $R/K-cl-wc.txt 2>&1; save K-cl-wc
timeout 60 python3 bench/torch_reference.py --suite bench/suites/diffusion.json --repeat 5 --launches 10 --also-tf32 --json $R/t-diff.json > $R/t-diff.txt 2>&1; save t-diff
