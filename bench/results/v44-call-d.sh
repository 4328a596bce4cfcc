for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig; export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
tar xJf bin-ab/bins.tar.xz -C bin-ab
R=/tmp/rd; mkdir -p $R; T0=$(date +%s)
save() { echo "step $1 at $(($(date +%s)-T0)) s" >> $R/steps.txt; tar czf $OUT/rd.tgz -C $R . ; }
C="--repeat 5 --launches 10 --no-reference"; D=bench/suites/default.json; I=bench/suites/int8.json
timeout 60 bin-ab/wgconv-v44 bench --suite $I $C --roofline --json $R/roof.json > $R/roof.txt 2>&1; save roof
for r in 1 2; do for b in v44 v44-late v44-q8k128; do
 timeout 40 bin-ab/wgconv-$b bench --suite $D $C --json $R/d-$b-$r.json > $R/d-$b-$r.txt 2>&1; save d-$b-$r; done; done
for r in 1 2; do for b in v44 v44-q8k128; do
 timeout 40 bin-ab/wgconv-$b bench --suite $I $C --json $R/i-$b-$r.json > $R/i-$b-$r.txt 2>&1; save i-$b-$r; done; done
timeout 40 python3 bench/torch_reference.py --suite $I --rounds 2 --repeat 5 --launches 10 --json $R/t-i.json > $R/t-i.txt 2>&1; save t-i
Z=bench/suites/zoo-throughput.json; M=resnet50_b32,yolov8n_b16,wav2vec2_base_b16,whisper_base_b16
for r in 1 2; do for b in v44 v44-late; do
 timeout 90 bin-ab/wgconv-$b bench --suite $Z --models $M $C --json $R/g-$b-$r.json > $R/g-$b-$r.txt 2>&1; save g-$b-$r; done; done
timeout 60 python3 bench/torch_reference.py --suite $Z --models $M --rounds 2 --repeat 5 --launches 10 --json $R/t-g.json > $R/t-g.txt 2>&1; save t-g
