for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig; export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
R=/tmp/rg; mkdir -p $R; T0=$(date +%s); G=./bin-ab/wgconv-g
save() { echo "step $1 at $(($(date +%s)-T0)) s" >> $R/steps.txt; tar czf $OUT/rg.tgz -C $R . ; }
S="--repeat 5 --launches 10 --no-reference"; P="--repeat 5 --launches 10 --also-tf32"
timeout 120 $G bench --suite bin-ab/pw.json $S --kernel pointwise_vec4 --json $R/pw-forced.json > $R/pw-forced.txt 2>&1; save f
timeout 120 $G bench --suite bin-ab/pw.json $S --json $R/pw-planned.json > $R/pw-planned.txt 2>&1; save p
timeout 100 python3 bench/torch_reference.py --suite bin-ab/pw.json $P --json $R/torch-pw.json > $R/torch-pw.txt 2>&1; save t
timeout 60 $G bench --suite bin-ab/pw.json $S --kernel pointwise_vec4 --dtype f16 --json $R/pw-forced-f16.json > $R/pw-forced-f16.txt 2>&1; save f16
