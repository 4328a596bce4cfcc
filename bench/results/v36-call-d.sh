for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig; export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
R=/tmp/rd; mkdir -p $R; T0=$(date +%s)
save() { echo "step $1 at $(($(date +%s)-T0)) s" >> $R/steps.txt; tar czf $OUT/rd.tgz -C $R . ; }
python3 bench/gpu_check.py /tmp/gc | grep -E "winograd_coop|coop_split_k " > $R/gc-cmds.txt
while read -r c; do echo "== O $c" >> $R/gc.txt; timeout 30 ./bin-ab/wgconv-O $c >> $R/gc.txt 2>&1; echo "rc $?" >> $R/gc.txt; done < $R/gc-cmds.txt; save gc
M1=sd_vae_decoder,sd15_unet,resnet50,yolov8n
S1="--suite bench/suites/zoo.json --models $M1 --repeat 5 --launches 10 --no-reference --precision f16"
timeout 60 ./bin-ab/wgconv-O bench $S1 --json $R/O-z1.json > $R/O-z1.txt 2>&1; save O-z1
timeout 60 ./bin-ab/wgconv-O bench $S1 --kernel coop_nhwc --json $R/O-z1-cn.json > $R/O-z1-cn.txt 2>&1; save O-z1-cn
timeout 80 python3 bench/torch_reference.py --suite bench/suites/zoo.json --models $M1 --repeat 5 --launches 10 --also-tf32 --json $R/t-z1.json > $R/t-z1.txt 2>&1; save t-z1
W="--suite bench/results/v36-winograd-candidates.json --repeat 5 --launches 10 --no-reference --precision f16"
timeout 80 ./bin-ab/wgconv-O bench $W --kernel coop_nhwc --json $R/O-cand-cn.json > $R/O-cand-cn.txt 2>&1; save O-cand-cn
timeout 80 ./bin-ab/wgconv-O bench $W --json $R/O-cand.json > $R/O-cand.txt 2>&1; save O-cand
D="--suite bench/suites/default.json --repeat 5 --launches 10 --no-reference --precision f16"
timeout 40 ./bin-ab/wgconv-O bench $D --kernel coop_nhwc --json $R/O-def-cn.json > $R/O-def-cn.txt 2>&1; save O-def-cn
timeout 40 ./bin-ab/wgconv-O bench $D --json $R/O-def.json > $R/O-def.txt 2>&1; save O-def
timeout 40 python3 bench/torch_reference.py --suite bench/suites/default.json --repeat 5 --launches 10 --also-tf32 --json $R/t-def.json > $R/t-def.txt 2>&1; save t-def
