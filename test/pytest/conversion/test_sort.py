"""hlo.sort and hlo.argsort against a stable reference: dtypes, dimensions, descending,
NaN placement, ties, empty and non-power-of-two sizes."""

from __future__ import annotations

import numpy as np
import pytest
from conftest import assert_matches, compile_hlo, hlo_module, random_array, run_hlo

from mlir import ir

from mlc import CompileOptions
from mlc.compiler import lower
from mlc.context import make_context
from mlc.dialects import hlo


def reference_argsort(x, dim, descending):
    """Stable order with NaN last (ascending) or first (descending), ties in input order."""
    moved = np.moveaxis(x, dim, -1)
    out = np.empty(moved.shape, np.int64)
    for row in np.ndindex(moved.shape[:-1]):
        values = moved[row]
        key = [(bool(np.isnan(v)) if values.dtype.kind == "f" else False, v) for v in values.tolist()]
        out[row] = sorted(range(len(values)), key=lambda i: key[i], reverse=descending)
    return np.moveaxis(out, -1, dim)


CASES = [((7,), 0), ((3, 10), 1), ((10, 3), 0), ((2, 3, 5), 1), ((0, 4), 1), ((1,), 0), ((1000,), 0),
         ((2,), 0), ((17,), 0), ((33, 3), 0), ((4, 63), 1),  # odd counts: both merge ends meet
         ((40, 301), 1), ((301, 40), 0)]  # enough rows x length: the rows of a pass in parallel


@pytest.mark.parametrize("shape,dim", CASES)
@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int32, np.int8, np.uint8, np.uint32, np.bool_])
@pytest.mark.parametrize("descending", [False, True])
def test_sort_and_argsort(shape, dim, dtype, descending, rng):
    x = random_array(rng, shape, dtype)
    if np.issubdtype(np.dtype(dtype), np.integer):
        x = (x % 4).astype(dtype)  # many ties
    if np.issubdtype(np.dtype(dtype), np.floating) and x.size > 3:
        x.flat[[0, 2]] = [np.nan, np.inf]
    order = reference_argsort(x, dim, descending)
    assert_matches(run_hlo(lambda v: hlo.argsort(v, dim, descending), x), order)
    assert_matches(run_hlo(lambda v: hlo.sort(v, dim, descending), x), np.take_along_axis(x, order, dim))


# Rows long enough for radix sort (radix_sort.py): 8-bit digits (300, 777), 11-bit digits
# (5000), along the last and the first dimension, one row and rows in parallel.
RADIX_CASES = [((300,), 0), ((3, 777), 1), ((777, 3), 0), ((5000,), 0), ((40, 500), 1)]
RADIX_DTYPES = [np.float16, np.float32, np.float64, np.int8, np.int16, np.int32, np.int64,
                np.uint8, np.uint16, np.uint32, np.uint64]


def _special_values(x, rng):
    """Plants what a key transform can get wrong: both zeros (which tie), NaNs of both signs
    (which tie, after +inf), infinities, subnormals, extremes of the integer range."""
    flat = x.reshape(-1)
    spots = rng.choice(flat.size, size=min(flat.size, 40), replace=False)
    if x.dtype.kind == "f":
        info = np.finfo(x.dtype)
        negative_nan = np.copysign(np.array(np.nan, x.dtype), np.array(-1, x.dtype))
        specials = [0.0, -0.0, np.nan, negative_nan, np.inf, -np.inf, info.tiny / 2, -info.tiny / 2,
                    info.max, -info.max, 0.0, -0.0, np.nan]
    else:
        info = np.iinfo(x.dtype)
        specials = [info.min, info.max, 0, info.min + 1, info.max - 1, 0]
    for spot, value in zip(spots, specials * 4):
        flat[spot] = np.array(value).astype(x.dtype)
    return x


@pytest.mark.parametrize("shape,dim", RADIX_CASES)
@pytest.mark.parametrize("dtype", RADIX_DTYPES)
@pytest.mark.parametrize("descending", [False, True])
def test_radix_sort_matches_stable_order(shape, dim, dtype, descending, rng):
    """Every element in the stable order, bit for bit (so -0.0 and 0.0 keep their places)."""
    x = random_array(rng, shape, dtype)
    if np.issubdtype(np.dtype(dtype), np.integer):
        x = (x // 8).astype(dtype)  # ties
    x = _special_values(x, rng)
    order = reference_argsort(x, dim, descending)
    got = run_hlo(lambda v: hlo.sort(v, dim, descending), x)
    want = np.take_along_axis(x, order, dim)
    assert got.dtype == want.dtype
    np.testing.assert_array_equal(got.view(f"u{x.itemsize}"), want.view(f"u{x.itemsize}"))
    assert_matches(run_hlo(lambda v: hlo.argsort(v, dim, descending), x), order)


def test_radix_argsort_int32_indices(rng):
    """An int32 index type (the frontend's): the position is written as i32."""
    x = random_array(rng, (2, 600), np.float32)
    got = run_hlo(lambda v: hlo.argsort(v, 1, False, ir.IntegerType.get_signless(32)), x)
    assert_matches(got, reference_argsort(x, 1, False).astype(np.int32))


# One long row on two threads (parallel_sort.py): odd and even lengths, keys with many ties
# (the co-rank split must keep them in input order), special values, every key width.
# (Lengths where every key width's radix sort passes the thread rule.)
HALVES_CASES = [((14001,), 0), ((1, 14000), 1), ((20001, 1), 0)]


@pytest.mark.parametrize("shape,dim", HALVES_CASES)
@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int8, np.int16, np.uint32, np.int64])
@pytest.mark.parametrize("descending", [False, True])
def test_row_sorted_in_halves_matches_stable_order(shape, dim, dtype, descending, rng):
    x = random_array(rng, shape, dtype)
    x = (x // 16 if np.issubdtype(np.dtype(dtype), np.integer) else np.round(x)).astype(dtype)  # ties
    x = _special_values(x, rng)
    order = reference_argsort(x, dim, descending)
    options = CompileOptions(threads=2)
    with make_context(), ir.Location.unknown():
        module = lower(hlo_module(lambda v: hlo.sort(v, dim, descending), (shape, dtype)), "linalg",
                       options=options)
        assert str(module).count("scf.forall (") == 2  # the halves, then the merge
    sort = compile_hlo(lambda v: hlo.sort(v, dim, descending), (shape, dtype), options=options)
    want = np.take_along_axis(x, order, dim)
    np.testing.assert_array_equal(sort(x).view(f"u{x.itemsize}"), want.view(f"u{x.itemsize}"))
    argsort = compile_hlo(lambda v: hlo.argsort(v, dim, descending), (shape, dtype), options=options)
    assert_matches(argsort(x), order)
