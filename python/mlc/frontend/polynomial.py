"""Polynomials given by their coefficients, highest power first (numpy's order)."""

from __future__ import annotations

from . import math as m
from .core import asarray


def polyval(p, x, *, unroll=16):
    """p[0] x^(n-1) + ... + p[n-1] by Horner's rule, n multiply-adds (unrolled: the number
    of coefficients is static; `unroll` is accepted for jnp.polyval's signature)."""
    p, x = asarray(p), asarray(x)
    if p.ndim != 1:
        raise ValueError(f"polyval: p must be one-dimensional, got shape {p.shape}")
    y = m.multiply(x, 0)  # (the types promote as the multiply-adds combine p with x)
    for i in range(p.shape[0]):
        y = m.add(m.multiply(y, x), p[i])
    return y
