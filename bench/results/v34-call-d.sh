for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig; export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
R=/tmp/rd; mkdir -p $R; T0=$(date +%s)
save() { echo "step $1 at $(($(date +%s)-T0)) s" >> $R/steps.txt; tar czf $OUT/rd.tgz -C $R . ; }
W="--suite bin-ab/wino-suite.json --repeat 5 --launches 10 --no-reference"
S="--suite bench/suites/default.json --repeat 7 --launches 20 --no-reference"
for i in 1 2; do for b in D G; do
timeout 70 ./bin-ab/wgconv-$b bench $W --json $R/$b-w32-$i.json > $R/$b-w32-$i.txt 2>&1
timeout 30 ./bin-ab/wgconv-$b bench $S --json $R/$b-d32-$i.json > $R/$b-d32-$i.txt 2>&1; save $b$i
done; done
