# v65 call F (what device time call E's failed start-up left): `wgconv-j` (f311775) and cuDNN
# fp32 and TF32 in one call over the throughput-zoo models that hold the Winograd layers:
# ResNet-50 b32, YOLOv8n b16, SD 1.5 UNet b8, SD VAE decoder b4. Carry [".gl", "bin-v65"].
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig; export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
xz -dc bin-v65/j.tar.xz | tar xf - -C /tmp; chmod +x /tmp/wgconv-j
R=/tmp/rf; rm -rf $R; mkdir -p $R; T0=$(date +%s)
save() { echo "step $1 at $(($(date +%s)-T0)) s" >> $R/steps.txt; tar czf $OUT/rf.tgz -C $R . ; }
nvidia-smi --query-gpu=name,driver_version --format=csv > $R/gpu.txt; md5sum /tmp/wgconv-? > $R/md5.txt
S="--repeat 5 --launches 10 --no-reference"
T=bench/suites/zoo-throughput.json; MZ=resnet50_b32,yolov8n_b16,sd15_unet_b8,sd_vae_decoder_b4
timeout 70 /tmp/wgconv-j bench --suite $T --models $MZ $S --json $R/z-j.json > $R/z-j.txt 2>&1; save z-j
timeout 75 python3 bench/torch_reference.py --suite $T --models $MZ --repeat 5 --launches 10 --also-tf32 --json $R/z-t.json > $R/z-t.txt 2>&1; save z-t
cat $R/steps.txt $R/gpu.txt
