# v46 call I: `wgconv-v46b` (the phase blocks skipping filter rows and columns 2–3 where the
# filter has none; R49: those layers keep transposed_few_oc where f16 is allowed) against call H's
# `wgconv-v46` (fp32) and the committed 2151b89 (`wgconv-head`: f16 tensors and f32 tensors with
# f16 allowed, both on coop_f16), interleaved, on the transposed few-output-channel suite; cuDNN
# (fp32, TF32, f16) in the same call; `wgconv-v46c` = v46b with `v46-variants.py pf` (the next
# channel's inputs loaded before the current one's multiply-adds), f32 and f16 tensors. First `gpu_check.py`'s few-output-channel cases on v46b.
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig; export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
for b in head; do xz -dc bin-v45/$b.xz > /tmp/wgconv-$b; done; for b in v46 v46b v46c; do xz -dc bin-v46/$b.xz > /tmp/wgconv-$b; done; chmod +x /tmp/wgconv-*
R=/tmp/ri; mkdir -p $R; T0=$(date +%s)
save() { echo "step $1 at $(($(date +%s)-T0)) s" >> $R/steps.txt; tar czf $OUT/ri.tgz -C $R . ; }
nvidia-smi --query-gpu=name,driver_version,clocks.sm --format=csv > $R/gpu.txt
python3 bench/gpu_check.py /tmp/gc > $R/gc-cmds.txt
grep few_oc $R/gc-cmds.txt | while read l; do echo "== $l"; timeout 60 /tmp/wgconv-v46b $l 2>&1 | tail -3; done > $R/gc.txt 2>&1; save gc
S=bench/results/v46-transposed-few-oc-suite.json
C="--repeat 5 --launches 10 --no-reference"
python3 -c "import json; d=json.load(open('$S')); d['layers']=d['layers'][3:4]; json.dump(d, open('/tmp/st.json','w'))"
for b in v46b v46c; do timeout 30 /tmp/wgconv-$b bench --suite /tmp/st.json --kernel transposed_few_oc --pipeline-stats $C --json $R/st-$b.json > $R/st-$b.txt 2>&1; save st-$b; done
for r in 1 2; do
 for b in v46 v46b v46c; do timeout 40 /tmp/wgconv-$b bench --suite $S $C --json $R/tf-$b-$r.json > $R/tf-$b-$r.txt 2>&1; save tf-$b-$r; done
 for b in head v46b v46c; do
  timeout 40 /tmp/wgconv-$b bench --suite $S $C --dtype f16 --json $R/tf16-$b-$r.json > $R/tf16-$b-$r.txt 2>&1; save tf16-$b-$r
  [ $b = v46c ] && continue
  timeout 40 /tmp/wgconv-$b bench --suite $S $C --precision f16 --json $R/tp16-$b-$r.json > $R/tp16-$b-$r.txt 2>&1; save tp16-$b-$r; done; done
timeout 60 python3 bench/torch_reference.py --suite $S --rounds 2 --repeat 5 --launches 10 --also-tf32 --json $R/t-tf.json > $R/t-tf.txt 2>&1; save t-tf
timeout 60 python3 bench/torch_reference.py --suite $S --rounds 2 --repeat 5 --launches 10 --dtype float16 --json $R/t16-tf.json > $R/t16-tf.txt 2>&1; save t16-tf
