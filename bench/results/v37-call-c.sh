for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig; export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
R=/tmp/rc; mkdir -p $R; T0=$(date +%s)
save() { echo "step $1 at $(($(date +%s)-T0)) s" >> $R/steps.txt; tar czf $OUT/rc.tgz -C $R . ; }
F="--suite bench/suites/few-oc.json --repeat 5 --launches 10 --no-reference"
for r in 1 2; do
timeout 60 ./bin-ab/wgconv-R bench $F --json $R/plan-$r.json > $R/plan-$r.txt 2>&1; save plan-$r
timeout 60 ./bin-ab/wgconv-R bench $F --kernel few_oc --json $R/fo-$r.json > $R/fo-$r.txt 2>&1; save fo-$r
done
timeout 60 ./bin-ab/wgconv-R bench $F --precision f16 --json $R/plan-p16.json > $R/plan-p16.txt 2>&1; save plan-p16
timeout 60 ./bin-ab/wgconv-R bench $F --dtype f16 --json $R/plan-d16.json > $R/plan-d16.txt 2>&1; save plan-d16
timeout 60 ./bin-ab/wgconv-R bench $F --dtype f16 --kernel few_oc --json $R/fo-d16.json > $R/fo-d16.txt 2>&1; save fo-d16
timeout 90 python3 bench/torch_reference.py --suite bench/suites/few-oc.json --repeat 5 --launches 10 --also-tf32 --json $R/t.json > $R/t.txt 2>&1; save t
