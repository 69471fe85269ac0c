#!/usr/bin/env python3
"""Builds the model example's network and its reference result (run at build time).

A ResNet-18-shaped CNN at half width (stem 7x7/2 conv with 32 channels, max pool, four
stages of two basic blocks with 32, 64, 128 and 256 channels, global average pool, a
1000-way classifier and a softmax) on a 1x3x224x224 NCHW input, with seeded random
weights, written as ONNX (opset 13) with Debian's python3-onnx. The expected outputs are
computed independently here with numpy (float64, direct formulas), not by any ONNX runtime.

Usage: make_resnet.py OUT_DIR  ->  resnet18.onnx, input.bin, logits.bin, prob.bin
(raw little-endian float32).
"""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

RNG = np.random.RandomState(2026)
EPS = 1e-5


class Builder:
    def __init__(self):
        self.nodes = []
        self.inits = []
        self.count = 0

    def name(self, prefix):
        self.count += 1
        return f"{prefix}_{self.count}"

    def const(self, prefix, value):
        name = self.name(prefix)
        self.inits.append(numpy_helper.from_array(value.astype(np.float32), name))
        return name

    def node(self, op, inputs, **attrs):
        out = self.name(op.lower())
        self.nodes.append(helper.make_node(op, inputs, [out], name=out + "_node", **attrs))
        return out


def conv_ref(x, w, stride, pad):
    n, c, h, wd = x.shape
    o, _, kh, kw = w.shape
    xp = np.pad(x, ((0, 0), (0, 0), (pad, pad), (pad, pad)))
    ho = (h + 2 * pad - kh) // stride + 1
    wo = (wd + 2 * pad - kw) // stride + 1
    win = np.lib.stride_tricks.sliding_window_view(xp, (kh, kw), axis=(2, 3))
    win = win[:, :, ::stride, ::stride][:, :, :ho, :wo]  # n c ho wo kh kw
    return np.einsum("nchwij,ocij->nohw", win, w, optimize=True)


def bn_ref(x, gamma, beta, mean, var):
    shape = (1, -1, 1, 1)
    return (x - mean.reshape(shape)) / np.sqrt(var.reshape(shape) + EPS) * gamma.reshape(
        shape) + beta.reshape(shape)


def maxpool_ref(x, k, stride, pad):
    xp = np.pad(x, ((0, 0), (0, 0), (pad, pad), (pad, pad)), constant_values=-np.inf)
    ho = (x.shape[2] + 2 * pad - k) // stride + 1
    wo = (x.shape[3] + 2 * pad - k) // stride + 1
    win = np.lib.stride_tricks.sliding_window_view(xp, (k, k), axis=(2, 3))
    return win[:, :, ::stride, ::stride][:, :, :ho, :wo].max(axis=(4, 5))


def conv_bn(b, x, xr, cin, cout, k, stride, relu):
    """Conv (no bias) + BatchNormalization (+ Relu) in ONNX and in numpy."""
    fan_in = cin * k * k
    w = RNG.normal(0, np.sqrt(2.0 / fan_in), (cout, cin, k, k))
    gamma = RNG.uniform(0.5, 1.5, cout)
    beta = RNG.normal(0, 0.1, cout)
    mean = RNG.normal(0, 0.1, cout)
    var = RNG.uniform(0.5, 1.5, cout)
    pad = k // 2
    y = b.node("Conv", [x, b.const("w", w)], kernel_shape=[k, k], strides=[stride, stride],
               pads=[pad] * 4)
    y = b.node("BatchNormalization",
               [y, b.const("gamma", gamma), b.const("beta", beta), b.const("mean", mean),
                b.const("var", var)], epsilon=EPS)
    # The reference sees the float32 weights the model holds.
    f32 = lambda a: a.astype(np.float32).astype(np.float64)
    yr = bn_ref(conv_ref(xr, f32(w), stride, pad), f32(gamma), f32(beta), f32(mean), f32(var))
    if relu:
        y = b.node("Relu", [y])
        yr = np.maximum(yr, 0)
    return y, yr


def basic_block(b, x, xr, cin, cout, stride):
    y, yr = conv_bn(b, x, xr, cin, cout, 3, stride, True)
    y, yr = conv_bn(b, y, yr, cout, cout, 3, 1, False)
    if stride != 1 or cin != cout:
        s, sr = conv_bn(b, x, xr, cin, cout, 1, stride, False)
    else:
        s, sr = x, xr
    y = b.node("Add", [y, s])
    y = b.node("Relu", [y])
    return y, np.maximum(yr + sr, 0)


def main():
    out_dir = sys.argv[1]
    os.makedirs(out_dir, exist_ok=True)
    b = Builder()
    x = RNG.uniform(-1, 1, (1, 3, 224, 224)).astype(np.float32)
    y, yr = conv_bn(b, "input", x.astype(np.float64), 3, 32, 7, 2, True)
    y = b.node("MaxPool", [y], kernel_shape=[3, 3], strides=[2, 2], pads=[1, 1, 1, 1])
    yr = maxpool_ref(yr, 3, 2, 1)
    cin = 32
    for cout, stride in ((32, 1), (64, 2), (128, 2), (256, 2)):
        y, yr = basic_block(b, y, yr, cin, cout, stride)
        y, yr = basic_block(b, y, yr, cout, cout, 1)
        cin = cout
    y = b.node("GlobalAveragePool", [y])
    yr = yr.mean(axis=(2, 3), keepdims=True)
    y = b.node("Flatten", [y], axis=1)
    yr = yr.reshape(1, -1)
    fc_w = RNG.normal(0, 1.0, (1000, cin))
    fc_w *= 2.0 / (yr @ fc_w.T).std()  # logits of a few units: a softmax with a real spread
    fc_b = RNG.normal(0, 0.01, 1000)
    logits = b.node("Gemm", [y, b.const("fc_w", fc_w), b.const("fc_b", fc_b)], transB=1)
    logits_r = yr @ fc_w.astype(np.float32).astype(np.float64).T + fc_b.astype(
        np.float32).astype(np.float64)
    b.nodes[-1].output[0] = "logits"
    prob = b.node("Softmax", ["logits"], axis=1)
    b.nodes[-1].output[0] = "prob"
    e = np.exp(logits_r - logits_r.max(axis=1, keepdims=True))
    prob_r = e / e.sum(axis=1, keepdims=True)

    graph = helper.make_graph(
        b.nodes, "resnet18_half",
        [helper.make_tensor_value_info("input", TensorProto.FLOAT, [1, 3, 224, 224])],
        [helper.make_tensor_value_info("logits", TensorProto.FLOAT, [1, 1000]),
         helper.make_tensor_value_info("prob", TensorProto.FLOAT, [1, 1000])],
        b.inits)
    model = helper.make_model(graph, producer_name="aclsim-example",
                              opset_imports=[helper.make_opsetid("", 13)])
    onnx.checker.check_model(model)
    onnx.save(model, os.path.join(out_dir, "resnet18.onnx"))
    x.tofile(os.path.join(out_dir, "input.bin"))
    logits_r.astype(np.float32).tofile(os.path.join(out_dir, "logits.bin"))
    prob_r.astype(np.float32).tofile(os.path.join(out_dir, "prob.bin"))
    del logits, prob


if __name__ == "__main__":
    main()
