# v46 call K (an H200 wanted): the committed phase blocks (`wgconv-v46d`, 874c1d6) against
# 2151b89 (`wgconv-head`), interleaved twice, on the zoo's four transposed RGB outputs; cuDNN fp32.
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig; export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
xz -dc bin-v45/head.xz > /tmp/wgconv-head; xz -dc bin-v46/v46d.xz > /tmp/wgconv-v46d; chmod +x /tmp/wgconv-*
R=/tmp/rk; mkdir -p $R; save() { tar czf $OUT/rk.tgz -C $R . ; }
nvidia-smi --query-gpu=name,driver_version,clocks.sm --format=csv > $R/gpu.txt
S=bench/results/v46-zoo-rgb-suite.json; C="--repeat 5 --launches 10 --no-reference"
for r in 1 2; do for b in head v46d; do timeout 20 /tmp/wgconv-$b bench --suite $S $C --json $R/z-$b-$r.json > $R/z-$b-$r.txt 2>&1; save; done; done
timeout 40 python3 bench/torch_reference.py --suite $S --rounds 2 --repeat 5 --launches 10 --also-tf32 --json $R/t-z.json > $R/t-z.txt 2>&1; save
