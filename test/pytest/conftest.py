"""Shared helpers: build a one-function hlo module with the builders, compile, run, compare."""

from __future__ import annotations

import threading

import os
import tempfile

import numpy as np
import pytest
from mlir import ir
from mlir.dialects import func

import mlc
from mlc.context import make_context
from mlc.dtypes import mlir_element_name

# The suite never touches the user's compilation cache: off by default (each compile is
# then measured and checked as it is), and pointed at a temporary directory for the tests
# that turn it on (test_disk_cache.py, test_export.py use their own tmp_path).
os.environ["MLC_CACHE"] = "0"
os.environ["MLC_CACHE_DIR"] = tempfile.mkdtemp(prefix="mlc-test-cache-")

# Tolerance (rtol = atol) per result dtype for ops computed exactly as numpy does; integer
# and boolean results must match exactly.
TOLERANCE = {np.dtype(np.float16): 1e-3, np.dtype(np.float32): 1e-6, np.dtype(np.float64): 1e-14}
# Transcendentals and long sums round differently from numpy's (libm vs numpy's SIMD
# kernels, sequential vs pairwise summation): a looser bound per dtype.
LOOSE_TOLERANCE = {np.dtype(np.float16): 1e-2, np.dtype(np.float32): 1e-5, np.dtype(np.float64): 1e-12}


def tensor_type(shape, dtype) -> ir.RankedTensorType:
    return ir.RankedTensorType.get(list(shape), ir.Type.parse(mlir_element_name(dtype)))


def hlo_module(body, *arg_specs) -> ir.Module:
    """A module whose function `main` is `body(*block_args) -> value(s)` over args of the
    given (shape, dtype); built in the current context."""
    module = ir.Module.create()
    with ir.InsertionPoint(module.body):
        @func.FuncOp.from_py_func(*[tensor_type(s, d) for s, d in arg_specs], name="main")
        def main(*args):
            return body(*args)
    return module


def compile_hlo(body, *arg_specs, options=None):
    """Compiles `body(*block_args) -> value(s)` over args of the given (shape, dtype)."""
    with make_context(), ir.Location.unknown():
        return mlc.compile(hlo_module(body, *arg_specs), options=options)


def run_hlo(body, *arrays):
    arrays = [np.asarray(a) for a in arrays]
    executable = compile_hlo(body, *[(a.shape, a.dtype) for a in arrays])
    return executable(*arrays)


def assert_matches(got, want, loose: bool = False):
    want = np.asarray(want)
    assert got.shape == want.shape, (got.shape, want.shape)
    assert got.dtype == want.dtype, (got.dtype, want.dtype)
    if np.issubdtype(want.dtype, np.floating):
        tol = (LOOSE_TOLERANCE if loose else TOLERANCE)[want.dtype]
        np.testing.assert_allclose(got, want, rtol=tol, atol=tol, equal_nan=True)
    else:
        np.testing.assert_array_equal(got, want)


def random_array(rng, shape, dtype):
    dtype = np.dtype(dtype)
    if dtype == np.bool_:
        return rng.random(shape) < 0.5
    if np.issubdtype(dtype, np.integer):
        info = np.iinfo(dtype)
        return rng.integers(max(info.min, -100), min(info.max, 100), size=shape, endpoint=True).astype(dtype)
    return (rng.standard_normal(shape) * 3).astype(dtype)



def run_threads(target, count: int) -> None:
    """Runs target(i) on `count` threads at once, i = 0..count-1, and joins them all."""
    threads = [threading.Thread(target=target, args=(i,)) for i in range(count)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()


@pytest.fixture
def rng():
    return np.random.default_rng(1234)


@pytest.fixture(params=[256, 512], ids=lambda bits: f"{bits}bit")
def vector_bits(request, monkeypatch) -> int:
    """Generates code for both vector widths MLC targets (AVX2 and AVX-512) on any host
    (MLC_VECTOR_BITS): a change that breaks the width this host does not have fails here.
    Wider than the host is still correct code (LLVM splits the vectors)."""
    monkeypatch.setenv("MLC_VECTOR_BITS", str(request.param))
    return request.param


@pytest.fixture(scope="module")
def parallel_library():
    """MLC's thread pool library (runtime/parallel_runtime.c), its entry points typed for
    ctypes calls; the test is skipped where it cannot be built (no C compiler)."""
    from mlc.runtime.parallel_runtime import load_parallel_runtime
    library = load_parallel_runtime()
    if library is None:
        pytest.skip("the parallel runtime cannot be built here (no C compiler)")
    return library


def linked_kernels(kernel_type):
    """get(variant): the ctypes function (of `kernel_type`) of one of MLC's precompiled
    kernels (codegen/kernel_library.py), compiled and linked on its first get."""
    from mlc.codegen import kernel_library
    from mlc.runtime.libraries import jit_shared_libraries
    from mlc.runtime.llvm_backend import JitLinked
    jit_shared_libraries(runner_utils=False)  # the thread pool the two-thread kernels run on
    linked = {}

    def get(variant):
        if variant not in linked:
            jit = JitLinked([kernel_library.compiled(variant, 2).code])
            linked[variant] = (jit, kernel_type(jit.address(variant.symbol)))
        return linked[variant][1]
    return get
