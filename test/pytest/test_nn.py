"""mlc.nn against numpy references (float32; transcendental tolerance 1e-5)."""

from __future__ import annotations

import math

import numpy as np
import pytest

import mlc
import mlc.nn as nn

RNG = np.random.default_rng(3)
X = (RNG.standard_normal((4, 7)) * 3).astype(np.float32)


def np_softmax(x, axis=-1):
    e = np.exp(x - x.max(axis, keepdims=True))
    return e / e.sum(axis, keepdims=True)


def np_erf(x):
    return np.vectorize(math.erf)(x.astype(np.float64)).astype(np.float32)


CASES = {
    "relu": (nn.relu, lambda x: np.maximum(x, 0)),
    "sigmoid": (nn.sigmoid, lambda x: 1 / (1 + np.exp(-x))),
    "silu": (nn.silu, lambda x: x / (1 + np.exp(-x))),
    "gelu_tanh": (nn.gelu, lambda x: 0.5 * x * (1 + np.tanh(np.sqrt(2 / np.pi) * (x + 0.044715 * x ** 3)))),
    "gelu_exact": (lambda x: nn.gelu(x, approximate=False), lambda x: 0.5 * x * (1 + np_erf(x / np.sqrt(2)))),
    "softmax": (nn.softmax, np_softmax),
    "softmax_axis0": (lambda x: nn.softmax(x, axis=0), lambda x: np_softmax(x, axis=0)),
    "log_softmax": (nn.log_softmax, lambda x: np.log(np_softmax(x))),
    "logsumexp": (nn.logsumexp, lambda x: np.log(np.sum(np.exp(x)))),
    "logsumexp_axis": (lambda x: nn.logsumexp(x, axis=1, keepdims=True),
                       lambda x: np.log(np.sum(np.exp(x), axis=1, keepdims=True))),
    "layer_norm": (nn.layer_norm, lambda x: (x - x.mean(-1, keepdims=True)) / np.sqrt(x.var(-1, keepdims=True) + 1e-5)),
}


@pytest.mark.parametrize("name", CASES)
def test_activation(name):
    fn, reference = CASES[name]
    np.testing.assert_allclose(mlc.jit(fn)(X), reference(X).astype(np.float32), rtol=1e-5, atol=1e-5)


def test_layer_norm_with_scale_and_bias():
    scale, bias = RNG.standard_normal(7).astype(np.float32), RNG.standard_normal(7).astype(np.float32)
    got = mlc.jit(lambda x, s, b: nn.layer_norm(x, s, b))(X, scale, bias)
    want = (X - X.mean(-1, keepdims=True)) / np.sqrt(X.var(-1, keepdims=True) + 1e-5) * scale + bias
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)


def test_logsumexp_of_infinities_and_large_values():
    x = np.array([[1000.0, 1000.0], [-np.inf, -np.inf]], np.float32)
    got = mlc.jit(lambda v: nn.logsumexp(v, axis=1))(x)
    np.testing.assert_allclose(got, [1000.0 + np.log(2.0), -np.inf], rtol=1e-6)


def test_one_hot():
    labels = np.array([0, 2, 1, 3], np.int32)
    got = mlc.jit(lambda v: nn.one_hot(v, 4))(labels)
    np.testing.assert_array_equal(got, np.eye(4, dtype=np.float32)[labels])
