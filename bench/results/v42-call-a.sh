for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig; export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
R=/tmp/ra; mkdir -p $R; T0=$(date +%s)
save() { echo "step $1 at $(($(date +%s)-T0)) s" >> $R/steps.txt; tar czf $OUT/ra.tgz -C $R . ; }
B=./bin-ab/wgconv-v41; F="--repeat 5 --launches 10 --no-reference --pipeline-stats"
for m in resnet50_b32 yolov8n_b16 mobilenet_v3_large_b32 pix2pix_generator_b16 wav2vec2_base_b16 whisper_base_b16 mobilenet_v2_b32 efficientnet_b0_b32 regnet_y_1_6gf_b32 convnext_tiny_b32 davit_florence2_b8 dcgan_generator_b64 sd_vae_decoder_b4 sd15_unet_b8; do
timeout 120 $B bench --suite bench/suites/zoo-throughput.json --models $m $F --json $R/zt-$m.json > $R/zt-$m.txt 2>&1; save $m
done
