"""mlc.nn's jax.nn activations against numpy formulas, on odd and empty shapes, float32
and float64, with their gradients where JAX defines a convention (relu6 at 0 and 6).
Tolerances (rtol = atol): float32 2e-6, float64 1e-12."""

from __future__ import annotations

import zlib

import numpy as np
import pytest

import mlc
import mlc.nn as nn
import mlc.numpy as mnp

TOL = {np.dtype(np.float32): 2e-6, np.dtype(np.float64): 1e-12}
ALPHA, SCALE = 1.6732632423543772848170429916717, 1.0507009873554804934193349852946


def _softplus(x):
    return np.logaddexp(x, 0)


REFERENCE = {
    "softplus": _softplus,
    "log_sigmoid": lambda x: -_softplus(-x),
    "leaky_relu": lambda x: np.where(x >= 0, x, 0.01 * x),
    "elu": lambda x: np.where(x > 0, x, np.expm1(np.minimum(x, 0))),
    "celu": lambda x: np.maximum(x, 0) + np.expm1(np.minimum(x, 0)),
    "selu": lambda x: SCALE * np.where(x > 0, x, ALPHA * np.expm1(np.minimum(x, 0))),
    "swish": lambda x: x / (1 + np.exp(-x)),
    "relu6": lambda x: np.clip(x, 0, 6),
    "hard_tanh": lambda x: np.clip(x, -1, 1),
    "hard_sigmoid": lambda x: np.clip(x + 3, 0, 6) / 6,
    "hard_silu": lambda x: x * np.clip(x + 3, 0, 6) / 6,
    "soft_sign": lambda x: x / (np.abs(x) + 1),
    "squareplus": lambda x: (x + np.sqrt(x * x + 4)) / 2,
    "mish": lambda x: x * np.tanh(_softplus(x)),
}


@pytest.fixture
def rng(request):
    return np.random.default_rng(zlib.crc32(request.node.name.encode()))


def check(got, want, dtype):
    got, want = np.asarray(got), np.asarray(want).astype(dtype)
    assert got.shape == want.shape and got.dtype == want.dtype, (got.shape, got.dtype, want.shape, want.dtype)
    tol = TOL.get(np.dtype(dtype), 0.0)  # integers exactly
    np.testing.assert_allclose(got, want, rtol=tol, atol=tol)


@pytest.mark.parametrize("shape", [(3,), (1,), (17,), (0,), (3, 17)])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_activations(rng, shape, dtype):
    x = (rng.standard_normal(shape) * 5).astype(dtype)
    if x.size > 3:
        x.flat[:4] = [0.0, 6.0, -3.0, 60.0]
    names = sorted(REFERENCE)
    got = mlc.jit(lambda v: [getattr(nn, n)(v) for n in names])(x)
    for name, value in zip(names, got):
        try:
            check(value, REFERENCE[name](x.astype(np.float64)), dtype)
        except AssertionError as e:
            raise AssertionError(f"{name}: {e}") from None


def test_parameters_and_aliases(rng):
    x = (rng.standard_normal(17) * 3).astype(np.float32)
    check(nn.leaky_relu(x, negative_slope=0.2), np.where(x >= 0, x, 0.2 * x), np.float32)
    check(nn.elu(x, alpha=0.5), np.where(x > 0, x, 0.5 * np.expm1(np.minimum(x, 0))), np.float32)
    check(nn.celu(x, alpha=2.0), np.maximum(x, 0) + 2 * np.expm1(np.minimum(x, 0) / 2), np.float32)
    assert nn.softsign is nn.soft_sign and nn.swish is nn.silu and nn.hard_swish is nn.hard_silu
    check(nn.softplus(np.arange(3, dtype=np.int32)), _softplus(np.arange(3.0)), np.float32)  # ints -> f32


@pytest.mark.parametrize("shape,axis", [((3, 4), -1), ((2, 6, 3), 1), ((1, 2), -1)])
def test_glu(rng, shape, axis):
    x = rng.standard_normal(shape).astype(np.float32)
    a, b = np.split(x.astype(np.float64), 2, axis=axis)
    check(mlc.jit(lambda v: nn.glu(v, axis))(x), a / (1 + np.exp(-b)), np.float32)
    with pytest.raises(ValueError, match="even size"):
        nn.glu(np.ones((3, 3), np.float32))


@pytest.mark.parametrize("shape,axis", [((3, 17), -1), ((3, 17), 0), ((1, 5), -1), ((2, 3, 4), (1, 2))])
def test_standardize(rng, shape, axis):
    x = (rng.standard_normal(shape) * 3 + 1).astype(np.float64)
    mean = x.mean(axis=axis, keepdims=True)
    var = (x * x).mean(axis=axis, keepdims=True) - mean * mean
    got = mlc.jit(lambda v: nn.standardize(v, axis=axis))(x)  # E[x^2] - mean^2 cancels: 1e-10
    np.testing.assert_allclose(got, (x - mean) / np.sqrt(var + 1e-5), rtol=1e-10, atol=1e-10)
    check(nn.standardize(x, axis=axis, mean=np.float64(0), variance=np.float64(1), epsilon=0.0), x, np.float64)


def test_one_hot():
    x = np.array([0, 2, -1, 3], np.int32)
    check(nn.one_hot(x, 3), np.array([[1, 0, 0], [0, 0, 1], [0, 0, 0], [0, 0, 0]]), np.float32)
    check(nn.one_hot(x, 3, dtype=np.int32, axis=0), np.array([[1, 0, 0, 0], [0, 0, 0, 0], [0, 1, 0, 0]]), np.int32)


def test_gradient_conventions():
    x = np.array([-1.0, 0.0, 3.0, 6.0, 7.0], np.float32)
    check(mlc.grad(lambda v: mnp.sum(nn.relu6(v)))(x), np.array([0, 0, 1, 0, 0]), np.float32)  # JAX: 0 at 0, 6
    check(mlc.grad(lambda v: mnp.sum(nn.softplus(v)))(x), 1 / (1 + np.exp(-x.astype(np.float64))), np.float32)
    big = np.array([-100.0, 100.0], np.float32)
    assert np.all(np.isfinite(mlc.grad(lambda v: mnp.sum(nn.elu(v)))(big)))
    check(mlc.grad(lambda v: mnp.sum(nn.log_sigmoid(v)))(big), np.array([1.0, 0.0]), np.float32)
