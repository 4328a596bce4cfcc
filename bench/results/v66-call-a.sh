# Prepared in v65, not run: (1) F(2×2, 3×3)'s NCHW output transform staged through workgroup
# memory like the F(4×4)-family's (`wgconv-l`: HEAD with `v65-f2x2-staged.diff`; tested on
# lavapipe) against HEAD (`wgconv-h`) on the 18 layers the planner gives `winograd`
# (`v66-f2x2-suite.json`), interleaved h, l, l, h; (2) v65's call E: HEAD's per-model times with
# cuDNN fp32 and TF32 in the same call, on the models that hold the Winograd layers. Each
# binary's first run on a fresh machine compiles its pipelines (2.2–2.5× slower): hence the
# first runs' longer timeouts. Carry [".gl", "bin-v66"].
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig; export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
for b in h l; do xz -dc bin-v66/$b.tar.xz | tar xf - -C /tmp; chmod +x /tmp/wgconv-$b; done
R=/tmp/ra; rm -rf $R; mkdir -p $R; T0=$(date +%s)
save() { echo "step $1 at $(($(date +%s)-T0)) s" >> $R/steps.txt; tar czf $OUT/ra.tgz -C $R . ; }
nvidia-smi --query-gpu=name,driver_version --format=csv > $R/gpu.txt; md5sum /tmp/wgconv-? > $R/md5.txt
S="--repeat 5 --launches 10 --no-reference"
W="--suite bench/results/v66-f2x2-suite.json"
timeout 40 /tmp/wgconv-h bench $W $S --json $R/wh-1.json > $R/wh-1.txt 2>&1; save wh-1
timeout 40 /tmp/wgconv-l bench $W $S --json $R/wl-1.json > $R/wl-1.txt 2>&1; save wl-1
timeout 25 /tmp/wgconv-l bench $W $S --json $R/wl-2.json > $R/wl-2.txt 2>&1; save wl-2
timeout 25 /tmp/wgconv-h bench $W $S --json $R/wh-2.json > $R/wh-2.txt 2>&1; save wh-2
T=bench/suites/zoo-throughput.json; X=bench/suites/zoo-extra.json
MZ=resnet50_b32,yolov8n_b16,sd15_unet_b8,sd_vae_decoder_b4
MX=vgg16_b16,resnet18_b64,unet_gray_b4,alexnet_b64,sam_vit_h_b1,deeplabv3_resnet50_b4,esrgan_x4_b4
timeout 90 /tmp/wgconv-h bench --suite $T --models $MZ $S --json $R/z-h.json > $R/z-h.txt 2>&1; save z-h
timeout 60 /tmp/wgconv-h bench --suite $X --models $MX $S --json $R/x-h.json > $R/x-h.txt 2>&1; save x-h
timeout 90 python3 bench/torch_reference.py --suite $T --models $MZ --repeat 5 --launches 10 --also-tf32 --json $R/z-t.json > $R/z-t.txt 2>&1; save z-t
timeout 50 python3 bench/torch_reference.py --suite $X --models $MX --repeat 5 --launches 10 --also-tf32 --json $R/x-t.json > $R/x-t.txt 2>&1; save x-t
cat $R/steps.txt $R/gpu.txt
