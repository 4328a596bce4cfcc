# v52 call D: both sides' per-conv slope between 8 and 16 parallel convs (`--parallel 16
# --parallel-from 8`, ORT `--k 16 --k-from 8`), over the 57 layers ORT won in v30 and the 49
# zoo layers first timed in call C.
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig; export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
xz -dc bin-v52/from.xz > /tmp/wgconv-new; chmod +x /tmp/wgconv-*
R=/tmp/rd; rm -rf $R; mkdir -p $R; T0=$(date +%s)
save() { echo "step $1 at $(($(date +%s)-T0)) s" >> $R/steps.txt; tar czf $OUT/rd.tgz -C $R . ; }
nvidia-smi --query-gpu=name,driver_version,clocks.sm --format=csv > $R/gpu.txt
(xz -dc .whl-site.tar.xz | tar xf - -C /tmp) > $R/pip.txt 2>&1
S="--repeat 5 --launches 10 --no-reference"
for s in v31-ortlose v52-ort-rest; do
  O=bench/results/$s-suite.json
  timeout 120 /tmp/wgconv-new bench --suite $O $S --parallel 16 --parallel-from 8 --json $R/$s-par.json > $R/$s-par.txt 2>&1; save $s-par
  PYTHONPATH=/tmp/site timeout 200 python3 bench/ort_webgpu_reference.py --suite $O --k 16 --k-from 8 --limit-s 180 --json $R/$s-ort.json > $R/$s-ort.txt 2>&1; save $s-ort
done
cat $R/steps.txt
