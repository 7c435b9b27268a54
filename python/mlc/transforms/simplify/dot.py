"""Simplification of contractions."""

from __future__ import annotations

from mlir import ir

from ...dialects import hlo
from ..patterns import attrs, pattern, producer


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


def _fold_transpose(operand: ir.Value, batch: list, contracting: list):
    """(x, batch', contracting') when `operand` is hlo.transpose(x, perm) whose free dims
    keep their order, else None: dims of the transposed value renamed to dims of x."""
    inner = producer(operand, "hlo.transpose")
    if inner is None:
        return None
    perm = attrs(inner)["permutation"]
    free = [d for d in range(len(perm)) if d not in batch and d not in contracting]
    moved_free = [perm[d] for d in free]
    if moved_free != sorted(moved_free):
        return None  # the result's free dims would come out in another order
    return inner.operands[0], [perm[d] for d in batch], [perm[d] for d in contracting]


@pattern("hlo.dot_general")
def dot_transpose_folding(op, ctx):
    """hlo.dot_general(hlo.transpose(a, p), b) -> hlo.dot_general(a, b) with the dimension
    numbers read through p (either operand; when the free dims keep their order). XLA's
    TransposeFolding: the contraction reads the operand in place (BLAS takes a transpose
    flag) instead of a materialized transposed copy (attention's k^T)."""
    a = attrs(op)
    lhs, rhs = op.operands
    lb, lc = list(a["lhs_batching_dimensions"]), list(a["lhs_contracting_dimensions"])
    rb, rc = list(a["rhs_batching_dimensions"]), list(a["rhs_contracting_dimensions"])
    left, right = _fold_transpose(lhs, lb, lc), _fold_transpose(rhs, rb, rc)
    if left is None and right is None:
        return None
    if left is not None:
        lhs, lb, lc = left
    if right is not None:
        rhs, rb, rc = right
    element = ir.RankedTensorType(op.result.type).element_type
    return [hlo.dot_general(lhs, rhs, lb, rb, lc, rc, result_element_type=element)]
