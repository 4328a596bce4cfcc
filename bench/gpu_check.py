#!/usr/bin/env python3
"""Writes .npy inputs for `wgconv conv2d --check` / `q8-conv-pw --check` runs on a real GPU:
one layer per fast kernel (GEMM, GEMM with split-K, transposed GEMM by stride phase, depthwise,
int8 dot4 GEMM and the int8 tensor-core kernels (bit-exact against the scalar one); unpadded GEMM; grouped; tiled, row-run and vec4 depthwise; 16-deep K-tiles; the
few-output-channel kernels, transposed and direct; the matrix-vector kernel of outputs of at most 4 pixels; the
small-grid GEMMs, unstaged and staged; the pointwise streams; the register-blocked direct kernel; Winograd F(2x2, 3x3), F(4x4, 3x3), F(2x2, 5x5), F(4x4, 5x5) and F(6x6, 3x3), their products on
the fp32 GEMM and (F(2x2, 3x3), F(4x4, 3x3)) on the tensor cores;
64×64 tiles; the f16 tensor-core kernel, checked against a reference whose inputs are rounded to
f16; and f16 tensors through the tensor-core kernel and the others), so the kernels are checked
against the CPU reference on the device itself.
Prints the wgconv command lines to run, one per line."""
import os
import sys

import numpy as np

out = sys.argv[1] if len(sys.argv) > 1 else "gpu_check"
os.makedirs(out, exist_ok=True)
rng = np.random.default_rng(7)


def save(name, array):
    path = os.path.join(out, name + ".npy")
    np.save(path, np.ascontiguousarray(array))
    return path


def f32(*shape):
    return rng.uniform(-1, 1, shape).astype(np.float32)


cases = [
    ("gemm_stem", (1, 3, 96, 96), (32, 3, 7, 7), "--stride 4 --padding 3"),
    ("gemm_splitk", (8, 256, 14, 14), (256, 256, 3, 3), "--padding 1 --activation relu"),
    ("gemm_pointwise", (8, 64, 14, 14), (256, 64, 1, 1), ""),
    ("gemm_transposed", (8, 64, 16, 16), (64, 32, 4, 4), "--transposed --stride 2 --padding 1"),
    # An RGB output layer on the few-output-channel transposed kernel (pix2pix's last layer, smaller).
    ("transposed_few_oc_rgb", (2, 128, 32, 32), (128, 3, 4, 4), "--transposed --stride 2 --padding 1 --kernel transposed_few_oc"),
    # The stride-2 phase blocks with a 3×3 filter (rows and columns 2–3 of a block partly empty),
    # output padding, 37 channels (two rounds of staged weights, the last slice short), ReLU.
    ("transposed_few_oc_phases_k3", (2, 37, 33, 70), (37, 1, 3, 3),
     "--transposed --stride 2 --padding 1 --output-padding 1 --activation relu --kernel transposed_few_oc"),
    # An RGB output on the direct few-output-channel kernel (a VAE decoder's, smaller; ragged runs
    # of 4 along 90 columns), and a latent output that R43 plans onto it (K 2880, 2 × 96 × 80).
    ("few_oc_rgb", (1, 128, 64, 90), (3, 128, 3, 3), "--padding 1 --activation relu --kernel few_oc"),
    ("few_oc_planned_latent", (2, 320, 96, 80), (4, 320, 3, 3), "--padding 1"),
    # Rows of ragged runs: 129 columns, 33 runs a row (on f32 tensors 32 of a 128-column chunk,
    # then one of 1 pixel; on f16 ones 4 adjacent columns, the last run 1 pixel); and a transposed
    # output of 259 columns (output padding), stride phases of 130 and 129 columns, in two groups
    # of 2 output channels.
    ("few_oc_ragged_rows", (2, 64, 9, 129), (3, 64, 3, 3), "--padding 1 --kernel few_oc"),
    ("transposed_few_oc_ragged_rows", (2, 64, 3, 129), (64, 2, 4, 4),
     "--transposed --stride 2 --padding 1 --output-padding 0,1 --groups 2 --kernel transposed_few_oc"),
    # Four output pixels in all (two images of 2×1): the matrix-vector kernel, 256 lanes (K 2304).
    ("gemv_4_pixels", (2, 256, 4, 3), (40, 256, 3, 3), "--stride 2,3 --padding 1,0 --activation relu --kernel gemv"),
    # The small-grid GEMM: ragged 32×32 tiles (70 channels, 13×11 pixels), K 1008 in 2 K-slices,
    # strides, dilation and padding per axis, groups; and a transposed layer by stride phase.
    ("gemm_small_ragged", (1, 224, 13, 11), (70, 112, 3, 3),
     "--groups 2 --stride 1,2 --padding 1,2 --dilation 2,1 --activation relu --kernel gemm_small"),
    ("gemm_small_transposed", (1, 128, 8, 8), (128, 64, 4, 4), "--transposed --stride 2 --padding 1 --kernel gemm_small"),
    # Its staged form on the same cases: K 1008 is 32 K-tiles (the last ragged), 16 per K-slice.
    ("gemm_small_k32_ragged", (1, 224, 13, 11), (70, 112, 3, 3),
     "--groups 2 --stride 1,2 --padding 1,2 --dilation 2,1 --activation relu --kernel gemm_small_k32"),
    ("gemm_small_k32_transposed", (1, 128, 8, 8), (128, 64, 4, 4),
     "--transposed --stride 2 --padding 1 --kernel gemm_small_k32"),
    ("depthwise", (8, 32, 28, 28), (32, 1, 3, 3), "--groups 32 --padding 1 --stride 2"),
    ("depthwise_s1_multiplier", (4, 48, 56, 56), (96, 1, 3, 3), "--groups 48 --padding 1 --activation relu"),
    ("gemm_k2s2_unpadded", (1, 128, 64, 64), (256, 128, 2, 2), "--stride 2"),
    # Three output channels per group: the depthwise kernel's channel loop.
    ("grouped_g32_depthwise", (4, 128, 28, 28), (96, 4, 3, 3), "--groups 32 --padding 1"),
    ("depthwise_k7_tiled", (2, 48, 40, 40), (48, 1, 7, 7), "--groups 48 --padding 3 --kernel depthwise_tiled"),
    ("depthwise_k7_vec4", (2, 48, 40, 40), (48, 1, 7, 7), "--groups 48 --padding 3"),
    # Four rows per thread of the vec4 kernel (one or two waves of threads).
    ("depthwise_vec4_long_runs", (1, 11000, 10, 16), (11000, 1, 3, 3), "--groups 11000 --padding 1"),
    # Grids of >= 384 workgroups with K >= 512: the 16-deep K-tile entry points.
    ("gemm_k16_pointwise", (8, 512, 48, 48), (512, 512, 1, 1), ""),
    ("gemm_m64_k16_pointwise", (16, 512, 64, 64), (64, 512, 1, 1), "--activation relu"),
    # 64×64 tiles: 32 deep in K on grids under 512 tiles (the stem and transposed cases above),
    # 16 deep on larger ones.
    ("gemm_n64_k16_padded", (2, 16, 128, 128), (64, 16, 3, 3), "--padding 1 --activation relu"),
    ("gemm_n64_k16_transposed_k2s2", (8, 32, 32, 32), (32, 16, 2, 2), "--transposed --stride 2"),
    ("grouped_oc4_g32", (4, 128, 28, 28), (128, 4, 3, 3), "--groups 32 --padding 1 --kernel grouped_oc4"),
    # The row-run depthwise kernel with a channel multiplier, and 7×7 strided and dilated.
    ("depthwise_rows_multiplier", (4, 48, 56, 56), (96, 1, 3, 3), "--groups 48 --padding 1 --kernel depthwise_rows"),
    ("depthwise_rows_k7_s2_d2", (2, 48, 41, 40), (48, 1, 7, 7),
     "--groups 48 --padding 6 --stride 2 --dilation 2 --kernel depthwise_rows"),
    # A 1D depthwise layer run as one column (R66: Conformer's k31 at batch 16, 2 rows a
    # thread), planned, and a strided, dilated one with bias and ReLU.
    ("depthwise_rows_1d_column", (16, 256, 249), (256, 1, 31), "--groups 256 --padding 15"),
    ("depthwise_rows_1d_column_s2_d2", (4, 256, 260), (256, 1, 7),
     "--groups 256 --padding 6 --stride 2 --dilation 2 --activation relu --kernel depthwise_rows"),
    # R64: the pointwise stream for under 16 output channels, planned: Mask R-CNN's 256→12 head
    # (K split), a U-Net's 64→2 output (the main entry point).
    ("pointwise_vec4_split_few_oc_planned", (2, 256, 100, 136), (12, 256, 1, 1), ""),
    ("pointwise_vec4_few_oc_planned", (4, 64, 256, 256), (2, 64, 1, 1), "--activation relu"),
    # Winograd F(2x2, 3x3): ragged tiles (odd outputs) and channels (70, 37), no padding on odd
    # sizes, long K (512 channels on 7x7 tiles), K-slices (1024 channels on 4x4 tiles: the
    # small-grid GEMM splits K; one convolution per process, so this checks split-K on the
    # device, not the slice stride after a larger layer, which a lavapipe test covers), and a
    # large layer.
    ("winograd_ragged", (2, 37, 31, 29), (70, 37, 3, 3), "--padding 1 --activation relu --kernel winograd"),
    ("winograd_unpadded_odd", (1, 64, 57, 33), (96, 64, 3, 3), "--kernel winograd"),
    ("winograd_long_k", (1, 512, 14, 14), (512, 512, 3, 3), "--padding 1 --kernel winograd"),
    ("winograd_k_slices", (1, 1024, 8, 8), (256, 1024, 3, 3), "--padding 1 --kernel winograd"),
    ("winograd_large", (1, 128, 128, 128), (128, 128, 3, 3), "--padding 1 --activation clamp:-0.5,0.5 --kernel winograd"),
    # F(4x4, 3x3) on dilated filters (each of the output's dilation² phases tiled alone): ragged
    # phases at dilation 2, 3 × 2 with padding 3 × 2, and DeepLabv3's ASPP at dilation 12.
    ("winograd_4x4_dilated_2", (2, 64, 37, 35), (70, 64, 3, 3), "--padding 2 --dilation 2 --activation relu --kernel winograd_4x4"),
    ("winograd_4x4_dilated_3x2", (1, 48, 41, 30), (64, 48, 3, 3), "--padding 3,2 --dilation 3,2 --kernel winograd_4x4"),
    ("winograd_4x4_dilated_aspp", (1, 512, 64, 64), (256, 512, 3, 3), "--padding 12 --dilation 12 --kernel winograd_4x4"),
    # Planned: R61 on a dilated layer (DeepLabv3's 256-channel dilation-2 3x3 at batch 1, whose
    # tiles are all outputs), and an output narrower than the dilation (one tile per phase).
    ("winograd_4x4_dilated_planned", (1, 256, 64, 64), (256, 256, 3, 3), "--padding 2 --dilation 2"),
    ("winograd_4x4_dilated_past_the_size", (1, 64, 9, 7), (64, 64, 3, 3), "--padding 12 --dilation 12 --kernel winograd_4x4"),
    # Winograd with its products on the tensor cores (`coop_nhwc` over channels-last
    # intermediates): f16 multiplicands are the transformed operands rounded, not the inputs, so
    # the check is against the exact f64 reference, within 3e-3 (2^-11 per rounded operand, the
    # transforms' sums of up to 9 terms). Ragged tiles and channels, split-K (1024 channels on
    # 4x4 tiles), a large layer with clamp.
    ("winograd_coop_ragged", (2, 40, 31, 29), (70, 40, 3, 3),
     "--padding 1 --activation relu --precision f16 --kernel winograd_coop --tolerance 3e-3"),
    ("winograd_coop_unpadded_odd", (1, 64, 57, 33), (96, 64, 3, 3), "--precision f16 --kernel winograd_coop --tolerance 3e-3"),
    ("winograd_coop_k_slices", (1, 1024, 8, 8), (256, 1024, 3, 3),
     "--padding 1 --precision f16 --kernel winograd_coop --tolerance 3e-3"),
    ("winograd_coop_large", (1, 128, 128, 128), (128, 128, 3, 3),
     "--padding 1 --activation clamp:-0.5,0.5 --precision f16 --kernel winograd_coop --tolerance 3e-3"),
    # Channels-last tensors, which its transforms read and write as they are (ragged, relu; a
    # larger layer).
    ("winograd_coop_channels_last_ragged", (2, 40, 31, 29), (70, 40, 3, 3),
     "--padding 1 --activation relu --precision f16 --kernel winograd_coop --channels-last --tolerance 3e-3"),
    ("winograd_coop_channels_last_large", (1, 128, 64, 64), (128, 128, 3, 3),
     "--padding 1 --precision f16 --kernel winograd_coop --channels-last --tolerance 3e-3"),
    # Winograd F(4x4, 3x3) (`winograd_4x4`: fp32 products), ragged tiles (31×29: the last row and
    # column of 4×4 tiles cut) and channels, ReLU; and with its products on the tensor cores
    # (`winograd_4x4_coop`): the same f16 roundings of its transformed operands as winograd_coop,
    # which its transforms' larger coefficients (up to 8 in Aᵀ) amplify, so a looser bound
    # (v59 call D, an H100: 2.0e-3–2.1e-3, and 8.7e-3 on the large layer with clamp). Ragged,
    # unpadded at odd sizes, split-K (1024 channels), a large layer with clamp, a wide one (75
    # tile columns: 5 blocks of 16 in the input transform, 3 of 32 in the output's), and
    # channels-last tensors (ragged and large).
    ("winograd_4x4_ragged", (2, 40, 31, 29), (70, 40, 3, 3), "--padding 1 --activation relu --kernel winograd_4x4"),
    # Planned, not forced: R62 (`winograd_4x4_coop` for the diffusion UNet's 320-channel layer at
    # batch 2, f16 allowed) and R63 (`winograd_5x5` for AlexNet's 5×5).
    ("winograd_4x4_coop_planned", (2, 320, 64, 64), (320, 320, 3, 3), "--padding 1 --precision f16 --tolerance 1e-2"),
    ("winograd_5x5_planned", (2, 64, 27, 27), (192, 64, 5, 5), "--padding 2 --activation relu"),
    # Winograd F(2×2, 5×5) (`winograd_5x5`), fp32 products: ragged tiles, and AlexNet's 64→192.
    ("winograd_5x5_ragged", (2, 40, 31, 29), (70, 40, 5, 5), "--padding 2 --activation relu --kernel winograd_5x5"),
    ("winograd_5x5_alexnet", (4, 64, 27, 27), (192, 64, 5, 5), "--padding 2 --kernel winograd_5x5"),
    # Winograd F(4×4, 5×5) (`winograd_5x5_tile4`) and F(6×6, 3×3) (`winograd_6x6`), fp32
    # products on the 8×8 transforms: ragged tiles, AlexNet's 64→192, a large 3×3 layer.
    ("winograd_5x5_tile4_ragged", (2, 40, 31, 29), (70, 40, 5, 5), "--padding 2 --activation relu --kernel winograd_5x5_tile4"),
    ("winograd_5x5_tile4_alexnet", (4, 64, 27, 27), (192, 64, 5, 5), "--padding 2 --kernel winograd_5x5_tile4"),
    ("winograd_6x6_ragged", (2, 40, 31, 29), (70, 40, 3, 3), "--padding 1 --activation relu --kernel winograd_6x6"),
    ("winograd_6x6_large", (2, 256, 56, 56), (256, 256, 3, 3), "--padding 1 --kernel winograd_6x6"),
    ("winograd_4x4_coop_ragged", (2, 40, 31, 29), (70, 40, 3, 3),
     "--padding 1 --activation relu --precision f16 --kernel winograd_4x4_coop --tolerance 1e-2"),
    ("winograd_4x4_coop_unpadded_odd", (1, 64, 57, 33), (96, 64, 3, 3),
     "--precision f16 --kernel winograd_4x4_coop --tolerance 1e-2"),
    ("winograd_4x4_coop_k_slices", (1, 1024, 8, 8), (256, 1024, 3, 3),
     "--padding 1 --precision f16 --kernel winograd_4x4_coop --tolerance 1e-2"),
    ("winograd_4x4_coop_large", (1, 128, 128, 128), (128, 128, 3, 3),
     "--padding 1 --activation clamp:-0.5,0.5 --precision f16 --kernel winograd_4x4_coop --tolerance 1e-2"),
    ("winograd_4x4_coop_wide", (1, 64, 20, 300), (64, 64, 3, 3),
     "--padding 1 --precision f16 --kernel winograd_4x4_coop --tolerance 1e-2"),
    ("winograd_4x4_coop_channels_last_ragged", (2, 40, 31, 29), (70, 40, 3, 3),
     "--padding 1 --activation relu --precision f16 --kernel winograd_4x4_coop --channels-last --tolerance 1e-2"),
    ("winograd_4x4_coop_channels_last_large", (1, 128, 64, 64), (128, 128, 3, 3),
     "--padding 1 --precision f16 --kernel winograd_4x4_coop --channels-last --tolerance 1e-2"),
    # Winograd in one pass (`winograd_fused`): the same f16 roundings as winograd_coop, so the
    # same bound. Ragged tiles (past the last image's) and channels (37 in: a partial step of 16;
    # 70 out: a partial workgroup of 80), no padding at odd sizes, 1024 channels (64 steps), a
    # large layer with clamp; channels-last tensors, ragged and large. Its four workgroup shapes
    # (tiles × channels): 16 × 80 (the ragged ones), 16 × 64 (unpadded_odd, long_k,
    # channels_last_large), 32 × 64 (large, planned), 32 × 80 (the wide_grid ones).
    ("winograd_fused_ragged", (2, 37, 31, 29), (70, 37, 3, 3),
     "--padding 1 --activation relu --precision f16 --kernel winograd_fused --tolerance 3e-3"),
    ("winograd_fused_unpadded_odd", (1, 64, 57, 33), (96, 64, 3, 3), "--precision f16 --kernel winograd_fused --tolerance 3e-3"),
    ("winograd_fused_long_k", (1, 1024, 8, 8), (256, 1024, 3, 3),
     "--padding 1 --precision f16 --kernel winograd_fused --tolerance 3e-3"),
    ("winograd_fused_large", (1, 128, 128, 128), (128, 128, 3, 3),
     "--padding 1 --activation clamp:-0.5,0.5 --precision f16 --kernel winograd_fused --tolerance 3e-3"),
    ("winograd_fused_channels_last_ragged", (2, 37, 31, 29), (70, 37, 3, 3),
     "--padding 1 --activation relu --precision f16 --kernel winograd_fused --channels-last --tolerance 3e-3"),
    ("winograd_fused_channels_last_large", (1, 128, 64, 64), (128, 128, 3, 3),
     "--padding 1 --precision f16 --kernel winograd_fused --channels-last --tolerance 3e-3"),
    # Unforced: R44 plans winograd_fused for 32–128 channels in and out when f16 is allowed.
    ("winograd_fused_planned", (8, 64, 40, 36), (96, 64, 3, 3), "--padding 1 --precision f16 --tolerance 3e-3"),
    ("winograd_fused_wide_grid", (8, 48, 40, 42), (75, 48, 3, 3),
     "--padding 1 --activation relu --precision f16 --tolerance 3e-3"),
    ("winograd_fused_channels_last_wide_grid", (8, 48, 40, 42), (75, 48, 3, 3),
     "--padding 1 --precision f16 --kernel winograd_fused --channels-last --tolerance 3e-3"),
    # … and on channels-last tensors where R45 takes it from coop_nhwc (48 input channels, 23
    # groups of 32 tiles).
    ("winograd_fused_channels_last_planned", (2, 48, 40, 36), (64, 48, 3, 3),
     "--padding 1 --precision f16 --channels-last --tolerance 3e-3"),
    # Unforced: R40 plans winograd_coop for a 3×3 layer of 256 input channels when f16 is allowed.
    ("winograd_coop_planned", (8, 256, 14, 14), (256, 256, 3, 3), "--padding 1 --precision f16 --tolerance 3e-3"),
    # … and on channels-last tensors (R41).
    ("winograd_coop_channels_last_planned", (8, 256, 14, 14), (256, 256, 3, 3),
     "--padding 1 --precision f16 --channels-last --tolerance 3e-3"),
    # R42: also layers R31 leaves to the GEMM kernels (1280 channels on 8×8, 16 columns of tiles),
    # and 128 channels in and out over 128+ columns.
    ("winograd_coop_planned_few_columns", (1, 1280, 8, 8), (1280, 1280, 3, 3), "--padding 1 --precision f16 --tolerance 3e-3"),
    ("winograd_coop_planned_128", (1, 128, 48, 40), (128, 128, 3, 3), "--padding 1 --precision f16 --tolerance 3e-3"),
]
# Every GEMM kernel forced on one padded layer with ragged tiles (96 channels, 30×30): the five
# entry points at their default widths and the two 64-column aliases.
for kernel in ["gemm", "gemm_m64", "gemm_k16", "gemm_m64_k16", "gemm_m64_k32", "gemm_n64_k16", "gemm_n64_k32"]:
    cases.append((f"forced_{kernel}", (4, 64, 30, 30), (96, 64, 3, 3), f"--padding 1 --kernel {kernel}"))
# Tile widths other than the defaults (the `tile_n` override; workgroups of 2·tile_n threads, some
# not a whole number of warps): each K-tile depth, both row counts, A slots partly filled.
for kernel, width in [("gemm", 48), ("gemm_k16", 32), ("gemm_m64", 104), ("gemm_m64_k16", 72), ("gemm_m64_k32", 120)]:
    cases.append((f"forced_{kernel}_n{width}", (4, 64, 30, 30), (96, 64, 3, 3),
                  f"--padding 1 --kernel {kernel} --tile-n {width}"))
# The tensor-core kernel (--precision f16): both tile shapes (up to 64 and 65+ output channels), both
# K-tile depths, split-K
# (26 workgroups, 72 K-tiles), ragged M/N/K with strides, dilation and padding per axis, groups,
# and clamp; forced on a shape the planner gives to it anyway and on a grouped one.
cases += [
    ("coop_pointwise", (8, 64, 14, 14), (256, 64, 1, 1), "--precision f16"),
    ("coop_m64_relu", (2, 16, 30, 30), (64, 16, 3, 3), "--padding 1 --activation relu --precision f16"),
    ("coop_stem", (1, 3, 96, 96), (32, 3, 7, 7), "--stride 4 --padding 3 --precision f16"),
    # Forced: with f16 allowed the planner gives this 256-channel 3×3 layer to winograd_coop (R40).
    ("coop_split_k", (8, 256, 14, 14), (256, 256, 3, 3), "--padding 1 --precision f16 --kernel coop_f16"),
    ("coop_ragged", (3, 37, 13, 11), (70, 37, 3, 2),
     "--padding 1,0 --stride 2,1 --dilation 1,2 --precision f16 --kernel coop_f16"),
    ("coop_groups", (2, 64, 20, 20), (128, 16, 3, 3), "--groups 4 --padding 1 --precision f16 --kernel coop_f16"),
    ("coop_clamp", (2, 128, 16, 16), (300, 128, 1, 1), "--activation clamp:-0.5,0.5 --precision f16"),
    # Grids of more than 132 workgroups: the 16-deep K-tiles, with both tiles (the second ragged).
    ("coop_k16_m64", (2, 16, 130, 130), (64, 16, 3, 3), "--padding 1 --activation relu --precision f16"),
    ("coop_k16_ragged", (2, 32, 95, 97), (128, 32, 3, 3), "--padding 1 --precision f16 --kernel coop_f16"),
    # Added after the last device call (not yet run there): the 16-deep kernel with K (270) and
    # M (100) ragged too.
    ("coop_k16_ragged_mk", (2, 30, 95, 97), (100, 30, 3, 3), "--padding 1 --precision f16"),
    # Transposed convolutions by stride phase: k4 s2 (four phases of 2×2 taps), k3 s2 with output
    # padding (phases of 2×2, 2×1, 1×2 and 1×1 taps) and ragged tiles, groups, k2 s2, and a small
    # grid with long K (K-slices).
    ("coop_transposed_k4s2", (8, 64, 16, 16), (64, 32, 4, 4),
     "--transposed --stride 2 --padding 1 --activation relu --precision f16 --kernel coop_f16"),
    ("coop_transposed_k3s2_ragged", (2, 48, 9, 11), (48, 40, 3, 3),
     "--transposed --stride 2 --padding 1 --output-padding 1 --precision f16 --kernel coop_f16"),
    ("coop_transposed_groups", (2, 64, 10, 10), (64, 24, 4, 4),
     "--transposed --stride 2 --padding 1 --groups 2 --precision f16 --kernel coop_f16"),
    ("coop_transposed_k2s2", (4, 128, 16, 16), (128, 64, 2, 2), "--transposed --stride 2 --precision f16 --kernel coop_f16"),
    ("coop_transposed_split_k", (1, 512, 4, 4), (512, 256, 4, 4),
     "--transposed --stride 2 --padding 1 --precision f16 --kernel coop_f16"),
    # 256 workgroups (the 16-deep entry point, which R29's grids take) with ragged channels; and
    # strides 2, 3 with a 3×1 filter (phases without taps along W: bias only), output padding.
    ("coop_transposed_k16", (16, 96, 32, 32), (96, 40, 2, 2), "--transposed --stride 2 --precision f16 --kernel coop_f16"),
    # The pointwise vec4 stream, whose chunks of 128 vec4s run through the images' planes: 32
    # output channels in 2 blocks of 16 (16 planes of 400 vec4s, 50 chunks, 14 of them across
    # two images), and 96 in 6 blocks over 3 staged chunks of 70 inputs (steps of 8 loads, the
    # last of 6); and 144→24 as R46 plans it (2 blocks of 12, 64 planes of 225 vec4s: 113
    # chunks).
    ("pointwise_vec4_blocks", (16, 48, 40, 40), (32, 48, 1, 1), "--activation relu --kernel pointwise_vec4"),
    ("pointwise_vec4_wide", (4, 70, 20, 20), (96, 70, 1, 1), "--kernel pointwise_vec4"),
    ("pointwise_vec4_planned", (64, 144, 30, 30), (24, 144, 1, 1), ""),
    # Its K-split form: 144→24 (2 blocks of 12) on planes of 784 pixels (196 vec4s: 6 chunks of
    # 32 and a ragged 7th), 36 input channels per K-slice; and the 96-channel case.
    ("pointwise_vec4_split_blocks", (8, 144, 28, 28), (24, 144, 1, 1), "--activation relu --kernel pointwise_vec4_split"),
    ("pointwise_vec4_split_wide", (4, 70, 20, 20), (96, 70, 1, 1), "--kernel pointwise_vec4_split"),
    # The register-blocked direct kernel, forced: YOLOv8n's 16→32 3×3 s2 layer, smaller (rows of
    # 19 columns: runs of 4 ending in one of 3), and a 3-channel 7×7 stem; and planned (R47):
    # YOLOv8n's 3→16 stem at 640², the smallest grid R47 takes.
    ("direct_block_s2", (4, 16, 40, 38), (32, 16, 3, 3), "--stride 2 --padding 1 --activation relu --kernel direct_block"),
    ("direct_block_stem", (2, 3, 64, 61), (24, 3, 7, 7), "--stride 2 --padding 3 --kernel direct_block"),
    ("direct_block_planned", (1, 3, 640, 640), (16, 3, 3, 3), "--stride 2 --padding 1"),
    ("coop_transposed_empty_phases", (2, 32, 6, 5), (32, 24, 3, 1),
     "--transposed --stride 2,3 --padding 1,0 --output-padding 1,2 --precision f16 --kernel coop_f16"),
]
# f16 tensors (.npy <f2, checked against the f16 bound): every tensor-core case above without
# --precision (f16 tensors take the tensor cores as they are; split-K writes f32 partial sums),
# and the fp32 kernels' f16 variants: GEMM with split-K, transposed GEMM, depthwise vec4 (widths
# of whole runs of 8: the 8-wide kernel, with a channel multiplier and on a folded grid) and tiled,
# the few-output-channel kernels.
f16_cases = [(name + "_f16", xs, ws, flags.replace("--precision f16", "").strip())
             for name, xs, ws, flags in cases if name.startswith("coop_")]
f16_cases += [(name + "_f16", xs, ws, flags) for name, xs, ws, flags in cases
              if name in ("gemm_splitk", "gemm_transposed", "depthwise_k7_vec4", "depthwise_k7_tiled", "gemm_stem",
                          "depthwise_s1_multiplier", "depthwise_vec4_long_runs",
                          "transposed_few_oc_rgb", "transposed_few_oc_phases_k3", "few_oc_rgb", "few_oc_ragged_rows",
                          "transposed_few_oc_ragged_rows", "gemv_4_pixels", "gemm_small_ragged",
                          "gemm_small_transposed", "gemm_small_k32_ragged", "gemm_small_k32_transposed",
                          "pointwise_vec4_blocks", "pointwise_vec4_planned", "pointwise_vec4_split_blocks",
                          "direct_block_s2", "depthwise_rows_1d_column", "pointwise_vec4_split_few_oc_planned")]
# The channels-last tensor-core kernel, forced (the CLI's tensors are NCHW: it runs between
# conversions to and from NHWC): 128×128 and 256×64 tiles, ragged pixels and channels, groups,
# stride/dilation/padding per axis, split-K, clamp; on f16 tensors and on f32 ones with f16 allowed.
nhwc_cases = [
    ("nhwc_3x3", (2, 64, 30, 30), (96, 64, 3, 3), "--padding 1 --activation relu"),
    ("nhwc_m64", (2, 32, 33, 35), (40, 32, 3, 3), "--padding 1"),
    ("nhwc_ragged", (3, 48, 13, 11), (70, 48, 3, 2), "--padding 1,0 --stride 2,1 --dilation 1,2"),
    ("nhwc_groups", (2, 64, 20, 20), (128, 16, 3, 3), "--groups 4 --padding 1"),
    ("nhwc_split_k", (8, 256, 14, 14), (256, 256, 3, 3), "--padding 1"),
    ("nhwc_pointwise_clamp", (2, 128, 16, 16), (300, 128, 1, 1), "--activation clamp:-0.5,0.5"),
    # K = 48: a partial K-tile (three quarters of the 128 × 128 tiles' 64-deep one, one and a
    # half of the 256 × 64 tiles' 32-deep ones).
    ("nhwc_k48", (2, 48, 9, 11), (136, 48, 1, 1), ""),
]
f16_cases += [(name + "_f16", xs, ws, flags + " --kernel coop_nhwc") for name, xs, ws, flags in nhwc_cases]
cases += [(name, xs, ws, flags + " --precision f16 --kernel coop_nhwc") for name, xs, ws, flags in nhwc_cases]
for (name, xs, ws, flags), dtype in [(c, np.float32) for c in cases] + [(c, np.float16) for c in f16_cases]:
    x, w = save(name + "_x", f32(*xs).astype(dtype)), save(name + "_w", f32(*ws).astype(dtype))
    groups = int(flags.split("--groups ")[1].split()[0]) if "--groups " in flags else 1
    oc = ws[1] * groups if "--transposed" in flags else ws[0]
    b = save(name + "_b", f32(oc).astype(dtype))
    print(f"conv2d --input {x} --weight {w} --bias {b} {flags} --out {out}/{name}_y.npy --check")

x = save("q8_x", rng.integers(-128, 128, (8, 256, 14, 14), dtype=np.int8))
w = save("q8_w", rng.integers(-127, 128, (512, 256), dtype=np.int8))
s = save("q8_s", rng.uniform(0.001, 0.01, 512).astype(np.float32))
print(f"q8-conv-pw --input {x} --weight {w} --weight-scales {s} --input-scale 0.02 --input-zero-point 3 "
      f"--output-scale 0.5 --output-zero-point -4 --activation relu --out {out}/q8_y.npy --check --bit-exact")

# The int8 GEMM kernels (64- and 32-pixel tiles) and the tensor-core one, each output byte against
# q8_scalar's on the same GPU (--bit-exact):
# (1) random values, ragged tiles (70 channels, 3 × 60 pixels, K 100: a partial K-tile), relu;
# (2) the extremes: x ∈ {−128, 127} with zero point −128 (x − zp ∈ {0, 255}), w ∈ {−128, 127},
#     K 1536 (three 512-channel chunks);
# (3) chunks that cancel: w = +127 on channels 1–1023 and −127 on 1025–2047, x = 127 (x − zp =
#     255) there; w = +1 and −1 on channels 0 and 1024, whose x is random in [−128, −1]. The
#     exact sum is x[0] − x[1024] ∈ [−127, 127], and with every scale 1 the output is that sum;
#     the running sum peaks at 1023 · 32385 ≈ 2^25, where an f32 accumulator without the i32
#     conversion every 512 channels would round away its low bits;
# (4) one chunk at the exact bound: w = −128 and x − zp = 255 on channels 0–511 (the chunk sums
#     to −512 · 32640 = −16 711 680), w = +127 on 512–1023, and channel 1024 (w = 1) random; a
#     bias of 130 432 brings the result back to x[1024] itself.
q8_cases = []  # (name, x, w, weight scales, bias or None, input scale, zero point, output scale, zero point, flags)
x = rng.integers(-128, 128, (3, 100, 6, 10), dtype=np.int8)
w = rng.integers(-128, 128, (70, 100), dtype=np.int8)
q8_cases.append(("q8_random", x, w, rng.uniform(0.001, 0.01, 70), None, 0.02, 3, 0.25, -4, "--activation relu"))
x = np.where(rng.random((2, 1536, 8, 8)) < 0.5, -128, 127).astype(np.int8)
w = np.where(rng.random((136, 1536)) < 0.5, -128, 127).astype(np.int8)
q8_cases.append(("q8_extremes", x, w, np.full(136, 0.01), None, 0.01, -128, 1.0, 5, ""))
x = np.full((2, 2048, 8, 8), 127, dtype=np.int8)
x[:, 0] = rng.integers(-128, 0, (2, 8, 8))
x[:, 1024] = rng.integers(-128, 0, (2, 8, 8))
w = np.concatenate([np.full((72, 1024), 127), np.full((72, 1024), -127)], axis=1).astype(np.int8)
w[:, 0], w[:, 1024] = 1, -1
q8_cases.append(("q8_cancelling_chunks", x, w, np.full(72, 1.0), None, 1.0, -128, 1.0, 0, ""))
x = np.full((2, 1028, 8, 8), 127, dtype=np.int8)
x[:, 1024] = rng.integers(-128, 128, (2, 8, 8))
w = np.zeros((72, 1028), dtype=np.int8)
w[:, :512], w[:, 512:1024], w[:, 1024] = -128, 127, 1
q8_cases.append(("q8_chunk_at_the_bound", x, w, np.full(72, 1.0), np.full(72, 130432.0), 1.0, -128, 1.0, 0, ""))
for name, x, w, scales, bias, in_scale, in_zp, out_scale, out_zp, flags in q8_cases:
    xp, wp = save(name + "_x", x), save(name + "_w", w)
    sp = save(name + "_s", scales.astype(np.float32))
    if bias is not None:
        flags += f" --bias {save(name + '_b', bias.astype(np.float32))}"
    for kernel in ["q8_dot4_gemm", "q8_dot4_gemm_n32", "q8_coop"]:
        print(f"q8-conv-pw --input {xp} --weight {wp} --weight-scales {sp} --input-scale {in_scale} "
              f"--input-zero-point {in_zp} --output-scale {out_scale} --output-zero-point {out_zp} {flags} "
              f"--kernel {kernel} --out {out}/{name}_{kernel}_y.npy --check --bit-exact")
