for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig; export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
mkdir -p /tmp/rh; T0=$(date +%s); O=./bin-ab/wgconv-f; N=./bin-ab/wgconv-h
save() { echo "step $1 at $(($(date +%s)-T0)) s" >> /tmp/rh/steps.txt; tar czf $OUT/rh.tgz -C /tmp/rh . ; }
nvidia-smi --query-gpu=name,driver_version --format=csv > /tmp/rh/gpu.txt 2>&1
python3 bench/gpu_check.py /tmp/gc > /tmp/rh/gc-cmds.txt
grep -E "winograd|transposed_few_oc" /tmp/rh/gc-cmds.txt | while read -r line; do echo "== $line"; timeout 30 $N $line 2>&1 | grep -E "kernel|error|bound|rror|differ"; done > /tmp/rh/gc.txt 2>&1; save gc
S="--repeat 5 --launches 10 --no-reference"
timeout 30 $O bench --suite bin-ab/rgb.json $S --kernel transposed_few_oc --json /tmp/rh/rgb-old.json > /tmp/rh/rgb-old.txt 2>&1; save ro
timeout 30 $N bench --suite bin-ab/rgb.json $S --kernel transposed_few_oc --json /tmp/rh/rgb-new.json > /tmp/rh/rgb-new.txt 2>&1; save rn
for i in 1 2; do
timeout 120 $N bench --suite bin-ab/wino.json $S --json /tmp/rh/wino-planned-$i.json > /tmp/rh/wino-planned-$i.txt 2>&1; save p$i
timeout 120 $N bench --suite bin-ab/wino.json $S --kernel winograd --json /tmp/rh/wino-forced-$i.json > /tmp/rh/wino-forced-$i.txt 2>&1; save f$i
done
timeout 100 python3 bench/torch_reference.py --suite bin-ab/wino.json --repeat 5 --launches 10 --also-tf32 --json /tmp/rh/torch-wino.json > /tmp/rh/torch-wino.txt 2>&1; save t
timeout 20 python3 bench/torch_reference.py --suite bin-ab/rgb.json --repeat 5 --launches 10 --json /tmp/rh/torch-rgb.json > /tmp/rh/torch-rgb.txt 2>&1; save tr
