for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig; export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
R=/tmp/rc; mkdir -p $R; T0=$(date +%s)
save() { echo "step $1 at $(($(date +%s)-T0)) s" >> $R/steps.txt; tar czf $OUT/rc.tgz -C $R . ; }
N="--no-reference"; Z=bench/suites/zoo-throughput.json
for r in 1 2; do
for b in v41 noload noload_nobar frag noload_frag; do B=./bin-ab/wgconv-$b; X=""; [ $r = 1 ] && X="--pipeline-stats"
timeout 60 $B bench --suite bench/suites/large.json --kernel gemm_k16 --repeat 5 $N $X --json $R/L-$b-$r.json > $R/L-$b-$r.txt 2>&1
timeout 60 $B bench --suite $Z --models wav2vec2_base_b16,whisper_base_b16 --kernel gemm_k16 --repeat 5 $N $X --json $R/W-$b-$r.json > $R/W-$b-$r.txt 2>&1; save $b-$r
done
for b in v41 frag; do B=./bin-ab/wgconv-$b
timeout 120 $B bench --suite $Z --models resnet50_b32,wav2vec2_base_b16,whisper_base_b16,yolov8n_b16,pix2pix_generator_b16 $N --json $R/Z-$b-$r.json > $R/Z-$b-$r.txt 2>&1; save Z-$b-$r
done; done
