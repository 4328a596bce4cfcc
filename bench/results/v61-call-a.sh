# v61 call A: the 8×8 Winograd kernels, forced, against the planner and cuDNN: `winograd_5x5_tile4`
# (F(4×4, 5×5)) against `winograd_5x5` (F(2×2, 5×5)) on `v61-5x5-suite.json`, and
# `winograd_6x6` (F(6×6, 3×3)) against `winograd_4x4` on R61's 146 3×3 layers
# (`v56-w4-suite.json`), fp32, interleaved (`winograd_5x5_tile4` twice around `winograd_5x5`
# and cuDNN; `winograd_6x6` twice around `winograd_4x4` and cuDNN: six start-ups failed, the
# budget left was short); device checks against the f64
# reference first. `wgconv-a` built from the v61 tree (b2b59dc). Carry [".gl", "bin-v61"]. Each
# step is saved as it ends. AlexNet b64 and Inception-v3 b32 whole (zoo-extra), planner and cuDNN, to score
# them with the 5×5 layer's forced times.
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig; export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
xz -dc bin-v61/a.tar.xz | tar xf - -C /tmp; chmod +x /tmp/wgconv-a
R=/tmp/rc; rm -rf $R; mkdir -p $R; T0=$(date +%s)
save() { echo "step $1 at $(($(date +%s)-T0)) s" >> $R/steps.txt; tar czf $OUT/rc.tgz -C $R . ; }
nvidia-smi --query-gpu=name,driver_version --format=csv > $R/gpu.txt; md5sum /tmp/wgconv-a > $R/md5.txt
python3 bench/gpu_check.py /tmp/gc | grep -E "kernel winograd_(5x5_tile4|6x6)" > /tmp/gc.cmds
while read -r line; do echo "== $line" | sed 's/--input.*--bias [^ ]* //' >> $R/gc.txt
  timeout 40 /tmp/wgconv-a $line 2>&1 | grep -i "error\|relative\|kernel:" >> $R/gc.txt; done < /tmp/gc.cmds; save gc
S="--repeat 5 --launches 10 --no-reference"
V=bench/results/v61-5x5-suite.json
timeout 40 /tmp/wgconv-a bench --suite $V $S --kernel winograd_5x5 --json $R/w5-1.json > $R/w5-1.txt 2>&1; save w5-1
timeout 40 /tmp/wgconv-a bench --suite $V $S --kernel winograd_5x5_tile4 --json $R/w8-1.json > $R/w8-1.txt 2>&1; save w8-1
timeout 60 python3 bench/torch_reference.py --suite $V --repeat 5 --launches 10 --also-tf32 --json $R/t5.json > $R/t5.txt 2>&1; save t5
timeout 40 /tmp/wgconv-a bench --suite $V $S --kernel winograd_5x5_tile4 --json $R/w8-2.json > $R/w8-2.txt 2>&1; save w8-2
timeout 40 /tmp/wgconv-a bench --suite $V $S --json $R/p5.json > $R/p5.txt 2>&1; save p5
X="--suite bench/suites/zoo-extra.json --models alexnet_b64,inception_v3_b32"
timeout 40 /tmp/wgconv-a bench $X $S --json $R/ax.json > $R/ax.txt 2>&1; save ax
timeout 60 python3 bench/torch_reference.py $X --repeat 5 --launches 10 --also-tf32 --json $R/axt.json > $R/axt.txt 2>&1; save axt
E=bench/results/v56-w4-suite.json
timeout 90 /tmp/wgconv-a bench --suite $E $S --kernel winograd_6x6 --json $R/w6-1.json > $R/w6-1.txt 2>&1; save w6-1
timeout 90 /tmp/wgconv-a bench --suite $E $S --kernel winograd_4x4 --json $R/w4-1.json > $R/w4-1.txt 2>&1; save w4-1
timeout 90 python3 bench/torch_reference.py --suite $E --repeat 5 --launches 10 --json $R/te.json > $R/te.txt 2>&1; save te
timeout 90 /tmp/wgconv-a bench --suite $E $S --kernel winograd_6x6 --json $R/w6-2.json > $R/w6-2.txt 2>&1; save w6-2
timeout 90 /tmp/wgconv-a bench --suite $E $S --json $R/pe.json > $R/pe.txt 2>&1; save pe
cat $R/steps.txt $R/gpu.txt $R/gc.txt
