"""Conv skeletons of the zoo models that torchvision does not ship, for bench/export_suite.py.

Each function returns an `nn.Module` whose forward runs the model's convolutions in order, with the
channel counts, filters, strides, paddings, groups, biases and spatial sizes of the published
definition named in its docstring. What does not change a conv's shape is left out (normalisation,
activations, attention and MLP math, time embeddings): these modules give conv shapes, not outputs.
"""
import torch
from torch import nn
from torch.nn import functional as F


def cat(*xs):
    """Concatenation along channels."""
    return torch.cat(xs, dim=1)


# --- YOLOv8n -------------------------------------------------------------------------------------

class YoloConv(nn.Module):
    """ultralytics `Conv`: conv (no bias; BN and SiLU follow) with `autopad` = k // 2."""

    def __init__(self, c1, c2, k=1, s=1):
        super().__init__()
        self.conv = nn.Conv2d(c1, c2, k, s, k // 2, bias=False)

    def forward(self, x):
        return self.conv(x)


class Bottleneck(nn.Module):
    """ultralytics `Bottleneck(c, c, shortcut, e=1.0)` inside C2f: two 3×3 convs."""

    def __init__(self, c):
        super().__init__()
        self.cv1, self.cv2 = YoloConv(c, c, 3), YoloConv(c, c, 3)

    def forward(self, x):
        return self.cv2(self.cv1(x))


class C2f(nn.Module):
    """ultralytics `C2f(c1, c2, n, e=0.5)`: split, n bottlenecks, concatenate all, fuse."""

    def __init__(self, c1, c2, n):
        super().__init__()
        self.c = c2 // 2
        self.cv1 = YoloConv(c1, 2 * self.c, 1)
        self.cv2 = YoloConv((2 + n) * self.c, c2, 1)
        self.m = nn.ModuleList(Bottleneck(self.c) for _ in range(n))

    def forward(self, x):
        y = list(self.cv1(x).chunk(2, 1))
        for m in self.m:
            y.append(m(y[-1]))
        return self.cv2(torch.cat(y, 1))


class SPPF(nn.Module):
    """ultralytics `SPPF(c1, c2, k=5)`: 1×1 down to c1/2, three 5×5 max pools, 1×1 fuse."""

    def __init__(self, c1, c2):
        super().__init__()
        self.cv1, self.cv2 = YoloConv(c1, c1 // 2, 1), YoloConv(c1 // 2 * 4, c2, 1)

    def forward(self, x):
        y = [self.cv1(x)]
        for _ in range(3):
            y.append(F.max_pool2d(y[-1], 5, 1, 2))
        return self.cv2(torch.cat(y, 1))


class Detect(nn.Module):
    """ultralytics `Detect(nc=80, ch)`: per level a box branch (to 4 × reg_max 16) and a class branch,
    then the DFL's 1×1 conv over the 16 bins of each box side."""

    def __init__(self, ch, nc=80, reg_max=16):
        super().__init__()
        c2, c3 = max(16, ch[0] // 4, reg_max * 4), max(ch[0], min(nc, 100))
        self.reg_max = reg_max
        self.cv2 = nn.ModuleList(
            nn.Sequential(YoloConv(c, c2, 3), YoloConv(c2, c2, 3), nn.Conv2d(c2, 4 * reg_max, 1)) for c in ch)
        self.cv3 = nn.ModuleList(
            nn.Sequential(YoloConv(c, c3, 3), YoloConv(c3, c3, 3), nn.Conv2d(c3, nc, 1)) for c in ch)
        self.dfl = nn.Conv2d(reg_max, 1, 1, bias=False)

    def forward(self, xs):
        boxes = [self.cv2[i](x).flatten(2) for i, x in enumerate(xs)]
        for i, x in enumerate(xs):
            self.cv3[i](x)
        box = torch.cat(boxes, 2)
        b, _, a = box.shape
        return self.dfl(box.view(b, 4, self.reg_max, a).transpose(2, 1))


class YoloV8(nn.Module):
    """YOLOv8 detection (ultralytics `yolov8.yaml`, width 0.25 and depth 0.33 for `n`) at 640×640."""

    def __init__(self, w=0.25, d=0.33):
        super().__init__()
        c = lambda ch: int(ch * w)  # noqa: E731
        n = lambda reps: max(round(reps * d), 1)  # noqa: E731
        self.b0, self.b1 = YoloConv(3, c(64), 3, 2), YoloConv(c(64), c(128), 3, 2)
        self.b2 = C2f(c(128), c(128), n(3))
        self.b3, self.b4 = YoloConv(c(128), c(256), 3, 2), C2f(c(256), c(256), n(6))
        self.b5, self.b6 = YoloConv(c(256), c(512), 3, 2), C2f(c(512), c(512), n(6))
        self.b7, self.b8 = YoloConv(c(512), c(1024), 3, 2), C2f(c(1024), c(1024), n(3))
        self.b9 = SPPF(c(1024), c(1024))
        self.h12 = C2f(c(1024) + c(512), c(512), n(3))
        self.h15 = C2f(c(512) + c(256), c(256), n(3))
        self.h16, self.h18 = YoloConv(c(256), c(256), 3, 2), C2f(c(256) + c(512), c(512), n(3))
        self.h19, self.h21 = YoloConv(c(512), c(512), 3, 2), C2f(c(512) + c(1024), c(1024), n(3))
        self.detect = Detect((c(256), c(512), c(1024)))

    def forward(self, x):
        up = lambda t: F.interpolate(t, scale_factor=2.0, mode="nearest")  # noqa: E731
        p3 = self.b4(self.b3(self.b2(self.b1(self.b0(x)))))
        p4 = self.b6(self.b5(p3))
        p5 = self.b9(self.b8(self.b7(p4)))
        h12 = self.h12(cat(up(p5), p4))
        h15 = self.h15(cat(up(h12), p3))
        h18 = self.h18(cat(self.h16(h15), h12))
        h21 = self.h21(cat(self.h19(h18), p5))
        return self.detect([h15, h18, h21])


def yolov8n():
    """YOLOv8n at 640×640 (input 3×640×640)."""
    return YoloV8()


# --- Stable Diffusion: VAE decoder and UNet ------------------------------------------------------

class Resnet(nn.Module):
    """diffusers `ResnetBlock2D`: two 3×3 convs and a 1×1 shortcut when the channels change."""

    def __init__(self, cin, cout):
        super().__init__()
        self.conv1 = nn.Conv2d(cin, cout, 3, 1, 1)
        self.conv2 = nn.Conv2d(cout, cout, 3, 1, 1)
        self.conv_shortcut = nn.Conv2d(cin, cout, 1) if cin != cout else None

    def forward(self, x):
        y = self.conv2(self.conv1(x))
        return y + (self.conv_shortcut(x) if self.conv_shortcut is not None else x)


class Upsample(nn.Module):
    """diffusers `Upsample2D`: nearest ×2, then a 3×3 conv."""

    def __init__(self, c):
        super().__init__()
        self.conv = nn.Conv2d(c, c, 3, 1, 1)

    def forward(self, x):
        return self.conv(F.interpolate(x, scale_factor=2.0, mode="nearest"))


class VaeDecoder(nn.Module):
    """Stable Diffusion's VAE decoder (diffusers `AutoencoderKL`, SD 1.x/2.x config: block channels
    128, 256, 512, 512, 2 layers per block, 4 latent channels); its mid-block attention is linear."""

    def __init__(self, channels=(128, 256, 512, 512), layers=2, latent=4):
        super().__init__()
        self.post_quant_conv = nn.Conv2d(latent, latent, 1)
        top = channels[-1]
        self.conv_in = nn.Conv2d(latent, top, 3, 1, 1)
        self.mid = nn.Sequential(Resnet(top, top), Resnet(top, top))
        blocks, cin = [], top
        reversed_channels = list(reversed(channels))
        for i, cout in enumerate(reversed_channels):
            block = [Resnet(cin if j == 0 else cout, cout) for j in range(layers + 1)]
            if i < len(channels) - 1:
                block.append(Upsample(cout))
            blocks.append(nn.Sequential(*block))
            cin = cout
        self.up = nn.Sequential(*blocks)
        self.conv_out = nn.Conv2d(channels[0], 3, 3, 1, 1)

    def forward(self, z):
        return self.conv_out(self.up(self.mid(self.conv_in(self.post_quant_conv(z)))))


def sd_vae_decoder():
    """SD's VAE decoder (input: a 4×64×64 latent for a 512×512 image)."""
    return VaeDecoder()


class Transformer2D(nn.Module):
    """SD 1.5's `Transformer2DModel` as far as convs go: 1×1 `proj_in` and `proj_out` (SD 1.x does not
    use linear projections)."""

    def __init__(self, c):
        super().__init__()
        self.proj_in, self.proj_out = nn.Conv2d(c, c, 1), nn.Conv2d(c, c, 1)

    def forward(self, x):
        return self.proj_out(self.proj_in(x)) + x


class UNet(nn.Module):
    """Stable Diffusion 1.5's UNet (diffusers `UNet2DConditionModel`: block channels 320, 640, 1280,
    1280, 2 layers per block, cross-attention in all but the deepest down block and the first up
    block) on a 64×64 latent: the down and up blocks' resnets with their skip concatenations,
    strided-conv downsamplers, upsamplers and attention projections."""

    def __init__(self, channels=(320, 640, 1280, 1280), layers=2, latent=4):
        super().__init__()
        self.conv_in = nn.Conv2d(latent, channels[0], 3, 1, 1)
        self.down, skips, cin = nn.ModuleList(), [channels[0]], channels[0]
        last = len(channels) - 1
        for i, cout in enumerate(channels):
            resnets = nn.ModuleList(Resnet(cin if j == 0 else cout, cout) for j in range(layers))
            attns = nn.ModuleList(Transformer2D(cout) for _ in range(layers)) if i < last else None
            skips += [cout] * layers
            down = nn.Conv2d(cout, cout, 3, 2, 1) if i < last else None
            if down is not None:
                skips.append(cout)
            self.down.append(nn.ModuleDict({"resnets": resnets, **({"attentions": attns} if attns else {}),
                                            **({"downsampler": down} if down is not None else {})}))
            cin = cout
        self.mid = nn.ModuleDict({"resnet0": Resnet(cin, cin), "attention": Transformer2D(cin),
                                  "resnet1": Resnet(cin, cin)})
        self.up = nn.ModuleList()
        for i, cout in enumerate(reversed(channels)):
            resnets = nn.ModuleList()
            for _ in range(layers + 1):
                resnets.append(Resnet(cin + skips.pop(), cout))
                cin = cout
            attns = nn.ModuleList(Transformer2D(cout) for _ in range(layers + 1)) if i > 0 else None
            up = Upsample(cout) if i < last else None
            self.up.append(nn.ModuleDict({"resnets": resnets, **({"attentions": attns} if attns else {}),
                                          **({"upsampler": up} if up is not None else {})}))
        self.conv_out = nn.Conv2d(channels[0], latent, 3, 1, 1)

    def forward(self, x):
        x = self.conv_in(x)
        skips = [x]
        for block in self.down:
            for j, resnet in enumerate(block["resnets"]):
                x = resnet(x)
                if "attentions" in block:
                    x = block["attentions"][j](x)
                skips.append(x)
            if "downsampler" in block:
                x = block["downsampler"](x)
                skips.append(x)
        x = self.mid["resnet1"](self.mid["attention"](self.mid["resnet0"](x)))
        for block in self.up:
            for j, resnet in enumerate(block["resnets"]):
                x = resnet(cat(x, skips.pop()))
                if "attentions" in block:
                    x = block["attentions"][j](x)
            if "upsampler" in block:
                x = block["upsampler"](x)
        return self.conv_out(x)


def sd15_unet():
    """SD 1.5's UNet (input: a 4×64×64 latent)."""
    return UNet()


# --- DaViT (Florence-2's image encoder) ----------------------------------------------------------

class DaViT(nn.Module):
    """DaViT as Florence-2 base uses it (`davit_base`-like config in Florence-2's modeling code: dims
    128, 256, 512, 1024, depths 1, 1, 9, 1, patch filters 7, 3, 3, 3 with strides 4, 2, 2, 2 and
    paddings 3, 1, 1, 1) on a 768×768 image. Each block is a spatial-window and a channel attention
    block, each with two `ConvPosEnc` depthwise 3×3 convs (with bias); attention and MLPs are linear."""

    def __init__(self, dims=(128, 256, 512, 1024), depths=(1, 1, 9, 1)):
        super().__init__()
        filters, strides, pads = (7, 3, 3, 3), (4, 2, 2, 2), (3, 1, 1, 1)
        self.embeds, self.stages, cin = nn.ModuleList(), nn.ModuleList(), 3
        for dim, depth, k, s, p in zip(dims, depths, filters, strides, pads):
            self.embeds.append(nn.Conv2d(cin, dim, k, s, p))
            self.stages.append(nn.ModuleList(nn.Conv2d(dim, dim, 3, 1, 1, groups=dim) for _ in range(4 * depth)))
            cin = dim

    def forward(self, x):
        for embed, cpes in zip(self.embeds, self.stages):
            x = embed(x)
            for cpe in cpes:
                x = x + cpe(x)
        return x


def davit_florence2():
    """DaViT as in Florence-2 base (input 3×768×768)."""
    return DaViT()


# --- Audio: Whisper's and wav2vec 2.0's conv front ends ------------------------------------------

class WhisperFrontEnd(nn.Module):
    """Whisper's encoder stem (OpenAI `whisper/model.py` `AudioEncoder`): conv1d(n_mels, d, 3, padding=1)
    then conv1d(d, d, 3, stride=2, padding=1), both with bias; `base`: 80 mels, d = 512, 3000 frames."""

    def __init__(self, n_mels=80, d=512):
        super().__init__()
        self.conv1 = nn.Conv1d(n_mels, d, 3, padding=1)
        self.conv2 = nn.Conv1d(d, d, 3, stride=2, padding=1)

    def forward(self, mel):
        return self.conv2(self.conv1(mel))


def whisper_base():
    """Whisper base's conv stem (input: 80 mel bins × 3000 frames)."""
    return WhisperFrontEnd()


class Wav2Vec2FeatureEncoder(nn.Module):
    """wav2vec 2.0 base's feature encoder (fairseq/HF `conv_feature_layers`: 512 channels, filters
    10, 3, 3, 3, 3, 2, 2 with strides 5, 2, 2, 2, 2, 2, 2, no bias) on raw 16 kHz audio."""

    def __init__(self):
        super().__init__()
        spec = [(10, 5)] + [(3, 2)] * 4 + [(2, 2)] * 2
        self.conv_layers = nn.ModuleList(
            nn.Conv1d(1 if i == 0 else 512, 512, k, s, bias=False) for i, (k, s) in enumerate(spec))

    def forward(self, audio):
        x = audio
        for conv in self.conv_layers:
            x = conv(x)
        return x


def wav2vec2_base():
    """wav2vec 2.0 base's feature encoder (input: 1 × samples of 16 kHz audio)."""
    return Wav2Vec2FeatureEncoder()


# --- GAN generators: transposed convs down to RGB ------------------------------------------------

class DCGANGenerator(nn.Module):
    """The DCGAN generator of the PyTorch example (`examples/dcgan`: nz 100, ngf 64, nc 3, no bias):
    transposed convs 4×4 from 1×1 noise to a 64×64 RGB image."""

    def __init__(self, nz=100, ngf=64, nc=3):
        super().__init__()
        chans = [nz, ngf * 8, ngf * 4, ngf * 2, ngf, nc]
        self.main = nn.Sequential(*(
            nn.ConvTranspose2d(a, b, 4, 1 if i == 0 else 2, 0 if i == 0 else 1, bias=False)
            for i, (a, b) in enumerate(zip(chans, chans[1:]))))

    def forward(self, z):
        return self.main(z)


def dcgan_generator():
    """DCGAN's generator (input: 100×1×1 noise)."""
    return DCGANGenerator()


class UnetSkip(nn.Module):
    """pix2pix `UnetSkipConnectionBlock` (batch norm, so no bias but at the outermost up-conv)."""

    def __init__(self, outer, inner, cin=None, sub=None, outermost=False, innermost=False):
        super().__init__()
        cin = cin or outer
        self.down = nn.Conv2d(cin, inner, 4, 2, 1, bias=False)
        up_in = inner if innermost else inner * 2
        self.up = nn.ConvTranspose2d(up_in, outer, 4, 2, 1, bias=outermost)
        self.sub, self.outermost = sub, outermost

    def forward(self, x):
        y = self.down(x)
        if self.sub is not None:
            y = self.sub(y)
        y = self.up(y)
        return y if self.outermost else cat(x, y)


class Pix2PixGenerator(nn.Module):
    """pix2pix's `unet_256` generator (junyanz/pytorch-CycleGAN-and-pix2pix `UnetGenerator`, 8 downs,
    ngf 64, batch norm) on a 256×256 RGB image; the last up-conv writes the 3 RGB channels."""

    def __init__(self, ngf=64, downs=8):
        super().__init__()
        block = UnetSkip(ngf * 8, ngf * 8, innermost=True)
        for _ in range(downs - 5):
            block = UnetSkip(ngf * 8, ngf * 8, sub=block)
        block = UnetSkip(ngf * 4, ngf * 8, sub=block)
        block = UnetSkip(ngf * 2, ngf * 4, sub=block)
        block = UnetSkip(ngf, ngf * 2, sub=block)
        self.model = UnetSkip(3, ngf, cin=3, sub=block, outermost=True)

    def forward(self, x):
        return self.model(x)


def pix2pix_generator():
    """pix2pix's unet_256 generator (input 3×256×256)."""
    return Pix2PixGenerator()
