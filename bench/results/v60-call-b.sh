# v60 call B: R64 (the pointwise stream for under 16 output channels), R65 (`direct_block` for
# 1×1 squeezes on planes of part vec4s), R66 (1D depthwise rows as a column) and the K-split
# stream's 8 loads in flight, planned by the v60 binary (`wgconv-b`) against the v59 one
# (`wgconv-o`, 6cf5cc8), interleaved o, b, b, o, with cuDNN fp32 in the same call: the five
# whole models they change (`v60-models-suite.json`), the few-oc suite (three held-out 1×1 heads
# R64 takes), the pointwise suite of call A (R38's split layers) and the default suite.
# Carry [".gl", "bin-v60"].
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig; export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
xz -dc bin-v60/b.tar.xz | tar xf - -C /tmp; chmod +x /tmp/wgconv-b /tmp/wgconv-o
R=/tmp/rb; rm -rf $R; mkdir -p $R; T0=$(date +%s)
save() { echo "step $1 at $(($(date +%s)-T0)) s" >> $R/steps.txt; tar czf $OUT/rb.tgz -C $R . ; }
nvidia-smi --query-gpu=name,driver_version --format=csv > $R/gpu.txt; md5sum /tmp/wgconv-* > $R/md5.txt
python3 bench/gpu_check.py /tmp/gc | grep -E "pointwise_vec4_split|depthwise" > /tmp/gc.cmds
while read -r line; do echo "== $line" | sed 's/--input.*--bias [^ ]* //' >> $R/gc.txt
  timeout 40 /tmp/wgconv-b $line 2>&1 | grep -i "error\|relative\|kernel:" >> $R/gc.txt; done < /tmp/gc.cmds; save gc
S="--repeat 5 --launches 10 --no-reference"
for suite in bench/results/v60-models-suite.json bench/suites/few-oc.json bench/results/v60-pw-suite.json bench/suites/default.json; do
  b=$(basename $suite .json)
  for v in o-1 b-1 b-2 o-2; do
    timeout 100 /tmp/wgconv-${v%-*} bench --suite $suite $S --json $R/$b-$v.json > $R/$b-$v.txt 2>&1; save $b-$v; done
  timeout 100 python3 bench/torch_reference.py --suite $suite --repeat 5 --launches 10 --json $R/$b-t.json > $R/$b-t.txt 2>&1; save $b-t
done
cat $R/steps.txt $R/gpu.txt $R/gc.txt
