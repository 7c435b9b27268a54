"""The runtime pieces behind fast calls: the result buffer pool, the scratch buffer for
temporaries, the thread pool's lifetime, and MLC_NUM_THREADS."""

from __future__ import annotations

import gc

import numpy as np
import pytest

import mlc
import mlc.nn as nn
import mlc.numpy as mnp
from mlc.abi import PARALLEL_SYMBOL
from mlc.codegen.target import host_vector_bits, num_threads, vector_register_bits
from mlc.runtime.buffer_pool import MIN_BYTES, BufferPool

BIG = (1024, 1024)  # 4 MiB of f32: results go through the pool


def test_pool_reuses_a_dropped_block():
    pool = BufferPool()
    a = pool.empty(BIG, np.dtype(np.float32))
    address = a.ctypes.data
    del a
    gc.collect()
    b = pool.empty(BIG, np.dtype(np.float32))
    assert b.ctypes.data == address and b.shape == BIG and b.flags.c_contiguous


def test_pool_keeps_a_block_while_a_view_lives():
    pool = BufferPool()
    a = pool.empty(BIG, np.dtype(np.float32))
    view = a[3:5]
    address = a.ctypes.data
    del a
    gc.collect()
    b = pool.empty(BIG, np.dtype(np.float32))
    assert b.ctypes.data != address
    assert view.base is not None


def test_pool_skips_small_arrays_and_respects_its_cap():
    pool = BufferPool(max_cached_bytes=MIN_BYTES)
    small = pool.empty((4,), np.dtype(np.float32))
    assert small.base is None  # plain numpy
    for _ in range(3):
        pool.empty(BIG, np.dtype(np.float32))  # dropped at once
    gc.collect()
    assert pool.cached_bytes <= MIN_BYTES


def test_pool_keeps_a_block_while_any_reference_to_its_memory_lives():
    """A block is free only when nothing outside the pool refers to it: a memoryview, a
    reshaped or dtype view, or an array built on the result's buffer all keep it."""
    pool = BufferPool()
    for keep in (memoryview, lambda a: a.reshape(-1)[::2], lambda a: a.view(np.int32),
                 lambda a: np.frombuffer(a, np.uint8)):
        a = pool.empty(BIG, np.dtype(np.float32))
        a[...] = 1.5
        kept, address = keep(a), a.ctypes.data
        del a
        b = pool.empty(BIG, np.dtype(np.float32))
        assert b.ctypes.data != address
        b[...] = 0.0  # must not reach the kept memory
        assert np.asarray(kept).any()  # 1.5 (or its bytes) still there
        del kept, b


def test_pool_evicts_free_blocks_to_stay_under_its_cap():
    cap = 8 << 20
    pool = BufferPool(max_cached_bytes=cap)
    pool.empty(BIG, np.dtype(np.float32))  # 4 MiB, dropped at once: kept free
    assert pool.cached_bytes == 4 << 20
    six = pool.empty((1536, 1024), np.dtype(np.float32))  # 6 MiB: the free 4 MiB goes
    address = six.ctypes.data
    del six
    assert pool.cached_bytes == 6 << 20
    again = pool.empty((1536, 1024), np.dtype(np.float32))
    assert again.ctypes.data == address
    held = [pool.empty(BIG, np.dtype(np.float32)) for _ in range(3)]  # over the cap: outside it
    del held, again
    assert pool.cached_bytes <= cap


def test_results_from_the_pool_are_independent_arrays():
    x = np.random.default_rng(0).standard_normal(BIG).astype(np.float32)
    f = mlc.jit(lambda a: a * 2.0)
    first = f(x)
    second = f(x + 1)
    np.testing.assert_array_equal(first, x * 2)
    np.testing.assert_array_equal(second, (x + 1) * 2)
    assert first.ctypes.data != second.ctypes.data


def test_temporaries_live_in_a_scratch_buffer():
    x = np.random.default_rng(2).standard_normal((64, 256)).astype(np.float32)
    fn = lambda a: mnp.exp(a).T * 2.0 + 1.0  # noqa: E731 - exp(a) is read transposed: a temporary
    compiled = mlc.jit(fn).lower(x).compile()
    assert "mlc.scratch_bytes" in compiled.as_text("buffers")
    assert "memref.alloc(" not in compiled.as_text("buffers")
    assert compiled.memory_analysis()["temp_size_in_bytes"] > 0
    np.testing.assert_allclose(compiled(x), np.exp(x).T * 2 + 1, rtol=1e-6)


def test_row_fused_temporaries_are_one_row():
    x = np.ones((64, 256), np.float32)
    compiled = mlc.jit(nn.softmax).lower(x).compile()
    assert compiled.memory_analysis()["temp_size_in_bytes"] < x.nbytes // 8
    np.testing.assert_allclose(compiled(x), np.full_like(x, 1 / 256), rtol=1e-6)


def _np_softmax(x, axis=-1):
    e = np.exp(x - x.max(axis=axis, keepdims=True))
    return e / e.sum(axis=axis, keepdims=True)


ROW_PROGRAMS = {  # name: (mlc function, numpy oracle)
    "softmax": (lambda x: nn.softmax(x * 0.5, axis=-1), lambda x: _np_softmax(x * 0.5)),
    "layer_norm": (lambda x: (x - mnp.mean(x, -1, keepdims=True)) / mnp.sqrt(mnp.var(x, -1, keepdims=True) + 1e-5),
                   lambda x: (x - x.mean(-1, keepdims=True)) / np.sqrt(x.var(-1, keepdims=True) + 1e-5)),
    # attention's causal mask, an (S, S) input each row (..., s) reads one row of
    "causal_softmax": (lambda x: nn.softmax(mnp.where(mnp.arange(x.shape[-2])[:, None] >= mnp.arange(x.shape[-1]),
                                                       x, -1e9), axis=-1),
                       lambda x: _np_softmax(np.where(np.arange(x.shape[-2])[:, None] >= np.arange(x.shape[-1]),
                                                      x, -1e9))),
    # a per-batch bias (indexed by the first axis alone): each row reads one element of it
    "batch_bias_softmax": (lambda x: nn.softmax(x + mnp.arange(x.shape[0], dtype=x.dtype).reshape(
                               (-1,) + (1,) * (x.ndim - 1)), axis=-1),
                           lambda x: _np_softmax(x + np.arange(x.shape[0], dtype=x.dtype).reshape(
                               (-1,) + (1,) * (x.ndim - 1)))),
}


@pytest.mark.parametrize("shape", [(3, 129, 130), (2, 3, 67, 131), (5, 2, 300), (8, 64, 257), (2, 8, 130, 130)])
@pytest.mark.parametrize("program", sorted(ROW_PROGRAMS))
@pytest.mark.parametrize("dtype,rtol", [(np.float32, 2e-5), (np.float64, 1e-12)])
def test_row_fusion_over_leading_axes_matches_numpy(shape, program, dtype, rtol):
    """Reductions over the last axis of rank-3/4 arrays whose first-axis rows are too big
    for a private row buffer run with rows over the leading axes (mlc-row-fusion)."""
    x = np.random.default_rng(3).standard_normal(shape).astype(dtype)
    fn, oracle = ROW_PROGRAMS[program]
    np.testing.assert_allclose(mlc.jit(fn)(x), oracle(x), rtol=rtol, atol=rtol)


def test_causal_attention_softmax_temporaries_are_one_row():
    """softmax of (2, 8, 256, 256) scores under a causal (256, 256) mask: rows (b, h, s),
    each reading one row of the mask, so the exp is a private row, not a 4 MiB temporary
    (what remains is the 64 KiB mask itself)."""
    x = np.random.default_rng(5).standard_normal((2, 8, 256, 256)).astype(np.float32)
    fn, oracle = ROW_PROGRAMS["causal_softmax"]
    compiled = mlc.jit(fn).lower(x).compile()
    assert compiled.memory_analysis()["temp_size_in_bytes"] < 80 << 10
    assert "mlc.row_fusion = 4096" in compiled.as_text("buffers")
    np.testing.assert_allclose(compiled(x), oracle(x), rtol=2e-5, atol=1e-7)


def test_rank3_softmax_temporaries_are_one_row():
    """softmax over the last axis of (8, 512, 512): rows (b, s), its exp a private row of
    512 elements, not an 8 MiB temporary (rows over the first axis would be 1 MiB each)."""
    x = np.random.default_rng(4).standard_normal((8, 512, 512)).astype(np.float32)
    compiled = mlc.jit(lambda a: nn.softmax(a, axis=-1)).lower(x).compile()
    assert compiled.memory_analysis()["temp_size_in_bytes"] <= 2 * 512 * 4  # rows, not 8 MiB
    assert "mlc.row_fusion = 4096" in compiled.as_text("buffers")
    np.testing.assert_allclose(compiled(x), _np_softmax(x), rtol=2e-5, atol=1e-7)


def test_destroying_a_parallel_executable_keeps_the_others_working():
    """The thread pool is process-wide; an engine's destruction must not take it down under
    the other engines (with MLIR's async runtime it used to crash their next parallel loop)."""
    x = np.random.default_rng(1).standard_normal((1024, 1024)).astype(np.float32)  # parallel work
    first = mlc.jit(lambda a: mnp.tanh(a) + 1.0)
    first(x)
    second = mlc.jit(lambda a: mnp.exp(a) * 2.0)
    assert PARALLEL_SYMBOL in second.lower(x).compile().as_text("codegen") or num_threads() == 1
    del first
    gc.collect()
    np.testing.assert_allclose(second(x), np.exp(x) * 2.0, rtol=1e-6)


@pytest.mark.parametrize("value, expected", [("1", 1), ("3", 3)])
def test_num_threads_from_the_environment(monkeypatch, value, expected):
    monkeypatch.setenv("MLC_NUM_THREADS", value)
    assert num_threads() == expected


@pytest.mark.parametrize("value", ["0", "two", "-1"])
def test_bad_num_threads_is_a_clear_error(monkeypatch, value):
    monkeypatch.setenv("MLC_NUM_THREADS", value)
    with pytest.raises(ValueError, match="MLC_NUM_THREADS must be a positive integer"):
        num_threads()


@pytest.mark.parametrize("name, value, message", [
    ("MLC_NUM_THREADS", "two", "MLC_NUM_THREADS must be a positive integer, got 'two'"),
    ("MLC_VECTOR_BITS", "300", "MLC_VECTOR_BITS must be one of 128, 256, 512, got '300'"),
    ("MLC_VECTOR_BITS", "avx", "MLC_VECTOR_BITS must be one of 128, 256, 512, got 'avx'"),
])
def test_bad_setting_fails_the_compile_with_its_name(monkeypatch, name, value, message):
    monkeypatch.setenv(name, value)
    with pytest.raises(ValueError, match=message):
        mlc.jit(lambda a: a * 2)(np.ones(4, np.float32))


@pytest.mark.parametrize("bits", ["128", "256", "512"])
def test_vector_bits_setting_overrides_the_host(monkeypatch, bits):
    monkeypatch.setenv("MLC_VECTOR_BITS", bits)
    assert vector_register_bits() == int(bits)
    monkeypatch.delenv("MLC_VECTOR_BITS")
    assert vector_register_bits() == host_vector_bits()


def test_single_thread_compiles_no_parallel_calls(monkeypatch):
    monkeypatch.setenv("MLC_NUM_THREADS", "1")
    x = np.ones((1024, 512), np.float32)
    compiled = mlc.jit(lambda a: mnp.exp(a)).lower(x).compile()
    assert PARALLEL_SYMBOL not in compiled.as_text("codegen")
    np.testing.assert_allclose(compiled(x), np.exp(x), rtol=1e-6)


def test_many_rows_do_not_grow_the_stack():
    """Row fusion's private row buffers are allocated before the row loop: 32768 rows of
    2 KiB each would overflow an 8 MiB stack if they were allocated per row."""
    x = np.random.default_rng(3).standard_normal((32768, 512)).astype(np.float32)
    got = mlc.jit(nn.softmax)(x)
    e = np.exp(x - x.max(-1, keepdims=True))
    np.testing.assert_allclose(got, e / e.sum(-1, keepdims=True), rtol=1e-5, atol=1e-7)
