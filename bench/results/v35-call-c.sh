for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig; export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
R=/tmp/rc; mkdir -p $R; T0=$(date +%s)
save() { echo "step $1 at $(($(date +%s)-T0)) s" >> $R/steps.txt; tar czf $OUT/rc.tgz -C $R . ; }
python3 bench/gpu_check.py /tmp/gc | grep -E "winograd_coop_(channels_last_planned|planned)|coop_split_k " > $R/gc-cmds.txt
while read -r c; do echo "== L $c" >> $R/gc.txt; timeout 30 ./bin-ab/wgconv-L $c >> $R/gc.txt 2>&1; echo "rc $?" >> $R/gc.txt; done < $R/gc-cmds.txt; save gc
W="--suite bench/results/v34-winograd-suite.json --repeat 5 --launches 10 --no-reference"
timeout 60 ./bin-ab/wgconv-L bench $W --precision f16 --channels-last --json $R/L-cl.json > $R/L-cl.txt 2>&1; save L-cl
for b in L G; do timeout 70 ./bin-ab/wgconv-$b bench $W --json $R/$b-f32.json > $R/$b-f32.txt 2>&1; save $b-f32; done
M1=sd_vae_decoder,sd15_unet
S1="--suite bench/suites/zoo.json --models $M1 --repeat 5 --launches 10 --no-reference --precision f16 --channels-last"
for b in L G; do timeout 50 ./bin-ab/wgconv-$b bench $S1 --json $R/$b-z1cl.json > $R/$b-z1cl.txt 2>&1; save $b-z1cl; done
timeout 60 python3 bench/torch_reference.py --suite bench/suites/zoo.json --models $M1 --repeat 5 --launches 10 --also-tf32 --channels-last --json $R/t-z1cl.json > $R/t-z1cl.txt 2>&1; save t-z1cl
