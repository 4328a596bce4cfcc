"""Tests of bench/ort_webgpu_reference.py's graphs on ONNX Runtime's CPU provider against PyTorch
(needs onnxruntime, onnx, numpy and torch; skipped without them).

    python3 -m unittest bench.test_ort_webgpu_reference -v
"""
import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

try:
    import numpy as np
    import onnxruntime as ort
    import torch
    from onnx import numpy_helper
except ImportError:  # pragma: no cover - the CI machine has none of them
    ort = None

LAYERS = [
    {"name": "rect", "op": "conv2d", "n": 2, "ic": 4, "oc": 6, "h": 9, "w": 7, "kh": 3, "kw": 5, "stride": [2, 1],
     "padding": [1, 2], "dilation": [1, 2], "groups": 2, "bias": True, "activation": "relu"},
    {"name": "up", "op": "conv_transpose2d", "n": 1, "ic": 4, "oc": 3, "h": 5, "w": 6, "k": 4, "stride": 2,
     "padding": 1, "output_padding": 1, "activation": "clamp:-1,1"},
    {"name": "audio", "op": "conv1d", "n": 1, "ic": 2, "oc": 4, "w": 50, "k": 10, "stride": 5},
]


@unittest.skipIf(ort is None, "needs onnxruntime, onnx, numpy and torch")
class LayerGraphTest(unittest.TestCase):
    def test_each_parallel_conv_computes_the_layer(self):
        from bench.ort_webgpu_reference import layer_graph
        from bench.torch_reference import activation_fn, conv_fn, layer_shape

        for layer in LAYERS:
            for nhwc in (False, True):
                model, _ = layer_graph(layer, 3, nhwc, np.random.default_rng(1))
                inits = {t.name: torch.from_numpy(numpy_helper.to_array(t).copy()) for t in model.graph.initializer}
                sess = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
                outs = sess.run(None, {})
                self.assertEqual(len(outs), 3)
                _, _, kwargs = layer_shape(layer)
                for i, out in enumerate(outs):
                    want = activation_fn(layer)(conv_fn(layer)(inits["x"], inits[f"w{i}"], inits.get(f"b{i}"), **kwargs))
                    if nhwc:
                        want = want.movedim(1, -1)
                    np.testing.assert_allclose(out, want.numpy(), rtol=1e-4, atol=1e-4, err_msg=layer["name"])


if __name__ == "__main__":
    unittest.main()
