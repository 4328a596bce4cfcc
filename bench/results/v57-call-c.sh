# v57 call C: R61 planned (`wgconv-c`: the bench prepares each layer's `Conv2d` for its input,
# `Conv2d::new_for_input`, which keeps F(4×4, 3×3)'s transformed weight where R61 plans it)
# against the v56 build's planner (`wgconv-b`), interleaved, on the 146 layers of
# `v56-w4-suite.json`; `md5.txt` names the binaries that ran.
# Carry [".gl", "bin-v56/b.tar.xz", "bin-v57"] (the whole of bin-v56 takes the working tree over the 64 MiB a call carries).
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig; export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
xz -dc bin-v56/b.tar.xz | tar xf - -C /tmp; xz -dc bin-v57/c.tar.xz | tar xf - -C /tmp; chmod +x /tmp/wgconv-*
R=/tmp/rc; rm -rf $R; mkdir -p $R; T0=$(date +%s)
save() { echo "step $1 at $(($(date +%s)-T0)) s" >> $R/steps.txt; tar czf $OUT/rc.tgz -C $R . ; }
nvidia-smi --query-gpu=name,driver_version --format=csv > $R/gpu.txt; md5sum /tmp/wgconv-* > $R/md5.txt
E=bench/results/v56-w4-suite.json; S="--repeat 5 --launches 10 --no-reference"
timeout 110 /tmp/wgconv-c bench --suite $E $S --json $R/c-1.json > $R/c-1.txt 2>&1; save c-1
timeout 110 /tmp/wgconv-b bench --suite $E $S --json $R/b-1.json > $R/b-1.txt 2>&1; save b-1
timeout 110 /tmp/wgconv-c bench --suite $E $S --json $R/c-2.json > $R/c-2.txt 2>&1; save c-2
cat $R/steps.txt $R/gpu.txt
