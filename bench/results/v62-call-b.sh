# v62 call B: R67 (F(6×6, 3×3)) and R68 (F(4×4, 5×5)) planned (`wgconv-b`), zoo-extra and the
# throughput zoo scored whole, cuDNN fp32 and TF32 in the same call; the models whose layers
# changed re-run on v61's planner (`wgconv-a`, b2b59dc) for a like-with-like before/after.
# Carry [".gl", "bin-v62"]. Each step is saved as it ends.
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig; export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
for b in a b; do xz -dc bin-v62/$b.tar.xz | tar xf - -C /tmp; chmod +x /tmp/wgconv-$b; done
R=/tmp/rc; rm -rf $R; mkdir -p $R; T0=$(date +%s)
save() { echo "step $1 at $(($(date +%s)-T0)) s" >> $R/steps.txt; tar czf $OUT/rc.tgz -C $R . ; }
nvidia-smi --query-gpu=name,driver_version --format=csv > $R/gpu.txt; md5sum /tmp/wgconv-? > $R/md5.txt
S="--repeat 5 --launches 10 --no-reference"
Z=bench/suites/zoo-extra.json
MX=alexnet_b64,inception_v3_b32,deeplabv3_resnet50_b4,unet_gray_b4,raft_b8,mask_rcnn_fpn_b2
timeout 60 /tmp/wgconv-a bench --suite $Z --models $MX $S --json $R/xa.json > $R/xa.txt 2>&1; save xa
timeout 200 /tmp/wgconv-b bench --suite $Z $S --json $R/x.json > $R/x.txt 2>&1; save x
timeout 120 python3 bench/torch_reference.py --suite $Z --repeat 5 --launches 10 --also-tf32 --json $R/xt.json > $R/xt.txt 2>&1; save xt
T=bench/suites/zoo-throughput.json
MT=sd_vae_decoder_b4,sd15_unet_b8
timeout 60 /tmp/wgconv-a bench --suite $T --models $MT $S --json $R/za.json > $R/za.txt 2>&1; save za
timeout 200 /tmp/wgconv-b bench --suite $T $S --json $R/z.json > $R/z.txt 2>&1; save z
timeout 120 python3 bench/torch_reference.py --suite $T --repeat 5 --launches 10 --also-tf32 --json $R/zt.json > $R/zt.txt 2>&1; save zt
cat $R/steps.txt $R/gpu.txt
