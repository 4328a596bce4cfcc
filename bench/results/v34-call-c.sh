for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig; export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
R=/tmp/rc; mkdir -p $R; T0=$(date +%s)
save() { echo "step $1 at $(($(date +%s)-T0)) s" >> $R/steps.txt; tar czf $OUT/rc.tgz -C $R . ; }
M1=sd_vae_decoder,sd15_unet; M2=sd_vae_decoder_b4,sd15_unet_b8,resnet50_b32,yolov8n_b16
S1="--suite bench/suites/zoo.json --models $M1 --repeat 5 --launches 10 --no-reference --precision f16"
S2="--suite bench/suites/zoo-throughput.json --models $M2 --repeat 5 --launches 10 --no-reference --precision f16"
for b in G D; do timeout 60 ./bin-ab/wgconv-$b bench $S1 --json $R/$b-z1.json > $R/$b-z1.txt 2>&1; save $b-z1; done
timeout 90 python3 bench/torch_reference.py --suite bench/suites/zoo.json --models $M1 --repeat 5 --launches 10 --also-tf32 --json $R/t-z1.json > $R/t-z1.txt 2>&1; save t-z1
for b in G D; do timeout 100 ./bin-ab/wgconv-$b bench $S2 --json $R/$b-z2.json > $R/$b-z2.txt 2>&1; save $b-z2; done
timeout 150 python3 bench/torch_reference.py --suite bench/suites/zoo-throughput.json --models $M2 --repeat 5 --launches 10 --also-tf32 --json $R/t-z2.json > $R/t-z2.txt 2>&1; save t-z2
