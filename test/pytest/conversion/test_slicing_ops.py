"""reverse, slice, dynamic_slice, dynamic_update_slice, pad and bitcast_convert against numpy."""

from __future__ import annotations

import numpy as np
import pytest
from conftest import assert_matches, random_array, run_hlo
from mlir import ir

from mlc.dialects import hlo
from mlc.dtypes import mlir_element_name

DTYPES = [np.float32, np.float64, np.int32, np.int64, np.int8, np.bool_]


@pytest.mark.parametrize("shape,dims", [((5,), (0,)), ((3, 4), (1,)), ((3, 4), (0, 1)), ((2, 3, 4), ()),
                                        ((0, 3), (0, 1)), ((), ())])
@pytest.mark.parametrize("dtype", DTYPES)
def test_reverse(shape, dims, dtype, rng):
    x = random_array(rng, shape, dtype)
    assert_matches(run_hlo(lambda v: hlo.reverse(v, dims), x), np.flip(x, dims) if dims else x)


SLICES = [((10,), (2,), (9,), (3,)), ((4, 5), (1, 0), (4, 5), (2, 2)), ((4, 5), (0, 0), (0, 5), (1, 1)),
          ((3, 4, 5), (0, 1, 2), (3, 4, 5), (1, 1, 1)), ((6,), (5,), (6,), (4,))]


@pytest.mark.parametrize("shape,start,limit,strides", SLICES)
@pytest.mark.parametrize("dtype", DTYPES)
def test_slice(shape, start, limit, strides, dtype, rng):
    x = random_array(rng, shape, dtype)
    want = x[tuple(slice(a, b, c) for a, b, c in zip(start, limit, strides))]
    assert_matches(run_hlo(lambda v: hlo.slice(v, start, limit, strides), x), want)


def clamp_starts(starts, shape, window):
    return [int(min(max(s, 0), n - w)) for s, n, w in zip(starts, shape, window)]


@pytest.mark.parametrize("starts", [(0, 0), (1, 2), (-5, 1), (2, 100), (3, 3)])
@pytest.mark.parametrize("index_dtype", [np.int32, np.int64])
def test_dynamic_slice_clamps_out_of_bounds_starts(starts, index_dtype, rng):
    x = random_array(rng, (4, 6), np.float32)
    sizes = (2, 3)
    begin = clamp_starts(starts, x.shape, sizes)
    want = x[begin[0]:begin[0] + 2, begin[1]:begin[1] + 3]
    i, j = (np.array(s, index_dtype) for s in starts)
    assert_matches(run_hlo(lambda v, a, b: hlo.dynamic_slice(v, [a, b], sizes), x, i, j), want)


@pytest.mark.parametrize("starts", [(0, 0), (1, 2), (-5, 1), (2, 100)])
@pytest.mark.parametrize("dtype", DTYPES)
def test_dynamic_update_slice_clamps(starts, dtype, rng):
    x, update = random_array(rng, (4, 6), dtype), random_array(rng, (2, 3), dtype)
    begin = clamp_starts(starts, x.shape, update.shape)
    want = x.copy()
    want[begin[0]:begin[0] + 2, begin[1]:begin[1] + 3] = update
    i, j = (np.array(s, np.int32) for s in starts)
    got = run_hlo(lambda v, u, a, b: hlo.dynamic_update_slice(v, u, [a, b]), x, update, i, j)
    assert_matches(got, want)


def reference_pad(x, value, low, high, interior):
    out = x
    for d, (lo, hi, inner) in enumerate(zip(low, high, interior)):
        n = out.shape[d]
        spread_shape = list(out.shape)
        spread_shape[d] = n + max(n - 1, 0) * inner
        spread = np.full(spread_shape, value, dtype=x.dtype)
        index = [slice(None)] * out.ndim
        index[d] = slice(None, None, inner + 1)
        spread[tuple(index)] = out
        widths = [(0, 0)] * out.ndim
        widths[d] = (max(lo, 0), max(hi, 0))
        spread = np.pad(spread, widths, constant_values=value)
        index = [slice(None)] * out.ndim
        index[d] = slice(max(-lo, 0), spread.shape[d] - max(-hi, 0))
        out = spread[tuple(index)]
    return out


PADS = [((3,), (1,), (2,), (0,)), ((3,), (0,), (0,), (2,)), ((4, 5), (2, -1), (-1, 0), (0, 2)),
        ((2, 3), (-1, -1), (-1, -1), (1, 1)), ((0, 2), (1, 0), (1, 1), (3, 0)), ((), (), (), ())]


@pytest.mark.parametrize("shape,low,high,interior", PADS)
@pytest.mark.parametrize("dtype", DTYPES)
def test_pad(shape, low, high, interior, dtype, rng):
    x, value = random_array(rng, shape, dtype), random_array(rng, (), dtype)
    got = run_hlo(lambda v, p: hlo.pad(v, p, low, high, interior), x, value)
    assert_matches(got, reference_pad(x, value, low, high, interior))


@pytest.mark.parametrize("src,dst", [(np.float32, np.int32), (np.int32, np.float32), (np.float64, np.int64),
                                     (np.int16, np.float16), (np.int8, np.int8)])
def test_bitcast_convert(src, dst, rng):
    x = random_array(rng, (3, 4), src)
    got = run_hlo(lambda v: hlo.bitcast_convert(v, ir.Type.parse(mlir_element_name(dst))), x)
    np.testing.assert_array_equal(got.view(np.uint8), x.view(dst).view(np.uint8))


def test_non_contiguous_intermediates_flow_into_later_ops(rng):
    """A transpose and a strided slice feed an elementwise op and a reduction: the strided
    views must be read with their real strides."""
    x = random_array(rng, (6, 8), np.float32)

    def body(v):
        t = hlo.transpose(v, [1, 0])
        s = hlo.slice(t, [1, 0], [8, 6], [3, 2])
        z = hlo.constant(np.float32(0))
        return hlo.add(s, s), hlo.reduce(s, z, [0], "add")

    doubled, summed = run_hlo(body, x)
    view = x.T[1:8:3, 0:6:2]
    assert_matches(doubled, view + view)
    assert_matches(summed, view.sum(axis=0), loose=True)


def test_non_contiguous_numpy_arguments(rng):
    x = random_array(rng, (6, 8), np.float64)[::2, 1::3]
    assert not x.flags.c_contiguous
    assert_matches(run_hlo(lambda v: hlo.reverse(v, [0, 1]), x), x[::-1, ::-1])
