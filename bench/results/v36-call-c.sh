for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig; export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
R=/tmp/rc; mkdir -p $R; T0=$(date +%s)
save() { echo "step $1 at $(($(date +%s)-T0)) s" >> $R/steps.txt; tar czf $OUT/rc.tgz -C $R . ; }
W="--suite bench/results/v36-winograd-candidates.json --repeat 5 --launches 10 --no-reference --precision f16"
for r in 1 2; do
timeout 80 ./bin-ab/wgconv-N bench $W --json $R/N-plan-$r.json > $R/N-plan-$r.txt 2>&1; save N-plan-$r
timeout 80 ./bin-ab/wgconv-N bench $W --kernel winograd_coop --json $R/N-wc-$r.json > $R/N-wc-$r.txt 2>&1; save N-wc-$r
done
timeout 80 ./bin-ab/wgconv-N bench $W --channels-last --json $R/N-clplan.json > $R/N-clplan.txt 2>&1; save N-clplan
timeout 80 ./bin-ab/wgconv-N bench $W --channels-last --kernel winograd_coop --json $R/N-clwc.json > $R/N-clwc.txt 2>&1; save N-clwc
timeout 90 python3 bench/torch_reference.py --suite bench/results/v36-winograd-candidates.json --repeat 5 --launches 10 --also-tf32 --json $R/t-cand.json > $R/t-cand.txt 2>&1; save t-cand
