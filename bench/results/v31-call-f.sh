for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig; export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
R=/tmp/rf; mkdir -p $R; T0=$(date +%s); E=./bin-ab/wgconv-e; F=./bin-ab/wgconv-f
save() { echo "step $1 at $(($(date +%s)-T0)) s" >> $R/steps.txt; tar czf $OUT/rf.tgz -C $R . ; }
S="--repeat 5 --launches 10 --no-reference"; P="--repeat 5 --launches 10 --also-tf32"
python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl > $R/pip.txt 2>&1 &
M=pix2pix_generator,dcgan_generator,davit_florence2
for i in 1; do

timeout 30 $F bench --suite zoo --models $M $S --json $R/zoo3-f$i.json > $R/zoo3-f$i.txt 2>&1; save z$i
done
timeout 40 $F bench --suite bin-ab/fitA.json $S --json $R/fitA-f.json > $R/fitA-f.txt 2>&1; save fa
timeout 40 $F bench --suite bin-ab/fitB.json $S --json $R/fitB-f.json > $R/fitB-f.txt 2>&1; save fb
timeout 60 python3 bench/torch_reference.py --suite bench/suites/zoo.json --models $M $P --json $R/torch-zoo3.json > $R/torch-zoo3.txt 2>&1; save t3
timeout 80 $F bench --suite bin-ab/ortlose.json $S --parallel 16 --json $R/ortlose-par16.json > $R/ortlose-par16.txt 2>&1; save p16
wait
PYTHONPATH=/tmp/site timeout 250 python3 bench/ort_webgpu_reference.py --suite bin-ab/ortlose.json --k 16 --k-from 8 --limit-s 220 --json $R/ort-ortlose.json > $R/ort-ortlose.txt 2>&1; save ort
