# v50 call E: `k32` (bench/results/v50-variant-k32.diff on v50: `conv2d_gemm_k16`'s 128-row
# tiles 32 deep, with v50's K-tiles loaded in their own iteration; v41 had measured them at
# 181–191 registers with the loads a tile ahead) against the committed v50, planned,
# interleaved: six models twice, the default suite once.
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig; export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
for b in v50 k32; do xz -dc bin-v50/$b.xz > /tmp/wgconv-$b; done; chmod +x /tmp/wgconv-*
R=/tmp/re; rm -rf $R; mkdir -p $R; T0=$(date +%s)
save() { echo "step $1 at $(($(date +%s)-T0)) s" >> $R/steps.txt; tar czf $OUT/re.tgz -C $R . ; }
nvidia-smi --query-gpu=name,driver_version,clocks.sm --format=csv > $R/gpu.txt
C="--repeat 5 --launches 10 --no-reference"
bench() { timeout 60 /tmp/wgconv-$2 bench --suite $3 $C --json $R/$1-$2-$4.json > $R/$1-$2-$4.txt 2>&1; save $1-$2-$4; }
M=bench/results/v47-models-suite.json; D=bench/suites/default.json
bench m k32 $M 1; bench m v50 $M 1; bench m v50 $M 2; bench m k32 $M 2; bench d k32 $D 1; bench d v50 $D 1
timeout 30 /tmp/wgconv-k32 bench --suite $M --models wav2vec2_base_b16 --pipeline-stats --repeat 3 --launches 5 --no-reference > $R/stats-k32.txt 2>&1
timeout 30 /tmp/wgconv-v50 bench --suite $M --models wav2vec2_base_b16 --pipeline-stats --repeat 3 --launches 5 --no-reference > $R/stats-v50.txt 2>&1; save stats
cat $R/steps.txt
