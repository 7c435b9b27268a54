"""Type promotion follows JAX's lattice: the whole promote_types table over every dtype MLC
supports, written here from jax 0.10.2 (jax is not needed to run this), checked both on
mlc.numpy.promote_types and on what a traced `a + b` actually produces; Python scalars
are weak; loop carries keep their dtype."""

from __future__ import annotations

import numpy as np
import pytest

import mlc
import mlc.lax as lax
import mlc.numpy as mnp

ORDER = "b1 i1 i2 i4 i8 u1 u2 u4 u8 f2 f4 f8"
# jax.numpy.promote_types(row, column) with jax_enable_x64, jax 0.10.2.
JAX_PROMOTE_TYPES = {
    "b1": "b1 i1 i2 i4 i8 u1 u2 u4 u8 f2 f4 f8",
    "i1": "i1 i1 i2 i4 i8 i2 i4 i8 f8 f2 f4 f8",
    "i2": "i2 i2 i2 i4 i8 i2 i4 i8 f8 f2 f4 f8",
    "i4": "i4 i4 i4 i4 i8 i4 i4 i8 f8 f2 f4 f8",
    "i8": "i8 i8 i8 i8 i8 i8 i8 i8 f8 f2 f4 f8",
    "u1": "u1 i2 i2 i4 i8 u1 u2 u4 u8 f2 f4 f8",
    "u2": "u2 i4 i4 i4 i8 u2 u2 u4 u8 f2 f4 f8",
    "u4": "u4 i8 i8 i8 i8 u4 u4 u4 u8 f2 f4 f8",
    "u8": "u8 f8 f8 f8 f8 u8 u8 u8 u8 f2 f4 f8",
    "f2": "f2 f2 f2 f2 f2 f2 f2 f2 f2 f2 f4 f8",
    "f4": "f4 f4 f4 f4 f4 f4 f4 f4 f4 f4 f4 f8",
    "f8": "f8 f8 f8 f8 f8 f8 f8 f8 f8 f8 f8 f8",
}
# jax 0.10.2, default mode: (array + 1).dtype, (array + 1.0).dtype.
JAX_WEAK_SCALARS = {
    "b1": ("i4", "f4"),
    "i1": ("i1", "f4"),
    "i2": ("i2", "f4"),
    "i4": ("i4", "f4"),
    "u1": ("u1", "f4"),
    "u2": ("u2", "f4"),
    "u4": ("u4", "f4"),
    "f2": ("f2", "f2"),
    "f4": ("f4", "f4"),
}
NAMES = ORDER.split()


CODES = {"b1": "bool", "i1": "int8", "i2": "int16", "i4": "int32", "i8": "int64", "u1": "uint8",
         "u2": "uint16", "u4": "uint32", "u8": "uint64", "f2": "float16", "f4": "float32", "f8": "float64"}


def dtype(code: str) -> np.dtype:
    return np.dtype(CODES[code])


def traced_dtype(fn, *args) -> np.dtype:
    """The dtype fn(*args) has while tracing (no compile needed)."""
    seen = []
    record = {1: lambda p: seen.append(fn(p).dtype) or 0,
              2: lambda p, q: seen.append(fn(p, q).dtype) or 0}[len(args)]
    mlc.jit(record).lower(*args)
    return seen[0]


@pytest.mark.parametrize("a", NAMES)
def test_promote_types_is_jax_table(a):
    for b, want in zip(NAMES, JAX_PROMOTE_TYPES[a].split()):
        assert mnp.promote_types(dtype(a), dtype(b)) == dtype(want), (a, b)


@pytest.mark.parametrize("a", NAMES)
def test_traced_arithmetic_promotes_as_jax(a):
    for b, want in zip(NAMES, JAX_PROMOTE_TYPES[a].split()):
        x, y = np.zeros(2, dtype(a)), np.zeros(2, dtype(b))
        assert traced_dtype(lambda p, q: p + q, x, y) == dtype(want), (a, b)


@pytest.mark.parametrize("a", list(JAX_WEAK_SCALARS))
def test_python_scalars_are_weak(a):
    want_int, want_float = JAX_WEAK_SCALARS[a]
    x = np.zeros(2, dtype(a))
    assert traced_dtype(lambda p: p + 1, x) == dtype(want_int)
    assert traced_dtype(lambda p: p + 1.0, x) == dtype(want_float)
    assert traced_dtype(lambda p: 2 * p, x) == dtype(want_int)


@pytest.mark.parametrize("case, want", [
    ((np.float32, np.int32), np.float32), ((np.int32, np.float16), np.float16),
    ((np.uint32, np.int32), np.int64), ((np.int8, np.uint8), np.int16), ((np.uint64, np.int64), np.float64),
])
def test_promoted_values_are_computed_in_the_promoted_type(case, want):
    a = np.array([3, 100, 7], case[0])
    b = np.array([2, 27, 1], case[1])
    got = mlc.jit(lambda p, q: p * q)(a, b)
    assert got.dtype == want
    np.testing.assert_array_equal(got, a.astype(want) * b.astype(want))


def test_64_bit_arrays_keep_64_bits_with_a_python_float():
    assert traced_dtype(lambda p: p + 1.0, np.zeros(2, np.int64)) == np.float64
    assert traced_dtype(lambda p: p + 1.0, np.zeros(2, np.int32)) == np.float32


def test_result_type_accepts_arrays_dtypes_and_scalars():
    assert mnp.result_type(np.int8, np.uint8) == np.int16
    assert mnp.result_type(np.zeros(2, np.float16), 1.0) == np.float16
    assert mnp.result_type(np.zeros(2, np.int8), 1) == np.int8
    assert mnp.result_type(np.float32, np.int64) == np.float32
    with pytest.raises(ValueError, match="at least one"):
        mnp.result_type()


def test_fori_loop_carry_keeps_its_dtype():
    """v * 0.9 + i: f32 carry, weak float, int32 index -> f32 (numpy's rules gave f64 and
    the loop failed to trace)."""
    x = np.arange(3, dtype=np.float32)
    got = mlc.jit(lambda v: lax.fori_loop(0, 10, lambda i, c: c * 0.9 + i, v))(x)
    want = x.copy()
    for i in range(10):
        want = want * np.float32(0.9) + np.float32(i)
    assert got.dtype == np.float32
    np.testing.assert_allclose(got, want, rtol=1e-6)


def test_loop_carry_that_changes_dtype_is_a_clear_error():
    with pytest.raises(TypeError, match="same shapes and dtypes.*float64.*expected float32"):
        mlc.jit(lambda v: lax.fori_loop(0, 3, lambda i, c: c + np.float64(1.0) * c, v))(np.zeros(2, np.float32))


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64])
def test_python_float_is_made_in_the_result_dtype(dtype):
    """A weak Python float becomes a constant of the operand's dtype directly (JAX): made
    float32 first and converted, x64 * 0.1 multiplied by 0.10000000149011612."""
    x = np.array([1.0, 3.0, -7.5], dtype)
    np.testing.assert_array_equal(mlc.jit(lambda v: v * 0.1)(x), x * dtype(0.1))
    np.testing.assert_array_equal(mlc.jit(lambda v: 0.1 + v)(x), dtype(0.1) + x)
    np.testing.assert_array_equal(mlc.jit(lambda v: mnp.where(v > 2, 0.1, v))(x),
                                  np.where(x > 2, dtype(0.1), x))


def test_numpy_scalar_stays_strongly_typed():
    out = mlc.jit(lambda v: v * np.float64(0.1))(np.ones(2, np.float32))
    assert out.dtype == np.float64 and out[0] == 0.1
