for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig; export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
tar xJf bin-ab/bins.tar.xz -C bin-ab; B=bin-ab/wgconv-v44
R=/tmp/rb; mkdir -p $R; T0=$(date +%s)
save() { echo "step $1 at $(($(date +%s)-T0)) s" >> $R/steps.txt; tar czf $OUT/rb.tgz -C $R . ; }
Z=bench/suites/zoo-throughput.json; C="--repeat 5 --launches 10 --no-reference"
for r in 1 2; do timeout 220 $B bench --suite $Z $C --json $R/zt-$r.json > $R/zt-$r.txt 2>&1; save zt-$r; done
timeout 140 python3 bench/torch_reference.py --suite $Z --rounds 2 --repeat 5 --launches 10 --also-tf32 --json $R/t-zt.json > $R/t-zt.txt 2>&1; save t-zt
