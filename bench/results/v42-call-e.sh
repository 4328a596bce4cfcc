for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig; export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
tar xJf bin-ab/bins.tar.xz -C bin-ab
R=/tmp/re; mkdir -p $R; T0=$(date +%s)
save() { echo "step $1 at $(($(date +%s)-T0)) s" >> $R/steps.txt; tar czf $OUT/re.tgz -C $R . ; }
python3 bench/gpu_check.py /tmp/gc > $R/gc-all.txt; grep -E "/(gemm|forced_gemm|winograd_ragged|winograd_unpadded|winograd_long|winograd_k_slices|winograd_large)[a-z0-9_]*_x.npy" $R/gc-all.txt > $R/gc-cmds.txt
while read -r c; do echo "== $c" >> $R/gc.txt; timeout 30 ./bin-ab/wgconv-offfrag $c >> $R/gc.txt 2>&1; echo "rc $?" >> $R/gc.txt; done < $R/gc-cmds.txt; save gc
N="--no-reference"; Z=bench/suites/zoo-throughput.json
for r in 1 2; do
for b in v41 off offfrag frag; do B=./bin-ab/wgconv-$b
timeout 60 $B bench --suite bench/suites/large.json --kernel gemm_k16 --repeat 5 $N --json $R/L-$b-$r.json > $R/L-$b-$r.txt 2>&1
timeout 60 $B bench --suite $Z --models wav2vec2_base_b16,whisper_base_b16 --kernel gemm_k16 --repeat 5 $N --json $R/W-$b-$r.json > $R/W-$b-$r.txt 2>&1; save $b-$r
done
for b in v41 off offfrag; do B=./bin-ab/wgconv-$b
timeout 100 $B bench --suite $Z --models resnet50_b32,wav2vec2_base_b16,whisper_base_b16,pix2pix_generator_b16 $N --json $R/Z-$b-$r.json > $R/Z-$b-$r.txt 2>&1; save Z-$b-$r
done; done
