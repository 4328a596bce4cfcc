for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig; export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
mkdir -p /tmp/ri; T0=$(date +%s); N=./bin-ab/wgconv-i
save() { echo "step $1 at $(($(date +%s)-T0)) s" >> /tmp/ri/steps.txt; tar czf $OUT/ri.tgz -C /tmp/ri . ; }
S="--repeat 5 --launches 10 --no-reference"; P="--repeat 5 --launches 10 --also-tf32"
M=sd_vae_decoder,sd15_unet; MT=sd_vae_decoder_b4,sd15_unet_b8,resnet50_b32,yolov8n_b16
timeout 90 $N bench --suite zoo --models $M $S --json /tmp/ri/zoo-gen.json > /tmp/ri/zoo-gen.txt 2>&1; save z
timeout 90 python3 bench/torch_reference.py --suite bench/suites/zoo.json --models $M $P --json /tmp/ri/torch-zoo-gen.json > /tmp/ri/torch-zoo-gen.txt 2>&1; save tz
timeout 60 $N bench --suite default $S --json /tmp/ri/default.json > /tmp/ri/default.txt 2>&1; save d
timeout 60 python3 bench/torch_reference.py --suite bench/suites/default.json $P --json /tmp/ri/torch-default.json > /tmp/ri/torch-default.txt 2>&1; save td
timeout 60 $N bench --suite diffusion $S --json /tmp/ri/diffusion.json > /tmp/ri/diffusion.txt 2>&1; save f
timeout 60 python3 bench/torch_reference.py --suite bench/suites/diffusion.json $P --json /tmp/ri/torch-diffusion.json > /tmp/ri/torch-diffusion.txt 2>&1; save tf
timeout 150 $N bench --suite zoo-throughput --models $MT $S --json /tmp/ri/tp.json > /tmp/ri/tp.txt 2>&1; save p
timeout 150 python3 bench/torch_reference.py --suite bench/suites/zoo-throughput.json --models $MT $P --json /tmp/ri/torch-tp.json > /tmp/ri/torch-tp.txt 2>&1; save tp
