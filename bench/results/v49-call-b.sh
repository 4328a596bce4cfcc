# v49 call B: rules R51–R54 (`r51`, this commit's tree) against v48 (`v48`): the 20 fit layers
# whose plan they change plus the 22 held-out layers (v49-rules-suite.json), the default suite
# (interleaved twice) and the six models of v47-models-suite.json (once each, device time short); cuDNN fp32/TF32 in the same call.
# Binaries in bin-v48/ and bin-v49/ (not committed).
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig; export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
xz -dc bin-v48/v48.xz > /tmp/wgconv-v48; xz -dc bin-v49/r51.xz > /tmp/wgconv-r51; chmod +x /tmp/wgconv-*
R=/tmp/rb; rm -rf $R; mkdir -p $R; T0=$(date +%s)
save() { echo "step $1 at $(($(date +%s)-T0)) s" >> $R/steps.txt; tar czf $OUT/rb.tgz -C $R . ; }
nvidia-smi --query-gpu=name,driver_version,clocks.sm --format=csv > $R/gpu.txt
C="--repeat 5 --launches 10 --no-reference"
for s in x:bench/results/v49-rules-suite.json d:bench/suites/default.json m:bench/results/v47-models-suite.json; do p=${s%%:*}; S=${s#*:}
  rounds="1 2"; [ $p = m ] && rounds=1
  for r in $rounds; do for b in r51 v48; do timeout 70 /tmp/wgconv-$b bench --suite $S $C --json $R/$p-$b-$r.json > $R/$p-$b-$r.txt 2>&1; save $p-$b-$r; done; done
  timeout 60 python3 bench/torch_reference.py --suite $S --rounds 2 --repeat 5 --launches 10 --also-tf32 --json $R/t-$p.json > $R/t-$p.txt 2>&1; save t-$p
done
