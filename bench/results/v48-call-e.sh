# v48 call E: the committed v48 binary (`v48`, run as /tmp/wgconv-c3) checked on the GPU where lavapipe's tests are the
# only check otherwise: 1×1 filters on the 16-deep staged tiles (one-column loaders), forced and
# planned (R50), stride 1 and 2, split-K by the planner, f32; `wgconv conv2d --check` compares
# with the CLI's CPU reference. Binary in bin-v48/ (not committed).
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig; export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
xz -dc bin-v48/v48.xz > /tmp/wgconv-c3; chmod +x /tmp/wgconv-c3
R=/tmp/re; rm -rf $R; mkdir -p $R/npy
python3 - <<'PY'
import numpy as np
rng = np.random.default_rng(48)
shapes = {"pw48": ([2, 48, 17, 19], [40, 48, 1, 1]), "pw256s2": ([2, 256, 14, 14], [72, 256, 1, 1]),
          "pw256": ([4, 256, 20, 20], [128, 256, 1, 1]), "pw1024": ([2, 1024, 7, 7], [512, 1024, 1, 1])}
for name, (x, w) in shapes.items():
    np.save(f"/tmp/re/npy/{name}_x.npy", rng.standard_normal(x).astype(np.float32))
    np.save(f"/tmp/re/npy/{name}_w.npy", rng.standard_normal(w).astype(np.float32))
    np.save(f"/tmp/re/npy/{name}_b.npy", rng.standard_normal(w[0]).astype(np.float32))
PY
run() { n=$1; shift; echo "== $n $*"; timeout 30 /tmp/wgconv-c3 conv2d --input $R/npy/${n}_x.npy --weight $R/npy/${n}_w.npy --bias $R/npy/${n}_b.npy --out $R/y.npy --check "$@" 2>&1 | tail -3; }
{ for k in gemm_k16 gemm_n64_k16 gemm_m64_k16; do run pw48 --kernel $k --activation relu; done
  run pw256s2 --stride 2 --kernel gemm_k16; run pw256s2 --stride 2
  run pw256; run pw256 --kernel gemm_k16 --tile-n 64; run pw1024; run pw1024 --kernel gemm_m64_k16; } > $R/gc.txt 2>&1
cp $R/gc.txt $OUT/gc.txt; cat $R/gc.txt
