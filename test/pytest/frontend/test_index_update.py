"""x.at[index].set/add/multiply/min/max against numpy (ufunc.at for the combining kinds,
so repeated indices combine), for static, traced (scalar and array) and slice indices,
every kind, several dtypes; an out-of-bounds traced index drops the update, as JAX's
scatter. Results are exact: each element is combined with at most a few small values."""

from __future__ import annotations

import numpy as np
import pytest

import mlc
import mlc.numpy as mnp

KINDS = {"set": None, "add": np.add, "multiply": np.multiply, "min": np.minimum, "max": np.maximum}
STATIC_INDICES = {
    "int": 2, "negative int": -1, "slice": slice(1, 3), "int, slice": (1, slice(2, 5)),
    "strided": slice(None, None, 2), "strided, int": (slice(1, None, 2), 3), "reversed": slice(None, None, -1),
    "array": np.array([0, 2]), "repeated array": (np.array([0, 0, 3]), slice(None)),
    "slice, array": (slice(None), np.array([1, -1])), "array, slice": (np.array([1, 2]), slice(1, 4)),
    "array, strided": (np.array([3, 0]), slice(None, None, 3)), "ellipsis, int": (Ellipsis, 4),
}


def reference(x, index, values, kind):
    y = x.copy()
    if kind == "set":
        y[index] = values
    else:
        KINDS[kind].at(y, index, values)
    return y


def data(dtype):
    return (np.arange(24).reshape(4, 6) % 11 - 3).astype(dtype)


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("name", STATIC_INDICES)
@pytest.mark.parametrize("dtype", [np.float32, np.int32, np.uint8])
def test_static_index(name, kind, dtype):
    x, index = data(dtype), STATIC_INDICES[name]
    values = np.asarray(5, dtype)
    got = mlc.jit(lambda a: getattr(a.at[index], kind)(values))(x)
    np.testing.assert_array_equal(got, reference(x, index, values, kind))


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("i", [0, 3, -1, -4])
def test_traced_scalar_index(kind, i):
    """A traced integer: a whole row, a row's slice and one element (it raised
    AttributeError: 'Tracer' object has no attribute 'indices')."""
    x = data(np.float32)
    row = np.arange(6, dtype=np.float32) - 2
    cases = [(lambda a, k: getattr(a.at[k], kind)(row), i, row),
             (lambda a, k: getattr(a.at[k, 2:4], kind)(5.0), (i, slice(2, 4)), np.float32(5)),
             (lambda a, k: getattr(a.at[1, k], kind)(5.0), (1, i), np.float32(5)),
             (lambda a, k: getattr(a.at[k, ::2], kind)(5.0), (i, slice(None, None, 2)), np.float32(5))]
    for fn, index, values in cases:
        got = mlc.jit(fn)(x, np.int32(i))
        np.testing.assert_array_equal(got, reference(x, index, values, kind))


@pytest.mark.parametrize("kind", KINDS)
def test_traced_array_index_with_repeats(kind):
    x = data(np.float32)
    index = np.array([3, 1, 3, -4], np.int32)
    got = mlc.jit(lambda a, k: getattr(a.at[k, 1:5], kind)(2.0))(x, index)
    np.testing.assert_array_equal(got, reference(x, (index, slice(1, 5)), np.float32(2), kind))


@pytest.mark.parametrize("i", [4, 100, -5])
def test_out_of_bounds_traced_index_drops_the_update(i):
    x = data(np.float32)
    np.testing.assert_array_equal(mlc.jit(lambda a, k: a.at[k].set(0.0))(x, np.int32(i)), x)
    np.testing.assert_array_equal(mlc.jit(lambda a, k: a.at[1, k].add(1.0))(x, np.int32(i + 2 if i > 0 else i - 2)), x)


def test_updates_broadcast_and_get():
    x = data(np.float32)
    got = mlc.jit(lambda a, k: a.at[k].get() + a.at[:, 1].set(mnp.zeros(4))[k])(x, np.int32(2))
    y = x.copy()
    y[:, 1] = 0
    np.testing.assert_array_equal(got, x[2] + y[2])


def test_static_out_of_bounds_index_is_an_index_error():
    with pytest.raises(IndexError, match="index 7 is out of bounds for axis 0 with size 4"):
        mlc.jit(lambda a: a.at[7].set(1.0))(data(np.float32))
