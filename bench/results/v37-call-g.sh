for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig; export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
R=/tmp/rg; mkdir -p $R; T0=$(date +%s)
save() { echo "step $1 at $(($(date +%s)-T0)) s" >> $R/steps.txt; tar czf $OUT/rg.tgz -C $R . ; }
export WGCONV_MAX_BINDING_BYTES=134217728
B="--suite bench/results/v37-banded-suite.json --repeat 3 --launches 5 --no-reference"
timeout 100 ./bin-ab/wgconv-T bench $B --json $R/T-cap-f32.json > $R/T-cap-f32.txt 2>&1; save T-cap-f32
for k in gemm_n64_k16 gemm_n64_k32; do timeout 100 ./bin-ab/wgconv-T bench $B --kernel $k --json $R/T-cap-$k.json > $R/T-cap-$k.txt 2>&1; save T-cap-$k; done
