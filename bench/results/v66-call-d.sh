# v66 call D: what the NVIDIA driver compiles the skipping GEMM pipelines to (registers per
# thread, `--pipeline-stats`), against the same kernels where the layer does not skip:
# `wgconv-t` (the committed build) on `v66-skip-suite.json` with gemm_n64_k16 and gemm_k16
# forced. Carry [".gl", "bin-v66"].
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig; export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
xz -dc bin-v66/t.tar.xz | tar xf - -C /tmp; chmod +x /tmp/wgconv-t
W="--suite bench/results/v66-skip-suite.json --repeat 2 --launches 2 --no-reference --pipeline-stats"
timeout 100 /tmp/wgconv-t bench $W --kernel gemm_n64_k16 > $OUT/stats-n64.txt 2>&1
timeout 80 /tmp/wgconv-t bench $W --kernel gemm_k16 > $OUT/stats-k16.txt 2>&1
tail -3 $OUT/stats-n64.txt
