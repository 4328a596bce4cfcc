for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig; export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
tar xJf bin-ab/bins.tar.xz -C bin-ab; B=bin-ab/wgconv-v44
R=/tmp/rc; mkdir -p $R; T0=$(date +%s)
save() { echo "step $1 at $(($(date +%s)-T0)) s" >> $R/steps.txt; tar czf $OUT/rc.tgz -C $R . ; }
S=bench/results/v43-pw-changed.json; C="--repeat 5 --launches 10 --no-reference"
for m in "dtype f16" "precision f16"; do t=${m// /-}
 timeout 60 $B bench --suite $S $C --$m --rounds 2 --json $R/$t-plan.json > $R/$t-plan.txt 2>&1; save $t-plan
 timeout 60 $B bench --suite $S $C --$m --rounds 2 --kernel pointwise_vec4 --json $R/$t-pw.json > $R/$t-pw.txt 2>&1; save $t-pw
done
timeout 60 python3 bench/torch_reference.py --suite $S --rounds 2 --repeat 5 --launches 10 --also-tf32 --json $R/t.json > $R/t.txt 2>&1; save t
timeout 60 python3 bench/torch_reference.py --suite $S --rounds 2 --repeat 5 --launches 10 --dtype float16 --json $R/t16.json > $R/t16.txt 2>&1; save t16
