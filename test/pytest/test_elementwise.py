"""Every elementwise hlo op against numpy, on 0-d, size-1, zero-size and ordinary shapes,
for every dtype the op accepts."""

from __future__ import annotations

import numpy as np
import pytest
from conftest import assert_matches, random_array, run_hlo

from mlc.dialects import hlo

SHAPES = [(), (1,), (0,), (7,), (3, 4), (2, 0, 3), (1, 5, 1)]
NUMBER_DTYPES = [np.float16, np.float32, np.float64, np.int8, np.int16, np.int32, np.int64]
ALL_DTYPES = NUMBER_DTYPES + [np.bool_]
FLOAT_DTYPES = [np.float16, np.float32, np.float64]


def xla_divide(a, b):
    """StableHLO/XLA division: floats IEEE; integers truncate, x/0 = -1, MIN/-1 = MIN."""
    if np.issubdtype(a.dtype, np.floating):
        with np.errstate(all="ignore"):
            return a / b
    safe = np.where(b == 0, 1, b)
    with np.errstate(all="ignore"):
        q = np.trunc(a.astype(np.float64) / safe.astype(np.float64))
    q = np.where(b == 0, -1, q)
    int_min = np.iinfo(a.dtype).min
    q = np.where((a == int_min) & (b == -1), int_min, q)
    return q.astype(a.dtype)


BINARY = {
    "add": (hlo.add, ALL_DTYPES, lambda a, b: a | b if a.dtype == np.bool_ else a + b),
    "subtract": (hlo.subtract, NUMBER_DTYPES, lambda a, b: a - b),
    "multiply": (hlo.multiply, ALL_DTYPES, lambda a, b: a & b if a.dtype == np.bool_ else a * b),
    "divide": (hlo.divide, NUMBER_DTYPES, xla_divide),
    "maximum": (hlo.maximum, ALL_DTYPES, np.maximum),
    "minimum": (hlo.minimum, ALL_DTYPES, np.minimum),
}


@pytest.mark.parametrize("name", BINARY)
@pytest.mark.parametrize("shape", SHAPES)
def test_binary_all_dtypes(name, shape, rng):
    build, dtypes, reference = BINARY[name]
    for dtype in dtypes:
        a, b = random_array(rng, shape, dtype), random_array(rng, shape, dtype)
        with np.errstate(all="ignore"):
            want = reference(a, b)
        assert_matches(run_hlo(build, a, b), want)


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


UNARY = {
    # name: (builder, dtypes, reference, input maker, loose tolerance)
    "negate": (hlo.negate, NUMBER_DTYPES, np.negative, random_array, False),
    "abs": (hlo.abs, NUMBER_DTYPES, np.abs, random_array, False),
    "exponential": (hlo.exponential, FLOAT_DTYPES, np.exp, random_array, True),
    "log": (hlo.log, FLOAT_DTYPES, np.log, _positive, True),
    "tanh": (hlo.tanh, FLOAT_DTYPES, np.tanh, random_array, True),
    "sqrt": (hlo.sqrt, FLOAT_DTYPES, np.sqrt, _positive, True),
    "rsqrt": (hlo.rsqrt, FLOAT_DTYPES, lambda x: (1 / np.sqrt(x)).astype(x.dtype), _positive, True),
}


@pytest.mark.parametrize("name", UNARY)
@pytest.mark.parametrize("shape", SHAPES)
def test_unary_all_dtypes(name, shape, rng):
    build, dtypes, reference, make, loose = UNARY[name]
    for dtype in dtypes:
        x = make(rng, shape, dtype)
        assert_matches(run_hlo(build, x), reference(x), loose=loose)


def test_transcendentals_special_values():
    x = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, 1e-30, 88.0, -100.0], np.float32)
    with np.errstate(all="ignore"):
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
        too_big, too_small = wide >= 2.0 ** (info.bits - 1), wide < -(2.0 ** (info.bits - 1))
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
