for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig; export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
R=/tmp/rg; mkdir -p $R; T0=$(date +%s); B=./bin-ab/wgconv-v41
save() { echo "step $1 at $(($(date +%s)-T0)) s" >> $R/steps.txt; tar czf $OUT/rg.tgz -C $R . ; }
python3 bench/gpu_check.py /tmp/gc > $R/gc-cmds.txt
while read -r c; do echo "== $c" >> $R/gc.txt; timeout 30 $B $c >> $R/gc.txt 2>&1; echo "rc $?" >> $R/gc.txt; done < $R/gc-cmds.txt; save gc
Q="--repeat 1 --launches 1 --no-reference --pipeline-stats"
timeout 150 $B bench --suite bench/suites/zoo.json --models resnet50,wav2vec2_base,sd_vae_decoder,pix2pix_generator,yolov8n $Q --json $R/st-zoo.json > $R/st-zoo.txt 2>&1; save st-zoo
timeout 60 $B bench --suite default $Q --precision f16 --json $R/st-def16.json > $R/st-def16.txt 2>&1; save st-def16
