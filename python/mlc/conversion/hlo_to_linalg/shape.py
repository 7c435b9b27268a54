"""Shape ops: broadcast_in_dim -> linalg.generic, transpose -> linalg.transpose,
reshape -> tensor.collapse_shape to 1-d then tensor.expand_shape to the result shape."""

from __future__ import annotations

from mlir import ir
from mlir.dialects import linalg, tensor

from ...codegen.views import reassociation
from .registry import PARALLEL, empty, generic, identity_map, lowering


@lowering("broadcast_in_dim")
def lower_broadcast_in_dim(op, sig):
    (x,) = sig.operand_types
    result_type = op.results[0].type
    dims = sig.attributes["broadcast_dimensions"]
    # Operand dim i reads result dim dims[i], or index 0 where it is a size-1 dim that expands.
    exprs = [ir.AffineConstantExpr.get(0) if x.shape[i] == 1 and result_type.shape[d] != 1
             else ir.AffineDimExpr.get(d) for i, d in enumerate(dims)]
    rank = result_type.rank
    in_map = ir.AffineMap.get(rank, 0, exprs)
    return [generic([op.operands[0]], empty(result_type), [in_map, identity_map(rank)],
                    [PARALLEL] * rank, lambda v, _out: v)]


@lowering("transpose")
def lower_transpose(op, sig):
    perm = list(sig.attributes["permutation"])
    if perm == sorted(perm):  # identity (and rank 0, where linalg.transpose cannot exist)
        return [op.operands[0]]
    init = empty(op.results[0].type)
    return [linalg.transpose(op.operands[0], outs=[init],
                             permutation=sig.attributes["permutation"]).results[0]]


def _flatten(value: ir.Value, t: ir.RankedTensorType) -> ir.Value:
    n = 1
    for d in t.shape:
        n *= d
    flat = ir.RankedTensorType.get([n], t.element_type)
    if t.rank == 1:
        return value
    if t.rank == 0:
        return tensor.expand_shape(flat, value, ir.ArrayAttr.get([]), [], [1])
    return tensor.collapse_shape(flat, value, reassociation([list(range(t.rank))]))


@lowering("reshape")
def lower_reshape(op, sig):
    (x,) = sig.operand_types
    result_type = op.results[0].type
    flat = _flatten(op.operands[0], x)
    if result_type.rank == 1:
        return [flat]
    if result_type.rank == 0:
        return [tensor.collapse_shape(result_type, flat, ir.ArrayAttr.get([]))]
    return [tensor.expand_shape(result_type, flat, reassociation([list(range(result_type.rank))]), [],
                                list(result_type.shape))]
