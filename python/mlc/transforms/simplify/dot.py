"""Simplification of contractions."""

from __future__ import annotations

from mlir import ir

from ...dialects import hlo
from ..patterns import attrs, pattern


@pattern("hlo.dot_general")
def dot_unit_contraction(op, ctx):
    """hlo.dot_general(a, b) with every contracting dim of size 1 and no batch dims ->
    hlo.multiply(broadcast(a), broadcast(b))   (an outer product)"""
    a = attrs(op)
    lhs, rhs = op.operands
    if a["lhs_batching_dimensions"] or not a["lhs_contracting_dimensions"]:
        return None
    lt, rt = ir.RankedTensorType(lhs.type), ir.RankedTensorType(rhs.type)
    if any(lt.shape[d] != 1 for d in a["lhs_contracting_dimensions"]):
        return None
    if lt.element_type != ir.RankedTensorType(op.result.type).element_type:
        return None
    lfree = [d for d in range(lt.rank) if d not in a["lhs_contracting_dimensions"]]
    rfree = [d for d in range(rt.rank) if d not in a["rhs_contracting_dimensions"]]
    out = list(ir.RankedTensorType(op.result.type).shape)
    lx = hlo.reshape(lhs, [lt.shape[d] for d in lfree])
    rx = hlo.reshape(rhs, [rt.shape[d] for d in rfree])
    lb = hlo.broadcast_in_dim(lx, out, list(range(len(lfree))))
    rb = hlo.broadcast_in_dim(rx, out, list(range(len(lfree), len(lfree) + len(rfree))))
    return [hlo.multiply(lb, rb)]
