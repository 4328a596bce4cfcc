for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig; export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
mkdir -p /tmp/rb; T0=$(date +%s); N=./bin-ab/wgconv-new
save() { echo "step $1 at $(($(date +%s)-T0)) s" >> /tmp/rb/steps.txt; tar czf $OUT/rb.tgz -C /tmp/rb . ; }
S="--repeat 5 --launches 10 --no-reference"; P="--repeat 5 --launches 10 --also-tf32"
python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl > /tmp/rb/pip.txt 2>&1 &
M1=resnet50,mobilenet_v2,mobilenet_v3_large,efficientnet_b0,convnext_tiny,regnet_y_1_6gf,yolov8n
M2=sd_vae_decoder,sd15_unet,davit_florence2,whisper_base,wav2vec2_base,dcgan_generator,pix2pix_generator
timeout 170 $N bench --suite zoo --models $M1 $S --parallel 8 --json /tmp/rb/zoo-1.json > /tmp/rb/zoo-1.txt 2>&1; save z1
timeout 130 $N bench --suite zoo --models $M2 $S --parallel 8 --json /tmp/rb/zoo-2.json > /tmp/rb/zoo-2.txt 2>&1; save z2
timeout 150 python3 bench/torch_reference.py --suite bench/suites/zoo.json $P --json /tmp/rb/torch-zoo.json > /tmp/rb/torch-zoo.txt 2>&1; save tz
wait
PYTHONPATH=/tmp/site timeout 140 python3 bench/ort_webgpu_reference.py --suite bench/results/v30-zoo-rest-suite.json --k 8 --limit-s 110 --json /tmp/rb/ort-zoo-rest.json > /tmp/rb/ort-zoo-rest.txt 2>&1; save ort
