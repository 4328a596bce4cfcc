# v47 call E: v47b (channel-major where a transposed filter's every stride phase has one tap)
# against v47 and v46d, interleaved twice, on the default suite.
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig; export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
xz -dc bin-v46/v46d.xz > /tmp/wgconv-v46d; for b in v47 v47b; do xz -dc bin-v47/$b.xz > /tmp/wgconv-$b; done; chmod +x /tmp/wgconv-*
R=/tmp/re; mkdir -p $R; T0=$(date +%s)
save() { echo "step $1 at $(($(date +%s)-T0)) s" >> $R/steps.txt; tar czf $OUT/re.tgz -C $R . ; }
C="--repeat 5 --launches 10 --no-reference"
for r in 1 2; do for b in v46d v47 v47b; do timeout 40 /tmp/wgconv-$b bench --suite bench/suites/default.json $C --json $R/d-$b-$r.json > $R/d-$b-$r.txt 2>&1; save d-$b-$r; done; done
