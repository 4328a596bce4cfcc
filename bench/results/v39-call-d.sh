for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig; export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
R=/tmp/rd; mkdir -p $R; T0=$(date +%s)
save() { echo "step $1 at $(($(date +%s)-T0)) s" >> $R/steps.txt; tar czf $OUT/rd.tgz -C $R . ; }
F="--repeat 5 --launches 10 --no-reference"
for r in 1 2; do
for d in f32 f16; do
timeout 30 ./bin-ab/wgconv-C bench --suite bench/results/v39-floor-suite.json $F --dtype $d --json $R/floor-$d-$r.json > $R/floor-$d-$r.txt 2>&1; save floor-$d-$r
timeout 30 ./bin-ab/wgconv-C bench --suite bench/suites/depthwise.json $F --dtype $d --json $R/dw-$d-$r.json > $R/dw-$d-$r.txt 2>&1; save dw-$d-$r
done; done
