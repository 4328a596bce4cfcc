# v53 call E: `conv2d_coop_nhwc_db` — the channels-last tensor-core kernel's 128 × 128 tiles
# pipelined as the roofline's `coop_gemm_db_k16` (two 16-deep buffers, one barrier per K-tile, two
# K-tiles of loads in flight) — checked against the f64 reference (gpu_check.py's coop_nhwc cases)
# and timed against the 64-deep single-buffered tiles (`old`: 803a749's binary), both forced with
# `--kernel coop_nhwc` on f16 channels-last tensors, interleaved twice; cuDNN f16 channels-last in
# the same call.
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig; export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
xz -dc bin-v53/roof.xz > /tmp/wgconv-old; xz -dc bin-v53/db.xz > /tmp/wgconv-db; chmod +x /tmp/wgconv-*
R=/tmp/re; rm -rf $R; mkdir -p $R; T0=$(date +%s)
save() { echo "step $1 at $(($(date +%s)-T0)) s" >> $R/steps.txt; tar czf $OUT/re.tgz -C $R . ; }
nvidia-smi --query-gpu=name,driver_version,clocks.sm --format=csv > $R/gpu.txt
python3 bench/gpu_check.py /tmp/gc | grep "coop_nhwc" > $R/gc-cmds.txt
while read -r line; do echo "== $line" >> $R/gc.txt; timeout 30 /tmp/wgconv-db $line >> $R/gc.txt 2>&1; echo "exit $?" >> $R/gc.txt; done < $R/gc-cmds.txt; save gc
S="--repeat 5 --launches 10 --no-reference --dtype f16 --channels-last --kernel coop_nhwc"
for i in 1 2; do
  for b in old db; do
    for s in default diffusion; do
      timeout 60 /tmp/wgconv-$b bench --suite $s $S --json $R/$s-$b-$i.json > $R/$s-$b-$i.txt 2>&1; save $s-$b-$i
    done
  done
done
for s in default diffusion; do
  timeout 60 python3 bench/torch_reference.py --suite bench/suites/$s.json --repeat 5 --launches 10 --dtype float16 --channels-last --tf32 --json $R/t-$s.json > $R/t-$s.txt 2>&1; save t-$s
done
cat $R/steps.txt $R/gpu.txt; grep -c "exit 0" $R/gc.txt; grep -c "== " $R/gc.txt; grep -i "error\|fail" $R/gc.txt | head
