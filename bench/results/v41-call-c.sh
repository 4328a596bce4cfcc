for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig; export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
R=/tmp/rc; mkdir -p $R; T0=$(date +%s)
save() { echo "step $1 at $(($(date +%s)-T0)) s" >> $R/steps.txt; tar czf $OUT/rc.tgz -C $R . ; }
python3 bench/gpu_check.py /tmp/gc | grep -E "forced_gemm_k16|few_oc" > $R/gc-cmds.txt
for b in k32 adj16; do while read -r c; do echo "== $b $c" >> $R/gc.txt; timeout 30 ./bin-ab/wgconv-$b $c >> $R/gc.txt 2>&1; echo "rc $?" >> $R/gc.txt; done < $R/gc-cmds.txt; done; save gc
F="--repeat 5 --launches 10 --no-reference"; M="--models wav2vec2_base,whisper_base,resnet50,sd15_unet,pix2pix_generator"
for r in 1 2; do for b in chunk k32; do B=./bin-ab/wgconv-$b
timeout 90 $B bench --suite bench/suites/zoo.json $M $F --kernel gemm_k16 --pipeline-stats --json $R/$b-z-$r.json > $R/$b-z-$r.txt 2>&1; save $b-z-$r
timeout 40 $B bench --suite bench/suites/large.json $F --kernel gemm_k16 --json $R/$b-L-$r.json > $R/$b-L-$r.txt 2>&1; save $b-L-$r
done; for b in chunk adj16; do
timeout 60 ./bin-ab/wgconv-$b bench --suite bench/suites/few-oc.json $F --dtype f16 --json $R/$b-fo16-$r.json > $R/$b-fo16-$r.txt 2>&1; save $b-fo16-$r
done; done
