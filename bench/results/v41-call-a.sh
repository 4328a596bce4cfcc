for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig; export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
R=/tmp/ra; mkdir -p $R; T0=$(date +%s); N=./bin-ab/wgconv-new
save() { echo "step $1 at $(($(date +%s)-T0)) s" >> $R/steps.txt; tar czf $OUT/ra.tgz -C $R . ; }
python3 bench/gpu_check.py /tmp/gc | grep -E "few_oc" > $R/gc-cmds.txt
while read -r c; do echo "== $c" >> $R/gc.txt; timeout 30 $N $c >> $R/gc.txt 2>&1; echo "rc $?" >> $R/gc.txt; done < $R/gc-cmds.txt; save gc
Q="--repeat 1 --launches 1 --no-reference --pipeline-stats"
timeout 150 $N bench --suite bench/suites/zoo.json --models resnet50,wav2vec2_base,sd_vae_decoder,pix2pix_generator,yolov8n $Q --json $R/st-zoo.json > $R/st-zoo.txt 2>&1; save st-zoo
timeout 60 $N bench --suite default $Q --precision f16 --json $R/st-def16.json > $R/st-def16.txt 2>&1; save st-def16
F="--repeat 5 --launches 10 --no-reference"
for k in gemm gemm_k16 gemm_m64_k16 gemm_m64_k32 gemm_n64_k16 gemm_n64_k32 gemm_small_k32; do
timeout 40 $N bench --suite bench/suites/zoo.json --models wav2vec2_base,whisper_base $F --pipeline-stats --kernel $k --json $R/w-$k.json > $R/w-$k.txt 2>&1; save w-$k; done
for r in 1 2; do for b in new old; do B=./bin-ab/wgconv-$b
timeout 60 $B bench --suite bench/suites/few-oc.json $F --json $R/$b-fo-$r.json > $R/$b-fo-$r.txt 2>&1; save $b-fo-$r
timeout 40 $B bench --suite bench/suites/transposed.json $F --json $R/$b-T-$r.json > $R/$b-T-$r.txt 2>&1; save $b-T-$r
done; done
