# v49 call C (not run in v49; right after call B, on the same warm machine; `v49` = the committed v49): the routes R51–R54 add, checked on
# the GPU with `wgconv conv2d --check` (f64 CPU reference; planned kernel printed; `hifi`, a
# transposed 1D layer, is no longer one of them as committed, but checks what it runs), shapes cut
# from the layers they were fitted on where the CPU reference must stay quick; then the batch-1
# zoo's SD 1.5 UNet, wav2vec 2.0 and pix2pix, both binaries and cuDNN. Binaries as call B.
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig; export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
xz -dc bin-v48/v48.xz > /tmp/wgconv-v48; xz -dc bin-v49/v49.xz > /tmp/wgconv-v49; chmod +x /tmp/wgconv-*
R=/tmp/rc; rm -rf $R; mkdir -p $R/npy; T0=$(date +%s)
save() { echo "step $1 at $(($(date +%s)-T0)) s" >> $R/steps.txt; tar czf $OUT/rc.tgz -C $R . ; }
python3 - <<'PY'
import numpy as np
rng = np.random.default_rng(49)
shapes = {"stem": ([2, 1, 16000], [512, 1, 10]), "sd8": ([1, 1280, 8, 8], [1280, 1280, 3, 3]),
          "hifi": ([2, 512, 64], [512, 256, 16]), "pix": ([4, 1024, 8, 8], [1024, 512, 4, 4]),
          "sd16": ([1, 640, 16, 16], [1280, 640, 3, 3])}
for name, (x, w) in shapes.items():
    np.save(f"/tmp/rc/npy/{name}_x.npy", rng.standard_normal(x).astype(np.float32))
    np.save(f"/tmp/rc/npy/{name}_w.npy", rng.standard_normal(w).astype(np.float32))
PY
run() { n=$1; shift; echo "== $n $*"; timeout 60 /tmp/wgconv-v49 conv2d --input $R/npy/${n}_x.npy --weight $R/npy/${n}_w.npy --out $R/y.npy --check "$@" 2>&1 | tail -3; }
{ run stem --stride 5; run sd8 --padding 1; run hifi --transposed --stride 8 --padding 4; run pix --transposed --stride 2 --padding 1
  run sd16 --padding 1; } > $R/gc.txt 2>&1; save checks
C="--repeat 5 --launches 10 --no-reference --models sd15_unet,wav2vec2_base,pix2pix_generator"
for b in v49 v48; do timeout 60 /tmp/wgconv-$b bench --suite bench/suites/zoo.json $C --json $R/z-$b.json > $R/z-$b.txt 2>&1; save z-$b; done
timeout 60 python3 bench/torch_reference.py --suite bench/suites/zoo.json --models sd15_unet,wav2vec2_base,pix2pix_generator --repeat 5 --launches 10 --also-tf32 --json $R/t-z.json > $R/t-z.txt 2>&1; save t-z
cat $R/gc.txt $R/steps.txt
