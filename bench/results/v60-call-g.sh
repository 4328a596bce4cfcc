# v60 call G (prepared, not run: the session's device budget was spent). Times the committed
# v60 build (`wgconv-g`: the dilated F(4×4) tile indexing on pipeline constants) against v59's
# (`wgconv-o`, 6cf5cc8) on R61's undilated layers (`v56-w4-suite.json`), interleaved o, g, g, o,
# and against call E's dilated suite planned, with cuDNN in the same call; device checks of the
# dilated and pointwise cases. Build both binaries here first (`cargo build --release -p
# wgconv-cli` in this tree and in a worktree of 6cf5cc8, touching the sources between: the two
# share target/), pack them as bin-v60/g.tar.xz, and carry [".gl", "bin-v60"].
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig; export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
xz -dc bin-v60/g.tar.xz | tar xf - -C /tmp; chmod +x /tmp/wgconv-g /tmp/wgconv-o
R=/tmp/rg; rm -rf $R; mkdir -p $R; T0=$(date +%s)
save() { echo "step $1 at $(($(date +%s)-T0)) s" >> $R/steps.txt; tar czf $OUT/rg.tgz -C $R . ; }
nvidia-smi --query-gpu=name,driver_version --format=csv > $R/gpu.txt; md5sum /tmp/wgconv-* > $R/md5.txt
python3 bench/gpu_check.py /tmp/gc | grep -E "dilated|few_oc_planned|pointwise_vec4_split|1d_column" > /tmp/gc.cmds
while read -r line; do echo "== $line" | sed 's/--input.*--bias [^ ]* //' >> $R/gc.txt
  timeout 40 /tmp/wgconv-g $line 2>&1 | grep -i "error\|relative\|kernel:" >> $R/gc.txt; done < /tmp/gc.cmds; save gc
S="--repeat 5 --launches 10 --no-reference"
for suite in bench/results/v56-w4-suite.json bench/results/v60-dilated-suite.json; do
  b=$(basename $suite .json)
  for v in o-1 g-1 g-2 o-2; do
    timeout 120 /tmp/wgconv-${v%-*} bench --suite $suite $S --json $R/$b-$v.json > $R/$b-$v.txt 2>&1; save $b-$v; done
  timeout 120 python3 bench/torch_reference.py --suite $suite --repeat 5 --launches 10 --also-tf32 --json $R/$b-t.json > $R/$b-t.txt 2>&1; save $b-t
done
cat $R/steps.txt $R/gpu.txt $R/gc.txt
