for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig; export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
R=/tmp/ri; mkdir -p $R; T0=$(date +%s); H=./bin-ab/wgconv-h
save() { echo "step $1 at $(($(date +%s)-T0)) s" >> $R/steps.txt; tar czf $OUT/ri.tgz -C $R . ; }
S="--repeat 5 --launches 10 --no-reference"
python3 bench/gpu_check.py /tmp/gc | grep -E "pointwise_vec4|few_oc" > $R/gc-cmds.txt
while read -r c; do echo "== $c" >> $R/gc.txt; timeout 20 $H $c >> $R/gc.txt 2>&1; echo "rc $?" >> $R/gc.txt; done < $R/gc-cmds.txt; save gc
timeout 150 $H bench --suite zoo-throughput --models davit_florence2_b8,whisper_base_b16,wav2vec2_base_b16,dcgan_generator_b64,pix2pix_generator_b16 $S --json $R/tp-rest.json > $R/tp-rest.txt 2>&1; save tp
