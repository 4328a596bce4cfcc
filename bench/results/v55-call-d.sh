# v55 call D: four models whole on the committed planner (`r2`: R60 and `direct_tiled`), cuDNN
# fp32 and TF32 in the same call: ESRGAN at batch 4 and 1 and DenseNet-121 at batch 32
# (zoo-extra), YOLOv8n at batch 16 (the throughput zoo).
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig; export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
xz -dc bin-v55/c.tar.xz | tar xf - -C /tmp; chmod +x /tmp/wgconv-*
R=/tmp/rd; rm -rf $R; mkdir -p $R; T0=$(date +%s)
save() { echo "step $1 at $(($(date +%s)-T0)) s" >> $R/steps.txt; tar czf $OUT/rd.tgz -C $R . ; }
nvidia-smi --query-gpu=name,driver_version,clocks.sm --format=csv > $R/gpu.txt
S="--repeat 5 --launches 10 --no-reference"; X=bench/suites/zoo-extra.json; Z=bench/suites/zoo-throughput.json
timeout 80 /tmp/wgconv-r2 bench --suite $X $S --models esrgan_x4_b4,esrgan_x4_b1,densenet121_b32 --json $R/x.json > $R/x.txt 2>&1; save x
timeout 40 /tmp/wgconv-r2 bench --suite $Z $S --models yolov8n_b16 --json $R/y.json > $R/y.txt 2>&1; save y
timeout 80 python3 bench/torch_reference.py --suite $X --models esrgan_x4_b4,esrgan_x4_b1,densenet121_b32 --repeat 5 --launches 10 --also-tf32 --json $R/tx.json > $R/tx.txt 2>&1; save tx
timeout 40 python3 bench/torch_reference.py --suite $Z --models yolov8n_b16 --repeat 5 --launches 10 --also-tf32 --json $R/ty.json > $R/ty.txt 2>&1; save ty
cat $R/steps.txt $R/gpu.txt; grep -h "^model" $R/x.txt $R/y.txt; grep -h -A8 "| model" $R/tx.txt $R/ty.txt
