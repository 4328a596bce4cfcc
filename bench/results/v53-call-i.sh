# v53 call I: on an H200 only (else nothing), v53's kernels (R57's binary) against cuDNN
# fp32/TF32 and torch._int_mm in the same call, two rounds each side: six models at their
# throughput batch, the default suite, the 30 int8 layers.
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig; export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
R=/tmp/ri; rm -rf $R; mkdir -p $R; T0=$(date +%s)
save() { echo "step $1 at $(($(date +%s)-T0)) s" >> $R/steps.txt; tar czf $OUT/ri.tgz -C $R . ; }
nvidia-smi --query-gpu=name,driver_version,clocks.sm --format=csv > $R/gpu.txt
if grep -q H200 $R/gpu.txt; then
  xz -dc bin-v53/r57.xz > /tmp/wgconv; chmod +x /tmp/wgconv
  S="--repeat 5 --launches 10 --no-reference"
  D=bench/suites/default.json; I=bench/results/v52-int8-suite.json; M=bench/results/v47-models-suite.json
  timeout 40 /tmp/wgconv bench --suite $D $S --rounds 2 --json $R/d.json > $R/d.txt 2>&1; save d
  timeout 40 python3 bench/torch_reference.py --suite $D --repeat 5 --launches 10 --rounds 2 --also-tf32 --json $R/t-d.json > $R/t-d.txt 2>&1; save t-d
  timeout 40 /tmp/wgconv bench --suite $I $S --rounds 2 --json $R/i8.json > $R/i8.txt 2>&1; save i8
  timeout 40 python3 bench/torch_reference.py --suite $I --repeat 5 --launches 10 --rounds 2 --json $R/t-i8.json > $R/t-i8.txt 2>&1; save t-i8
  timeout 150 /tmp/wgconv bench --suite $M $S --rounds 2 --json $R/m.json > $R/m.txt 2>&1; save m
  timeout 100 python3 bench/torch_reference.py --suite $M --repeat 5 --launches 10 --rounds 2 --also-tf32 --json $R/t-m.json > $R/t-m.txt 2>&1; save t-m
fi
cat $R/steps.txt $R/gpu.txt; grep "^model" $R/m.txt 2>/dev/null
