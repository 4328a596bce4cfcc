# v52 call A: q8_dot4_gemm_n32 (32-pixel tiles) checked bit-exact and timed against the 64-pixel
# tiles over the int8 layers, torch._int_mm in the same call; `--parallel 16` with a compute pass
# per launch (new) against one pass (v51's build), and ORT's WebGPU EP over the same 57 layers.
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig; export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
xz -dc bin-v52/new.xz > /tmp/wgconv-new; xz -dc bin-v51/r55.xz > /tmp/wgconv-old; chmod +x /tmp/wgconv-*
R=/tmp/ra; rm -rf $R; mkdir -p $R; T0=$(date +%s)
save() { echo "step $1 at $(($(date +%s)-T0)) s" >> $R/steps.txt; tar czf $OUT/ra.tgz -C $R . ; }
nvidia-smi --query-gpu=name,driver_version,clocks.sm --format=csv > $R/gpu.txt
(xz -dc .whl-site.tar.xz | tar xf - -C /tmp) > $R/pip.txt 2>&1 &
python3 bench/gpu_check.py /tmp/gc | grep q8-conv-pw > $R/gc-cmds.txt
while read -r line; do echo "== $line" >> $R/gc.txt; timeout 20 /tmp/wgconv-new $line >> $R/gc.txt 2>&1; echo "exit $?" >> $R/gc.txt; done < $R/gc-cmds.txt; save gc
I=bench/results/v52-int8-suite.json; S="--repeat 5 --launches 10 --no-reference"
for i in 1 2; do
  for k in q8_dot4_gemm q8_dot4_gemm_n32; do
    timeout 40 /tmp/wgconv-new bench --suite $I $S --q8-kernel $k --json $R/i8-$k-$i.json > $R/i8-$k-$i.txt 2>&1; save i8-$k-$i
  done
done
timeout 40 python3 bench/torch_reference.py --suite $I --repeat 5 --launches 10 --json $R/t-i8.json > $R/t-i8.txt 2>&1; save t-i8
O=bench/results/v31-ortlose-suite.json
timeout 70 /tmp/wgconv-new bench --suite $O $S --parallel 16 --json $R/par16-new.json > $R/par16-new.txt 2>&1; save par-new
timeout 70 /tmp/wgconv-old bench --suite $O $S --parallel 16 --json $R/par16-old.json > $R/par16-old.txt 2>&1; save par-old
wait
PYTHONPATH=/tmp/site timeout 240 python3 bench/ort_webgpu_reference.py --suite $O --k 16 --k-from 8 --limit-s 210 --json $R/ort.json > $R/ort.txt 2>&1; save ort
cat $R/steps.txt; grep -c "exit 0" $R/gc.txt; grep -c "== " $R/gc.txt
