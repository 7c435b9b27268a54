"""argmax, argmin and reduce_window against numpy."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from conftest import assert_matches, random_array, run_hlo
from mlir import ir
from test_structural_ops import COMBINE
from test_slicing_ops import reference_pad

from mlc.dialects import hlo


@pytest.mark.parametrize("name,reference", [("argmax", np.argmax), ("argmin", np.argmin)])
@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int32, np.int8, np.uint8, np.uint32, np.bool_])
@pytest.mark.parametrize("shape,dim", [((7,), 0), ((3, 5), 0), ((3, 5), 1), ((2, 3, 4), 2), ((4, 1), 1)])
def test_arg_reduce(name, reference, dtype, shape, dim, rng):
    x = random_array(rng, shape, dtype)
    if np.issubdtype(np.dtype(dtype), np.integer):
        x = (x % 3).astype(dtype)  # many ties: the first index must win
    build = getattr(hlo, name)
    assert_matches(run_hlo(lambda v: build(v, dim), x), reference(x, axis=dim).astype(np.int64))


@pytest.mark.parametrize("name,reference", [("argmax", np.argmax), ("argmin", np.argmin)])
def test_arg_reduce_nan_and_inf(name, reference):
    x = np.array([[1.0, np.nan, 3.0, np.nan], [-np.inf, -np.inf, np.inf, np.inf],
                  [2.0, 2.0, 2.0, 2.0]], np.float32)
    build = getattr(hlo, name)
    got = run_hlo(lambda v: build(v, 1, ir.IntegerType.get_signless(32)), x)
    assert_matches(got, reference(x, axis=1).astype(np.int32))


def reference_reduce_window(x, init, window, kind, strides, base, dilations, padding):
    padded = reference_pad(x, init, [lo for lo, _ in padding], [hi for _, hi in padding],
                           [b - 1 for b in base])
    spans = [(w - 1) * d + 1 for w, d in zip(window, dilations)]
    out_shape = [max((p - s) // st + 1, 0) if p >= s else 0
                 for p, s, st in zip(padded.shape, spans, strides)]
    out = np.full(out_shape, init, dtype=x.dtype)
    for index in itertools.product(*[range(n) for n in out_shape]):
        acc = np.asarray(init, dtype=x.dtype)
        for offset in itertools.product(*[range(w) for w in window]):
            position = tuple(i * st + o * d for i, st, o, d in zip(index, strides, offset, dilations))
            with np.errstate(all="ignore"):
                acc = COMBINE[kind](acc, padded[position])
        out[index] = acc
    return out


WINDOWS = [
    # shape, window, strides, base dilations, window dilations, padding
    ((4, 5), (2, 2), (2, 2), (1, 1), (1, 1), ((0, 0), (0, 0))),     # max pool 2x2
    ((4, 5), (3, 3), (1, 1), (1, 1), (1, 1), ((1, 1), (1, 1))),     # 'same' 3x3
    ((4, 5), (2, 3), (1, 2), (1, 2), (2, 1), ((0, 1), (2, 0))),     # dilations everywhere
    ((1, 6, 6, 2), (1, 3, 3, 1), (1, 2, 2, 1), (1, 1, 1, 1), (1, 1, 1, 1), ((0, 0), (1, 1), (1, 1), (0, 0))),
    ((5,), (5,), (1,), (1,), (1,), ((0, 0),)),                       # one window: a full reduce
    ((3,), (2,), (1,), (1,), (1,), ((-1, 0),)),                      # negative padding crops
    ((3, 7), (1, 7), (1, 1), (1, 1), (1, 1), ((0, 0), (6, 0))),     # running, along the rows
    ((5, 3), (5, 1), (1, 1), (1, 1), (1, 1), ((4, 0), (0, 0))),     # running, down the columns
]


def test_window_larger_than_padded_input_is_rejected():
    with pytest.raises(hlo.HloTypeError, match=r"the window \(spanning 5\) is larger than the padded input \(4\)"):
        run_hlo(lambda v, i: hlo.reduce_window(v, i, [5], "max"), np.zeros(4, np.float32), np.float32(0))


@pytest.mark.parametrize("config", WINDOWS, ids=[str(i) for i in range(len(WINDOWS))])
@pytest.mark.parametrize("kind,dtype,init", [("max", np.float32, -np.inf), ("add", np.float32, 0.0),
                                             ("min", np.int32, 2**31 - 1), ("add", np.int64, 0),
                                             ("mul", np.float64, 1.0), ("or", np.bool_, False)])
def test_reduce_window(config, kind, dtype, init, rng):
    shape, window, strides, base, dilations, padding = config
    x = random_array(rng, shape, dtype)
    init = np.asarray(init, dtype=dtype)
    got = run_hlo(lambda v, i: hlo.reduce_window(v, i, window, kind, strides, base, dilations, padding), x, init)
    assert_matches(got, reference_reduce_window(x, init, window, kind, strides, base, dilations, padding),
                   loose=True)


def test_average_pool_is_sum_then_divide(rng):
    x = random_array(rng, (1, 4, 4, 3), np.float32)
    window, strides = (1, 2, 2, 1), (1, 2, 2, 1)

    def avg(v, zero, count):
        total = hlo.reduce_window(v, zero, window, "add", strides)
        return hlo.divide(total, hlo.broadcast_in_dim(count, [1, 2, 2, 3], []))

    got = run_hlo(avg, x, np.float32(0), np.float32(4))
    want = x.reshape(1, 2, 2, 2, 2, 3).mean(axis=(2, 4))
    assert_matches(got, want, loose=True)


# A running reduction (a window of the whole axis, padded n-1 in front) with a constant init
# is lowered as a scan when that equals the window (hlo_to_linalg/reduce.py: identity init,
# or an idempotent combiner); a sum whose init is not 0 keeps the window and counts the
# init once per padded element.
@pytest.mark.parametrize("kind,dtype,init", [
    ("add", np.float32, 0.0), ("add", np.float32, 5.0), ("add", np.int32, 0), ("add", np.uint8, 3),
    ("mul", np.float64, 1.0), ("mul", np.float64, 2.0), ("max", np.float32, 0.25), ("max", np.float16, -np.inf),
    ("min", np.int64, -7), ("and", np.bool_, True), ("or", np.bool_, False), ("xor", np.int8, 0)])
@pytest.mark.parametrize("shape,axis", [((13,), 0), ((4, 37), 1), ((9, 5), 0), ((2, 6, 3), 1), ((2, 3, 40), 2)])
def test_running_reduction_with_a_constant_init(kind, dtype, init, shape, axis, rng):
    x = random_array(rng, shape, dtype)
    if kind == "mul":
        x = (1 + 0.01 * x).astype(dtype)  # products stay finite
    n = shape[axis]
    window = [n if d == axis else 1 for d in range(len(shape))]
    padding = [(n - 1, 0) if d == axis else (0, 0) for d in range(len(shape))]
    ones = [1] * len(shape)
    init = np.asarray(init, dtype=dtype)
    got = run_hlo(lambda v: hlo.reduce_window(v, hlo.constant(init), window, kind, ones, ones, ones, padding), x)
    assert_matches(got, reference_reduce_window(x, init, window, kind, ones, ones, ones, padding), loose=True)


# Along the innermost axis the scan runs row by row, the rows on the thread pool once the
# work passes the thread rule (these sizes do on two threads): same order of operations as
# numpy's accumulate, so the same bits.
@pytest.mark.parametrize("kind,ufunc", [("add", np.add), ("max", np.maximum), ("min", np.minimum)])
@pytest.mark.parametrize("dtype", [np.float32, np.int32, np.float64])
@pytest.mark.parametrize("shape", [(64, 1500), (3, 40, 701)])
def test_running_reduction_of_many_rows(kind, ufunc, dtype, shape, rng):
    x = random_array(rng, shape, dtype)
    if dtype != np.int32:
        x.flat[::97] = np.nan  # NaN propagates through max/min and sums
    n, rank = shape[-1], len(shape)
    init = np.asarray({"add": 0, "max": -np.inf if dtype != np.int32 else np.iinfo(dtype).min,
                       "min": np.inf if dtype != np.int32 else np.iinfo(dtype).max}[kind], dtype)
    window = [1] * (rank - 1) + [n]
    padding = [(0, 0)] * (rank - 1) + [(n - 1, 0)]
    ones = [1] * rank
    got = run_hlo(lambda v: hlo.reduce_window(v, hlo.constant(init), window, kind, ones, ones, ones, padding), x)
    want = ufunc.accumulate(x, axis=-1)
    np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("name,reference", [("argmax", np.argmax), ("argmin", np.argmin)])
def test_arg_reduce_signed_zeros_and_extremes(name, reference):
    """Equal values (-0.0 == +0.0) keep the first position; all -inf or +inf rows, and the
    integer extremes, still find their first element."""
    x = np.array([[-0.0, 0.0, -0.0, 0.0], [0.0, -0.0, 0.0, -0.0], [-np.inf] * 4, [np.inf] * 4,
                  [5.0, np.nan, np.nan, -1.0]], np.float32)
    build = getattr(hlo, name)
    assert_matches(run_hlo(lambda v: build(v, 1), x), reference(x, axis=1).astype(np.int64))
    for dtype in (np.uint32, np.int64, np.bool_):
        info = np.iinfo(dtype) if dtype != np.bool_ else None
        hi, lo = (info.max, info.min) if info else (True, False)
        y = np.array([[lo, lo, hi, hi], [hi, lo, lo, hi], [lo] * 4], dtype)
        assert_matches(run_hlo(lambda v: build(v, 1), y), reference(y, axis=1).astype(np.int64))


@pytest.mark.parametrize("name,reference", [("argmax", np.argmax), ("argmin", np.argmin)])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("shape", [(37, 777), (3, 64), (130, 33)])
def test_arg_reduce_long_rows_through_the_vector_loops(name, reference, dtype, shape, rng):
    """Rows long enough for the vectorized passes (the row's best value without signed
    zeros, then the first position holding it or a NaN, fused per row): ties, signed zeros
    and NaNs placed in the vector body and in the tail, on one and on several threads."""
    import mlc
    import mlc.numpy as mnp
    x = np.round(rng.standard_normal(shape) * 2).astype(dtype)  # many ties, many zeros
    x[x == 0] = np.where(rng.random(int((x == 0).sum())) < 0.5, -0.0, 0.0)
    n = shape[1]
    x[1, [n // 3, n - 1]] = np.nan  # one in the body, one in the tail
    x[2, n - 1] = np.nan  # only in the tail
    x[0] = -0.0
    x[0, n // 2] = 0.0  # equal zeros: the first one wins
    extreme = -np.inf if name == "argmax" else np.inf
    x[-1] = extreme
    f = mlc.jit(lambda v: getattr(mnp, name)(v, axis=1))
    np.testing.assert_array_equal(f(x), reference(x, axis=1))
    g = mlc.jit(lambda v: getattr(mnp, name)(v * 1, axis=0))  # reduced over the leading axis
    np.testing.assert_array_equal(g(x), reference(x, axis=0))
