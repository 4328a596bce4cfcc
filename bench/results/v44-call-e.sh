for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig; export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
tar xJf bin-ab/bins.tar.xz -C bin-ab; B=bin-ab/wgconv-v44
R=/tmp/re; mkdir -p $R; T0=$(date +%s)
save() { echo "step $1 at $(($(date +%s)-T0)) s" >> $R/steps.txt; tar czf $OUT/re.tgz -C $R . ; }
S=bench/results/v44-weak-suite.json; C="--repeat 5 --launches 10 --no-reference"
timeout 40 python3 bench/torch_reference.py --suite $S --rounds 2 --repeat 5 --launches 10 --also-tf32 --json $R/t.json > $R/t.txt 2>&1; save t
timeout 200 $B bench --suite $S $C --sweep --json $R/sweep.json > $R/sweep.txt 2>&1; save sweep
timeout 300 $B bench --suite $S $C --tune --json $R/tune.json > $R/tune.txt 2>&1; save tune
