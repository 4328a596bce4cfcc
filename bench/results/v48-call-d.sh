# v48 call D: the committed v48 (`c3` = the one-column loaders of call A in every staged tile,
# and for one-tap filters in the 16-deep ones; rule R50 for 1×1 filters) against v47 (`v47c`):
# the 66 layers of v48-pw-suite.json planned (two rounds); the default suite and the six models
# of v47-models-suite.json interleaved twice; cuDNN fp32/TF32.
# Binaries in bin-v47/ and bin-v48/ (not committed; c3 = this commit's tree).
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig; export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
xz -dc bin-v48/c3.xz > /tmp/wgconv-c3; xz -dc bin-v47/v47c.xz > /tmp/wgconv-v47c; chmod +x /tmp/wgconv-*
R=/tmp/rd; rm -rf $R; mkdir -p $R; T0=$(date +%s)
save() { echo "step $1 at $(($(date +%s)-T0)) s" >> $R/steps.txt; tar czf $OUT/rd.tgz -C $R . ; }
nvidia-smi --query-gpu=name,driver_version,clocks.sm --format=csv > $R/gpu.txt
C="--repeat 5 --launches 10 --no-reference"
timeout 80 /tmp/wgconv-c3 bench --suite bench/results/v48-pw-suite.json $C --rounds 2 --json $R/p-c3.json > $R/p-c3.txt 2>&1; save p-c3
for s in d:bench/suites/default.json m:bench/results/v47-models-suite.json; do p=${s%%:*}; S=${s#*:}
  for r in 1 2; do for b in c3 v47c; do timeout 70 /tmp/wgconv-$b bench --suite $S $C --json $R/$p-$b-$r.json > $R/$p-$b-$r.txt 2>&1; save $p-$b-$r; done; done
  timeout 50 python3 bench/torch_reference.py --suite $S --rounds 2 --repeat 5 --launches 10 --also-tf32 --json $R/t-$p.json > $R/t-$p.txt 2>&1; save t-$p
done
