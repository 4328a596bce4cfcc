# v51 call A: `direct_block` with interleaved pixels (each thread's 4 pixels 32 apart in the
# flattened output, so a warp's tap loads are whole lines) and weights staged for as many input
# channels as fit, against the committed kernel (`bin-v51/base.xz`, built from c263c99) on the 81
# layers of v44's block suite (every layer of the suites it can run with K ≤ 1152), each side
# forced and the new binary planned, two interleaved rounds; GPU checks of the new kernel;
# registers; cuDNN on the same suite in the same call. Binaries are not committed.
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig; export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
for b in base new; do xz -dc bin-v51/$b.xz > /tmp/wgconv-$b; chmod +x /tmp/wgconv-$b; done
R=/tmp/ra; rm -rf $R; mkdir -p $R; T0=$(date +%s)
save() { echo "step $1 at $(($(date +%s)-T0)) s" >> $R/steps.txt; tar czf $OUT/ra.tgz -C $R . ; }
nvidia-smi --query-gpu=name,driver_version,clocks.sm --format=csv > $R/gpu.txt
python3 bench/gpu_check.py /tmp/gc > $R/gc-cmds.txt
grep -E 'direct_block' $R/gc-cmds.txt | while read l; do echo "== $l"; timeout 60 /tmp/wgconv-new $l 2>&1 | tail -3; done > $R/gc.txt 2>&1; save gc
C="--repeat 5 --launches 10 --no-reference"
for b in base new; do timeout 60 /tmp/wgconv-$b bench --suite bench/results/v44-stats-suite.json --kernel direct_block --pipeline-stats $C > $R/st-$b.txt 2>&1; done; save st
S=bench/results/v44-block-suite.json
for r in 1 2; do for run in base:direct_block new:direct_block new:plan; do b=${run%%:*}; k=${run##*:}; a=; [ $k = plan ] || a="--kernel $k"
 timeout 110 /tmp/wgconv-$b bench --suite $S $C $a --json $R/$b-$k-$r.json > $R/$b-$k-$r.txt 2>&1; save $b-$k-$r; done; done
timeout 100 python3 bench/torch_reference.py --suite $S --rounds 2 --repeat 5 --launches 10 --also-tf32 --json $R/t.json > $R/t.txt 2>&1; save t
cat $R/steps.txt
