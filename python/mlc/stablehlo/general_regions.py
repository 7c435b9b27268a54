"""scatter and sort with general regions, as loops of hlo ops.

* scatter (any number of inputs, any elementwise update region): one scf.while iteration
  per update index, in update order (StableHLO leaves the order unspecified; this is the
  serial one): the window at that index's start (dynamic_slice of each input) and the
  update window (dynamic_slice of the updates, rearranged to [update index, window]) go
  through the region elementwise, and the result is written back (dynamic_update_slice).
  A window that does not fit inside the inputs is skipped whole, as the hlo scatter does
  (XLA's rule).
* sort (any number of inputs, any elementwise comparator): odd-even transposition sort
  along the dimension, ceil(n/2) loop iterations of an even and an odd pass; each pass
  compares all adjacent pairs at once and swaps a pair when comparator(right, left) holds.
  Only adjacent elements are exchanged, and only on a strict `less`, so the sort is stable
  (the stable and unstable sort agree with each other and with XLA on ties)."""

from __future__ import annotations

import itertools

import numpy as np
from mlir import ir
from mlir.dialects import tensor

from ..dialects import hlo
from . import attributes as A
from .elementwise_regions import apply_region
from .loops import fori_loop


def _shape(v) -> list[int]:
    return list(ir.RankedTensorType(v.type).shape)


def _i64(v):
    return hlo.convert(v, ir.IntegerType.get_signless(64))


def _scalar_at(row, k: int):
    return hlo.reshape(hlo.slice(row, [k], [k + 1]), [])


def general_scatter(cv, op) -> list[ir.Value]:
    """scatter with any elementwise region and any number of inputs: a loop over the
    update indices in order (module docstring)."""
    n = (len(op.operands) - 1) // 2
    values = cv.operands(op)
    inputs, indices, updates = values[:n], values[n], values[n + 1:]
    fields = A.struct_fields(A.get(op, "scatter_dimension_numbers"))
    window_dims = fields.get("update_window_dims", [])
    inserted = fields.get("inserted_window_dims", [])
    to_operand = fields.get("scatter_dims_to_operand_dims", [])
    input_batching = fields.get("input_batching_dims", [])
    index_batching = fields.get("scatter_indices_batching_dims", [])
    index_dim = fields.get("index_vector_dim", 0)
    in_shape, up_shape, idx_shape = _shape(inputs[0]), _shape(updates[0]), _shape(indices)
    rank = len(in_shape)

    # Updates as [U, window...]: update scatter dims first (row-major), window dims after.
    scatter_dims = [d for d in range(len(up_shape)) if d not in window_dims]
    count = int(np.prod([up_shape[d] for d in scatter_dims]))
    window_sizes = [up_shape[d] for d in window_dims]
    flat_updates = [hlo.reshape(hlo.transpose(u, scatter_dims + list(window_dims)),
                                [count] + window_sizes) for u in updates]
    # Indices as [U, K]: the index vector dim last (an implicit one when it is the rank).
    if index_dim == len(idx_shape):
        indices = hlo.reshape(indices, idx_shape + [1])
        idx_shape = idx_shape + [1]
    perm = [d for d in range(len(idx_shape)) if d != index_dim] + [index_dim]
    k = idx_shape[index_dim]
    flat_indices = _i64(hlo.reshape(hlo.transpose(indices, perm), [count, k]))
    # Batching dims: the operand batch index is the update index's position along the
    # corresponding scatter_indices dim, a static table.
    batch_table = None
    if input_batching:
        positions = np.array(list(itertools.product(*[range(up_shape[d]) for d in scatter_dims])),
                             np.int64).reshape(count, len(scatter_dims))
        cols = [p - (1 if p > index_dim else 0) for p in index_batching]
        batch_table = hlo.constant(np.ascontiguousarray(positions[:, cols]))
    # The operand window: update window dims fill the operand dims that are neither
    # inserted nor batching, in order; those two get size 1.
    full_window = [1] * rank
    free = [d for d in range(rank) if d not in inserted and d not in input_batching]
    for d, size in zip(free, window_sizes):
        full_window[d] = size

    def step(i, results):
        i64 = _i64(i)
        zero = hlo.constant(np.int64(0))
        row = hlo.reshape(hlo.dynamic_slice(flat_indices, [i64, zero], [1, k]), [k])
        starts = [zero] * rank
        for j, d in enumerate(to_operand):
            starts[d] = _scalar_at(row, j)
        if batch_table is not None:
            brow = hlo.reshape(hlo.dynamic_slice(batch_table, [i64, zero], [1, len(input_batching)]),
                               [len(input_batching)])
            for j, d in enumerate(input_batching):
                starts[d] = _scalar_at(brow, j)
        fits = None
        for d in range(rank):
            low = hlo.compare(starts[d], zero, "GE", "SIGNED")
            high = hlo.compare(starts[d], hlo.constant(np.int64(in_shape[d] - full_window[d])),
                               "LE", "SIGNED")
            ok = hlo.and_(low, high)
            fits = ok if fits is None else hlo.and_(fits, ok)
        olds = [hlo.dynamic_slice(r, starts, full_window) for r in results]
        news = [hlo.reshape(hlo.dynamic_slice(u, [i64] + [zero] * len(window_sizes),
                                              [1] + window_sizes), full_window)
                for u in flat_updates]
        combined = apply_region(cv, op.regions[0], olds + news, full_window, op)
        return [hlo.dynamic_update_slice(r, hlo.select(fits, c, old), starts)
                for r, c, old in zip(results, combined, olds)]

    return fori_loop(count, inputs, step)


def _interleave(a, b, dim: int):
    """[.., m, ..] and [.., m, ..] -> [.., 2m, ..] taking a's and b's elements in turn."""
    shape = _shape(a)
    expanded = shape[:dim + 1] + [1] + shape[dim + 1:]
    element = ir.RankedTensorType(a.type).element_type
    pair_shape = shape[:dim + 1] + [2] + shape[dim + 1:]
    pairs = tensor.concat(ir.RankedTensorType.get(pair_shape, element), dim + 1,
                          [hlo.reshape(a, expanded), hlo.reshape(b, expanded)])
    out = list(shape)
    out[dim] *= 2
    return hlo.reshape(pairs, out)


def _concat(values, dim: int):
    values = [v for v in values if v is not None]
    if len(values) == 1:
        return values[0]
    shape = _shape(values[0])
    shape[dim] = sum(_shape(v)[dim] for v in values)
    element = ir.RankedTensorType(values[0].type).element_type
    return tensor.concat(ir.RankedTensorType.get(shape, element), dim, values)


def _slice_dim(x, dim: int, start: int, limit: int, stride: int = 1):
    shape = _shape(x)
    starts, limits, strides = [0] * len(shape), list(shape), [1] * len(shape)
    starts[dim], limits[dim], strides[dim] = start, limit, stride
    return hlo.slice(x, starts, limits, strides)


def general_sort(cv, op) -> list[ir.Value]:
    """sort with any elementwise comparator and any number of inputs: odd-even
    transposition sort (module docstring)."""
    xs = cv.operands(op)
    dim = A.get(op, "dimension").value
    shape = _shape(xs[0])
    length = shape[dim]
    if length < 2:
        return xs

    def sort_pass(values, first: int):
        pairs = (length - first) // 2
        if pairs == 0:
            return values
        end = first + 2 * pairs
        lefts = [_slice_dim(v, dim, first, end, 2) for v in values]
        rights = [_slice_dim(v, dim, first + 1, end, 2) for v in values]
        pair_shape = _shape(lefts[0])
        args = [a for r, l in zip(rights, lefts) for a in (r, l)]  # comparator(right, left)
        (swap,) = apply_region(cv, op.regions[0], args, pair_shape, op)
        out = []
        for v, left, right in zip(values, lefts, rights):
            new_left, new_right = hlo.select(swap, right, left), hlo.select(swap, left, right)
            middle = _interleave(new_left, new_right, dim)
            head = _slice_dim(v, dim, 0, first) if first else None
            tail = _slice_dim(v, dim, end, length) if end < length else None
            out.append(_concat([head, middle, tail], dim))
        return out

    def step(_, values):
        return sort_pass(sort_pass(values, 0), 1)

    return fori_loop((length + 1) // 2, xs, step)
