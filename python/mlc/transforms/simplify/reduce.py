"""Simplification of reductions."""

from __future__ import annotations

import math

from mlir import ir

from ...dialects import hlo
from ..patterns import attrs, is_float_value, pattern, producer, splat, splat_like

# The init values that leave a reduction unchanged (the kind's identity), by element class.
_IDENTITY = {"add": 0, "or": 0, "xor": 0, "mul": 1}


def _is_identity(kind: str, init: ir.Value) -> bool:
    value = splat(init)
    if value is None:
        return False
    if kind in _IDENTITY:
        return value == _IDENTITY[kind] and not (isinstance(value, float) and kind == "add"
                                                  and math.copysign(1, value) > 0)
    if kind == "and":  # all ones: true for i1, -1 (2^w - 1 unsigned) for wider integers
        element = ir.RankedTensorType(init.type).element_type
        if not isinstance(element, ir.IntegerType):
            return False
        width = element.width
        # (not `value in (True, -1)`: in Python 1 == True, and 1 is no identity for i32)
        return value in ((1,) if width == 1 else (-1, (1 << width) - 1))
    if is_float_value(init):
        return value == (-math.inf if kind == "max" else math.inf)
    return False


@pattern("hlo.reduce")
def reduce_no_dimensions(op, ctx):
    """hlo.reduce(x, identity, dimensions = []) -> x   (init is the kind's identity; -0.0 for float add)"""
    a = attrs(op)
    x, init = op.operands
    return [x] if not a["dimensions"] and _is_identity(a["kind"], init) else None


@pattern("hlo.reduce")
def reduce_of_transpose(op, ctx):
    """hlo.reduce(hlo.transpose(x, p), init, dims) -> hlo.transpose(hlo.reduce(x, init, p[dims]), q)
    (q puts the kept dims back in the transposed order; none when they keep x's): the
    reduction reads x where it is, a column reduction instead of a transposed copy."""
    t = producer(op.operands[0], "hlo.transpose")
    if t is None:
        return None
    a, p = attrs(op), attrs(t)["permutation"]
    kept = [p[d] for d in range(len(p)) if d not in a["dimensions"]]  # x's dims, in the result's order
    reduced = hlo.reduce(t.operands[0], op.operands[1], sorted(p[d] for d in a["dimensions"]), a["kind"])
    order = sorted(kept)
    q = [order.index(d) for d in kept]
    return [reduced if q == list(range(len(q))) else hlo.transpose(reduced, q)]


@pattern("hlo.reduce")
def reduce_of_broadcast(op, ctx):
    """hlo.reduce(hlo.broadcast_in_dim(x), dims added by the broadcast) -> x   (max/min/and/or,
    identity init)   or  x * count (add on integers)"""
    a = attrs(op)
    bcast = producer(op.operands[0], "hlo.broadcast_in_dim")
    if bcast is None or not _is_identity(a["kind"], op.operands[1]):
        return None
    x = bcast.operands[0]
    mapped = attrs(bcast)["broadcast_dimensions"]
    if set(a["dimensions"]) & set(mapped) or mapped != sorted(mapped):
        return None
    if ir.RankedTensorType(x.type).shape != ir.RankedTensorType(op.result.type).shape:
        return None  # size-1 operand dims were expanded too
    kind = a["kind"]
    if kind in ("max", "min", "and", "or"):
        return [x]
    if kind == "add" and not is_float_value(x):
        shape = ir.RankedTensorType(bcast.result.type).shape
        count = math.prod(shape[d] for d in a["dimensions"])
        return [hlo.multiply(x, splat_like(x.type, count))]
    return None
