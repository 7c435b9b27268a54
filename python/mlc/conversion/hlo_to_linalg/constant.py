"""hlo.constant -> arith.constant (a dense tensor); hlo.iota -> linalg.generic over linalg.index."""

from __future__ import annotations

import numpy as np
from mlir import ir
from mlir.dialects import arith

from ...dialects.hlo.types import is_float
from .registry import PARALLEL, empty, generic, identity_map, loop_index, lowering


def splat_value(attr: ir.Attribute):
    """The one element of a splat dense constant, as a Python number; None otherwise."""
    try:
        elements = ir.DenseElementsAttr(attr)
    except ValueError:  # not a dense elements attribute
        return None
    if not elements.is_splat:
        return None
    value = elements.get_splat_value()
    if isinstance(value, ir.FloatAttr):
        return value.value
    if isinstance(value, ir.IntegerAttr):
        return value.value
    return None


@lowering("constant")
def lower_constant(op, sig):
    value, result_type = sig.attributes["value"], op.results[0].type
    if value.type != result_type:  # unsigned elements: the same bits as a signless constant
        bits = np.array(value).view(np.dtype(f"i{ir.IntegerType(result_type.element_type).width // 8}"))
        value = ir.DenseElementsAttr.get(np.ascontiguousarray(bits).reshape(result_type.shape), type=result_type)
    return [arith.constant(result_type, value)]


@lowering("iota")
def lower_iota(op, sig):
    result_type = op.results[0].type
    et = result_type.element_type
    dim = sig.attributes["iota_dimension"]

    def body(_out):
        if is_float(et):
            return arith.sitofp(et, loop_index(dim, ir.IntegerType.get_signless(64)))
        return loop_index(dim, et)

    rank = result_type.rank
    return [generic([], empty(result_type), [identity_map(rank)], [PARALLEL] * rank, body)]
