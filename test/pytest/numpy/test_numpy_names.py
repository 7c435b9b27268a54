"""mlc.numpy's everyday names against numpy: the common-names count (data/jnp_common_names.txt),
then each family on ordinary, odd (1, 3, 17) and empty shapes and the dtypes it accepts,
under mlc.jit and eagerly, with JAX's conventions where they differ from numpy's (result
dtypes, NaN and tie order, out-of-bounds indices).

Tolerances (rtol = atol) per result dtype: float32 2e-5 (transcendentals, long sums),
float64 1e-12, float16 1e-2; integers and booleans exactly. Random data comes from a
generator seeded per test (from the test's name)."""

from __future__ import annotations

import os
import warnings
import zlib

import numpy as np
import pytest

import mlc
import mlc.numpy as mnp

TOL = {np.dtype(np.float16): 1e-2, np.dtype(np.float32): 2e-5, np.dtype(np.float64): 1e-12}
SHAPES = [(3,), (1,), (17,), (0,), (3, 17)]
NAMES_FILE = os.path.join(os.path.dirname(os.path.dirname(__file__)), "data", "jnp_common_names.txt")


@pytest.fixture
def rng(request):
    return np.random.default_rng(zlib.crc32(request.node.name.encode()))


def check(got, want, dtype=None, tol=None):
    """got (an mlc result) against want (numpy's), in `dtype` (default: want's)."""
    got = np.asarray(got)
    want = np.asarray(want)
    if dtype is not None:
        want = want.astype(dtype)
    assert got.shape == want.shape, (got.shape, want.shape)
    assert got.dtype == want.dtype, (got.dtype, want.dtype)
    if want.dtype.kind == "f":
        t = TOL[want.dtype] if tol is None else tol
        np.testing.assert_allclose(got, want, rtol=t, atol=t, equal_nan=True)
    else:
        np.testing.assert_array_equal(got, want)


def jit(fn, **kw):
    return mlc.jit(fn, **kw)


# --- the count ---------------------------------------------------------------------------

def _listed_names():
    with open(NAMES_FILE) as f:
        return [line.strip() for line in f if line.strip() and not line.startswith("#")]


def test_common_names_count():
    names = _listed_names()
    assert len(names) == 150 and len(set(names)) == 150
    missing = []
    for name in names:
        try:
            getattr(mnp, name)
        except (NotImplementedError, AttributeError):
            missing.append(name)
    print(f"mlc.numpy has {150 - len(missing)} of the 150 common jax.numpy names; missing: {missing}")
    assert 150 - len(missing) >= 140, missing


def test_unknown_name_is_not_implemented():
    with pytest.raises(NotImplementedError, match="mlc.numpy.polyfit is not implemented"):
        mnp.polyfit
    with pytest.raises(AttributeError):
        mnp.no_such_name


# --- elementwise functions ------------------------------------------------------------------

UNARY = {  # name -> (numpy's function, domain of the inputs)
    "sinh": (np.sinh, (-5, 5)), "cosh": (np.cosh, (-5, 5)), "arctan": (np.arctan, (-9, 9)),
    "arcsin": (np.arcsin, (-1, 1)), "arccos": (np.arccos, (-1, 1)), "arcsinh": (np.arcsinh, (-50, 50)),
    "arccosh": (np.arccosh, (1, 50)), "arctanh": (np.arctanh, (-0.99, 0.99)), "log2": (np.log2, (0.01, 100)),
    "log10": (np.log10, (0.01, 100)), "exp2": (np.exp2, (-20, 20)), "sinc": (np.sinc, (-4, 4)),
    "deg2rad": (np.deg2rad, (-360, 360)), "rad2deg": (np.rad2deg, (-7, 7)),
}


def _inputs(rng, shape, dtype, lo, hi):
    x = rng.uniform(lo, hi, size=shape)
    if np.dtype(dtype).kind in "iu":
        x = np.round(x)
    return x.astype(dtype)


@pytest.mark.parametrize("shape,dtype", [(s, np.float32) for s in SHAPES] +
                         [((17,), np.float64), ((3,), np.float16), ((17,), np.int32)])
def test_unary_functions(rng, shape, dtype):
    xs = {name: _inputs(rng, shape, dtype, *domain) for name, (_, domain) in UNARY.items()}
    names = sorted(UNARY)
    got = jit(lambda d: [getattr(mnp, n)(d[n]) for n in names])(xs)
    out_dtype = np.float32 if np.dtype(dtype).kind in "iu" else dtype
    for name, value in zip(names, got):
        with np.errstate(divide="ignore"):  # arctanh(+-1) of integer inputs: inf
            want = UNARY[name][0](xs[name].astype(np.float64))
        try:
            check(value, want, out_dtype, tol=5e-3 if dtype == np.float16 else None)
        except AssertionError as e:
            raise AssertionError(f"{name}: {e}") from None


def test_unary_edges():
    x = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, 1e30, -1e30, 1.0, -1.0], np.float32)
    with np.errstate(all="ignore"):
        for name in ("sinh", "cosh", "arcsinh", "arctan", "arctanh", "arcsin", "arccos", "log2", "exp2"):
            check(jit(getattr(mnp, name))(x), getattr(np, name)(x), tol=1e-5)
    big = np.array([1e200, -1e200, 1e300], np.float64)
    check(jit(mnp.arcsinh)(big), np.arcsinh(big))
    check(jit(mnp.arccosh)(np.abs(big)), np.arccosh(np.abs(big)))


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_logaddexp(rng, dtype):
    a = (rng.standard_normal((3, 17)) * 30).astype(dtype)
    b = (rng.standard_normal((17,)) * 30).astype(dtype)
    check(jit(mnp.logaddexp)(a, b), np.logaddexp(a, b))
    check(jit(mnp.logaddexp2)(a, b), np.logaddexp2(a, b))
    check(jit(mnp.hypot)(a, b), np.hypot(a, b))
    edge = np.array([-np.inf, np.inf, np.nan, 0.0, -np.inf], dtype)
    other = np.array([-np.inf, np.inf, 1.0, 0.0, 3.0], dtype)
    with np.errstate(invalid="ignore"):
        check(jit(mnp.logaddexp)(edge, other), np.logaddexp(edge, other))
        check(jit(mnp.logaddexp2)(edge, other), np.logaddexp2(edge, other))


def test_logaddexp_promotion():
    out = jit(lambda a: mnp.logaddexp(a, 1))(np.arange(3, dtype=np.int32))
    assert out.dtype == np.float32  # JAX: an integer array goes to the default float
    check(out, np.logaddexp(np.arange(3), 1), np.float32)
    assert jit(lambda a: mnp.logaddexp(a, 1.0))(np.ones(2, np.float16)).dtype == np.float16


# --- sorting ---------------------------------------------------------------------------------

@pytest.mark.parametrize("shape,dtype", [(s, d) for s in SHAPES + [(4, 1, 5)] for d in (np.float32, np.int32)] +
                         [((17,), np.bool_), ((3, 17), np.float64), ((1,), np.uint8)])
def test_sort_argsort(rng, shape, dtype):
    x = (rng.integers(-3, 3, size=shape)).astype(dtype)  # many ties
    if np.dtype(dtype).kind == "f" and x.size > 2:
        x.flat[1] = np.nan
    axes = [-1, None] + ([0] if len(shape) > 1 else [])
    got = jit(lambda v: [(mnp.sort(v, axis=a), mnp.argsort(v, axis=a)) for a in axes])(x)
    for axis, (values, order) in zip(axes, got):
        check(values, np.sort(x, axis=axis))
        check(order, np.argsort(x, axis=axis, kind="stable"), np.int32)


def test_sort_descending_nan_first_and_stable():
    x = np.array([2.0, np.nan, 1.0, 2.0, -np.inf, 1.0], np.float32)
    check(jit(lambda v: mnp.sort(v, descending=True))(x), np.array([np.nan, 2, 2, 1, 1, -np.inf], np.float32))
    check(jit(lambda v: mnp.argsort(v, descending=True))(x), np.array([1, 0, 3, 2, 5, 4], np.int32))
    check(jit(mnp.argsort)(x), np.array([4, 2, 5, 0, 3, 1], np.int32))


def test_sort_grad():
    x = np.array([3.0, 1.0, 2.0], np.float32)
    g = mlc.grad(lambda v: mnp.sum(mnp.sort(v) * np.array([1.0, 10.0, 100.0], np.float32)))(x)
    check(g, np.array([100.0, 1.0, 10.0], np.float32))


@pytest.mark.parametrize("dtype", [np.float32, np.int32, np.float64])
@pytest.mark.parametrize("n", [2, 4, 5, 7, 8, 9, 15, 16, 31, 32, 33, 100, 1000])
def test_searchsorted_at_every_power_of_two_boundary(rng, n, dtype):
    """The binary search takes pos + step while a[pos + step - 1] comes before v, powers of
    two from the highest <= n down: sizes at, below and above each power of two, with
    repeated values, values outside a's range and (floats) NaNs, on both sides."""
    a = np.sort(rng.integers(0, n // 2 + 2, size=n)).astype(dtype)
    v = rng.integers(-1, n // 2 + 4, size=64).astype(dtype)
    if np.dtype(dtype).kind == "f":
        a[rng.random(n) < 0.1] = np.nan
        a = np.sort(a)
        v[:5] = np.nan
    for side in ("left", "right"):
        check(jit(lambda a, v: mnp.searchsorted(a, v, side=side))(a, v), np.searchsorted(a, v, side=side), np.int32)


@pytest.mark.parametrize("side", ["left", "right"])
@pytest.mark.parametrize("n", [1, 3, 17])
def test_searchsorted(rng, side, n):
    a = np.sort(rng.integers(0, 5, size=n).astype(np.float32))
    v = rng.integers(-1, 6, size=(2, 7)).astype(np.float32)
    methods = ["scan", "compare_all"]
    an = np.array([0.0, 1.0, np.nan, np.nan], np.float32)
    vn = np.array([np.nan, 1.0, 5.0, -1.0], np.float32)
    got = jit(lambda a, v, an, vn: [(mnp.searchsorted(a, v, side=side, method=k),
                                     mnp.searchsorted(an, vn, side=side, method=k)) for k in methods])(a, v, an, vn)
    for plain, nan in got:
        check(plain, np.searchsorted(a, v, side=side), np.int32)
        check(nan, np.searchsorted(an, vn, side=side), np.int32)
    order = rng.permutation(n)
    unsorted = a[np.argsort(order)]
    sorter = np.argsort(unsorted, kind="stable")
    check(jit(lambda a, v, s: mnp.searchsorted(a, v, side=side, sorter=s))(unsorted, v, sorter),
          np.searchsorted(unsorted, v, side=side, sorter=sorter), np.int32)


def test_digitize_and_interp(rng):
    bins = np.array([0.0, 1.0, 2.5, 4.0], np.float32)
    x = rng.uniform(-1, 5, size=17).astype(np.float32)
    check(jit(lambda x: mnp.digitize(x, bins))(x), np.digitize(x, bins), np.int32)
    check(jit(lambda x: mnp.digitize(x, bins, right=True))(x), np.digitize(x, bins, right=True), np.int32)
    xp = np.sort(rng.uniform(0, 4, size=6)).astype(np.float32)
    fp = rng.standard_normal(6).astype(np.float32)
    check(jit(mnp.interp)(x, xp, fp), np.interp(x, xp, fp).astype(np.float32), tol=1e-5)
    check(jit(lambda x, xp, fp: mnp.interp(x, xp, fp, left=-9.0, right=9.0))(x, xp, fp),
          np.interp(x, xp, fp, left=-9, right=9).astype(np.float32), tol=1e-5)


# --- order statistics ------------------------------------------------------------------------

@pytest.mark.parametrize("shape,axis", [((17,), None), ((3, 17), 1), ((3, 17), 0), ((1,), None),
                                        ((4, 3, 5), (0, 2)), ((3, 17), None)])
def test_quantile(rng, shape, axis):
    x = rng.standard_normal(shape).astype(np.float32)
    q = np.array([0.0, 0.125, 0.5, 0.8125, 1.0], np.float32)  # exact: p = q (n - 1) rounds alike
    methods = ["linear", "lower", "higher", "midpoint", "nearest"]
    got = jit(lambda x, q: [(mnp.quantile(x, q, axis=axis, method=k),
                             mnp.percentile(x, 37.5, axis=axis, method=k, keepdims=True)) for k in methods])(x, q)
    for method, (quantiles, percentile) in zip(methods, got):
        check(quantiles, np.quantile(x.astype(np.float64), q.astype(np.float64), axis=axis, method=method),
              np.float32)
        check(percentile, np.percentile(x.astype(np.float64), 37.5, axis=axis, method=method, keepdims=True),
              np.float32)


@pytest.mark.parametrize("shape", [(1,), (3,), (17,), (4, 6), (3, 17)])
def test_median(rng, shape):
    x = rng.standard_normal(shape).astype(np.float64)
    check(jit(mnp.median)(x), np.median(x))
    check(jit(lambda x: mnp.median(x, axis=-1, keepdims=True))(x), np.median(x, axis=-1, keepdims=True))
    xi = rng.integers(0, 9, size=shape).astype(np.int32)
    check(jit(mnp.median)(xi), np.median(xi), np.float32)  # JAX: integers give the default float


def test_median_nan_and_nanmedian(rng):
    x = rng.standard_normal((4, 7)).astype(np.float32)
    x[0, 3] = np.nan
    x[2, :] = np.nan
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        check(jit(lambda v: mnp.median(v, axis=1))(x), np.median(x, axis=1))  # NaN rows are NaN
        check(jit(lambda v: mnp.nanmedian(v, axis=1))(x), np.nanmedian(x, axis=1))
        check(jit(lambda v: mnp.nanquantile(v, 0.3, axis=1))(x), np.nanquantile(x, 0.3, axis=1))
        check(jit(lambda v: mnp.nanpercentile(v, 90.0, axis=0))(x), np.nanpercentile(x, 90.0, axis=0))
    check(jit(mnp.median)(np.zeros(0, np.float32)), np.float32(np.nan))


def test_quantile_bad_method():
    with pytest.raises(ValueError, match="method must be one of"):
        jit(lambda x: mnp.quantile(x, 0.5, method="cubic"))(np.ones(3, np.float32))


# --- nan reductions ---------------------------------------------------------------------

NAN_FUNCS = ["nansum", "nanprod", "nanmax", "nanmin", "nanmean", "nanvar", "nanstd"]


@pytest.mark.parametrize("shape", [(3,), (1,), (17,), (3, 17), (4, 1, 5)])
def test_nan_reductions(rng, shape):
    x = rng.standard_normal(shape).astype(np.float32)
    x.flat[::4] = np.nan
    if len(shape) == 2:
        x[1, :] = np.nan  # an all-NaN slice
    axes = [None, 0, -1]
    every = jit(lambda v: [[getattr(mnp, f)(v, axis=axis) for f in NAN_FUNCS] +
                           [mnp.nansum(v, axis=axis, keepdims=True), mnp.nanvar(v, axis=axis, ddof=1)]
                           for axis in axes])(x)
    for axis, got in zip(axes, every):
        _check_nan_reductions(x, axis, got)


def _check_nan_reductions(x, axis, got):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for name, value in zip(NAN_FUNCS, got):
            want = getattr(np, name)(x.astype(np.float64), axis=axis)
            try:
                check(value, want, np.float32)
            except AssertionError as e:
                raise AssertionError(f"{name}: {e}") from None
        check(got[-2], np.nansum(x, axis=axis, keepdims=True), tol=1e-5)
        check(got[-1], np.nanvar(x.astype(np.float64), axis=axis, ddof=1), np.float32)


def test_nan_reductions_integers_and_args(rng):
    xi = rng.integers(-5, 5, size=(3, 17)).astype(np.int32)
    check(jit(lambda v: mnp.nansum(v, axis=1))(xi), np.nansum(xi, axis=1).astype(np.int32))
    check(jit(lambda v: mnp.nanmax(v, axis=0))(xi), np.nanmax(xi, axis=0))
    check(jit(lambda v: mnp.nanmean(v))(xi), np.nanmean(xi), np.float32)
    x = rng.standard_normal((3, 5)).astype(np.float32)
    x[0, 0] = np.nan
    check(jit(lambda v: mnp.nanargmax(v, axis=1))(x), np.nanargmax(x, axis=1), np.int32)
    check(jit(lambda v: mnp.nanargmin(v, axis=0))(x), np.nanargmin(x, axis=0), np.int32)
    x[1, :] = np.nan  # JAX: -1 where numpy raises
    check(jit(lambda v: mnp.nanargmax(v, axis=1))(x)[1], np.int32(-1))
    check(jit(lambda v: mnp.nancumsum(v, axis=1))(x), np.nancumsum(x, axis=1), tol=1e-5)
    check(jit(lambda v: mnp.nancumprod(v, axis=1))(x), np.nancumprod(x, axis=1), tol=1e-5)


def test_nan_to_num():
    x = np.array([np.nan, np.inf, -np.inf, 1.5, -0.0], np.float32)
    check(jit(mnp.nan_to_num)(x), np.nan_to_num(x))
    check(jit(lambda v: mnp.nan_to_num(v, nan=-1.0, posinf=7.0, neginf=-7.0))(x),
          np.nan_to_num(x, nan=-1.0, posinf=7.0, neginf=-7.0))
    xd = x.astype(np.float64)
    check(jit(mnp.nan_to_num)(xd), np.nan_to_num(xd))
    check(jit(mnp.nan_to_num)(np.arange(3, dtype=np.int32)), np.arange(3, dtype=np.int32))


# --- comparisons --------------------------------------------------------------------------

def test_isclose_allclose_array_equal(rng):
    a = rng.standard_normal((3, 17)).astype(np.float32)
    b = a + rng.standard_normal((3, 17)).astype(np.float32) * 1e-5
    b[0, 0] = np.nan
    a[0, 0] = np.nan
    a[1, 1] = b[1, 1] = np.inf
    a[2, 2], b[2, 2] = np.inf, -np.inf
    for kw in ({}, {"equal_nan": True}, {"rtol": 1e-7, "atol": 0.0}):
        check(jit(lambda a, b: mnp.isclose(a, b, **kw))(a, b), np.isclose(a, b, **kw))
        check(jit(lambda a, b: mnp.allclose(a, b, **kw))(a, b), np.bool_(np.allclose(a, b, **kw)))
    check(jit(mnp.array_equal)(a, a), np.bool_(False))  # NaN != NaN
    check(jit(lambda a: mnp.array_equal(a, a, equal_nan=True))(a), np.bool_(True))
    check(jit(mnp.array_equal)(a, a[:2]), np.bool_(False))
    check(jit(mnp.isclose)(np.arange(4, dtype=np.int32), np.array([0, 1, 3, 3], np.int32)),
          np.isclose(np.arange(4), [0, 1, 3, 3]))


# --- selection ----------------------------------------------------------------------------

@pytest.mark.parametrize("dtype", [np.float32, np.int32, np.uint8, np.bool_])
def test_take_modes(rng, dtype):
    x = (rng.standard_normal((3, 5)) * 10).astype(dtype)
    idx = np.array([0, 4, -1, -5, 5, -6, 100], np.int32)
    fill = {np.float32: np.nan, np.int32: np.iinfo(np.int32).min, np.uint8: 255, np.bool_: True}[dtype]
    inside = (idx >= -5) & (idx < 5)
    want = np.where(inside[None, :], np.take(x, np.where(inside, idx, 0), axis=1), fill).astype(dtype)
    check(jit(lambda x, i: mnp.take(x, i, axis=1))(x, idx), want)
    check(jit(lambda x, i: mnp.take(x, i, axis=1, mode="clip"))(x, idx), np.take(x, idx, axis=1, mode="clip"))
    check(jit(lambda x, i: mnp.take(x, i, axis=1, mode="wrap"))(x, idx), np.take(x, idx, axis=1, mode="wrap"))
    check(jit(lambda x, i: mnp.take(x, i))(x, idx[:3]), np.take(x, idx[:3]))
    check(jit(lambda x, i: mnp.take(x, i, axis=0, fill_value=7))(x, np.array([[0, 9]], np.int32)),
          np.stack([x[0], np.full(5, 7, dtype)])[None] if dtype != np.bool_ else
          np.stack([x[0], np.full(5, True)])[None])


def test_take_errors():
    with pytest.raises(TypeError, match="indices must be integers"):
        jit(lambda x: mnp.take(x, np.array([0.5], np.float32)))(np.ones(3, np.float32))
    with pytest.raises(ValueError, match="axis 2 is out of bounds"):
        jit(lambda x: mnp.take(x, np.array([0]), axis=2))(np.ones((3, 3), np.float32))
    with pytest.raises(ValueError, match="mode must be one of"):
        jit(lambda x: mnp.take(x, np.array([0]), mode="raise"))(np.ones(3, np.float32))


@pytest.mark.parametrize("shape,axis", [((3, 17), 1), ((3, 17), 0), ((1, 1), 0), ((17,), 0), ((2, 3, 4), 1),
                                        ((0, 4), 1)])
def test_take_along_axis(rng, shape, axis):
    x = rng.standard_normal(shape).astype(np.float32)
    idx = np.argsort(x, axis=axis).astype(np.int32)
    check(jit(lambda x, i: mnp.take_along_axis(x, i, axis=axis))(x, idx), np.take_along_axis(x, idx, axis=axis))
    if len(shape) == 2 and shape[0] > 1:  # broadcasting indices
        col = np.zeros((1, shape[1]), np.int32) if axis == 0 else np.zeros((shape[0], 1), np.int32)
        check(jit(lambda x, i: mnp.take_along_axis(x, i, axis=axis))(x, col), np.take_along_axis(x, col, axis=axis))


# Indices in [-2n, 2n): negative ones count from the end (fill mode), and the out-of-range
# ones are filled, clipped or wrapped. The batched gather (arr's other dims equal the
# indices') and advanced indexing (arr broadcast along a size-1 dim) both.
@pytest.mark.parametrize("mode", ["fill", "clip", "wrap"])
@pytest.mark.parametrize("dtype", [np.float32, np.int8, np.float64, np.bool_])
@pytest.mark.parametrize("shape,ishape,axis", [((4, 9), (4, 13), 1), ((5, 3, 6), (5, 2, 6), 1),
                                               ((7, 5), (3, 5), 0), ((1, 9), (4, 9), 1)])
def test_take_along_axis_modes(rng, mode, dtype, shape, ishape, axis):
    x = (rng.standard_normal(shape) * 50).astype(dtype)
    n = shape[axis]
    idx = rng.integers(-2 * n, 2 * n, ishape).astype(np.int32)
    got = jit(lambda v, i: mnp.take_along_axis(v, i, axis=axis, mode=mode, fill_value=0))(x, idx)
    big = np.broadcast_to(x, np.broadcast_shapes(x.shape, tuple(1 if d == axis else s for d, s in enumerate(ishape))))
    if mode == "wrap":
        want = np.take_along_axis(big, idx % n, axis=axis)
    elif mode == "clip":
        want = np.take_along_axis(big, np.clip(idx, 0, n - 1), axis=axis)
    else:
        inside = (idx >= -n) & (idx < n)
        want = np.where(inside, np.take_along_axis(big, np.where(idx < 0, idx + n, idx) * inside, axis=axis), 0)
    check(got, want.astype(dtype))


def test_take_along_axis_vmap_and_grad_of_a_middle_axis(rng):
    x = rng.standard_normal((3, 4, 5)).astype(np.float32)
    idx = rng.integers(0, 4, (3, 6, 5)).astype(np.int32)
    got = mlc.vmap(lambda v, i: mnp.take_along_axis(v, i, axis=0))(x, idx)
    check(got, np.stack([np.take_along_axis(x[b], idx[b], axis=0) for b in range(3)]))
    g = mlc.grad(lambda v: mnp.sum(mnp.take_along_axis(v, idx, axis=1) * 2.0))(x)
    want = np.zeros_like(x)
    for b, j, k in np.ndindex(idx.shape):
        want[b, idx[b, j, k], k] += 2.0
    check(g, want)


def test_take_along_axis_grad():
    x = np.array([[3.0, 1.0, 2.0]], np.float32)
    g = mlc.grad(lambda v: mnp.sum(mnp.take_along_axis(v, np.array([[0, 0, 2]]), axis=1)))(x)
    check(g, np.array([[2.0, 0.0, 1.0]], np.float32))


@pytest.mark.parametrize("shape", [(3, 17), (17, 3), (1, 1), (4, 4), (0, 3), (2, 3, 4)])
def test_triangles_and_diagonals(rng, shape):
    x = rng.standard_normal(shape).astype(np.float32)
    ks = [0, 1, -2]
    three = len(shape) == 3
    vector = x.reshape(-1)[:3]
    every = jit(lambda v, u: [[mnp.tril(v, k), mnp.triu(v, k), mnp.diagonal(v, k), mnp.trace(v, k)] +
                              ([mnp.diagonal(v, k, 2, 0), mnp.trace(v, k, 1, 2)] if three else
                               [mnp.diag(v, k), mnp.diag(u, k)]) for k in ks])(x, vector)
    for k, got in zip(ks, every):
        want = [np.tril(x, k), np.triu(x, k), np.diagonal(x, k), np.trace(x, k).astype(np.float32)]
        want += ([np.diagonal(x, k, 2, 0), np.trace(x, k, 1, 2).astype(np.float32)] if three else
                 [np.diag(x, k), np.diag(vector, k)])
        for g, w in zip(got, want):
            check(g, w, tol=1e-5)


def test_trace_and_diag_integers():
    x = np.arange(12, dtype=np.int32).reshape(3, 4)
    check(jit(mnp.trace)(x), np.int32(np.trace(x)))
    check(jit(lambda v: mnp.tri(3, 4, 1, dtype=np.int32))(x), np.tri(3, 4, 1, dtype=np.int32))
    with pytest.raises(ValueError, match="at least two dimensions"):
        jit(mnp.diagonal)(np.ones(3, np.float32))
    with pytest.raises(ValueError, match="at least 2-d"):
        jit(mnp.tril)(np.ones(3, np.float32))


def test_unravel_and_ravel_multi_index():
    shape = (3, 1, 17)
    flat = np.array([0, 5, 17, 50, -1], np.int32)
    got = jit(lambda f: mnp.unravel_index(f, shape))(flat)
    want = np.unravel_index(np.where(flat < 0, flat + 51, flat), shape)
    for g, w in zip(got, want):
        check(g, w.astype(np.int32))
    check(jit(lambda a, b, c: mnp.ravel_multi_index((a, b, c), shape))(*[w.astype(np.int32) for w in want]),
          np.ravel_multi_index(want, shape).astype(np.int32))
    clipped = jit(lambda f: mnp.unravel_index(f, shape))(np.array([51, 1000], np.int32))  # JAX clips
    check(clipped[2], np.array([16, 16], np.int32))


def test_argwhere_nonzero_with_size(rng):
    x = rng.integers(0, 2, size=(3, 17)).astype(np.float32)
    n = int((x != 0).sum())
    check(jit(lambda v: mnp.argwhere(v, size=n))(x), np.argwhere(x).astype(np.int32))
    padded = jit(lambda v: mnp.argwhere(v, size=n + 3, fill_value=-1))(x)
    check(padded[:n], np.argwhere(x).astype(np.int32))
    check(padded[n:], np.full((3, 2), -1, np.int32))
    got = jit(lambda v: mnp.nonzero(v, size=n))(x)
    for g, w in zip(got, np.nonzero(x)):
        check(g, w.astype(np.int32))
    check(jit(lambda v: mnp.flatnonzero(v, size=4))(x.ravel()), np.flatnonzero(x)[:4].astype(np.int32))
    check(jit(lambda v: mnp.count_nonzero(v, axis=1))(x), np.count_nonzero(x, axis=1).astype(np.int32))
    check(jit(lambda v: mnp.argwhere(v, size=2))(np.zeros((0, 3), np.float32)), np.zeros((2, 2), np.int32))


def test_argwhere_needs_size():
    with pytest.raises(ValueError, match="pass size=N"):
        jit(mnp.argwhere)(np.ones(3, np.float32))
    with pytest.raises(ValueError, match="0d arrays"):
        jit(lambda v: mnp.nonzero(v, size=1))(np.float32(1))


# --- scans and differences --------------------------------------------------------------------

@pytest.mark.parametrize("shape,dtype", [(s, np.float32) for s in SHAPES + [(4, 1, 5)]] +
                         [((3, 17), np.int32), ((17,), np.float64)])
def test_cumulative(rng, shape, dtype):
    x = (rng.uniform(0.5, 1.5, size=shape) * (1 if dtype != np.int32 else 3)).astype(dtype)
    axes = [None, -1, 0]
    everything = jit(lambda v: [[mnp.cumsum(v, a), mnp.cumprod(v, a), mnp.cummax(v, a), mnp.cummin(v, a)]
                                for a in axes])(x)
    for axis, got in zip(axes, everything):
        flat = x.ravel() if axis is None else x
        ax = 0 if axis is None else axis
        want = [np.cumsum(x, axis), np.cumprod(x, axis), np.maximum.accumulate(flat, ax),
                np.minimum.accumulate(flat, ax)]
        for name, g, w in zip(["cumsum", "cumprod", "cummax", "cummin"], got, want):
            try:
                check(g, w.astype(dtype), tol=1e-5 if dtype == np.float32 else None)
            except AssertionError as e:
                raise AssertionError(f"{name} axis={axis}: {e}") from None


def test_cumulative_small_ints_and_reverse(rng):
    x = rng.integers(-3, 3, size=(3, 5)).astype(np.int8)
    check(jit(lambda v: mnp.cumprod(v, axis=1))(x), np.cumprod(x.astype(np.int32), axis=1).astype(np.int32))
    xf = rng.standard_normal((3, 5)).astype(np.float32)
    import mlc.lax as lax
    check(jit(lambda v: lax.cumsum(v, axis=1, reverse=True))(xf), np.cumsum(xf[:, ::-1], axis=1)[:, ::-1], tol=1e-5)
    check(jit(lambda v: lax.cummax(v, axis=0, reverse=True))(xf),
          np.maximum.accumulate(xf[::-1], axis=0)[::-1])


def test_cumprod_grad():
    x = np.array([2.0, 3.0, 0.5, 4.0], np.float32)
    g = mlc.grad(lambda v: mnp.sum(mnp.cumprod(v)))(x)
    eps = 1e-3
    want = [(np.cumprod(x + eps * np.eye(4)[i]).sum() - np.cumprod(x - eps * np.eye(4)[i]).sum()) / (2 * eps)
            for i in range(4)]
    np.testing.assert_allclose(g, want, rtol=1e-2)


@pytest.mark.parametrize("shape", [(17,), (1,), (3, 17), (0,)])
@pytest.mark.parametrize("n", [1, 2])
def test_diff(rng, shape, n):
    x = rng.standard_normal(shape).astype(np.float32)
    check(jit(lambda v: mnp.diff(v, n))(x), np.diff(x, n))
    if shape[-1]:
        check(jit(lambda v: mnp.diff(v, n, axis=0, prepend=1.0))(x), np.diff(x, n, axis=0, prepend=1.0),
              np.float32)  # JAX: the Python float is weak
    b = x > 0
    check(jit(lambda v: mnp.diff(v))(b), np.diff(b))
    check(jit(mnp.ediff1d)(x), np.ediff1d(x))


# --- products and stacking ----------------------------------------------------------------

@pytest.mark.parametrize("dtype", [np.float32, np.int32])
def test_products(rng, dtype):
    a = (rng.standard_normal((3, 4)) * 3).astype(dtype)
    b = (rng.standard_normal((2, 4)) * 3).astype(dtype)
    check(jit(mnp.outer)(a, b), np.outer(a, b), tol=1e-5)
    check(jit(mnp.inner)(a, b), np.inner(a, b), tol=1e-5)
    check(jit(mnp.inner)(a, np.float32(2) if dtype == np.float32 else np.int32(2)), np.inner(a, 2).astype(dtype))
    check(jit(mnp.kron)(a, b), np.kron(a, b), tol=1e-5)
    check(jit(mnp.kron)(a[0], b), np.kron(a[0], b), tol=1e-5)
    check(jit(mnp.vdot)(a, a), np.vdot(a, a), tol=1e-4)
    u, v = (rng.standard_normal((5, 3)) * 3).astype(dtype), (rng.standard_normal((5, 3)) * 3).astype(dtype)
    check(jit(mnp.cross)(u, v), np.cross(u, v), tol=1e-4)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)  # numpy 2 deprecates 2-vectors; JAX has them
        check(jit(mnp.cross)(u[:, :2], v[:, :2]), np.cross(u[:, :2], v[:, :2]), tol=1e-4)
    check(jit(lambda u, v: mnp.cross(u, v, axis=0))(u[:3], v[:3]), np.cross(u[:3], v[:3], axis=0), tol=1e-4)
    with pytest.raises(ValueError, match="dimension must be 2 or 3"):
        jit(mnp.cross)(a, a)


def test_stacking(rng):
    x = rng.standard_normal((3, 17)).astype(np.float32)
    v = rng.standard_normal(17).astype(np.float32)
    s = np.float32(2.5)
    check(jit(lambda a, b: mnp.vstack([a, b]))(x, v), np.vstack([x, v]))
    check(jit(lambda a, b: mnp.hstack([a, b]))(v, v), np.hstack([v, v]))
    check(jit(lambda a: mnp.hstack([a, a]))(x), np.hstack([x, x]))
    check(jit(lambda a, b: mnp.dstack([a, b]))(x, x), np.dstack([x, x]))
    check(jit(lambda a, b: mnp.dstack([a, b]))(v, v), np.dstack([v, v]))
    check(jit(lambda a, b: mnp.column_stack([a, b]))(v, v), np.column_stack([v, v]))
    check(jit(lambda a: mnp.vstack([a, a]))(s), np.vstack([s, s]))
    check(jit(mnp.atleast_1d)(s), np.atleast_1d(s))
    check(jit(mnp.atleast_2d)(v), np.atleast_2d(v))
    check(jit(mnp.atleast_3d)(x), np.atleast_3d(x))
    check(jit(lambda a: mnp.hstack([a, a]))(np.zeros((0,), np.float32)), np.zeros((0,), np.float32))


@pytest.mark.parametrize("shape", [(17,), (1,), (3, 17), (0,)])
def test_roll(rng, shape):
    x = rng.standard_normal(shape).astype(np.float32)
    cases = [(2, None), (-5, -1), (100, 0), (0, None)]
    got = jit(lambda v: [mnp.roll(v, shift, axis) for shift, axis in cases])(x)
    for g, (shift, axis) in zip(got, cases):
        check(g, np.roll(x, shift, axis))
    if len(shape) == 2:
        check(jit(lambda v: mnp.roll(v, (1, -2), (0, 1)))(x), np.roll(x, (1, -2), (0, 1)))
    check(jit(lambda v, s: mnp.roll(v, s, 0))(x, np.int32(3)), np.roll(x, 3, 0))  # a traced shift


def test_meshgrid_and_rotations(rng):
    a, b, c = np.arange(3, dtype=np.float32), np.arange(4, dtype=np.int32), np.arange(2, dtype=np.float32)
    for kw in ({}, {"indexing": "ij"}, {"sparse": True}):
        got = jit(lambda a, b, c: mnp.meshgrid(a, b, c, **kw))(a, b, c)
        for g, w in zip(got, np.meshgrid(a, b, c, **kw)):
            check(g, w)
    with pytest.raises(ValueError, match="indexing"):
        jit(lambda a: mnp.meshgrid(a, indexing="xz"))(a)
    x = rng.standard_normal((3, 4, 2)).astype(np.float32)
    for k, g in zip(range(-1, 4), jit(lambda v: [mnp.rot90(v, k) for k in range(-1, 4)])(x)):
        check(g, np.rot90(x, k))
    check(jit(lambda v: mnp.rot90(v, 1, (1, 2)))(x), np.rot90(x, 1, (1, 2)))
    check(jit(mnp.fliplr)(x), np.fliplr(x))
    check(jit(mnp.flipud)(x), np.flipud(x))


@pytest.mark.parametrize("shape,widths", [((17,), (3, 20)), ((1,), (2, 2)), ((3, 4), ((1, 5), (4, 0))),
                                          ((2, 3, 1), 2)])
def test_pad_modes(rng, shape, widths):
    x = rng.standard_normal(shape).astype(np.float32)
    modes = ["reflect", "edge", "symmetric", "wrap", "constant"]
    got = jit(lambda v: [mnp.pad(v, widths, mode=mode) for mode in modes])(x)
    for mode, g in zip(modes, got):
        check(g, np.pad(x, widths, mode=mode))


def test_pad_errors():
    with pytest.raises(NotImplementedError, match="supported modes"):
        jit(lambda v: mnp.pad(v, 1, mode="linear_ramp"))(np.ones(3, np.float32))
    with pytest.raises(ValueError, match="empty axis"):
        jit(lambda v: mnp.pad(v, 1, mode="edge"))(np.ones(0, np.float32))


# --- einsum -----------------------------------------------------------------------------------

EINSUMS = [
    ("ij,jk->ik", [(3, 4), (4, 5)]), ("ij,jk", [(3, 4), (4, 5)]), ("...ij,...jk->...ik", [(2, 3, 4), (2, 4, 5)]),
    ("...ij,jk->...ik", [(2, 1, 3, 4), (4, 5)]), ("ii->i", [(4, 4)]), ("ii", [(4, 4)]), ("iij->j", [(3, 3, 2)]),
    ("ij,jk,kl->il", [(3, 4), (4, 5), (5, 2)]), ("i,i,i->", [(17,), (17,), (17,)]),
    ("bij,bjk,bkl,bl->bi", [(2, 3, 4), (2, 4, 5), (2, 5, 6), (2, 6)]), ("ij->", [(3, 17)]),
    ("i...->...", [(3, 2, 5)]), ("ij,ij->ij", [(3, 1), (3, 17)]), ("ijk,ikj->i", [(2, 3, 3), (2, 3, 3)]),
    ("ab,cd->abcd", [(2, 3), (1, 2)]), ("i,j", [(0,), (3,)]),
]


@pytest.mark.parametrize("subscripts,shapes", EINSUMS)
def test_einsum(rng, subscripts, shapes):
    ops = [rng.standard_normal(s).astype(np.float32) for s in shapes]
    got = jit(lambda *xs: [mnp.einsum(subscripts, *xs, optimize=o) for o in ("greedy", False)])(*ops)
    for g in got:
        check(g, np.einsum(subscripts, *[o.astype(np.float64) for o in ops]), np.float32, tol=1e-4)


def test_einsum_explicit_path_and_dtypes(rng):
    a, b, c = (rng.integers(-3, 3, size=s).astype(np.int32) for s in [(3, 4), (4, 5), (5, 2)])
    path = ["einsum_path", (1, 2), (0, 1)]
    check(jit(lambda a, b, c: mnp.einsum("ij,jk,kl->il", a, b, c, optimize=path))(a, b, c),
          np.einsum("ij,jk,kl->il", a, b, c))
    got = jit(lambda a, b: mnp.einsum("ij,jk->ik", a, b, preferred_element_type=np.float32))(a.astype(np.int8),
                                                                                              b.astype(np.int8))
    check(got, (a @ b).astype(np.float32))
    with pytest.raises(ValueError, match="einsum"):
        jit(lambda a: mnp.einsum("ij->k", a))(a)
    with pytest.raises(ValueError, match="einsum"):
        jit(lambda a: mnp.einsum("ijk", a))(a)


# --- statistics ----------------------------------------------------------------------------

def test_average_cov_corrcoef_ptp(rng):
    x = rng.standard_normal((3, 17)).astype(np.float32)
    w = rng.uniform(0.1, 1, size=17).astype(np.float32)
    check(jit(mnp.average)(x), np.float32(np.average(x)), tol=1e-5)
    check(jit(lambda x, w: mnp.average(x, axis=1, weights=w))(x, w), np.average(x, axis=1, weights=w), tol=1e-5)
    avg, total = jit(lambda x, w: mnp.average(x, axis=1, weights=w, returned=True))(x, w)
    want_avg, want_total = np.average(x, axis=1, weights=w, returned=True)
    check(avg, want_avg, tol=1e-5)
    check(total, want_total, tol=1e-5)
    check(jit(lambda x: mnp.average(x, axis=0, returned=True)[1])(x), np.full(17, 3.0, np.float32))
    check(jit(mnp.cov)(x), np.cov(x).astype(np.float32), tol=1e-5)
    check(jit(lambda x: mnp.cov(x, rowvar=False, bias=True))(x[:, :4]), np.cov(x[:, :4], rowvar=False, bias=True)
          .astype(np.float32), tol=1e-5)
    check(jit(mnp.corrcoef)(x), np.corrcoef(x).astype(np.float32), tol=1e-5)
    check(jit(lambda x: mnp.ptp(x, axis=1))(x), np.ptp(x, axis=1))
    xi = rng.integers(0, 9, size=(17,)).astype(np.int32)
    check(jit(mnp.average)(xi), np.float32(np.average(xi)))
    with pytest.raises(ValueError, match="1D weights"):
        jit(lambda x, w: mnp.average(x, axis=1, weights=w))(x, w[:3])


@pytest.mark.parametrize("bins,shape", [(1, (17,)), (4, (3, 17)), (10, (1,)), (10, (17,))])
def test_histogram(rng, bins, shape):
    x = rng.standard_normal(shape).astype(np.float32)
    counts, edges = jit(lambda v: mnp.histogram(v, bins=bins))(x)
    want_counts, want_edges = np.histogram(x, bins=bins)
    check(edges, want_edges.astype(np.float32), tol=1e-5)
    check(counts, want_counts, np.float32)  # JAX: counts have the (unit) weights' dtype
    counts, _ = jit(lambda v: mnp.histogram(v, bins=bins, range=(-1.0, 1.0)))(x)
    check(counts, np.histogram(x, bins=bins, range=(-1, 1))[0], np.float32)
    w = rng.uniform(size=shape).astype(np.float32)
    counts, _ = jit(lambda v, w: mnp.histogram(v, bins=bins, weights=w, density=True))(x, w)
    check(counts, np.histogram(x, bins=bins, weights=w, density=True)[0], np.float32, tol=1e-4)
    explicit = np.array([-1.0, 0.0, 0.5, 2.0], np.float32)
    counts, _ = jit(lambda v, e: mnp.histogram(v, bins=e))(x, explicit)
    check(counts, np.histogram(x, bins=explicit)[0], np.float32)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("bins,limits", [(50, (-4.0, 4.0)), (13, (-2.3, 3.7)), (1, (0.0, 1.0)), (7, None)])
def test_histogram_equal_bins_by_arithmetic(rng, dtype, bins, limits):
    """Equal bins are found by arithmetic (and corrected by one where rounding misses): the
    counts equal those of the same edges given explicitly (a binary search), on values
    lying exactly on edges or an ulp beside them, outside the range, infinite and NaN."""
    x = (rng.standard_normal(20000) * 2).astype(dtype)
    _, edges = jit(lambda v: mnp.histogram(v, bins=bins, range=limits))(x)
    edges = np.asarray(edges)
    x[:300] = rng.choice(edges, 300)
    # an ulp off each edge (inside the data's range when the range comes from it)
    below, above = np.nextafter(edges[1:], dtype(-np.inf)), np.nextafter(edges[:-1], dtype(np.inf))
    x[400:400 + 2 * bins] = np.concatenate([below, above])
    if limits is not None:
        x[300:306] = [np.nan, np.inf, -np.inf, np.nextafter(edges[-1], dtype(9)), np.nextafter(edges[0], dtype(-9)), -0.0]
    counts, _ = jit(lambda v: mnp.histogram(v, bins=bins, range=limits))(x)
    explicit, _ = jit(lambda v, e: mnp.histogram(v, bins=e))(x, edges)
    check(counts, np.asarray(explicit))
    check(counts, np.histogram(x, bins=edges)[0], np.float32 if dtype == np.float32 else np.float64)


def test_bincount(rng):
    x = rng.integers(0, 6, size=17).astype(np.int32)
    check(jit(lambda v: mnp.bincount(v, length=8))(x), np.bincount(x, minlength=8).astype(np.int32))
    check(jit(lambda v: mnp.bincount(v, minlength=6))(x), np.bincount(x, minlength=6).astype(np.int32))
    w = rng.uniform(size=17).astype(np.float32)
    check(jit(lambda v, w: mnp.bincount(v, w, length=6))(x, w), np.bincount(x, w, minlength=6).astype(np.float32),
          tol=1e-5)
    check(jit(lambda v: mnp.bincount(v, length=3))(x), np.bincount(x)[:3].astype(np.int32))  # larger dropped
    with pytest.raises(ValueError, match="length=N"):
        jit(mnp.bincount)(x)
    with pytest.raises(TypeError, match="integers"):
        jit(lambda v: mnp.bincount(v, length=3))(w)


# --- linalg ------------------------------------------------------------------------------------

@pytest.mark.parametrize("n", [1, 3, 17])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_linalg_square(rng, n, dtype):
    a = rng.standard_normal((2, n, n)).astype(dtype) + n * np.eye(n, dtype=dtype) * 0.5
    spd = (a @ np.swapaxes(a, -1, -2) + n * np.eye(n)).astype(dtype)
    b = rng.standard_normal((2, n, 3)).astype(dtype)
    tol = 2e-4 if dtype == np.float32 else 1e-10
    check(jit(mnp.linalg.det)(a), np.linalg.det(a), tol=tol)
    sign, logdet = jit(mnp.linalg.slogdet)(a)
    want_sign, want_logdet = np.linalg.slogdet(a)
    check(sign, want_sign, tol=tol)
    check(logdet, want_logdet, tol=tol)
    check(jit(mnp.linalg.inv)(a), np.linalg.inv(a), tol=tol)
    check(jit(mnp.linalg.solve)(a, b), np.linalg.solve(a, b), tol=tol)
    check(jit(mnp.linalg.solve)(a, b[..., 0]), np.linalg.solve(a, b[..., :1])[..., 0], tol=tol)
    check(jit(mnp.linalg.cholesky)(spd), np.linalg.cholesky(spd), tol=tol)
    check(jit(lambda m: mnp.linalg.matrix_power(m, 3))(a), np.linalg.matrix_power(a, 3), tol=tol * n)


def test_linalg_pivoting_singular_and_grad():
    a = np.array([[0.0, 1.0], [1.0, 0.0]], np.float32)  # needs a row swap
    check(jit(mnp.linalg.det)(a), np.float32(-1.0))
    check(jit(mnp.linalg.inv)(a), a)
    check(jit(mnp.linalg.det)(np.array([[1.0, 2.0], [2.0, 4.0]], np.float32)), np.float32(0.0))
    check(jit(mnp.linalg.det)(np.array([[2, 1], [1, 3]], np.int32)), np.float32(5.0), tol=1e-5)
    rng = np.random.default_rng(3)
    m = rng.standard_normal((3, 3)).astype(np.float64)
    g = mlc.grad(mnp.linalg.det)(m)
    check(g, np.linalg.det(m) * np.linalg.inv(m).T, tol=1e-9)
    nan = jit(mnp.linalg.cholesky)(np.array([[1.0, 2.0], [2.0, 1.0]], np.float32))
    assert np.isnan(nan[1, 1])  # not positive definite: NaN, as JAX
    with pytest.raises(ValueError, match="square"):
        jit(mnp.linalg.inv)(np.ones((2, 3), np.float32))


def test_vector_norms(rng):
    x = rng.standard_normal((3, 17)).astype(np.float32)
    ords = [None, 1, 2, np.inf, -np.inf, 0, 3, 0.5]
    got = jit(lambda v: [(mnp.linalg.norm(v, o, axis=1), mnp.linalg.norm(v[0], o, keepdims=True)) for o in ords])(x)
    for o, (rows, first) in zip(ords, got):
        check(rows, np.linalg.norm(x, o, axis=1), tol=1e-5)
        check(first, np.linalg.norm(x[0], o, keepdims=True), tol=1e-5)


def test_matrix_norms(rng):
    x = rng.standard_normal((2, 3, 17)).astype(np.float32)
    ords = [None, "fro", 1, -1, np.inf, -np.inf]
    got = jit(lambda v: [(mnp.linalg.norm(v, o, axis=(1, 2)), mnp.linalg.norm(v[0], o),
                          mnp.linalg.norm(v, o, axis=(2, 1), keepdims=True)) for o in ords])(x)
    for o, (a, b, c) in zip(ords, got):
        check(a, np.linalg.norm(x, o, axis=(1, 2)), tol=1e-5)
        check(b, np.linalg.norm(x[0], o), tol=1e-5)
        check(c, np.linalg.norm(x, o, axis=(2, 1), keepdims=True), tol=1e-5)


def test_norm_misc(rng):
    x = rng.standard_normal((3, 4, 5)).astype(np.float32)
    check(jit(mnp.linalg.norm)(x), np.linalg.norm(x), tol=1e-5)
    check(jit(mnp.linalg.norm)(np.arange(4, dtype=np.int32)), np.float32(np.linalg.norm(np.arange(4))))
    with pytest.raises(NotImplementedError, match="SVD"):
        jit(lambda v: mnp.linalg.norm(v, "nuc"))(x[0])
    with pytest.raises(NotImplementedError, match="mlc.numpy.linalg.svd is not implemented"):
        mnp.linalg.svd


# --- dtypes, creation, eager --------------------------------------------------------------------

def test_dtype_names():
    assert mnp.finfo(mnp.float32).eps == np.finfo(np.float32).eps
    assert mnp.finfo(np.ones(2, np.float64)).max == np.finfo(np.float64).max
    assert mnp.iinfo(mnp.int32).min == -2 ** 31
    assert mnp.result_type(np.int32, 1.0) == np.float32  # JAX: a Python float is weak
    assert mnp.result_type(np.uint32, np.int32) == np.int64
    assert mnp.issubdtype(np.float32, mnp.floating) and not mnp.issubdtype(np.int8, mnp.floating)
    with pytest.raises(AttributeError, match="bfloat16"):
        mnp.bfloat16  # numpy has no bfloat16 dtype, so neither does MLC (see module docstring)


def test_creation_names():
    check(jit(lambda: mnp.identity(3))(), np.identity(3, np.float32))
    check(jit(lambda: mnp.empty((2, 3), np.int32))(), np.zeros((2, 3), np.int32))
    check(jit(lambda x: mnp.empty_like(x))(np.ones(3, np.float64)), np.zeros(3))
    assert mnp.ndim(np.ones((2, 3))) == 2 and mnp.shape(np.ones((2, 3))) == (2, 3) and mnp.size(np.ones((2, 3))) == 6


def test_eager_calls(rng):
    x = rng.standard_normal((3, 5)).astype(np.float32)
    check(mnp.sinh(x), np.sinh(x))
    check(mnp.sort(x, axis=0), np.sort(x, axis=0))
    check(mnp.take(x, np.array([0, 2]), axis=1), x[:, [0, 2]])
    check(mnp.linalg.norm(x), np.linalg.norm(x), tol=1e-5)
    check(mnp.sum(x), np.float32(x.sum()), tol=1e-5)
    check(mnp.cumsum([1, 2, 3]), np.array([1, 3, 6], np.int32))
    check(mnp.array([1.0, 2.0]), np.array([1.0, 2.0], np.float32))  # JAX: Python floats are float32


def test_errors_name_the_problem():
    with pytest.raises(ValueError, match="axis 3 is out of bounds for an array of dimension 2"):
        jit(lambda v: mnp.sort(v, axis=3))(np.ones((2, 2), np.float32))
    with pytest.raises(ValueError, match="axis -3 is out of bounds"):
        jit(lambda v: mnp.nansum(v, axis=-3))(np.ones((2, 2), np.float32))
    with pytest.raises(ValueError, match="out of bounds"):
        jit(lambda v: mnp.cumprod(v, axis=1))(np.ones(2, np.float32))
    with pytest.raises(ValueError, match="same number of dimensions"):
        jit(lambda v: mnp.take_along_axis(v, np.zeros(2, np.int32), axis=0))(np.ones((2, 2), np.float32))
    with pytest.raises(ValueError, match="searchsorted: a must be one-dimensional"):
        jit(lambda v: mnp.searchsorted(v, 0.5))(np.ones((2, 2), np.float32))
    with pytest.raises(ValueError, match="sort: 'order'"):
        jit(lambda v: mnp.sort(v, order="x"))(np.ones(2, np.float32))


@pytest.mark.parametrize("shape,dtype", [((17,), np.int32), ((3, 17), np.float32), ((1,), np.float32),
                                         ((0,), np.int32)])
def test_unique_with_size(rng, shape, dtype):
    x = rng.integers(0, 6, size=shape).astype(dtype)
    if dtype == np.float32 and x.size > 2:
        x.flat[:2] = np.nan  # one NaN group (equal_nan)
    values, index, inverse, counts = np.unique(x, return_index=True, return_inverse=True, return_counts=True)
    k = len(values)
    got = jit(lambda v: mnp.unique(v, return_index=True, return_inverse=True, return_counts=True, size=k + 2))(x)
    check(got[0][:k], values)
    check(got[1][:k], index.astype(np.int32))
    check(got[2], inverse.astype(np.int32).reshape(x.shape))
    check(got[3][:k], counts.astype(np.int32))
    check(got[3][k:], np.zeros(2, np.int32))
    if k:
        check(got[0][k:], np.full(2, values[0], dtype))  # JAX: padded with the smallest value
        check(jit(lambda v: mnp.unique(v, size=1))(x), values[:1])  # past size: dropped
    with pytest.raises(ValueError, match="size=N"):
        jit(mnp.unique)(x)


def test_array_methods_of_the_new_names():
    """x.sort(), x.argsort(), x.take(), ... are bound on traced arrays as on jax.Array."""
    rng = np.random.default_rng(11)
    x = rng.standard_normal((3, 17)).astype(np.float32)
    f = mlc.jit(lambda v: (v.sort(axis=-1), v.argsort(axis=0), v.take(np.array([0, 2, 16]), axis=1),
                           v.cumprod(axis=1), v.diagonal(), v.trace(), v.ptp(axis=0), v.round(1),
                           v.repeat(2, axis=0), v[0].sort().searchsorted(0.25), v.conj()))
    xs = np.sort(x[0])
    ref = (np.sort(x, -1), np.argsort(x, 0, kind="stable"), x.take([0, 2, 16], axis=1), x.cumprod(1),
           x.diagonal(), x.trace(), np.ptp(x, 0), x.round(1), x.repeat(2, 0), np.searchsorted(xs, 0.25), x)
    for got, want in zip(f(x), ref):
        np.testing.assert_allclose(got, want, rtol=2e-5, atol=2e-5)


# --- beyond the common names: partition, lexsort, isin, polyval, trapezoid, heaviside -----

@pytest.mark.parametrize("shape,axis", [((4, 300), 1), ((300, 3), 0), ((17,), 0), ((2, 3, 40), -1)])
@pytest.mark.parametrize("dtype", [np.float32, np.int32])
def test_partition_and_argpartition(rng, shape, axis, dtype):
    """The kth element where a sort puts it, smaller ones before (ascending), larger after
    (descending); argpartition's positions give partition's values; ties and NaN included."""
    x = (rng.standard_normal(shape) * 4).astype(dtype)
    if dtype == np.float32:
        x.reshape(-1)[:2] = np.nan
    n = shape[axis]
    for kth in (0, 1, n // 2, n - 1, -2):
        k = kth % n
        part = np.asarray(jit(lambda a: mnp.partition(a, kth, axis=axis))(x))
        order = np.asarray(jit(lambda a: mnp.argpartition(a, kth, axis=axis))(x))
        s = np.sort(x, axis=axis)  # numpy: NaN last
        check(np.take(part, k, axis=axis), np.take(s, k, axis=axis))
        check(np.sort(np.take(part, range(k + 1), axis=axis), axis=axis), np.take(s, range(k + 1), axis=axis))
        check(np.take_along_axis(x, order, axis=axis), part)
        check(np.sort(order, axis=axis), np.broadcast_to(np.expand_dims(np.arange(n), tuple(
            d for d in range(x.ndim) if d != axis % x.ndim)), x.shape).astype(order.dtype))
    with pytest.raises(ValueError, match="out of bounds"):
        mnp.partition(x, n, axis=axis)


def test_lexsort(rng):
    keys = [rng.integers(0, 3, 60), rng.integers(0, 3, 60).astype(np.float32), rng.integers(0, 2, 60)]
    check(jit(lambda a, b, c: mnp.lexsort([a, b, c]))(*keys), np.lexsort(keys), np.int32)
    check(jit(lambda a: mnp.lexsort([a]))(keys[0]), np.lexsort([keys[0]]), np.int32)
    rows = rng.integers(0, 3, (2, 4, 9))
    check(jit(lambda a, b: mnp.lexsort([a, b], axis=1))(rows[0], rows[1]), np.lexsort([rows[0], rows[1]], axis=1),
          np.int32)


@pytest.mark.parametrize("test_size", [0, 5, 300])
def test_isin(rng, test_size):
    e = rng.integers(0, 400, (7, 9)).astype(np.int32)
    t = rng.integers(0, 400, test_size).astype(np.int32)
    check(jit(mnp.isin)(e, t), np.isin(e, t))
    check(jit(lambda a, b: mnp.isin(a, b, invert=True))(e, t), np.isin(e, t, invert=True))
    f = np.array([0.5, np.nan, -0.0, 2.0], np.float32)
    check(jit(mnp.isin)(f, np.array([0.0, np.nan, 2.0] * max(1, test_size // 3), np.float32)),
          np.isin(f, np.array([0.0, np.nan, 2.0], np.float32)))  # NaN is in nothing; -0.0 == 0.0


# Integer isin looks the elements up in a table of the test values when their span fits
# (decided at run time), else searches the sorted test values: test values near both ends
# of each type (the span computed without overflow), elements far outside the span (their
# offset wraps at 64 bits), a span one slot too wide, mixed dtypes.
@pytest.mark.parametrize("dtype", [np.int8, np.uint8, np.int16, np.int32, np.uint32, np.int64, np.uint64])
def test_isin_integer_table_and_search(rng, dtype):
    from mlc.frontend.sorting import isin_table_size
    info = np.iinfo(dtype)
    lo, hi = int(info.min), int(info.max)
    e = rng.integers(lo, hi, 2000, dtype=dtype, endpoint=True)
    e[:6] = np.array([lo, hi, 0, 1, hi - 1, lo + 1], dtype=object).astype(dtype)
    e[6:900] = rng.integers(0, 100, 894).astype(dtype)
    size = isin_table_size(e.size, 120)
    tests = [np.resize(e[:6], 120), (e[6:126] % 100).astype(dtype),
             np.arange(hi - 119, hi + 1, dtype=object).astype(dtype),
             np.arange(lo, lo + 120, dtype=object).astype(dtype), np.resize(np.array([lo, hi], dtype), 120)]
    if hi >= size:  # spans of exactly the table and one more: table, then search
        tests += [np.resize(np.array([0, size - 1], dtype), 120), np.resize(np.array([0, size], dtype), 120)]
    f = jit(mnp.isin)
    for t in tests:
        check(f(e, t), np.isin(e, t))
        check(jit(lambda a, b: mnp.isin(a, b, invert=True))(e, t), np.isin(e, t, invert=True))


def test_isin_under_vmap_takes_each_rows_path(rng):
    e = rng.integers(0, 50, (3, 200)).astype(np.int32)
    t = rng.integers(0, 50, (3, 100)).astype(np.int32)
    t[1, 0] = 10 ** 9  # row 1's span is too wide for the table: the batched predicate differs
    check(mlc.vmap(mnp.isin)(e, t), np.stack([np.isin(e[i], t[i]) for i in range(3)]))


def test_isin_mixed_integer_dtypes():
    a = np.arange(-5, 300, dtype=np.int16).reshape(5, 61)
    b = np.resize(np.array([1, 299, -5, 70000], np.int64), 100)
    check(jit(mnp.isin)(a, b), np.isin(a, b))
    a8, b8 = np.arange(-128, 128, dtype=np.int8), np.arange(0, 250, 3).astype(np.uint8)
    check(jit(mnp.isin)(a8, b8), np.isin(a8.astype(np.int16), b8.astype(np.int16)))


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int32])
def test_polyval(rng, dtype):
    p = np.array([2, -3, 0, 1, 5], dtype)
    x = (rng.standard_normal(17) * 3).astype(dtype)
    check(jit(mnp.polyval)(p, x), np.polyval(p, x).astype(dtype), tol=1e-5 if dtype == np.float32 else None)
    check(jit(mnp.polyval)(p[:1], x), np.full(x.shape, p[0], dtype))
    with pytest.raises(ValueError, match="one-dimensional"):
        mnp.polyval(np.ones((2, 2), dtype), x)


def test_trapezoid(rng):
    y = rng.standard_normal((3, 20)).astype(np.float32)
    xs = np.sort(rng.standard_normal(20)).astype(np.float32)
    check(jit(mnp.trapezoid)(y), np.trapezoid(y))
    check(jit(lambda a, b: mnp.trapezoid(a, b))(y, xs), np.trapezoid(y, xs))
    check(jit(lambda a, b: mnp.trapezoid(a, b, axis=1))(y, np.broadcast_to(xs, y.shape)), np.trapezoid(y, xs))
    check(jit(lambda a: mnp.trapezoid(a, dx=0.25, axis=0))(y), np.trapezoid(y, dx=0.25, axis=0))
    check(jit(mnp.trapezoid)(np.arange(5, dtype=np.int32)), np.float32(np.trapezoid(np.arange(5))))
    with pytest.raises(ValueError, match="points"):
        mnp.trapezoid(y, xs[:5])


def test_heaviside():
    x = np.array([-2.0, -0.0, 0.0, 3.0, np.nan, np.inf, -np.inf], np.float32)
    check(jit(lambda a: mnp.heaviside(a, 0.5))(x), np.heaviside(x, np.float32(0.5)))
    check(jit(mnp.heaviside)(x, x), np.heaviside(x, x))
