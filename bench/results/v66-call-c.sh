# v66 call C: the committed skip_taps build (`wgconv-t`, 6959c04: skipping from 30 % of (tile,
# tap) pairs dead) against HEAD before it (`wgconv-h`, ca9c562): the default suite, interleaved
# h, t, t, h (no layer of it skips: the same pipelines' code, checked for "nothing slower");
# ResNet-50 b32 and wav2vec 2.0 b16 (GEMM-heavy; none skips) h, t; `v66-skip-suite.json` on t.
# Carry [".gl", "bin-v66"].
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig; export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
for b in h t; do xz -dc bin-v66/$b.tar.xz | tar xf - -C /tmp; chmod +x /tmp/wgconv-$b; done
R=/tmp/rc; rm -rf $R; mkdir -p $R; T0=$(date +%s)
save() { echo "step $1 at $(($(date +%s)-T0)) s" >> $R/steps.txt; tar czf $OUT/rc.tgz -C $R . ; }
nvidia-smi --query-gpu=name,driver_version --format=csv > $R/gpu.txt; md5sum /tmp/wgconv-? > $R/md5.txt
S="--repeat 5 --launches 10 --no-reference"
D="--suite default"
timeout 40 /tmp/wgconv-h bench $D $S --json $R/dh-1.json > $R/dh-1.txt 2>&1; save dh-1
timeout 40 /tmp/wgconv-t bench $D $S --json $R/dt-1.json > $R/dt-1.txt 2>&1; save dt-1
timeout 25 /tmp/wgconv-t bench $D $S --json $R/dt-2.json > $R/dt-2.txt 2>&1; save dt-2
timeout 25 /tmp/wgconv-h bench $D $S --json $R/dh-2.json > $R/dh-2.txt 2>&1; save dh-2
Z="--suite bench/suites/zoo-throughput.json --models resnet50_b32,wav2vec2_base_b16"
timeout 60 /tmp/wgconv-h bench $Z $S --json $R/zh.json > $R/zh.txt 2>&1; save zh
timeout 60 /tmp/wgconv-t bench $Z $S --json $R/zt.json > $R/zt.txt 2>&1; save zt
timeout 35 /tmp/wgconv-t bench --suite bench/results/v66-skip-suite.json $S --json $R/st.json > $R/st.txt 2>&1; save st
cat $R/steps.txt $R/gpu.txt
