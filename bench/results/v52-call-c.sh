# v52 call C: the 49 batch-1 zoo layers no ORT run has timed, `--parallel 16` (a compute pass per
# launch) and ORT's WebGPU EP (K = 16, slope from 8) in the same call.
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig; export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
xz -dc bin-v52/r56.xz > /tmp/wgconv-new; chmod +x /tmp/wgconv-*
R=/tmp/rc; rm -rf $R; mkdir -p $R; T0=$(date +%s)
save() { echo "step $1 at $(($(date +%s)-T0)) s" >> $R/steps.txt; tar czf $OUT/rc.tgz -C $R . ; }
nvidia-smi --query-gpu=name,driver_version,clocks.sm --format=csv > $R/gpu.txt
(xz -dc .whl-site.tar.xz | tar xf - -C /tmp) > $R/pip.txt 2>&1
O=bench/results/v52-ort-rest-suite.json; S="--repeat 5 --launches 10 --no-reference"
timeout 200 /tmp/wgconv-new bench --suite $O $S --parallel 16 --json $R/par16.json > $R/par16.txt 2>&1; save par
PYTHONPATH=/tmp/site timeout 330 python3 bench/ort_webgpu_reference.py --suite $O --k 16 --k-from 8 --limit-s 300 --json $R/ort.json > $R/ort.txt 2>&1; save ort
cat $R/steps.txt
