# v63 call E (prepared, not run): R69 as a build of its own. `wgconv-g` (9d632e5 or later: R69)
# against `wgconv-e` (dc98d0e: every product's K-tile loads ahead) on the 180 Winograd layers
# (`v63-winograd-suite.json`), interleaved e, g, g, e, each run under its own timeout (call D's
# first run needed more than 100 s); then both over the throughput-zoo and zoo-extra models that hold
# R69's layers (ResNet-50 b32, YOLOv8n b16; AlexNet b64, UNet-gray b4, RAFT b8, VGG-16 b16),
# cuDNN fp32 in the same call. Carry [".gl", "bin-v63"].
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig; export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
for b in e g; do xz -dc bin-v63/$b.tar.xz | tar xf - -C /tmp; chmod +x /tmp/wgconv-$b; done
R=/tmp/re; rm -rf $R; mkdir -p $R; T0=$(date +%s)
save() { echo "step $1 at $(($(date +%s)-T0)) s" >> $R/steps.txt; tar czf $OUT/re.tgz -C $R . ; }
nvidia-smi --query-gpu=name,driver_version --format=csv > $R/gpu.txt; md5sum /tmp/wgconv-? > $R/md5.txt
S="--repeat 5 --launches 10 --no-reference"; W="--suite bench/results/v63-winograd-suite.json"
for r in e-1 g-1 g-2 e-2; do
  timeout 130 /tmp/wgconv-${r%-*} bench $W $S --json $R/$r.json > $R/$r.txt 2>&1; save $r
done
Z="--suite bench/suites/zoo-throughput.json --models resnet50_b32,yolov8n_b16"
X="--suite bench/suites/zoo-extra.json --models alexnet_b64,unet_gray_b4,raft_b8,vgg16_b16"
for m in Z X; do
  for b in e g; do timeout 90 /tmp/wgconv-$b bench ${!m} $S --json $R/$m-$b.json > $R/$m-$b.txt 2>&1; save $m-$b; done
  timeout 90 python3 bench/torch_reference.py ${!m} --repeat 5 --launches 10 --json $R/$m-t.json > $R/$m-t.txt 2>&1; save $m-t
done
cat $R/steps.txt $R/gpu.txt
