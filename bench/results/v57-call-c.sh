# v57 call C: R61 planned (`wgconv-c`: the bench prepares each layer's `Conv2d` for its input,
# `Conv2d::new_for_input`, which keeps F(4×4, 3×3)'s transformed weight where R61 plans it)
# against the v56 build's planner (`wgconv-b`), on the 146 layers of `v56-w4-suite.json`.
# v58 folded it into one call with v58's call D (device starts were scarce):
# `bench/results/v58-call-cd.sh`, which this runs. Carry [".gl", "bin-v56/b.tar.xz", "bin-v57"].
bash bench/results/v58-call-cd.sh
