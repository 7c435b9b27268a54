"""mlc.numpy under mlc.jit against numpy: elementwise ops with broadcasting and weak
scalars, reductions (axis, negative axes, keepdims), linear algebra, shape functions,
creation and indexing."""

from __future__ import annotations

import numpy as np
import pytest

import mlc
import mlc.numpy as mnp

RNG = np.random.default_rng(7)


def f32(*shape):
    return RNG.standard_normal(shape).astype(np.float32)


def run(fn, *args, **kwargs):
    return mlc.jit(fn, **kwargs)(*args)


def close(got, want, tol=1e-5):
    want = np.asarray(want)
    got = np.asarray(got)
    assert got.shape == want.shape, (got.shape, want.shape)
    assert got.dtype == want.dtype, (got.dtype, want.dtype)
    np.testing.assert_allclose(got, want, rtol=tol, atol=tol, equal_nan=True)


BINARY = ["add", "subtract", "multiply", "true_divide", "maximum", "minimum", "power", "arctan2"]
SHAPE_PAIRS = [((3, 4), (4,)), ((2, 1, 3), (4, 1)), ((), (3,)), ((5,), ())]


@pytest.mark.parametrize("name", BINARY)
@pytest.mark.parametrize("shapes", SHAPE_PAIRS)
def test_binary_broadcasting(name, shapes):
    a, b = f32(*shapes[0]), f32(*shapes[1])
    if name == "power":
        a = np.abs(a) + 0.5
    with np.errstate(all="ignore"):
        want = getattr(np, name)(a, b)
    close(run(getattr(mnp, name), a, b), want)


UNARY = ["exp", "expm1", "log", "log1p", "sqrt", "cbrt", "sin", "cos", "tan", "tanh", "abs", "sign",
         "floor", "ceil", "round", "negative", "square", "reciprocal", "isfinite"]


@pytest.mark.parametrize("name", UNARY)
def test_unary(name):
    x = f32(3, 5)
    if name in ("log", "sqrt", "log1p"):
        x = np.abs(x) + 0.1
    if name == "tan":
        x = np.clip(x, -1, 1)
    close(run(getattr(mnp, name), x), getattr(np, name)(x), tol=2e-5)


def test_operators_and_weak_scalars():
    x, y = f32(4), f32(4)
    i = np.arange(-4, 4, dtype=np.int32)
    close(run(lambda a, b: (a + b) * 2.0 - a / b + a ** 2 - (-a) + abs(b), x, y), (x + y) * 2 - x / y + x ** 2 + x + abs(y))
    close(run(lambda a: 1 - a, x), 1 - x)
    close(run(lambda a: a * 2, i), i * 2)          # a weak int keeps int32
    close(run(lambda a: a * 1.5, i), (i * 1.5).astype(np.float32))  # int32 * weak float -> float32
    close(run(lambda a: a // 3, i), i // 3)
    close(run(lambda a: a % 3, i), i % 3)
    close(run(lambda a: -7 // a, np.array([2, -2, 3], np.int32)), -7 // np.array([2, -2, 3], np.int32))
    close(run(lambda a, b: a @ b, f32(3, 4), f32(4, 2)).shape, (3, 2))


def test_comparisons_where_clip_logical():
    x, y = f32(6), f32(6)
    close(run(lambda a, b: mnp.where(a > b, a, b), x, y), np.where(x > y, x, y))
    close(run(lambda a, b: (a >= b) & (a < 1.0) | ~(b == a), x, y), ((x >= y) & (x < 1.0)) | ~(y == x))
    close(run(lambda a: mnp.clip(a, -0.5, 0.5), x), np.clip(x, -0.5, 0.5))
    close(run(lambda a, b: mnp.logical_xor(a > 0, b > 0), x, y), np.logical_xor(x > 0, y > 0))
    close(run(lambda a: mnp.isnan(a), np.array([1.0, np.nan], np.float32)), np.array([False, True]))


REDUCTIONS = ["sum", "prod", "mean", "var", "std", "max", "min"]


@pytest.mark.parametrize("name", REDUCTIONS)
@pytest.mark.parametrize("axis", [None, 0, -1, (0, 2)])
@pytest.mark.parametrize("keepdims", [False, True])
def test_reductions(name, axis, keepdims):
    x = f32(2, 3, 4)
    close(run(lambda a: getattr(mnp, name)(a, axis=axis, keepdims=keepdims), x),
          getattr(np, name)(x, axis=axis, keepdims=keepdims), tol=1e-4)


@pytest.mark.parametrize("name", ["argmax", "argmin"])
@pytest.mark.parametrize("axis", [None, 1, -1])
def test_arg_reductions(name, axis):
    x = f32(3, 5)
    close(run(lambda a: getattr(mnp, name)(a, axis=axis), x), getattr(np, name)(x, axis=axis).astype(np.int32))


def test_all_any_cumsum_and_methods():
    b = RNG.random((3, 4)) < 0.5
    close(run(lambda a: mnp.all(a, axis=1), b), np.all(b, axis=1))
    close(run(lambda a: mnp.any(a), b), np.any(b))
    x = f32(3, 4)
    close(run(lambda a: mnp.cumsum(a, axis=1), x), np.cumsum(x, axis=1), tol=1e-5)
    close(run(lambda a: a.sum(axis=0) + a.mean() + a.max(), x), x.sum(axis=0) + x.mean() + x.max(), tol=1e-5)
    close(run(lambda a: a.T.reshape(-1)[::2], x), x.T.reshape(-1)[::2])


@pytest.mark.parametrize("sa,sb", [((3, 4), (4, 5)), ((4,), (4, 5)), ((3, 4), (4,)), ((4,), (4,)),
                                   ((2, 3, 4), (4, 5)), ((2, 1, 3, 4), (5, 4, 2)), ((2, 3, 4), (4,)),
                                   ((4,), (2, 3, 4, 5)), ((37, 129), (129,)), ((129,), (129, 37))])
def test_matmul(sa, sb):
    a, b = f32(*sa), f32(*sb)
    close(run(mnp.matmul, a, b), np.matmul(a, b), tol=1e-4)


@pytest.mark.parametrize("sa,sb", [((300, 200), (200,)), ((200,), (200, 300)), ((2, 30, 20), (20,))])
def test_matmul_contracts_a_vector_as_it_is(sa, sb):
    """A vector operand is contracted directly (one dot_general, no unit dim added and
    squeezed): a matrix-vector product is then a row reduction, vectorized without BLAS."""
    a, b = f32(*sa), f32(*sb)
    lowered = mlc.jit(mnp.matmul).lower(a, b)
    text = lowered.as_text()
    assert text.count("hlo.dot_general") == 1 and "hlo.reshape" not in text
    compiled = mlc.jit(mnp.matmul, options=mlc.CompileOptions(blas=False)).lower(a, b).compile()
    close(compiled(a, b), np.matmul(a, b), tol=1e-4)
    with pytest.raises(ValueError, match=r"matmul: contracted dimensions differ: \(300, 200\) @ \(3,\)"):
        mnp.matmul(f32(300, 200), f32(3))


def test_dot_tensordot_einsum():
    a, b, c = f32(3, 4), f32(4, 5), f32(2, 3, 4)
    close(run(mnp.dot, a, b), np.dot(a, b), tol=1e-4)
    close(run(lambda x, y: mnp.tensordot(x, y, axes=([1, 2], [0, 1])), c, a),
          np.tensordot(c, a, axes=([1, 2], [0, 1])), tol=1e-4)
    close(run(lambda x, y: mnp.einsum("bij,jk->bik", x, y), c, b), np.einsum("bij,jk->bik", c, b), tol=1e-4)
    close(run(lambda x: mnp.einsum("ij->ji", x), a), a.T)
    close(run(lambda x, y: mnp.einsum("ij,ij->i", x, y), a, a), np.einsum("ij,ij->i", a, a), tol=1e-4)


def test_shape_functions():
    x = f32(2, 3, 4)
    close(run(lambda a: mnp.reshape(a, (4, -1)), x), x.reshape(4, -1))
    close(run(lambda a: mnp.transpose(a, (2, 0, 1)), x), x.transpose(2, 0, 1))
    close(run(lambda a: mnp.swapaxes(a, 0, 2), x), np.swapaxes(x, 0, 2))
    close(run(lambda a: mnp.moveaxis(a, 0, -1), x), np.moveaxis(x, 0, -1))
    close(run(lambda a: mnp.expand_dims(a, (0, 3)), x), np.expand_dims(x, (0, 3)))
    close(run(lambda a: mnp.broadcast_to(a, (2, 3, 4)), x[0, :, :1]), np.broadcast_to(x[0, :, :1], (2, 3, 4)))
    close(run(lambda a, b: mnp.concatenate([a, b], axis=1), x, x), np.concatenate([x, x], axis=1))
    close(run(lambda a, b: mnp.stack([a, b], axis=-1), x, x), np.stack([x, x], axis=-1))
    parts = run(lambda a: mnp.split(a, [1, 3], axis=2), x)
    for got, want in zip(parts, np.split(x, [1, 3], axis=2)):
        close(got, want)
    close(run(lambda a: mnp.pad(a, ((0, 0), (1, 2), (2, 0)), constant_values=3.0), x),
          np.pad(x, ((0, 0), (1, 2), (2, 0)), constant_values=3.0))
    close(run(lambda a: mnp.flip(a, axis=1), x), np.flip(x, axis=1))
    close(run(lambda a: mnp.tile(a, (2, 1, 3)), x), np.tile(x, (2, 1, 3)))
    close(run(lambda a: mnp.repeat(a, 2, axis=1), x), np.repeat(x, 2, axis=1))


def test_squeeze():
    x = f32(1, 3, 1)
    close(run(mnp.squeeze, x), np.squeeze(x))
    close(run(lambda a: mnp.squeeze(a, axis=-1), x), np.squeeze(x, axis=-1))


def test_creation():
    close(run(lambda: mnp.zeros((2, 3))), np.zeros((2, 3), np.float32))
    close(run(lambda: mnp.ones(4, dtype=mnp.int32)), np.ones(4, np.int32))
    close(run(lambda: mnp.full((2,), 7.0)), np.full((2,), 7.0, np.float32))
    close(run(lambda: mnp.arange(2, 11, 3)), np.arange(2, 11, 3, dtype=np.int32))
    close(run(lambda: mnp.arange(0.0, 1.0, 0.25)), np.arange(0.0, 1.0, 0.25, dtype=np.float32))
    close(run(lambda: mnp.linspace(0.0, 1.0, 5)), np.linspace(0.0, 1.0, 5, dtype=np.float32))
    close(run(lambda: mnp.eye(3, 4, k=1)), np.eye(3, 4, k=1, dtype=np.float32))
    x = f32(2, 2)
    close(run(lambda a: mnp.zeros_like(a) + mnp.ones_like(a), x), np.ones((2, 2), np.float32))


def test_basic_indexing():
    x = f32(4, 5, 6)
    for index in [1, -1, (1, 2), slice(1, 3), (slice(None), 2), (Ellipsis, 1), (None, 1),
                  (slice(None, None, -1),), (slice(4, 0, -2), Ellipsis, slice(1, None, 2)), (0, None, Ellipsis, -2)]:
        close(run(_indexer(index), x), x[index])


def _indexer(index):
    return lambda a: a[index]


def test_traced_integer_index_is_a_dynamic_slice():
    x = f32(5, 3)
    for i in (0, 4, -1, -5):
        close(run(lambda a, k: a[k], x, np.int32(i)), x[i])
    close(run(lambda a, k: a[k, 1:], x, np.int32(2)), x[2, 1:])


def test_integer_array_indexing_is_a_gather():
    table = f32(6, 3)
    idx = np.array([[0, 5], [-1, 2]], np.int32)
    close(run(lambda t, i: t[i], table, idx), table[idx])
    x = f32(4, 5, 2)
    rows, cols = np.array([0, 3, 1], np.int32), np.array([4, 0, 2], np.int32)
    close(run(lambda a, r, c: a[r, c], x, rows, cols), x[rows, cols])
    close(run(lambda a, c: a[:, c], x, cols), x[:, cols])


def test_functional_updates():
    x = f32(4, 3)
    want = x.copy(); want[1] = 0.0
    close(run(lambda a: a.at[1].set(0.0), x), want)
    want = x.copy(); want[1:3, 0] += 5.0
    close(run(lambda a: a.at[1:3, 0].add(5.0), x), want)
    idx = np.array([0, 2, 0], np.int32)
    want = x.copy(); np.add.at(want, idx, 1.0)
    close(run(lambda a, i: a.at[i].add(1.0), x, idx), want)
    want = x.copy(); want[[3, 1]] = np.array([[1, 2, 3], [4, 5, 6]], np.float32)
    close(run(lambda a, i: a.at[i].set(np.array([[1, 2, 3], [4, 5, 6]], np.float32)), x, np.array([3, 1], np.int32)), want)


@pytest.mark.parametrize("dtype", [np.int32, np.int64, np.float64, np.uint8])
def test_other_dtypes(dtype):
    x = (RNG.integers(1, 9, size=(3, 4))).astype(dtype)
    y = (RNG.integers(1, 9, size=(4,))).astype(dtype)
    close(run(lambda a, b: a * b + a - b, x, y), x * y + x - y)
    close(run(lambda a, b: mnp.maximum(a, b), x, y), np.maximum(x, y))
    close(run(lambda a: mnp.max(a, axis=-1), x), np.max(x, axis=-1))
    close(run(lambda a: mnp.min(a, axis=0, keepdims=True), x), np.min(x, axis=0, keepdims=True))
    close(run(lambda a: a[::-1, 1:3], x), x[::-1, 1:3])
    close(run(lambda a: mnp.transpose(a), x), x.T)
    if dtype != np.uint8:
        close(run(lambda a: mnp.sum(a, axis=1), x), np.sum(x, axis=1).astype(dtype))  # JAX keeps the dtype
        close(run(lambda a, b: a @ b, x, y), x @ y)


def test_bool_reductions_and_sums_use_int32():
    b = RNG.random((3, 4)) < 0.5
    close(run(lambda a: mnp.sum(a, axis=1), b), np.sum(b, axis=1).astype(np.int32))
    close(run(lambda a: mnp.mean(a), np.arange(4, dtype=np.int32)), np.float32(1.5))


@pytest.mark.parametrize("name", ["floor", "ceil", "trunc"])
@pytest.mark.parametrize("dtype", [np.int8, np.int32, np.int64, np.uint16, np.uint64, np.bool_])
def test_rounding_keeps_integers_and_bools(name, dtype):
    """floor/ceil/trunc of integers and bools are the identity in their own dtype (JAX, and
    numpy 2); ceil(int64) was a float32 (fuzz run 32)."""
    info = np.iinfo(dtype) if dtype != np.bool_ else None
    x = (np.array([True, False, True]) if dtype == np.bool_
         else np.array([info.min, 0, 1, info.max], dtype))
    got = run(getattr(mnp, name), x)
    assert got.dtype == getattr(np, name)(x).dtype == x.dtype
    np.testing.assert_array_equal(got, x)


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64])
def test_trunc_of_floats(dtype):
    """Toward zero, as numpy: -0.5 -> -0.0, NaN and infinities kept."""
    x = np.array([-2.5, -0.5, -0.0, 0.0, 0.5, 1.99, 7.0, np.inf, -np.inf, np.nan], dtype)
    got = run(mnp.trunc, x)
    assert got.dtype == x.dtype
    np.testing.assert_array_equal(got, np.trunc(x))
    np.testing.assert_array_equal(np.signbit(got), np.signbit(np.trunc(x)))
