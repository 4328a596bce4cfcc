for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig; export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
R=/tmp/re; mkdir -p $R; T0=$(date +%s); N=./bin-ab/wgconv-e
save() { echo "step $1 at $(($(date +%s)-T0)) s" >> $R/steps.txt; tar czf $OUT/re.tgz -C $R . ; }
S="--repeat 5 --launches 10 --no-reference"; P="--repeat 5 --launches 10 --also-tf32"
timeout 40 $N bench --suite bin-ab/fitA.json $S --json $R/fitA-planned.json > $R/fitA-planned.txt 2>&1; save a1
timeout 40 $N bench --suite bin-ab/fitA.json $S --kernel gemm_k16 --json $R/fitA-gemm_k16.json > $R/fitA-gemm_k16.txt 2>&1; save a2
timeout 40 $N bench --suite bin-ab/fitB.json $S --json $R/fitB-planned.json > $R/fitB-planned.txt 2>&1; save b1
timeout 40 $N bench --suite bin-ab/fitB.json $S --kernel gemm_n64_k32 --json $R/fitB-gemm_n64_k32.json > $R/fitB-gemm_n64_k32.txt 2>&1; save b2
M4=whisper_base,wav2vec2_base,dcgan_generator,pix2pix_generator
timeout 40 $N bench --suite zoo --models $M4 $S --json $R/zoo4.json > $R/zoo4.txt 2>&1; save z4
timeout 150 $N bench --suite zoo --models mobilenet_v2,mobilenet_v3_large,efficientnet_b0 $S --parallel 8 --json $R/small-par.json > $R/small-par.txt 2>&1; save sp
timeout 60 python3 bench/torch_reference.py --suite bin-ab/fitA.json $P --json $R/torch-fitA.json > $R/torch-fitA.txt 2>&1; save ta
timeout 60 python3 bench/torch_reference.py --suite bin-ab/fitB.json $P --json $R/torch-fitB.json > $R/torch-fitB.txt 2>&1; save tb
timeout 60 python3 bench/torch_reference.py --suite bench/suites/zoo.json --models $M4 $P --json $R/torch-zoo4.json > $R/torch-zoo4.txt 2>&1; save t4
