for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig; export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
R=/tmp/rb; mkdir -p $R; T0=$(date +%s)
save() { echo "step $1 at $(($(date +%s)-T0)) s" >> $R/steps.txt; tar czf $OUT/rb.tgz -C $R . ; }
python3 bench/gpu_check.py /tmp/gc | grep -E "winograd_coop|coop_split_k " > $R/gc-cmds.txt
while read -r c; do echo "== N $c" >> $R/gc.txt; timeout 30 ./bin-ab/wgconv-N $c >> $R/gc.txt 2>&1; echo "rc $?" >> $R/gc.txt; done < $R/gc-cmds.txt; save gc
W="--suite bench/results/v34-winograd-suite.json --repeat 5 --launches 10 --no-reference --precision f16"
for r in 1 2; do for b in N M L; do timeout 70 ./bin-ab/wgconv-$b bench $W --json $R/$b-f16-$r.json > $R/$b-f16-$r.txt 2>&1; save $b-f16-$r; done; done
timeout 70 ./bin-ab/wgconv-N bench $W --channels-last --json $R/N-cl.json > $R/N-cl.txt 2>&1; save N-cl
timeout 60 python3 bench/torch_reference.py --suite bench/suites/diffusion.json --repeat 5 --launches 10 --also-tf32 --json $R/t-diff.json > $R/t-diff.txt 2>&1; save t-diff
M1=sd_vae_decoder,sd15_unet
S1="--suite bench/suites/zoo.json --models $M1 --repeat 5 --launches 10 --no-reference --precision f16"
for b in N L; do timeout 50 ./bin-ab/wgconv-$b bench $S1 --json $R/$b-z1.json > $R/$b-z1.txt 2>&1; save $b-z1; done
timeout 60 python3 bench/torch_reference.py --suite bench/suites/zoo.json --models $M1 --repeat 5 --launches 10 --also-tf32 --json $R/t-z1.json > $R/t-z1.txt 2>&1; save t-z1
