"""Comparing arrays as numbers: isclose/allclose (numpy's |a - b| <= atol + rtol |b|, equal
infinities close, NaN close to NaN only with equal_nan), array_equal/array_equiv (shapes
are static: unequal shapes give a constant False), and nan_to_num (selects)."""

from __future__ import annotations

import numpy as np

from . import math as m
from .core import asarray, constant, promote, to_float
from .reductions import all as reduce_all


def isclose(a, b, rtol=1e-05, atol=1e-08, equal_nan=False):
    a, b = promote(a, b)
    if a.dtype.kind != "f":
        if a.dtype == np.bool_:
            return m.equal(a, b)
        a, b = to_float(a), to_float(b)
    dtype = a.dtype
    rtol = constant(np.asarray(rtol, dtype)) if not hasattr(rtol, "dtype") else rtol
    atol = constant(np.asarray(atol, dtype)) if not hasattr(atol, "dtype") else atol
    finite = m.logical_and(m.isfinite(a), m.isfinite(b))
    close = m.less_equal(m.abs(m.subtract(a, b)), m.add(atol, m.multiply(rtol, m.abs(b))))
    out = m.where(finite, close, m.equal(a, b))
    if equal_nan:
        out = m.logical_or(out, m.logical_and(m.isnan(a), m.isnan(b)))
    return out


def allclose(a, b, rtol=1e-05, atol=1e-08, equal_nan=False):
    return reduce_all(isclose(a, b, rtol, atol, equal_nan))


def array_equal(a1, a2, equal_nan=False):
    a1, a2 = asarray(a1), asarray(a2)
    if a1.shape != a2.shape:
        return constant(np.asarray(False))
    a1, a2 = promote(a1, a2)
    same = m.equal(a1, a2)
    if equal_nan and a1.dtype.kind == "f":
        same = m.logical_or(same, m.logical_and(m.isnan(a1), m.isnan(a2)))
    return reduce_all(same)


def array_equiv(a1, a2):
    a1, a2 = asarray(a1), asarray(a2)
    try:
        np.broadcast_shapes(a1.shape, a2.shape)
    except ValueError:
        return constant(np.asarray(False))
    return reduce_all(m.equal(a1, a2))


def nan_to_num(x, copy=True, nan=0.0, posinf=None, neginf=None):
    """NaN -> nan, +inf -> posinf (default the largest finite value), -inf -> neginf."""
    x = asarray(x)
    if x.dtype.kind != "f":
        return x
    info = np.finfo(x.dtype)
    posinf = info.max if posinf is None else posinf
    neginf = info.min if neginf is None else neginf

    def c(v):
        return constant(np.asarray(v).astype(x.dtype))
    x = m.where(m.isnan(x), c(nan), x)
    x = m.where(m.logical_and(m.isinf(x), m.greater(x, 0)), c(posinf), x)
    return m.where(m.logical_and(m.isinf(x), m.less(x, 0)), c(neginf), x)


__all__ = ["isclose", "allclose", "array_equal", "array_equiv", "nan_to_num"]
