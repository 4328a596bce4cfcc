for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig; export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
R=/tmp/rp; mkdir -p $R; T0=$(date +%s)
save() { echo "step $1 at $(($(date +%s)-T0)) s" >> $R/steps.txt; tar czf $OUT/rp.tgz -C $R . ; }
S="--repeat 7 --launches 20 --no-reference --kernel transposed_few_oc"
for i in 1 2 3; do for b in l n o; do
timeout 30 ./bin-ab/wgconv-$b bench --suite bin-ab/fewoc.json $S --json $R/few-$b$i.json > $R/few-$b$i.txt 2>&1
done; save r$i; done
timeout 40 python3 bench/torch_reference.py --suite bin-ab/fewoc.json --repeat 7 --launches 20 --also-tf32 --json $R/torch-few.json > $R/torch-few.txt 2>&1; save t
python3 bench/gpu_check.py /tmp/gc | grep -E "few_oc" > $R/gc-cmds.txt
for b in n o; do while read -r c; do echo "== $b $c" >> $R/gc.txt; timeout 20 ./bin-ab/wgconv-$b $c >> $R/gc.txt 2>&1; echo "rc $?" >> $R/gc.txt; done < $R/gc-cmds.txt; done; save gc
