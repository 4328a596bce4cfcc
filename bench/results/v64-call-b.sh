# v64 call B: R69 and R70 whole. `wgconv-i` (v64 HEAD, R70: Winograd products above 128 input
# channels on the 64 × 64 tiles) over the whole throughput zoo, cuDNN fp32 and TF32 in the same
# call; it and `wgconv-e` (dc98d0e: before R69 and R70) over the models that hold their layers: ResNet-50 b32, YOLOv8n b16, SD 1.5 UNet b8 and SD VAE decoder b4 (Z), and seven
# zoo-extra models (X). Carry [".gl", "bin-v64"].
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig; export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
for b in e i; do xz -dc bin-v64/$b.tar.xz | tar xf - -C /tmp; chmod +x /tmp/wgconv-$b; done
R=/tmp/rb; rm -rf $R; mkdir -p $R; T0=$(date +%s)
save() { echo "step $1 at $(($(date +%s)-T0)) s" >> $R/steps.txt; tar czf $OUT/rb.tgz -C $R . ; }
nvidia-smi --query-gpu=name,driver_version --format=csv > $R/gpu.txt; md5sum /tmp/wgconv-? > $R/md5.txt
S="--repeat 5 --launches 10 --no-reference"
T=bench/suites/zoo-throughput.json; X=bench/suites/zoo-extra.json
MZ=resnet50_b32,yolov8n_b16,sd15_unet_b8,sd_vae_decoder_b4
MX=vgg16_b16,resnet18_b64,unet_gray_b4,alexnet_b64,sam_vit_h_b1,deeplabv3_resnet50_b4,esrgan_x4_b4
timeout 55 /tmp/wgconv-e bench --suite $T --models $MZ $S --json $R/z-e.json > $R/z-e.txt 2>&1; save z-e
timeout 130 /tmp/wgconv-i bench --suite $T $S --json $R/z-i.json > $R/z-i.txt 2>&1; save z-i
timeout 75 python3 bench/torch_reference.py --suite $T --repeat 5 --launches 10 --also-tf32 --json $R/z-t.json > $R/z-t.txt 2>&1; save z-t
timeout 40 /tmp/wgconv-e bench --suite $X --models $MX $S --json $R/x-e.json > $R/x-e.txt 2>&1; save x-e
timeout 40 /tmp/wgconv-i bench --suite $X --models $MX $S --json $R/x-i.json > $R/x-i.txt 2>&1; save x-i
timeout 30 python3 bench/torch_reference.py --suite $X --models $MX --repeat 5 --launches 10 --also-tf32 --json $R/x-t.json > $R/x-t.txt 2>&1; save x-t
cat $R/steps.txt $R/gpu.txt
