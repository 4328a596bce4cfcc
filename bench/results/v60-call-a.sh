# v60 call A: the pointwise stream's K-split entry point with 8 loads in flight a thread
# (`pointwise_vec4_split`), forced over every 2D pointwise layer of 1–32 output channels of the
# suites (`v60-pw-suite.json`), with `pointwise_vec4`, `direct_block` and `gemm_small_k32`
# forced and the planner twice, cuDNN fp32 in the same call; Conformer's 1D depthwise layers
# (`v60-dw1d-suite.json`) on every depthwise kernel, also laid out as 2D layers of one column;
# the device checks of the channels-last `winograd_4x4_coop` (v59's V·1/8, U·8, not yet run on
# a device). Carry [".gl", "bin-v60"]. Each step is saved as it ends.
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig; export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
xz -dc bin-v60/a.tar.xz | tar xf - -C /tmp; chmod +x /tmp/wgconv-a
R=/tmp/ra; rm -rf $R; mkdir -p $R; T0=$(date +%s)
save() { echo "step $1 at $(($(date +%s)-T0)) s" >> $R/steps.txt; tar czf $OUT/ra.tgz -C $R . ; }
nvidia-smi --query-gpu=name,driver_version --format=csv > $R/gpu.txt; md5sum /tmp/wgconv-* > $R/md5.txt
python3 bench/gpu_check.py /tmp/gc | grep -E "kernel winograd_4x4_coop|pointwise" > /tmp/gc.cmds
while read -r line; do echo "== $line" | sed 's/--input.*--bias [^ ]* //' >> $R/gc.txt
  timeout 40 /tmp/wgconv-a $line 2>&1 | grep -i "error\|relative\|kernel:" >> $R/gc.txt; done < /tmp/gc.cmds; save gc
P=bench/results/v60-pw-suite.json; S="--repeat 5 --launches 10 --no-reference"
timeout 60 /tmp/wgconv-a bench --suite $P $S --json $R/p-1.json > $R/p-1.txt 2>&1; save p-1
for k in pointwise_vec4_split pointwise_vec4 direct_block gemm_small_k32; do
  timeout 60 /tmp/wgconv-a bench --suite $P $S --kernel $k --json $R/k-$k.json > $R/k-$k.txt 2>&1; save k-$k; done
timeout 90 python3 bench/torch_reference.py --suite $P --repeat 5 --launches 10 --also-tf32 --json $R/tp.json > $R/tp.txt 2>&1; save tp
timeout 60 /tmp/wgconv-a bench --suite $P $S --kernel pointwise_vec4_split --json $R/k2-split.json > $R/k2-split.txt 2>&1; save k2-split
timeout 60 /tmp/wgconv-a bench --suite $P $S --json $R/p-2.json > $R/p-2.txt 2>&1; save p-2
D=bench/results/v60-dw1d-suite.json
timeout 30 /tmp/wgconv-a bench --suite $D $S --json $R/dp.json > $R/dp.txt 2>&1; save dp
for k in depthwise depthwise_rows depthwise_tiled depthwise_vec4 direct; do
  timeout 30 /tmp/wgconv-a bench --suite $D $S --kernel $k --json $R/d-$k.json > $R/d-$k.txt 2>&1; save d-$k; done
timeout 60 python3 bench/torch_reference.py --suite $D --repeat 5 --launches 10 --json $R/td.json > $R/td.txt 2>&1; save td
cat $R/steps.txt $R/gpu.txt $R/gc.txt
