"""select_and_scatter (JAX's max-pool gradient) decomposed into slices, selects and pads.

For each window offset k (row-major, unrolled), the strided slice of the operand at that
offset holds every window's k-th element; a running `select` region (applied elementwise)
picks each window's element and remembers its k. Then each source value is placed back at
its window's chosen element: masked by `chosen == k`, and spread to the operand's shape by
a pad (low = offset, interior = stride - 1). The scatter region must be an add (what JAX
emits): the placed values are summed onto the init value."""

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
    operand, source, init = cv.operands(op)
    shape = list(ir.RankedTensorType(op.operands[0].type).shape)
    source_shape = list(ir.RankedTensorType(op.operands[1].type).shape)
    rank = len(shape)
    window = A.int_list(A.get(op, "window_dimensions"))
    strides = A.int_list(A.get(op, "window_strides")) or [1] * rank
    padding = A.get(op, "padding")
    if padding is not None and any(int(v) for v in ir.DenseIntElementsAttr(padding)):
        raise cv.error(op, "select_and_scatter with padding is not supported (pad the operand)")
    if combiner_kind(op.regions[1]) != "add":
        raise cv.error(op, "select_and_scatter whose scatter region is not an add is not supported")
    offsets = list(itertools.product(*[range(w) for w in window]))
    if len(offsets) > MAX_UNROLL:
        raise cv.error(op, f"select_and_scatter with {len(offsets)} window elements (more than "
                           f"{MAX_UNROLL}) is not supported")
    element = ir.RankedTensorType(op.operands[0].type).element_type

    def index_const(k):
        return hlo.broadcast_in_dim(hlo.constant(np.int32(k)), source_shape, [])

    def window_slice(offset):
        limit = [o + (n - 1) * s + 1 for o, n, s in zip(offset, source_shape, strides)]
        return hlo.slice(operand, list(offset), limit, strides)

    best, chosen = window_slice(offsets[0]), index_const(0)
    for k, offset in enumerate(offsets[1:], start=1):
        candidate = window_slice(offset)
        (keep,) = apply_region(cv, op.regions[0], [best, candidate], source_shape, op)
        best = hlo.select(keep, best, candidate)
        chosen = hlo.select(keep, chosen, index_const(k))
    zero = hlo.constant(np.zeros((), numpy_dtype(element)))
    zeros = hlo.broadcast_in_dim(zero, source_shape, [])
    result = hlo.broadcast_in_dim(init, shape, [])
    for k, offset in enumerate(offsets):
        mine = hlo.compare(chosen, index_const(k), "EQ", "SIGNED")
        masked = hlo.select(mine, source, zeros)
        high = [n - o - ((m - 1) * s + 1) for n, o, m, s in zip(shape, offset, source_shape, strides)]
        placed = hlo.pad(masked, zero, list(offset), high, [s - 1 for s in strides])
        result = hlo.add(result, placed)
    return [result]
