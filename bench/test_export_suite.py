"""Tests of bench/export_suite.py on a small model defined here (needs torch; skipped without it).

    python3 -m unittest bench.test_export_suite -v
"""
import json
import os
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

try:
    import torch
    from torch import nn
    from torch.nn import functional as F
except ImportError:  # pragma: no cover - the CI machine has no torch
    torch = None


def small_model():
    class Small(nn.Module):
        def __init__(self):
            super().__init__()
            self.stem = nn.Conv2d(3, 8, (3, 5), stride=(2, 1), padding=(1, 2), bias=False)
            self.blocks = nn.ModuleList(nn.Conv2d(8, 8, 3, padding=2, dilation=2, groups=4) for _ in range(3))
            self.reflect = nn.Conv2d(8, 8, 3, padding=1, padding_mode="reflect")
            self.up = nn.ConvTranspose2d(8, 4, 3, stride=2, padding=1, output_padding=1)
            self.weight = nn.Parameter(torch.zeros(6, 4, 3, 3))
            self.audio = nn.Conv1d(4, 2, 5, stride=3)
            self.volume = nn.Conv3d(1, 1, 1)

        def forward(self, x):
            x = self.stem(x)
            for block in self.blocks:
                x = block(x)
            x = self.up(self.reflect(x))
            x = F.conv2d(x, self.weight, padding="same")
            self.volume(x[:, :1].unsqueeze(1))
            return self.audio(x[:, :4].flatten(2))

    return Small()


@unittest.skipIf(torch is None, "needs torch")
class ExportSuiteTest(unittest.TestCase):
    def test_every_conv_is_recorded_with_its_count(self):
        from bench.export_suite import export

        layers = export(small_model, [(2, 3, 16, 12)], "small")
        common = {"model": "small"}
        self.assertEqual(layers, [
            {"name": "small_stem", "op": "conv2d", "n": 2, "ic": 3, "oc": 8, "h": 16, "w": 12, "kh": 3, "kw": 5,
             "stride": [2, 1], "padding": [1, 2], "groups": 1, "count": 1, **common},
            {"name": "small_blocks_0", "op": "conv2d", "n": 2, "ic": 8, "oc": 8, "h": 8, "w": 12, "k": 3,
             "stride": 1, "padding": 2, "dilation": 2, "groups": 4, "bias": True, "count": 3, **common},
            # reflect padding runs as F.pad, then a conv without padding on the padded input
            {"name": "small_reflect", "op": "conv2d", "n": 2, "ic": 8, "oc": 8, "h": 10, "w": 14, "k": 3,
             "stride": 1, "padding": 0, "groups": 1, "bias": True, "count": 1, **common},
            {"name": "small_up", "op": "conv_transpose2d", "n": 2, "ic": 8, "oc": 4, "h": 8, "w": 12, "k": 3,
             "stride": 2, "padding": 1, "output_padding": 1, "groups": 1, "bias": True, "count": 1, **common},
            # a functional call is named after the module that made it
            {"name": "small_model", "op": "conv2d", "n": 2, "ic": 4, "oc": 6, "h": 16, "w": 24, "k": 3,
             "stride": 1, "padding": 1, "groups": 1, "count": 1, **common},
            {"name": "small_audio", "op": "conv1d", "n": 2, "ic": 4, "oc": 2, "w": 384, "k": 5,
             "stride": 3, "padding": 0, "groups": 1, "bias": True, "count": 1, **common},
        ])

    def test_what_wgconv_cannot_run_is_reported(self):
        from bench.export_suite import ConvRecorder

        recorder = ConvRecorder()
        with torch.no_grad(), recorder:
            F.conv3d(torch.zeros(1, 1, 2, 2, 2), torch.zeros(1, 1, 1, 1, 1))
            F.conv2d(torch.zeros(1, 1, 4, 4), torch.zeros(1, 1, 2, 2), padding="same")
        self.assertEqual(recorder.layers, {})
        self.assertEqual(len(recorder.skipped), 2)
        self.assertIn("conv3d", recorder.skipped[0])
        self.assertIn("padding='same' with an even filter", recorder.skipped[1])

    def test_the_suite_file_has_its_source_and_loads_as_json(self):
        from bench.export_suite import export, write_suite

        layers = export(small_model, [(1, 3, 8, 8)], "small")
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "small.json")
            write_suite(path, layers, "a test model")
            with open(path) as file:
                suite = json.load(file)
        self.assertEqual(suite["about"], "a test model")
        self.assertEqual(suite["layers"], layers)
        self.assertEqual(len({layer["name"] for layer in layers}), len(layers))

    def test_torch_reference_reads_the_layers_back(self):
        # bench/torch_reference.py's shapes of each recorded layer give the conv the model ran.
        from bench.export_suite import export
        from bench.torch_reference import conv_fn, layer_shape

        # The output shape of each conv as the model ran it, worked out by hand.
        expected = {"small_stem": (2, 8, 8, 12), "small_blocks_0": (2, 8, 8, 12), "small_reflect": (2, 8, 8, 12),
                    "small_up": (2, 4, 16, 24), "small_model": (2, 6, 16, 24), "small_audio": (2, 2, 127)}
        layers = export(small_model, [(2, 3, 16, 12)], "small")
        self.assertEqual({layer["name"] for layer in layers}, set(expected))
        for layer in layers:
            inp, wt, kwargs = layer_shape(layer)
            out = conv_fn(layer)(torch.zeros(inp), torch.zeros(wt), None, **kwargs)
            self.assertEqual(tuple(out.shape), expected[layer["name"]], layer["name"])


if __name__ == "__main__":
    unittest.main()
