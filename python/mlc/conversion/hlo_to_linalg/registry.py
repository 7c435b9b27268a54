"""The table of hlo-to-linalg lowerings, one entry per hlo op, and the helpers they share.

A lowering is `fn(op, signature) -> list[ir.Value]`: called with the insertion point and
location set to the op, it builds linalg/tensor/arith on tensors computing the op's results.
"""

from __future__ import annotations

from typing import Callable, Sequence

from mlir import ir
from mlir.dialects import linalg, tensor

from ...dialects.hlo.shape_rules import OpSignature

Lowering = Callable[[ir.Operation, OpSignature], Sequence[ir.Value]]
LOWERINGS: dict[str, Lowering] = {}


def lowering(*op_names: str):
    def register(fn: Lowering) -> Lowering:
        for name in op_names:
            LOWERINGS[name] = fn
        return fn
    return register


def empty(t: ir.RankedTensorType) -> ir.Value:
    return tensor.empty(t.shape, t.element_type)


def cast(value: ir.Value, to: ir.Type) -> ir.Value:
    """`value` as type `to` (an unrealized cast, which mlc-signless removes; none if equal):
    lowerings compute on signless types, the hlo values around them may be unsigned."""
    if value.type == to:
        return value
    return ir.Operation.create("builtin.unrealized_conversion_cast", results=[to], operands=[value]).result


def identity_map(rank: int) -> ir.AffineMap:
    return ir.AffineMap.get_identity(rank)


def projection(rank: int, dims: Sequence[int]) -> ir.AffineMap:
    """(d0, ..., d{rank-1}) -> (d{dims[0]}, d{dims[1]}, ...)"""
    return ir.AffineMap.get(rank, 0, [ir.AffineDimExpr.get(d) for d in dims])


PARALLEL = linalg.IteratorType.parallel
REDUCTION = linalg.IteratorType.reduction


def generic(inputs: Sequence[ir.Value], init: ir.Value, maps: Sequence[ir.AffineMap],
            iterators: Sequence, body: Callable[..., ir.Value]) -> ir.Value:
    """A one-result linalg.generic whose region yields `body(*input_scalars, out_scalar)`."""
    return generic_n(inputs, [init], maps, iterators, lambda *args: [body(*args)])[0]


def generic_n(inputs: Sequence[ir.Value], inits: Sequence[ir.Value], maps: Sequence[ir.AffineMap],
              iterators: Sequence, body: Callable[..., Sequence[ir.Value]]) -> list[ir.Value]:
    """A linalg.generic with several outputs; `body(*input_scalars, *out_scalars)` yields one
    value per output."""
    op = linalg.GenericOp_(list(inputs), list(inits), list(maps), list(iterators))
    block = op.regions[0].blocks[0]
    with ir.InsertionPoint(block):
        linalg.YieldOp(list(body(*block.arguments)))
    return list(op.results)


def fill(value: ir.Value, out: ir.Value) -> ir.Value:
    """linalg.fill of `out` with `value` (of its element type), built directly: OpDSL's
    `linalg.fill` rebuilds the op's definition on every call (~50 us against ~10)."""
    element_type = ir.ShapedType(out.type).element_type
    if value.type != element_type:  # OpDSL's fill inserts the cast
        return linalg.fill(value, outs=[out])
    op = linalg.FillOp([out.type], [value], [out])
    block = op.regions[0].blocks.append(value.type, element_type)
    with ir.InsertionPoint(block):
        linalg.YieldOp([block.arguments[0]])
    return op.result


def loop_index(dim: int, element_type: ir.Type | None = None) -> ir.Value:
    """The current iteration index of loop `dim` inside a linalg body, as `element_type`
    (default index). `linalg.index` itself is shadowed in the bindings by opdsl's `index`."""
    from mlir.dialects import arith
    index = linalg.IndexOp(dim).result
    return index if element_type is None else arith.index_cast(element_type, index)
