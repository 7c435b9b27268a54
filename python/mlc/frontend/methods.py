"""Tracer operators and array methods (`x + y`, `x @ w`, `x.sum(axis)`, `x.T`, `x.at[]`),
bound here so tracing.py stays free of the numpy API it is used by."""

from __future__ import annotations

from . import math as m
from . import reductions as r
from . import shapes as s
from .core import astype
from .indexing import AtIndexer, getitem
from .linalg import matmul
from .scans import cumprod
from .selection import diagonal, nonzero, take, trace
from .sorting import argsort, searchsorted, sort
from .statistics import ptp
from .tracing import Tracer


def _swap(fn):
    return lambda self, other: fn(other, self)


_OPERATORS = {
    "__add__": m.add, "__radd__": _swap(m.add), "__sub__": m.subtract, "__rsub__": _swap(m.subtract),
    "__mul__": m.multiply, "__rmul__": _swap(m.multiply), "__truediv__": m.true_divide,
    "__rtruediv__": _swap(m.true_divide), "__floordiv__": m.floor_divide,
    "__rfloordiv__": _swap(m.floor_divide), "__mod__": m.remainder, "__rmod__": _swap(m.remainder),
    "__pow__": m.power, "__rpow__": _swap(m.power), "__matmul__": matmul, "__rmatmul__": _swap(matmul),
    "__and__": m.bitwise_and, "__rand__": _swap(m.bitwise_and), "__or__": m.bitwise_or,
    "__ror__": _swap(m.bitwise_or), "__xor__": m.bitwise_xor, "__rxor__": _swap(m.bitwise_xor),
    "__lshift__": m.left_shift, "__rshift__": m.right_shift,
    "__lt__": m.less, "__le__": m.less_equal, "__gt__": m.greater, "__ge__": m.greater_equal,
    "__eq__": m.equal, "__ne__": m.not_equal,
    "__neg__": m.negative, "__pos__": lambda x: x, "__abs__": m.abs, "__invert__": m.invert,
    "__getitem__": getitem,
}
_METHODS = {
    "astype": astype, "reshape": lambda x, *shape, **kw: s.reshape(x, shape[0] if len(shape) == 1 else shape, **kw),
    "transpose": lambda x, *axes: s.transpose(x, axes[0] if len(axes) == 1 else (axes or None)),
    "swapaxes": s.swapaxes, "squeeze": s.squeeze, "flatten": s.ravel, "ravel": s.ravel,
    "sum": r.sum, "prod": r.prod, "mean": r.mean, "var": r.var, "std": r.std, "max": r.max,
    "min": r.min, "argmax": r.argmax, "argmin": r.argmin, "all": r.all, "any": r.any,
    "cumsum": r.cumsum, "cumprod": cumprod, "clip": m.clip, "round": m.round, "repeat": s.repeat,
    "sort": sort, "argsort": argsort, "searchsorted": searchsorted, "take": take,
    "diagonal": diagonal, "trace": trace, "nonzero": nonzero, "ptp": ptp,
    "conj": lambda x: x, "conjugate": lambda x: x,  # (arrays are real)
    "dot": lambda x, y: __import__("mlc.frontend.linalg", fromlist=["dot"]).dot(x, y),
}

for _name, _fn in {**_OPERATORS, **_METHODS}.items():
    setattr(Tracer, _name, _fn)
Tracer.T = property(lambda self: s.transpose(self))
Tracer.at = property(AtIndexer)
