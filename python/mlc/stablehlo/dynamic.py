"""StableHLO's dynamic_* ops whose shape operands are constants: their static forms.

A result type with `?` was rejected already (types.py); what is left are the operands
that give pads, slice bounds, gather slice sizes or convolution padding at run time. When
such an operand is a constant (`stablehlo.constant`, possibly through convert/reshape),
the op is its static counterpart with that constant as the attribute; otherwise it is
rejected naming the operand."""

from __future__ import annotations

import numpy as np
from mlir import ir

from ..dialects import hlo
from . import attributes as A
from .registry import rule


def constant_ints(cv, op, index: int, what: str) -> np.ndarray:
    """The integer values of op's operand `index`, which must be a constant."""
    value = op.operands[index]
    owner = value.owner
    while not isinstance(owner, ir.Block) and owner.name in ("stablehlo.convert", "stablehlo.reshape"):
        owner = owner.operands[0].owner
    if isinstance(owner, ir.Block) or owner.name != "stablehlo.constant":
        raise cv.error(op, f"'{op.name}' with a {what} operand that is not a constant is not "
                           f"supported (MLC compiles static shapes)")
    attr = A.get(owner, "value")
    shape = ir.RankedTensorType(value.type).shape
    if isinstance(attr, ir.DenseIntElementsAttr):
        values = [int(v) for v in attr] if not attr.is_splat else \
            [int(attr.get_splat_value().value)] * int(np.prod(shape))
    else:
        raise cv.error(op, f"'{op.name}': the {what} operand must be an integer constant")
    return np.asarray(values, np.int64).reshape(shape)


@rule("stablehlo.dynamic_pad")
def dynamic_pad(cv, op):
    """dynamic_pad(x, v, low, high, interior) -> pad(x, v) with the constants as attributes."""
    x, pad_value = cv.value(op.operands[0]), cv.value(op.operands[1])
    low, high, interior = (list(constant_ints(cv, op, i, what)) for i, what in
                           ((2, "edge_padding_low"), (3, "edge_padding_high"), (4, "interior_padding")))
    return [hlo.pad(x, pad_value, low, high, interior)]


@rule("stablehlo.real_dynamic_slice")
def real_dynamic_slice(cv, op):
    """real_dynamic_slice(x, start, limit, strides) -> slice(x) with the constants."""
    x = cv.value(op.operands[0])
    start, limit, strides = (list(constant_ints(cv, op, i, what)) for i, what in
                             ((1, "start_indices"), (2, "limit_indices"), (3, "strides")))
    return [hlo.slice(x, start, limit, strides)]


@rule("stablehlo.dynamic_gather")
def dynamic_gather(cv, op):
    """dynamic_gather(x, idx, slice_sizes) -> gather(x, idx) with slice_sizes the constant."""
    from .op_rules import gather_attributes
    sizes = A.i64_array(constant_ints(cv, op, 2, "slice_sizes"))
    extra = dict(gather_attributes(op), slice_sizes=sizes)
    return [cv.same_name(op, name="gather", extra=extra,
                         operands=[cv.value(op.operands[0]), cv.value(op.operands[1])])]


@rule("stablehlo.dynamic_conv")
def dynamic_conv(cv, op):
    """dynamic_conv(lhs, rhs, padding) -> convolution(lhs, rhs) with padding the constant."""
    from .op_rules import convolution_attributes, convolution_operands
    padding = constant_ints(cv, op, 2, "padding")
    extra = convolution_attributes(cv, op)
    extra["padding"] = ir.DenseElementsAttr.get(padding.astype(np.int64))
    return [cv.same_name(op, name="convolution", extra=extra, operands=convolution_operands(cv, op))]
