# v62 call C: R67 and R68 on held-out layers (`v62-heldout-suite.json`: in no suite of their
# fit): v61's planner (`wgconv-a`, b2b59dc) and v62's (`wgconv-b`, built from HEAD) interleaved
# a-1, b-1, b-2, a-2, cuDNN fp32 and TF32 in the same call. Carry [".gl", "bin-v62"].
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig; export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
for b in a b; do xz -dc bin-v62/$b.tar.xz | tar xf - -C /tmp; chmod +x /tmp/wgconv-$b; done
R=/tmp/rc; rm -rf $R; mkdir -p $R; T0=$(date +%s)
save() { echo "step $1 at $(($(date +%s)-T0)) s" >> $R/steps.txt; tar czf $OUT/rc.tgz -C $R . ; }
nvidia-smi --query-gpu=name,driver_version --format=csv > $R/gpu.txt; md5sum /tmp/wgconv-? > $R/md5.txt
S="--repeat 5 --launches 10 --no-reference"
H=bench/results/v62-heldout-suite.json
for r in a-1 b-1 b-2 a-2; do
  timeout 60 /tmp/wgconv-${r%-*} bench --suite $H $S --json $R/$r.json > $R/$r.txt 2>&1; save $r
done
timeout 60 python3 bench/torch_reference.py --suite $H --repeat 5 --launches 10 --also-tf32 --json $R/t.json > $R/t.txt 2>&1; save t
cat $R/steps.txt $R/gpu.txt
