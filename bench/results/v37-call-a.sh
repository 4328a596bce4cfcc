for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig; export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
R=/tmp/ra; mkdir -p $R; T0=$(date +%s)
save() { echo "step $1 at $(($(date +%s)-T0)) s" >> $R/steps.txt; tar czf $OUT/ra.tgz -C $R . ; }
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > $R/gpu.txt 2>&1
python3 bench/gpu_check.py /tmp/gc | grep -E "winograd_coop" > $R/gc-cmds.txt
while read -r c; do echo "== P band 1MB: $c" >> $R/gc.txt; WGCONV_WINOGRAD_BAND_BYTES=1000000 timeout 30 ./bin-ab/wgconv-P $c >> $R/gc.txt 2>&1; echo "rc $?" >> $R/gc.txt; done < $R/gc-cmds.txt; save gc
W="--suite bench/results/v34-winograd-suite.json --repeat 5 --launches 10 --no-reference --precision f16"
for b in 0 24000000 12000000 36000000 6000000 48000000; do WGCONV_WINOGRAD_BAND_BYTES=$b timeout 70 ./bin-ab/wgconv-P bench $W --json $R/w-$b.json > $R/w-$b.txt 2>&1; save w-$b; done
D="--suite bench/suites/diffusion.json --repeat 5 --launches 10 --no-reference --precision f16"
for b in 0 24000000 12000000 36000000 6000000 48000000; do WGCONV_WINOGRAD_BAND_BYTES=$b timeout 40 ./bin-ab/wgconv-P bench $D --json $R/d-$b.json > $R/d-$b.txt 2>&1; save d-$b; done
timeout 60 python3 bench/torch_reference.py --suite bench/suites/diffusion.json --repeat 5 --launches 10 --also-tf32 --json $R/t-diff.json > $R/t-diff.txt 2>&1; save t-diff
M1=sd_vae_decoder,sd15_unet
S1="--suite bench/suites/zoo.json --models $M1 --repeat 5 --launches 10 --no-reference --precision f16"
for b in 0 24000000; do WGCONV_WINOGRAD_BAND_BYTES=$b timeout 50 ./bin-ab/wgconv-P bench $S1 --json $R/z1-$b.json > $R/z1-$b.txt 2>&1; save z1-$b; done
timeout 60 python3 bench/torch_reference.py --suite bench/suites/zoo.json --models $M1 --repeat 5 --launches 10 --also-tf32 --json $R/t-z1.json > $R/t-z1.txt 2>&1; save t-z1
