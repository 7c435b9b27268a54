"""Matmul strategies against numpy: the OpenBLAS call and MLC's packed GEMM (mlc-blas),
the register-tiled small matmul (mlc-tile-matmul), over odd shapes, every dot_general
layout (batched, transposed, contracting dims permuted, batch dims not leading, a
broadcast weight), every dtype the packed kernel takes, 256- and 512-bit vectors, one and
two threads; and the im2col convolution against the generic convolution loop nest.

Data: seeded per test. Tolerances, per dtype (products summed in another order than
numpy's, or in f32 for f16):
  f32  rtol 1e-4, atol 1e-4 * sqrt(K)      (standard normal data)
  f64  rtol 1e-10, atol 1e-10 * sqrt(K)
  f16  rtol 1e-2, atol 1e-2 * sqrt(K)      (against the f32 product rounded to f16)
  integers (int32, int8 wrapping, int8 -> int32): exact."""

from __future__ import annotations

import itertools
import string

import numpy as np
import pytest
from mlir import ir

import mlc
import mlc.lax as lax
import mlc.nn as mnn
import mlc.numpy as mnp
from mlc import CompileOptions
import mlc.codegen.blas as blas
import mlc.codegen.contraction as contraction
import mlc.codegen.tile_matmul as tile_matmul
from mlc.codegen.gemm_library import PREFIX
from mlc.codegen.packed_gemm import MARK, _square_block, blocking
from mlc.abi import PARALLEL_SYMBOL
from mlc.codegen.target import int16_pair_dot

RNG = np.random.default_rng(3)
TOL = {np.dtype(np.float32): 1e-4, np.dtype(np.float64): 1e-10, np.dtype(np.float16): 1e-2}

# "blas": OpenBLAS for every float matmul (the size rule lowered to 1, so odd and small
# shapes exercise the call's transpose and leading-dimension arguments); "own256"/"own512":
# MLC's code only (blas=False) for AVX2 and AVX-512 vector widths (the wider one is
# correct, if slower, on this host), the packed GEMM generated in the program at 256 bits
# and MLC's precompiled f32 kernels (gemm_library.py) at 512.
STRATEGIES = {"blas": CompileOptions(blas=True, vector_bits=256),
              "own256": CompileOptions(blas=False, vector_bits=256, gemm_kernels=False),
              "own512": CompileOptions(blas=False, vector_bits=512)}


def packed(text: str) -> bool:
    """Whether the packed GEMM runs in this IR: generated in it, or its precompiled kernel called."""
    return MARK in text or PREFIX in text


def close(got, want, k):
    want = np.asarray(want)
    assert got.shape == want.shape and got.dtype == want.dtype, (got.shape, got.dtype, want.shape, want.dtype)
    if np.issubdtype(want.dtype, np.integer):
        np.testing.assert_array_equal(got, want)
        return
    tol = TOL[want.dtype]
    np.testing.assert_allclose(got.astype(np.float64), want.astype(np.float64), rtol=tol,
                               atol=tol * max(1.0, np.sqrt(k)))


def data(rng, shape, dtype):
    if np.issubdtype(dtype, np.integer):
        return rng.integers(-100, 100, size=shape).astype(dtype)
    return rng.standard_normal(shape).astype(dtype)


def codegen(fn, *args, options=None) -> str:
    return mlc.jit(fn, options=options).lower(*args).compile().as_text("codegen")


def blas_from(monkeypatch, floor: int) -> None:
    """The size rule at `floor` multiply-adds for f32 and f64 at any vector width."""
    monkeypatch.setattr(blas, "MIN_MNK", floor)
    monkeypatch.setattr(blas, "OWN_F32_MIN_BITS", 1 << 30)


@pytest.fixture(params=list(STRATEGIES))
def strategy(request, monkeypatch):
    if request.param == "blas":
        blas_from(monkeypatch, 1)
    return STRATEGIES[request.param]


# Odd shapes on both sides of the tile sizes (MR 6/8, NR 16/32, KC 256/128) and the rules.
SHAPES = [(1, 1, 1), (3, 17, 5), (17, 127, 33), (127, 65, 129), (200, 300, 96), (1023, 33, 64), (257, 515, 259)]


@pytest.mark.parametrize("m, k, n", SHAPES, ids=str)
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_matmul(m, k, n, dtype, strategy):
    rng = np.random.default_rng(m * 7 + k * 3 + n)
    a, b = data(rng, (m, k), dtype), data(rng, (k, n), dtype)
    close(mlc.jit(lambda x, y: x @ y, options=strategy)(a, b), a @ b, k)


@pytest.mark.parametrize("bits", [256, 512])
@pytest.mark.parametrize("m, k, n", [(17, 127, 33), (61, 300, 80)], ids=str)
@pytest.mark.parametrize("dtype", [np.float16, np.int32, np.int8, np.uint8, np.int64])
def test_packed_kernel_dtypes(m, k, n, dtype, bits, monkeypatch):
    """Every element type MLC's packed kernel takes: f16 (packed to f32, summed in f32),
    int32, int8 and uint8 (wrap like numpy's matmul; summed in i32, truncated), int64.
    (These small shapes would be register-tiled: the size rule is lowered to 0.)"""
    monkeypatch.setattr(blas, "PACKED_MIN_MNK", 0)
    rng = np.random.default_rng(m + k + n)
    a, b = data(rng, (m, k), dtype), data(rng, (k, n), dtype)
    options = CompileOptions(blas=False, vector_bits=bits)
    compiled = mlc.jit(lambda x, y: x @ y, options=options).lower(a, b).compile()
    assert packed(compiled.as_text("codegen"))
    want = (a.astype(np.float32) @ b.astype(np.float32)).astype(dtype) if dtype == np.float16 else a @ b
    close(compiled(a, b), want, k)


@pytest.fixture(params=["vnni", "int32"])
def int_kernel(request, monkeypatch):
    """The packed kernel for narrow integers: VNNI's int16-pair multiply-add (where this
    host has it; skipped elsewhere), or int32 multiplies and adds (forced on any host)."""
    if request.param == "int32":
        monkeypatch.setattr(blas, "int16_pair_dot", lambda bits: False)
    return request.param


@pytest.mark.parametrize("bits", [256, 512])
@pytest.mark.parametrize("m, k, n", [(1, 1, 1), (3, 17, 5), (17, 127, 33), (67, 1023, 45), (127, 3, 129)], ids=str)
@pytest.mark.parametrize("src, dst", [(np.int8, np.int32), (np.uint8, np.int32), (np.int16, np.int32),
                                      (np.uint16, np.int32), (np.int8, np.int64)], ids=str)
def test_narrow_integers_to_wider(m, k, n, src, dst, bits, int_kernel):
    """int8/uint8/int16 x same -> int32 (preferred_element_type): mlc-fold-widening lets
    the packed kernel read the narrow operands; with VNNI (int8, uint8, int16 into int32)
    one vpdpwssd per vector sums two k at a time. Exact against int64 numpy, extreme values
    included (-128 * -128 summed over k)."""
    if int_kernel == "vnni" and not int16_pair_dot(bits):
        pytest.skip(f"this host has no VNNI at {bits} bits")
    rng = np.random.default_rng(m * 1000 + k + n)
    info = np.iinfo(src)
    a = rng.integers(info.min, info.max, size=(m, k), endpoint=True).astype(src)
    b = rng.integers(info.min, info.max, size=(k, n), endpoint=True).astype(src)
    a.flat[0], b.flat[0] = info.min, info.min
    fn = lambda x, y: lax.dot_general(x, y, (((1,), (0,)), ((), ())), preferred_element_type=dst)  # noqa: E731
    options = CompileOptions(blas=False, vector_bits=bits)
    got = mlc.jit(fn, options=options)(a, b)
    want = (a.astype(np.int64) @ b.astype(np.int64)).astype(dst)  # wraps like int32 sums
    close(got, want, k)
    text = codegen(fn, a, b, options=options)
    pairs = int_kernel == "vnni" and np.dtype(dst) == np.int32 and np.dtype(src) != np.uint16
    assert ("vpdpwssd" in text) == (pairs and MARK in text)


@pytest.mark.parametrize("m, k, n", [(3, 17, 5), (67, 201, 45), (300, 513, 129)], ids=str)
@pytest.mark.parametrize("src, dst", [(np.float16, np.float32), (np.float32, np.float64)], ids=str)
def test_narrow_floats_to_wider(m, k, n, src, dst):
    """f16 x f16 -> f32 and f32 x f32 -> f64: the packed kernel reads the narrow operands and
    sums in the wide type (no widened copies, and no BLAS call on them)."""
    rng = np.random.default_rng(m + k + n)
    a, b = data(rng, (m, k), src), data(rng, (k, n), src)
    fn = lambda x, y: lax.dot_general(x, y, (((1,), (0,)), ((), ())), preferred_element_type=dst)  # noqa: E731
    got = mlc.jit(fn)(a, b)
    close(got, (a.astype(np.float64) @ b.astype(np.float64)).astype(dst), k)
    text = codegen(fn, a, b)
    assert MARK in text and "cblas" not in text


def reference_dot_general(a, b, contracting, batch):
    """dot_general by einsum in float64 (integers: int64): batch, lhs free, rhs free."""
    (lc, rc), (lb, rb) = contracting, batch
    letters = iter(string.ascii_letters)
    la, lr = [None] * a.ndim, [None] * b.ndim
    for i, j in zip(lb, rb):
        la[i] = lr[j] = next(letters)
    for i, j in zip(lc, rc):
        la[i] = lr[j] = next(letters)
    for d in range(a.ndim):
        la[d] = la[d] or next(letters)
    for d in range(b.ndim):
        lr[d] = lr[d] or next(letters)
    out = [la[d] for d in lb] + [la[d] for d in range(a.ndim) if d not in lb and d not in lc] + \
          [lr[d] for d in range(b.ndim) if d not in rb and d not in rc]
    wide = np.int64 if np.issubdtype(a.dtype, np.integer) else np.float64
    return np.einsum(f"{''.join(la)},{''.join(lr)}->{''.join(out)}", a.astype(wide), b.astype(wide)).astype(a.dtype)


# (lhs shape, rhs shape, ((lhs contracting, rhs contracting), (lhs batch, rhs batch)))
LAYOUTS = {
    "plain": ((65, 70), (70, 33), (((1,), (0,)), ((), ()))),
    "lhs-transposed": ((70, 65), (70, 33), (((0,), (0,)), ((), ()))),
    "rhs-transposed": ((65, 70), (33, 70), (((1,), (1,)), ((), ()))),
    "both-transposed": ((70, 65), (33, 70), (((0,), (1,)), ((), ()))),
    "batched": ((3, 40, 50), (3, 50, 60), (((2,), (1,)), ((0,), (0,)))),
    "batched-rhs-transposed": ((3, 64, 72), (3, 96, 72), (((2,), (2,)), ((0,), (0,)))),
    "batch-not-leading": ((40, 3, 50), (50, 3, 60), (((2,), (0,)), ((1,), (1,)))),
    "two-batch-dims-heads-layout": ((2, 37, 3, 32), (2, 45, 3, 32), (((3,), (3,)), ((0, 2), (0, 2)))),
    "free-dims-interleaved": ((5, 70, 7), (70, 33), (((1,), (0,)), ((), ()))),
    "contracting-permuted": ((9, 6, 35), (35, 6, 30), (((1, 2), (1, 0)), ((), ()))),
    "two-contracting-dims": ((40, 6, 9), (6, 9, 50), (((1, 2), (0, 1)), ((), ()))),
    "everything-permuted": ((6, 2, 17, 5), (5, 9, 2, 6), (((3, 0), (0, 3)), ((1,), (2,)))),
}


@pytest.mark.parametrize("layout", list(LAYOUTS))
def test_narrow_integer_layouts(layout, int_kernel):
    """int8 x int8 -> int32 in every dot_general layout (transposed A and B are packed by
    the scalar and the vector paths of the pair packing), VNNI and int32 kernels, exact."""
    if int_kernel == "vnni" and not int16_pair_dot(512):
        pytest.skip("this host has no VNNI at 512 bits")
    lhs_shape, rhs_shape, dims = LAYOUTS[layout]
    rng = np.random.default_rng(len(layout))
    a = rng.integers(-128, 128, size=lhs_shape).astype(np.int8)
    b = rng.integers(-128, 128, size=rhs_shape).astype(np.int8)
    a.flat[0], b.flat[0] = -128, -128
    fn = lambda x, y: lax.dot_general(x, y, dims, preferred_element_type=np.int32)  # noqa: E731
    options = CompileOptions(blas=False, vector_bits=512)
    got = mlc.jit(fn, options=options)(a, b)
    want = reference_dot_general(a.astype(np.int64), b.astype(np.int64), *dims)
    np.testing.assert_array_equal(got, want.astype(np.int32))
    if layout == "plain" or "transposed" in layout:  # read in place: the pair kernel packs them
        assert ("vpdpwssd" in codegen(fn, a, b, options=options)) == (int_kernel == "vnni")


@pytest.mark.parametrize("layout", list(LAYOUTS))
def test_dot_general_layouts(layout, strategy):
    lhs_shape, rhs_shape, dims = LAYOUTS[layout]
    rng = np.random.default_rng(sum(lhs_shape) + len(layout))
    a, b = data(rng, lhs_shape, np.float32), data(rng, rhs_shape, np.float32)
    fn = lambda x, y: lax.dot_general(x, y, dims)  # noqa: E731
    k = int(np.prod([lhs_shape[d] for d in dims[0][0]]))
    close(mlc.jit(fn, options=strategy)(a, b), reference_dot_general(a, b, *dims), k)


# K on both sides of the transposed blocks (S = 4, 8, 16) and of KC; M and N with partial
# register tiles (a last panel past the edge is packed element by element).
TRANSPOSED_PACK_SHAPES = [(8, 16, 32), (9, 15, 33), (21, 17, 47), (37, 64, 29), (64, 131, 70), (13, 600, 45)]


def _a_tile_rows(bits: int) -> int:
    with ir.Context():
        return blocking(ir.F32Type.get(), bits).mr


@pytest.mark.parametrize("bits", [256, 512])
@pytest.mark.parametrize("m, k, n", TRANSPOSED_PACK_SHAPES, ids=str)
@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.float16, np.int32, np.int64])
@pytest.mark.parametrize("rhs_transposed", [False, True], ids=["nn", "nt"])
def test_packed_kernel_transposes_k_major_operands(m, k, n, dtype, bits, rhs_transposed, monkeypatch):
    """The packed kernel reads a K-major operand (A as stored, B stored transposed) by
    square blocks of vectors transposed in registers (packed_gemm._transpose), the rest
    element by element: numpy on odd shapes, every element type the path takes (f16
    widened to f32 as it is packed), both vector widths, one and two threads."""
    monkeypatch.setattr(blas, "PACKED_MIN_MNK", 0)  # small shapes would be register-tiled
    rng = np.random.default_rng(m * 31 + k * 7 + n + bits)
    a = data(rng, (m, k), dtype)
    b = data(rng, (n, k) if rhs_transposed else (k, n), dtype)
    fn = (lambda x, y: x @ y.T) if rhs_transposed else (lambda x, y: x @ y)
    rhs = b.T if rhs_transposed else b
    want = (a.astype(np.float32) @ rhs.astype(np.float32)).astype(dtype) if dtype == np.float16 else a @ rhs
    for threads, kernels in itertools.product((1, 2), (False, True)):
        options = CompileOptions(blas=False, vector_bits=bits, threads=threads, gemm_kernels=kernels)
        compiled = mlc.jit(fn, options=options).lower(a, b).compile()
        text = compiled.as_text("codegen")
        if kernels and dtype in (np.float32, np.float64):  # the precompiled kernel (the same packing inside)
            name = {np.float32: "f32", np.float64: "f64"}[dtype]
            assert f"{PREFIX}{name}_" + ("nt" if rhs_transposed else "nn") in text and MARK not in text
        else:
            assert MARK in text
            # B's NR-wide tile is always transposed by blocks; A's 6-row tile (AVX2) is not.
            assert ("vector.shuffle" in text) == (rhs_transposed or _square_block(_a_tile_rows(bits), 4) > 0)
        close(compiled(a, b), want, k)


def test_square_blocks():
    """The transposed blocks: the largest power of two dividing the tile, at most a
    vector, none below 4 (AVX2's 6-row A tile is packed element by element)."""
    assert [_square_block(t, lanes) for t, lanes in [(8, 16), (32, 16), (6, 8), (16, 8), (8, 4), (12, 16)]] == \
        [8, 16, 0, 8, 4, 4]


def test_every_layout_reaches_a_fast_path(monkeypatch):
    """No dot_general layout above is left to the generic loop nest: each becomes one
    OpenBLAS call (or a loop of calls) with BLAS on; without, MLC's packed GEMM (or, for
    small ones the tile divides, mlc-tile-matmul's register tiles)."""
    blas_from(monkeypatch, 1)
    for layout, (lhs_shape, rhs_shape, dims) in LAYOUTS.items():
        a, b = np.ones(lhs_shape, np.float32), np.ones(rhs_shape, np.float32)
        fn = lambda x, y: lax.dot_general(x, y, dims)  # noqa: E731
        with_blas = codegen(fn, a, b, options=CompileOptions(blas=True))
        own = codegen(fn, a, b, options=CompileOptions(blas=False))
        assert "scipy_cblas_sgemm64_" in with_blas, layout
        assert packed(own) or '"reduction"' not in own, layout  # packed, or register tiles


def test_broadcast_weight_is_one_gemm(strategy):
    """(batch, M, K) @ (K, N): numpy's matmul broadcasts W over the batch; the contraction
    reads W itself and the batch folds into M: one (batch*M, K) x (K, N) GEMM, no copy of W."""
    rng = np.random.default_rng(11)
    x, w = data(rng, (8, 128, 64), np.float32), data(rng, (64, 96), np.float32)  # 6.3M: packed
    compiled = mlc.jit(lambda a, b: a @ b, options=strategy).lower(x, w).compile()
    text = compiled.as_text("codegen")
    if strategy.blas:  # the size rule lowered to 1 by the fixture
        calls = [line for line in text.splitlines() if "call @scipy_cblas_sgemm64_" in line]
        assert len(calls) == 1 and "%c1024_i64" in calls[0], calls
    else:
        assert text.count(MARK) + text.count(f"call @{PREFIX}") == 1
    assert "8x64x96" not in text, "W was broadcast into a temporary"
    close(compiled(x, w), x @ w, 64)


def test_attention_shapes(strategy):
    """q k^T and p v of 8 heads x 512 tokens x 64: batched, the second operand transposed."""
    rng = np.random.default_rng(12)
    q, k, v = (data(rng, (8, 512, 64), np.float32) for _ in range(3))
    fn = lambda q, k, v: mnp.matmul(mnp.matmul(q, mnp.transpose(k, (0, 2, 1))), v)  # noqa: E731
    scores = np.matmul(q, k.transpose(0, 2, 1))
    close(mlc.jit(fn, options=strategy)(q, k, v), np.matmul(scores, v), 512 * 8)


@pytest.mark.parametrize("threads", [1, 2])
def test_mlp_epilogue_and_threads(threads, strategy):
    """A dense layer with bias and activation, one and two threads, every strategy; a big
    one (packed or BLAS, its epilogue a separate loop) and a small one (register-tiled with
    the epilogue fused)."""
    rng = np.random.default_rng(threads)
    options = strategy.replace(threads=threads)
    fn = lambda x, w, b: mnp.tanh(x @ w + b)  # noqa: E731
    for m, k, n in ((256, 128, 256), (16, 32, 32)):
        x, w, bias = data(rng, (m, k), np.float32), data(rng, (k, n), np.float32), data(rng, (n,), np.float32)
        close(mlc.jit(fn, options=options)(x, w, bias), np.tanh(x @ w + bias), k)


def test_packed_kernel_threads_split_rows_or_columns(monkeypatch):
    """Two threads share the rows of a tall GEMM and the columns of a wide one (M < N),
    including partial panels at each thread's edge (packed: the size rule lowered to 0)."""
    monkeypatch.setattr(blas, "PACKED_MIN_MNK", 0)
    monkeypatch.setattr(blas, "PACKED_PARALLEL_MIN_MNK", 0)
    rng = np.random.default_rng(5)
    for (m, k, n, split), kernels in itertools.product(((301, 40, 50, "m"), (7, 90, 517, "n")), (False, True)):
        a, b = data(rng, (m, k), np.float32), data(rng, (k, n), np.float32)
        options = CompileOptions(blas=False, threads=2, gemm_kernels=kernels)
        compiled = mlc.jit(lambda x, y: x @ y, options=options).lower(a, b).compile()
        if kernels:  # the precompiled kernel whose threads split the rows (m) or the columns (n)
            assert f"call @{PREFIX}f32_nn_{split}2_" in compiled.as_text("codegen")
        else:
            assert PARALLEL_SYMBOL in compiled.as_text("codegen")
        close(compiled(a, b), a @ b, k)



@pytest.mark.parametrize("bits", [256, 512])
@pytest.mark.parametrize("lhs_shape,rhs_shape,dims", [
    ((8, 37, 17), (8, 17, 45), (((2,), (1,)), ((0,), (0,)))),          # 8 matrices: 4 a thread
    ((2, 3, 29, 16), (2, 3, 33, 16), (((3,), (3,)), ((0, 1), (0, 1)))),  # 2 x 3 batch, rhs transposed
    ((5, 64, 40), (40, 5, 31), (((2,), (0,)), ((0,), (1,)))),            # 5 on 2 threads: rows split
    ((17, 4, 9), (9, 4, 127), (((2,), (0,)), ((1,), (1,)))),             # batch not leading
])
def test_packed_kernel_threads_split_batches(lhs_shape, rhs_shape, dims, bits, monkeypatch):
    """Batched GEMMs on two threads: whole matrices a thread when the batches divide evenly
    (one parallel region, each B packed once), rows otherwise; odd M, N, K edges."""
    monkeypatch.setattr(blas, "PACKED_MIN_MNK", 0)
    monkeypatch.setattr(blas, "PACKED_PARALLEL_MIN_MNK", 0)
    rng = np.random.default_rng(sum(lhs_shape) + bits)
    a, b = data(rng, lhs_shape, np.float32), data(rng, rhs_shape, np.float32)
    fn = lambda x, y: lax.dot_general(x, y, dims)  # noqa: E731
    options = CompileOptions(blas=False, threads=2, vector_bits=bits)
    got = mlc.jit(fn, options=options)(a, b)
    k = int(np.prod([lhs_shape[d] for d in dims[0][0]]))
    close(got, reference_dot_general(a, b, *dims), k)


@pytest.mark.parametrize("batches,m,n,threads,want", [
    (8, 512, 512, 2, True), (6, 29, 33, 2, True), (3, 512, 512, 2, False), (1, 512, 512, 2, False),
    (5, 64, 31, 2, False), (3, 8, 32, 2, True), (16, 512, 64, 4, True), (6, 512, 64, 4, False)])
def test_split_batches_rule(batches, m, n, threads, want):
    """Threads take whole matrices when that balances them at least as well as splitting each
    matrix's MR-row (NR-column) panels: 3 matrices of a single panel row split by batch."""
    from mlir import ir
    with ir.Context():
        f32 = ir.F32Type.get()
        assert blas._split_batches(batches, m, n, threads, 512, f32) is want


@pytest.mark.skipif(not blas.blas_available(), reason="needs numpy's OpenBLAS")
@pytest.mark.parametrize("threads", [1, 2])
def test_blas_calls_leave_openblas_thread_count_alone(threads):
    """The user's numpy shares MLC's OpenBLAS: compiled calls must not change its thread
    count. (A version that set it per part with openblas_set_num_threads_local, global in
    this pthreads build, left it at 1 after two parts raced: numpy's matmuls then ran on
    one thread.)"""
    import ctypes
    from mlc.runtime.libraries import find_blas
    get = ctypes.CDLL(str(find_blas())).scipy_openblas_get_num_threads64_
    get.restype = ctypes.c_int
    before = get()
    rng = np.random.default_rng(7)
    a, b = data(rng, (512, 512), np.float32), data(rng, (512, 2048), np.float32)
    f = mlc.jit(lambda x, y: x @ y, options=CompileOptions(blas=True, threads=threads))
    for _ in range(5):
        close(f(a, b), a @ b, 512)
    assert get() == before


@pytest.mark.skipif(not blas.blas_available(), reason="needs numpy's OpenBLAS")
@pytest.mark.parametrize("on_pool", [False, True])
@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_matmul_beside_blas(threads, dtype, on_pool, monkeypatch):
    """Two matmuls in one function, the size rule at 2^23: 129x513x130 is a BLAS call, and
    67x300x259 (packed by size, split between threads from 2^22 here) is one too on two
    threads where OpenBLAS keeps its own workers (the function's loops run on one thread
    beside BLAS: blas._beside_blas), the packed kernel on one thread or where OpenBLAS's
    jobs run on MLC's pool (target.blas_on_pool). Odd shapes, numpy."""
    from mlc.codegen import target
    blas_from(monkeypatch, 1 << 23)
    monkeypatch.setattr(blas, "PACKED_PARALLEL_MIN_MNK", 1 << 22)
    monkeypatch.setattr(target, "blas_on_pool", lambda: on_pool)
    rng = np.random.default_rng(11)
    x, wx = data(rng, (67, 300), dtype), data(rng, (300, 259), dtype)
    h, wh = data(rng, (129, 513), dtype), data(rng, (513, 130), dtype)
    fn = lambda a, b, c, d: (a @ b, c @ d)  # noqa: E731
    options = CompileOptions(blas=True, threads=threads)
    got = mlc.jit(fn, options=options)(x, wx, h, wh)
    close(got[0], x @ wx, 300)
    close(got[1], h @ wh, 513)
    assert packed(codegen(fn, x, wx, h, wh, options=options)) == (threads == 1 or on_pool)


# Extents the register tile (4 x 16 or 4 x 32 f32) does not divide, in every position.
ODD = [1, 3, 10, 17, 127]
REMAINDER_SHAPES = sorted({(m, 33, 16) for m in ODD} | {(64, k, 16) for k in ODD} | {(8, 40, n) for n in ODD}
                          | {(17, 127, 33), (3, 5, 7), (127, 10, 127), (64, 256, 10), (10, 17, 3)})


@pytest.mark.parametrize("bits", [256, 512])
@pytest.mark.parametrize("m, k, n", REMAINDER_SHAPES, ids=str)
def test_register_tiles_with_remainders(m, k, n, bits):
    """Small matmuls whose extents the register tile does not divide are register-tiled
    (not packed, no generic loop left) when a column tile fits N (contraction.column_tile:
    whole tiles, then one peeled power-of-two tile; 10 = 8 + 2), else packed (127 = 7 x 16
    + 15); M's remainder is one peeled tile. (M or N = 1 is a matrix-vector product, no
    matmul: the generic reduction path.)"""
    rng = np.random.default_rng(m * 31 + k * 7 + n)
    a, b = data(rng, (m, k), np.float32), data(rng, (k, n), np.float32)
    compiled = mlc.jit(lambda x, y: x @ y, options=CompileOptions(blas=False, vector_bits=bits)).lower(a, b).compile()
    text = compiled.as_text("codegen")
    rows = min(contraction.ROWS, m)
    fits = contraction.column_tile(n, 2 * bits // 32, contraction.tile_rows(m, rows)) is not None
    assert (not packed(text)) == fits, (m, k, n)
    assert '"reduction"' not in text or 1 in (m, n)
    close(compiled(a, b), a @ b, k)


@pytest.mark.parametrize("bits", [256, 512])
@pytest.mark.parametrize("dtype", [np.float64, np.int32, np.int8, np.uint8, np.int64, np.float16])
@pytest.mark.parametrize("m, k, n", [(17, 127, 33), (10, 3, 40), (127, 17, 10), (3, 2, 5)], ids=str)
def test_register_tile_remainders_dtypes(m, k, n, dtype, bits):
    """Every element type on odd shapes (f16 stays on the packed kernel, which sums in f32)."""
    rng = np.random.default_rng(m + k * 3 + n * 5)
    a, b = data(rng, (m, k), dtype), data(rng, (k, n), dtype)
    compiled = mlc.jit(lambda x, y: x @ y, options=CompileOptions(blas=False, vector_bits=bits)).lower(a, b).compile()
    assert packed(compiled.as_text("codegen")) == (dtype == np.float16)
    want = (a.astype(np.float32) @ b.astype(np.float32)).astype(dtype) if dtype == np.float16 else a @ b
    close(compiled(a, b), want, k)


# Consumers the packed kernel applies to its tiles (epilogue.py): (mlc, numpy) of (product,
# bias [N], residual [M, N], scalar).
PACKED_EPILOGUES = {
    "bias-relu": (lambda y, b, r, s: mnp.maximum(y + b, 0), lambda y, b, r, s: np.maximum(y + b, 0)),
    "residual-scale": (lambda y, b, r, s: (y + r) * s, lambda y, b, r, s: (y + r) * s),
    "tanh-bias": (lambda y, b, r, s: mnp.tanh(y) + b, lambda y, b, r, s: np.tanh(y) + b),
    # the bias add read four times by the tanh formula: one output fusion (hlo_fuse.evaluations)
    "gelu-bias": (lambda y, b, r, s: mnn.gelu(y + b, approximate=True),
                  lambda y, b, r, s: 0.5 * (y + b) * (1 + np.tanh(np.sqrt(2 / np.pi) * ((y + b) + 0.044715 * (y + b) ** 3)))),
}


@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.parametrize("bits", [256, 512])
@pytest.mark.parametrize("m, k, n", [(67, 100, 300), (256, 256, 96), (13, 257, 129), (300, 600, 40)], ids=str)
@pytest.mark.parametrize("epilogue", list(PACKED_EPILOGUES))
@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.float16, np.int32])
def test_packed_kernel_fuses_its_epilogue(epilogue, dtype, m, k, n, bits, threads, monkeypatch):
    """The packed kernel applies the matmul's elementwise consumer to each C tile when K fits
    one KC block (blocking().kc), else the consumer stays a loop of its own; numpy on odd
    shapes (partial tiles at both edges), every dtype, both widths, one and two threads."""
    if epilogue in ("tanh-bias", "gelu-bias") and dtype == np.int32:
        pytest.skip("tanh takes floats")
    monkeypatch.setattr(blas, "PACKED_MIN_MNK", 0)  # small ones would be register-tiled
    monkeypatch.setattr(tile_matmul, "EPILOGUE_TILED_MAX_MNK", 0)
    fn, ref = PACKED_EPILOGUES[epilogue]
    rng = np.random.default_rng(m + k * 5 + n * 11 + bits)
    x, w = data(rng, (m, k), dtype), data(rng, (k, n), dtype)
    b, r = data(rng, (n,), dtype), data(rng, (m, n), dtype)
    s = np.asarray(3 if dtype == np.int32 else 0.5, dtype)
    options = CompileOptions(blas=False, vector_bits=bits, threads=threads)
    compiled = mlc.jit(lambda x, w, b, r, s: fn(x @ w, b, r, s), options=options).lower(x, w, b, r, s).compile()
    with ir.Context():
        kc = blocking(ir.F64Type.get() if dtype == np.float64 else
                      (ir.IntegerType.get_signless(32) if dtype == np.int32 else ir.F32Type.get()), bits).kc
    assert ("mlc.packed_epilogue" in compiled.as_text("codegen")) == (k <= kc), (k, kc)
    if dtype == np.float16:
        y = (x.astype(np.float32) @ w.astype(np.float32)).astype(np.float16)
    else:
        y = x @ w
    refs = (y, b, r, s)
    if np.issubdtype(dtype, np.floating):  # the reference in f64 (no f16 overflow in y ** 3)
        refs = tuple(np.asarray(v, np.float64) for v in refs)
    want = np.asarray(ref(*refs)).astype(dtype)
    tol = {np.dtype(np.float16): 2e-2}.get(np.dtype(dtype))
    if tol is None:
        close(compiled(x, w, b, r, s), want, k)
    else:  # f16: the product rounded once to f16 before the epilogue, as numpy does
        np.testing.assert_allclose(compiled(x, w, b, r, s).astype(np.float32), want.astype(np.float32),
                                   rtol=tol, atol=tol * np.sqrt(k))


@pytest.mark.parametrize("threads", [1, 2])
def test_packed_epilogues_in_a_chain(threads, monkeypatch):
    """Four layers relu(h @ w + b) on the packed kernel: the temporaries share the scratch
    buffer (every C is the same view), so an epilogue fuses only where its output takes no
    bytes its GEMM reads and C is overwritten before it is read again (epilogue._uses_only,
    _redirect_ok); the others stay loops. numpy."""
    monkeypatch.setattr(blas, "PACKED_MIN_MNK", 0)
    monkeypatch.setattr(tile_matmul, "EPILOGUE_TILED_MAX_MNK", 0)
    rng = np.random.default_rng(41)
    x = data(rng, (96, 80), np.float32)
    layers = [(data(rng, (80, 80), np.float32) * 0.2, data(rng, (80,), np.float32)) for _ in range(4)]

    def net(x, *params):
        for i in range(0, len(params), 2):
            x = mnp.maximum(x @ params[i] + params[i + 1], 0.0)
        return x

    flat = [a for layer in layers for a in layer]
    compiled = mlc.jit(net, options=CompileOptions(blas=False, threads=threads)).lower(x, *flat).compile()
    assert "mlc.packed_epilogue" in compiled.as_text("codegen")
    want = x
    for w, b in layers:
        want = np.maximum(want @ w + b, 0.0)
    close(compiled(x, *flat), want, 80)


# Two products read by one elementwise op (SwiGLU, gated units, sums of projections).
SHARED_EPILOGUES = {
    "swiglu": (lambda g, u: mnn.silu(g) * u, lambda g, u: g / (1 + np.exp(-g)) * u),
    "sum": (lambda g, u: g + u, lambda g, u: g + u),
    "gate-second": (lambda g, u: g * mnn.sigmoid(u), lambda g, u: g / (1 + np.exp(-u))),
}


@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.parametrize("bits", [256, 512])
@pytest.mark.parametrize("m, k, n", [(128, 64, 128), (33, 17, 40), (64, 127, 10), (5, 8, 64)], ids=str)
@pytest.mark.parametrize("epilogue", list(SHARED_EPILOGUES))
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_two_matmuls_one_epilogue(epilogue, m, k, n, bits, threads, dtype):
    """silu(x @ w1) * (x @ w3) and the like on register tiles: the epilogue is fused into
    one of the two products (claimed twice, the tiling script failed: "requires exactly one
    containing_op handle"), against numpy on odd shapes."""
    fn, ref = SHARED_EPILOGUES[epilogue]
    rng = np.random.default_rng(m * 3 + k + n * 7 + len(epilogue))
    x, w1, w3 = data(rng, (m, k), dtype), data(rng, (k, n), dtype), data(rng, (k, n), dtype)
    options = CompileOptions(blas=False, vector_bits=bits, threads=threads)
    got = mlc.jit(lambda x, a, b: fn(x @ a, x @ b), options=options)(x, w1, w3)
    close(got, ref(x @ w1, x @ w3), k)


EPILOGUES = {
    "bias-relu": (lambda y, c: mnp.maximum(y + c, 0.0), lambda y, c: np.maximum(y + c, 0.0)),
    "bias-minus-target": (lambda y, c: y + c - 1.5, lambda y, c: y + c - np.float32(1.5)),
    "tanh": (lambda y, c: mnp.tanh(y) * c, lambda y, c: np.tanh(y) * c),
}


@pytest.mark.parametrize("bits", [256, 512])
@pytest.mark.parametrize("epilogue", list(EPILOGUES))
@pytest.mark.parametrize("m, k, n", [(64, 256, 10), (17, 33, 40), (3, 127, 17), (127, 10, 127), (10, 17, 1)], ids=str)
def test_register_tile_remainders_with_epilogue(m, k, n, epilogue, bits):
    """An elementwise epilogue after a matmul with remainders (fused into the tile loops when
    N fits a column tile, packed and a loop of its own otherwise); one and two
    threads."""
    rng = np.random.default_rng(m + k + n)
    x, w, c = data(rng, (m, k), np.float32), data(rng, (k, n), np.float32), data(rng, (n,), np.float32)
    ours, theirs = EPILOGUES[epilogue]
    for threads in (1, 2):
        options = CompileOptions(blas=False, vector_bits=bits, threads=threads)
        got = mlc.jit(lambda x, w, c: ours(x @ w, c), options=options)(x, w, c)
        close(got, theirs(x @ w, c), k)


@pytest.mark.parametrize("bits", [256, 512])
@pytest.mark.parametrize("m, k, n", [(512, 64, 10), (512, 63, 33), (1001, 64, 10)], ids=str)
def test_register_tile_remainders_on_threads(m, k, n, bits, monkeypatch):
    """Above the thread rule's floor (matmul.PARALLEL_MIN_MNK, lowered to 0 here; these have
    2^18-2^19 multiply-adds) the M tiles are shared by two threads and N's remainder is peeled
    inside each; with an M remainder (1001 rows) one thread. Below the floor, one thread."""
    from mlc.codegen import tile_matmul as matmul
    rng = np.random.default_rng(m + n)
    a, b = data(rng, (m, k), np.float32), data(rng, (k, n), np.float32)
    options = CompileOptions(blas=False, threads=2, vector_bits=bits)
    monkeypatch.setattr(matmul, "PARALLEL_MIN_MNK", m * k * n + 1)
    compiled = mlc.jit(lambda x, y: x @ y, options=options).lower(a, b).compile()
    assert PARALLEL_SYMBOL not in compiled.as_text("codegen")
    monkeypatch.setattr(matmul, "PARALLEL_MIN_MNK", 0)
    compiled = mlc.jit(lambda x, y: x @ y, options=options).lower(a, b).compile()
    text = compiled.as_text("codegen")
    assert not packed(text) and (PARALLEL_SYMBOL in text) == (m % 4 == 0)
    close(compiled(a, b), a @ b, k)


@pytest.mark.parametrize("layout", ["lhs-transposed", "rhs-transposed", "both-transposed", "batched",
                                    "batched-rhs-transposed", "batch-not-leading"])
@pytest.mark.parametrize("shape", [(3, 17, 10), (2, 127, 33)], ids=str)
def test_register_tile_remainders_layouts(layout, shape):
    """Transposed operands and batches with odd extents: batch, M, N = `shape`, K = 17."""
    b, m, n = shape
    k = 17
    rng = np.random.default_rng(b * m + n)
    specs = {"lhs-transposed": ((k, m), (k, n), (((0,), (0,)), ((), ()))),
             "rhs-transposed": ((m, k), (n, k), (((1,), (1,)), ((), ()))),
             "both-transposed": ((k, m), (n, k), (((0,), (1,)), ((), ()))),
             "batched": ((b, m, k), (b, k, n), (((2,), (1,)), ((0,), (0,)))),
             "batched-rhs-transposed": ((b, m, k), (b, n, k), (((2,), (2,)), ((0,), (0,)))),
             "batch-not-leading": ((m, b, k), (k, b, n), (((2,), (0,)), ((1,), (1,))))}
    lhs_shape, rhs_shape, dims = specs[layout]
    a, w = data(rng, lhs_shape, np.float32), data(rng, rhs_shape, np.float32)
    fn = lambda x, y: lax.dot_general(x, y, dims)  # noqa: E731
    for bits in (256, 512):
        close(mlc.jit(fn, options=CompileOptions(blas=False, vector_bits=bits))(a, w),
              reference_dot_general(a, w, *dims), k)


def test_the_rule():
    """Operator selection (blas.strategy, measured in benchmarks/results/gemm.md): f64, and
    f32 where vectors are narrower than 512 bits, of at least 2^25 multiply-adds (or any
    float of at most 8 rows and 2^22: test_blas_rule_thresholds) to OpenBLAS; f32 on
    512-bit vectors, everything below that, integers, and everything with
    BLAS off to the packed kernel; below 2^22 (up to 128^3) to mlc-tile-matmul's register
    tiles, whether or not the tile divides the extents (not f16)."""
    for dtype, symbol in ((np.float32, "scipy_cblas_sgemm64_"), (np.float64, "scipy_cblas_dgemm64_")):
        big = np.ones((256, 512), dtype), np.ones((512, 256), dtype)
        for bits in (256, 512):
            text = codegen(lambda x, y: x @ y, *big, options=CompileOptions(blas=True, vector_bits=bits))
            call = dtype == np.float64 or bits < blas.OWN_F32_MIN_BITS
            assert (symbol in text) == call and (packed(text)) == (not call), (dtype, bits)
    own = codegen(lambda x, y: x @ y, *big, options=CompileOptions(blas=False))
    assert "scipy_cblas" not in own and packed(own)
    mid = np.ones((256, 256), np.float32)
    text = codegen(lambda x, y: x @ y, mid, mid, options=CompileOptions(blas=True))
    assert "scipy_cblas" not in text and packed(text)
    ints = np.ones((256, 256), np.int32)
    text = codegen(lambda x, y: x @ y, ints, ints, options=CompileOptions(blas=True))
    assert "scipy_cblas" not in text and packed(text)
    small = np.ones((16, 16), np.float32)
    text = codegen(lambda x, y: x @ y, small, small, options=CompileOptions(blas=True))
    assert "scipy_cblas" not in text and not packed(text)
    # Small with extents the tile does not divide (64 x 256 x 10): register tiles too.
    text = codegen(lambda x, y: x @ y, np.ones((64, 256), np.float32), np.ones((256, 10), np.float32))
    assert not packed(text) and '"reduction"' not in text
    # ... up to 2^22 multiply-adds: 255 x 255 x 65 (4.2M) is packed.
    text = codegen(lambda x, y: x @ y, np.ones((255, 255), np.float32), np.ones((255, 65), np.float32),
                   options=CompileOptions(blas=False))
    assert packed(text)
    half = np.ones((16, 16), np.float16)  # f16 always packed: only the packed kernel sums in f32
    assert packed(codegen(lambda x, y: x @ y, half, half, options=CompileOptions(blas=True)))


def _contraction(m, k, n, element):
    """A plain row-major C[m, n] += A[m, k] B[k, n], as match_contraction builds it."""
    return contraction.Contraction(m=(0,), n=(1,), k=(2,), batch=(), extents=(m, n, k), lhs_dims=(0, 2),
                                   rhs_dims=(2, 1), out_dims=(0, 1), element_type=element)


@pytest.mark.parametrize("m, k, n, want", [
    (256, 512, 256, True), (256, 511, 256, False),  # MIN_MNK = 2^25 exactly, and one K less
    (64, 512, 1536, True), (64, 256, 1536, False),  # gru_cell's h @ Wh (2^25.6) and x @ Wx (2^24.6)
    (8, 1024, 512, True), (8, 1023, 512, False),  # FEW_ROWS: from PACKED_MIN_MNK = 2^22 ...
    (1, 4096, 1024, True), (8, 768, 3072, True),
    (9, 1024, 1024, False), (16, 1024, 1024, False),  # ... only up to 8 rows
    (32, 1024, 1024, True),  # 2^25: the size rule again
])
def test_blas_rule_thresholds(m, k, n, want):
    """blas.blas_rule on each side of MIN_MNK and of FEW_ROWS x PACKED_MIN_MNK (the
    measurements: gemm.md's small-M section), for f64 and for f32 on 256-bit vectors; f32
    on 512-bit vectors by FEW_ROWS only; never integers or f16."""
    from mlir import ir
    with ir.Context():
        for bits in (256, 512):
            assert blas.blas_rule(_contraction(m, k, n, ir.F64Type.get()), register_bits=bits) is want, (m, k, n)
        assert blas.blas_rule(_contraction(m, k, n, ir.F32Type.get()), register_bits=256) is want, (m, k, n)
        few_rows = m <= blas.FEW_ROWS and m * k * n >= blas.PACKED_MIN_MNK
        assert blas.blas_rule(_contraction(m, k, n, ir.F32Type.get()), register_bits=512) is few_rows, (m, k, n)
        for element in (ir.IntegerType.get_signless(32), ir.F16Type.get()):
            assert not blas.blas_rule(_contraction(m, k, n, element))
        # An explicit floor (mlc-blas min-mnk=...) replaces MIN_MNK only.
        assert blas.blas_rule(_contraction(m, k, n, ir.F32Type.get()), min_mnk=1)


def test_few_rows_compile_to_a_call():
    """End to end: 8 rows x 1024 x 1024 (2^23) call OpenBLAS, 9 rows stay on the packed
    kernel, and with BLAS off so do 8."""
    w = np.ones((1024, 1024), np.float32)
    text = codegen(lambda x, y: x @ y, np.ones((8, 1024), np.float32), w, options=CompileOptions(blas=True))
    assert "scipy_cblas_sgemm64_" in text and not packed(text)
    text = codegen(lambda x, y: x @ y, np.ones((9, 1024), np.float32), w, options=CompileOptions(blas=True))
    assert "scipy_cblas" not in text and packed(text)
    text = codegen(lambda x, y: x @ y, np.ones((8, 1024), np.float32), w, options=CompileOptions(blas=False))
    assert "scipy_cblas" not in text and packed(text)
    x = RNG.standard_normal((8, 1024)).astype(np.float32)
    w = RNG.standard_normal((1024, 1024)).astype(np.float32)
    close(mlc.jit(lambda x, y: x @ y)(x, w), x @ w, 1024)


# Vector contractions: a unit M or N dim is folded away before the matmul strategies see
# the loop nest (x[1, K] @ w[K, N] becomes y[n] += x[k] * w[k, n]); each layout of the
# matrix (K-major or not) and of the vector, with batch loops.
VECTOR_CASES = {
    "row @ w": (lambda x, w: x @ w, [(1, "k"), ("k", "n")]),
    "row @ w.T": (lambda x, w: x @ w.T, [(1, "k"), ("n", "k")]),
    "w @ col": (lambda w, x: w @ x, [("n", "k"), ("k", 1)]),
    "w.T @ col": (lambda w, x: w.T @ x, [("k", "n"), ("k", 1)]),
    "1-D v @ w": (lambda v, w: v @ w, [("k",), ("k", "n")]),
    "1-D w @ v": (lambda w, v: w @ v, [("n", "k"), ("k",)]),
    "batched rows": (lambda x, w: x @ w, [(3, 1, "k"), (3, "k", "n")]),
    "batched cols": (lambda w, x: w @ x, [(3, "n", "k"), (3, "k", 1)]),
}


@pytest.mark.parametrize("k, n", [(1, 5), (17, 3), (127, 33), (1023, 1), (300, 129)], ids=str)
@pytest.mark.parametrize("case", list(VECTOR_CASES))
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_vector_contractions(case, k, n, dtype, strategy):
    fn, shapes = VECTOR_CASES[case]
    rng = np.random.default_rng(k * 5 + n)
    args = [data(rng, tuple({"k": k, "n": n}.get(d, d) for d in shape), dtype) for shape in shapes]
    close(mlc.jit(fn, options=strategy)(*args), fn(*args), k)


def test_vector_contractions_are_gemv_calls():
    """x[1, K] @ w[K, N] is one gemv call with BLAS on (the loop nest read w by columns:
    1 x 1024 x 4096 took 46 ms against numpy's 0.7), also when the matrix is K-major or
    there is no unit dim at all (1-D operands); with BLAS off, the packed kernel."""
    x, w = np.ones((1, 1024), np.float32), np.ones((1024, 4096), np.float32)
    for fn, args in [(lambda x, w: x @ w, (x, w)), (lambda w, x: w.T @ x, (w, x.T)),
                     (lambda v, w: v @ w, (x[0], w)), (lambda w, x: w @ x, (w.T.copy(), x.T.copy()))]:
        text = codegen(fn, *args, options=CompileOptions(blas=True))
        assert text.count("call @scipy_cblas_sgemv64_") == 1, text
        assert "sgemm" not in text and not packed(text)
    text = codegen(lambda x, w: x @ w, x, w, options=CompileOptions(blas=False))
    assert "scipy_cblas" not in text and packed(text)


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
def test_nhwc_convolution_as_matmul(shape, kernel, stride, padding, dilation, strategy, monkeypatch):
    import mlc.conversion.hlo_to_linalg.convolution as convolution
    monkeypatch.setattr(convolution, "FORCE", "im2col")  # the rule picks direct for most of these
    x = RNG.standard_normal(shape).astype(np.float32)
    w = RNG.standard_normal(kernel).astype(np.float32)
    fn = lambda x, w: lax.conv_general_dilated(x, w, stride, padding, rhs_dilation=dilation,  # noqa: E731
                                               dimension_numbers=("NHWC", "HWIO", "NHWC"))
    assert "linalg.matmul" in mlc.jit(fn).lower(x, w).as_text("linalg"), "the im2col path did not apply"
    close(mlc.jit(fn, options=strategy)(x, w), reference_conv_nhwc(x, w, stride, padding, dilation).astype(np.float32),
          kernel[0] * kernel[1] * kernel[2])


def test_missing_blas_falls_back_with_a_warning(monkeypatch, caplog):
    import logging

    import mlc.codegen.blas as blas
    monkeypatch.setenv("MLC_BLAS", "1")
    monkeypatch.setenv("MLC_LOG_COMPILES", "1")
    monkeypatch.setattr(blas, "find_blas", lambda: None)
    blas_from(monkeypatch, 64 ** 3)
    a = RNG.standard_normal((128, 128)).astype(np.float32)
    with caplog.at_level(logging.WARNING, logger="mlc"):
        compiled = mlc.jit(lambda x, y: x @ y).lower(a, a).compile()
    assert "scipy_cblas" not in compiled.as_text("codegen")
    assert any("no BLAS library found" in r.message for r in caplog.records)
    close(compiled(a, a), a @ a, 128)


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


@pytest.mark.parametrize("batch,heads,seq", [(2, 2, 256), (2, 8, 128), (1, 2, 64)])
def test_batched_scores_with_interleaved_batch_dims(batch, heads, seq):
    """Attention scores from (B, S, H, dh) q and k: batch dims (b, h) sit between the
    operands' tiled dims in memory. The register tiles read such operands with vector reads
    that skip a memory dim, which were lowered past the buffer's end (a segfault on the
    corpus' attention block); they now go to the packed kernel."""
    rng = np.random.default_rng(seq + heads)
    q = rng.standard_normal((batch, seq, heads, 64)).astype(np.float32)
    k = rng.standard_normal((batch, seq, heads, 64)).astype(np.float32)
    fn = lambda q, k: (mnp.transpose(q, (0, 2, 1, 3)) @ mnp.transpose(k, (0, 2, 3, 1))) * 0.125  # noqa: E731
    want = (np.transpose(q, (0, 2, 1, 3)) @ np.transpose(k, (0, 2, 3, 1))) * np.float32(0.125)
    for blas in (True, False):
        got = mlc.jit(fn, options=mlc.CompileOptions(blas=blas))(q, k)
        np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-4)


@pytest.mark.parametrize("blas", [True, False])
@pytest.mark.parametrize("shape", [(3, 17, 5, 7), (4, 196, 256, 256)])
def test_shared_weight_with_a_batch_loop_that_cannot_join_m_or_n(blas, shape):
    """swapaxes(x, 1, 2) @ w (MLP-Mixer's token mixing) and w @ x: the weight's broadcast
    along the batch is folded away, so the batch loop joins M (N), where it cannot form one
    strided dimension with the transposed operand's rows; it becomes a batch loop of gemms
    with the weight read at stride 0 (it was a scalar loop nest: 102 ms against numpy's 2)."""
    b, p, c, d = shape
    rng = np.random.default_rng(b * p)
    x = rng.standard_normal((b, p, c)).astype(np.float32)
    w = rng.standard_normal((p, d)).astype(np.float32)
    v = rng.standard_normal((d, p)).astype(np.float32)
    options = CompileOptions(blas=blas)
    got = mlc.jit(lambda x, w: mnp.swapaxes(x, 1, 2) @ w, options=options)(x, w)
    np.testing.assert_allclose(got, np.swapaxes(x, 1, 2) @ w, rtol=1e-4, atol=1e-3)
    compiled = mlc.jit(lambda v, x: v @ x, options=options).lower(v, x).compile()
    np.testing.assert_allclose(compiled(v, x), v @ x, rtol=1e-4, atol=1e-3)
    assert '"reduction"' not in compiled.as_text("codegen")  # a gemm call or the packed kernel


@pytest.mark.parametrize("bits", [256, 512])
def test_register_tiles_keep_the_stack_flat(bits):
    """Register-tiled matmuls with a transposed operand (n-D vector transfers) must not
    allocate stack inside their loops: convert-vector-to-scf's loop form put a memref.alloca
    per transfer inside the tile loops, LLVM keeps such allocas until the function returns,
    and a training step (the 2-process example, 256-row shards) overflowed the 8 MB stack.
    Every llvm.alloca of the final module sits in its function's entry block."""
    rng = np.random.default_rng(12)
    x, w = data(rng, (256, 10), np.float32), data(rng, (256, 10), np.float32)
    fn = lambda a, b: a @ b.T  # noqa: E731
    options = CompileOptions(blas=False, vector_bits=bits, threads=1)
    compiled = mlc.jit(fn, options=options).lower(x, w).compile()
    close(compiled(x, w), x @ w.T, 10)
    in_entry = True
    for line in compiled.as_text("llvm").splitlines():
        stripped = line.strip()
        if stripped.startswith("llvm.func"):
            in_entry = True
        elif stripped.startswith("^bb"):
            in_entry = False
        elif "llvm.alloca" in stripped:
            assert in_entry, f"an alloca outside its function's entry block: {stripped}"


# Vector products without BLAS (exported code, CompileOptions(blas=False)): a vector times
# a matrix runs with the contraction outside (hlo_to_linalg/dot.py), a matrix times a
# vector as a row reduction; odd lengths leave partial vectors at both ends.
@pytest.mark.parametrize("k, n", [(1, 1), (3, 5), (100, 37), (1000, 777), (129, 4099)], ids=str)
@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int32, np.int8])
@pytest.mark.parametrize("vector_first", [True, False])
def test_vector_products_without_blas(k, n, dtype, vector_first):
    rng = np.random.default_rng(k * 1000 + n)
    v = (rng.standard_normal(k) * 4).astype(dtype)
    w = (rng.standard_normal((k, n) if vector_first else (n, k)) * 4).astype(dtype)
    args = (v, w) if vector_first else (w, v)
    got = mlc.jit(lambda a, b: a @ b, options=CompileOptions(blas=False))(*args)
    want = args[0] @ args[1]
    assert got.shape == want.shape and got.dtype == want.dtype
    if np.dtype(dtype).kind == "f":
        np.testing.assert_allclose(got, want, rtol=TOL[np.dtype(dtype)] * 10, atol=TOL[np.dtype(dtype)] * k)
    else:
        np.testing.assert_array_equal(got, want)  # (int8 wraps in both)


# An epilogue's register tiles read all of B again for every 4 rows of A: they are chosen
# only while B fits in one core's L2 (the target's fact), else the packed kernel fuses the
# epilogue. 64x256x256: B 256 KiB; 64x512x512: B 1 MiB.
@pytest.mark.parametrize("m, k, n", [(64, 256, 256), (64, 512, 512), (32, 512, 512)], ids=str)
def test_epilogue_tiles_only_while_b_fits_in_l2(m, k, n):
    from mlc.codegen.target import l2_cache_bytes
    rng = np.random.default_rng(m + k + n)
    x = rng.standard_normal((m, k)).astype(np.float32)
    w = rng.standard_normal((k, n)).astype(np.float32)
    b = rng.standard_normal(n).astype(np.float32)
    compiled = mlc.jit(lambda x, w, b: mnp.maximum(x @ w + b, 0.0),
                       options=CompileOptions(blas=False)).lower(x, w, b).compile()
    assert packed(compiled.as_text("codegen")) == (k * n * 4 > l2_cache_bytes())
    np.testing.assert_allclose(compiled(x, w, b), np.maximum(x @ w + b, 0), rtol=1e-4, atol=1e-3)
