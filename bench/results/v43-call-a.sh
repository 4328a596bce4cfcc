for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig; export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
tar xJf bin-ab/bins.tar.xz -C bin-ab
R=/tmp/ra; mkdir -p $R; T0=$(date +%s)
save() { echo "step $1 at $(($(date +%s)-T0)) s" >> $R/steps.txt; tar czf $OUT/ra.tgz -C $R . ; }
P=bench/results/v43-pw-suite.json; D=bench/results/v43-dw-suite.json; C="--repeat 5 --launches 10 --no-reference"
forced() { for b in v42 l8 l4; do timeout 70 bin-ab/wgconv-$b bench --suite $P --kernel pointwise_vec4 $C --json $R/pw-$b-$1.json > $R/pw-$b-$1.txt 2>&1; save pw-$b-$1; done; }
forced 1
for b in v42 l8; do timeout 80 bin-ab/wgconv-$b bench --suite $P $C --json $R/pwp-$b.json > $R/pwp-$b.txt 2>&1; save pwp-$b; done
timeout 60 python3 bench/torch_reference.py --suite $P --rounds 2 --repeat 5 --launches 10 --also-tf32 --json $R/t-pw.json > $R/t-pw.txt 2>&1; save t-pw
for t in f32 f16; do
 timeout 30 bin-ab/wgconv-l8 bench --suite $D $C --rounds 2 --dtype $t --json $R/dw-plan-$t.json > $R/dw-plan-$t.txt 2>&1; save dw-plan-$t
 timeout 30 bin-ab/wgconv-l8 bench --suite $D $C --rounds 2 --dtype $t --kernel depthwise_tiled --json $R/dw-tiled-$t.json > $R/dw-tiled-$t.txt 2>&1; save dw-tiled-$t
done
timeout 30 python3 bench/torch_reference.py --suite $D --rounds 2 --repeat 5 --launches 10 --also-tf32 --json $R/t-dw.json > $R/t-dw.txt 2>&1; save t-dw
timeout 30 python3 bench/torch_reference.py --suite $D --rounds 2 --repeat 5 --launches 10 --dtype float16 --json $R/t-dw16.json > $R/t-dw16.txt 2>&1; save t-dw16
forced 2
