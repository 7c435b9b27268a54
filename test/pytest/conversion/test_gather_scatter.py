"""gather and scatter against numpy: row gathers (embedding lookup), window gathers with
clamped starts, batching dims, and scatter with every kind, duplicates and out-of-bounds."""

from __future__ import annotations

import numpy as np
import pytest
from conftest import assert_matches, compile_hlo, hlo_module, random_array, run_hlo
from mlir import ir

from mlc import CompileOptions
from mlc.compiler import lower
from mlc.context import make_context
from mlc.dialects import hlo


@pytest.mark.parametrize("dtype", [np.float32, np.int64, np.bool_])
def test_gather_rows_like_take(dtype, rng):
    """x[idx] for idx of shape (2, 3): an embedding lookup; out-of-range rows are clamped."""
    table = random_array(rng, (5, 4), dtype)
    idx = np.array([[0, 4, 2], [7, -1, 3]], np.int32)
    got = run_hlo(lambda t, i: hlo.gather(t, i, offset_dims=[2], collapsed_slice_dims=[0], start_index_map=[0],
                                          index_vector_dim=2, slice_sizes=[1, 4]), table, idx)
    assert_matches(got, table[np.clip(idx, 0, 4)])


def test_gather_windows_with_index_vectors(rng):
    """2x2 windows at (row, col) starts held in the last index dim; starts are clamped."""
    x = random_array(rng, (4, 5), np.float32)
    starts = np.array([[0, 0], [2, 3], [3, 4], [-1, 1]], np.int64)
    got = run_hlo(lambda t, i: hlo.gather(t, i, offset_dims=[1, 2], collapsed_slice_dims=[], start_index_map=[0, 1],
                                          index_vector_dim=1, slice_sizes=[2, 2]), x, starts)
    want = []
    for r, c in starts:
        r, c = min(max(r, 0), 2), min(max(c, 0), 3)
        want.append(x[r:r + 2, c:c + 2])
    assert_matches(got, np.stack(want))


def test_gather_index_vector_dim_first_and_mapped_dims(rng):
    """index_vector_dim = 0, start_index_map in reverse order: indices[:, n] = (col, row)."""
    x = random_array(rng, (3, 6), np.int32)
    starts = np.array([[1, 4, 5], [0, 2, 1]], np.int32)  # columns, then rows
    got = run_hlo(lambda t, i: hlo.gather(t, i, offset_dims=[], collapsed_slice_dims=[0, 1], start_index_map=[1, 0],
                                          index_vector_dim=0, slice_sizes=[1, 1]), x, starts)
    assert_matches(got, x[starts[1], starts[0]])


def test_gather_with_batching_dims(rng):
    """Per-batch row lookup: out[b, j] = x[b, idx[b, j]] (operand_batching_dims)."""
    x = random_array(rng, (3, 5, 2), np.float32)
    idx = np.array([[0, 4], [1, 1], [3, 2]], np.int32)
    got = run_hlo(lambda t, i: hlo.gather(t, i, offset_dims=[2], collapsed_slice_dims=[1], start_index_map=[1],
                                          index_vector_dim=2, slice_sizes=[1, 1, 2], operand_batching_dims=[0],
                                          start_indices_batching_dims=[0]), x, idx)
    assert_matches(got, np.stack([x[b, idx[b]] for b in range(3)]))


def reference_scatter_rows(x, idx, updates, kind):
    combine = {"set": lambda old, new: new, "add": np.add, "mul": np.multiply, "max": np.maximum,
               "min": np.minimum}[kind]
    out = x.copy()
    for n, i in enumerate(idx):
        if 0 <= i < x.shape[0]:
            out[i] = combine(out[i], updates[n])
    return out


@pytest.mark.parametrize("kind", ["set", "add", "mul", "max", "min"])
@pytest.mark.parametrize("dtype", [np.float32, np.int32])
def test_scatter_rows_with_duplicates_and_out_of_bounds(kind, dtype, rng):
    x = random_array(rng, (5, 3), dtype)
    idx = np.array([1, 3, 1, 7, -2, 0], np.int32)  # duplicates combine in order; 7 and -2 are skipped
    updates = random_array(rng, (6, 3), dtype)
    got = run_hlo(lambda t, i, u: hlo.scatter(t, i, u, update_window_dims=[1], inserted_window_dims=[0],
                                              scatter_dims_to_operand_dims=[0], index_vector_dim=1, kind=kind),
                  x, idx, updates)
    assert_matches(got, reference_scatter_rows(x, idx, updates, kind), loose=True)


# Many updates into a small operand on two threads (indexing._privatized): a private copy
# per thread, then combined with the operand. Rows with windows, points, duplicates,
# out-of-bounds indices (dropped), an odd update count (the threads' shares differ).
@pytest.mark.parametrize("kind", ["add", "mul", "max", "min"])
@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int32, np.uint8, np.int64])
def test_scatter_on_private_copies_matches_in_order(kind, dtype, rng):
    x = random_array(rng, (37, 3), dtype)
    idx = rng.integers(-3, 40, 9001).astype(np.int32)
    updates = random_array(rng, (9001, 3), dtype)
    if kind == "mul":  # products that stay finite and exact enough
        updates = np.where(rng.random(updates.shape) < 0.5, 1, updates % 3 if dtype != np.float32 and dtype != np.float64
                           else np.sign(updates)).astype(dtype)
    scatter = lambda t, i, u: hlo.scatter(t, i, u, update_window_dims=[1], inserted_window_dims=[0],  # noqa: E731
                                          scatter_dims_to_operand_dims=[0], index_vector_dim=1, kind=kind)
    specs = [(a.shape, a.dtype) for a in (x, idx, updates)]
    with make_context(), ir.Location.unknown():
        module = lower(hlo_module(scatter, *specs), "linalg", options=CompileOptions(threads=2))
        assert "scf.forall (" in str(module)
    got = compile_hlo(scatter, *specs, options=CompileOptions(threads=2))(x, idx, updates)
    assert_matches(got, reference_scatter_rows(x, idx, updates, kind), loose=True)
    serial = compile_hlo(scatter, *specs, options=CompileOptions(threads=1))(x, idx, updates)
    if kind != "add" or np.dtype(dtype).kind != "f":  # (float sums may group differently)
        np.testing.assert_array_equal(got, serial)


def test_scatter_add_points_like_at_add():
    """x.at[(rows, cols)].add(v): index vectors in the last dim, every window dim inserted."""
    x = np.zeros((3, 4), np.float32)
    points = np.array([[0, 1], [2, 3], [0, 1], [1, 0]], np.int32)
    values = np.array([1.0, 2.0, 3.0, 4.0], np.float32)
    got = run_hlo(lambda t, i, u: hlo.scatter(t, i, u, update_window_dims=[], inserted_window_dims=[0, 1],
                                              scatter_dims_to_operand_dims=[0, 1], index_vector_dim=1, kind="add"),
                  x, points, values)
    want = x.copy()
    np.add.at(want, (points[:, 0], points[:, 1]), values)
    assert_matches(got, want)


def test_scatter_window_that_leaves_the_input_is_skipped():
    x = np.zeros((5,), np.int32)
    starts = np.array([[1], [4]], np.int32)  # a 2-wide window at 4 would leave the input
    updates = np.array([[7, 8], [9, 9]], np.int32)
    got = run_hlo(lambda t, i, u: hlo.scatter(t, i, u, update_window_dims=[1], inserted_window_dims=[],
                                              scatter_dims_to_operand_dims=[0], index_vector_dim=1, kind="set"),
                  x, starts, updates)
    assert_matches(got, np.array([0, 7, 8, 0, 0], np.int32))


# --- vectorized gathers (mlc-vectorize's row emitter) through mlc.jit, both vector widths ------
# A row gather reads its index and clamps it once per row, then the row with vector loads;
# a gather along the innermost axis is a vector.gather. Data seeded per test; every table
# dtype; int32 and int64 ids; out-of-range ids with JAX's semantics: a negative id wraps
# once (numpy style), then the id is clamped into the table (no error, no wild read).

import mlc  # noqa: E402

TABLE_DTYPES = [np.float16, np.float32, np.float64, np.int8, np.int32, np.int64, np.bool_]
ROW_LENGTHS = [1, 3, 17, 40, 513]


def jax_take_rows(table, ids):
    """What jnp's table[ids] gives: a negative id wraps once, then ids clamp into range."""
    n = table.shape[0]
    return table[np.clip(np.where(ids < 0, ids + n, ids), 0, n - 1)]


def wild_ids(rng, n, shape, dtype):
    """Ids in range plus the edge cases: -1, -n, below -n, n, far past n."""
    ids = rng.integers(0, n, shape).reshape(-1)
    edge = [-1, -n, -n - 3, n, n + 1000, 0, n - 1]
    ids[:len(edge)] = edge[:ids.size]
    return ids.reshape(shape).astype(dtype)


def codegen_of(fn, *args) -> str:
    return mlc.jit(fn).lower(*args).compile().as_text("codegen")


@pytest.mark.usefixtures("vector_bits")
@pytest.mark.parametrize("row", ROW_LENGTHS)
@pytest.mark.parametrize("dtype", TABLE_DTYPES, ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("id_dtype", [np.int32, np.int64], ids=lambda d: np.dtype(d).name)
def test_vectorized_row_gather(row, dtype, id_dtype):
    rng = np.random.default_rng(row * 1000 + np.dtype(dtype).num)
    table = random_array(rng, (37, row), dtype)
    ids = wild_ids(rng, 37, (3, 11), id_dtype)
    fn = lambda t, i: t[i]  # noqa: E731
    got = mlc.jit(fn)(table, ids)
    assert_matches(got, jax_take_rows(table, ids))
    text = codegen_of(fn, table, ids)
    assert "linalg.generic" not in text  # nothing left to scalar loops
    # rows are contiguous loads; rows of one element are gathered, a lane per id
    assert ("vector.gather" in text) == (row == 1)


@pytest.mark.usefixtures("vector_bits")
@pytest.mark.parametrize("shape", [(5, 1), (7, 3), (4, 17), (3, 513), (300, 64)], ids=str)
@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64, np.int32, np.int64])
def test_vectorized_column_gather(shape, dtype):
    """x[:, idx]: every lane reads its own column (vector.gather)."""
    rng = np.random.default_rng(shape[1] * 7 + np.dtype(dtype).num)
    x = random_array(rng, shape, dtype)
    idx = wild_ids(rng, shape[1], (29,), np.int32)
    fn = lambda a, i: a[:, i]  # noqa: E731
    got = mlc.jit(fn)(x, idx)
    n = shape[1]
    assert_matches(got, x[:, np.clip(np.where(idx < 0, idx + n, idx), 0, n - 1)])
    assert "vector.gather" in codegen_of(fn, x, idx)


@pytest.mark.usefixtures("vector_bits")
@pytest.mark.parametrize("d", [3, 17, 512, 513])
@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64])
def test_embedding_block(d, dtype):
    """The corpus's embedding block on odd sizes: gather, scale and add fused in one kernel."""
    rng = np.random.default_rng(d)
    ids = wild_ids(rng, 50, (4, 9), np.int32)
    table = random_array(rng, (50, d), dtype)
    pos = random_array(rng, (16, d), dtype)

    def fn(i, t, p):
        return t[i] * np.sqrt(d).astype(dtype) + p[:i.shape[1]]

    got = mlc.jit(fn)(ids, table, pos)
    want = (jax_take_rows(table, ids).astype(np.float64) * np.float64(np.sqrt(d).astype(dtype))
            + pos[:9].astype(np.float64))
    tol = {np.float16: 4e-3, np.float32: 1e-6, np.float64: 1e-14}[dtype]
    np.testing.assert_allclose(got, want.astype(dtype), rtol=tol, atol=tol * np.abs(want).max())


def test_big_gather_is_parallel_and_streams(monkeypatch, vector_bits):
    """A gather big enough for both cores (chunks of rows on scf.forall) that moves more
    than twice the last-level cache stores non-temporally; still exact, in and out of range."""
    import mlc.codegen.vectorize as vectorize
    monkeypatch.setattr(vectorize, "last_level_cache_bytes", lambda: 1 << 20)
    monkeypatch.setenv("MLC_NUM_THREADS", "2")
    rng = np.random.default_rng(7)
    # Rows of 512 floats plus one register's worth: every row starts on a register-aligned
    # address (streaming stores need that) and ends in a tail shorter than a vector step.
    row = 512 + vector_bits // 32
    table = random_array(rng, (3000, row), np.float32)
    ids = wild_ids(rng, 3000, (8, 200), np.int64)
    fn = lambda t, i: t[i] + 1.0  # noqa: E731
    text = codegen_of(fn, table, ids)
    assert "nontemporal = true" in text and "llvm.x86.sse.sfence" in text and "mlc_parallel_for" in text
    got = mlc.jit(fn)(table, ids)
    assert_matches(got, jax_take_rows(table, ids) + np.float32(1.0))


# --- gathers moved above elementwise work (hlo-simplify's simplify/gather.py) ----------------

def _point_gather(value, idx, start_index_map):
    return hlo.gather(value, idx, offset_dims=[], collapsed_slice_dims=[0, 1], start_index_map=start_index_map,
                      index_vector_dim=1, slice_sizes=[1, 1])


@pytest.mark.parametrize("rows,cols", [(1, 1), (3, 17), (17, 127), (5, 1023)])
@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int32])
@pytest.mark.parametrize("start_index_map", [[0, 1], [1, 0]])
def test_point_gather_of_elementwise_graph(rows, cols, dtype, start_index_map, rng):
    """g = |2x - m[row]| + s, then k points of g (rows and columns out of range clamp): the
    gather moves above the elementwise ops and the broadcasts (at >= 8x fewer points than
    g has) and must read the same elements."""
    x = random_array(rng, (rows, cols), dtype)
    m = random_array(rng, (rows,), dtype)
    s = random_array(rng, (), dtype)
    k = 7
    r = rng.integers(-2, rows + 2, size=k).astype(np.int32)
    c = rng.integers(-2, cols + 2, size=k).astype(np.int32)
    idx = np.stack([r, c] if start_index_map == [0, 1] else [c, r], axis=1)

    def body(xv, mv, sv, iv):
        shape = [rows, cols]
        two = hlo.constant(np.full(shape, 2, dtype))
        y = hlo.subtract(hlo.multiply(xv, two), hlo.broadcast_in_dim(mv, shape, [0]))
        zero = hlo.constant(np.zeros(shape, dtype))
        absolute = hlo.select(hlo.compare(y, zero, "LT"), hlo.negate(y), y)
        g = hlo.add(absolute, hlo.broadcast_in_dim(sv, shape, []))
        return _point_gather(g, iv, start_index_map)
    got = run_hlo(body, x, m, s, idx)
    rc, cc = np.clip(r, 0, rows - 1), np.clip(c, 0, cols - 1)
    y = x * dtype(2) - m[:, None]
    assert_matches(got, (np.where(y < 0, -y, y) + s)[rc, cc])


@pytest.mark.parametrize("rows,cols", [(3, 17), (64, 1023)])
def test_point_gather_of_compare_gives_bools(rows, cols, rng):
    """A gather of an i1 compare result becomes a compare of gathered values."""
    x = random_array(rng, (rows, cols), np.float32)
    m = random_array(rng, (rows,), np.float32)
    idx = np.stack([rng.integers(0, rows, 5), rng.integers(0, cols, 5)], axis=1).astype(np.int32)
    got = run_hlo(lambda xv, mv, iv: _point_gather(
        hlo.compare(hlo.exponential(xv), hlo.broadcast_in_dim(mv, [rows, cols], [0]), "GT"), iv, [0, 1]), x, m, idx)
    assert_matches(got, (np.exp(x) > m[:, None])[idx[:, 0], idx[:, 1]])


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_softmax_cross_entropy_matches_numpy(dtype, rng):
    """-mean(log_softmax(logits)[i, labels[i]]) (labels negative too): the gather of the
    log_softmax moves to its inputs, and the loss must not change."""
    import mlc
    import mlc.numpy as mnp
    from mlc import nn
    logits = (rng.standard_normal((37, 1023)) * 4).astype(dtype)
    labels = rng.integers(-1023, 1023, 37).astype(np.int32)

    @mlc.jit
    def loss(z, y):
        return -nn.log_softmax(z, axis=-1)[mnp.arange(z.shape[0]), y].mean()
    z = logits.astype(np.float64)
    logp = z - z.max(-1, keepdims=True)
    logp -= np.log(np.exp(logp).sum(-1, keepdims=True))
    want = -logp[np.arange(37), labels].mean()
    np.testing.assert_allclose(np.asarray(loss(logits, labels)), want, rtol=TOL_LOSS[np.dtype(dtype)])
    # the loss gathers from the logits themselves, not from a (37, 1023) log_softmax
    assert '"hlo.gather"(%arg0,' in loss.lower(logits, labels).as_text("hlo-optimized")

TOL_LOSS = {np.dtype(np.float32): 1e-5, np.dtype(np.float64): 1e-12}
