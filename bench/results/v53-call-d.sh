# v53 call D: on an H200 (else only the roofline), the committed kernels (this binary's conv
# kernels are v52's) against cuDNN fp32/TF32 and torch._int_mm in the same call, each side in
# several rounds (call A's single round met a stretch of slowed layers, 0.37–0.72× its H100
# times on consecutive layers). On an H100: the roofline with every staged variant (803a749's
# binary). Run seven times; each got an H100 (`v53-h100-callD-*`, `…-callD-run{2..7}-*`); from the
# second run on, the roofline step ran only on an H100 (as below).
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig; export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
xz -dc bin-v53/roof.xz > /tmp/wgconv; chmod +x /tmp/wgconv
R=/tmp/rd; rm -rf $R; mkdir -p $R; T0=$(date +%s)
save() { echo "step $1 at $(($(date +%s)-T0)) s" >> $R/steps.txt; tar czf $OUT/rd.tgz -C $R . ; }
nvidia-smi --query-gpu=name,driver_version,clocks.sm --format=csv > $R/gpu.txt
if ! grep -q H200 $R/gpu.txt; then
  timeout 60 /tmp/wgconv bench --suite quick --repeat 5 --no-reference --roofline --json $R/roof.json > $R/roof.txt 2>&1; save roof
else
  S="--repeat 5 --launches 10 --no-reference"
  D=bench/suites/default.json; I=bench/results/v52-int8-suite.json; M=bench/results/v47-models-suite.json
  timeout 40 /tmp/wgconv bench --suite $D $S --rounds 3 --json $R/d.json > $R/d.txt 2>&1; save d
  timeout 30 /tmp/wgconv bench --suite $D $S --rounds 2 --precision f16 --json $R/d16.json > $R/d16.txt 2>&1; save d16
  timeout 40 python3 bench/torch_reference.py --suite $D --repeat 5 --launches 10 --rounds 2 --also-tf32 --json $R/t-d.json > $R/t-d.txt 2>&1; save t-d
  timeout 40 /tmp/wgconv bench --suite $I $S --rounds 2 --json $R/i8.json > $R/i8.txt 2>&1; save i8
  timeout 40 /tmp/wgconv bench --suite $I $S --rounds 2 --q8-kernel q8_coop --json $R/i8c.json > $R/i8c.txt 2>&1; save i8c
  timeout 40 python3 bench/torch_reference.py --suite $I --repeat 5 --launches 10 --rounds 2 --json $R/t-i8.json > $R/t-i8.txt 2>&1; save t-i8
  timeout 200 /tmp/wgconv bench --suite $M $S --rounds 3 --json $R/m.json > $R/m.txt 2>&1; save m
  timeout 100 python3 bench/torch_reference.py --suite $M --repeat 5 --launches 10 --rounds 2 --also-tf32 --json $R/t-m.json > $R/t-m.txt 2>&1; save t-m
fi
cat $R/steps.txt $R/gpu.txt; grep "roofline: staged" $R/roof.txt; grep "^model" $R/m.txt 2>/dev/null
