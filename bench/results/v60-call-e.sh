# v60 call E: `winograd_4x4` on dilated 3×3 filters (the output's dilation² phases each tiled
# alone), forced against the planner on `v60-dilated-suite.json` (DeepLabv3-ResNet-50 b4's
# dilated layers of zoo-extra, its output-stride-16 form at batch 8, batch 1, three probes),
# interleaved p, w, w, p, cuDNN fp32 and TF32 in the same call; device checks of the dilated
# transforms against f64. Carry [".gl", "bin-v60"].
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig; export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
xz -dc bin-v60/e.tar.xz | tar xf - -C /tmp; chmod +x /tmp/wgconv-e
R=/tmp/re; rm -rf $R; mkdir -p $R; T0=$(date +%s)
save() { echo "step $1 at $(($(date +%s)-T0)) s" >> $R/steps.txt; tar czf $OUT/re.tgz -C $R . ; }
nvidia-smi --query-gpu=name,driver_version --format=csv > $R/gpu.txt; md5sum /tmp/wgconv-e > $R/md5.txt
python3 bench/gpu_check.py /tmp/gc | grep -E "dilated" > /tmp/gc.cmds
while read -r line; do echo "== $line" | sed 's/--input.*--bias [^ ]* //' >> $R/gc.txt
  timeout 40 /tmp/wgconv-e $line 2>&1 | grep -i "error\|relative\|kernel:" >> $R/gc.txt; done < /tmp/gc.cmds; save gc
D=bench/results/v60-dilated-suite.json; S="--repeat 5 --launches 10 --no-reference"
timeout 100 /tmp/wgconv-e bench --suite $D $S --json $R/p-1.json > $R/p-1.txt 2>&1; save p-1
timeout 100 /tmp/wgconv-e bench --suite $D $S --kernel winograd_4x4 --json $R/w-1.json > $R/w-1.txt 2>&1; save w-1
timeout 100 python3 bench/torch_reference.py --suite $D --repeat 5 --launches 10 --also-tf32 --json $R/t.json > $R/t.txt 2>&1; save t
timeout 100 /tmp/wgconv-e bench --suite $D $S --kernel winograd_4x4 --json $R/w-2.json > $R/w-2.txt 2>&1; save w-2
timeout 100 /tmp/wgconv-e bench --suite $D $S --json $R/p-2.json > $R/p-2.txt 2>&1; save p-2
cat $R/steps.txt $R/gpu.txt $R/gc.txt
