# v53 call A: the roofline's staged cooperative-matrix GEMMs (`wgconv bench --roofline`); where
# the card is an H200, the committed kernels (this binary's conv kernels are v52's) against cuDNN
# fp32/TF32 and torch._int_mm in the same call. Run twice: first on an H100 with a binary whose
# roofline had vec4<u32> tiles (the device was lost in the roofline; no files kept), then on an
# H200 with the binary of calls C–D (vec4<f16> and pipelined variants): `v53-h200-callA-*`.
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig; export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
xz -dc bin-v53/roof.xz > /tmp/wgconv-roof; chmod +x /tmp/wgconv-roof
R=/tmp/ra; rm -rf $R; mkdir -p $R; T0=$(date +%s)
save() { echo "step $1 at $(($(date +%s)-T0)) s" >> $R/steps.txt; tar czf $OUT/ra.tgz -C $R . ; }
nvidia-smi --query-gpu=name,driver_version,clocks.sm --format=csv > $R/gpu.txt
timeout 90 /tmp/wgconv-roof bench --suite quick --repeat 5 --no-reference --roofline --json $R/roof.json > $R/roof.txt 2>&1; save roof
if grep -q H200 $R/gpu.txt; then
  S="--repeat 5 --launches 10 --no-reference"
  M=bench/results/v47-models-suite.json
  timeout 70 /tmp/wgconv-roof bench --suite $M $S --json $R/m.json > $R/m.txt 2>&1; save m
  timeout 50 python3 bench/torch_reference.py --suite $M --repeat 5 --launches 10 --also-tf32 --json $R/t-m.json > $R/t-m.txt 2>&1; save t-m
  timeout 40 /tmp/wgconv-roof bench --suite default $S --rounds 2 --json $R/d.json > $R/d.txt 2>&1; save d
  timeout 40 /tmp/wgconv-roof bench --suite default $S --precision f16 --json $R/d16.json > $R/d16.txt 2>&1; save d16
  timeout 40 python3 bench/torch_reference.py --suite default --repeat 5 --launches 10 --also-tf32 --json $R/t-d.json > $R/t-d.txt 2>&1; save t-d
  I=bench/results/v52-int8-suite.json
  timeout 40 /tmp/wgconv-roof bench --suite $I $S --json $R/i8.json > $R/i8.txt 2>&1; save i8
  timeout 40 python3 bench/torch_reference.py --suite $I --repeat 5 --launches 10 --json $R/t-i8.json > $R/t-i8.txt 2>&1; save t-i8
fi
cat $R/steps.txt $R/gpu.txt; grep roofline $R/roof.txt; grep "^model" $R/m.txt 2>/dev/null
