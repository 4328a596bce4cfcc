# v58 call D: `winograd_4x4_coop` (F(4×4, 3×3) with its products on the tensor cores, new)
# checked against the f64 reference on the device (bench/gpu_check.py's Winograd cases: its
# errors beside winograd_coop's), then forced against the planner with f16 multiplicands allowed
# (`--precision f16`, fp32 tensors) on the 146 3×3 stride-1 layers of `v56-w4-suite.json`,
# interleaved twice, cuDNN fp32 and TF32 in the same call; and the diffusion suite on
# channels-last tensors, planner against forced.
# Carry [".gl", "bin-v58"].
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig; export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
xz -dc bin-v58/d.tar.xz | tar xf - -C /tmp; chmod +x /tmp/wgconv-*
R=/tmp/rd; rm -rf $R; mkdir -p $R; T0=$(date +%s)
save() { echo "step $1 at $(($(date +%s)-T0)) s" >> $R/steps.txt; tar czf $OUT/rd.tgz -C $R . ; }
nvidia-smi --query-gpu=name,driver_version --format=csv > $R/gpu.txt; md5sum /tmp/wgconv-* > $R/md5.txt
python3 bench/gpu_check.py /tmp/gc | grep -E "kernel winograd_4x4|kernel winograd_coop" > /tmp/gc.cmds
while read -r line; do echo "== $line" | sed 's/--input.*--bias [^ ]* //' >> $R/gc.txt
  timeout 40 /tmp/wgconv-d $line 2>&1 | grep -i "error\|relative\|kernel:" >> $R/gc.txt; done < /tmp/gc.cmds; save gc
E=bench/results/v56-w4-suite.json; S="--repeat 5 --launches 10 --no-reference --precision f16"
for i in 1 2; do
  timeout 110 /tmp/wgconv-d bench --suite $E $S --json $R/p-$i.json > $R/p-$i.txt 2>&1; save p-$i
  timeout 110 /tmp/wgconv-d bench --suite $E $S --kernel winograd_4x4_coop --json $R/c-$i.json > $R/c-$i.txt 2>&1; save c-$i
  if [ $i = 1 ]; then timeout 100 python3 bench/torch_reference.py --suite $E --repeat 5 --launches 10 --also-tf32 --json $R/te.json > $R/te.txt 2>&1; save te; fi
done
D=bench/suites/diffusion.json
timeout 30 /tmp/wgconv-d bench --suite $D $S --channels-last --json $R/pl.json > $R/pl.txt 2>&1
timeout 30 /tmp/wgconv-d bench --suite $D $S --channels-last --kernel winograd_4x4_coop --json $R/cl.json > $R/cl.txt 2>&1; save cl
cat $R/steps.txt $R/gpu.txt $R/gc.txt
