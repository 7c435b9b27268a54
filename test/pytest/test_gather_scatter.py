"""gather and scatter against numpy: row gathers (embedding lookup), window gathers with
clamped starts, batching dims, and scatter with every kind, duplicates and out-of-bounds."""

from __future__ import annotations

import numpy as np
import pytest
from conftest import assert_matches, random_array, run_hlo

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
