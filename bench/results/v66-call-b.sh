# v66 call B: `skip_taps` (the staged GEMM tiles skip the K-tiles of filter taps that read only
# padding for all of a tile's columns; `wgconv-s`, the working tree after commit ca9c562 with the
# change) against HEAD (`wgconv-h`, ca9c562) on `v66-skip-suite.json` (DeepLabv3/v3+ ASPP at
# three map sizes, a dilated 1D TCN stack): planned, interleaved h, s, s, h; forced
# gemm_n64_k16 on both (where the planner gives Winograd); cuDNN fp32 and
# TF32 in the same call; DeepLabv3-ResNet-50 b4 whole (zoo-extra) on both. Carry [".gl", "bin-v66"].
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig; export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
for b in h s; do xz -dc bin-v66/$b.tar.xz | tar xf - -C /tmp; chmod +x /tmp/wgconv-$b; done
R=/tmp/rb; rm -rf $R; mkdir -p $R; T0=$(date +%s)
save() { echo "step $1 at $(($(date +%s)-T0)) s" >> $R/steps.txt; tar czf $OUT/rb.tgz -C $R . ; }
nvidia-smi --query-gpu=name,driver_version --format=csv > $R/gpu.txt; md5sum /tmp/wgconv-? > $R/md5.txt
S="--repeat 5 --launches 10 --no-reference"
W="--suite bench/results/v66-skip-suite.json"
timeout 60 /tmp/wgconv-h bench $W $S --json $R/h-1.json > $R/h-1.txt 2>&1; save h-1
timeout 60 /tmp/wgconv-s bench $W $S --json $R/s-1.json > $R/s-1.txt 2>&1; save s-1
timeout 35 /tmp/wgconv-s bench $W $S --json $R/s-2.json > $R/s-2.txt 2>&1; save s-2
timeout 35 /tmp/wgconv-h bench $W $S --json $R/h-2.json > $R/h-2.txt 2>&1; save h-2
timeout 50 /tmp/wgconv-h bench $W $S --kernel gemm_n64_k16 --json $R/hn.json > $R/hn.txt 2>&1; save hn
timeout 50 /tmp/wgconv-s bench $W $S --kernel gemm_n64_k16 --json $R/sn.json > $R/sn.txt 2>&1; save sn
timeout 60 python3 bench/torch_reference.py $W --repeat 5 --launches 10 --also-tf32 --json $R/t.json > $R/t.txt 2>&1; save t
X="--suite bench/suites/zoo-extra.json --models deeplabv3_resnet50_b4"
timeout 45 /tmp/wgconv-s bench $X $S --json $R/ds.json > $R/ds.txt 2>&1; save ds
timeout 35 /tmp/wgconv-h bench $X $S --json $R/dh.json > $R/dh.txt 2>&1; save dh
cat $R/steps.txt $R/gpu.txt
