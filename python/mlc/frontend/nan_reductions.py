"""numpy's NaN-ignoring reductions: the ordinary reduction of the array with every NaN
replaced by the reduction's identity, then fixed up where a slice held only NaNs.

    nansum = sum(where(isnan(x), 0, x))          nanprod = prod(where(isnan(x), 1, x))
    nanmax = max(where(isnan(x), -inf, x)), NaN where every element is NaN (nanmin alike)
    nanmean = nansum / count(not NaN)            (0 / 0 = NaN for an all-NaN slice)
    nanvar  = sum(|x - nanmean|^2 over non-NaN) / (count - ddof)
    nanargmax/nanargmin = argmax/argmin with NaN as -inf/+inf (-1 for an all-NaN slice, as JAX)
    nancumsum/nancumprod = cumsum/cumprod with NaN as 0/1

Integer and bool arrays hold no NaN: these are their ordinary reductions.
"""

from __future__ import annotations

import numpy as np

from . import math as m
from . import reductions as r
from .core import asarray, astype, constant


def _replace_nan(x, value):
    x = asarray(x)
    if x.dtype.kind != "f":
        return x
    return m.where(m.isnan(x), constant(np.asarray(value, x.dtype)), x)


def nansum(a, axis=None, dtype=None, keepdims=False, initial=None, where=None):
    return r.sum(_masked(a, where, 0), axis=axis, dtype=dtype, keepdims=keepdims, initial=initial)


def nanprod(a, axis=None, dtype=None, keepdims=False, initial=None, where=None):
    return r.prod(_masked(a, where, 1), axis=axis, dtype=dtype, keepdims=keepdims, initial=initial)


def _masked(a, where, identity):
    x = _replace_nan(a, identity)
    if where is not None:
        x = m.where(where, x, constant(np.asarray(identity, x.dtype)))
    return x


def _no_where(name, where):
    if where is not None:
        raise NotImplementedError(f"{name}(where=...) is not supported")


def _nan_extreme(a, axis, keepdims, initial, which):
    x = asarray(a)
    if x.dtype.kind != "f":
        return (r.max if which == "max" else r.min)(x, axis=axis, keepdims=keepdims, initial=initial)
    fill = -np.inf if which == "max" else np.inf
    out = (r.max if which == "max" else r.min)(_replace_nan(x, fill), axis=axis, keepdims=keepdims,
                                               initial=initial)
    if initial is not None:
        return out
    all_nan = r.all(m.isnan(x), axis=axis, keepdims=keepdims)
    return m.where(all_nan, constant(np.asarray(np.nan, x.dtype)), out)


def nanmax(a, axis=None, out=None, keepdims=False, initial=None, where=None):
    _no_where("nanmax", where)
    return _nan_extreme(a, axis, keepdims, initial, "max")


def nanmin(a, axis=None, out=None, keepdims=False, initial=None, where=None):
    _no_where("nanmin", where)
    return _nan_extreme(a, axis, keepdims, initial, "min")


def _count(x, axis, keepdims, dtype):
    present = m.logical_not(m.isnan(x)) if x.dtype.kind == "f" else m.equal(x, x)
    return r.sum(astype(present, dtype), axis=axis, keepdims=keepdims)


def nanmean(a, axis=None, dtype=None, out=None, keepdims=False, where=None):
    _no_where("nanmean", where)
    x = asarray(a)
    out_dtype, wide = r._mean_dtypes(x, dtype)
    x = astype(x, wide)
    total = r.sum(_replace_nan(x, 0), axis=axis, keepdims=keepdims)
    return astype(m.true_divide(total, _count(x, axis, keepdims, wide)), out_dtype)


def nanvar(a, axis=None, dtype=None, out=None, ddof=0, keepdims=False, where=None):
    _no_where("nanvar", where)
    x = asarray(a)
    out_dtype, wide = r._mean_dtypes(x, dtype)
    x = astype(x, wide)
    centered = m.subtract(x, nanmean(x, axis, keepdims=True))
    total = r.sum(_replace_nan(m.multiply(centered, centered), 0), axis=axis, keepdims=keepdims)
    count = m.subtract(_count(x, axis, keepdims, wide), ddof)
    out = m.true_divide(total, m.maximum(count, 0))
    return astype(out, out_dtype)


def nanstd(a, axis=None, dtype=None, out=None, ddof=0, keepdims=False, where=None):
    return m.sqrt(nanvar(a, axis, dtype, ddof=ddof, keepdims=keepdims, where=where))


def _nan_arg(a, axis, keepdims, which):
    x = asarray(a)
    if x.dtype.kind != "f":
        return (r.argmax if which == "max" else r.argmin)(x, axis=axis, keepdims=keepdims)
    fill = -np.inf if which == "max" else np.inf
    index = (r.argmax if which == "max" else r.argmin)(_replace_nan(x, fill), axis=axis, keepdims=keepdims)
    if axis is None:
        all_nan = r.all(m.isnan(x))
    else:
        all_nan = r.all(m.isnan(x), axis=axis, keepdims=keepdims)
    return m.where(all_nan, -1, index)


def nanargmax(a, axis=None, out=None, keepdims=False):
    return _nan_arg(a, axis, keepdims, "max")


def nanargmin(a, axis=None, out=None, keepdims=False):
    return _nan_arg(a, axis, keepdims, "min")


def nancumsum(a, axis=None, dtype=None, out=None):
    return r.cumsum(_replace_nan(a, 0), axis=axis, dtype=dtype)


def nancumprod(a, axis=None, dtype=None, out=None):
    from .scans import cumprod
    return cumprod(_replace_nan(a, 1), axis=axis, dtype=dtype)


__all__ = ["nansum", "nanprod", "nanmax", "nanmin", "nanmean", "nanvar", "nanstd", "nanargmax",
           "nanargmin", "nancumsum", "nancumprod"]
