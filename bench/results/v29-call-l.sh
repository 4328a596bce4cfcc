for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig; export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
mkdir -p /tmp/rl; T0=$(date +%s); N=./bin-ab/wgconv-k
save() { echo "step $1 at $(($(date +%s)-T0)) s" >> /tmp/rl/steps.txt; tar czf $OUT/rl.tgz -C /tmp/rl . ; }
python3 bench/gpu_check.py /tmp/gc > /tmp/rl/gc-cmds.txt
grep -E "winograd" /tmp/rl/gc-cmds.txt | while read -r line; do echo "== $line"; timeout 30 $N $line 2>&1 | grep -E "kernel|error|bound|rror|differ"; done > /tmp/rl/gc.txt 2>&1; save gc
S="--repeat 5 --launches 10 --no-reference"
for i in 1 2; do
timeout 60 $N bench --suite bin-ab/few.json $S --json /tmp/rl/few-planned-$i.json > /tmp/rl/few-planned-$i.txt 2>&1; save p$i
timeout 60 $N bench --suite bin-ab/few.json $S --kernel grouped_oc4 --json /tmp/rl/few-goc4-$i.json > /tmp/rl/few-goc4-$i.txt 2>&1; save g$i
done
timeout 60 python3 bench/torch_reference.py --suite bin-ab/few.json --repeat 5 --launches 10 --json /tmp/rl/torch-few.json > /tmp/rl/torch-few.txt 2>&1; save t
timeout 60 $N bench --suite zoo --models sd_vae_decoder,sd15_unet $S --json /tmp/rl/zoo-gen.json > /tmp/rl/zoo-gen.txt 2>&1; save z
python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl > /tmp/rl/pip.txt 2>&1; save pip
PYTHONPATH=/tmp/site timeout 240 python3 bench/ort_webgpu_reference.py --suite bench/suites/zoo.json --k 8 --limit-s 200 --json /tmp/rl/ort-zoo.json > /tmp/rl/ort-zoo.txt 2>&1; save ort
