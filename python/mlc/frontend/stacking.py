"""Joining and arranging arrays: vstack/hstack/dstack/column_stack and atleast_Nd
(reshapes + concatenate), roll (two slices concatenated; a gather at (i - shift) mod n for
a traced shift), meshgrid (broadcasts), rot90/fliplr/flipud (flips and transposes),
tri/identity/empty (creation by iota comparison or constants)."""

from __future__ import annotations

import numpy as np

from . import math as m
from .core import DEFAULT_FLOAT, asarray, broadcast_to
from .reductions import normalize_axes
from .shapes import concatenate, flip, ravel, reshape, swapaxes
from .tracing import Tracer


def _each(arrays, fn):
    out = [fn(asarray(a)) for a in arrays]
    return out[0] if len(out) == 1 else out


def atleast_1d(*arys):
    return _each(arys, lambda a: reshape(a, (1,)) if a.ndim == 0 else a)


def atleast_2d(*arys):
    return _each(arys, lambda a: reshape(a, (1,) * (2 - a.ndim) + a.shape) if a.ndim < 2 else a)


def atleast_3d(*arys):
    def three(a):
        if a.ndim == 0:
            return reshape(a, (1, 1, 1))
        if a.ndim == 1:
            return reshape(a, (1, a.shape[0], 1))
        if a.ndim == 2:
            return reshape(a, a.shape + (1,))
        return a
    return _each(arys, three)


def _listed(tup, name):
    if isinstance(tup, Tracer):
        return [tup[i] for i in range(tup.shape[0])]
    if not isinstance(tup, (list, tuple)):
        raise TypeError(f"{name} expects a sequence of arrays")
    return list(tup)


def vstack(tup, dtype=None):
    arrays = [atleast_2d(a) for a in _listed(tup, "vstack")]
    return _cast(concatenate(arrays, 0), dtype)


def hstack(tup, dtype=None):
    arrays = [atleast_1d(a) for a in _listed(tup, "hstack")]
    return _cast(concatenate(arrays, 0 if arrays and arrays[0].ndim == 1 else 1), dtype)


def dstack(tup, dtype=None):
    arrays = [atleast_3d(a) for a in _listed(tup, "dstack")]
    return _cast(concatenate(arrays, 2), dtype)


def column_stack(tup):
    arrays = [asarray(a) for a in _listed(tup, "column_stack")]
    arrays = [reshape(a, (-1, 1)) if a.ndim < 2 else a for a in arrays]
    return concatenate(arrays, 1)


def _cast(x, dtype):
    from .core import astype
    return x if dtype is None else astype(x, dtype)


def roll(a, shift, axis=None):
    """Elements shifted by `shift` along axis (flattened when None), wrapping around."""
    x = asarray(a)
    if axis is None:
        return reshape(roll(ravel(x), shift, 0), x.shape)
    axes = normalize_axes(axis, x.ndim)
    shifts = shift if isinstance(shift, (tuple, list)) else [shift] * len(axes)
    if len(shifts) != len(axes):
        raise ValueError("roll: shift and axis must have the same length")
    for ax, s in zip(axes, shifts):
        x = _roll_one(x, s, ax)
    return x


def _roll_one(x, shift, axis):
    from .indexing import getitem
    n = x.shape[axis]
    if n == 0:
        return x
    if isinstance(shift, Tracer):
        from .creation import arange
        from .selection import take
        index = m.remainder(m.subtract(arange(n), shift), n)
        return take(x, index, axis=axis)
    k = int(shift) % n
    if k == 0:
        return x
    lead = (slice(None),) * axis
    return concatenate([getitem(x, lead + (slice(n - k, None),)), getitem(x, lead + (slice(0, n - k),))], axis)


def meshgrid(*xi, copy=True, sparse=False, indexing="xy"):
    """Coordinate arrays from 1-D xi; 'xy' swaps the first two output axes (numpy)."""
    if indexing not in ("xy", "ij"):
        raise ValueError(f"Valid values for indexing are 'xy' and 'ij', got {indexing!r}")
    arrays = [ravel(asarray(x)) for x in xi]
    ndim = len(arrays)
    shape = [a.shape[0] for a in arrays]
    if indexing == "xy" and ndim > 1:
        shape[0], shape[1] = shape[1], shape[0]
    out = []
    for i, a in enumerate(arrays):
        position = i
        if indexing == "xy" and ndim > 1 and i < 2:
            position = 1 - i
        s = [1] * ndim
        s[position] = a.shape[0]
        g = reshape(a, tuple(s))
        out.append(g if sparse else broadcast_to(g, tuple(shape)))
    return out


def fliplr(m_):
    return flip(m_, 1)


def flipud(m_):
    return flip(m_, 0)


def rot90(m_, k=1, axes=(0, 1)):
    x = asarray(m_)
    a0, a1 = normalize_axes(axes, x.ndim)
    k = int(k) % 4
    if k == 0:
        return x
    if k == 2:
        return flip(flip(x, a0), a1)
    if k == 1:
        return swapaxes(flip(x, a1), a0, a1)
    return flip(swapaxes(x, a0, a1), a1)


def identity(n, dtype=None):
    from .creation import eye
    return eye(n, dtype=dtype or DEFAULT_FLOAT)


def tri(N, M=None, k=0, dtype=None):
    from .core import astype
    from .selection import _band
    M = N if M is None else M
    return astype(_band(int(N), int(M), int(k), "le"), dtype or DEFAULT_FLOAT)


def empty(shape, dtype=None):
    """Zeros: a compiled function has no uninitialized memory to give out (as JAX)."""
    from .creation import zeros
    return zeros(shape, dtype or DEFAULT_FLOAT)


def empty_like(prototype, dtype=None, shape=None):
    from .creation import zeros
    p = asarray(prototype)
    return zeros(p.shape if shape is None else shape, dtype or p.dtype)


def ndim(a) -> int:
    return a.ndim if isinstance(a, Tracer) else np.ndim(a)


def shape(a) -> tuple:
    return a.shape if isinstance(a, Tracer) else np.shape(a)


def size(a, axis=None) -> int:
    s = shape(a)
    return int(np.prod(s, dtype=np.int64)) if axis is None else s[axis]


__all__ = ["atleast_1d", "atleast_2d", "atleast_3d", "vstack", "hstack", "dstack", "column_stack", "roll",
           "meshgrid", "fliplr", "flipud", "rot90", "identity", "tri", "empty", "empty_like", "ndim",
           "shape", "size"]
