"""mlc-vectorize: vectorized kernels agree with numpy on odd shapes (1, 3, 17, 127, 1023,
non-multiples of every vector length), every float/int width, elementwise, broadcast and
reductions; the codegen stage shows the vector ops, so a silent fallback fails here.

Tolerances: integer results exact; f32 elementwise 1e-5 relative (the 1-ulp exp
included); f32 sums: 1e-6 of the sum of |x| along the axis (vector lanes reassociate the
sum; with cancellation a relative bound on the result means nothing); f64 1e-12."""

from __future__ import annotations

import re

import math

import numpy as np
import pytest

import mlc
import mlc.numpy as mnp
from mlc.codegen.target import vector_register_bits
from mlc.conversion.hlo_to_linalg.reduce import LANES

# Every test generates code for 256- and 512-bit registers (conftest.vector_bits).
pytestmark = pytest.mark.usefixtures("vector_bits")

SHAPES = [(1,), (3,), (17,), (127,), (1023,), (4099,), (5, 3), (7, 33), (64, 1025), (2, 3, 129),
          (333, 1), (4, 1, 3), (1, 5, 2), (9, 2, 7)]  # short rows that join (collapse_short_rows)
RTOL = {np.float32: 1e-5, np.float64: 1e-12}


def data(shape, dtype):
    """Random values that depend only on the shape (tests run in any order, on any worker)."""
    rng = np.random.default_rng(abs(hash(tuple(shape))) % 2**32)
    if np.issubdtype(dtype, np.integer):
        return rng.integers(-100, 100, shape).astype(dtype)
    return rng.standard_normal(shape).astype(dtype)


def check(fn, np_fn, args, dtype):
    compiled = mlc.jit(fn).lower(*args).compile()
    got = compiled(*args)
    want = np_fn(*args)
    if np.issubdtype(dtype, np.integer):
        np.testing.assert_array_equal(got, want)
    else:
        np.testing.assert_allclose(got, want, rtol=RTOL[dtype], atol=RTOL[dtype])
    return compiled


@pytest.mark.parametrize("shape", SHAPES, ids=str)
@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int32, np.int8, np.int64])
def test_elementwise(shape, dtype):
    x, y = data(shape, dtype), data(shape, dtype)
    compiled = check(lambda a, b: a * b + a, lambda a, b: a * b + a, (x, y), dtype)
    # Rows shorter than a register join the rows after them (collapse_short_rows: (5, 3)
    # runs as 15 elements); the vector is two registers of the target width, or the whole
    # short kernel.
    register_lanes = vector_register_bits() // (8 * np.dtype(dtype).itemsize)
    keep = len(shape) - 1
    while keep > 0 and math.prod(shape[keep:]) < register_lanes:
        keep -= 1
    row = math.prod(shape[keep:])
    if row > 1:
        lanes = min(row, 2 * register_lanes)
        assert f"vector<{lanes}x" in compiled.as_text("codegen")


@pytest.mark.parametrize("shape", SHAPES, ids=str)
def test_exp_chain_f32(shape):
    x = data(shape, np.float32)
    check(lambda a: mnp.exp(a) * 0.5 + mnp.tanh(a), lambda a: np.exp(a) * 0.5 + np.tanh(a), (x,), np.float32)


@pytest.mark.parametrize("shape", [(7, 33), (64, 1025), (3, 4096)], ids=str)
def test_row_broadcast(shape):
    x = data(shape, np.float32)
    b = data(shape[-1:], np.float32)
    compiled = check(lambda a, c: a - c, lambda a, c: a - c, (x, b), np.float32)
    assert "vector.transfer_read" in compiled.as_text("codegen")


@pytest.mark.parametrize("n", [1, 17, 1023, 1024, 4096, 100_000, 1_000_000])
@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int32])
def test_full_sum(n, dtype):
    x = data((n,), dtype)
    got = mlc.jit(mnp.sum)(x)
    if np.issubdtype(dtype, np.integer):
        assert got == np.sum(x, dtype=dtype)
    else:
        tolerance = {np.float32: 1e-6, np.float64: 1e-14}[dtype]
        assert abs(float(got) - np.sum(x.astype(np.float64))) <= tolerance * np.sum(np.abs(x))


def f64_lanes() -> int:
    """f64 elements in one vector of the target (two registers, as mlc-vectorize tiles)."""
    return 2 * vector_register_bits() // 64


@pytest.mark.parametrize("threads", ["1", "2"])
def test_lane_split_sum_accumulates_f64_vectors(threads, monkeypatch):
    """The LANES partial sums of an f32 sum are extended to f64 and accumulated as one
    vector<LANES x f64>; the final sum of the lanes runs at the target's f64 vector width."""
    monkeypatch.setenv("MLC_NUM_THREADS", threads)
    x = data((65536,), np.float32)
    compiled = mlc.jit(mnp.sum).lower(x).compile()
    codegen = compiled.as_text("codegen")
    assert "arith.extf" in codegen
    assert f"vector<{LANES}xf32>" in codegen and f"vector<{LANES}xf64>" in codegen
    assert f"vector<{min(LANES, f64_lanes())}xf64>" in codegen
    assert abs(float(compiled(x)) - np.sum(x.astype(np.float64))) <= 1e-7 * np.sum(np.abs(x))


def test_float_sum_is_more_accurate_than_numpy():
    """The lanes of a long f32 sum accumulate in f64: against an exact float64 sum, the
    error is below numpy's pairwise f32 sum (numpy: about 7e-8 relative here)."""
    x = (np.random.default_rng(5).random(1_000_000) + 1.0).astype(np.float32)
    exact = np.sum(x.astype(np.float64))
    ours = abs(float(mlc.jit(mnp.sum)(x)) - exact)
    theirs = abs(float(np.sum(x)) - exact)
    assert ours <= theirs and ours <= 2e-8 * exact


@pytest.mark.parametrize("shape, axis", [((64, 1025), -1), ((64, 1025), 0), ((4, 4096), -1), ((2, 3, 129), 1)])
@pytest.mark.parametrize("op", ["sum", "max", "min"])
def test_axis_reductions(shape, axis, op):
    x = data(shape, np.float32)
    got = mlc.jit(lambda a: getattr(mnp, op)(a, axis=axis))(x)
    want = getattr(np, op)(x.astype(np.float64), axis=axis)
    scale = np.sum(np.abs(x), axis=axis) if op == "sum" else np.abs(want)
    assert np.all(np.abs(got - want) <= 1e-6 * scale + 1e-30)


@pytest.mark.parametrize("shape, axis", [((1000, 777), None), ((64, 33, 5), (1, 2)), ((3, 4, 5, 6), (2, 3)),
                                         ((1000, 768), None), ((5, 300), None)])
@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int32])
def test_reductions_over_several_trailing_axes(shape, axis, dtype):
    """Several trailing axes reduced at once are one loop (collapse_reduction_loops): a whole
    matrix summed, a count of a mask, the maximum over the last two axes."""
    x = data(shape, dtype)
    for op in ("sum", "max"):
        got = mlc.jit(lambda a: getattr(mnp, op)(a, axis=axis))(x)
        want = getattr(np, op)(x.astype(np.float64), axis=axis)
        if np.issubdtype(dtype, np.integer):
            np.testing.assert_array_equal(got, want.astype(dtype))
        else:
            scale = np.sum(np.abs(x), axis=axis) if op == "sum" else np.abs(want)
            tolerance = {np.float32: 1e-6, np.float64: 1e-14}[dtype]
            assert np.all(np.abs(got - want) <= tolerance * scale + 1e-30)
    count = mlc.jit(lambda a: mnp.count_nonzero(a > 0, axis=axis))(x)
    np.testing.assert_array_equal(count, np.count_nonzero(x > 0, axis=axis))


@pytest.mark.parametrize("shape", [(64, 777), (5, 4096), (3, 9)], ids=str)
@pytest.mark.parametrize("axis", [1, 0, None])
def test_bool_reductions(shape, axis):
    """any / all over rows long enough for vector accumulators of bytes (mlc-bool-to-byte
    combines the 0/1 bytes themselves): rows all false, all true, one true at the start,
    one at the end, one in the middle, random."""
    rng = np.random.default_rng(sum(shape))
    b = rng.random(shape) < 0.5
    b[0] = False
    b[1] = True
    if shape[0] > 4:
        b[2], b[3], b[4] = False, False, False
        b[2, 0], b[3, -1], b[4, shape[1] // 2] = True, True, True
    for mlc_op, np_op in ((mnp.any, np.any), (mnp.all, np.all)):
        np.testing.assert_array_equal(mlc.jit(lambda v: mlc_op(v, axis=axis))(b), np_op(b, axis=axis))
        np.testing.assert_array_equal(mlc.jit(lambda v: mlc_op(~v, axis=axis))(b), np_op(~b, axis=axis))
    x = rng.standard_normal(shape).astype(np.float32)
    np.testing.assert_array_equal(mlc.jit(lambda v: mnp.any(v > 2.5, axis=axis))(x), np.any(x > 2.5, axis=axis))


@pytest.mark.parametrize("shape, axis", [((8, 16, 14, 14), (0, 2, 3)), ((64, 33, 96), (0, 2)), ((5, 3, 7, 1100), (1, 3)),
                                         ((2, 3, 4, 5), (0, 1, 3))])
@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.float16, np.int32])
def test_reductions_over_separated_axes(shape, axis, dtype):
    """Reduced axes with a kept one between them run in two steps (the trailing run, then
    the rest); float sums keep their partials wide (f16 in f32, f32 in f64)."""
    x = data(shape, dtype)
    for op in ("sum", "max", "min", "prod"):
        v = (1 + x / 64).astype(dtype) if op == "prod" and dtype != np.int32 else x
        if op == "prod" and dtype == np.int32:
            v = (x % 2 + 1).astype(dtype)[..., :3]  # (no overflow)
        got = np.asarray(mlc.jit(lambda a: getattr(mnp, op)(a, axis=axis))(v))
        want = getattr(np, op)(v.astype(np.float64), axis=axis)
        if np.issubdtype(dtype, np.integer):
            np.testing.assert_array_equal(got, want.astype(np.int64).astype(dtype))
            continue
        tolerance = {np.float16: 2e-3, np.float32: 2e-6, np.float64: 1e-13}[dtype]
        if op == "prod":  # (products round in the element type: an ulp per factor)
            tolerance = float(np.finfo(dtype).eps) * (v.size // want.size)
        scale = np.abs(want) if op in ("max", "min", "prod") else np.sum(np.abs(v.astype(np.float64)), axis=axis)
        assert got.dtype == dtype
        assert np.all(np.abs(got.astype(np.float64) - want) <= tolerance * scale + 1e-30), op


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64])
@pytest.mark.parametrize("n", [2, 3])
def test_short_row_max_min_signed_zeros_and_nan(dtype, n):
    """Rows of 2-3 (too short for the row emitter: scalar max/min, mlc-select-min-max's
    compares and selects): NaN propagates, max(+0, -0) is +0 and min -0, in either order."""
    rng = np.random.default_rng(n)
    x = rng.standard_normal((4000, n)).astype(dtype)
    x[:8, :2] = [[0.0, -0.0], [-0.0, 0.0], [np.nan, 1.0], [1.0, np.nan], [-np.inf, np.inf],
                 [np.inf, -np.inf], [-0.0, -0.0], [2.0, 2.0]]
    for mlc_op, np_op, largest in ((mnp.max, np.max, True), (mnp.min, np.min, False)):
        got = np.asarray(mlc.jit(lambda v: mlc_op(v, axis=1))(x))
        want = np_op(x, axis=1)
        np.testing.assert_array_equal(got, want)
        # IEEE maximum/minimum order the zeros (numpy returns either): a zero result is -0
        # for max only when every zero of the row is -0, for min when any is.
        zero = want == 0
        negative = np.signbit(x) & (x == 0)
        sign = negative.all(axis=1, where=x == 0) if largest else negative.any(axis=1)
        np.testing.assert_array_equal(np.signbit(got)[zero], sign[zero])


def test_large_input_does_not_crash():
    x = data((4096, 4096), np.float32)
    check(lambda a: mnp.max(mnp.exp(a) + 1.0, axis=1), lambda a: np.max(np.exp(a) + 1.0, axis=1), (x,), np.float32)


@pytest.mark.parametrize("n", [2**24 + 3, 3 * 2**22 + 5])
def test_long_float_sum_without_lanes_does_not_saturate(n):
    """A length that is not a multiple of the lanes used one f32 accumulator: 2^24 + 3 ones
    summed to 2^24 (f32 stops counting there). Now the accumulator is f64, rounded once."""
    x = np.ones(n, np.float32)
    assert mlc.jit(mnp.sum)(x) == np.float32(n)
    y = np.ones((2, n // 2), np.float32)
    np.testing.assert_array_equal(mlc.jit(lambda v: mnp.sum(v, axis=1))(y), np.float32([n // 2, n // 2]))


# --- streaming kernels: non-temporal stores when a kernel moves >= 2x the last-level cache ---
# The tests shrink the cache the decision is made against, so small arrays stream too.

@pytest.fixture
def tiny_cache(monkeypatch):
    import mlc.codegen.vectorize as vectorize
    monkeypatch.setattr(vectorize, "last_level_cache_bytes", lambda: 1 << 12)


@pytest.mark.parametrize("shape", SHAPES + [(64, 1024)], ids=str)
@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int8, np.int64])
def test_streaming_elementwise(shape, dtype, tiny_cache):
    x, y = data(shape, dtype), data(shape, dtype)
    compiled = check(lambda a, b: a * b + a, lambda a, b: a * b + a, (x, y), dtype)
    if shape == (64, 1024):
        text = compiled.as_text("codegen")
        assert "nontemporal = true" in text and "llvm.x86.sse.sfence" in text


@pytest.mark.parametrize("n", [4096 + 16, 100_003])
def test_streaming_multi_output_and_scalars(n, tiny_cache):
    """An Adam-like kernel: three outputs, 0-d operands loaded once per chunk."""
    w, g, m = data((n,), np.float32), data((n,), np.float32), data((n,), np.float32)
    t = np.array(3.0, np.float32)

    def step(w, g, m, t):
        m2 = 0.9 * m + 0.1 * g
        return w - 1e-3 * m2 / (1.0 - 0.9 ** t), m2, g * g

    got = mlc.jit(step)(w, g, m, t)
    want = step(w.astype(np.float64), g.astype(np.float64), m.astype(np.float64), np.float64(t))
    for a, b in zip(got, want):
        np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-6)


def test_streaming_into_a_misaligned_output(tiny_cache):
    """A donated output 4 bytes off a register boundary: the run-time alignment check picks
    the ordinary stores (a non-temporal vector store there would fault)."""
    n = 64 * 1024
    raw = np.zeros(n + 1, np.float32)
    x = raw[1:]
    assert x.ctypes.data % 32 != 0
    x[:] = data((n,), np.float32)
    want = x * 3.0 + 1.0
    f = mlc.jit(lambda a: a * 3.0 + 1.0, donate_argnums=0)
    assert "nontemporal = true" in f.lower(x).compile().as_text("codegen")
    got = f(x)
    np.testing.assert_allclose(got, want, rtol=1e-6)


# --- row reductions long enough for the row emitter's loop: accumulators start at the
# combiner's identity (vectorize.COMBINERS) ---------------------------------------------
# 1025 and 2051 columns: not a multiple of any vector length (no lane split), at least two
# unrolled steps of every element width up to 512-bit registers.
ROWS = [(3, 1025), (2, 2051)]


def _row_data(shape, dtype, seed):
    rng = np.random.default_rng(seed)
    if np.dtype(dtype).kind == "u":
        return rng.integers(0, 250, shape).astype(dtype)
    if np.dtype(dtype).kind == "i":
        return rng.integers(-120, 120, shape).astype(dtype)
    return rng.standard_normal(shape).astype(dtype)


def _check_row_loop(compiled):
    """The row emitter's loop ran: a scf.for carrying vector accumulators."""
    codegen = compiled.as_text("codegen")
    assert "iter_args" in codegen and "-> (vector<" in codegen


@pytest.mark.parametrize("shape", ROWS, ids=str)
@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int32, np.int8, np.uint8, np.uint32])
@pytest.mark.parametrize("op", ["sum", "max", "min"])
def test_row_loop_reductions(shape, dtype, op):
    x = _row_data(shape, dtype, 11)
    # All-negative rows for max, rows away from 0 for min: a wrong start (0) would show.
    if op == "max" and np.dtype(dtype).kind != "u":
        x = -np.abs(x) - 1
    elif op == "min":
        x = np.abs(x) + 1 if np.dtype(dtype).kind != "u" else x | dtype(1)
    compiled = mlc.jit(lambda a: getattr(mnp, op)(a, axis=1)).lower(x).compile()
    _check_row_loop(compiled)
    got = compiled(x)
    if np.dtype(dtype).kind in "iu":
        np.testing.assert_array_equal(got, getattr(np, op)(x, axis=1))  # wraps like numpy
    else:
        want = getattr(np, op)(x.astype(np.float64), axis=1)
        scale = np.sum(np.abs(x), axis=1) if op == "sum" else np.abs(want)
        assert np.all(np.abs(got - want) <= 1e-6 * scale + 1e-30)


@pytest.mark.parametrize("dtype", [np.float32, np.int32, np.int8])
def test_row_loop_product(dtype):
    # Values near 1 (floats) or in {-1, 1, 2} (ints, wrapping like numpy) keep the product finite.
    rng = np.random.default_rng(12)
    x = (rng.choice([-1, 1, 1, 2], (3, 1025)) if np.dtype(dtype).kind == "i"
         else 1.0 + 0.001 * rng.standard_normal((3, 1025))).astype(dtype)
    compiled = mlc.jit(lambda a: mnp.prod(a, axis=1)).lower(x).compile()
    _check_row_loop(compiled)
    if np.dtype(dtype).kind == "i":
        np.testing.assert_array_equal(compiled(x), np.prod(x, axis=1))
    else:
        np.testing.assert_allclose(compiled(x), np.prod(x.astype(np.float64), axis=1), rtol=1e-5)


@pytest.mark.parametrize("kind", ["and", "or", "xor"])
@pytest.mark.parametrize("dtype", [np.int32, np.uint8])
def test_row_loop_bitwise(kind, dtype):
    x = _row_data((3, 1025), dtype, 13)
    if kind == "and":
        x |= dtype(0x61)  # keep some bits set in every element, so the result is not just 0
    ufunc = {"and": np.bitwise_and, "or": np.bitwise_or, "xor": np.bitwise_xor}[kind]
    fn = {"and": mnp.bitwise_and, "or": mnp.bitwise_or, "xor": mnp.bitwise_xor}[kind]
    init = dtype(~dtype(0)) if kind == "and" else dtype(0)
    compiled = mlc.jit(lambda a: mlc.lax.reduce(a, init, fn, (1,))).lower(x).compile()
    _check_row_loop(compiled)
    np.testing.assert_array_equal(compiled(x), ufunc.reduce(x, axis=1))


@pytest.mark.parametrize("op", ["max", "min"])
def test_row_loop_nan_propagates(op):
    """max/min propagate NaN (jax's semantics) wherever it sits in a long row."""
    x = _row_data((4, 1025), np.float32, 14)
    x[0, 0] = np.nan      # the first step
    x[1, 700] = np.nan    # inside the loop
    x[2, 1024] = np.nan   # the tail
    compiled = mlc.jit(lambda a: getattr(mnp, op)(a, axis=1)).lower(x).compile()
    _check_row_loop(compiled)
    got = compiled(x)
    assert np.isnan(got[:3]).all() and got[3] == getattr(np, op)(x[3])


def test_row_loop_negative_zero_sum():
    """A row of -0.0 sums like jax's reduce from its init value 0.0: +0.0 (the accumulators'
    -0.0 start keeps every partial sum -0.0 until then)."""
    x = np.full((2, 1025), -0.0, np.float32)
    got = mlc.jit(lambda a: mnp.sum(a, axis=1))(x)
    assert np.all(got == 0) and not np.signbit(got).any()


def test_row_loop_expensive_body_is_written_once_per_step():
    """A reduction body of two math functions keeps one accumulator (its own work hides the
    combiner's latency): the body appears once in the loop and once for the last partial
    vector, and never before the loop (the accumulator starts at the identity)."""
    x = _row_data((3, 1025), np.float32, 15)
    fn = lambda a: mnp.sum(mnp.tanh(a) * mnp.exp(a), axis=1)  # noqa: E731
    compiled = mlc.jit(fn).lower(x).compile()
    _check_row_loop(compiled)
    assert compiled.as_text("codegen").count("call @__mlc_tanh") == 2
    want = np.sum(np.tanh(x.astype(np.float64)) * np.exp(x.astype(np.float64)), axis=1)
    scale = np.sum(np.abs(np.tanh(x) * np.exp(x)), axis=1)
    assert np.all(np.abs(compiled(x) - want) <= 1e-5 * scale)


# Transposing kernels: 8 x 8 tiles (4 x 4 for 64-bit elements at 256 bits) of the two loops
# read as input rows and written as output rows, the strips past the whole tiles split off
# (scalar); rank 2 to 4, every element width, an elementwise body, a broadcast operand, and
# sizes whose rows split between threads. Exact: a copy, or the same ops per element.
TRANSPOSES = [((7, 13), (1, 0)), ((1, 9), (1, 0)), ((9, 1), (1, 0)), ((32, 64), (1, 0)), ((512, 304), (1, 0)),
              ((1000, 77), (1, 0)), ((9, 8), (1, 0)), ((8, 9), (1, 0)), ((5, 9, 11, 10), (3, 1, 0, 2)),
              ((3, 5, 7), (0, 2, 1)), ((8, 5, 16), (2, 1, 0)), ((4, 6, 10), (1, 2, 0)), ((16, 6, 8), (1, 2, 0)),
              ((2, 8, 3, 16), (0, 3, 1, 2)), ((2, 16, 16, 3), (0, 3, 1, 2)), ((2, 3, 16, 8), (0, 3, 1, 2))]


def _whole_tiles(shape, perm, itemsize: int) -> bool:
    """Whether the kernel is tiled: the output's innermost loop and the loop reading the
    input's innermost dim are different loops, each at least one whole tile (the strips
    past the whole tiles are split off and stay scalar)."""
    tile = _tile(itemsize)
    return perm[-1] != len(shape) - 1 and shape[perm[-1]] >= tile and shape[-1] >= tile


def _tile(itemsize: int) -> int:
    return min(vector_register_bits() // (8 * itemsize), 8)


@pytest.mark.parametrize("shape,perm", TRANSPOSES, ids=str)
@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int8, np.int16, np.int64, np.bool_])
def test_transposed_copies(shape, perm, dtype):
    x = data(shape, np.int8).astype(dtype) if dtype == np.bool_ else data(shape, dtype)
    compiled = check(lambda a: mnp.transpose(a, perm), lambda a: np.transpose(a, perm), (x,), np.int8)
    if dtype != np.bool_:  # (bools are bytes by the codegen stage: tiled as int8)
        tile = _tile(x.itemsize)
        tiled = re.search(rf"vector<{tile}x(1x)*{tile}x", compiled.as_text("codegen")) is not None  # unit dims between
        assert tiled == _whole_tiles(shape, perm, x.itemsize)


@pytest.mark.parametrize("shape,perm", TRANSPOSES, ids=str)
def test_transposed_elementwise_with_a_broadcast(shape, perm):
    x = data(shape, np.float32)
    out_shape = tuple(shape[d] for d in perm)
    b = data(out_shape[-1:], np.float32)
    check(lambda a, v: mnp.exp(mnp.transpose(a, perm) * 0.5) + v, lambda a, v: np.exp(np.transpose(a, perm) * 0.5) + v,
          (x, b), np.float32)
