for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig; export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
mkdir -p /tmp/rd; T0=$(date +%s); N=./bin-ab/wgconv-new
save() { echo "step $1 at $(($(date +%s)-T0)) s" >> /tmp/rd/steps.txt; tar czf $OUT/rd.tgz -C /tmp/rd . ; }
S="--repeat 5 --launches 10 --no-reference"
timeout 30 $N bench --suite bench/results/v30-fit-suite.json $S --json /tmp/rd/planned.json > /tmp/rd/planned.txt 2>&1; save planned
for k in gemm gemm_k16 gemm_m64 gemm_m64_k16 gemm_m64_k32 gemm_n64_k16 gemm_n64_k32; do
timeout 25 $N bench --suite bench/results/v30-fit-suite.json $S --kernel $k --json /tmp/rd/$k.json > /tmp/rd/$k.txt 2>&1; save $k
done
