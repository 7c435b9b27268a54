"""mlc.lax's newer names against numpy and math: switch, select_n, dynamic_slice,
dynamic_update_slice, top_k, reduce, the running reductions, erf/erfc/erf_inv, rsqrt,
map, stop_gradient; and mlc.eval_shape / ShapeDtypeStruct / block_until_ready /
device_put. Tolerances (rtol = atol): float32 2e-6 for erf and friends (computed in
float64, rounded once), float64 1e-13 (erf_inv: 1e-12 on erf(erf_inv(y)) = y)."""

from __future__ import annotations

import math
import zlib

import numpy as np
import pytest

import mlc
import mlc.lax as lax
import mlc.numpy as mnp


@pytest.fixture
def rng(request):
    return np.random.default_rng(zlib.crc32(request.node.name.encode()))


def check(got, want, tol=0.0):
    got, want = np.asarray(got), np.asarray(want)
    assert got.shape == want.shape and got.dtype == want.dtype, (got.shape, got.dtype, want.shape, want.dtype)
    np.testing.assert_allclose(got, want, rtol=tol, atol=tol, equal_nan=True)


def test_switch_traced_index_clamps_and_differentiates():
    branches = [lambda x: x + 1.0, lambda x: x * 2.0, lambda x: -x]
    f = mlc.jit(lambda i, x: lax.switch(i, branches, x))
    x = np.array([1.0, 2.0], np.float32)
    for i, want in [(0, x + 1), (1, x * 2), (2, -x), (-5, x + 1), (7, -x)]:  # out of range: clamped
        check(f(np.int32(i), x), want.astype(np.float32))
    check(lax.switch(1, branches, x), x * 2)  # a concrete index: the branch itself
    g = mlc.grad(lambda x, i: mnp.sum(lax.switch(i, branches, x)))(x, np.int32(1))
    check(g, np.full(2, 2.0, np.float32))
    with pytest.raises(TypeError, match="scalar integer"):
        mlc.jit(lambda i, x: lax.switch(i, branches, x))(np.float32(1), x)
    with pytest.raises(ValueError, match="non-empty"):
        lax.switch(0, [], x)


def test_select_n():
    a, b, c = (np.full(4, v, np.float32) for v in (0.0, 1.0, 2.0))
    which = np.array([2, 0, 1, 2], np.int32)
    check(lax.select_n(which, a, b, c), np.array([2, 0, 1, 2], np.float32))
    check(lax.select_n(np.array([True, False, True, False]), a, b), np.array([1, 0, 1, 0], np.float32))
    check(lax.select_n(np.bool_(True), a, b), b)
    with pytest.raises(TypeError, match="same shape and dtype"):
        lax.select_n(np.bool_(True), a, b.astype(np.float64))
    with pytest.raises(TypeError, match="at most two"):
        lax.select_n(np.bool_(True), a, b, c)


@pytest.mark.parametrize("shape,sizes", [((3, 17), (2, 5)), ((1,), (1,)), ((17,), (0,)), ((4, 3, 2), (4, 1, 2))])
def test_dynamic_slice_and_update(rng, shape, sizes):
    x = rng.standard_normal(shape).astype(np.float32)
    for starts in [(0,) * len(shape), tuple(s - 1 for s in shape), (100,) * len(shape), (-3,) * len(shape)]:
        starts32 = tuple(np.int32(s) for s in starts)
        clamped = [int(np.clip(s, 0, d - z)) for s, d, z in zip(starts, shape, sizes)]
        window = tuple(slice(c, c + z) for c, z in zip(clamped, sizes))
        check(mlc.jit(lambda x, *s: lax.dynamic_slice(x, s, sizes))(x, *starts32), x[window])
        update = rng.standard_normal(sizes).astype(np.float32)
        want = x.copy()
        want[window] = update
        check(mlc.jit(lambda x, u, *s: lax.dynamic_update_slice(x, u, s))(x, update, *starts32), want)
    with pytest.raises(TypeError, match="start indices"):
        lax.dynamic_slice(x, (0,) * (len(shape) + 1), sizes)


@pytest.mark.parametrize("shape", [(17,), (3, 17), (1,), (2, 3, 5)])
@pytest.mark.parametrize("dtype", [np.float32, np.int32])
def test_top_k(rng, shape, dtype):
    x = rng.integers(-4, 4, size=shape).astype(dtype)  # ties
    k = min(3, shape[-1])
    values, indices = mlc.jit(lambda v: lax.top_k(v, k))(x)
    order = np.argsort(-x.astype(np.float64), axis=-1, kind="stable")[..., :k]  # ties: lower index first
    check(indices, order.astype(np.int32))
    check(values, np.take_along_axis(x, order, axis=-1))


def test_top_k_nan_and_errors():
    x = np.array([1.0, np.nan, 3.0, 3.0], np.float32)
    values, indices = lax.top_k(x, 3)
    check(indices, np.array([1, 2, 3], np.int32))  # NaN is the largest
    with pytest.raises(ValueError, match="k must be in"):
        lax.top_k(x, 5)


def test_reduce_and_running_reductions(rng):
    x = rng.standard_normal((3, 17)).astype(np.float32)
    check(lax.reduce(x, np.float32(0), lax.add, (1,)), x.sum(1), 1e-5)
    check(lax.reduce(x, np.float32(-np.inf), lax.max, (0, 1)), np.float32(x.max()))
    check(lax.reduce(x, 1.0, mnp.multiply, (0,)), x.prod(0), 1e-5)
    xs, ys = lax.reduce((x, x * 2), (np.float32(0), np.float32(0)), lax.add, (0,))
    check(ys, (x * 2).sum(0), 1e-5)
    b = x > 0
    check(lax.reduce(b, np.bool_(False), lax.add, (1,)), b.any(1))
    with pytest.raises(NotImplementedError, match="not one of add"):
        lax.reduce(x, np.float32(0), lambda a, b: a + b, (0,))
    for name, ref in [("cumsum", np.cumsum), ("cumprod", np.cumprod), ("cummax", np.maximum.accumulate),
                      ("cummin", np.minimum.accumulate)]:
        check(getattr(lax, name)(x, axis=1), ref(x, axis=1).astype(np.float32), 1e-5)
        check(getattr(lax, name)(x, axis=0, reverse=True), ref(x[::-1], axis=0)[::-1].astype(np.float32), 1e-5)


@pytest.mark.parametrize("shape,axis", [((1000,), 0), ((1, 1, 257), 2), ((257, 1), 0)])
@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int32, np.int64])
def test_running_reductions_of_one_row(rng, shape, axis, dtype):
    """One running value (a 1-D scan, or a row with unit dims around it): carried as a scalar."""
    x = rng.standard_normal(shape)
    x = (x * 3).astype(dtype) if np.issubdtype(dtype, np.integer) else x.astype(dtype)
    small = (x % 3 - 1).astype(dtype) if np.issubdtype(dtype, np.integer) else (1 + x * 1e-3).astype(dtype)
    tol = 0.0 if np.issubdtype(dtype, np.integer) else {np.float32: 2e-5, np.float64: 1e-12}[dtype]
    check(mlc.jit(lambda v: lax.cumsum(v, axis=axis))(x), np.cumsum(x, axis=axis, dtype=np.float64).astype(dtype), tol)
    check(mlc.jit(lambda v: lax.cumprod(v, axis=axis))(small), np.cumprod(small, axis=axis).astype(dtype), tol)
    check(mlc.jit(lambda v: lax.cummax(v, axis=axis))(x), np.maximum.accumulate(x, axis=axis))
    check(mlc.jit(lambda v: lax.cummin(v, axis=axis, reverse=True))(x),
          np.flip(np.minimum.accumulate(np.flip(x, axis), axis=axis), axis))


_erf, _erfc = np.vectorize(math.erf), np.vectorize(math.erfc)


@pytest.mark.parametrize("dtype,tol", [(np.float32, 2e-6), (np.float64, 1e-13)])
def test_erf_erfc(rng, dtype, tol):
    x = np.concatenate([rng.standard_normal(17) * 2, [0.0, -0.0, 2.49, 2.51, -2.5, 5.0, -6.0, 30.0, np.inf,
                                                      -np.inf, np.nan]]).astype(dtype)
    check(mlc.jit(lax.erf)(x), _erf(x.astype(np.float64)).astype(dtype), tol)
    got = mlc.jit(lax.erfc)(x)
    want = _erfc(x.astype(np.float64)).astype(dtype)
    np.testing.assert_allclose(got, want, rtol=tol * 10, atol=0, equal_nan=True)  # relative, deep in the tail
    check(lax.erf(np.arange(3, dtype=np.int32)), _erf(np.arange(3.0)).astype(np.float32), 2e-6)


@pytest.mark.parametrize("dtype,tol", [(np.float32, 2e-6), (np.float64, 1e-12)])
def test_erf_inv(rng, dtype, tol):
    y = np.concatenate([rng.uniform(-1, 1, 17), [0.0, 0.5, -0.999999, 0.9999]]).astype(dtype)
    x = mlc.jit(lax.erf_inv)(y)
    assert x.dtype == dtype
    check(_erf(x.astype(np.float64)).astype(dtype), y, tol)
    edges = mlc.jit(lax.erf_inv)(np.array([1.0, -1.0, 1.5, np.nan], dtype))
    check(edges, np.array([np.inf, -np.inf, np.nan, np.nan], dtype))


def test_erf_gradients():
    x = np.array([-1.5, 0.0, 0.3, 2.0, 3.0], np.float64)
    check(mlc.grad(lambda v: mnp.sum(lax.erf(v)))(x), 2 / np.sqrt(np.pi) * np.exp(-x ** 2), 1e-14)
    y = np.array([-0.5, 0.0, 0.9], np.float64)
    want = np.sqrt(np.pi) / 2 * np.exp(mlc.jit(lax.erf_inv)(y) ** 2)
    check(mlc.grad(lambda v: mnp.sum(lax.erf_inv(v)))(y), want, 1e-12)


def test_rsqrt_map_stop_gradient(rng):
    x = rng.uniform(0.1, 4, size=(3, 17)).astype(np.float32)
    check(lax.rsqrt(x), (1 / np.sqrt(x)).astype(np.float32), 1e-6)
    check(mlc.jit(lambda v: lax.map(lambda row: mnp.sort(row)[::-1], v))(x), np.sort(x, axis=1)[:, ::-1])
    check(lax.map(lambda row: row.sum(), x), x.sum(1), 1e-5)
    g = mlc.grad(lambda v: mnp.sum(v * lax.stop_gradient(v)))(x)
    check(g, x)


def test_eval_shape_and_device_noops():
    spec = mlc.ShapeDtypeStruct((3, 17), np.float32)
    out = mlc.eval_shape(lambda x, y: {"s": mnp.sum(x, axis=0), "m": x @ y.T}, spec, np.ones((2, 17), np.float32))
    assert out == {"s": mlc.ShapeDtypeStruct((17,), np.dtype(np.float32)),
                   "m": mlc.ShapeDtypeStruct((3, 2), np.dtype(np.float32))}
    assert mlc.eval_shape(lambda x: mnp.argsort(x), spec).dtype == np.int32
    assert mlc.eval_shape(lambda x: x * 2, 1.0) == mlc.ShapeDtypeStruct((), np.dtype(np.float32))
    with pytest.raises(TypeError, match="eval_shape arguments"):
        mlc.eval_shape(lambda x: x, "text")
    x = np.ones(3, np.float32)
    assert mlc.block_until_ready(x) is x
    put = mlc.device_put({"a": [1.0, 2], "b": np.arange(3)})
    assert put["a"][0].dtype == np.float32 and put["a"][1].dtype == np.int32  # JAX's default dtypes
    assert isinstance(put["b"], np.ndarray)
