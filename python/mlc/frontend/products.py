"""Products of whole arrays, as broadcasts and multiplies or one dot_general:

    outer(a, b)    = ravel(a)[:, None] * ravel(b)[None, :]
    inner(a, b)    = tensordot(a, b, axes=(-1, -1))      (a product when either is 0-d)
    kron(a, b)     = (a[:, None, :, None] * b[None, :, None, :]) merged pairwise (any rank)
    cross(a, b)    = the 3-vector cross product along the given axes (2-vectors: z only)
    vdot(a, b)     = sum(ravel(a) * ravel(b))
"""

from __future__ import annotations

from . import math as m
from .core import asarray, broadcast_arrays
from .linalg import tensordot
from .reductions import normalize_axes, sum as reduce_sum
from .shapes import moveaxis, ravel, reshape


def outer(a, b, out=None):
    a, b = ravel(asarray(a)), ravel(asarray(b))
    return m.multiply(reshape(a, (-1, 1)), reshape(b, (1, -1)))


def inner(a, b):
    a, b = asarray(a), asarray(b)
    if a.ndim == 0 or b.ndim == 0:
        return m.multiply(a, b)
    if a.shape[-1] != b.shape[-1]:
        raise ValueError(f"inner: last dimensions differ: {a.shape} and {b.shape}")
    return tensordot(a, b, ((a.ndim - 1,), (b.ndim - 1,)))


def vdot(a, b):
    return reduce_sum(m.multiply(ravel(asarray(a)), ravel(asarray(b))))


def kron(a, b):
    a, b = asarray(a), asarray(b)
    nd = max(a.ndim, b.ndim)
    a = reshape(a, (1,) * (nd - a.ndim) + a.shape)
    b = reshape(b, (1,) * (nd - b.ndim) + b.shape)
    a_shape, b_shape = [], []
    for s, t in zip(a.shape, b.shape):
        a_shape += [s, 1]
        b_shape += [1, t]
    product = m.multiply(reshape(a, tuple(a_shape)), reshape(b, tuple(b_shape)))
    return reshape(product, tuple(s * t for s, t in zip(a.shape, b.shape)))


def cross(a, b, axisa=-1, axisb=-1, axisc=-1, axis=None):
    from .shapes import stack
    a, b = asarray(a), asarray(b)
    if axis is not None:
        axisa = axisb = axisc = axis
    a = moveaxis(a, normalize_axes(axisa, a.ndim)[0], -1)
    b = moveaxis(b, normalize_axes(axisb, b.ndim)[0], -1)
    if a.shape[-1] not in (2, 3) or b.shape[-1] not in (2, 3):
        raise ValueError("incompatible dimensions for cross product (dimension must be 2 or 3)")
    ax = [a[..., i] for i in range(a.shape[-1])]
    bx = [b[..., i] for i in range(b.shape[-1])]
    if len(ax) == 2 and len(bx) == 2:
        return m.subtract(m.multiply(ax[0], bx[1]), m.multiply(ax[1], bx[0]))
    zero = m.multiply(ax[0], 0)
    ax = ax + [zero] * (3 - len(ax))
    bx = bx + [m.multiply(bx[0], 0)] * (3 - len(bx))
    c = [m.subtract(m.multiply(ax[1], bx[2]), m.multiply(ax[2], bx[1])),
         m.subtract(m.multiply(ax[2], bx[0]), m.multiply(ax[0], bx[2])),
         m.subtract(m.multiply(ax[0], bx[1]), m.multiply(ax[1], bx[0]))]
    c = broadcast_arrays(*c)
    out = stack(c, axis=-1)
    return moveaxis(out, -1, normalize_axes(axisc, out.ndim)[0])


__all__ = ["outer", "inner", "vdot", "kron", "cross"]
