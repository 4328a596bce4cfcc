for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig; export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
R=/tmp/rc; mkdir -p $R; T0=$(date +%s); B=./bin-ab/wgconv-A
save() { echo "step $1 at $(($(date +%s)-T0)) s" >> $R/steps.txt; tar czf $OUT/rc.tgz -C $R . ; }
S="--repeat 5 --launches 10 --no-reference"
for k in planned gemm_small_k32 gemm_n64_k16 gemm_small planned2; do
F=""; case $k in planned*) ;; *) F="--kernel $k";; esac
timeout 60 $B bench --suite bench/results/v33-narrow-long-suite.json $S $F --json $R/nl-$k.json > $R/nl-$k.txt 2>&1; save nl-$k
done
timeout 60 python3 bench/torch_reference.py --suite bench/results/v33-narrow-long-suite.json --repeat 5 --launches 10 --also-tf32 --json $R/nl-torch.json > $R/nl-torch.txt 2>&1; save nlt
for k in planned gemm_n64_k16 gemm_n64_k32 gemm_m64_k16 planned2; do
F=""; case $k in planned*) ;; *) F="--kernel $k";; esac
timeout 80 $B bench --suite bench/results/v33-pointwise-tiles-suite.json $S $F --json $R/pt-$k.json > $R/pt-$k.txt 2>&1; save pt-$k
done
timeout 80 python3 bench/torch_reference.py --suite bench/results/v33-pointwise-tiles-suite.json --repeat 5 --launches 10 --also-tf32 --json $R/pt-torch.json > $R/pt-torch.txt 2>&1; save ptt
