# v45 call F: R47's planner (wgconv-v45) against v44's (wgconv-v44), interleaved, on the 81
# layers `direct_block` can run and on YOLOv8n at batch 16, cuDNN in the same call; then v44's
# lost call C (R46's layers on f16 tensors and with f16 allowed) on the v45 binary; then the
# `few4` measuring build (v45-variants.py) against v45 on v45-fewoc-suite.json, interleaved.
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig; export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
tar xJf bin-ab/bins.tar.xz -C bin-ab; for b in v45 few4; do xz -dc bin-v45/$b.xz > bin-ab/wgconv-$b; chmod +x bin-ab/wgconv-$b; done
R=/tmp/rf; mkdir -p $R; T0=$(date +%s)
save() { echo "step $1 at $(($(date +%s)-T0)) s" >> $R/steps.txt; tar czf $OUT/rf.tgz -C $R . ; }
C="--repeat 5 --launches 10 --no-reference"; S=bench/results/v44-block-suite.json
Z=bench/suites/zoo-throughput.json; M=yolov8n_b16
for r in 1 2; do for b in v44 v45; do
 timeout 40 bin-ab/wgconv-$b bench --suite $S $C --json $R/blk-$b-$r.json > $R/blk-$b-$r.txt 2>&1; save blk-$b-$r
 timeout 40 bin-ab/wgconv-$b bench --suite $Z --models $M $C --json $R/y-$b-$r.json > $R/y-$b-$r.txt 2>&1; save y-$b-$r; done; done
timeout 60 python3 bench/torch_reference.py --suite $Z --models $M --rounds 2 --repeat 5 --launches 10 --also-tf32 --json $R/t-y.json > $R/t-y.txt 2>&1; save t-y
B=bin-ab/wgconv-v45; S=bench/results/v43-pw-changed.json
for m in "dtype f16" "precision f16"; do t=${m// /-}
 timeout 50 $B bench --suite $S $C --$m --rounds 2 --json $R/$t-plan.json > $R/$t-plan.txt 2>&1; save $t-plan
 timeout 50 $B bench --suite $S $C --$m --rounds 2 --kernel pointwise_vec4 --json $R/$t-pw.json > $R/$t-pw.txt 2>&1; save $t-pw
done
timeout 50 python3 bench/torch_reference.py --suite $S --rounds 2 --repeat 5 --launches 10 --also-tf32 --json $R/t-pw.json > $R/t-pw.txt 2>&1; save t-pw
timeout 50 python3 bench/torch_reference.py --suite $S --rounds 2 --repeat 5 --launches 10 --dtype float16 --json $R/t16-pw.json > $R/t16-pw.txt 2>&1; save t16-pw
S=bench/results/v45-fewoc-suite.json
for r in 1 2; do for b in v45 few4; do
 timeout 40 bin-ab/wgconv-$b bench --suite $S $C --json $R/fo-$b-$r.json > $R/fo-$b-$r.txt 2>&1; save fo-$b-$r; done; done
timeout 50 python3 bench/torch_reference.py --suite $S --rounds 2 --repeat 5 --launches 10 --also-tf32 --json $R/t-fo.json > $R/t-fo.txt 2>&1; save t-fo
