"""General regions of elementwise ops (map bodies, reduce bodies that are not one binary
op), applied to whole tensors at once.

A StableHLO region computes on 0-d tensors; when every op in it is elementwise, running it
on tensors of the result shape (0-d constants and captured 0-d values broadcast) computes
it for every element at once, with no region in the hlo. A general reduce applies it once
per position along the reduced dimensions (unrolled: StableHLO leaves the order of a
reduction unspecified), up to MAX_UNROLL positions."""

from __future__ import annotations

import itertools

import numpy as np
from mlir import ir

from ..dialects import hlo
from ..dialects.hlo import OPS
from . import attributes as A
from .registry import rule

_ELEMENTWISE = ("elementwise-unary", "elementwise-binary", "compare", "select", "convert",
                "predicate", "clamp")
MAX_UNROLL = 256


def _full(value: ir.Value, shape) -> ir.Value:
    t = ir.RankedTensorType(value.type)
    if list(t.shape) == list(shape):
        return value
    if t.rank != 0:
        raise ValueError(f"cannot broadcast {t} to {list(shape)}")
    return hlo.broadcast_in_dim(value, shape, [])


def apply_region(cv, region: ir.Region, args: list[ir.Value], shape, owner) -> list[ir.Value]:
    """The region's results computed elementwise on `args` (tensors of `shape`)."""
    from .convert import hlo_attributes
    block = region.blocks[0]
    env = {arg: value for arg, value in zip(block.arguments, args)}

    def get(v):
        return env[v] if v in env else _full(cv.value(v), shape)

    ops = [op.operation for op in block.operations]
    for op in ops[:-1]:
        short = op.name.removeprefix("stablehlo.")
        with op.location:
            if op.name == "stablehlo.constant":
                value = hlo.constant(A.get(op, "value"))
                env[op.results[0]] = _full(value, shape)
                continue
            opdef = OPS.get(short) if op.name.startswith("stablehlo.") else None
            if opdef is None or opdef.family not in _ELEMENTWISE:
                raise cv.error(op, f"'{op.name}' in the region of '{owner.name}': only "
                                   f"elementwise ops are supported in general regions")
            element = ir.RankedTensorType(op.results[0].type).element_type
            new = ir.Operation.create(f"hlo.{short}",
                                      results=[ir.RankedTensorType.get(list(shape), element)],
                                      operands=[get(v) for v in op.operands],
                                      attributes=hlo_attributes(op, opdef))
            env[op.results[0]] = new.result
    return [get(v) for v in ops[-1].operands]


@rule("stablehlo.map")
def map_(cv, op):
    shape = ir.RankedTensorType(op.results[0].type).shape
    return apply_region(cv, op.regions[0], cv.operands(op), shape, op)


def general_reduce(cv, op) -> list[ir.Value]:
    """reduce with any elementwise region: the body applied at each reduced position."""
    n = len(op.operands) // 2
    inputs, inits = cv.operands(op)[:n], cv.operands(op)[n:]
    dims = A.int_list(A.get(op, "dimensions"))
    in_shape = ir.RankedTensorType(op.operands[0].type).shape
    out_shape = ir.RankedTensorType(op.results[0].type).shape
    positions = list(itertools.product(*[range(in_shape[d]) for d in dims]))
    if len(positions) > MAX_UNROLL:
        raise cv.error(op, f"reduce with a general region over {len(positions)} positions (more "
                           f"than {MAX_UNROLL}) is not supported")
    accs = [_full(v, out_shape) for v in inits]
    for position in positions:
        start = [0] * len(in_shape)
        limit = list(in_shape)
        for d, i in zip(dims, position):
            start[d], limit[d] = i, i + 1
        slices = [hlo.reshape(hlo.slice(x, start, limit), out_shape) for x in inputs]
        accs = apply_region(cv, op.regions[0], accs + slices, out_shape, op)
    return accs


def general_reduce_window(cv, op) -> list[ir.Value]:
    """reduce_window with any elementwise region: for each window offset, the strided slice
    of the (init-padded) inputs holding every window's element there, combined into the
    accumulators by the region."""
    n = len(op.operands) // 2
    inputs, inits = cv.operands(op)[:n], cv.operands(op)[n:]
    in_shape = list(ir.RankedTensorType(op.operands[0].type).shape)
    out_shape = list(ir.RankedTensorType(op.results[0].type).shape)
    rank = len(in_shape)
    window = A.int_list(A.get(op, "window_dimensions"))
    strides = A.int_list(A.get(op, "window_strides")) or [1] * rank
    dilations = A.int_list(A.get(op, "window_dilations")) or [1] * rank
    if any(d != 1 for d in A.int_list(A.get(op, "base_dilations")) or [1]):
        raise cv.error(op, "reduce_window with base dilations and a general region is not supported")
    padding = A.get(op, "padding")
    pads = np.asarray([int(v) for v in ir.DenseIntElementsAttr(padding)]).reshape(rank, 2) \
        if padding is not None else np.zeros((rank, 2), np.int64)
    if (pads < 0).any():
        raise cv.error(op, "reduce_window with negative padding and a general region is not supported")
    if pads.any():
        inputs = [hlo.pad(x, init, list(pads[:, 0]), list(pads[:, 1])) for x, init in zip(inputs, inits)]
    offsets = list(itertools.product(*[range(w) for w in window]))
    if len(offsets) > MAX_UNROLL:
        raise cv.error(op, f"reduce_window with a general region over {len(offsets)} window "
                           f"elements (more than {MAX_UNROLL}) is not supported")
    accs = [_full(v, out_shape) for v in inits]
    for offset in offsets:
        start = [o * d for o, d in zip(offset, dilations)]
        limit = [s + (m - 1) * t + 1 for s, m, t in zip(start, out_shape, strides)]
        slices = [hlo.slice(x, start, limit, strides) for x in inputs]
        accs = apply_region(cv, op.regions[0], accs + slices, out_shape, op)
    return accs
