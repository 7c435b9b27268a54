"""gather and scatter with StableHLO's dimension numbers (batching dims included).

Contract: gather clamps each start to [0, operand dim - slice size] in the index's own
integer type (StableHLO), so it never reads out of bounds. scatter applies the updates in
row-major order of the `updates` tensor, combining with `kind` (set|add|mul|max|min; i1 add/max
are or, mul/min are and); an update whose whole window does not fit inside the input
is dropped (XLA's rule; StableHLO leaves it implementation-defined). For `set`, the last
update to an element wins.
"""

from __future__ import annotations

import numpy as np

from .registry import evaluates

# scatter kind -> (is i1) -> the ufunc whose .at applies it. Float max/min propagate NaN
# (np.maximum/np.minimum); which of -0.0 and +0.0 they keep is numpy's choice.
_AT = {
    "add": lambda b: np.logical_or if b else np.add,
    "mul": lambda b: np.logical_and if b else np.multiply,
    "max": lambda b: np.logical_or if b else np.maximum,
    "min": lambda b: np.logical_and if b else np.minimum,
}


def _start_vectors(indices: np.ndarray, index_vector_dim: int, n: int, batch_shape) -> list[np.ndarray]:
    """Per index-vector entry k, the start held for each batch position (shape batch_shape)."""
    if index_vector_dim >= indices.ndim:
        return [indices.reshape(batch_shape)]
    moved = np.moveaxis(indices, index_vector_dim, -1)
    return [moved[..., k] for k in range(n)]


def _clamp(start: np.ndarray, high: int) -> np.ndarray:
    """start clamped to [0, high], compared in start's own dtype, as int64."""
    info = np.iinfo(start.dtype)
    upper = np.array(min(high, info.max), start.dtype)
    lower = np.array(max(0, info.min), start.dtype)
    return np.minimum(np.maximum(start, lower), upper).astype(np.int64)


def _batch_position(d_index: int, index_vector_dim: int) -> int:
    """The position of index-tensor dim d_index among the batch dims (the vector dim removed)."""
    return d_index if d_index < index_vector_dim else d_index - 1


@evaluates("hlo.gather")
def _gather(ctx, operand, indices):
    """gather(x, idx): slices of slice_sizes at starts clamped to [0, dim - size]."""
    a = ctx.attrs
    shape = ctx.result_shape()
    offset_dims = list(a["offset_dims"])
    collapsed, start_map = list(a["collapsed_slice_dims"]), list(a["start_index_map"])
    sizes, ivd = list(a["slice_sizes"]), a["index_vector_dim"]
    batching = list(a.get("operand_batching_dims", []))
    index_batching = list(a.get("start_indices_batching_dims", []))
    if 0 in shape:
        return np.zeros(shape, operand.dtype)
    grid = np.indices(shape, sparse=True)
    batch_dims = [d for d in range(len(shape)) if d not in offset_dims]
    batch_shape = [shape[d] for d in batch_dims]
    # Per operand dim, its index as an array broadcastable to the result shape.
    full = [np.zeros([1] * len(shape), np.int64) for _ in range(operand.ndim)]
    starts = _start_vectors(indices, ivd, len(start_map), batch_shape)
    expand = [shape[d] if d in batch_dims else 1 for d in range(len(shape))]
    for k, d in enumerate(start_map):
        clamped = _clamp(starts[k], operand.shape[d] - sizes[d])
        full[d] = full[d] + clamped.reshape(expand)
    for d_operand, d_index in zip(batching, index_batching):
        full[d_operand] = full[d_operand] + grid[batch_dims[_batch_position(d_index, ivd)]]
    window_dims = [d for d in range(operand.ndim) if d not in collapsed and d not in batching]
    for d, r in zip(window_dims, offset_dims):
        full[d] = full[d] + grid[r]
    return operand[tuple(full)]


@evaluates("hlo.scatter")
def _scatter(ctx, operand, indices, updates):
    """scatter(x, idx, u): combine(kind) each update in row-major order; windows that do not fit are dropped."""
    a = ctx.attrs
    window_dims = list(a["update_window_dims"])
    inserted, to_operand = list(a["inserted_window_dims"]), list(a["scatter_dims_to_operand_dims"])
    ivd, kind = a["index_vector_dim"], a["kind"]
    batching = list(a.get("input_batching_dims", []))
    index_batching = list(a.get("scatter_indices_batching_dims", []))
    result = operand.copy()
    if updates.size == 0:
        return result
    grid = np.indices(updates.shape, sparse=True)
    scatter_dims = [d for d in range(updates.ndim) if d not in window_dims]
    scatter_shape = [updates.shape[d] for d in scatter_dims]
    expand = [updates.shape[d] if d in scatter_dims else 1 for d in range(updates.ndim)]
    starts = [np.zeros([1] * updates.ndim, np.int64) for _ in range(operand.ndim)]
    for k, d in enumerate(to_operand):
        vector = _start_vectors(indices, ivd, len(to_operand), scatter_shape)[k]
        # (a ui64 start >= 2^63 wraps negative here: out of bounds either way)
        starts[d] = starts[d] + vector.astype(np.int64).reshape(expand)
    for d_operand, d_index in zip(batching, index_batching):
        starts[d_operand] = starts[d_operand] + grid[scatter_dims[_batch_position(d_index, ivd)]]
    window_operand_dims = [d for d in range(operand.ndim) if d not in inserted and d not in batching]
    window_sizes = {d: updates.shape[u] for d, u in zip(window_operand_dims, window_dims)}
    fits = np.ones([1] * updates.ndim, bool)
    for d in range(operand.ndim):  # the whole window [start, start + size) lies inside
        size = window_sizes.get(d, 1)
        fits = fits & (starts[d] >= 0) & (starts[d] + size <= operand.shape[d])
    full = list(starts)
    for d, u in zip(window_operand_dims, window_dims):
        full[d] = full[d] + grid[u]
    keep = np.broadcast_to(fits, updates.shape).ravel()
    targets = [np.broadcast_to(f, updates.shape).ravel()[keep] for f in full]
    values = updates.ravel()[keep]
    if not values.size:
        return result
    flat = np.ravel_multi_index(targets, operand.shape) if operand.ndim else np.zeros(values.size, np.int64)
    view = result.reshape(-1)
    if kind == "set":  # the last update of each element wins
        last = values.size - 1 - np.unique(flat[::-1], return_index=True)[1]
        view[flat[last]] = values[last]
    else:  # ufunc.at is unbuffered and in order: the rounding of sequential updates
        _AT[kind](view.dtype == np.bool_).at(view, flat, values)
    return view.reshape(operand.shape)
