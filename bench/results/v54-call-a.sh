# v54 call A: the committed planner (v53, `bin-v54/base.xz`) over bench/suites/zoo-extra.json
# (378 layers of 25 model/batch pairs in neither zoo file), cuDNN fp32 and TF32 in the same call;
# then every kernel (`--sweep`) on the layers below 0.95x cuDNN fp32, to see which kernel wins
# where the planner's does not.
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig; export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
xz -dc bin-v54/base.xz > /tmp/wgconv; chmod +x /tmp/wgconv
R=/tmp/ra; rm -rf $R; mkdir -p $R; T0=$(date +%s)
save() { echo "step $1 at $(($(date +%s)-T0)) s" >> $R/steps.txt; tar czf $OUT/ra.tgz -C $R . ; }
nvidia-smi --query-gpu=name,driver_version,clocks.sm --format=csv > $R/gpu.txt
Z=bench/suites/zoo-extra.json; S="--repeat 5 --launches 10 --no-reference"
timeout 240 /tmp/wgconv bench --suite $Z $S --json $R/plan.json > $R/plan.txt 2>&1; save plan
timeout 150 python3 bench/torch_reference.py --suite $Z --repeat 5 --launches 10 --also-tf32 --json $R/t.json > $R/t.txt 2>&1; save t
python3 - <<'PY' > $R/weak.txt
import json, sys
sys.path.insert(0, ".")
from bench.best_of import read_run, read_torch
ours = read_run("/tmp/ra/plan.json"); fp32, _ = read_torch(["/tmp/ra/t.json"])
suite = json.load(open("bench/suites/zoo-extra.json"))
ratio = {n: fp32[n] / ours[n][1] for n in ours if n in fp32}
weak = sorted((r, n) for n, r in ratio.items() if r < 0.95)
for r, n in weak: print(f"{n} {ours[n][0]} {ours[n][1]:.4f} {fp32[n]:.4f} {r:.3f}")
keep = {n for _, n in weak[:60]}
json.dump({"about": "v54 call A: zoo-extra layers below 0.95x cuDNN fp32", "layers": [l for l in suite["layers"] if l["name"] in keep]}, open("/tmp/ra/weak-suite.json", "w"), indent=0)
PY
save weak
timeout 200 /tmp/wgconv bench --suite $R/weak-suite.json $S --sweep --json $R/sweep.json > $R/sweep.txt 2>&1; save sweep
cat $R/steps.txt $R/gpu.txt; grep "^model" $R/plan.txt | head -40; wc -l $R/weak.txt
