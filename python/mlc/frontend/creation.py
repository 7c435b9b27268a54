"""Array creation inside traced functions: zeros, ones, full, arange, linspace, eye and
the *_like forms. Shapes are static Python values."""

from __future__ import annotations

import numpy as np

from ..dialects import hlo
from .core import DEFAULT_FLOAT, DEFAULT_INT, asarray, astype, constant, element_type, wrap
from .tracing import Tracer, emit


def _shape(shape) -> tuple[int, ...]:
    return (int(shape),) if isinstance(shape, (int, np.integer)) else tuple(int(s) for s in shape)


def full(shape, fill_value, dtype=None) -> Tracer:
    if isinstance(fill_value, Tracer):
        from .core import broadcast_to
        return broadcast_to(astype(fill_value, dtype) if dtype else fill_value, _shape(shape))
    if dtype is None:
        dtype = np.asarray(fill_value).dtype
        dtype = DEFAULT_FLOAT if dtype.kind == "f" else DEFAULT_INT if dtype.kind in "iu" else dtype
    return constant(np.full(_shape(shape), fill_value, dtype=dtype))


def zeros(shape, dtype=DEFAULT_FLOAT) -> Tracer:
    return full(shape, 0, dtype)


def ones(shape, dtype=DEFAULT_FLOAT) -> Tracer:
    return full(shape, 1, dtype)


def zeros_like(x, dtype=None) -> Tracer:
    x = asarray(x)
    return full(x.shape, 0, dtype or x.dtype)


def ones_like(x, dtype=None) -> Tracer:
    x = asarray(x)
    return full(x.shape, 1, dtype or x.dtype)


def full_like(x, fill_value, dtype=None) -> Tracer:
    x = asarray(x)
    return full(x.shape, fill_value, dtype or x.dtype)


def arange(start, stop=None, step=1, dtype=None) -> Tracer:
    if stop is None:
        start, stop = 0, start
    for v in (start, stop, step):
        if isinstance(v, Tracer):
            raise TypeError("arange needs concrete bounds: its length is the array's shape")
    n = max(int(np.ceil((stop - start) / step)), 0)
    if dtype is None:
        is_float = any(isinstance(v, float) for v in (start, stop, step))
        dtype = DEFAULT_FLOAT if is_float else DEFAULT_INT
    counter = wrap(emit(hlo.iota, [n], element_type(dtype), 0))
    from .math import add, multiply
    out = counter
    if step != 1:
        out = multiply(out, constant(np.asarray(step, dtype)))
    if start != 0:
        out = add(out, constant(np.asarray(start, dtype)))
    return out


def linspace(start, stop, num=50, endpoint=True, dtype=None) -> Tracer:
    dtype = np.dtype(dtype or DEFAULT_FLOAT)
    div = (num - 1) if endpoint else num
    step = (stop - start) / div if div > 0 else 0.0
    values = wrap(emit(hlo.iota, [num], element_type(dtype), 0))
    from .math import add, multiply
    out = add(multiply(values, constant(np.asarray(step, dtype))), constant(np.asarray(start, dtype)))
    return out


def eye(n, m=None, k=0, dtype=DEFAULT_FLOAT) -> Tracer:
    m = n if m is None else m
    rows = wrap(emit(hlo.iota, [n, m], element_type(DEFAULT_INT), 0))
    cols = wrap(emit(hlo.iota, [n, m], element_type(DEFAULT_INT), 1))
    from .math import add, equal
    return astype(equal(add(rows, k), cols), dtype)
