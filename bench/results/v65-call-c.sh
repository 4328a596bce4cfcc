# v65 call C. (1) v64 call B's unfinished steps (its timeouts were short for a cold machine):
# `wgconv-i` (v64 HEAD, 1d58fbb) over the throughput-zoo models it did not reach, `wgconv-e`
# (dc98d0e, before R69 and R70) over SD 1.5 UNet b8 and ESRGAN ×4 b4, cuDNN fp32 and TF32 over
# the whole throughput zoo. (2) The NCHW Winograd output transforms storing through workgroup
# memory (`wgconv-j`) against v64's (`wgconv-i`) on 60 Winograd layers
# (`v65-winograd-sample-suite.json`), interleaved i, j, j, i. Carry [".gl", "bin-v65"].
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig; export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
for b in e i j; do xz -dc bin-v65/$b.tar.xz | tar xf - -C /tmp; chmod +x /tmp/wgconv-$b; done
R=/tmp/rc; rm -rf $R; mkdir -p $R; T0=$(date +%s)
save() { echo "step $1 at $(($(date +%s)-T0)) s" >> $R/steps.txt; tar czf $OUT/rc.tgz -C $R . ; }
nvidia-smi --query-gpu=name,driver_version --format=csv > $R/gpu.txt; md5sum /tmp/wgconv-? > $R/md5.txt
S="--repeat 5 --launches 10 --no-reference"
T=bench/suites/zoo-throughput.json; X=bench/suites/zoo-extra.json
W="--suite bench/results/v65-winograd-sample-suite.json"
for r in i-1 j-1 j-2 i-2; do
  timeout 45 /tmp/wgconv-${r%-*} bench $W $S --json $R/w$r.json > $R/w$r.txt 2>&1; save w$r
done
timeout 80 /tmp/wgconv-i bench --suite $T --models sd15_unet_b8,davit_florence2_b8,whisper_base_b16,wav2vec2_base_b16,dcgan_generator_b64,pix2pix_generator_b16 $S --json $R/z-i2.json > $R/z-i2.txt 2>&1; save z-i2
timeout 50 /tmp/wgconv-e bench --suite $T --models sd15_unet_b8 $S --json $R/z-e2.json > $R/z-e2.txt 2>&1; save z-e2
timeout 25 /tmp/wgconv-e bench --suite $X --models esrgan_x4_b4 $S --json $R/x-e2.json > $R/x-e2.txt 2>&1; save x-e2
timeout 150 python3 bench/torch_reference.py --suite $T --repeat 5 --launches 10 --also-tf32 --json $R/z-t.json > $R/z-t.txt 2>&1; save z-t
cat $R/steps.txt $R/gpu.txt
