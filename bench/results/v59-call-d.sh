# v59 call D: v58's call D on its own (`winograd_4x4_coop`) and v59's `winograd_5x5` (F(2×2, 5×5),
# fp32, forced against the planner and cuDNN on `v59-5x5-suite.json`), `wgconv-d` built from
# the v59 tree:
# device checks against the f64 reference, then forced against the planner with f16
# multiplicands allowed on the 146 layers of `v56-w4-suite.json`, cuDNN fp32 and TF32 in the
# same call, `winograd_coop` forced for the F(2×2) comparison, the diffusion suite on
# channels-last tensors, and the fp32 planner last. Carry [".gl", "bin-v59"]. Each step is
# saved as it ends: a call cut short keeps what ran. The steps' timeouts sum past the 600 s a
# call may run; they took about 300 s of them in v57 call B: the least wanted come last.
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig; export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
xz -dc bin-v59/d.tar.xz | tar xf - -C /tmp; chmod +x /tmp/wgconv-d
R=/tmp/rc; rm -rf $R; mkdir -p $R; T0=$(date +%s)
save() { echo "step $1 at $(($(date +%s)-T0)) s" >> $R/steps.txt; tar czf $OUT/rc.tgz -C $R . ; }
nvidia-smi --query-gpu=name,driver_version --format=csv > $R/gpu.txt; md5sum /tmp/wgconv-* > $R/md5.txt
python3 bench/gpu_check.py /tmp/gc | grep -E "kernel winograd_(4x4|5x5)|/winograd_coop_(ragged|large)_x" > /tmp/gc.cmds
while read -r line; do echo "== $line" | sed 's/--input.*--bias [^ ]* //' >> $R/gc.txt
  timeout 40 /tmp/wgconv-d $line 2>&1 | grep -i "error\|relative\|kernel:" >> $R/gc.txt; done < /tmp/gc.cmds; save gc
E=bench/results/v56-w4-suite.json; S="--repeat 5 --launches 10 --no-reference"; F="$S --precision f16"
timeout 100 /tmp/wgconv-d bench --suite $E $F --json $R/p-1.json > $R/p-1.txt 2>&1; save p-1
timeout 100 /tmp/wgconv-d bench --suite $E $F --kernel winograd_4x4_coop --json $R/w-1.json > $R/w-1.txt 2>&1; save w-1
timeout 100 python3 bench/torch_reference.py --suite $E --repeat 5 --launches 10 --also-tf32 --json $R/te.json > $R/te.txt 2>&1; save te
V=bench/results/v59-5x5-suite.json
timeout 40 /tmp/wgconv-d bench --suite $V $S --json $R/p5-1.json > $R/p5-1.txt 2>&1; save p5-1
timeout 40 /tmp/wgconv-d bench --suite $V $S --kernel winograd_5x5 --json $R/w5-1.json > $R/w5-1.txt 2>&1; save w5-1
timeout 60 python3 bench/torch_reference.py --suite $V --repeat 5 --launches 10 --also-tf32 --json $R/t5.json > $R/t5.txt 2>&1; save t5
timeout 40 /tmp/wgconv-d bench --suite $V $S --kernel winograd_5x5 --json $R/w5-2.json > $R/w5-2.txt 2>&1; save w5-2
timeout 40 /tmp/wgconv-d bench --suite $V $S --json $R/p5-2.json > $R/p5-2.txt 2>&1; save p5-2
timeout 100 /tmp/wgconv-d bench --suite $E $F --kernel winograd_coop --json $R/f2.json > $R/f2.txt 2>&1; save f2
timeout 100 /tmp/wgconv-d bench --suite $E $F --kernel winograd_4x4_coop --json $R/w-2.json > $R/w-2.txt 2>&1; save w-2
timeout 100 /tmp/wgconv-d bench --suite $E $F --json $R/p-2.json > $R/p-2.txt 2>&1; save p-2
D=bench/suites/diffusion.json
timeout 30 /tmp/wgconv-d bench --suite $D $F --channels-last --json $R/pl.json > $R/pl.txt 2>&1
timeout 30 /tmp/wgconv-d bench --suite $D $F --channels-last --kernel winograd_4x4_coop --json $R/wl.json > $R/wl.txt 2>&1; save wl
timeout 100 /tmp/wgconv-d bench --suite $E $S --json $R/c-1.json > $R/c-1.txt 2>&1; save c-1
cat $R/steps.txt $R/gpu.txt $R/gc.txt
