# v58 calls C and D in one device call (device starts were scarce): v57's call C (R61 planned,
# `wgconv-c`, against the v56 build's planner, `wgconv-b`, fp32, on the 146 layers of
# `v56-w4-suite.json`), and v58's call D (`winograd_4x4_coop`, new in `wgconv-d`, checked against
# the f64 reference on the device, then forced against the planner with f16 multiplicands
# allowed on the same 146 layers, cuDNN fp32 and TF32 in the same call, and the diffusion suite
# on channels-last tensors). Run by `bench/results/v57-call-c.sh`; carry [".gl",
# "bin-v56/b.tar.xz", "bin-v57"] (bin-v57 holds c.tar.xz and d.tar.xz). Each step is saved as it
# ends, the most wanted first (call D's, then call C's): a call cut short keeps what ran.
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig; export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
for t in bin-v56/b.tar.xz bin-v57/c.tar.xz bin-v57/d.tar.xz; do xz -dc $t | tar xf - -C /tmp; done; chmod +x /tmp/wgconv-*
R=/tmp/rc; rm -rf $R; mkdir -p $R; T0=$(date +%s)
save() { echo "step $1 at $(($(date +%s)-T0)) s" >> $R/steps.txt; tar czf $OUT/rc.tgz -C $R . ; }
nvidia-smi --query-gpu=name,driver_version --format=csv > $R/gpu.txt; md5sum /tmp/wgconv-* > $R/md5.txt
python3 bench/gpu_check.py /tmp/gc | grep -E "kernel winograd_4x4|/winograd_coop_(ragged|large)_x" > /tmp/gc.cmds
while read -r line; do echo "== $line" | sed 's/--input.*--bias [^ ]* //' >> $R/gc.txt
  timeout 40 /tmp/wgconv-d $line 2>&1 | grep -i "error\|relative\|kernel:" >> $R/gc.txt; done < /tmp/gc.cmds; save gc
E=bench/results/v56-w4-suite.json; S="--repeat 5 --launches 10 --no-reference"; F="$S --precision f16"
timeout 100 /tmp/wgconv-d bench --suite $E $F --json $R/p-1.json > $R/p-1.txt 2>&1; save p-1
timeout 100 /tmp/wgconv-d bench --suite $E $F --kernel winograd_4x4_coop --json $R/w-1.json > $R/w-1.txt 2>&1; save w-1
timeout 100 python3 bench/torch_reference.py --suite $E --repeat 5 --launches 10 --also-tf32 --json $R/te.json > $R/te.txt 2>&1; save te
timeout 100 /tmp/wgconv-d bench --suite $E $F --kernel winograd_4x4_coop --json $R/w-2.json > $R/w-2.txt 2>&1; save w-2
timeout 100 /tmp/wgconv-d bench --suite $E $F --json $R/p-2.json > $R/p-2.txt 2>&1; save p-2
D=bench/suites/diffusion.json
timeout 30 /tmp/wgconv-d bench --suite $D $F --channels-last --json $R/pl.json > $R/pl.txt 2>&1
timeout 30 /tmp/wgconv-d bench --suite $D $F --channels-last --kernel winograd_4x4_coop --json $R/wl.json > $R/wl.txt 2>&1; save wl
timeout 100 /tmp/wgconv-c bench --suite $E $S --json $R/c-1.json > $R/c-1.txt 2>&1; save c-1
timeout 100 /tmp/wgconv-b bench --suite $E $S --json $R/b-1.json > $R/b-1.txt 2>&1; save b-1
cat $R/steps.txt $R/gpu.txt $R/gc.txt
