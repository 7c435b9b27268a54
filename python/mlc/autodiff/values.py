"""Small builders the rules share: types and shapes of values, zeros and scalars, adding
cotangents that may be symbolic zeros (None), and masks. Everything emits hlo ops at the
current insertion point."""

from __future__ import annotations

import numpy as np
from mlir import ir

from ..dialects import hlo
from ..dialects.hlo.types import is_float, tensor_type
from ..dtypes import numpy_dtype


def ttype(v: ir.Value) -> ir.RankedTensorType:
    return ir.RankedTensorType(v.type)


def shape(v: ir.Value) -> tuple[int, ...]:
    return tuple(ttype(v).shape)


def etype(v: ir.Value) -> ir.Type:
    return ttype(v).element_type


def differentiable(v: ir.Value) -> bool:
    """Only float tensors carry tangents and cotangents."""
    return isinstance(v.type, ir.RankedTensorType) and is_float(etype(v))


def full(shape_, element_type: ir.Type, value) -> ir.Value:
    """A splat constant of `shape_` (a 0-d one for shape ())."""
    t = tensor_type(shape_, element_type)
    if is_float(element_type):
        scalar = ir.FloatAttr.get(element_type, float(value))
    else:
        scalar = ir.IntegerAttr.get(element_type, int(value))
    return hlo.constant(ir.DenseElementsAttr.get_splat(t, scalar))


def zeros_like(v: ir.Value) -> ir.Value:
    return full(shape(v), etype(v), 0)


def full_like(v: ir.Value, value) -> ir.Value:
    return full(shape(v), etype(v), value)


def scalar_like(v: ir.Value, value) -> ir.Value:
    """A 0-d constant of v's element type."""
    return full((), etype(v), value)


def np_dtype(v: ir.Value) -> np.dtype:
    return numpy_dtype(etype(v))


def add(a: ir.Value | None, b: ir.Value | None) -> ir.Value | None:
    """a + b where None is a symbolic zero."""
    if a is None:
        return b
    if b is None:
        return a
    return hlo.add(a, b)


def neg(a):
    return None if a is None else hlo.negate(a)


def mul(a, b):
    return None if a is None or b is None else hlo.multiply(a, b)


def materialize(ct: ir.Value | None, like: ir.Value) -> ir.Value:
    """ct, or zeros of like's type for a symbolic zero."""
    return zeros_like(like) if ct is None else ct


def broadcast_to(v: ir.Value, shape_) -> ir.Value:
    """A 0-d or same-shaped v at `shape_` (hlo's implicit scalar operands made explicit)."""
    if shape(v) == tuple(shape_):
        return v
    assert shape(v) == (), (shape(v), shape_)
    return hlo.broadcast_in_dim(v, list(shape_), [])


def sum_to(v: ir.Value, shape_) -> ir.Value:
    """The inverse of broadcast_to: a full-shape cotangent summed to a 0-d operand's."""
    if shape(v) == tuple(shape_):
        return v
    assert tuple(shape_) == ()
    return hlo.reduce(v, scalar_like(v, 0), list(range(len(shape(v)))), "add")


def select_or_zero(pred: ir.Value, v: ir.Value) -> ir.Value:
    """pred ? v : 0 elementwise."""
    return hlo.select(pred, v, zeros_like(v))


def compare(a, b, direction: str) -> ir.Value:
    return hlo.compare(a, b, direction)
