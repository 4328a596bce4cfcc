# v60 call F: the committed v60 planner (R61 on dilated layers, R64 capped at K 256, the split's
# masked loads from the chunk's first channel) on zoo-extra's DeepLabv3-ResNet-50 b4 and Mask
# R-CNN FPN b2 whole, 2 rounds, cuDNN fp32 and TF32 in the same call; device checks of the split,
# the streams planned and the dilated F(4×4). Carry [".gl", "bin-v60"].
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig; export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
xz -dc bin-v60/f.tar.xz | tar xf - -C /tmp; chmod +x /tmp/wgconv-f
R=/tmp/rf; rm -rf $R; mkdir -p $R; T0=$(date +%s)
save() { echo "step $1 at $(($(date +%s)-T0)) s" >> $R/steps.txt; tar czf $OUT/rf.tgz -C $R . ; }
nvidia-smi --query-gpu=name,driver_version --format=csv > $R/gpu.txt; md5sum /tmp/wgconv-f > $R/md5.txt
python3 bench/gpu_check.py /tmp/gc | grep -E "pointwise_vec4_split|few_oc_planned|dilated|1d_column" > /tmp/gc.cmds
while read -r line; do echo "== $line" | sed 's/--input.*--bias [^ ]* //' >> $R/gc.txt
  timeout 40 /tmp/wgconv-f $line 2>&1 | grep -i "error\|relative\|kernel:" >> $R/gc.txt; done < /tmp/gc.cmds; save gc
Z="--suite bench/suites/zoo-extra.json --models deeplabv3_resnet50_b4,mask_rcnn_fpn_b2"
timeout 150 /tmp/wgconv-f bench $Z --repeat 5 --launches 10 --no-reference --rounds 2 --json $R/m.json > $R/m.txt 2>&1; save m
timeout 150 python3 bench/torch_reference.py $Z --repeat 5 --launches 10 --rounds 2 --also-tf32 --json $R/mt.json > $R/mt.txt 2>&1; save mt
cat $R/steps.txt $R/gpu.txt $R/gc.txt
