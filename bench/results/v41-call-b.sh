for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig; export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
R=/tmp/rb; mkdir -p $R; T0=$(date +%s); N=./bin-ab/wgconv-chunk
save() { echo "step $1 at $(($(date +%s)-T0)) s" >> $R/steps.txt; tar czf $OUT/rb.tgz -C $R . ; }
python3 bench/gpu_check.py /tmp/gc | grep -E "few_oc" > $R/gc-cmds.txt
while read -r c; do echo "== $c" >> $R/gc.txt; timeout 30 $N $c >> $R/gc.txt 2>&1; echo "rc $?" >> $R/gc.txt; done < $R/gc-cmds.txt; save gc
F="--repeat 5 --launches 10 --no-reference"
timeout 60 $N bench --suite bench/suites/zoo.json --models wav2vec2_base $F --pipeline-stats --pipeline-ir $R/ir --kernel gemm_k16 > $R/ir.txt 2>&1; save ir
for r in 1 2; do for b in chunk v40 v39; do B=./bin-ab/wgconv-$b
timeout 60 $B bench --suite bench/suites/few-oc.json $F --json $R/$b-fo-$r.json > $R/$b-fo-$r.txt 2>&1; save $b-fo-$r
timeout 40 $B bench --suite bench/suites/transposed.json $F --json $R/$b-T-$r.json > $R/$b-T-$r.txt 2>&1; save $b-T-$r
done; done
for b in chunk v39; do timeout 60 ./bin-ab/wgconv-$b bench --suite bench/suites/few-oc.json $F --dtype f16 --json $R/$b-fo16.json > $R/$b-fo16.txt 2>&1; save $b-fo16; done
timeout 60 $N bench --suite bench/suites/zoo.json --models pix2pix_generator,wav2vec2_base $F --json $R/p2p.json > $R/p2p.txt 2>&1; save p2p
timeout 90 python3 bench/torch_reference.py --suite bench/suites/zoo.json --models pix2pix_generator,wav2vec2_base --repeat 5 --launches 10 --also-tf32 --json $R/t-p2p.json > $R/t-p2p.txt 2>&1; save t-p2p
