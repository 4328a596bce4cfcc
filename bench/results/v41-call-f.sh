for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig; export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
R=/tmp/rf; mkdir -p $R; T0=$(date +%s)
save() { echo "step $1 at $(($(date +%s)-T0)) s" >> $R/steps.txt; tar czf $OUT/rf.tgz -C $R . ; }
F="--repeat 5 --launches 10 --no-reference --kernel gemm_k16"
for r in 1 2; do for b in v41 noload; do B=./bin-ab/wgconv-$b; X=""; [ $r = 1 ] && X="--pipeline-stats"
timeout 40 $B bench --suite bench/suites/zoo.json --models wav2vec2_base,whisper_base $F $X --json $R/$b-w-$r.json > $R/$b-w-$r.txt 2>&1; save $b-w-$r
timeout 30 $B bench --suite bench/suites/large.json $F $X --json $R/$b-L-$r.json > $R/$b-L-$r.txt 2>&1; save $b-L-$r
done; done
