"""Matmul strategies against numpy: the BLAS call (mlc-blas) and generated code
(MLC_BLAS=0, or below the size rule), over odd shapes, transposed and batched layouts,
f32 and f64; and the im2col convolution against the generic convolution loop nest.

Tolerances: f32 products accumulate K terms in a different order than numpy's BLAS:
rtol 1e-4, atol 1e-4 * sqrt(K); f64 1e-10."""

from __future__ import annotations

import numpy as np
import pytest

import mlc
import mlc.lax as lax
import mlc.numpy as mnp

# Every test generates code for 256- and 512-bit registers (conftest.vector_bits).
pytestmark = pytest.mark.usefixtures("vector_bits")

RNG = np.random.default_rng(3)
SHAPES = [(1, 1, 1), (3, 17, 5), (17, 127, 33), (64, 64, 64), (127, 65, 129), (200, 96, 300), (1023, 33, 64)]


def close(got, want, k):
    tol = 1e-10 if got.dtype == np.float64 else 1e-4
    np.testing.assert_allclose(got, want, rtol=tol, atol=tol * max(1.0, np.sqrt(k)))


def codegen(fn, *args) -> str:
    return mlc.jit(fn).lower(*args).compile().as_text("codegen")


@pytest.fixture(params=["blas", "generated"])
def strategy(request, monkeypatch):
    monkeypatch.setenv("MLC_BLAS", "1" if request.param == "blas" else "0")
    return request.param


@pytest.mark.parametrize("m, k, n", SHAPES, ids=str)
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_matmul(m, k, n, dtype, strategy):
    a, b = RNG.standard_normal((m, k)).astype(dtype), RNG.standard_normal((k, n)).astype(dtype)
    close(mlc.jit(lambda x, y: x @ y)(a, b), a @ b, k)


@pytest.mark.parametrize("layout, a_shape, b_shape", [
    ("a.T @ b", (80, 96), (80, 72)), ("a @ b.T", (96, 80), (72, 80)), ("a.T @ b.T", (80, 96), (72, 80))])
def test_transposed_operands(layout, a_shape, b_shape, strategy):
    a, b = RNG.standard_normal(a_shape).astype(np.float32), RNG.standard_normal(b_shape).astype(np.float32)
    fn = eval(f"lambda a, b: {layout}")  # noqa: S307 - the three layouts above
    close(mlc.jit(fn)(a, b), fn(a, b), 80)


def test_batched(strategy):
    a, b = RNG.standard_normal((4, 70, 80)).astype(np.float32), RNG.standard_normal((4, 80, 90)).astype(np.float32)
    close(mlc.jit(lambda x, y: mnp.matmul(x, y))(a, b), np.matmul(a, b), 80)


def test_batched_dot_general_with_transposed_rhs(strategy):
    a, b = RNG.standard_normal((3, 64, 72)).astype(np.float32), RNG.standard_normal((3, 96, 72)).astype(np.float32)
    fn = lambda x, y: lax.dot_general(x, y, (((2,), (2,)), ((0,), (0,))))  # noqa: E731
    close(mlc.jit(fn)(a, b), np.einsum("bmk,bnk->bmn", a, b), 72)


def test_mlp_epilogue(strategy):
    x = RNG.standard_normal((256, 128)).astype(np.float32)
    w, bias = RNG.standard_normal((128, 192)).astype(np.float32), RNG.standard_normal(192).astype(np.float32)
    fn = lambda x, w, b: mnp.maximum(x @ w + b, 0.0)  # noqa: E731
    close(mlc.jit(fn)(x, w, bias), np.maximum(x @ w + bias, 0), 128)


def test_the_rule_routes_big_float_matmuls_to_blas(monkeypatch):
    monkeypatch.setenv("MLC_BLAS", "1")
    big = np.ones((128, 128), np.float32)
    assert "scipy_cblas_sgemm64_" in codegen(lambda x, y: x @ y, big, big)
    small = np.ones((16, 16), np.float32)
    assert "scipy_cblas" not in codegen(lambda x, y: x @ y, small, small)
    ints = np.ones((128, 128), np.int32)
    assert "scipy_cblas" not in codegen(lambda x, y: x @ y, ints, ints)
    monkeypatch.setenv("MLC_BLAS", "0")
    assert "scipy_cblas" not in codegen(lambda x, y: x @ y, big, big)


def reference_conv_nhwc(x, w, stride, padding, dilation):
    """Direct loops in float64: x [N, H, W, C], w [KH, KW, C, O]."""
    x = np.pad(x.astype(np.float64), ((0, 0), padding[0], padding[1], (0, 0)))
    kh, kw, _, o = w.shape
    oh = (x.shape[1] - (kh - 1) * dilation[0] - 1) // stride[0] + 1
    ow = (x.shape[2] - (kw - 1) * dilation[1] - 1) // stride[1] + 1
    out = np.zeros((x.shape[0], oh, ow, o))
    for i in range(kh):
        for j in range(kw):
            window = x[:, i * dilation[0]: i * dilation[0] + (oh - 1) * stride[0] + 1: stride[0],
                       j * dilation[1]: j * dilation[1] + (ow - 1) * stride[1] + 1: stride[1], :]
            out += np.einsum("nhwc,co->nhwo", window, w[i, j])
    return out


@pytest.mark.parametrize("shape, kernel, stride, padding, dilation", [
    ((2, 9, 7, 3), (3, 3, 3, 5), (1, 1), ((1, 1), (1, 1)), (1, 1)),
    ((1, 17, 13, 8), (3, 2, 8, 4), (2, 3), ((0, 2), (1, 0)), (1, 1)),
    ((2, 12, 12, 4), (3, 3, 4, 6), (1, 1), ((2, 2), (2, 2)), (2, 2)),
    ((4, 16, 16, 32), (3, 3, 32, 64), (1, 1), ((1, 1), (1, 1)), (1, 1)),
], ids=["same", "strided-asymmetric", "dilated", "blas-sized"])
def test_nhwc_convolution_as_matmul(shape, kernel, stride, padding, dilation, strategy):
    x = RNG.standard_normal(shape).astype(np.float32)
    w = RNG.standard_normal(kernel).astype(np.float32)
    fn = lambda x, w: lax.conv_general_dilated(x, w, stride, padding, rhs_dilation=dilation,  # noqa: E731
                                               dimension_numbers=("NHWC", "HWIO", "NHWC"))
    assert "linalg.matmul" in mlc.jit(fn).lower(x, w).as_text("linalg"), "the im2col path did not apply"
    close(mlc.jit(fn)(x, w), reference_conv_nhwc(x, w, stride, padding, dilation), kernel[0] * kernel[1] * kernel[2])


def test_missing_blas_falls_back_with_a_warning(monkeypatch, caplog):
    import logging

    import mlc.codegen.blas as blas
    monkeypatch.setenv("MLC_BLAS", "1")
    monkeypatch.setenv("MLC_LOG_COMPILES", "1")
    monkeypatch.setattr(blas, "find_blas", lambda: None)
    a = RNG.standard_normal((128, 128)).astype(np.float32)
    with caplog.at_level(logging.WARNING, logger="mlc"):
        compiled = mlc.jit(lambda x, y: x @ y).lower(a, a).compile()
    assert "scipy_cblas" not in compiled.as_text("codegen")
    assert any("no BLAS library found" in r.message for r in caplog.records)
    close(compiled(a, a), a @ a, 128)


@pytest.mark.parametrize("threads", ["1", "2"])
def test_thread_counts_agree(threads, strategy, monkeypatch):
    """Every strategy switch together: BLAS on/off x one or two threads, on a dense layer
    big enough for parallel loops."""
    monkeypatch.setenv("MLC_NUM_THREADS", threads)
    x = RNG.standard_normal((256, 128)).astype(np.float32)
    w, b = RNG.standard_normal((128, 256)).astype(np.float32), RNG.standard_normal(256).astype(np.float32)
    fn = lambda x, w, b: mnp.tanh(x @ w + b)  # noqa: E731
    close(mlc.jit(fn)(x, w, b), np.tanh(x @ w + b), 128)


@pytest.mark.parametrize("shapes", [((64, 0), (0, 64)), ((0, 64), (64, 64)), ((64, 64), (64, 0)),
                                    ((2, 64, 0), (2, 0, 64)), ((1024, 0), (0, 1024))], ids=str)
@pytest.mark.parametrize("dtype", [np.float32, np.int32])
def test_zero_size_contractions(shapes, dtype):
    """Empty contracting or output dims: numpy's zeros or empty result (the matmul tiler
    asserted on a zero-extent loop and killed the process)."""
    a, b = np.ones(shapes[0], dtype), np.ones(shapes[1], dtype)
    got = mlc.jit(lambda x, y: x @ y)(a, b)
    np.testing.assert_array_equal(got, a @ b)
    assert got.shape == (a @ b).shape and got.dtype == dtype


@pytest.mark.parametrize("axis", [0, 1, None])
def test_zero_size_reductions(axis):
    x = np.ones((0, 1024), np.float32)
    np.testing.assert_array_equal(mlc.jit(lambda v: mnp.sum(mnp.exp(v), axis=axis))(x), np.sum(np.exp(x), axis=axis))


@pytest.mark.parametrize("case", range(8))
def test_transposed_operands_fold_into_the_contraction(case):
    """dot_general of transposed operands (hlo-simplify folds the transposes into the
    dimension numbers when the free dims keep their order, else keeps them) against numpy,
    odd shapes, batch dims moved around."""
    rng = np.random.default_rng(40 + case)
    b, m, k, n = (int(v) for v in rng.choice([1, 3, 17, 33], size=4))
    perm_a = [(0, 1, 2), (0, 2, 1), (1, 0, 2), (2, 1, 0)][case % 4]
    perm_b = [(0, 2, 1), (0, 1, 2), (1, 0, 2), (2, 0, 1)][case // 2 % 4]
    a = rng.standard_normal((b, m, k)).astype(np.float32)
    w = rng.standard_normal((b, k, n)).astype(np.float32)
    a_stored = np.ascontiguousarray(np.transpose(a, np.argsort(perm_a)))  # transpose(a_stored, perm_a) == a
    w_stored = np.ascontiguousarray(np.transpose(w, np.argsort(perm_b)))
    f = mlc.jit(lambda x, y: mnp.matmul(mnp.transpose(x, perm_a), mnp.transpose(y, perm_b)))
    np.testing.assert_allclose(f(a_stored, w_stored), a @ w, rtol=1e-4, atol=1e-4)
