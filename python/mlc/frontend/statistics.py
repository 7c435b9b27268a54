"""Weighted and binned statistics:

    average(a, w)     = sum(a w) / sum(w) along axis (the mean without weights)
    cov(x)            = (x - mean) (x - mean)^T / (N - ddof), variables in rows
    corrcoef(x)       = cov / sqrt(diag(cov) diag(cov)^T), clipped to [-1, 1]
    ptp(a)            = max(a) - min(a)
    histogram(a, bins, range) : edges = linspace(lo, hi, bins + 1) (lo, hi = min, max of a
                        unless range is given); bin = searchsorted(edges, a, "right"), the
                        last edge counted in the last bin; counts by a scatter-add (JAX's
                        rule: counts have the weights' dtype, a's when unweighted)
    bincount(x, length) : a scatter-add of the weights (or ones) at clip(x, 0); `length`
                        must be static (JAX: length=minlength when it is given)
    interp(x, xp, fp) : fp[i-1] + (x - xp[i-1]) (fp[i] - fp[i-1]) / (xp[i] - xp[i-1]),
                        i = searchsorted(xp, x, "right") clipped to [1, len(xp) - 1]
"""

from __future__ import annotations

import numpy as np

from ..dialects import hlo
from . import math as m
from . import reductions as r
from .core import DEFAULT_INT, asarray, astype, broadcast_to, constant, promote, to_float, wrap
from .shapes import ravel, reshape
from .tracing import Tracer, emit


def average(a, axis=None, weights=None, returned=False, keepdims=False):
    a = asarray(a)
    if weights is None:
        avg = r.mean(a, axis=axis, keepdims=keepdims)
        count = r._count(a, r.normalize_axes(axis, a.ndim))
        return (avg, broadcast_to(constant(np.asarray(count, avg.dtype)), avg.shape)) if returned else avg
    w = asarray(weights)
    a, w = to_float(a), w
    if w.shape != a.shape:
        if axis is None:
            raise TypeError("average: axis must be specified when shapes of a and weights differ")
        (ax,) = r.normalize_axes(axis, a.ndim) if isinstance(axis, (int, np.integer)) else (None,)
        if ax is None or w.ndim != 1 or w.shape[0] != a.shape[ax]:
            raise ValueError("average: 1D weights expected when shapes of a and weights differ, "
                             "with length equal to a.shape[axis]")
        w = reshape(w, tuple(a.shape[ax] if d == ax else 1 for d in range(a.ndim)))
    a, w = promote(a, w)
    a, w = to_float(a), to_float(w)
    scale = r.sum(w, axis=axis, keepdims=keepdims)
    avg = m.true_divide(r.sum(m.multiply(a, w), axis=axis, keepdims=keepdims), scale)
    return (avg, broadcast_to(scale, avg.shape)) if returned else avg


def ptp(a, axis=None, out=None, keepdims=False):
    return m.subtract(r.max(a, axis=axis, keepdims=keepdims), r.min(a, axis=axis, keepdims=keepdims))


def cov(m_, y=None, rowvar=True, bias=False, ddof=None, fweights=None, aweights=None):
    from .linalg import matmul
    from .shapes import concatenate, transpose
    if fweights is not None or aweights is not None:
        raise NotImplementedError("cov with fweights/aweights is not supported")
    x = to_float(asarray(m_))
    if x.ndim > 2:
        raise ValueError("cov: m has more than 2 dimensions")
    x = reshape(x, (1, -1)) if x.ndim < 2 else x
    if not rowvar and x.shape[0] != 1:
        x = transpose(x)
    if y is not None:
        yv = to_float(asarray(y))
        yv = reshape(yv, (1, -1)) if yv.ndim < 2 else yv
        if not rowvar and yv.shape[0] != 1:
            yv = transpose(yv)
        x = concatenate([x, yv], 0)
    n = x.shape[1]
    ddof = (0 if bias else 1) if ddof is None else int(ddof)
    centered = m.subtract(x, r.mean(x, axis=1, keepdims=True))
    c = m.true_divide(matmul(centered, transpose(centered)), float(max(n - ddof, 0)))
    return reshape(c, ()) if c.shape == (1, 1) else c


def corrcoef(x, y=None, rowvar=True):
    from .selection import diagonal
    c = cov(x, y, rowvar)
    if c.ndim == 0:
        return m.true_divide(c, c)
    d = m.sqrt(diagonal(c))
    c = m.true_divide(m.true_divide(c, reshape(d, (-1, 1))), reshape(d, (1, -1)))
    return m.clip(c, -1.0, 1.0)


def _scatter_add(length: int, index: Tracer, values: Tracer) -> Tracer:
    out = constant(np.zeros((length,), values.dtype))
    if index.size == 0 or length == 0:
        return out
    return wrap(emit(hlo.scatter, out.value, reshape(index, (index.size, 1)).value, ravel(values).value,
                     update_window_dims=[], inserted_window_dims=[0], scatter_dims_to_operand_dims=[0],
                     index_vector_dim=1, kind="add"))


def bincount(x, weights=None, minlength=0, *, length=None):
    x = asarray(x)
    if x.ndim != 1:
        raise ValueError("bincount only accepts 1-D arrays")
    if x.dtype.kind not in "iub":
        raise TypeError(f"bincount: x must be integers, got {x.dtype}")
    if length is None:
        if isinstance(minlength, (int, np.integer)) and minlength > 0:
            length = int(minlength)
        else:
            raise ValueError("bincount: the result's length depends on the data; pass length=N "
                             "(a static bound; larger values are dropped)")
    length = max(int(length), int(minlength))
    w = asarray(weights) if weights is not None else constant(np.ones((), DEFAULT_INT))
    w = broadcast_to(w, x.shape)
    return _scatter_add(length, m.maximum(astype(x, DEFAULT_INT if x.dtype.itemsize < 8 else np.int64), 0), w)


def histogram_bin_edges(a, bins=10, range=None, weights=None):  # noqa: A002 - numpy's name
    a = to_float(asarray(a))
    if not isinstance(bins, (int, np.integer)):
        edges = to_float(asarray(bins))
        if edges.ndim != 1:
            raise ValueError("histogram: bins must be an integer or a 1-D array of edges")
        return edges
    bins = int(bins)
    if bins < 1:
        raise ValueError("histogram: `bins` must be positive")
    if range is None:
        if a.size == 0:
            lo, hi = constant(np.asarray(0.0, a.dtype)), constant(np.asarray(1.0, a.dtype))
        else:
            lo, hi = r.min(a), r.max(a)
    else:
        lo, hi = (astype(asarray(v), a.dtype) for v in range)
    same = m.equal(lo, hi)
    lo, hi = m.where(same, m.subtract(lo, 0.5), lo), m.where(same, m.add(hi, 0.5), hi)
    from .creation import arange
    steps = astype(arange(bins + 1), a.dtype)
    edges = m.add(lo, m.multiply(steps, m.true_divide(m.subtract(hi, lo), float(bins))))
    last = m.equal(steps, float(bins))
    return m.where(last, hi, edges)


def _uniform_bin(flat, edges, nb: int):
    """The bin of each element among nb equal bins (numpy's way): (x - lo) * nb / (hi - lo)
    rounded down, then moved by one where rounding put it beside the edges that hold it."""
    from .selection import take
    lo, hi = edges[0], edges[nb]
    position = m.multiply(m.subtract(flat, lo), m.true_divide(float(nb), m.subtract(hi, lo)))
    position = m.where(m.isnan(position), 0.0, position)  # (NaN is dropped below; no NaN index)
    index = astype(m.clip(m.floor(position), 0, nb - 1), DEFAULT_INT)
    index = m.subtract(index, astype(m.less(flat, take(edges, index)), DEFAULT_INT))
    above = m.logical_and(m.greater_equal(flat, take(edges, m.add(index, 1))), m.not_equal(index, nb - 1))
    return m.add(index, astype(above, DEFAULT_INT))


def histogram(a, bins=10, range=None, weights=None, density=None):  # noqa: A002
    """(counts, bin_edges) with a static number of bins. Equal bins (an integer `bins`): each
    element's bin by arithmetic (_uniform_bin); given edges: by binary search."""
    from .sorting import searchsorted
    a = to_float(asarray(a))
    edges = histogram_bin_edges(a, bins, range, weights)
    flat = ravel(a)
    nb = edges.shape[0] - 1
    if isinstance(bins, (int, np.integer)):
        index = _uniform_bin(flat, edges, nb)
    else:
        index = m.subtract(searchsorted(edges, flat, side="right"), 1)
        index = m.where(m.equal(flat, edges[nb]), nb - 1, index)  # the last edge closes the last bin
    outside = m.logical_or(m.logical_or(m.less(flat, edges[0]), m.greater(flat, edges[nb])), m.isnan(flat))
    index = m.where(outside, nb, index)  # dropped
    w = ravel(broadcast_to(asarray(weights), a.shape)) if weights is not None else m.add(m.multiply(flat, 0), 1)
    counts = _scatter_add(nb + 1, index, w)
    counts = counts[:nb]
    if density:
        widths = m.subtract(edges[1:], edges[:-1])
        counts = m.true_divide(m.true_divide(counts, widths), r.sum(counts))
    return counts, edges


def interp(x, xp, fp, left=None, right=None, period=None):
    from .sorting import searchsorted
    from .selection import take
    if period is not None:
        raise NotImplementedError("interp(period=...) is not supported")
    x, xp, fp = to_float(asarray(x)), to_float(asarray(xp)), to_float(asarray(fp))
    if xp.ndim != 1 or fp.ndim != 1 or xp.shape != fp.shape or xp.shape[0] == 0:
        raise ValueError("interp: xp and fp must be 1-D sequences of the same nonzero length")
    n = xp.shape[0]
    i = m.clip(searchsorted(xp, x, side="right"), 1, max(n - 1, 1))
    if n == 1:
        out = m.add(m.multiply(x, 0), fp[0])
    else:
        x0, x1 = take(xp, m.subtract(i, 1)), take(xp, i)
        f0, f1 = take(fp, m.subtract(i, 1)), take(fp, i)
        dx = m.subtract(x1, x0)
        out = m.add(f0, m.multiply(m.true_divide(m.subtract(x, x0), m.where(m.equal(dx, 0), 1.0, dx)),
                                   m.subtract(f1, f0)))
        out = m.where(m.equal(dx, 0), f1, out)
    left = fp[0] if left is None else left
    right = fp[n - 1] if right is None else right
    out = m.where(m.less(x, xp[0]), left, out)
    return m.where(m.greater(x, xp[n - 1]), right, out)


__all__ = ["average", "ptp", "cov", "corrcoef", "bincount", "histogram_bin_edges", "histogram", "interp"]
