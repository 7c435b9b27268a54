"""Ops that move windows of data: reverse -> linalg.generic reading `size-1-i`; slice ->
tensor.extract_slice; dynamic_slice / dynamic_update_slice -> tensor.extract_slice /
insert_slice at clamped run-time offsets (unsigned starts zero-extended and clamped
unsigned); pad -> linalg.fill + strided insert_slice (+ a crop for negative edge padding)."""

from __future__ import annotations

from mlir import ir
from mlir.dialects import arith, tensor

from .registry import PARALLEL, empty, fill, generic, identity_map, lowering

_DYNAMIC = ir.ShapedType.get_dynamic_stride_or_offset()


def _offsets(offsets) -> tuple[list[ir.Value], list[int]]:
    """(the dynamic offsets, the static ones with a marker where a dynamic one goes)."""
    return ([o for o in offsets if isinstance(o, ir.Value)],
            [_DYNAMIC if isinstance(o, ir.Value) else o for o in offsets])


def extract_slice(source: ir.Value, result_type: ir.RankedTensorType, offsets, strides=None,
                  sizes=None) -> ir.Value:
    """tensor.extract_slice with static sizes (default the result's; given, the unit ones
    the result type leaves out are dropped); an offset is an int or an index Value."""
    sizes = list(result_type.shape) if sizes is None else list(sizes)
    strides = strides or [1] * len(sizes)
    dynamic, static = _offsets(offsets)
    return tensor.extract_slice(result_type, source, dynamic, [], [], static, sizes, list(strides))


def insert_slice(source: ir.Value, dest: ir.Value, offsets, strides=None) -> ir.Value:
    source_type = ir.RankedTensorType(source.type)
    strides = strides or [1] * source_type.rank
    dynamic, static = _offsets(offsets)
    return tensor.insert_slice(source, dest, dynamic, [], [], static, list(source_type.shape),
                               list(strides))


def parallel_insert_slice(source: ir.Value, dest: ir.Value, offsets, sizes=None) -> None:
    """tensor.parallel_insert_slice (in an scf.forall's terminator) with unit strides; sizes
    default to the source's shape (given, the unit ones the source leaves out are added)."""
    sizes = list(ir.RankedTensorType(source.type).shape) if sizes is None else list(sizes)
    dynamic, static = _offsets(offsets)
    tensor.ParallelInsertSliceOp(source, dest, dynamic, [], [], static, sizes, [1] * len(sizes))


@lowering("reverse")
def lower_reverse(op, sig):
    (x,) = sig.operand_types
    dims = sig.attributes["dimensions"]
    exprs = [ir.AffineExpr.get_add(ir.AffineConstantExpr.get(x.shape[d] - 1),
                                   ir.AffineExpr.get_mul(ir.AffineDimExpr.get(d), ir.AffineConstantExpr.get(-1)))
             if d in dims else ir.AffineDimExpr.get(d) for d in range(x.rank)]
    in_map = ir.AffineMap.get(x.rank, 0, exprs)
    return [generic([op.operands[0]], empty(x), [in_map, identity_map(x.rank)],
                    [PARALLEL] * x.rank, lambda v, _out: v)]


@lowering("slice")
def lower_slice(op, sig):
    a = sig.attributes
    return [extract_slice(op.operands[0], op.results[0].type, a["start_indices"], a["strides"])]


def clamp_start(value: ir.Value, high: int, unsigned: bool) -> ir.Value:
    """An index-typed start clamped to [0, high]. An unsigned start is never negative: it
    is zero-extended and compared unsigned, so a ui64 start >= 2^63 is a huge positive
    value that clamps to `high` (a signed compare would read it as negative and give 0)."""
    index = ir.IndexType.get()
    if unsigned:
        return arith.minui(value, arith.constant(index, high))
    return arith.minsi(arith.maxsi(value, arith.constant(index, 0)), arith.constant(index, high))


def to_index(value: ir.Value, unsigned: bool) -> ir.Value:
    """An integer as an index: sign-extended, or zero-extended when its hlo type is unsigned."""
    index = ir.IndexType.get()
    return arith.index_castui(index, value) if unsigned else arith.index_cast(index, value)


def clamped_offsets(start_operands, operand_shape, window_shape, unsigned=None) -> list[ir.Value]:
    """StableHLO's rule: each start is clamped to [0, operand dim - window dim].
    `unsigned[k]` says start k has an unsigned hlo type (signless in the lowered IR)."""
    unsigned = unsigned or [False] * len(start_operands)
    return [clamp_start(to_index(tensor.extract(start, []), u), dim - size, u)
            for start, dim, size, u in zip(start_operands, operand_shape, window_shape, unsigned)]


@lowering("dynamic_slice")
def lower_dynamic_slice(op, sig):
    x = sig.operand_types[0]
    result_type = op.results[0].type
    starts = list(op.operands)[1:]
    offsets = clamped_offsets(starts, x.shape, result_type.shape,
                              [sig.operand_unsigned(1 + k) for k in range(len(starts))])
    return [extract_slice(op.operands[0], result_type, offsets)]


@lowering("dynamic_update_slice")
def lower_dynamic_update_slice(op, sig):
    x, update = sig.operand_types[:2]
    starts = list(op.operands)[2:]
    offsets = clamped_offsets(starts, x.shape, update.shape,
                              [sig.operand_unsigned(2 + k) for k in range(len(starts))])
    return [insert_slice(op.operands[1], op.operands[0], offsets)]


def pad_tensor(source: ir.Value, pad_scalar: ir.Value, low, high, interior) -> ir.Value:
    """`source` padded with the scalar `pad_scalar`: edges (negative ones crop) and interior."""
    t = ir.RankedTensorType(source.type)
    # Pad with the non-negative parts of the edges, then crop what negative edges remove.
    padded_shape = [max(lo, 0) + n + max(n - 1, 0) * inner + max(hi, 0)
                    for lo, hi, inner, n in zip(low, high, interior, t.shape)]
    padded_type = ir.RankedTensorType.get(padded_shape, t.element_type)
    filled = fill(pad_scalar, empty(padded_type))
    # An empty source adds nothing (and an insert at an offset equal to a size is invalid).
    padded = filled if 0 in t.shape else insert_slice(source, filled, [max(lo, 0) for lo in low],
                                                    [inner + 1 for inner in interior])
    result_shape = [size - max(-lo, 0) - max(-hi, 0) for size, lo, hi in zip(padded_shape, low, high)]
    if result_shape == padded_shape:
        return padded
    return extract_slice(padded, ir.RankedTensorType.get(result_shape, t.element_type),
                         [max(-lo, 0) for lo in low])


@lowering("pad")
def lower_pad(op, sig):
    a = sig.attributes
    return [pad_tensor(op.operands[0], tensor.extract(op.operands[1], []), a["edge_padding_low"],
                       a["edge_padding_high"], a["interior_padding"])]
