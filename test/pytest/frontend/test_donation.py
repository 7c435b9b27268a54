"""jit's donate_argnums/donate_argnames: donated results are written into the donated numpy
array and equal what the function gives without donation, whatever the access pattern."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import mlc
import mlc.numpy as mnp


def _both(f, args, donate_argnums=(), donate_argnames=(), **kwargs):
    """(results without donation, results with donation, the arrays passed to the latter)."""
    want = mlc.jit(f)(*[a.copy() for a in args], **kwargs)
    passed = [a.copy() for a in args]
    got = mlc.jit(f, donate_argnums=donate_argnums, donate_argnames=donate_argnames)(*passed, **kwargs)
    return want, got, passed


def _equal(got, want):
    got = got if isinstance(got, tuple) else (got,)
    want = want if isinstance(want, tuple) else (want,)
    assert len(got) == len(want)
    for g, w in zip(got, want):
        np.testing.assert_allclose(g, w, rtol=1e-6, atol=1e-6)


def _rand(*shape, seed=0):
    return np.random.default_rng(seed).standard_normal(shape).astype(np.float32)


def test_elementwise_in_place():
    p, g = _rand(1000), _rand(1000, seed=1)
    want, got, passed = _both(lambda p, g: p - 0.1 * g, (p, g), donate_argnums=0)
    _equal(got, want)
    assert got is passed[0]                       # the donated array holds the result
    np.testing.assert_array_equal(passed[1], g)   # the other argument is untouched


def test_compiled_in_place_without_a_copy():
    f = mlc.jit(lambda p, g: p * 2.0 + g, donate_argnums=0)
    text = f.lower(_rand(64), _rand(64)).as_text("buffers")
    assert "outs(%arg0" in text and "memref.copy" not in text


@pytest.mark.parametrize("name,fun", [
    ("transpose", lambda x: x.T * 2.0),
    ("shifted_slice", lambda x: mnp.concatenate([x[1:], x[:1]], axis=0) + 1.0),
    ("reverse", lambda x: x[::-1, ::-1] - x),
    ("row_sums", lambda x: x - x.sum(axis=1, keepdims=True)),
    ("matmul", lambda x: x @ x),
    ("cumsum", lambda x: mnp.cumsum(x, axis=0)),
])
def test_access_patterns_that_read_what_a_naive_in_place_write_clobbers(name, fun):
    x = _rand(16, 16, seed=3)
    want, got, passed = _both(fun, (x,), donate_argnums=0)
    _equal(got, want)
    assert got is passed[0]


@pytest.mark.parametrize("name,fun,shape", [
    ("transpose", lambda x: x.T + x, (512, 512)),
    ("shifted_slice", lambda x: mnp.concatenate([x[3:], x[:3]]) * x, (1_000_003,)),
    ("matmul", lambda x: x @ x.T, (256, 256)),
    ("softmax_rows", lambda x: mnp.exp(x - x.max(axis=1, keepdims=True)), (1024, 1024)),
])
def test_large_sizes_through_vector_blas_and_parallel_code(name, fun, shape):
    x = _rand(*shape, seed=5)
    want, got, passed = _both(fun, (x,), donate_argnums=0)
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-4)
    assert got is passed[0]


def test_reduction_result_not_donatable_warns():
    x = _rand(8, 4)
    with pytest.warns(UserWarning, match=r"Some donated buffers were not usable: float32\[8, 4\]"):
        want, got, passed = _both(lambda x: x.sum(axis=1), (x,), donate_argnums=0)
    _equal(got, want)
    np.testing.assert_array_equal(passed[0], x)   # not aliased: untouched


def test_several_donated_arguments_and_names():
    p, m, v, g = (_rand(257, seed=s) for s in range(4))

    def adam(p, m, v, g, lr=1e-3):
        m = 0.9 * m + 0.1 * g
        v = 0.999 * v + 0.001 * g * g
        return p - lr * m / (mnp.sqrt(v) + 1e-8), m, v
    want, got, passed = _both(adam, (p, m, v, g), donate_argnums=(0, 1), donate_argnames="v")
    _equal(got, want)
    assert all(r is a for r, a in zip(got, passed[:3]))


def test_swapped_results():
    a, b = _rand(32), _rand(32, seed=1)
    want, got, passed = _both(lambda a, b: (b + 1.0, a * 2.0), (a, b), donate_argnums=(0, 1))
    _equal(got, want)


def test_pytree_argument_donated():
    params = {"w": _rand(4, 4), "b": _rand(4)}
    f = lambda params, g: {k: v - 0.5 * g[k] for k, v in params.items()}
    grads = {"w": _rand(4, 4, seed=2), "b": _rand(4, seed=3)}
    want = mlc.jit(f)({k: v.copy() for k, v in params.items()}, grads)
    got = mlc.jit(f, donate_argnums=0)(params, grads)
    for k in params:
        np.testing.assert_allclose(got[k], want[k], rtol=1e-6)
        assert got[k] is params[k]


def test_non_contiguous_or_wrong_dtype_donation_is_copied():
    base = _rand(8, 8)
    view = base[:, ::2]                     # not contiguous: copied, the copy returned
    before = base.copy()
    got = mlc.jit(lambda x: x * 3.0, donate_argnums=0)(view)
    np.testing.assert_allclose(got, before[:, ::2] * 3.0, rtol=1e-6)
    np.testing.assert_array_equal(base, before)
    ints = np.arange(6, dtype=np.int64)     # a different dtype from the traced one is copied
    got = mlc.jit(lambda x: x + 1, donate_argnums=0)(ints.astype(np.int32))
    np.testing.assert_array_equal(got, np.arange(1, 7))


def test_shape_mismatch_is_not_aliased():
    x, y = _rand(5), _rand(3)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        want, got, passed = _both(lambda x, y: mnp.concatenate([x, y]), (x, y), donate_argnums=(0, 1))
    assert any("Some donated buffers were not usable" in str(w.message) for w in caught)
    _equal(got, want)


def test_staged_api_and_repeated_calls():
    f = mlc.jit(lambda p, g: p - g, donate_argnums=0)
    p, g = _rand(100), _rand(100, seed=1)
    compiled = f.lower(p, g).compile()
    expected = p - g
    out = compiled(p, g)
    assert out is p
    np.testing.assert_allclose(p, expected, rtol=1e-6)
    for _ in range(3):                      # the cached path keeps updating in place
        expected = expected - g
        assert f(p, g) is p
    np.testing.assert_allclose(p, expected, rtol=1e-5)


def test_bad_donate_arguments():
    with pytest.raises(ValueError, match="donate_argnums 3 is out of range"):
        mlc.jit(lambda x: x, donate_argnums=3)
    with pytest.raises(ValueError, match="donate_argnames 'y' is not a parameter"):
        mlc.jit(lambda x: x, donate_argnames="y")
    with pytest.raises(ValueError, match="static arguments cannot be donated"):
        mlc.jit(lambda x, n: x, static_argnums=1, donate_argnums=1)


def test_exported_library_of_a_donating_function_writes_every_result(tmp_path):
    import ctypes
    f = mlc.jit(lambda p, g: p - g, donate_argnums=0)
    p, g = _rand(16), _rand(16, seed=1)
    compiled = f.lower(p, g).compile()
    compiled.export_library(str(tmp_path / "libdonate.so"), name="step")
    lib = ctypes.CDLL(str(tmp_path / "libdonate.so"))
    out = np.zeros(16, np.float32)
    ptr = lambda a: a.ctypes.data_as(ctypes.c_void_p)
    assert lib.step(ptr(p), ptr(g), ptr(out)) == 0
    np.testing.assert_allclose(out, p - g, rtol=1e-6)


def test_donated_array_also_passed_as_another_argument():
    x = _rand(64)
    want = (x + 1.0) * x
    f = mlc.jit(lambda p, g: (p + 1.0) * g, donate_argnums=0)
    got = f(x, x)                  # the same array twice: the donated one is copied first
    np.testing.assert_allclose(got, want, rtol=1e-6)
    both = mlc.jit(lambda a, b: (b * 2.0, a * 3.0), donate_argnums=(0, 1))
    y = _rand(64, seed=4)
    before = y.copy()
    r0, r1 = both(y, y)
    np.testing.assert_allclose(r0, before * 2, rtol=1e-6)
    np.testing.assert_allclose(r1, before * 3, rtol=1e-6)


# Rows long enough for the overlapping last vector (vectorize._overlap_is_cheap), and short ones.
@pytest.mark.parametrize("shape", [(64, 1025), (3, 1000), (2, 4097), (5, 520), (7, 33), (3, 100)], ids=str)
def test_ragged_rows_updated_in_place(shape):
    """mlc-vectorize ends a ragged row with a last full vector overlapping the one before,
    unless the kernel writes over what it reads: donated, the overlapped elements would get
    tanh(v) * 2 + v applied to their own result."""
    x = _rand(*shape, seed=7)
    f = lambda v: mnp.tanh(v) * 2.0 + v  # noqa: E731
    want, got, passed = _both(f, (x,), donate_argnums=0)
    _equal(got, want)
    assert got is passed[0]
    np.testing.assert_allclose(want, np.tanh(x) * 2.0 + x, rtol=1e-5, atol=1e-5)
