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


# --- row kernels (mlc-row-fusion, mlc-vectorize): every row length, dtype and vector width ---

ROW_SHAPES = [(1, 1), (5, 1), (3, 3), (7, 17), (4, 63), (4, 64), (3, 1023), (2, 1024), (2, 1000),
              (300, 3), (2, 3, 20)]
# |mlc - float64 reference| <= atol + rtol * |reference|, per dtype (f16 computes in f16).
ROW_TOLERANCES = {np.float16: (1e-2, 2e-3), np.float32: (2e-5, 1e-6), np.float64: (1e-12, 1e-14)}


def _np_layer_norm(x):
    return (x - x.mean(-1, keepdims=True)) / np.sqrt(x.var(-1, keepdims=True) + 1e-5)


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64], ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("shape", ROW_SHAPES, ids=lambda s: "x".join(map(str, s)))
def test_row_kernels_any_row_length(shape, dtype, vector_bits):
    """softmax and layer_norm on rows that are and are not whole vectors (1, 3, 17, 63,
    1023, ...), a row of one element, many short rows, for both vector widths."""
    x = (np.random.default_rng(7).standard_normal(shape) * 3).astype(dtype)
    x64 = x.astype(np.float64)
    rtol, atol = ROW_TOLERANCES[dtype]
    got = np.asarray(mlc.jit(nn.softmax)(x))
    assert got.dtype == dtype
    np.testing.assert_allclose(got.astype(np.float64), np_softmax(x64), rtol=rtol, atol=atol)
    got = np.asarray(mlc.jit(nn.layer_norm)(x))  # (values up to about 3: ten times the atol)
    np.testing.assert_allclose(got.astype(np.float64), _np_layer_norm(x64), rtol=rtol, atol=10 * atol)


@pytest.mark.parametrize("axis", [0, 1])
def test_softmax_over_other_axes(axis):
    x = (np.random.default_rng(8).standard_normal((5, 33, 17)) * 2).astype(np.float32)
    got = mlc.jit(lambda v: nn.softmax(v, axis=axis))(x)
    np.testing.assert_allclose(got, np_softmax(x.astype(np.float64), axis), rtol=2e-5, atol=1e-7)
    got = mlc.jit(lambda v: nn.layer_norm(v, axis=axis))(x)
    x64 = x.astype(np.float64)
    want = (x64 - x64.mean(axis, keepdims=True)) / np.sqrt(x64.var(axis, keepdims=True) + 1e-5)
    np.testing.assert_allclose(got, want, rtol=2e-5, atol=1e-5)


def test_row_kernels_long_rows_and_many_short_rows():
    """Rows longer than L2 (not kept as private row buffers) and 20000 rows of 3."""
    rng = np.random.default_rng(9)
    for shape in [(2, 200_000), (20_000, 3)]:
        x = rng.standard_normal(shape).astype(np.float32)
        x64 = x.astype(np.float64)
        np.testing.assert_allclose(mlc.jit(nn.softmax)(x), np_softmax(x64), rtol=2e-5, atol=1e-9)
        np.testing.assert_allclose(mlc.jit(nn.layer_norm)(x), _np_layer_norm(x64), rtol=2e-5, atol=2e-5)


def test_softmax_rows_with_nan_and_infinities():
    """NaN and +inf spread to their whole row (max is NaN-propagating, inf - inf is NaN);
    -inf entries are exact zeros; other rows are unaffected."""
    x = np.random.default_rng(10).standard_normal((4, 37)).astype(np.float32)
    x[0, 5] = np.nan
    x[1, 36] = np.inf
    x[2, :10] = -np.inf
    got = np.asarray(mlc.jit(nn.softmax)(x))
    with np.errstate(invalid="ignore"):
        want = np_softmax(x.astype(np.float64))
    np.testing.assert_allclose(got, want, rtol=2e-5, atol=1e-9, equal_nan=True)
    assert np.isnan(got[0]).all() and np.isnan(got[1]).all()
    assert (got[2, :10] == 0).all()


def test_division_by_row_values_of_any_magnitude():
    """x / s with s per row, multiplied by 1/s in f64 (mlc-vectorize): also right where
    1/s overflows f32 (subnormal s) or is subnormal (s near f32's largest)."""
    s = np.array([1e-40, 3e-39, 3e38, 1.5, -7.0], np.float32)
    x = np.outer(s, np.linspace(-1, 1, 37)).astype(np.float32) + np.float32(1e-41)
    got = mlc.jit(lambda a, b: a / b[:, None])(x, s)
    want = (x.astype(np.float64) / s.astype(np.float64)[:, None]).astype(np.float32)
    np.testing.assert_allclose(got, want, rtol=2e-7)


def test_softmax_rows_of_matrices_on_two_threads():
    """Row fusion over the batch dimension with 512 x 512 rows, on two threads: the kernels
    inside the parallel row loop must not open parallel loops of their own (nested tasks
    deadlocked the async runtime's two workers)."""
    from mlc.options import CompileOptions
    x = np.random.default_rng(11).standard_normal((4, 512, 512)).astype(np.float32)
    got = mlc.jit(nn.softmax, options=CompileOptions(threads=2))(x)
    np.testing.assert_allclose(got, np_softmax(x.astype(np.float64)), rtol=2e-5, atol=1e-9)
