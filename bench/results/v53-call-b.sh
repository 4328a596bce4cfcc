# v53 call B: each staged cooperative-matrix variant in its own process, the tiles held as f16,
# vec4<f16> and vec4<u32> (H100). WGCONV_ROOFLINE_ONLY was a variant filter of the measuring
# build only (not committed: the committed roofline times every variant, and the vec4<u32> ones,
# which lost the device here, are gone).
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig; export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
xz -dc bin-v53/roof.xz > /tmp/wgconv-roof; chmod +x /tmp/wgconv-roof
for v in none coop_gemm_k64 coop_gemm_h4 coop_gemm_u4 coop_gemm_u4_k64; do
  echo "== $v"; WGCONV_ROOFLINE_ONLY=$v timeout 60 /tmp/wgconv-roof bench --suite quick --repeat 5 --no-reference --roofline 2>&1 | grep roofline
done
