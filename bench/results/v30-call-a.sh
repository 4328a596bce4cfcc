for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig; export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
mkdir -p /tmp/ra; T0=$(date +%s); O=./bin-ab/wgconv-old; N=./bin-ab/wgconv-new
save() { echo "step $1 at $(($(date +%s)-T0)) s" >> /tmp/ra/steps.txt; tar czf $OUT/ra.tgz -C /tmp/ra . ; }
S="--repeat 5 --launches 10 --no-reference"; P="--repeat 5 --launches 10 --also-tf32"
M=mobilenet_v2,mobilenet_v3_large,efficientnet_b0
timeout 100 $O bench --suite zoo --models $M $S --json /tmp/ra/small-old-1.json > /tmp/ra/small-old-1.txt 2>&1; save o1
timeout 120 $N bench --suite zoo --models $M $S --parallel 8 --json /tmp/ra/small-new-1.json > /tmp/ra/small-new-1.txt 2>&1; save n1
timeout 60 $O bench --suite default $S --json /tmp/ra/default-old.json > /tmp/ra/default-old.txt 2>&1; save do
timeout 60 $N bench --suite default $S --json /tmp/ra/default-new.json > /tmp/ra/default-new.txt 2>&1; save dn
timeout 90 python3 bench/torch_reference.py --suite bench/suites/zoo.json --models $M $P --json /tmp/ra/torch-small.json > /tmp/ra/torch-small.txt 2>&1; save ts
timeout 100 $O bench --suite zoo --models $M $S --json /tmp/ra/small-old-2.json > /tmp/ra/small-old-2.txt 2>&1; save o2
timeout 100 $N bench --suite zoo --models $M $S --json /tmp/ra/small-new-2.json > /tmp/ra/small-new-2.txt 2>&1; save n2
python3 bench/gpu_check.py /tmp/gc > /tmp/ra/gc-cmds.txt 2>&1
E=$(( $(date +%s) + 120 )); while read -r line; do [ $(date +%s) -gt $E ] && break; echo "== $line"; timeout 30 $N $line 2>&1 | tail -2; done < /tmp/ra/gc-cmds.txt > /tmp/ra/gc.txt 2>&1; save gc
