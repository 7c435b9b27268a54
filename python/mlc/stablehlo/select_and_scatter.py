"""select_and_scatter (JAX's max-pool gradient) decomposed into slices, selects and pads.

The operand is padded (`padding`, low/high per dim); a window's positions in that padding
are never selected (XLA's rule: only operand elements are candidates). For each window
offset k (row-major, unrolled), the strided slice of the padded operand at that offset
holds every window's k-th element; a running `select` region (applied elementwise) picks
each window's element among the valid ones and remembers its k (a window with no valid
element selects nothing and its source value is dropped). Then each source value is
placed back at its window's chosen element: spread to the padded shape by a pad
(low = offset, interior = stride - 1), masked by `chosen == k`, and combined into the
result (init everywhere at first) with the scatter region (applied elementwise where the
mask holds); the padding is cropped at the end."""

from __future__ import annotations

import itertools

import numpy as np
from mlir import ir

from ..dialects import hlo
from ..dtypes import numpy_dtype
from . import attributes as A
from .elementwise_regions import MAX_UNROLL, apply_region
from .regions import combiner_kind
from .registry import rule


@rule("stablehlo.select_and_scatter")
def select_and_scatter(cv, op):
    """Per window offset: select among the windows' elements, then scatter the source
    back at the chosen ones (module docstring). Negative padding crops the operand
    first; the cropped elements keep the init value."""
    operand, source, init = cv.operands(op)
    shape = list(ir.RankedTensorType(operand.type).shape)
    padding = A.get(op, "padding")
    pads = np.asarray([int(v) for v in ir.DenseIntElementsAttr(padding)]).reshape(len(shape), 2) \
        if padding is not None else np.zeros((len(shape), 2), np.int64)
    if not (pads < 0).any():
        return [_select_and_scatter(cv, op, operand, source, init, pads)]
    # Negative padding: the cropped operand elements are in no window, so they keep the init
    # value; run on the cropped operand and pad the result back with init.
    crop = np.maximum(-pads, 0)
    inner = hlo.slice(operand, list(crop[:, 0]), [n - int(hi) for n, hi in zip(shape, crop[:, 1])])
    result = _select_and_scatter(cv, op, inner, source, init, np.maximum(pads, 0))
    return [hlo.pad(result, init, list(crop[:, 0]), list(crop[:, 1]))]


def _select_and_scatter(cv, op, operand, source, init, pads) -> ir.Value:
    shape = list(ir.RankedTensorType(operand.type).shape)
    source_shape = list(ir.RankedTensorType(source.type).shape)
    rank = len(shape)
    window = A.int_list(A.get(op, "window_dimensions"))
    strides = A.int_list(A.get(op, "window_strides")) or [1] * rank
    offsets = list(itertools.product(*[range(w) for w in window]))
    element = ir.RankedTensorType(operand.type).element_type
    zero = hlo.constant(np.zeros((), numpy_dtype(element)))
    padded_shape = [n + int(lo) + int(hi) for n, (lo, hi) in zip(shape, pads)]
    padded = hlo.pad(operand, zero, list(pads[:, 0]), list(pads[:, 1])) if pads.any() else operand
    inside = np.zeros(padded_shape, bool)  # which padded positions are operand elements
    inside[tuple(slice(int(lo), int(lo) + n) for n, (lo, _) in zip(shape, pads))] = True

    if len(offsets) > MAX_UNROLL:
        return _looped(cv, op, padded, source, init, inside, offsets, source_shape, strides,
                       pads, shape, zero)

    def index_const(k):
        return hlo.broadcast_in_dim(hlo.constant(np.int32(k)), source_shape, [])

    def window_slice(value, offset):
        limit = [o + (n - 1) * s + 1 for o, n, s in zip(offset, source_shape, strides)]
        return hlo.slice(value, list(offset), limit, strides)

    def valid(offset):
        index = tuple(slice(o, o + (n - 1) * s + 1, s) for o, n, s in zip(offset, source_shape, strides))
        return inside[index]

    # take = valid & (no valid element seen yet | !select(best, candidate)); the masks are
    # left out where they are all true (always, without padding).
    best, chosen, have, seen = None, index_const(-1), None, np.zeros(source_shape, bool)
    for k, offset in enumerate(offsets):
        candidate = window_slice(padded, offset)
        ok = valid(offset)
        if not ok.any():
            continue
        ok_value = None if ok.all() else hlo.constant(np.ascontiguousarray(ok))
        if best is None:
            take = ok_value
        else:
            (keep,) = apply_region(cv, op.regions[0], [best, candidate], source_shape, op)
            take = hlo.not_(keep)
            if not seen.all():
                take = hlo.or_(hlo.not_(have), take)
            if ok_value is not None:
                take = hlo.and_(ok_value, take)
        if take is None:
            best, chosen = candidate, index_const(k)
        else:
            best = candidate if best is None else hlo.select(take, candidate, best)
            chosen = hlo.select(take, index_const(k), chosen)
        seen |= ok
        have = None if seen.all() else hlo.constant(np.ascontiguousarray(seen))
    kind = combiner_kind(op.regions[1])
    result = hlo.broadcast_in_dim(init, padded_shape, [])
    false = hlo.constant(np.bool_(False))
    for k, offset in enumerate(offsets):
        mine = hlo.compare(chosen, index_const(k), "EQ", "SIGNED")
        high = [n - o - ((m - 1) * s + 1) for n, o, m, s in
                zip(padded_shape, offset, source_shape, strides)]
        interior = [s - 1 for s in strides]
        if kind == "add":  # JAX's: the unselected positions add 0
            masked = hlo.select(mine, source, hlo.broadcast_in_dim(zero, source_shape, []))
            result = hlo.add(result, hlo.pad(masked, zero, list(offset), high, interior))
            continue
        placed = hlo.pad(source, zero, list(offset), high, interior)
        where = hlo.pad(mine, false, list(offset), high, interior)
        (combined,) = apply_region(cv, op.regions[1], [result, placed], padded_shape, op)
        result = hlo.select(where, combined, result)
    if pads.any():
        result = hlo.slice(result, list(pads[:, 0]), [int(lo) + n for n, lo in zip(shape, pads[:, 0])])
    return result


def _looped(cv, op, padded, source, init, inside, offsets, source_shape, strides, pads, shape,
            zero):
    """The same two phases as loops over the window offsets (more than MAX_UNROLL of them),
    each offset's start read from a table: the windows' k-th elements are a dynamic_slice
    of the padded operand (and of the validity mask) then a strided slice; a source value is
    placed back by an interior pad and a dynamic_update_slice into a zero tensor."""
    from .loops import fori_loop
    rank = len(shape)
    padded_shape = list(inside.shape)
    table = hlo.constant(np.asarray(offsets, np.int32))
    span = [(m - 1) * t + 1 for m, t in zip(source_shape, strides)]
    izero = hlo.constant(np.int32(0))
    inside_value = hlo.constant(np.ascontiguousarray(inside))

    def starts_of(k):
        row = hlo.reshape(hlo.dynamic_slice(table, [k, izero], [1, rank]), [rank])
        return [hlo.reshape(hlo.slice(row, [d], [d + 1]), []) for d in range(rank)]

    def windows(value, starts):
        return hlo.slice(hlo.dynamic_slice(value, starts, span), [0] * rank, span, strides)

    def full(value, dtype, shape_):
        return hlo.broadcast_in_dim(hlo.constant(np.asarray(value, dtype)), shape_, [])

    def select_step(k, carried):
        best, chosen, have = carried
        starts = starts_of(k)
        candidate, ok = windows(padded, starts), windows(inside_value, starts)
        (keep,) = apply_region(cv, op.regions[0], [best, candidate], source_shape, op)
        take = hlo.and_(ok, hlo.or_(hlo.not_(have), hlo.not_(keep)))
        k_full = hlo.broadcast_in_dim(k, source_shape, [])
        return [hlo.select(take, candidate, best), hlo.select(take, k_full, chosen),
                hlo.or_(have, ok)]

    _, chosen, _ = fori_loop(len(offsets), [hlo.broadcast_in_dim(zero, source_shape, []),
                                            full(-1, np.int32, source_shape),
                                            full(False, np.bool_, source_shape)], select_step)
    kind = combiner_kind(op.regions[1])
    interior = [s - 1 for s in strides]
    no_pad = [0] * rank

    def scatter_step(k, carried):
        (result,) = carried
        starts = starts_of(k)
        mine = hlo.compare(chosen, hlo.broadcast_in_dim(k, source_shape, []), "EQ", "SIGNED")
        masked = hlo.select(mine, source, hlo.broadcast_in_dim(zero, source_shape, []))
        placed = hlo.dynamic_update_slice(hlo.broadcast_in_dim(zero, padded_shape, []),
                                          hlo.pad(masked, zero, no_pad, no_pad, interior), starts)
        if kind == "add":
            return [hlo.add(result, placed)]
        false = hlo.constant(np.bool_(False))
        where = hlo.dynamic_update_slice(hlo.broadcast_in_dim(false, padded_shape, []),
                                         hlo.pad(mine, false, no_pad, no_pad, interior), starts)
        (combined,) = apply_region(cv, op.regions[1], [result, placed], padded_shape, op)
        return [hlo.select(where, combined, result)]

    (result,) = fori_loop(len(offsets), [hlo.broadcast_in_dim(init, padded_shape, [])],
                          scatter_step)
    if pads.any():
        result = hlo.slice(result, list(pads[:, 0]), [int(lo) + n for n, lo in zip(shape, pads[:, 0])])
    return result
