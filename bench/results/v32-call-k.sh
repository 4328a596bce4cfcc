for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig; export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
R=/tmp/rk; mkdir -p $R; T0=$(date +%s); K=./bin-ab/wgconv-k
save() { echo "step $1 at $(($(date +%s)-T0)) s" >> $R/steps.txt; tar czf $OUT/rk.tgz -C $R . ; }
S="--repeat 5 --launches 10 --no-reference"
nvidia-smi --query-gpu=driver_version,name --format=csv > $R/driver.txt 2>&1
python3 bench/gpu_check.py /tmp/gc | grep -E "pointwise_vec4" > $R/gc-cmds.txt
while read -r c; do echo "== $c" >> $R/gc.txt; timeout 20 $K $c >> $R/gc.txt 2>&1; echo "rc $?" >> $R/gc.txt; done < $R/gc-cmds.txt; save gc
timeout 100 $K bench --suite bin-ab/pw.json $S --kernel pointwise_vec4_split --json $R/pw-split.json > $R/pw-split.txt 2>&1; save s
timeout 130 $K bench --suite bin-ab/pw.json $S --json $R/pw-planned.json > $R/pw-planned.txt 2>&1; save p
timeout 90 $K bench --suite bin-ab/pw.json $S --kernel pointwise_vec4 --json $R/pw-vec4.json > $R/pw-vec4.txt 2>&1; save v
timeout 90 python3 bench/torch_reference.py --suite bin-ab/pw.json --repeat 5 --launches 10 --also-tf32 --json $R/torch-pw.json > $R/torch-pw.txt 2>&1; save t
timeout 80 $K bench --suite bin-ab/pw.json $S --kernel pointwise_vec4_split --json $R/pw-split2.json > $R/pw-split2.txt 2>&1; save s2
