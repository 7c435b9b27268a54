"""Gathers moved above the work that makes their operand (XLA fuses a gather's elementwise
operand and evaluates it at the gathered points only).

`logp = x - max - log(sum exp)` followed by `logp[i, labels[i]]` (softmax cross-entropy)
computes and writes the whole (512, 8192) logp to read 512 elements of it. Gathering the
inputs instead computes the 512 needed elements, and x - max is then used only inside
the exp-sum reduction, so nothing of logp's size is written.

Both patterns apply only when the gather reads at most 1/MIN_SHRINK of its operand's
elements: each gathered value is then computed once per gathered point instead of once per
operand element, so the program's arithmetic can only drop (a gather that reads every
element many times, an embedding lookup, keeps its operand materialized).
"""

from __future__ import annotations

import math

from mlir import ir
from mlir.dialects import tensor

from ...dialects import hlo
from ...dialects.hlo.ops import OPS
from ..patterns import attrs, pattern, producer, splat, splat_like

# How many times fewer elements the gather must read than its operand holds.
MIN_SHRINK = 8


def _shape(value: ir.Value) -> list[int]:
    return list(ir.RankedTensorType(value.type).shape)


def _shrinks(op) -> bool:
    """The gather reads at most 1/MIN_SHRINK of its operand (static shapes only)."""
    operand, result = ir.RankedTensorType(op.operands[0].type), ir.RankedTensorType(op.result.type)
    if not (operand.has_static_shape and result.has_static_shape):
        return False
    return math.prod(result.shape) * MIN_SHRINK <= math.prod(operand.shape)


def _regather(op, operand: ir.Value, indices: ir.Value | None = None, **changed) -> ir.Value:
    """`op`'s gather (same dimension numbers unless `changed`) of another operand."""
    return hlo._build("gather", [operand, op.operands[1] if indices is None else indices],
                      {**attrs(op), **changed})


@pattern("hlo.gather")
def gather_of_elementwise(op, ctx):
    """hlo.gather(f(x, y, splat c), idx) -> f(hlo.gather(x, idx), hlo.gather(y, idx), splat c)
    (f elementwise on operands of its result's shape; the gather reads <= 1/8 of them)"""
    inner = producer(op.operands[0])
    if inner is None or not inner.name.startswith("hlo."):
        return None
    opdef = OPS.get(inner.name.removeprefix("hlo."))
    if opdef is None or opdef.fusion != "elementwise" or not len(inner.operands) or not _shrinks(op):
        return None
    shape = _shape(inner.result)
    if any(_shape(v) != shape for v in inner.operands):
        return None  # (a bitcast between widths changes the shape)
    operands = []
    for v in inner.operands:
        value = splat(v)
        if value is not None:
            element = ir.RankedTensorType(v.type).element_type
            operands.append(splat_like(ir.RankedTensorType.get(_shape(op.result), element), value))
        else:
            operands.append(_regather(op, v))
    result = ir.RankedTensorType.get(_shape(op.result), ir.RankedTensorType(op.result.type).element_type)
    return [hlo._build(opdef.name, operands, attrs(inner), result)]


def _point_gather(op) -> bool:
    """result[b] = operand[idx[b, :]]: single elements, every operand dim collapsed and
    indexed (no batching dims), an explicit index vector dim."""
    a = attrs(op)
    rank = len(_shape(op.operands[0]))
    return (not a["offset_dims"] and list(a["slice_sizes"]) == [1] * rank
            and sorted(a["collapsed_slice_dims"]) == list(range(rank))
            and sorted(a["start_index_map"]) == list(range(rank))
            and not a.get("operand_batching_dims")
            and a["index_vector_dim"] < len(_shape(op.operands[1])))


@pattern("hlo.gather")
def gather_of_broadcast(op, ctx):
    """hlo.gather(hlo.broadcast_in_dim(m, dims), idx) -> hlo.gather(m, idx[..., columns of dims])
    (a point gather: result[b] = operand[idx[b, :]]; a 0-d m -> hlo.broadcast_in_dim(m))"""
    bcast = producer(op.operands[0], "hlo.broadcast_in_dim")
    if bcast is None or not _point_gather(op) or not _shrinks(op):
        return None
    m = bcast.operands[0]
    dims = attrs(bcast)["broadcast_dimensions"]
    result_shape = _shape(op.result)
    if not dims:
        return [hlo.broadcast_in_dim(m, result_shape, [])]
    a = attrs(op)
    start_map = list(a["start_index_map"])
    vector_dim = a["index_vector_dim"]
    indices = op.operands[1]
    index_shape = _shape(indices)
    # m's dim d is the broadcast's dim dims[d], indexed by index column start_map.index(dims[d])
    # (a size-1 dim of m that the broadcast expanded: the gather clamps its index to 0).
    columns = []
    for d in dims:
        column = start_map.index(d)
        starts = [0] * len(index_shape)
        limits = list(index_shape)
        starts[vector_dim], limits[vector_dim] = column, column + 1
        columns.append(hlo.slice(indices, starts, limits, [1] * len(index_shape)))
    if len(columns) == 1:
        new_indices = columns[0]
    else:
        concat_shape = list(index_shape)
        concat_shape[vector_dim] = len(columns)
        new_indices = tensor.concat(ir.RankedTensorType.get(concat_shape, ir.RankedTensorType(indices.type).element_type),
                                    vector_dim, columns)
    rank = len(dims)
    return [_regather(op, m, new_indices, offset_dims=[], collapsed_slice_dims=list(range(rank)),
                      start_index_map=list(range(rank)), slice_sizes=[1] * rank)]


@pattern("hlo.gather")
def gather_of_splat(op, ctx):
    """hlo.gather(splat c, idx) -> splat c"""
    value = splat(op.operands[0])
    return [splat_like(op.result.type, value)] if value is not None else None
