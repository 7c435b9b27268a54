"""Every elementwise hlo op against numpy, on 0-d, size-1, zero-size and ordinary shapes,
for every dtype the op accepts."""

from __future__ import annotations

import numpy as np
import pytest
from conftest import assert_matches, random_array, run_hlo

from mlc.dialects import hlo

SHAPES = [(), (1,), (0,), (7,), (3, 4), (2, 0, 3), (1, 5, 1)]
NUMBER_DTYPES = [np.float16, np.float32, np.float64, np.int8, np.int16, np.int32, np.int64,
                 np.uint8, np.uint32]
ALL_DTYPES = NUMBER_DTYPES + [np.bool_]
FLOAT_DTYPES = [np.float16, np.float32, np.float64]


def xla_divide(a, b):
    """StableHLO/XLA division: floats IEEE; integers truncate, x/0 = -1, MIN/-1 = MIN."""
    if np.issubdtype(a.dtype, np.floating):
        with np.errstate(all="ignore"):
            return a / b
    if np.issubdtype(a.dtype, np.unsignedinteger):  # x / 0 = all ones
        return np.where(b == 0, np.iinfo(a.dtype).max, a // np.where(b == 0, 1, b)).astype(a.dtype)
    safe = np.where(b == 0, 1, b)
    with np.errstate(all="ignore"):
        q = np.trunc(a.astype(np.float64) / safe.astype(np.float64))
    q = np.where(b == 0, -1, q)
    int_min = np.iinfo(a.dtype).min
    q = np.where((a == int_min) & (b == -1), int_min, q)
    return q.astype(a.dtype)


INT_DTYPES = [np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint32]


def xla_remainder(a, b):
    if np.issubdtype(a.dtype, np.floating):
        with np.errstate(all="ignore"):
            return np.fmod(a, b)
    if np.issubdtype(a.dtype, np.unsignedinteger):
        return np.where(b == 0, a, a % np.where(b == 0, 1, b)).astype(a.dtype)
    safe = np.where((b == 0) | (b == -1), 1, b)
    return np.where(b == 0, a, np.fmod(a, safe)).astype(a.dtype)


def xla_power(a, b):
    if np.issubdtype(a.dtype, np.floating):
        with np.errstate(all="ignore"):
            return np.power(a, b)
    positive = np.power(a, np.where(b < 0, 0, b))
    negative = np.where(a == 1, 1, np.where(a == -1, np.where(b % 2 == 1, -1, 1), 0))
    return np.where(b < 0, negative, positive).astype(a.dtype)


def _unsigned(x):
    return x.view(np.dtype(f"u{x.dtype.itemsize}"))


def xla_shift(kind):
    def reference(a, b):
        width = a.dtype.itemsize * 8
        too_far = _unsigned(b) >= width
        safe = np.where(too_far, 0, b).astype(a.dtype)
        if kind == "left":
            return np.where(too_far, 0, np.left_shift(a, safe)).astype(a.dtype)
        if kind == "arithmetic":  # on the bits as signed, also for unsigned types
            signed = a.view(np.dtype(f"i{a.dtype.itemsize}"))
            shifted = np.where(too_far, np.right_shift(signed, width - 1),
                               np.right_shift(signed, safe.view(signed.dtype)))
            return shifted.astype(signed.dtype).view(a.dtype)
        logical = np.right_shift(_unsigned(a), _unsigned(safe)).view(a.dtype)
        return np.where(too_far, 0, logical).astype(a.dtype)
    return reference


BINARY = {
    "add": (hlo.add, ALL_DTYPES, lambda a, b: a | b if a.dtype == np.bool_ else a + b),
    "subtract": (hlo.subtract, NUMBER_DTYPES, lambda a, b: a - b),
    "multiply": (hlo.multiply, ALL_DTYPES, lambda a, b: a & b if a.dtype == np.bool_ else a * b),
    "divide": (hlo.divide, NUMBER_DTYPES, xla_divide),
    "remainder": (hlo.remainder, NUMBER_DTYPES, xla_remainder),
    "power": (hlo.power, NUMBER_DTYPES, xla_power),
    "maximum": (hlo.maximum, ALL_DTYPES, np.maximum),
    "minimum": (hlo.minimum, ALL_DTYPES, np.minimum),
    "atan2": (hlo.atan2, FLOAT_DTYPES, np.arctan2),
    "and": (hlo.and_, INT_DTYPES + [np.bool_], np.bitwise_and),
    "or": (hlo.or_, INT_DTYPES + [np.bool_], np.bitwise_or),
    "xor": (hlo.xor, INT_DTYPES + [np.bool_], np.bitwise_xor),
    "shift_left": (hlo.shift_left, INT_DTYPES, xla_shift("left")),
    "shift_right_arithmetic": (hlo.shift_right_arithmetic, INT_DTYPES, xla_shift("arithmetic")),
    "shift_right_logical": (hlo.shift_right_logical, INT_DTYPES, xla_shift("logical")),
}
LOOSE_BINARY = {"power", "atan2", "remainder"}


@pytest.mark.parametrize("name", BINARY)
@pytest.mark.parametrize("shape", SHAPES)
def test_binary_all_dtypes(name, shape, rng):
    build, dtypes, reference = BINARY[name]
    for dtype in dtypes:
        a, b = random_array(rng, shape, dtype), random_array(rng, shape, dtype)
        with np.errstate(all="ignore"):
            want = reference(a, b)
        assert_matches(run_hlo(build, a, b), want, loose=name in LOOSE_BINARY)


def test_clamp_with_scalar_and_full_bounds(rng):
    x = random_array(rng, (3, 4), np.float32)
    x[0, 0] = np.nan
    low, high = np.float32(-1.0), np.abs(random_array(rng, (3, 4), np.float32))
    assert_matches(run_hlo(hlo.clamp, low, x, high), np.minimum(np.maximum(x, low), high))
    i = random_array(rng, (5,), np.int32)
    assert_matches(run_hlo(hlo.clamp, np.int32(-3), i, np.int32(7)), np.clip(i, -3, 7))


def test_integer_remainder_and_power_edge_cases():
    a = np.array([7, -7, 7, -7, 5, np.iinfo(np.int32).min, 2, -1, 1, 3], np.int32)
    b = np.array([3, 3, -3, -3, 0, -1, -1, -3, -5, 0], np.int32)
    assert_matches(run_hlo(hlo.remainder, a, b), np.array([1, -1, 1, -1, 5, 0, 0, -1, 1, 3], np.int32))
    assert_matches(run_hlo(hlo.power, a, b), xla_power(a, b))


def test_divide_integer_edge_cases():
    a = np.array([7, -7, 7, -7, 5, np.iinfo(np.int32).min, 0], np.int32)
    b = np.array([2, 2, -2, -2, 0, -1, 3], np.int32)
    assert_matches(run_hlo(hlo.divide, a, b), np.array([3, -3, -3, 3, -1, np.iinfo(np.int32).min, 0], np.int32))


def test_maximum_minimum_propagate_nan():
    a = np.array([np.nan, 1.0, -0.0], np.float32)
    b = np.array([1.0, np.nan, 0.0], np.float32)
    assert_matches(run_hlo(hlo.maximum, a, b), np.maximum(a, b))
    assert_matches(run_hlo(hlo.minimum, a, b), np.minimum(a, b))


def _positive(rng, shape, dtype):
    return (np.abs(random_array(rng, shape, dtype)) + 0.5).astype(dtype)


def round_half_away(x):
    wide = x.astype(np.float64)
    return (np.sign(wide) * np.floor(np.abs(wide) + 0.5)).astype(x.dtype)


def count_leading_zeros(x):
    width = x.dtype.itemsize * 8
    bits = np.array([int(v).bit_length() for v in _unsigned(x).reshape(-1)], dtype=np.int64)
    return (width - bits).reshape(x.shape).astype(x.dtype)


def _in_unit_interval(rng, shape, dtype):
    return (rng.random(shape) * 1.8 - 0.9).astype(dtype)


UNARY = {
    # name: (builder, dtypes, reference, input maker, loose tolerance)
    "negate": (hlo.negate, NUMBER_DTYPES, np.negative, random_array, False),
    "abs": (hlo.abs, NUMBER_DTYPES, np.abs, random_array, False),
    "sign": (hlo.sign, NUMBER_DTYPES,
             lambda x: np.where(x > 0, 1, np.where(x < 0, -1, x)).astype(x.dtype), random_array, False),
    "floor": (hlo.floor, FLOAT_DTYPES, np.floor, random_array, False),
    "ceil": (hlo.ceil, FLOAT_DTYPES, np.ceil, random_array, False),
    "round_nearest_even": (hlo.round_nearest_even, FLOAT_DTYPES, np.rint, random_array, False),
    "round_nearest_afz": (hlo.round_nearest_afz, FLOAT_DTYPES, round_half_away, random_array, False),
    "exponential": (hlo.exponential, FLOAT_DTYPES, np.exp, random_array, True),
    "exponential_minus_one": (hlo.exponential_minus_one, FLOAT_DTYPES, np.expm1, random_array, True),
    "log": (hlo.log, FLOAT_DTYPES, np.log, _positive, True),
    "log_plus_one": (hlo.log_plus_one, FLOAT_DTYPES, np.log1p, _in_unit_interval, True),
    "logistic": (hlo.logistic, FLOAT_DTYPES, lambda x: (1 / (1 + np.exp(-x))).astype(x.dtype),
                 random_array, True),
    "tanh": (hlo.tanh, FLOAT_DTYPES, np.tanh, random_array, True),
    "sqrt": (hlo.sqrt, FLOAT_DTYPES, np.sqrt, _positive, True),
    "rsqrt": (hlo.rsqrt, FLOAT_DTYPES, lambda x: (1 / np.sqrt(x)).astype(x.dtype), _positive, True),
    "cbrt": (hlo.cbrt, FLOAT_DTYPES, np.cbrt, random_array, True),
    "sine": (hlo.sine, FLOAT_DTYPES, np.sin, random_array, True),
    "cosine": (hlo.cosine, FLOAT_DTYPES, np.cos, random_array, True),
    "tan": (hlo.tan, FLOAT_DTYPES, np.tan, _in_unit_interval, True),
    "is_finite": (hlo.is_finite, FLOAT_DTYPES, np.isfinite, random_array, False),
    "not": (hlo.not_, INT_DTYPES + [np.bool_], np.invert, random_array, False),
    "popcnt": (hlo.popcnt, INT_DTYPES, lambda x: np.bitwise_count(_unsigned(x)).astype(x.dtype),
               random_array, False),
    "count_leading_zeros": (hlo.count_leading_zeros, INT_DTYPES, count_leading_zeros, random_array, False),
}


@pytest.mark.parametrize("name", UNARY)
@pytest.mark.parametrize("shape", SHAPES)
def test_unary_all_dtypes(name, shape, rng):
    build, dtypes, reference, make, loose = UNARY[name]
    for dtype in dtypes:
        x = make(rng, shape, dtype)
        assert_matches(run_hlo(build, x), reference(x), loose=loose)


def test_special_values():
    x = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, 1e-30, 88.0, -100.0, 2.5, -2.5, 0.5], np.float32)
    with np.errstate(all="ignore"):
        for name in ("sign", "floor", "ceil", "round_nearest_even", "round_nearest_afz", "is_finite",
                     "exponential_minus_one", "logistic", "cbrt"):
            build, _, reference, _, loose = UNARY[name]
            assert_matches(run_hlo(build, x), reference(x), loose=loose)
        assert np.signbit(run_hlo(hlo.sign, x)[1])  # sign(-0.0) is -0.0
        assert_matches(run_hlo(hlo.exponential, x), np.exp(x), loose=True)
        assert_matches(run_hlo(hlo.tanh, x), np.tanh(x), loose=True)
        assert_matches(run_hlo(hlo.log, x), np.log(x), loose=True)
        assert_matches(run_hlo(hlo.sqrt, x), np.sqrt(x), loose=True)


COMPARISONS = {"EQ": np.equal, "NE": np.not_equal, "LT": np.less, "LE": np.less_equal,
               "GT": np.greater, "GE": np.greater_equal}


@pytest.mark.parametrize("direction", COMPARISONS)
@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_compare(direction, dtype, rng):
    a, b = random_array(rng, (3, 5), dtype), random_array(rng, (3, 5), dtype)
    b[0] = a[0]  # some equal elements
    if np.issubdtype(np.dtype(dtype), np.floating):
        a[1, 0] = np.nan
    got = run_hlo(lambda x, y: hlo.compare(x, y, direction), a, b)
    assert_matches(got, COMPARISONS[direction](a, b))


@pytest.mark.parametrize("direction", COMPARISONS)
def test_compare_unsigned(direction, rng):
    a, b = random_array(rng, (20,), np.int32), random_array(rng, (20,), np.int32)
    got = run_hlo(lambda x, y: hlo.compare(x, y, direction, "UNSIGNED"), a, b)
    assert_matches(got, COMPARISONS[direction](a.view(np.uint32), b.view(np.uint32)))


def total_order_key(x):
    bits = x.view(np.dtype(f"i{x.dtype.itemsize}"))
    return np.where(bits < 0, bits ^ np.iinfo(bits.dtype).max, bits)


@pytest.mark.parametrize("direction", COMPARISONS)
@pytest.mark.parametrize("dtype", FLOAT_DTYPES)
def test_compare_totalorder(direction, dtype):
    values = np.array([-np.nan, -np.inf, -1.5, -0.0, 0.0, 1e-3, 2.0, np.inf, np.nan], dtype)
    values[0] = -np.abs(values[0])  # a NaN with the sign bit set
    a, b = np.meshgrid(values, values)
    got = run_hlo(lambda x, y: hlo.compare(x, y, direction, "TOTALORDER"), a, b)
    assert_matches(got, COMPARISONS[direction](total_order_key(a), total_order_key(b)))


@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_select(shape, dtype, rng):
    p = random_array(rng, shape, np.bool_)
    a, b = random_array(rng, shape, dtype), random_array(rng, shape, dtype)
    assert_matches(run_hlo(hlo.select, p, a, b), np.where(p, a, b))


def test_select_scalar_predicate(rng):
    a, b = random_array(rng, (4, 3), np.float32), random_array(rng, (4, 3), np.float32)
    for p in (np.array(True), np.array(False)):
        assert_matches(run_hlo(hlo.select, p, a, b), a if p else b)


def xla_convert(x: np.ndarray, dtype) -> np.ndarray:
    """StableHLO convert as XLA implements it (see docs/dialect.md)."""
    dtype = np.dtype(dtype)
    if dtype == np.bool_:
        return x != 0
    if np.issubdtype(x.dtype, np.floating) and np.issubdtype(dtype, np.integer):
        info = np.iinfo(dtype)
        wide = np.nan_to_num(x.astype(np.float64), nan=0.0, posinf=np.inf, neginf=-np.inf)
        too_big, too_small = wide >= float(info.max) + 1, wide < float(info.min)
        inside = np.where(too_big | too_small, 0, np.trunc(wide)).astype(dtype)
        return np.where(too_big, info.max, np.where(too_small, info.min, inside)).astype(dtype)
    return x.astype(dtype)


@pytest.mark.parametrize("src", ALL_DTYPES)
@pytest.mark.parametrize("dst", ALL_DTYPES)
def test_convert_every_pair(src, dst, rng):
    x = random_array(rng, (4, 6), src)
    if np.issubdtype(np.dtype(src), np.floating):
        x.flat[:5] = [np.nan, np.inf, -np.inf, 1e9, -1e9] if src != np.float16 else [np.nan, np.inf, -np.inf, 6e4, -6e4]
    from mlir import ir
    from mlc.dtypes import mlir_element_name
    got = run_hlo(lambda v: hlo.convert(v, ir.Type.parse(mlir_element_name(dst))), x)
    with np.errstate(all="ignore"):
        assert_matches(got, xla_convert(x, dst))
