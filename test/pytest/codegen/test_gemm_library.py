"""MLC's precompiled GEMM kernels (codegen/gemm_library.py): each variant called on raw
buffers against numpy (odd sizes, K over several cache blocks, offsets, padded leading
dimensions, accumulate or overwrite, one and two threads, both vector widths), their
persistent cache (kept, reloaded, a damaged file rebuilt), and where programs keep the
kernel generated in them (the ExecutionEngine JIT, exported libraries)."""

from __future__ import annotations

import ctypes
import itertools
import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest
from conftest import linked_kernels

import mlc
import mlc.numpy
from mlc import CompileOptions
from mlc.codegen import kernel_library
from mlc.codegen.gemm_library import PREFIX, Variant
from mlc.codegen.packed_gemm import MARK
from mlc.export import export_options
from mlc.runtime import disk_cache

# Sums over K: the tolerance grows with sqrt(K) (as test_matmul's `close`).
RTOL = 2e-5
TOL = {"f32": 2e-5, "f64": 1e-12}

# The lowered kernel: M, N, K, then per matrix the rank-0 base memref (allocated, aligned,
# offset) followed by the element offset and the leading dimension, then beta_zero.
_MATRIX = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int64, ctypes.c_int64, ctypes.c_int64]
KERNEL_TYPE = ctypes.CFUNCTYPE(None, *[ctypes.c_int64] * 3, *_MATRIX * 3, ctypes.c_bool)

SHAPES = [(1, 1, 1), (7, 5, 3), (8, 32, 16), (33, 65, 129), (130, 70, 1030), (9, 200, 40)]


@pytest.fixture(scope="module")
def kernels():
    """Linked kernels by variant (each compiled once for the module's tests)."""
    return linked_kernels(KERNEL_TYPE)


def _stored(rng, rows, cols, transposed, pad, dtype):
    """A random matrix [rows, cols] stored in a bigger buffer: (buffer, offset, leading
    dimension, the matrix as numpy sees it). transposed: stored [cols, rows]."""
    stored_rows, stored_cols = (cols, rows) if transposed else (rows, cols)
    ld = stored_cols + pad
    offset = 3 * pad + 1 if pad else 0
    buffer = rng.standard_normal(offset + stored_rows * ld + 8).astype(dtype)
    view = buffer[offset:offset + stored_rows * ld].reshape(stored_rows, ld)[:, :stored_cols]
    return buffer, offset, ld, (view.T if transposed else view)


def _matrix_args(buffer, offset, ld):
    pointer = buffer.ctypes.data
    return [pointer, pointer, 0, offset, ld]


@pytest.mark.parametrize("dtype", ["f32", "f64"])
@pytest.mark.parametrize("bits", [256, 512])
@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.parametrize("a_t, b_t, split_m", list(itertools.product((False, True), repeat=3)))
def test_kernel_on_raw_buffers(kernels, a_t, b_t, split_m, threads, bits, dtype):
    """C (+)= A B through each variant on ragged sizes (past a register tile, a cache block
    of K = 1030 > KC, a thread's share), matrices at an offset in padded buffers."""
    kernel = kernels(Variant(a_t, b_t, split_m, threads, bits, dtype))
    rng = np.random.default_rng([a_t, b_t, split_m, threads, bits, dtype == "f64"])
    np_type, tol = {"f32": np.float32, "f64": np.float64}[dtype], TOL[dtype]
    for (m, n, k), beta_zero in itertools.product(SHAPES, (True, False)):
        a_buf, a_off, lda, a = _stored(rng, m, k, a_t, 3, np_type)
        b_buf, b_off, ldb, b = _stored(rng, k, n, b_t, 0 if b_t else 5, np_type)
        c_buf, c_off, ldc, c = _stored(rng, m, n, False, 2, np_type)
        before = c_buf.copy()
        want = a.astype(np.float64) @ b.astype(np.float64) + (0 if beta_zero else c.astype(np.float64))
        kernel(m, n, k, *_matrix_args(a_buf, a_off, lda), *_matrix_args(b_buf, b_off, ldb),
               *_matrix_args(c_buf, c_off, ldc), beta_zero)
        np.testing.assert_allclose(c, want, rtol=tol, atol=tol * np.sqrt(k), err_msg=str((m, n, k, beta_zero)))
        inside = np.zeros(c_buf.shape, bool)
        inside[c_off:c_off + m * ldc].reshape(m, ldc)[:, :n] = True
        np.testing.assert_array_equal(c_buf[~inside], before[~inside])  # nothing outside C written


def test_variant_symbols_round_trip():
    for variant in (Variant(False, True, True, 2, 512), Variant(True, False, False, 1, 256, "f64")):
        assert Variant.parse(variant.symbol) == variant
    assert Variant.parse("mlc_gemm_f16_nn_m2_v512") is None and Variant.parse("scipy_cblas_sgemm64_") is None


def _matmul_codegen(options: CompileOptions, shape=(96, 200, 72)):
    m, k, n = shape
    rng = np.random.default_rng(7)
    a, b = rng.standard_normal((m, k)).astype(np.float32), rng.standard_normal((k, n)).astype(np.float32)
    compiled = mlc.jit(lambda x, y: x @ y, options=options).lower(a, b).compile()
    np.testing.assert_allclose(compiled(a, b), a @ b, rtol=RTOL, atol=RTOL * np.sqrt(k))
    return compiled.as_text("codegen")


def test_programs_call_the_kernel_unless_asked_not_to():
    """By default an f32 matmul the packed GEMM takes calls its kernel; gemm_kernels=False
    and the ExecutionEngine JIT (it links no extra objects) generate it in the program."""
    big = (96, 200, 720)  # 13.8M multiply-adds: packed, not register tiles
    assert f"call @{PREFIX}" in _matmul_codegen(CompileOptions(blas=False), big)
    for options in (CompileOptions(blas=False, gemm_kernels=False),
                    CompileOptions(blas=False, jit="execution-engine")):
        text = _matmul_codegen(options, big)
        assert PREFIX not in text and MARK in text, options


def test_exported_libraries_generate_their_kernels():
    assert export_options(CompileOptions(), "portable").gemm_kernels is False


@pytest.fixture
def cache_dir(tmp_path, monkeypatch):
    monkeypatch.setenv("MLC_CACHE", "1")
    monkeypatch.setenv("MLC_CACHE_DIR", str(tmp_path))
    kernel_library.forget_compiled()
    yield tmp_path / f"v{disk_cache.FORMAT}"
    disk_cache.flush_all()
    kernel_library.forget_compiled()


def _kernel_files(root):
    return sorted(root.glob("*.kernel"))


def test_kernels_persist_and_a_damaged_file_is_rebuilt(cache_dir, monkeypatch):
    variant = Variant(False, False, True, 1, 256)
    built = []
    build = kernel_library._build
    monkeypatch.setattr(kernel_library, "_build", lambda *a: built.append(a) or build(*a))
    first = kernel_library.compiled(variant, 2)
    assert len(built) == 1 and len(_kernel_files(cache_dir)) == 1
    kernel_library.forget_compiled()  # as a new process: loaded from the cache, not built
    assert kernel_library.compiled(variant, 2) == first and len(built) == 1
    path = _kernel_files(cache_dir)[0]
    path.write_bytes(path.read_bytes()[:-100])  # truncated
    kernel_library.forget_compiled()
    again = kernel_library.compiled(variant, 2)
    assert len(built) == 2 and again.code == first.code
    assert path.read_bytes().endswith(first.code)  # rewritten whole


def test_an_unwritable_cache_only_warns(tmp_path, monkeypatch):
    blocked = tmp_path / "file"
    blocked.write_text("not a directory")
    monkeypatch.setenv("MLC_CACHE", "1")
    monkeypatch.setenv("MLC_CACHE_DIR", str(blocked))
    kernel_library.forget_compiled()
    try:
        with pytest.warns(RuntimeWarning, match="compilation cache"):
            text = _matmul_codegen(CompileOptions(blas=False), (96, 200, 720))
        assert f"call @{PREFIX}" in text
    finally:
        kernel_library.forget_compiled()


def test_a_cached_program_with_a_kernel_runs_in_a_new_process(tmp_path):
    """The persistent cache's shared library holds the kernel it calls: a new process
    loads the program (a hit) without building or loading any kernel."""
    script = textwrap.dedent("""
        import numpy as np, mlc
        from mlc.codegen import kernel_library
        rng = np.random.default_rng(3)
        a, b = rng.standard_normal((96, 720)).astype(np.float32), rng.standard_normal((720, 200)).astype(np.float32)
        f = mlc.jit(lambda x, y: x @ y, options=mlc.CompileOptions(blas=False))
        np.testing.assert_allclose(f(a, b), a @ b, rtol=2e-5, atol=1e-3)
        print("HIT" if next(iter(f._cache.values())).cache_hit else "MISS", len(kernel_library._COMPILED))
    """)
    env = {**os.environ, "MLC_CACHE": "1", "MLC_CACHE_DIR": str(tmp_path)}
    runs = [subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True, timeout=300)
            for _ in range(2)]
    for run in runs:
        assert run.returncode == 0, run.stderr
    assert runs[0].stdout.split() == ["MISS", "1"] and runs[1].stdout.split() == ["HIT", "0"]


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs fork")
def test_a_child_forked_during_a_build_builds_its_own(monkeypatch):
    """Forked while another thread holds the kernels' lock (building one), the child
    compiles a program calling a kernel instead of waiting on that lock forever."""
    monkeypatch.setenv("MLC_CACHE", "0")
    kernel_library._LOCK.acquire()
    try:
        pid = os.fork()
        if pid == 0:  # the child: fails by alarm rather than hanging the test run
            import signal
            signal.alarm(120)
            code = 1
            try:
                a, b = np.ones((200, 300), np.float32), np.ones((300, 700), np.float32)
                got = mlc.jit(lambda x, y: x @ y, options=CompileOptions(blas=False))(a, b)
                code = 0 if np.array_equal(got, np.full((200, 700), 300, np.float32)) else 1
            finally:
                os._exit(code)
        _, status = os.waitpid(pid, 0)
    finally:
        kernel_library._LOCK.release()
    assert os.waitstatus_to_exitcode(status) == 0


@pytest.mark.parametrize("seed", range(6))
def test_random_problems_through_jit(seed, monkeypatch):
    """Random sizes, operand layouts, batch dims, element types and thread counts through
    mlc.jit with the packed path forced at every size (so each product calls a kernel),
    against numpy in float64."""
    from mlc.codegen import blas
    monkeypatch.setattr(blas, "PACKED_MIN_MNK", 0)
    monkeypatch.setattr(blas, "PACKED_PARALLEL_MIN_MNK", 0)
    rng = np.random.default_rng(1000 + seed)
    for _ in range(4):
        m, k, n = (int(v) for v in rng.integers(1, 300, 3))
        batch = tuple(int(v) for v in rng.integers(1, 4, rng.integers(0, 3)))
        dtype = np.float32 if rng.random() < 0.6 else np.float64
        a_t, b_t = bool(rng.random() < 0.5), bool(rng.random() < 0.5)
        a = rng.standard_normal(batch + ((k, m) if a_t else (m, k))).astype(dtype)
        b = rng.standard_normal(batch + ((n, k) if b_t else (k, n))).astype(dtype)
        t = lambda x, flag: np.swapaxes(x, -1, -2) if flag else x  # noqa: E731

        def fn(x, y):
            return (mlc.numpy.swapaxes(x, -1, -2) if a_t else x) @ (mlc.numpy.swapaxes(y, -1, -2) if b_t else y)
        options = CompileOptions(blas=False, threads=int(rng.integers(1, 3)))
        compiled = mlc.jit(fn, options=options).lower(a, b).compile()
        if min(m, k, n) > 1:  # (K = 1 is an outer product, simplified to a broadcast multiply)
            assert f"call @{PREFIX}" in compiled.as_text("codegen"), (m, k, n, batch, a_t, b_t)
        want = t(a.astype(np.float64), a_t) @ t(b.astype(np.float64), b_t)
        tol = TOL["f32" if dtype == np.float32 else "f64"]
        np.testing.assert_allclose(compiled(a, b), want, rtol=tol, atol=tol * np.sqrt(k),
                                   err_msg=str((m, k, n, batch, dtype, a_t, b_t)))
