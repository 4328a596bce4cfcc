# v52 call B: v51's build (old) against v52's (R56, a pass per parallel launch) back to back,
# interleaved, on the 57 ORT layers and the default suite; the int8 layers planned (R56) and on
# q8_coop; `--parallel 16` and ORT's WebGPU EP again over the 57.
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig; export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
xz -dc bin-v52/r56.xz > /tmp/wgconv-new; xz -dc bin-v51/r55.xz > /tmp/wgconv-old; chmod +x /tmp/wgconv-*
R=/tmp/rb; rm -rf $R; mkdir -p $R; T0=$(date +%s)
save() { echo "step $1 at $(($(date +%s)-T0)) s" >> $R/steps.txt; tar czf $OUT/rb.tgz -C $R . ; }
nvidia-smi --query-gpu=name,driver_version,clocks.sm --format=csv > $R/gpu.txt
(xz -dc .whl-site.tar.xz | tar xf - -C /tmp) > $R/pip.txt 2>&1
O=bench/results/v31-ortlose-suite.json; S="--repeat 5 --launches 10 --no-reference"
for i in 1 2; do for b in old new; do
  timeout 40 /tmp/wgconv-$b bench --suite $O $S --json $R/o-$b-$i.json > $R/o-$b-$i.txt 2>&1; save o-$b-$i
  timeout 40 /tmp/wgconv-$b bench --suite default $S --json $R/d-$b-$i.json > $R/d-$b-$i.txt 2>&1; save d-$b-$i
done; done
I=bench/results/v52-int8-suite.json
timeout 30 /tmp/wgconv-new bench --suite $I $S --json $R/i8-planned.json > $R/i8-planned.txt 2>&1; save i8p
timeout 30 /tmp/wgconv-new bench --suite $I $S --q8-kernel q8_coop --json $R/i8-coop.json > $R/i8-coop.txt 2>&1; save i8c
timeout 30 python3 bench/torch_reference.py --suite $I --repeat 5 --launches 10 --json $R/t-i8.json > $R/t-i8.txt 2>&1; save t-i8
timeout 30 python3 bench/torch_reference.py --suite default --repeat 5 --launches 10 --json $R/t-d.json > $R/t-d.txt 2>&1; save t-d
timeout 100 /tmp/wgconv-new bench --suite $O $S --parallel 16 --json $R/par16-new.json > $R/par16-new.txt 2>&1; save par-new
PYTHONPATH=/tmp/site timeout 150 python3 bench/ort_webgpu_reference.py --suite $O --k 16 --k-from 8 --limit-s 130 --json $R/ort.json > $R/ort.txt 2>&1; save ort
cat $R/steps.txt
