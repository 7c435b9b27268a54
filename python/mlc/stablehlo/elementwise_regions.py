"""General regions of elementwise ops (map bodies, reduce bodies that are not one binary
op), applied to whole tensors at once.

A StableHLO region computes on 0-d tensors; when every op in it is elementwise, running it
on tensors of the result shape (0-d constants and captured 0-d values broadcast) computes
it for every element at once, with no region in the hlo. A general reduce applies it once
per position along the reduced dimensions (StableHLO leaves the order of a reduction
unspecified): unrolled up to MAX_UNROLL positions, a loop beyond."""

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
            if op.name in ("func.call", "mlc.call"):  # a helper (JAX's _where): its body too
                callee = ir.FlatSymbolRefAttr(op.attributes["callee"]).value
                fop = cv.functions.get(callee)
                if fop is None:
                    raise cv.error(op, f"call to @{callee}, which has no body in this module")
                results = apply_region(cv, fop.regions[0], [get(v) for v in op.operands],
                                       shape, owner)
                for old, new in zip(op.results, results):
                    env[old] = new
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
    """The body's elementwise ops applied to the whole operands at once."""
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
    accs = [_full(v, out_shape) for v in inits]
    if len(positions) > MAX_UNROLL:
        return _looped_reduce(cv, op, inputs, accs, dims, in_shape, out_shape)
    for position in positions:
        start = [0] * len(in_shape)
        limit = list(in_shape)
        for d, i in zip(dims, position):
            start[d], limit[d] = i, i + 1
        slices = [hlo.reshape(hlo.slice(x, start, limit), out_shape) for x in inputs]
        accs = apply_region(cv, op.regions[0], accs + slices, out_shape, op)
    return accs


def _looped_reduce(cv, op, inputs, accs, dims, in_shape, out_shape) -> list[ir.Value]:
    """general_reduce over many positions: the inputs as [kept..., positions] and one loop
    iteration per position (a dynamic_slice of the last dim) instead of unrolling."""
    from .loops import fori_loop
    kept = [d for d in range(len(in_shape)) if d not in dims]
    count = int(np.prod([in_shape[d] for d in dims]))
    flat = [hlo.reshape(hlo.transpose(x, kept + list(dims)), list(out_shape) + [count])
            for x in inputs]
    zero = hlo.constant(np.int32(0))

    def step(i, accs):
        starts = [zero] * len(out_shape) + [i]
        slices = [hlo.reshape(hlo.dynamic_slice(x, starts, list(out_shape) + [1]), out_shape)
                  for x in flat]
        return apply_region(cv, op.regions[0], accs + slices, out_shape, op)

    return fori_loop(count, accs, step)


def general_reduce_window(cv, op) -> list[ir.Value]:
    """reduce_window with any elementwise region: for each window offset, the strided slice
    of the (init-padded, base-dilated) inputs holding every window's element there,
    combined into the accumulators by the region (offsets unrolled up to MAX_UNROLL, a
    loop beyond)."""
    n = len(op.operands) // 2
    inputs, inits = cv.operands(op)[:n], cv.operands(op)[n:]
    in_shape = list(ir.RankedTensorType(op.operands[0].type).shape)
    out_shape = list(ir.RankedTensorType(op.results[0].type).shape)
    rank = len(in_shape)
    window = A.int_list(A.get(op, "window_dimensions"))
    strides = A.int_list(A.get(op, "window_strides")) or [1] * rank
    dilations = A.int_list(A.get(op, "window_dilations")) or [1] * rank
    base = A.int_list(A.get(op, "base_dilations")) or [1] * rank
    padding = A.get(op, "padding")
    pads = np.asarray([int(v) for v in ir.DenseIntElementsAttr(padding)]).reshape(rank, 2) \
        if padding is not None else np.zeros((rank, 2), np.int64)
    if pads.any() or any(b != 1 for b in base):
        # The spec's padded operand: base dilation holes and edge padding hold the init
        # value (negative padding crops).
        inputs = [hlo.pad(x, init, list(pads[:, 0]), list(pads[:, 1]), [b - 1 for b in base])
                  for x, init in zip(inputs, inits)]
    offsets = list(itertools.product(*[range(w) for w in window]))
    accs = [_full(v, out_shape) for v in inits]
    if len(offsets) > MAX_UNROLL:  # a loop over the offsets, their starts from a table
        from .loops import fori_loop
        table = hlo.constant(np.asarray([[o * d for o, d in zip(offset, dilations)]
                                         for offset in offsets], np.int32))
        span = [(m - 1) * t + 1 for m, t in zip(out_shape, strides)]
        zero = hlo.constant(np.int32(0))

        def step(k, accs):
            row = hlo.reshape(hlo.dynamic_slice(table, [k, zero], [1, rank]), [rank])
            starts = [hlo.reshape(hlo.slice(row, [d], [d + 1]), []) for d in range(rank)]
            slices = [hlo.slice(hlo.dynamic_slice(x, starts, span), [0] * rank, span, strides)
                      for x in inputs]
            return apply_region(cv, op.regions[0], accs + slices, out_shape, op)

        return fori_loop(len(offsets), accs, step)
    for offset in offsets:
        start = [o * d for o, d in zip(offset, dilations)]
        limit = [s + (m - 1) * t + 1 for s, m, t in zip(start, out_shape, strides)]
        slices = [hlo.slice(x, start, limit, strides) for x in inputs]
        accs = apply_region(cv, op.regions[0], accs + slices, out_shape, op)
    return accs
