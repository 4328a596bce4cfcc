# v50 call A: the staged GEMM tiles' next K-tile loads moved (bench/results/v50-variant-*.diff,
# untracked binaries bin-v50/{late,mid}.xz built from HEAD f13c7f9 with the diff applied):
# `late` loads, decodes and stages each K-tile at the top of its own iteration (no registers
# held across the math; the other workgroup on the SM covers the load latency), `mid` issues
# the next K-tile's loads halfway through the math instead of before it. Against v49 (the
# committed planner and kernels) and v48, planned, on the six models of v47-models-suite.json,
# two rounds in opposite orders, cuDNN fp32/TF32 in between; then the default suite.
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig; export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
for b in v48/v48 v49/v49 v50/late v50/mid; do xz -dc bin-$b.xz > /tmp/wgconv-${b#*/}; done; chmod +x /tmp/wgconv-*
R=/tmp/ra; rm -rf $R; mkdir -p $R; T0=$(date +%s)
save() { echo "step $1 at $(($(date +%s)-T0)) s" >> $R/steps.txt; tar czf $OUT/ra.tgz -C $R . ; }
nvidia-smi --query-gpu=name,driver_version,clocks.sm --format=csv > $R/gpu.txt
C="--repeat 5 --launches 10 --no-reference"
bench() { timeout 60 /tmp/wgconv-$2 bench --suite $3 $C --json $R/$1-$2-$4.json > $R/$1-$2-$4.txt 2>&1; save $1-$2-$4; }
M=bench/results/v47-models-suite.json; D=bench/suites/default.json
for b in v48 v49 late mid; do bench m $b $M 1; done
timeout 60 python3 bench/torch_reference.py --suite $M --repeat 5 --launches 10 --also-tf32 --json $R/t-m.json > $R/t-m.txt 2>&1; save t-m
for b in mid late v49 v48; do bench m $b $M 2; done
for b in v49 late mid; do bench d $b $D 1; done
cat $R/steps.txt
