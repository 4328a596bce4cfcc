for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig; export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
R=/tmp/re; mkdir -p $R; T0=$(date +%s)
save() { echo "step $1 at $(($(date +%s)-T0)) s" >> $R/steps.txt; tar czf $OUT/re.tgz -C $R . ; }
F="--repeat 5 --launches 10 --no-reference"
S=bench/suites/depthwise-zoo.json
for r in 1 2; do
timeout 40 ./bin-ab/wgconv-C bench --suite $S $F --dtype f16 --json $R/dw-p-$r.json > $R/dw-p-$r.txt 2>&1; save dw-p-$r
for v in 1 2 4; do export WGCONV_VEC8_ROWS=$v
timeout 40 ./bin-ab/wgconv-E bench --suite $S $F --dtype f16 --json $R/dw-r$v-$r.json > $R/dw-r$v-$r.txt 2>&1; save dw-r$v-$r
done; unset WGCONV_VEC8_ROWS; done
S=bench/suites/fused-shapes.json
for r in 1 2; do
timeout 60 ./bin-ab/wgconv-C bench --suite $S $F --precision f16 --channels-last --json $R/cl-p-$r.json > $R/cl-p-$r.txt 2>&1; save cl-p-$r
timeout 60 ./bin-ab/wgconv-C bench --suite $S $F --precision f16 --channels-last --kernel winograd_fused --json $R/cl-f-$r.json > $R/cl-f-$r.txt 2>&1; save cl-f-$r
done
