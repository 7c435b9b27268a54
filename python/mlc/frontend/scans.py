"""Running reductions along an axis and differences.

    cumsum        : reductions.cumsum (an hlo.reduce_window over the whole axis, which
                    hlo-to-linalg lowers as an O(n) scan, hlo_to_linalg/reduce.py)
    cummax/cummin : the same hlo.reduce_window with kind max/min (NaN propagates, as in JAX)
    cumprod       : Hillis-Steele doubling, log2(n) steps of y = y * shift(y, 2^k), the shift
                    padding with 1 (only multiply/pad/slice: differentiable, where
                    reduce_window "mul" is not)
    reverse=True  : flip, scan, flip
    diff          : x[1:] - x[:-1], n times (booleans: x[1:] != x[:-1], as numpy)
"""

from __future__ import annotations

import numpy as np

from ..dialects import hlo
from . import math as m
from .core import asarray, astype, constant, wrap
from .reductions import _sum_dtype, cumsum as _cumsum, normalize_axes
from .shapes import concatenate, flip, ravel
from .tracing import emit


def _prepare(x, axis, dtype=None, accumulate=False):
    x = asarray(x)
    if axis is None:
        x, axis = ravel(x), 0
    (axis,) = normalize_axes(axis, x.ndim)
    if accumulate:
        dtype = _sum_dtype(x, dtype)
    if dtype is not None:
        x = astype(x, dtype)
    return x, axis


def _window(x, axis, kind):
    n = x.shape[axis]
    if n == 0:
        return x
    from .reductions import _identity
    init = constant(np.asarray(_identity(kind, x.dtype)).astype(x.dtype))
    window = [n if d == axis else 1 for d in range(x.ndim)]
    padding = [(n - 1, 0) if d == axis else (0, 0) for d in range(x.ndim)]
    return wrap(emit(hlo.reduce_window, x.value, init.value, window, kind, padding=padding))


def _shifted(y, axis, k, fill):
    """y moved k places toward the end of `axis`, the first k filled with `fill`."""
    low = [k if d == axis else 0 for d in range(y.ndim)]
    high = [-k if d == axis else 0 for d in range(y.ndim)]
    value = constant(np.asarray(fill).astype(y.dtype))
    return wrap(emit(hlo.pad, y.value, value.value, low, high, [0] * y.ndim))


def _doubling_product(x, axis):
    n, k, y = x.shape[axis], 1, x
    while k < n:
        y = m.multiply(y, _shifted(y, axis, k, 1))
        k *= 2
    return y


def _maybe_reversed(fn, x, axis, reverse):
    if not reverse:
        return fn(x, axis)
    return flip(fn(flip(x, axis), axis), axis)


def cumsum(a, axis=None, dtype=None, reverse=False):
    x, axis = _prepare(a, axis, dtype, accumulate=True)
    return _maybe_reversed(lambda v, ax: _cumsum(v, ax), x, axis, reverse)


def cumprod(a, axis=None, dtype=None, reverse=False):
    x, axis = _prepare(a, axis, dtype, accumulate=True)
    return _maybe_reversed(_doubling_product, x, axis, reverse)


def cummax(a, axis=None, reverse=False):
    x, axis = _prepare(a, axis)
    kind = "or" if x.dtype == np.bool_ else "max"
    return _maybe_reversed(lambda v, ax: _window(v, ax, kind), x, axis, reverse)


def cummin(a, axis=None, reverse=False):
    x, axis = _prepare(a, axis)
    kind = "and" if x.dtype == np.bool_ else "min"
    return _maybe_reversed(lambda v, ax: _window(v, ax, kind), x, axis, reverse)


def diff(a, n=1, axis=-1, prepend=None, append=None):
    """The n-th discrete difference along axis."""
    from .core import broadcast_to
    from .indexing import getitem
    x = asarray(a)
    if x.ndim == 0:
        raise ValueError("diff requires input that is at least one dimensional")
    (axis,) = normalize_axes(axis, x.ndim)
    n = int(n)
    if n < 0:
        raise ValueError(f"order must be non-negative but got {n}")
    pieces = []
    for extra in (prepend, x, append):
        if extra is None:
            continue
        extra = asarray(extra)
        if extra.ndim == 0:
            shape = list(x.shape)
            shape[axis] = 1
            extra = broadcast_to(extra, tuple(shape))
        pieces.append(extra)
    if len(pieces) > 1:
        x = concatenate(pieces, axis)
    for _ in range(n):
        size = x.shape[axis]
        if size == 0:
            break
        head = getitem(x, (slice(None),) * axis + (slice(1, None),))
        tail = getitem(x, (slice(None),) * axis + (slice(None, size - 1),))
        x = m.not_equal(head, tail) if x.dtype == np.bool_ else m.subtract(head, tail)
    return x


def ediff1d(ary, to_end=None, to_begin=None):
    x = diff(ravel(asarray(ary)))
    pieces = [ravel(asarray(p)) for p in (to_begin,) if p is not None] + [x] + \
        [ravel(asarray(p)) for p in (to_end,) if p is not None]
    return concatenate([astype(p, x.dtype) for p in pieces]) if len(pieces) > 1 else x


def trapezoid(y, x=None, dx=1.0, axis=-1):
    """The integral of y along axis by the trapezoidal rule: sum((y[1:] + y[:-1]) / 2 * d),
    d = diff(x) along axis (x 1-D or y's shape), or the spacing dx."""
    from .core import to_float
    from .indexing import getitem
    from .reductions import sum as reduce_sum
    y = to_float(asarray(y))
    if y.ndim == 0:
        raise ValueError("trapezoid: y must have at least one dimension")
    (axis,) = normalize_axes(axis, y.ndim)
    n = y.shape[axis]
    before = (slice(None),) * axis
    pairs = m.add(getitem(y, before + (slice(1, None),)), getitem(y, before + (slice(None, n - 1),)))
    if x is None:
        widths = asarray(dx)
    else:
        x = to_float(asarray(x))
        if x.ndim == 1:
            if x.shape[0] != n:
                raise ValueError(f"trapezoid: x has {x.shape[0]} points, y {n} along axis {axis}")
            from .shapes import reshape
            x = reshape(x, (1,) * axis + (n,) + (1,) * (y.ndim - axis - 1))
        widths = diff(x, axis=axis if x.ndim == y.ndim else -1)
    return reduce_sum(m.multiply(m.multiply(pairs, widths), 0.5), axis=axis)


__all__ = ["cumsum", "cumprod", "cummax", "cummin", "diff", "ediff1d", "trapezoid"]
