# v63 call A: (1) `q8_coop` with the loads of 4 K-tiles in flight (`wgconv-c`) and of 2
# (`wgconv-d`) against one (`wgconv-b`, v62's kernel): bit-exact checks of c and d against
# q8_scalar, the 30 int8 layers forced onto q8_coop (b, c, d interleaved twice), b as planned,
# torch._int_mm; (2) v62's call C: R67 and R68 on 41 held-out layers, v61's planner
# (`wgconv-a`, b2b59dc) against v62's (`wgconv-b`, f9fe307 + the R67 fallback to F(4×4, 3×3)),
# interleaved a-1, b-1, b-2, a-2, cuDNN fp32 and TF32 in the same call. Carry [".gl", "bin-v62"].
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig; export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
for b in a b c d; do xz -dc bin-v62/$b.tar.xz | tar xf - -C /tmp; chmod +x /tmp/wgconv-$b; done
R=/tmp/ra; rm -rf $R; mkdir -p $R; T0=$(date +%s)
save() { echo "step $1 at $(($(date +%s)-T0)) s" >> $R/steps.txt; tar czf $OUT/ra.tgz -C $R . ; }
nvidia-smi --query-gpu=name,driver_version --format=csv > $R/gpu.txt; md5sum /tmp/wgconv-? > $R/md5.txt
python3 bench/gpu_check.py /tmp/gc | grep q8-conv-pw | grep -- "--kernel q8_coop" > $R/gc-cmds.txt
for b in c d; do
  while read -r line; do echo "== $b $line" >> $R/gc.txt; timeout 20 /tmp/wgconv-$b $line >> $R/gc.txt 2>&1; echo "exit $?" >> $R/gc.txt; done < $R/gc-cmds.txt
done; save gc
S="--repeat 5 --launches 10 --no-reference"
I=bench/results/v52-int8-suite.json
for r in 1 2; do for b in b c d; do
  timeout 40 /tmp/wgconv-$b bench --suite $I $S --q8-kernel q8_coop --json $R/i8-$b-$r.json > $R/i8-$b-$r.txt 2>&1; save i8-$b-$r
done; done
timeout 40 /tmp/wgconv-b bench --suite $I $S --json $R/i8-b-planned.json > $R/i8-b-planned.txt 2>&1; save i8-b-planned
timeout 40 python3 bench/torch_reference.py --suite $I --repeat 5 --launches 10 --json $R/t-i8.json > $R/t-i8.txt 2>&1; save t-i8
H=bench/results/v62-heldout-suite.json
for r in a-1 b-1 b-2 a-2; do
  timeout 70 /tmp/wgconv-${r%-*} bench --suite $H $S --json $R/h-$r.json > $R/h-$r.txt 2>&1; save h-$r
done
timeout 70 python3 bench/torch_reference.py --suite $H --repeat 5 --launches 10 --also-tf32 --json $R/t-h.json > $R/t-h.txt 2>&1; save t-h
cat $R/steps.txt $R/gpu.txt; grep -c "exit 0" $R/gc.txt; grep -c "== " $R/gc.txt
