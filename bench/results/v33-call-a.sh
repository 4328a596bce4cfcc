for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig; export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
R=/tmp/ra; mkdir -p $R; T0=$(date +%s)
save() { echo "step $1 at $(($(date +%s)-T0)) s" >> $R/steps.txt; tar czf $OUT/ra.tgz -C $R . ; }
S="--repeat 5 --launches 10 --no-reference"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,temperature.gpu --format=csv > $R/smi.txt 2>&1
for r in 1 2; do for b in A B; do
timeout 170 ./bin-ab/wgconv-$b bench --suite bench/results/v33-staged-suite.json $S --json $R/$b$r.json > $R/$b$r.txt 2>&1; save $b$r
done; done
timeout 100 python3 bench/torch_reference.py --suite bench/results/v33-staged-suite.json --repeat 5 --launches 10 --also-tf32 --json $R/torch.json > $R/torch.txt 2>&1; save t
