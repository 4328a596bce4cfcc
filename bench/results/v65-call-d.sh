# v65 call D. (1) The NCHW Winograd input transforms loading their windows' rows through
# workgroup memory (`wgconv-k`) against `wgconv-j` (f311775: the output transforms staged) on the
# 60 layers of `v65-winograd-sample-suite.json`, interleaved j, k, k, j. (2) `wgconv-j` over the
# whole throughput zoo and the seven zoo-extra models of v64 call B (cuDNN's times from v65
# call C and v64 call B). Carry [".gl", "bin-v65"].
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig; export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
for b in j k; do xz -dc bin-v65/$b.tar.xz | tar xf - -C /tmp; chmod +x /tmp/wgconv-$b; done
R=/tmp/rd; rm -rf $R; mkdir -p $R; T0=$(date +%s)
save() { echo "step $1 at $(($(date +%s)-T0)) s" >> $R/steps.txt; tar czf $OUT/rd.tgz -C $R . ; }
nvidia-smi --query-gpu=name,driver_version --format=csv > $R/gpu.txt; md5sum /tmp/wgconv-? > $R/md5.txt
S="--repeat 5 --launches 10 --no-reference"
T=bench/suites/zoo-throughput.json; X=bench/suites/zoo-extra.json
MX=vgg16_b16,resnet18_b64,unet_gray_b4,alexnet_b64,sam_vit_h_b1,deeplabv3_resnet50_b4,esrgan_x4_b4
W="--suite bench/results/v65-winograd-sample-suite.json"
timeout 60 /tmp/wgconv-j bench $W $S --json $R/wj-1.json > $R/wj-1.txt 2>&1; save wj-1
timeout 60 /tmp/wgconv-k bench $W $S --json $R/wk-1.json > $R/wk-1.txt 2>&1; save wk-1
timeout 35 /tmp/wgconv-k bench $W $S --json $R/wk-2.json > $R/wk-2.txt 2>&1; save wk-2
timeout 35 /tmp/wgconv-j bench $W $S --json $R/wj-2.json > $R/wj-2.txt 2>&1; save wj-2
timeout 230 /tmp/wgconv-j bench --suite $T $S --json $R/z-j.json > $R/z-j.txt 2>&1; save z-j
timeout 60 /tmp/wgconv-j bench --suite $X --models $MX $S --json $R/x-j.json > $R/x-j.txt 2>&1; save x-j
cat $R/steps.txt $R/gpu.txt
