"""Numeric edge cases that once gave silent wrong answers, with numpy as the oracle (JAX's
answer where numpy has none or warns), over every dtype the op accepts and odd shapes
(zero-size, 1, 17). Random data is seeded per test.

Tolerances, per result dtype:

- integer and bool results: exact.
- `floor_divide`, `remainder` (floats): bit-exact, signs of zero and NaN included: MLC runs
  numpy's npy_divmod step for step (float16 in float32, as numpy does).
- `round(x, decimals)`: float32/float64 bit-exact (numpy's rint(x * 10^d) / 10^d); float16
  is computed in float32 (JAX's choice), so its oracle is numpy's float32 result rounded to
  float16, bit-exact.
- `log1p`, `expm1`: against numpy's float64 result rounded to the dtype, at most 1 ulp for
  float16, 3 ulp for float32 and 4 ulp for float64 (measured: 1, 2, 3); special values
  (+-0 with its sign, -1, +-inf, NaN, tiny |x| < 1e-8) exact.
- float16 `sum`/`mean`/`var`/`std`: against numpy in float64 rounded to float16, rtol 2e-3
  (two float16 ulps: the float32 accumulation plus the final rounding); float32 rtol 1e-5,
  float64 rtol 1e-12.
- `min`/`max`: exact.
"""

from __future__ import annotations

import zlib

import numpy as np
import pytest

import mlc
import mlc.numpy as mnp

SHAPES = [(0,), (1,), (17,)]
SIGNED = [np.int8, np.int16, np.int32, np.int64]
UNSIGNED = [np.uint8, np.uint16, np.uint32, np.uint64]
INTS = SIGNED + UNSIGNED
FLOATS = [np.float16, np.float32, np.float64]


def _rng(*key) -> np.random.Generator:
    """A generator seeded from the test's parameters (crc32: stable across processes)."""
    return np.random.default_rng(zlib.crc32(repr(key).encode()))


def _full_range_ints(rng, shape, dtype):
    info = np.iinfo(dtype)
    return rng.integers(info.min, info.max, size=shape, dtype=dtype, endpoint=True)


def assert_bitwise_equal(got, want):
    """Same dtype, shape and values, with NaN == NaN and +0 != -0."""
    got, want = np.asarray(got), np.asarray(want)
    assert got.dtype == want.dtype and got.shape == want.shape, (got.dtype, got.shape, want.dtype, want.shape)
    if want.dtype.kind == "f":
        same = (got == want) & (np.signbit(got) == np.signbit(want))
        same |= np.isnan(got) & np.isnan(want)
        bad = ~same
        assert not bad.any(), f"{bad.sum()} differ: got {got[bad][:8]}, want {want[bad][:8]}"
    else:
        np.testing.assert_array_equal(got, want)


def ulp_distance(got, want) -> np.ndarray:
    """|got - want| in units of want's ulp (0 where both are NaN or both the same)."""
    got, want = np.asarray(got), np.asarray(want)
    same = (got == want) | (np.isnan(got) & np.isnan(want))
    with np.errstate(all="ignore"):
        d = np.abs(got.astype(np.float64) - want.astype(np.float64)) / np.spacing(np.abs(want)).astype(np.float64)
    d = np.where(same, 0.0, d)
    return np.where(np.isnan(d), np.inf, d)


# --- 1. shifts ----------------------------------------------------------------------------

@pytest.mark.parametrize("dtype", INTS)
@pytest.mark.parametrize("shape", SHAPES)
def test_shifts_match_numpy_random(dtype, shape):
    """numpy's << and >> (logical for unsigned: 255u8 >> 1 = 127), counts in [0, width)."""
    rng = _rng("shift", dtype, shape)
    width = np.dtype(dtype).itemsize * 8
    x = _full_range_ints(rng, shape, dtype)
    s = rng.integers(0, width, size=shape).astype(dtype)
    left, right = mlc.jit(lambda x, s: (x << s, x >> s))(x, s)
    assert_bitwise_equal(left, np.left_shift(x, s))
    assert_bitwise_equal(right, np.right_shift(x, s))


@pytest.mark.parametrize("dtype", INTS)
def test_shifts_by_width_or_more_and_negative_counts(dtype):
    """Counts >= the bit width (and negative counts, which are huge as unsigned) give 0 for
    << and for logical >>, the sign fill for arithmetic >>: numpy's npy_lshift/npy_rshift."""
    info = np.iinfo(dtype)
    width = np.dtype(dtype).itemsize * 8
    values = np.array([info.min, info.min + 1, -1 if info.min else 1, 0, 1, info.max // 3, info.max],
                      dtype=dtype)
    counts = list(range(0, width + 3)) + [info.max]
    if info.min:
        counts += [-1, -width, info.min]
    else:
        counts += [width * 4]  # e.g. 200 for uint8
    x, s = np.meshgrid(values, np.array(counts, dtype=dtype), indexing="ij")
    x, s = x.ravel(), s.ravel()
    left, right = mlc.jit(lambda x, s: (x << s, x >> s))(x, s)
    assert_bitwise_equal(left, np.left_shift(x, s))
    assert_bitwise_equal(right, np.right_shift(x, s))


def test_unsigned_right_shift_is_logical():
    assert mlc.jit(lambda x: x >> 1)(np.array([255], np.uint8))[0] == 127
    assert mlc.jit(lambda x: x >> 8)(np.array([255], np.uint8))[0] == 0
    big = np.array([2**64 - 1], np.uint64)
    assert mlc.jit(lambda x: x >> 63)(big)[0] == 1


def test_bool_shifts_are_int32():
    """numpy shifts bools as int8; JAX (and MLC) promote them to int32. Same values."""
    x = np.array([True, False, True, False])
    s = np.array([True, True, False, False])
    left, right = mlc.jit(lambda x, s: (x << s, x >> s))(x, s)
    assert left.dtype == right.dtype == np.int32
    np.testing.assert_array_equal(left, np.left_shift(x, s))
    np.testing.assert_array_equal(right, np.right_shift(x, s))


# --- 2. unsigned start / gather / scatter indices -------------------------------------------

_INDEX_DTYPES = {np.uint8: "ui8", np.uint16: "ui16", np.uint32: "ui32", np.uint64: "ui64",
                 np.int8: "i8", np.int16: "i16", np.int32: "i32", np.int64: "i64"}


def _index_module(n: int, m: int, it: str) -> str:
    """dynamic_slice (size 2) and dynamic_update_slice at a scalar start; gather and scatter
    (add) of single elements at m indices; over an f32 vector of n >= 2 elements."""
    return f'''
func.func @main(%x: tensor<{n}xf32>, %i: tensor<{it}>, %g: tensor<{m}x1x{it}>, %u: tensor<{m}xf32>, %w: tensor<2xf32>)
    -> (tensor<2xf32>, tensor<{n}xf32>, tensor<{m}xf32>, tensor<{n}xf32>) {{
  %0 = "hlo.dynamic_slice"(%x, %i) {{slice_sizes = array<i64: 2>}} : (tensor<{n}xf32>, tensor<{it}>) -> tensor<2xf32>
  %1 = "hlo.dynamic_update_slice"(%x, %w, %i) : (tensor<{n}xf32>, tensor<2xf32>, tensor<{it}>) -> tensor<{n}xf32>
  %2 = "hlo.gather"(%x, %g) {{collapsed_slice_dims = array<i64: 0>, index_vector_dim = 1 : i64, offset_dims = array<i64>, slice_sizes = array<i64: 1>, start_index_map = array<i64: 0>}} : (tensor<{n}xf32>, tensor<{m}x1x{it}>) -> tensor<{m}xf32>
  %3 = "hlo.scatter"(%x, %g, %u) {{update_window_dims = array<i64>, inserted_window_dims = array<i64: 0>, scatter_dims_to_operand_dims = array<i64: 0>, index_vector_dim = 1 : i64, kind = "add"}} : (tensor<{n}xf32>, tensor<{m}x1x{it}>, tensor<{m}xf32>) -> tensor<{n}xf32>
  return %0, %1, %2, %3 : tensor<2xf32>, tensor<{n}xf32>, tensor<{m}xf32>, tensor<{n}xf32>
}}
'''


@pytest.mark.parametrize("dtype", list(_INDEX_DTYPES))
@pytest.mark.parametrize("m", [0, 1, 17])
def test_index_operands_keep_their_signedness(dtype, m):
    """An unsigned index is its unsigned value: ui8 200 is 200 (not -56), and a ui64 near
    2^64 is huge: dynamic_slice/gather clamp it to the last start, scatter drops it.
    Signed indices: negative starts clamp to 0, negative scatter indices are dropped."""
    rng = _rng("index", dtype, m)
    n = 300 if np.dtype(dtype).itemsize > 1 or dtype == np.uint8 else 120
    info = np.iinfo(dtype)
    specials = [v for v in (0, 1, n - 2, n - 1, n, 200, info.max, info.max - 2, info.min, -1, -56,
                            2**63, 2**63 + 5, 2**32 + 3)
                if info.min <= v <= info.max]
    x = rng.standard_normal(n).astype(np.float32)
    w = np.array([100.0, 200.0], np.float32)
    g = np.array((specials * 3)[:m] if m > 1 else specials[-1:][:m], dtype=dtype)
    u = np.arange(1, m + 1, dtype=np.float32)
    f = mlc.compile(_index_module(n, m, _INDEX_DTYPES[dtype]))
    for start in specials:
        i = np.array(start, dtype=dtype)
        sliced, updated, gathered, scattered = f(x, i, g.reshape(m, 1), u, w)
        clamped = min(max(int(start), 0), n - 2)
        np.testing.assert_array_equal(sliced, x[clamped:clamped + 2])
        want = x.copy()
        want[clamped:clamped + 2] = w
        np.testing.assert_array_equal(updated, want)
        np.testing.assert_array_equal(gathered, x[np.clip(g.astype(object), 0, n - 1).astype(np.int64)])
        want = x.copy()
        for k, idx in enumerate(g.tolist()):
            if 0 <= idx < n:
                want[idx] += u[k]
        np.testing.assert_array_equal(scattered, want)


def test_jit_indexing_with_wide_unsigned_index():
    x = np.arange(300.0)
    got = mlc.jit(lambda x, i: (x[i], x[mnp.stack([i, i])]))(x, np.uint32(3_000_000_000))
    assert got[0] == 299.0  # JAX clamps a traced out-of-range index


def test_jit_indexing_with_small_unsigned_index():
    x = np.arange(300.0)
    assert mlc.jit(lambda x, i: x[i])(x, np.uint8(200)) == 200.0
    np.testing.assert_array_equal(mlc.jit(lambda x, i: x[i])(x, np.array([200, 255, 3], np.uint8)),
                                  [200.0, 255.0, 3.0])


# --- 3. float16 reductions accumulate in float32 -------------------------------------------

_REDUCTION_RTOL = {np.dtype(np.float16): 2e-3, np.dtype(np.float32): 1e-5, np.dtype(np.float64): 1e-12}


@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("shape", SHAPES + [(3, 17), (100_000,)])
def test_float_sum_mean_var_std(dtype, shape):
    """A float16 mean of 1e5 elements is finite (the sum is float32); sum overflows to inf
    exactly when the float64 sum rounds to inf in float16, as numpy's does."""
    rng = _rng("reduce", dtype, shape)
    x = rng.uniform(0.5, 1.5, size=shape).astype(dtype)
    axis = -1 if len(shape) == 2 else None
    got = mlc.jit(lambda x: (mnp.sum(x, axis=axis), mnp.mean(x, axis=axis), mnp.var(x, axis=axis),
                             mnp.std(x, axis=axis)))(x)
    wide = x.astype(np.float64)
    with np.errstate(all="ignore"):
        want = [np.sum(wide, axis=axis), np.mean(wide, axis=axis), np.var(wide, axis=axis),
                np.std(wide, axis=axis)]
    for g, w in zip(got, want):
        assert g.dtype == np.dtype(dtype)
        np.testing.assert_allclose(g, np.asarray(w).astype(dtype), rtol=_REDUCTION_RTOL[np.dtype(dtype)],
                                   atol=0, equal_nan=True)


def test_float16_mean_of_many_large_values():
    x = np.full(100_000, 1000.0, np.float16)  # the float16 sum would be inf
    mean, var = mlc.jit(lambda x: (mnp.mean(x), mnp.var(x)))(x)
    assert mean == np.float16(1000.0) and var == 0
    assert mlc.jit(mnp.sum)(x) == np.inf  # 1e8 is past float16's range, as numpy's sum


@pytest.mark.parametrize("dtype", INTS + [np.bool_])
def test_integer_mean_var(dtype):
    rng = _rng("imean", dtype)
    x = (rng.random(17) < 0.5) if dtype == np.bool_ else rng.integers(0, 100, 17).astype(dtype)
    mean, var = mlc.jit(lambda x: (mnp.mean(x), mnp.var(x)))(x)
    assert mean.dtype == var.dtype == np.float32
    np.testing.assert_allclose(mean, np.mean(x), rtol=1e-6)
    np.testing.assert_allclose(var, np.var(x), rtol=1e-5)


# --- 4. log1p, expm1 ----------------------------------------------------------------------

_ULP_BOUND = {np.dtype(np.float16): 1, np.dtype(np.float32): 3, np.dtype(np.float64): 4}


def _wide_range(rng, dtype, n):
    fi = np.finfo(dtype)
    logs = rng.uniform(np.log(float(fi.smallest_subnormal)), np.log(float(fi.max)), n)
    mags = np.exp(logs).astype(dtype)
    near = np.concatenate([rng.uniform(-1, 1, n // 4), rng.uniform(-1e-3, 1e-3, n // 4),
                           rng.uniform(-100, 100, n // 4)]).astype(dtype)
    specials = np.array([0.0, -0.0, -1.0, 1.0, np.inf, -np.inf, np.nan, 1e-10, -1e-10, 1e-8, -1e-8,
                         3e-9, -0.5, -0.999, 0.5, 1e-5, fi.max, -fi.max, fi.tiny, -fi.tiny,
                         fi.smallest_subnormal, 80.0, 88.7, 89.0, 709.0, 710.0, -745.0, -1e300],
                        np.float64)
    with np.errstate(all="ignore"):
        return np.concatenate([mags, -mags, near, specials.astype(dtype)])


@pytest.mark.parametrize("name", ["log1p", "expm1"])
@pytest.mark.parametrize("dtype", FLOATS)
def test_log1p_expm1_accuracy(name, dtype):
    rng = _rng(name, dtype)
    x = _wide_range(rng, dtype, 20_000)
    got = mlc.jit(getattr(mnp, name))(x)
    with np.errstate(all="ignore"):
        want = getattr(np, name)(x.astype(np.float64)).astype(dtype)
    d = ulp_distance(got, want)
    worst = int(np.argmax(d))
    assert d.max() <= _ULP_BOUND[np.dtype(dtype)], (x[worst], got[worst], want[worst], d.max())
    # Exact where the answer is exact: |x| < eps/4 (the answer is x, sign of zero kept), and
    # +-inf, NaN, log1p(-1) = -inf and expm1's -1 below -50.
    exact = (np.abs(x) < np.finfo(dtype).eps / 4) | ~np.isfinite(x)
    exact |= (x < -50) if name == "expm1" else (x == -1)
    assert_bitwise_equal(got[exact], want[exact])


@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("shape", SHAPES)
def test_log1p_expm1_small_arguments(dtype, shape):
    x = (_rng("small", dtype, shape).uniform(-1e-6, 1e-6, shape)).astype(dtype)
    l1, e1 = mlc.jit(lambda x: (mnp.log1p(x), mnp.expm1(x)))(x)
    for got, fn in ((l1, np.log1p), (e1, np.expm1)):
        want = fn(x.astype(np.float64)).astype(dtype)
        assert got.dtype == np.dtype(dtype)
        assert ulp_distance(got, want).max(initial=0) <= _ULP_BOUND[np.dtype(dtype)]


def test_log1p_expm1_at_1e_minus_10():
    for dtype in (np.float32, np.float64):
        x = np.array([1e-10, -1e-10], dtype)
        np.testing.assert_allclose(mlc.jit(mnp.log1p)(x), np.log1p(x), rtol=np.finfo(dtype).eps)
        np.testing.assert_allclose(mlc.jit(mnp.expm1)(x), np.expm1(x), rtol=np.finfo(dtype).eps)


# --- 5. floor_divide, remainder -------------------------------------------------------------

_FLOAT_SPECIALS = [0.0, -0.0, 1.0, -1.0, 1.5, -1.5, 7.0, -7.0, 2.0, -3.5, 0.1, 1e-30, -1e-30,
                   1e30, -1e30, np.inf, -np.inf, np.nan]


@pytest.mark.parametrize("dtype", FLOATS)
def test_float_floor_divide_remainder_special_values(dtype):
    """Every pair of specials: inf // 1 is NaN, x // 0 is x / 0, -0.0 // 1 is -0.0, signs of
    zero remainders follow the divisor; numpy's answers bit for bit."""
    v = np.array(_FLOAT_SPECIALS, np.float64)
    with np.errstate(all="ignore"):
        a, b = [m.ravel().astype(dtype) for m in np.meshgrid(v, v, indexing="ij")]
    q, r = mlc.jit(lambda a, b: (a // b, a % b))(a, b)
    with np.errstate(all="ignore"):
        assert_bitwise_equal(q, np.floor_divide(a, b))
        assert_bitwise_equal(r, np.remainder(a, b))
        assert_bitwise_equal(mlc.jit(mnp.mod)(a, b), np.mod(a, b))


@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("shape", SHAPES)
def test_float_floor_divide_remainder_random(dtype, shape):
    rng = _rng("fdiv", dtype, shape)
    a = (rng.standard_normal(shape) * 100).astype(dtype)
    b = (rng.standard_normal(shape) * rng.choice([0.01, 1, 100], shape)).astype(dtype)
    q, r = mlc.jit(lambda a, b: (mnp.floor_divide(a, b), mnp.remainder(a, b)))(a, b)
    with np.errstate(all="ignore"):
        assert_bitwise_equal(q, np.floor_divide(a, b))
        assert_bitwise_equal(r, np.remainder(a, b))


def _jax_int_floor_divide(a, b):
    """numpy's // where b != 0 (INT_MIN // -1 wraps to INT_MIN); JAX's x // 0 otherwise:
    XLA's x / 0 = -1 (all ones unsigned), stepped down once more for x != 0 (signed)."""
    safe = np.where(b == 0, 1, b)
    with np.errstate(all="ignore"):
        q = np.floor_divide(a, safe)
    if a.dtype.kind == "u":
        by_zero = np.full_like(a, np.iinfo(a.dtype).max)
    else:
        by_zero = np.where(a != 0, -2, -1).astype(a.dtype)
    return np.where(b == 0, by_zero, q).astype(a.dtype)


def _int_remainder(a, b):
    """numpy's %: x % 0 is 0 (JAX agrees)."""
    with np.errstate(all="ignore"):
        return np.where(b == 0, 0, np.remainder(a, np.where(b == 0, 1, b))).astype(a.dtype)


@pytest.mark.parametrize("dtype", INTS)
@pytest.mark.parametrize("shape", SHAPES)
def test_integer_floor_divide_remainder(dtype, shape):
    rng = _rng("idiv", dtype, shape)
    info = np.iinfo(dtype)
    a = _full_range_ints(rng, shape, dtype)
    b = rng.integers(max(info.min, -9), min(info.max, 9), size=shape, endpoint=True).astype(dtype)
    if shape == (17,):  # zero divisors, INT_MIN // -1, exact and inexact negatives
        a[:6] = [info.min, info.min, 0, 7, info.max, info.min + 1]
        b[:6] = [-1 if info.min else 1, 0, 0, 0, 0, 0]
        a[6:9] = np.array([7, 6, 5], dtype)
        b[6:9] = np.array([-2, -3, 2] if info.min else [2, 3, 2], dtype)
    q, r = mlc.jit(lambda a, b: (a // b, a % b))(a, b)
    assert_bitwise_equal(q, _jax_int_floor_divide(a, b))
    assert_bitwise_equal(r, _int_remainder(a, b))


def test_bool_floor_divide_remainder_are_int32():
    a = np.array([True, True, False, False])
    b = np.array([True, False, True, False])
    q, r = mlc.jit(lambda a, b: (a // b, a % b))(a, b)
    assert q.dtype == r.dtype == np.int32
    a32, b32 = a.astype(np.int32), b.astype(np.int32)
    np.testing.assert_array_equal(q, _jax_int_floor_divide(a32, b32))
    np.testing.assert_array_equal(r, _int_remainder(a32, b32))


# --- 6. masked arrays -----------------------------------------------------------------------

def test_masked_array_argument_is_a_type_error():
    masked = np.ma.array([1.0, 2.0], mask=[False, True])
    f = mlc.jit(lambda x: x + 1)
    with pytest.raises(TypeError, match="masked array"):
        f(masked)
    f(np.array([1.0, 2.0]))  # now the fast path holds this signature
    with pytest.raises(TypeError, match="masked array"):
        f(masked)
    with pytest.raises(TypeError, match="masked array"):
        f.lower(masked)
    with pytest.raises(TypeError, match="masked array"):
        mlc.jit(lambda t: t[0] * 2)((masked,))
    executable = f.lower(np.array([1.0, 2.0])).compile()
    with pytest.raises(TypeError, match="masked array"):
        executable(masked)


# --- 7. min/max of wide unsigned, round -------------------------------------------------------

def _min_max_cases():
    cases = []
    for dtype in INTS + FLOATS + [np.bool_]:
        for op in ("min", "max"):
            cases.append(pytest.param(dtype, op))
    return cases


@pytest.mark.parametrize("dtype,op", _min_max_cases())
@pytest.mark.parametrize("shape", [(1,), (17,), (3, 17), (2048,)])
def test_min_max_full_range(dtype, op, shape):
    """Values over the dtype's whole range (uint64 above 2^63; floats with inf and NaN)."""
    rng = _rng("minmax", dtype, op, shape)
    if dtype == np.bool_:
        x = rng.random(shape) < 0.5
    elif np.dtype(dtype).kind == "f":
        x = (rng.standard_normal(shape) * 1e3).astype(dtype)
        if x.size >= 17:
            x.flat[3], x.flat[5] = np.inf, -np.inf
            if shape == (2048,):
                x.flat[1000] = np.nan
    else:
        x = _full_range_ints(rng, shape, dtype)
    got = mlc.jit(lambda x: (getattr(mnp, op)(x), getattr(mnp, op)(x, axis=-1, keepdims=True)))(x)
    assert_bitwise_equal(got[0], getattr(np, op)(x))
    assert_bitwise_equal(got[1], getattr(np, op)(x, axis=-1, keepdims=True))


@pytest.mark.parametrize("dtype", [np.uint32, np.uint64])
def test_min_max_wide_unsigned_unoptimized(dtype):
    """The lowering itself is right for values above 2^31 / 2^63 (at opt_level 0 nothing
    folds the init constant)."""
    info = np.iinfo(dtype)
    x = np.array([info.max, info.max // 2 + 5, 7, info.max - 1], dtype)
    f = mlc.jit(lambda x: (mnp.min(x), mnp.max(x)), opt_level=0)
    lo, hi = f(x)
    assert lo == 7 and hi == info.max
    lo, hi = f(np.array([info.max, info.max // 2 + 5, info.max // 2 + 9, info.max - 1], dtype))
    assert lo == info.max // 2 + 5 and hi == info.max


@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("decimals", [-2, -1, 0, 1, 3])
def test_round_floats(dtype, decimals):
    """Half to even at `decimals` digits (2.5 -> 2, 0.125 -> 0.12), as numpy."""
    rng = _rng("round", dtype, decimals)
    x = np.concatenate([rng.uniform(-300, 300, 40), rng.integers(-40, 40, 17) / 8.0,
                        rng.integers(-40, 40, 17) * 5.0, [0.0, -0.0, np.inf, -np.inf, np.nan, 2.675]])
    x = x.astype(dtype)
    got = mlc.jit(lambda x: mnp.round(x, decimals))(x)
    with np.errstate(all="ignore"):
        want = (np.round(x.astype(np.float32), decimals).astype(dtype) if dtype == np.float16
                else np.round(x, decimals))
    assert_bitwise_equal(got, want)


@pytest.mark.parametrize("shape", SHAPES)
def test_round_default_and_around(shape):
    x = (_rng("round0", shape).integers(-20, 20, shape) / 2.0).astype(np.float32)
    assert_bitwise_equal(mlc.jit(mnp.round)(x), np.round(x))
    assert_bitwise_equal(mlc.jit(lambda x: mnp.around(x, 1))(x), np.around(x, 1))


@pytest.mark.parametrize("dtype", INTS)
@pytest.mark.parametrize("decimals", [-3, -2, -1, 0, 2])
def test_round_integers(dtype, decimals):
    """Integers are unchanged for decimals >= 0; for decimals < 0 they round half to even,
    exactly (numpy computes in float64; values here stay where that is exact and the
    result fits)."""
    rng = _rng("iround", dtype, decimals)
    info = np.iinfo(dtype)
    factor = 10 ** max(-decimals, 0)
    margin = factor if factor <= info.max // 2 else 0  # a factor past the range rounds all to 0
    low = max(info.min + margin if info.min else 0, -10**12)
    high = min(info.max - margin, 10**12)
    x = rng.integers(low, high, size=40, endpoint=True).astype(dtype)
    ties = np.array([v for v in (5, 15, 25, 35, 50, 150, 250, 500, 1500, 2500, -5, -15, -25, -250, -2500)
                     if low <= v <= high], dtype)
    x = np.concatenate([x, ties])
    got = mlc.jit(lambda x: mnp.round(x, decimals))(x)
    assert_bitwise_equal(got, np.round(x, decimals))


def test_round_bool_is_unchanged():
    x = np.array([True, False])
    got = mlc.jit(mnp.round)(x)
    np.testing.assert_array_equal(got, np.round(x))  # numpy: float16 [1., 0.]; same values
