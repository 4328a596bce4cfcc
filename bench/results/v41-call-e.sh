for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig; export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
R=/tmp/re; mkdir -p $R; T0=$(date +%s); B=./bin-ab/wgconv-v41
save() { echo "step $1 at $(($(date +%s)-T0)) s" >> $R/steps.txt; tar czf $OUT/re.tgz -C $R . ; }
M="--suite bench/suites/zoo-throughput.json --models pix2pix_generator_b16,wav2vec2_base_b16"
timeout 60 $B bench $M --repeat 5 --launches 10 --no-reference --json $R/p.json > $R/p.txt 2>&1; save p
timeout 60 python3 bench/torch_reference.py $M --repeat 5 --launches 10 --also-tf32 --json $R/t-p.json > $R/t-p.txt 2>&1; save t-p
