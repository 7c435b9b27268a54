"""Tuples flattened at import: a tuple-typed value is held as a Python tuple of its element
values (nested for nested tuples), so `tuple` and `get_tuple_element` build and pick apart
those Python tuples and emit no op. A public function's tuple parameters and results
become their leaves, in order (depth first); tuples crossing calls of private functions
(inlined) need nothing. Other ops taking or giving tuples (old-style while/if, custom
calls) are rejected."""

from __future__ import annotations

from mlir import ir

from . import attributes as A
from .registry import rule

# Ops that may carry tuple-typed operands or results.
TUPLE_OPS = ("stablehlo.tuple", "stablehlo.get_tuple_element", "func.call", "mlc.call", "func.return",
             "stablehlo.return", "stablehlo.optimization_barrier")


def is_tuple(t: ir.Type) -> bool:
    return isinstance(t, ir.TupleType)


def leaf_types(t: ir.Type) -> list[ir.Type]:
    """The non-tuple types of `t`, depth first."""
    if not is_tuple(t):
        return [t]
    t = ir.TupleType(t)
    return [leaf for i in range(t.num_types) for leaf in leaf_types(t.get_type(i))]


def leaves(value) -> list[ir.Value]:
    if isinstance(value, tuple):
        return [leaf for v in value for leaf in leaves(v)]
    return [value]


def rebuild(t: ir.Type, flat: list[ir.Value]):
    """The (nested) Python tuple of type `t` from the front of `flat` (consumed)."""
    if not is_tuple(t):
        return flat.pop(0)
    t = ir.TupleType(t)
    return tuple(rebuild(t.get_type(i), flat) for i in range(t.num_types))


@rule("stablehlo.tuple")
def tuple_(cv, op):
    """tuple(a, b, ...) -> the Python tuple (a, b, ...); no op."""
    return [tuple(cv.operands(op))]


@rule("stablehlo.get_tuple_element")
def get_tuple_element(cv, op):
    """get_tuple_element(t, i) -> element i of t's Python tuple; no op."""
    whole = cv.value(op.operands[0])
    index = ir.IntegerAttr(A.get(op, "index")).value
    if not isinstance(whole, tuple) or not 0 <= index < len(whole):
        raise cv.error(op, f"get_tuple_element index {index} is out of range")
    return [whole[index]]
