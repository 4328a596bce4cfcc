for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig; export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
tar xJf bin-ab/bins.tar.xz -C bin-ab; B=bin-ab/wgconv-v43b
R=/tmp/rc; mkdir -p $R; T0=$(date +%s)
save() { echo "step $1 at $(($(date +%s)-T0)) s" >> $R/steps.txt; tar czf $OUT/rc.tgz -C $R . ; }
S=bench/results/v43-pw-changed.json; C="--repeat 5 --launches 10 --no-reference"
timeout 60 $B bench --suite $S $C --rounds 2 --json $R/f32.json > $R/f32.txt 2>&1; save f32
for r in 1 2; do for m in "dtype f16" "precision f16"; do t=${m// /-}
 timeout 50 $B bench --suite $S $C --$m --json $R/$t-plan-$r.json > $R/$t-plan-$r.txt 2>&1; save $t-plan-$r
 timeout 50 $B bench --suite $S $C --$m --kernel pointwise_vec4 --json $R/$t-pw-$r.json > $R/$t-pw-$r.txt 2>&1; save $t-pw-$r
done; done
timeout 60 python3 bench/torch_reference.py --suite $S --rounds 2 --repeat 5 --launches 10 --dtype float16 --json $R/t16.json > $R/t16.txt 2>&1; save t16
timeout 60 python3 bench/torch_reference.py --suite $S --rounds 2 --repeat 5 --launches 10 --dtype float16 --channels-last --json $R/t16cl.json > $R/t16cl.txt 2>&1; save t16cl
