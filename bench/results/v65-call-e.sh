# v65 call E: per model in one call. `wgconv-j` (f311775: the NCHW Winograd output transforms
# stored through workgroup memory), cuDNN fp32 and TF32, and `wgconv-i` (v64's 1d58fbb) over the
# models that hold the Winograd layers: ResNet-50 b32, YOLOv8n b16, SD 1.5 UNet b8, SD VAE
# decoder b4 (throughput zoo) and VGG-16 b16, ResNet-18 b64, UNet (gray) b4, AlexNet b64, SAM
# ViT-H b1, DeepLabv3 b4, ESRGAN ×4 b4 (zoo-extra; `wgconv-i` over the throughput-zoo ones only: device time). Carry [".gl", "bin-v65"].
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig; export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
for b in i j; do xz -dc bin-v65/$b.tar.xz | tar xf - -C /tmp; chmod +x /tmp/wgconv-$b; done
R=/tmp/re; rm -rf $R; mkdir -p $R; T0=$(date +%s)
save() { echo "step $1 at $(($(date +%s)-T0)) s" >> $R/steps.txt; tar czf $OUT/re.tgz -C $R . ; }
nvidia-smi --query-gpu=name,driver_version --format=csv > $R/gpu.txt; md5sum /tmp/wgconv-? > $R/md5.txt
S="--repeat 5 --launches 10 --no-reference"
T=bench/suites/zoo-throughput.json; X=bench/suites/zoo-extra.json
MZ=resnet50_b32,yolov8n_b16,sd15_unet_b8,sd_vae_decoder_b4
MX=vgg16_b16,resnet18_b64,unet_gray_b4,alexnet_b64,sam_vit_h_b1,deeplabv3_resnet50_b4,esrgan_x4_b4
timeout 75 /tmp/wgconv-j bench --suite $T --models $MZ $S --json $R/z-j.json > $R/z-j.txt 2>&1; save z-j
timeout 45 /tmp/wgconv-j bench --suite $X --models $MX $S --json $R/x-j.json > $R/x-j.txt 2>&1; save x-j
timeout 80 python3 bench/torch_reference.py --suite $T --models $MZ --repeat 5 --launches 10 --also-tf32 --json $R/z-t.json > $R/z-t.txt 2>&1; save z-t
timeout 40 python3 bench/torch_reference.py --suite $X --models $MX --repeat 5 --launches 10 --also-tf32 --json $R/x-t.json > $R/x-t.txt 2>&1; save x-t
timeout 75 /tmp/wgconv-i bench --suite $T --models $MZ $S --json $R/z-i.json > $R/z-i.txt 2>&1; save z-i
cat $R/steps.txt $R/gpu.txt
