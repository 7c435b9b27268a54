"""Small builders the batching rules share: shapes, bringing an operand to its batched form
(batch dim first), moving a dim, rebuilding an op with new operands and result types. All
emit hlo ops at the current insertion point."""

from __future__ import annotations

from typing import Sequence

from mlir import ir

from ..dialects import hlo
from ..dialects.hlo.types import tensor_type
from ..autodiff.values import etype, shape, ttype  # noqa: F401  (the rules' accessors)
from .registry import Arg


def batched_type(t: ir.Type, size: int) -> ir.RankedTensorType:
    """The batched form of a per-example type: tensor<BxS...> (a scalar: tensor<B>)."""
    if isinstance(t, ir.RankedTensorType):
        return tensor_type([size, *ir.RankedTensorType(t).shape], ir.RankedTensorType(t).element_type)
    return tensor_type([size], t)


def materialize(arg: Arg, size: int, per_example: Sequence[int] | None = None) -> ir.Value:
    """arg as a batched value of per-example shape `per_example` (default: its own): an
    unbatched value is broadcast along a new leading dim, a batched 0-d one (tensor<B>)
    along the per-example dims."""
    value, is_batched = arg
    own = shape(value)[1:] if is_batched else shape(value)
    target = tuple(own if per_example is None else per_example)
    if is_batched and own == target:
        return value
    if is_batched:
        assert own == (), (own, target)
        return hlo.broadcast_in_dim(value, [size, *target], [0])
    assert own in (target, ()), (own, target)
    dims = [] if own == () else list(range(1, len(target) + 1))
    return hlo.broadcast_in_dim(value, [size, *target], dims)


def move_dim(v: ir.Value, src: int, dst: int) -> ir.Value:
    """v with dim `src` moved to position `dst` (the others keep their order)."""
    rank = len(shape(v))
    if src == dst:
        return v
    order = [d for d in range(rank) if d != src]
    order.insert(dst, src)
    return hlo.transpose(v, order)


def rebuild(op: ir.Operation, operands: Sequence[ir.Value], result_types: Sequence[ir.Type],
            attributes: dict | None = None) -> list[ir.Value]:
    """A copy of `op` (same name and attributes, overridden by `attributes`) on new operands."""
    attrs = {name: op.attributes[name] for name in op.attributes}
    attrs.update(attributes or {})
    new = ir.Operation.create(op.name, results=list(result_types), operands=list(operands),
                              attributes=attrs)
    return list(new.results)


def i64_array(values) -> ir.Attribute:
    return ir.DenseI64ArrayAttr.get([int(v) for v in values])


def i64(value: int) -> ir.Attribute:
    return ir.IntegerAttr.get(ir.IntegerType.get_signless(64), int(value))


def shifted(dims, by: int = 1) -> list[int]:
    return [int(d) + by for d in dims]


def scalar_constant(element_type: ir.Type, value) -> ir.Value:
    from ..autodiff.values import full
    return full((), element_type, value)


def split_dim(v: ir.Value, dim: int, sizes: Sequence[int]) -> ir.Value:
    """v with dim `dim` reshaped into `sizes` (row-major)."""
    s = list(shape(v))
    return hlo.reshape(v, s[:dim] + list(sizes) + s[dim + 1:])


def merge_dims(v: ir.Value, dim: int, count: int) -> ir.Value:
    """v with the `count` dims from `dim` on merged into one (row-major)."""
    s = list(shape(v))
    size = 1
    for n in s[dim:dim + count]:
        size *= n
    return hlo.reshape(v, s[:dim] + [size] + s[dim + count:])


def example(arg: Arg, index: int) -> ir.Value:
    """The per-example value of example `index` (an unbatched value is its own)."""
    value, is_batched = arg
    if not is_batched:
        return value
    s = list(shape(value))
    row = hlo.slice(value, [index] + [0] * (len(s) - 1), [index + 1] + s[1:])
    return hlo.reshape(row, s[1:])


def unrolled(ctx, args) -> list[ir.Value]:
    """The op once per example, results stacked: the fallback for cases no batched form of
    the op covers (costs B copies of the op)."""
    from mlir.dialects import tensor
    rows: list[list[ir.Value]] = [[] for _ in ctx.op.results]
    for b in range(ctx.size):
        outs = rebuild(ctx.op, [example(a, b) for a in args], [r.type for r in ctx.op.results])
        for k, out in enumerate(outs):
            rows[k].append(hlo.reshape(out, [1, *shape(out)]))
    return [tensor.concat(batched_type(r.type, ctx.size), 0, parts) if len(parts) > 1 else parts[0]
            for r, parts in zip(ctx.op.results, rows)]
