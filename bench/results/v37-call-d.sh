for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig; export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
R=/tmp/rd; mkdir -p $R /tmp/fo; T0=$(date +%s)
save() { echo "step $1 at $(($(date +%s)-T0)) s" >> $R/steps.txt; tar czf $OUT/rd.tgz -C $R . ; }
python3 -c "
import numpy as np; r=np.random.default_rng(7)
for n,(x,w) in {'rgb':((1,128,256,256),(3,128,3,3)),'lat':((2,320,96,80),(4,320,3,3)),'k9':((1,32,130,70),(3,32,9,9))}.items():
    np.save(f'/tmp/fo/{n}_x.npy',r.standard_normal(x).astype(np.float32)); np.save(f'/tmp/fo/{n}_w.npy',(r.standard_normal(w)*0.05).astype(np.float32)); np.save(f'/tmp/fo/{n}_b.npy',r.standard_normal(w[0]).astype(np.float32))
"
for c in "rgb --padding 1 --activation relu" "lat --padding 1" "k9 --padding 4 --stride 2"; do set -- $c; n=$1; shift
echo "== $n $*" >> $R/gc.txt; timeout 60 ./bin-ab/wgconv-S conv2d --input /tmp/fo/${n}_x.npy --weight /tmp/fo/${n}_w.npy --bias /tmp/fo/${n}_b.npy "$@" --kernel few_oc --check >> $R/gc.txt 2>&1; echo "rc $?" >> $R/gc.txt
echo "== $n $* planned" >> $R/gc.txt; timeout 60 ./bin-ab/wgconv-S conv2d --input /tmp/fo/${n}_x.npy --weight /tmp/fo/${n}_w.npy --bias /tmp/fo/${n}_b.npy "$@" --check >> $R/gc.txt 2>&1; echo "rc $?" >> $R/gc.txt; done; save gc
timeout 60 ./bin-ab/wgconv-S bench --suite bench/suites/few-oc.json --repeat 5 --launches 10 --no-reference --json $R/S-fo.json > $R/S-fo.txt 2>&1; save S-fo
M1=sd_vae_decoder,sd15_unet
S1="--suite bench/suites/zoo.json --models $M1 --repeat 5 --launches 10 --no-reference"
timeout 60 ./bin-ab/wgconv-S bench $S1 --json $R/S-z1.json > $R/S-z1.txt 2>&1; save S-z1
timeout 60 ./bin-ab/wgconv-S bench $S1 --precision f16 --json $R/S-z1-f16.json > $R/S-z1-f16.txt 2>&1; save S-z1-f16
timeout 80 python3 bench/torch_reference.py --suite bench/suites/zoo.json --models $M1 --repeat 5 --launches 10 --also-tf32 --json $R/t-z1.json > $R/t-z1.txt 2>&1; save t-z1
