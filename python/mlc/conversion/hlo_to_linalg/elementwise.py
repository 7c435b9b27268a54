"""Elementwise hlo ops -> one linalg.generic whose body is the op's scalar emitter.

`hlo.add(%a, %b)` becomes `linalg.generic ins(%a, %b) outs(tensor.empty) { arith.addf }`.
A 0-d operand (hlo.select's pred, hlo.clamp's bounds) is read through a map with no
results (a scalar broadcast).
"""

from __future__ import annotations

from ...dialects.hlo.ops import OPS
from .registry import PARALLEL, empty, generic, identity_map, lowering, projection
from .scalar import SCALAR_OPS, ElementInfo

ELEMENTWISE_FAMILIES = ("elementwise-unary", "elementwise-binary", "predicate", "compare", "select",
                        "clamp", "convert", "bitcast")
ELEMENTWISE_OPS = tuple(name for name, op in OPS.items() if op.family in ELEMENTWISE_FAMILIES)


@lowering(*ELEMENTWISE_OPS)
def lower_elementwise(op, sig):
    result_type = op.results[0].type
    rank = result_type.rank
    info = ElementInfo(sig.attributes, tuple(t.element_type for t in sig.operand_types),
                       result_type.element_type, unsigned=sig.operand_unsigned(0),
                       result_unsigned=sig.result_unsigned())
    emit = SCALAR_OPS[sig.name]
    maps = [identity_map(rank) if t.rank == rank else projection(rank, []) for t in sig.operand_types]
    value = generic(list(op.operands), empty(result_type), maps + [identity_map(rank)],
                    [PARALLEL] * rank, lambda *args: emit(info, *args[:-1]))
    return [value]
