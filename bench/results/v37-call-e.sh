for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig; export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
R=/tmp/re; mkdir -p $R /tmp/fo; T0=$(date +%s)
save() { echo "step $1 at $(($(date +%s)-T0)) s" >> $R/steps.txt; tar czf $OUT/re.tgz -C $R . ; }
python3 -c "
import numpy as np; r=np.random.default_rng(7)
for n,(x,w) in {'rgb':((1,128,256,256),(3,128,3,3)),'lat':((2,320,96,80),(4,320,3,3)),'k9':((1,32,130,70),(3,32,9,9))}.items():
    np.save(f'/tmp/fo/{n}_x.npy',r.standard_normal(x).astype(np.float32)); np.save(f'/tmp/fo/{n}_w.npy',(r.standard_normal(w)*0.05).astype(np.float32)); np.save(f'/tmp/fo/{n}_b.npy',r.standard_normal(w[0]).astype(np.float32))
"
for c in "rgb --padding 1 --activation relu" "lat --padding 1" "k9 --padding 4 --stride 2"; do set -- $c; n=$1; shift
for k in "--kernel few_oc" ""; do echo "== $n $* $k" >> $R/gc.txt
timeout 60 ./bin-ab/wgconv-S conv2d --input /tmp/fo/${n}_x.npy --weight /tmp/fo/${n}_w.npy --bias /tmp/fo/${n}_b.npy "$@" $k --out /tmp/fo/${n}_y.npy --check >> $R/gc.txt 2>&1; echo "rc $?" >> $R/gc.txt; done; done; save gc
S1="--suite bench/suites/zoo.json --models sd_vae_decoder,sd15_unet --repeat 5 --launches 10 --no-reference --precision f16"
for b in S O S; do timeout 60 ./bin-ab/wgconv-$b bench $S1 --json $R/$b-z1-f16-$(date +%s).json > /dev/null 2>&1; save $b-z1; done
timeout 80 python3 bench/torch_reference.py --suite bench/suites/zoo.json --models sd_vae_decoder,sd15_unet --repeat 5 --launches 10 --also-tf32 --json $R/t-z1.json > $R/t-z1.txt 2>&1; save t-z1
