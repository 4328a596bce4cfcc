# v53 call C: pipelined staged cooperative-matrix GEMMs (two workgroup-memory buffers, one barrier
# per K-tile, two K-tiles of global loads in flight) in `wgconv bench --roofline`, each variant
# in its own process (a variant that loses the device cannot take the others with it), through
# the measuring build's variant filter WGCONV_ROOFLINE_ONLY (not committed; see call B).
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig; export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
xz -dc bin-v53/roof.xz > /tmp/wgconv-roof; chmod +x /tmp/wgconv-roof
for v in coop_gemm_k64,coop_gemm_n256,coop_gemm_h4 coop_gemm_db coop_gemm_db_k16 coop_gemm_db_n256; do
  echo "== $v"; WGCONV_ROOFLINE_ONLY=$v timeout 60 /tmp/wgconv-roof bench --suite quick --repeat 5 --no-reference --roofline 2>&1 | grep "roofline: staged\|wrong\|not measured"
done
