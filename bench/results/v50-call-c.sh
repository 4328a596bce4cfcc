# v50 call C: the whole throughput zoo (bench/suites/zoo-throughput.json, 316 layers of 14 models)
# re-scored on the committed kernels and planner (`v49` binary unless a v50 build replaces it:
# the binary name is the first argument), two rounds, cuDNN fp32/TF32 in the same call. Last
# scored whole in v44 call B, before R47–R54 and the kernels of v45–v48.
B=${1:-v49}
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig; export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
xz -dc bin-${B}.xz > /tmp/wgconv-z; chmod +x /tmp/wgconv-z
R=/tmp/rc; rm -rf $R; mkdir -p $R; T0=$(date +%s)
save() { echo "step $1 at $(($(date +%s)-T0)) s" >> $R/steps.txt; tar czf $OUT/rc.tgz -C $R . ; }
nvidia-smi --query-gpu=name,driver_version,clocks.sm --format=csv > $R/gpu.txt
Z=bench/suites/zoo-throughput.json; C="--repeat 5 --launches 10 --no-reference"
for r in 1 2; do timeout 200 /tmp/wgconv-z bench --suite $Z $C --json $R/zt-$r.json > $R/zt-$r.txt 2>&1; save zt-$r; done
timeout 150 python3 bench/torch_reference.py --suite $Z --repeat 5 --launches 10 --also-tf32 --json $R/t-zt.json > $R/t-zt.txt 2>&1; save t-zt
cat $R/steps.txt
