for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig; export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
R=/tmp/rb; mkdir -p $R; T0=$(date +%s); B=./bin-ab/wgconv-A
save() { echo "step $1 at $(($(date +%s)-T0)) s" >> $R/steps.txt; tar czf $OUT/rb.tgz -C $R . ; }
S="--repeat 5 --launches 10 --no-reference"
timeout 60 $B bench --suite bench/results/v33-narrow-suite.json $S --json $R/planned.json > $R/planned.txt 2>&1; save p
for k in gemm_small_k32 gemm_small grouped_oc4 pointwise_vec4 pointwise_vec4_split gemm_m64_k16 gemm_m64_k32 gemm_n64_k16 gemm_n64_k32; do
timeout 60 $B bench --suite bench/results/v33-narrow-suite.json $S --kernel $k --json $R/$k.json > $R/$k.txt 2>&1; save $k
done
timeout 60 $B bench --suite bench/results/v33-narrow-suite.json $S --json $R/planned2.json > $R/planned2.txt 2>&1; save p2
timeout 90 python3 bench/torch_reference.py --suite bench/results/v33-narrow-suite.json --repeat 5 --launches 10 --also-tf32 --json $R/torch.json > $R/torch.txt 2>&1; save t
