# v64 call A. (1) R69 as a build of its own: `wgconv-g` (8dc0727, R69) against `wgconv-e`
# (dc98d0e: every product's K-tile loads ahead) on the 73 layers whose plan R69 changes
# (`v64-r69-suite.json`), interleaved e, g, g, e. (2) The products' GEMM kernel on the 90 Winograd
# layers of more than 128 input channels (`v64-wide-suite.json`), whole: `wgconv-h` (a measuring
# build of g that takes the products' kernel and K loop from WGCONV_PRODUCTS_KERNEL/_LOADS;
# `v64-products-env.patch`) on `gemm_n64_k16` with its K-tiles loaded in their iteration, against
# g, interleaved g, h, h, g. Carry [".gl", "bin-v64"].
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig; export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
for b in e g h; do xz -dc bin-v64/$b.tar.xz | tar xf - -C /tmp; chmod +x /tmp/wgconv-$b; done
R=/tmp/ra; rm -rf $R; mkdir -p $R; T0=$(date +%s)
save() { echo "step $1 at $(($(date +%s)-T0)) s" >> $R/steps.txt; tar czf $OUT/ra.tgz -C $R . ; }
nvidia-smi --query-gpu=name,driver_version --format=csv > $R/gpu.txt; md5sum /tmp/wgconv-? > $R/md5.txt
S="--repeat 5 --launches 10 --no-reference"; W="--suite bench/results/v64-r69-suite.json"
for r in e-1 g-1 g-2 e-2; do
  timeout 70 /tmp/wgconv-${r%-*} bench $W $S --json $R/$r.json > $R/$r.txt 2>&1; save $r
done
W="--suite bench/results/v64-wide-suite.json"
export WGCONV_PRODUCTS_KERNEL=gemm_n64_k16 WGCONV_PRODUCTS_LOADS=in_iteration
for r in wg-1 wh-1 wh-2 wg-2; do
  timeout 100 /tmp/wgconv-${r:1:1} bench $W $S --json $R/$r.json > $R/$r.txt 2>&1; save $r
done
cat $R/steps.txt $R/gpu.txt
