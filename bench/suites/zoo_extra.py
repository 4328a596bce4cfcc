"""Writes bench/suites/zoo-extra.json: every distinct conv layer, with its count, of 18
architectures in neither zoo file, from their published definitions (torchvision's VGG-16,
AlexNet, ResNet-18, DenseNet-121, Inception-v3, ShuffleNetV2 1.0, SqueezeNet 1.1,
EfficientNetV2-S and DeepLabv3-ResNet-50; the papers' ESRGAN RRDBNet, Mask R-CNN's FPN and
heads, HiFi-GAN V1, Conformer's subsampling and conv module, U-Net, ESPCN, ViT/CLIP/DINOv2/SAM
patch embeddings and SAM's neck, RAFT; grayscale stems). v54 used it to look for weak layer
classes the zoo misses. Its models are split into two halves (named below) so that a rule can be
fitted on one and checked on the other; v54's rules R57-R59 were fitted on weak layers of both.

Run: python3 bench/suites/zoo_extra.py > bench/suites/zoo-extra.json
"""

import json

LAYERS = []


def conv(model, name, n, ic, oc, h, w, k, stride=1, padding=0, dilation=1, groups=1,
         count=1, op="conv2d", bias=False, output_padding=0):
    layer = {"name": f"{model}_{name}", "op": op, "n": n, "ic": ic, "oc": oc}
    if not op.endswith("1d"):
        layer["h"] = h
    layer["w"] = w
    if isinstance(k, tuple):
        layer["kh"], layer["kw"] = k
    elif op.endswith("1d"):
        layer["kw"] = k
    else:
        layer["k"] = k
    for key, value in [("stride", stride), ("padding", padding), ("dilation", dilation),
                       ("output_padding", output_padding)]:
        layer[key] = list(value) if isinstance(value, tuple) else value
    layer.update(groups=groups, bias=bias, count=count, model=model)
    LAYERS.append(layer)


def out(size, k, s, p, d=1):
    return (size + 2 * p - d * (k - 1) - 1) // s + 1


def vgg16(n=16):
    m = f"vgg16_b{n}"
    conv(m, "c1_1", n, 3, 64, 224, 224, 3, padding=1)
    conv(m, "c1_2", n, 64, 64, 224, 224, 3, padding=1)
    conv(m, "c2_1", n, 64, 128, 112, 112, 3, padding=1)
    conv(m, "c2_2", n, 128, 128, 112, 112, 3, padding=1)
    conv(m, "c3_1", n, 128, 256, 56, 56, 3, padding=1)
    conv(m, "c3_2", n, 256, 256, 56, 56, 3, padding=1, count=2)
    conv(m, "c4_1", n, 256, 512, 28, 28, 3, padding=1)
    conv(m, "c4_2", n, 512, 512, 28, 28, 3, padding=1, count=2)
    conv(m, "c5", n, 512, 512, 14, 14, 3, padding=1, count=3)


def alexnet(n=64):
    m = f"alexnet_b{n}"
    conv(m, "c1", n, 3, 64, 224, 224, 11, stride=4, padding=2, bias=True)
    conv(m, "c2", n, 64, 192, 27, 27, 5, padding=2, bias=True)
    conv(m, "c3", n, 192, 384, 13, 13, 3, padding=1, bias=True)
    conv(m, "c4", n, 384, 256, 13, 13, 3, padding=1, bias=True)
    conv(m, "c5", n, 256, 256, 13, 13, 3, padding=1, bias=True)


def resnet18(n=64):
    m = f"resnet18_b{n}"
    conv(m, "conv1", n, 3, 64, 224, 224, 7, stride=2, padding=3)
    conv(m, "layer1", n, 64, 64, 56, 56, 3, padding=1, count=4)
    for i, (c, s) in enumerate([(128, 56), (256, 28), (512, 14)], start=2):
        conv(m, f"layer{i}_0_conv1", n, c // 2, c, s, s, 3, stride=2, padding=1)
        conv(m, f"layer{i}_0_downsample", n, c // 2, c, s, s, 1, stride=2)
        conv(m, f"layer{i}_conv", n, c, c, s // 2, s // 2, 3, padding=1, count=3)


def densenet121(n=32):
    m = f"densenet121_b{n}"
    channels, size = 64, 56
    for block, layers in enumerate([6, 12, 24, 16], start=1):
        for i in range(layers):
            conv(m, f"b{block}_l{i + 1}_conv1", n, channels + 32 * i, 128, size, size, 1)
        conv(m, f"b{block}_conv2", n, 128, 32, size, size, 3, padding=1, count=layers)
        channels += 32 * layers
        if block < 4:
            conv(m, f"transition{block}", n, channels, channels // 2, size, size, 1)
            channels //= 2
            size //= 2


def inception_v3(n=32):
    m = f"inception_v3_b{n}"
    conv(m, "1a", n, 3, 32, 299, 299, 3, stride=2)
    conv(m, "2a", n, 32, 32, 149, 149, 3)
    conv(m, "2b", n, 32, 64, 147, 147, 3, padding=1)
    conv(m, "3b", n, 64, 80, 73, 73, 1)
    conv(m, "4a", n, 80, 192, 73, 73, 3)
    for name, cin, pool in [("5b", 192, 32), ("5c", 256, 64), ("5d", 288, 64)]:
        conv(m, f"{name}_1x1", n, cin, 64, 35, 35, 1, count=3 if pool == 64 else 2)
        if pool == 32:
            conv(m, f"{name}_pool", n, cin, 32, 35, 35, 1)
        conv(m, f"{name}_5x5_1", n, cin, 48, 35, 35, 1)
    conv(m, "5x_5x5_2", n, 48, 64, 35, 35, 5, padding=2, count=3)
    conv(m, "5x_dbl_2", n, 64, 96, 35, 35, 3, padding=1, count=4)
    conv(m, "5x_dbl_3", n, 96, 96, 35, 35, 3, padding=1, count=3)
    conv(m, "6a_3x3", n, 288, 384, 35, 35, 3, stride=2)
    conv(m, "6a_dbl_1", n, 288, 64, 35, 35, 1)
    conv(m, "6a_dbl_3", n, 96, 96, 35, 35, 3, stride=2)
    for name, c7 in [("6b", 128), ("6cd", 160), ("6e", 192)]:
        count = 2 if name == "6cd" else 1
        # 6e's 7x7 branches open with 768 -> 192 too: four such 1x1 convs, not two.
        conv(m, f"{name}_1x1", n, 768, 192, 17, 17, 1, count=2 * count if c7 != 192 else 4)
        if c7 != 192:
            conv(m, f"{name}_7x7_1", n, 768, c7, 17, 17, 1, count=2 * count)
            conv(m, f"{name}_1x7", n, c7, c7, 17, 17, (1, 7), padding=(0, 3), count=2 * count)
            conv(m, f"{name}_7x1", n, c7, c7, 17, 17, (7, 1), padding=(3, 0), count=2 * count)
            conv(m, f"{name}_1x7_out", n, c7, 192, 17, 17, (1, 7), padding=(0, 3), count=count)
            conv(m, f"{name}_7x1_out", n, c7, 192, 17, 17, (7, 1), padding=(3, 0), count=count)
        else:
            conv(m, f"{name}_1x7", n, c7, c7, 17, 17, (1, 7), padding=(0, 3), count=3)
            conv(m, f"{name}_7x1", n, c7, c7, 17, 17, (7, 1), padding=(3, 0), count=3)
    conv(m, "7a_1x1", n, 768, 192, 17, 17, 1, count=2)
    conv(m, "7a_3x3_2", n, 192, 320, 17, 17, 3, stride=2)
    conv(m, "7a_1x7", n, 192, 192, 17, 17, (1, 7), padding=(0, 3))
    conv(m, "7a_7x1", n, 192, 192, 17, 17, (7, 1), padding=(3, 0))
    conv(m, "7a_dbl_3", n, 192, 192, 17, 17, 3, stride=2)
    for name, cin in [("7b", 1280), ("7c", 2048)]:
        conv(m, f"{name}_1x1", n, cin, 320, 8, 8, 1)
        conv(m, f"{name}_3x3_1", n, cin, 384, 8, 8, 1)
        conv(m, f"{name}_dbl_1", n, cin, 448, 8, 8, 1)
        conv(m, f"{name}_pool", n, cin, 192, 8, 8, 1)
    conv(m, "7x_1x3", n, 384, 384, 8, 8, (1, 3), padding=(0, 1), count=4)
    conv(m, "7x_3x1", n, 384, 384, 8, 8, (3, 1), padding=(1, 0), count=4)
    conv(m, "7x_dbl_2", n, 448, 384, 8, 8, 3, padding=1, count=2)


def shufflenet_v2(n=64):
    m = f"shufflenet_v2_b{n}"
    conv(m, "conv1", n, 3, 24, 224, 224, 3, stride=2, padding=1)
    cin, size = 24, 56
    for stage, (c, repeats) in enumerate([(116, 4), (232, 8), (464, 4)], start=2):
        half = c // 2
        conv(m, f"s{stage}_b1_dw", n, cin, cin, size, size, 3, stride=2, padding=1, groups=cin)
        conv(m, f"s{stage}_b1_pw", n, cin, half, size // 2, size // 2, 1)
        conv(m, f"s{stage}_b2_pw1_first", n, cin, half, size, size, 1)
        size //= 2
        conv(m, f"s{stage}_b2_dw_first", n, half, half, size * 2, size * 2, 3, stride=2,
             padding=1, groups=half)
        conv(m, f"s{stage}_pw", n, half, half, size, size, 1, count=2 * repeats - 1)
        conv(m, f"s{stage}_dw", n, half, half, size, size, 3, padding=1, groups=half,
             count=repeats - 1)
        cin = c
    conv(m, "conv5", n, 464, 1024, 7, 7, 1)


def squeezenet(n=64):
    m = f"squeezenet1_1_b{n}"
    conv(m, "conv1", n, 3, 64, 224, 224, 3, stride=2, bias=True)
    for name, cin, squeeze, expand, size in [("fire2", 64, 16, 64, 55), ("fire3", 128, 16, 64, 55),
                                             ("fire4", 128, 32, 128, 27), ("fire5", 256, 32, 128, 27),
                                             ("fire6", 256, 48, 192, 13), ("fire7", 384, 48, 192, 13),
                                             ("fire8", 384, 64, 256, 13), ("fire9", 512, 64, 256, 13)]:
        conv(m, f"{name}_squeeze", n, cin, squeeze, size, size, 1, bias=True)
        if name in ("fire2", "fire4", "fire6", "fire8"):
            count = 2
            conv(m, f"{name}_expand1x1", n, squeeze, expand, size, size, 1, bias=True, count=count)
            conv(m, f"{name}_expand3x3", n, squeeze, expand, size, size, 3, padding=1, bias=True,
                 count=count)
    conv(m, "classifier", n, 512, 1000, 13, 13, 1, bias=True)


def efficientnet_v2_s(n=16):
    m = f"efficientnet_v2_s_b{n}"
    conv(m, "stem", n, 3, 24, 384, 384, 3, stride=2, padding=1)
    conv(m, "s1", n, 24, 24, 192, 192, 3, padding=1, count=2)
    size = 192
    for stage, (cin, cout, blocks) in enumerate([(24, 48, 4), (48, 64, 4)], start=2):
        conv(m, f"s{stage}_0_expand", n, cin, cin * 4, size, size, 3, stride=2, padding=1)
        size //= 2
        conv(m, f"s{stage}_0_project", n, cin * 4, cout, size, size, 1)
        conv(m, f"s{stage}_expand", n, cout, cout * 4, size, size, 3, padding=1, count=blocks - 1)
        conv(m, f"s{stage}_project", n, cout * 4, cout, size, size, 1, count=blocks - 1)
    for stage, (cin, cout, expand, blocks, stride) in enumerate(
            [(64, 128, 4, 6, 2), (128, 160, 6, 9, 1), (160, 256, 6, 15, 2)], start=4):
        hidden = cin * expand
        conv(m, f"s{stage}_0_expand", n, cin, hidden, size, size, 1)
        conv(m, f"s{stage}_0_dw", n, hidden, hidden, size, size, 3, stride=stride, padding=1,
             groups=hidden)
        size //= stride
        conv(m, f"s{stage}_0_project", n, hidden, cout, size, size, 1)
        hidden = cout * expand
        conv(m, f"s{stage}_expand", n, cout, hidden, size, size, 1, count=blocks - 1)
        conv(m, f"s{stage}_dw", n, hidden, hidden, size, size, 3, padding=1, groups=hidden,
             count=blocks - 1)
        conv(m, f"s{stage}_project", n, hidden, cout, size, size, 1, count=blocks - 1)
    conv(m, "head", n, 256, 1280, size, size, 1)


def deeplabv3(n=4):
    m = f"deeplabv3_resnet50_b{n}"
    s = 64  # 512 x 512 input, output stride 8
    conv(m, "layer3_0_conv1", n, 512, 256, s, s, 1)
    conv(m, "layer3_conv1", n, 1024, 256, s, s, 1, count=5)
    conv(m, "layer3_0_conv2", n, 256, 256, s, s, 3, padding=1)
    conv(m, "layer3_conv2_d2", n, 256, 256, s, s, 3, padding=2, dilation=2, count=5)
    conv(m, "layer3_conv3", n, 256, 1024, s, s, 1, count=6)
    conv(m, "layer3_downsample", n, 512, 1024, s, s, 1)
    conv(m, "layer4_0_conv1", n, 1024, 512, s, s, 1)
    conv(m, "layer4_conv1", n, 2048, 512, s, s, 1, count=2)
    conv(m, "layer4_0_conv2_d2", n, 512, 512, s, s, 3, padding=2, dilation=2)
    conv(m, "layer4_conv2_d4", n, 512, 512, s, s, 3, padding=4, dilation=4, count=2)
    conv(m, "layer4_conv3", n, 512, 2048, s, s, 1, count=3)
    conv(m, "layer4_downsample", n, 1024, 2048, s, s, 1)
    conv(m, "aspp_1x1", n, 2048, 256, s, s, 1)
    for d in (12, 24, 36):
        conv(m, f"aspp_d{d}", n, 2048, 256, s, s, 3, padding=d, dilation=d)
    conv(m, "aspp_project", n, 1280, 256, s, s, 1)
    conv(m, "head", n, 256, 256, s, s, 3, padding=1)
    conv(m, "classifier", n, 256, 21, s, s, 1, bias=True)


def mask_rcnn_fpn(n=2):
    m = f"mask_rcnn_fpn_b{n}"
    levels = [(256, 200, 272), (512, 100, 136), (1024, 50, 68), (2048, 25, 34)]
    for i, (cin, h, w) in enumerate(levels, start=2):
        conv(m, f"lateral_p{i}", n, cin, 256, h, w, 1, bias=True)
        conv(m, f"output_p{i}", n, 256, 256, h, w, 3, padding=1, bias=True)
        conv(m, f"rpn_p{i}", n, 256, 256, h, w, 3, padding=1, bias=True)
        conv(m, f"rpn_cls_p{i}", n, 256, 3, h, w, 1, bias=True)
        conv(m, f"rpn_bbox_p{i}", n, 256, 12, h, w, 1, bias=True)
    conv(m, "mask_head", 100 * n, 256, 256, 14, 14, 3, padding=1, bias=True, count=4)
    conv(m, "mask_upsample", 100 * n, 256, 256, 14, 14, 2, stride=2, bias=True,
         op="conv_transpose2d")
    conv(m, "mask_logits", 100 * n, 256, 91, 28, 28, 1, bias=True)


def hifigan_v1(n=4, frames=256):
    m = f"hifigan_v1_b{n}"
    conv(m, "conv_pre", n, 80, 512, 0, frames, 7, padding=3, bias=True, op="conv1d")
    channels, length = 512, frames
    for i, (k, s) in enumerate([(16, 8), (16, 8), (4, 2), (4, 2)]):
        conv(m, f"up{i}", n, channels, channels // 2, 0, length, k, stride=s, padding=(k - s) // 2,
             bias=True, op="conv_transpose1d")
        channels //= 2
        length *= s
        for kernel in (3, 7, 11):
            for d in (1, 3, 5):
                conv(m, f"up{i}_res_k{kernel}_d{d}", n, channels, channels, 0, length, kernel,
                     padding=d * (kernel - 1) // 2, dilation=d, bias=True, op="conv1d",
                     count=4 if d == 1 else 1)
    conv(m, "conv_post", n, channels, 1, 0, length, 7, padding=3, bias=True, op="conv1d")


def conformer(n=16, frames=1000, d_model=256):
    m = f"conformer_m_b{n}"
    conv(m, "subsample_1", n, 1, d_model, frames, 80, 3, stride=2, bias=True)
    t1, f1 = out(frames, 3, 2, 0), out(80, 3, 2, 0)
    conv(m, "subsample_2", n, d_model, d_model, t1, f1, 3, stride=2, bias=True)
    t = out(t1, 3, 2, 0)
    conv(m, "pointwise_1", n, d_model, 2 * d_model, 0, t, 1, bias=True, op="conv1d", count=16)
    conv(m, "depthwise", n, d_model, d_model, 0, t, 31, padding=15, groups=d_model, bias=True,
         op="conv1d", count=16)
    conv(m, "pointwise_2", n, d_model, d_model, 0, t, 1, bias=True, op="conv1d", count=16)


def esrgan(n, size=128):
    m = f"esrgan_x4_b{n}"
    conv(m, "conv_first", n, 3, 64, size, size, 3, padding=1, bias=True)
    for i, cin in enumerate([64, 96, 128, 160], start=1):
        conv(m, f"rdb_conv{i}", n, cin, 32, size, size, 3, padding=1, bias=True, count=69)
    conv(m, "rdb_conv5", n, 192, 64, size, size, 3, padding=1, bias=True, count=69)
    conv(m, "trunk", n, 64, 64, size, size, 3, padding=1, bias=True)
    conv(m, "upconv1", n, 64, 64, 2 * size, 2 * size, 3, padding=1, bias=True)
    conv(m, "upconv2", n, 64, 64, 4 * size, 4 * size, 3, padding=1, bias=True, count=2)
    conv(m, "conv_last", n, 64, 3, 4 * size, 4 * size, 3, padding=1, bias=True)


def unet(n=4, size=256):
    m = f"unet_gray_b{n}"
    cin = 1
    for level, c in enumerate([64, 128, 256, 512, 1024]):
        s = size >> level
        conv(m, f"down{level}_a", n, cin, c, s, s, 3, padding=1)
        conv(m, f"down{level}_b", n, c, c, s, s, 3, padding=1)
        cin = c
    for level, c in reversed(list(enumerate([64, 128, 256, 512]))):
        s = size >> (level + 1)
        conv(m, f"up{level}_transpose", n, 2 * c, c, s, s, 2, stride=2, op="conv_transpose2d")
        conv(m, f"up{level}_a", n, 2 * c, c, 2 * s, 2 * s, 3, padding=1)
        conv(m, f"up{level}_b", n, c, c, 2 * s, 2 * s, 3, padding=1)
    conv(m, "out", n, 64, 2, size, size, 1, bias=True)


def espcn(n=16, size=224):
    m = f"espcn_x3_b{n}"
    conv(m, "conv1", n, 1, 64, size, size, 5, padding=2, bias=True)
    conv(m, "conv2", n, 64, 32, size, size, 3, padding=1, bias=True)
    conv(m, "conv3", n, 32, 9, size, size, 3, padding=1, bias=True)


def patch_embeddings():
    conv("vit_b16_b32", "patch_embed", 32, 3, 768, 224, 224, 16, stride=16, bias=True)
    conv("clip_vit_l14_b32", "patch_embed", 32, 3, 1024, 224, 224, 14, stride=14)
    conv("dinov2_vit_s14_b16", "patch_embed", 16, 3, 384, 518, 518, 14, stride=14, bias=True)
    m = "sam_vit_h_b1"
    conv(m, "patch_embed", 1, 3, 1280, 1024, 1024, 16, stride=16, bias=True)
    conv(m, "neck_1x1", 1, 1280, 256, 64, 64, 1)
    conv(m, "neck_3x3", 1, 256, 256, 64, 64, 3, padding=1)
    conv(m, "mask_down_1", 1, 1, 4, 256, 256, 2, stride=2, bias=True)
    conv(m, "mask_down_2", 1, 4, 16, 128, 128, 2, stride=2, bias=True)
    conv(m, "mask_down_3", 1, 16, 256, 64, 64, 1, bias=True)
    conv(m, "upscale_1", 1, 256, 64, 64, 64, 2, stride=2, bias=True, op="conv_transpose2d")
    conv(m, "upscale_2", 1, 64, 32, 128, 128, 2, stride=2, bias=True, op="conv_transpose2d")


def gray_stems():
    conv("gray_resnet_b16", "stem", 16, 1, 64, 224, 224, 7, stride=2, padding=3)
    conv("gray_resnet_b1", "stem", 1, 1, 64, 512, 512, 7, stride=2, padding=3)
    conv("lenet5_b256", "c1", 256, 1, 6, 32, 32, 5, bias=True)
    conv("lenet5_b256", "c3", 256, 6, 16, 14, 14, 5, bias=True)
    conv("gray_medical_b8", "stem", 8, 1, 32, 256, 256, 3, padding=1, bias=True)


def raft(n=8, h=368, w=496):
    m = f"raft_b{n}"
    for enc in ("fnet", "cnet"):
        count = 2 if enc == "fnet" else 1  # the feature encoder runs on both frames
        conv(m, f"{enc}_conv1", n, 3, 64, h, w, 7, stride=2, padding=3, bias=True, count=count)
    h2, w2 = h // 2, w // 2
    conv(m, "enc_layer1", n, 64, 64, h2, w2, 3, padding=1, bias=True, count=12)
    conv(m, "enc_layer2_0", n, 64, 96, h2, w2, 3, stride=2, padding=1, bias=True, count=3)
    conv(m, "enc_layer2_ds", n, 64, 96, h2, w2, 1, stride=2, bias=True, count=3)
    conv(m, "enc_layer2", n, 96, 96, h2 // 2, w2 // 2, 3, padding=1, bias=True, count=9)
    conv(m, "enc_layer3_0", n, 96, 128, h2 // 2, w2 // 2, 3, stride=2, padding=1, bias=True, count=3)
    conv(m, "enc_layer3_ds", n, 96, 128, h2 // 2, w2 // 2, 1, stride=2, bias=True, count=3)
    h8, w8 = h // 8, w // 8
    conv(m, "enc_layer3", n, 128, 128, h8, w8, 3, padding=1, bias=True, count=9)
    conv(m, "enc_out", n, 128, 256, h8, w8, 1, bias=True, count=3)
    iters = 12
    conv(m, "convc1", n, 324, 256, h8, w8, 1, bias=True, count=iters)
    conv(m, "convc2", n, 256, 192, h8, w8, 3, padding=1, bias=True, count=iters)
    conv(m, "convf1", n, 2, 128, h8, w8, 7, padding=3, bias=True, count=iters)
    conv(m, "convf2", n, 128, 64, h8, w8, 3, padding=1, bias=True, count=iters)
    conv(m, "motion_conv", n, 256, 126, h8, w8, 3, padding=1, bias=True, count=iters)
    conv(m, "gru_1x5", n, 384, 128, h8, w8, (1, 5), padding=(0, 2), bias=True, count=3 * iters)
    conv(m, "gru_5x1", n, 384, 128, h8, w8, (5, 1), padding=(2, 0), bias=True, count=3 * iters)
    conv(m, "flow_head_1", n, 128, 256, h8, w8, 3, padding=1, bias=True, count=iters)
    conv(m, "flow_head_2", n, 256, 2, h8, w8, 3, padding=1, bias=True, count=iters)
    conv(m, "mask_1", n, 128, 256, h8, w8, 3, padding=1, bias=True)
    conv(m, "mask_2", n, 256, 576, h8, w8, 1, bias=True)


FIT = [vgg16, resnet18, inception_v3, squeezenet, deeplabv3, hifigan_v1, unet, patch_embeddings,
       raft]
HELD_OUT = [alexnet, densenet121, shufflenet_v2, efficientnet_v2_s, mask_rcnn_fpn, conformer,
            lambda: esrgan(1), lambda: esrgan(4), espcn, gray_stems]

if __name__ == "__main__":
    for build in FIT:
        build()
    fit_models = sorted({layer["model"] for layer in LAYERS})
    for build in HELD_OUT:
        build()
    held_out = sorted({layer["model"] for layer in LAYERS} - set(fit_models))
    about = " ".join(__doc__.split("\n\nRun:")[0].split())
    about += f" Fit half: {', '.join(fit_models)}. Held-out half: {', '.join(held_out)}."
    print(json.dumps({"about": about, "layers": LAYERS}, indent=0))
