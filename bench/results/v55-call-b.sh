# v55 call B: three shapes of `direct_tiled`'s register block, each forced over
# `v55-tiled-suite.json` (133 layers), cuDNN fp32 in the same call, and the driver's register
# counts for five layers: `b2` = call A's `b` (4 rows × 16 output channels a thread), `c` = 8 rows ×
# 8 channels, `d` = 4 rows × 8 channels (twice the threads). Then rule R60 (`r`: `b2` with the
# rule) against the planner before it (`b2`) on the 9 layers it moves (`v55-moved-suite.json`),
# interleaved twice, and ESRGAN whole on it.
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig; export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
xz -dc bin-v55/bcd.tar.xz | tar xf - -C /tmp; chmod +x /tmp/wgconv-*
R=/tmp/rb; rm -rf $R; mkdir -p $R; T0=$(date +%s)
save() { echo "step $1 at $(($(date +%s)-T0)) s" >> $R/steps.txt; tar czf $OUT/rb.tgz -C $R . ; }
nvidia-smi --query-gpu=name,driver_version,clocks.sm --format=csv > $R/gpu.txt
T=bench/results/v55-tiled-suite.json; M=bench/results/v55-moved-suite.json; S="--repeat 5 --launches 10 --no-reference"
for i in 1 2; do for b in b2 r; do timeout 30 /tmp/wgconv-$b bench --suite $M $S --json $R/m-$b-$i.json > $R/m-$b-$i.txt 2>&1; save m-$b-$i; done; done
timeout 30 python3 bench/torch_reference.py --suite $M --repeat 5 --launches 10 --json $R/tm.json > $R/tm.txt 2>&1; save tm
for b in b2 c d; do timeout 100 /tmp/wgconv-$b bench --suite $T $S --kernel direct_tiled --json $R/tiled-$b.json > $R/tiled-$b.txt 2>&1; save tiled-$b; done
timeout 100 python3 bench/torch_reference.py --suite $T --repeat 5 --launches 10 --json $R/t.json > $R/t.txt 2>&1; save t
for b in b2 c d; do timeout 40 /tmp/wgconv-$b bench --suite bench/results/v55-stats-suite.json --repeat 3 --launches 10 --no-reference --kernel direct_tiled --pipeline-stats > $R/stats-$b.txt 2>&1; save stats-$b; done
timeout 40 /tmp/wgconv-r bench --suite bench/suites/zoo-extra.json --models esrgan_x4_b4,esrgan_x4_b1 $S --json $R/esrgan.json > $R/esrgan.txt 2>&1; save esrgan
cat $R/steps.txt $R/gpu.txt; grep -h -i "regist\|spill\|local" $R/stats-*.txt | sort | uniq -c | head -30; grep "^model" $R/esrgan.txt
python3 - <<'PY'
import json, math
t = json.load(open("/tmp/rb/t.json"))["torch_ms"]
runs = {b: {l["name"]: l["median_ms"] for l in json.load(open(f"/tmp/rb/tiled-{b}.json"))["layers"]} for b in ["b2", "c", "d"]}
for b, r in runs.items():
    print(b, "geomean vs cuDNN", math.exp(sum(math.log(t[n] / r[n]) for n in r) / len(r)))
for n in runs["b2"]:
    print(f"{n[:40]:40s} " + " ".join(f"{b} {t[n]/runs[b][n]:.2f}" for b in runs))
tm = json.load(open("/tmp/rb/tm.json"))["torch_ms"]
m = {b: {} for b in ["b2", "r"]}
for b in m:
    for i in (1, 2):
        for l in json.load(open(f"/tmp/rb/m-{b}-{i}.json"))["layers"]:
            m[b][l["name"]] = min(m[b].get(l["name"], 9e9), l["median_ms"])
for n in m["r"]:
    print(f"moved {n[:40]:40s} old {tm[n]/m['b2'][n]:.2f} new {tm[n]/m['r'][n]:.2f} x{m['b2'][n]/m['r'][n]:.2f}")
PY
