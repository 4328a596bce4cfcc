for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig; export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
R=/tmp/rb; mkdir -p $R; T0=$(date +%s)
save() { echo "step $1 at $(($(date +%s)-T0)) s" >> $R/steps.txt; tar czf $OUT/rb.tgz -C $R . ; }
python3 bench/gpu_check.py /tmp/gc | grep -E "winograd_coop|coop_split_k " > $R/gc-cmds.txt
while read -r c; do echo "== Q $c" >> $R/gc.txt; timeout 30 ./bin-ab/wgconv-Q $c >> $R/gc.txt 2>&1; echo "rc $?" >> $R/gc.txt; done < $R/gc-cmds.txt
while read -r c; do echo "== Q cap 4MiB $c" >> $R/gc.txt; WGCONV_MAX_BINDING_BYTES=4194304 timeout 30 ./bin-ab/wgconv-Q $c >> $R/gc.txt 2>&1; echo "rc $?" >> $R/gc.txt; done < $R/gc-cmds.txt; save gc
W="--suite bench/results/v34-winograd-suite.json --repeat 5 --launches 10 --no-reference"
for r in 1 2; do for b in Q O; do timeout 70 ./bin-ab/wgconv-$b bench $W --precision f16 --json $R/$b-f16-$r.json > $R/$b-f16-$r.txt 2>&1; save $b-f16-$r; done; done
export WGCONV_MAX_BINDING_BYTES=134217728
timeout 80 ./bin-ab/wgconv-Q bench $W --precision f16 --json $R/Q-cap-f16.json > $R/Q-cap-f16.txt 2>&1; save Q-cap-f16
timeout 80 ./bin-ab/wgconv-Q bench $W --precision f16 --kernel coop_f16 --json $R/Q-cap-coop.json > $R/Q-cap-coop.txt 2>&1; save Q-cap-coop
timeout 80 ./bin-ab/wgconv-Q bench $W --json $R/Q-cap-f32.json > $R/Q-cap-f32.txt 2>&1; save Q-cap-f32
unset WGCONV_MAX_BINDING_BYTES
for b in Q O; do timeout 80 ./bin-ab/wgconv-$b bench $W --json $R/$b-f32.json > $R/$b-f32.txt 2>&1; save $b-f32; done
D="--suite bench/suites/default.json --repeat 5 --launches 10 --no-reference"
for b in Q O; do timeout 40 ./bin-ab/wgconv-$b bench $D --json $R/$b-def.json > $R/$b-def.txt 2>&1; save $b-def; done
