# v47 call D: v47 against v46d, interleaved twice, on the default suite and on every layer of six
# throughput-zoo models (the three under parity with cuDNN fp32 and three with GEMM-bound layers);
# cuDNN fp32 and TF32 in the same call.
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig; export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
xz -dc bin-v46/v46d.xz > /tmp/wgconv-v46d; xz -dc bin-v47/v47.xz > /tmp/wgconv-v47; chmod +x /tmp/wgconv-*
R=/tmp/rd; mkdir -p $R; T0=$(date +%s)
save() { echo "step $1 at $(($(date +%s)-T0)) s" >> $R/steps.txt; tar czf $OUT/rd.tgz -C $R . ; }
nvidia-smi --query-gpu=name,driver_version,clocks.sm --format=csv > $R/gpu.txt
C="--repeat 5 --launches 10 --no-reference"
for s in d:bench/suites/default.json m:bench/results/v47-models-suite.json; do p=${s%%:*}; S=${s#*:}
  for r in 1 2; do for b in v46d v47; do timeout 90 /tmp/wgconv-$b bench --suite $S $C --json $R/$p-$b-$r.json > $R/$p-$b-$r.txt 2>&1; save $p-$b-$r; done; done
  timeout 80 python3 bench/torch_reference.py --suite $S --rounds 2 --repeat 5 --launches 10 --also-tf32 --json $R/t-$p.json > $R/t-$p.txt 2>&1; save t-$p
done
