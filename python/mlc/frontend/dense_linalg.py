"""mlc.numpy.linalg for small dense matrices, batched over leading axes, composed from
elementwise ops, selects and reductions (no LAPACK call; the op table has none):

    det, slogdet : LU with partial pivoting, det = sign(P) * prod(pivots)
    solve, inv   : Gauss-Jordan with partial pivoting on [a | b] (inv: b = I)
    cholesky     : column by column, L[:, j] = (a[:, j] - L L[j, :]^T) / L[j, j] below j
    norm         : vector norms (2, 1, inf, -inf, 0, p) and matrix norms (fro, 1, -1, inf, -inf)

Each pivoting step uses masks compared against the step number k, so the same step runs
unrolled (n <= 16) or as an `scf.while` loop (lax.fori_loop; larger n), which keeps the
IR small. The pivot is the first largest |a[i, k]| for i >= k (LAPACK's choice). As in
JAX, a singular matrix gives inf/NaN instead of raising, and cholesky of a matrix that is
not positive definite gives NaN; only the lower triangle of its input is read.
"""

from __future__ import annotations

import numpy as np

from ..dialects import hlo
from . import math as m
from . import reductions as r
from .core import DEFAULT_INT, asarray, astype, broadcast_to, constant, element_type, to_float, wrap
from .shapes import concatenate, expand_dims, reshape
from .tracing import emit

_UNROLL = 16


def _square(a, name):
    a = to_float(asarray(a))
    if a.ndim < 2 or a.shape[-1] != a.shape[-2]:
        raise ValueError(f"{name}: the last two dimensions must be square, got shape {a.shape}")
    return a


def _iota(shape, dim):
    return wrap(emit(hlo.iota, list(shape), element_type(DEFAULT_INT), dim))


def _loop(n, step, state):
    if n <= _UNROLL:
        for k in range(n):
            state = step(k, state)
        return state
    from .lax import fori_loop
    return fori_loop(0, n, step, state)


def _column(x, k):
    """x[..., :, k] for a static or traced k, as (..., rows)."""
    cols = _iota(x.shape, x.ndim - 1)
    return r.sum(m.where(m.equal(cols, k), x, 0.0), axis=-1)


def _row(x, k):
    """x[..., k, :] for a static or traced k, as (..., cols)."""
    rows = _iota(x.shape, x.ndim - 2)
    return r.sum(m.where(m.equal(rows, k), x, 0.0), axis=-2)


def _pivot(x, k):
    """Rows k and p = argmax_{i >= k} |x[i, k]| swapped; returns (x, swapped?, pivot value)."""
    n = x.shape[-2]
    col = _column(x, k)
    index = _iota(col.shape, col.ndim - 1)
    p = r.argmax(m.where(m.greater_equal(index, k), m.abs(col), -1.0), axis=-1)
    p = reshape(p, p.shape + (1, 1))
    rows = _iota(x.shape, x.ndim - 2)
    row_k = expand_dims(_row(x, k), -2)
    row_p = expand_dims(r.sum(m.where(m.equal(rows, p), x, 0.0), axis=-2), -2)
    x = m.where(m.equal(rows, k), row_p, m.where(m.equal(rows, p), row_k, x))
    swapped = m.not_equal(reshape(p, p.shape[:-2]), k)
    return x, swapped, _column(row_p, k)[..., 0] if n else None


def _lu_step(k, state):
    x, sign, logabs, det = state
    x, swapped, pivot = _pivot(x, k)
    sign = m.where(swapped, m.negative(sign), sign)
    col = _column(x, k)
    index = _iota(col.shape, col.ndim - 1)
    factor = m.where(m.logical_and(m.greater(index, k), m.not_equal(expand_dims(pivot, -1), 0.0)),
                     m.true_divide(col, expand_dims(pivot, -1)), 0.0)
    x = m.subtract(x, m.multiply(expand_dims(factor, -1), expand_dims(_row(x, k), -2)))
    return x, sign, m.add(logabs, m.log(m.abs(pivot))), m.multiply(det, pivot)


def _lu(a):
    batch = a.shape[:-2]
    one = broadcast_to(constant(np.ones((), a.dtype)), batch)
    zero = broadcast_to(constant(np.zeros((), a.dtype)), batch)
    return _loop(a.shape[-1], _lu_step, (a, one, zero, one))


def det(a):
    a = _square(a, "det")
    _, sign, _, product = _lu(a)
    return m.multiply(sign, product)


def slogdet(a):
    """(sign, log|det|); sign 0 and log|det| -inf for a singular matrix."""
    a = _square(a, "slogdet")
    _, sign, logabs, product = _lu(a)
    singular = m.equal(product, 0.0)
    sign = m.multiply(sign, m.sign(product))  # the permutation's sign times the pivots' signs
    return m.where(singular, 0.0, sign), m.where(singular, -np.inf, logabs)


def _gauss_jordan_step(n):
    def step(k, x):
        x, _, pivot = _pivot(x, k)
        rows = _iota(x.shape, x.ndim - 2)
        row_k = m.true_divide(expand_dims(_row(x, k), -2), reshape(pivot, pivot.shape + (1, 1)))
        col = expand_dims(_column(x, k), -1)
        x = m.where(m.equal(rows, k), row_k, m.subtract(x, m.multiply(col, row_k)))
        return x
    return step


def solve(a, b):
    """x with a @ x = b; b is (..., n) (a vector per matrix, when b.ndim == a.ndim - 1 or
    b is 1-D) or (..., n, k)."""
    from .core import result_dtype
    a = _square(a, "solve")
    b = asarray(b)
    vector = b.ndim == 1 or b.ndim == a.ndim - 1
    if vector:
        b = expand_dims(b, -1)
    if b.shape[-2] != a.shape[-1]:
        raise ValueError(f"solve: a {a.shape} and b {b.shape} have incompatible shapes")
    dtype = result_dtype(a, b)
    a, b = astype(a, dtype), to_float(astype(b, dtype))
    a = astype(a, b.dtype)
    batch = np.broadcast_shapes(a.shape[:-2], b.shape[:-2])
    a = broadcast_to(a, batch + a.shape[-2:])
    b = broadcast_to(b, batch + b.shape[-2:])
    n = a.shape[-1]
    if n == 0:
        x = b
    else:
        augmented = concatenate([a, b], -1)
        done = _loop(n, _gauss_jordan_step(n), augmented)
        x = done[..., n:]
    return x[..., 0] if vector else x


def inv(a):
    a = _square(a, "inv")
    n = a.shape[-1]
    eye = m.equal(_iota((n, n), 0), _iota((n, n), 1))
    return solve(a, broadcast_to(astype(eye, a.dtype), a.shape))


def cholesky(a, *, upper=False, symmetrize_input=True):
    """Lower L with L L^T = a (upper=True: L^T); reads a's lower triangle."""
    from .shapes import swapaxes
    a = _square(a, "cholesky")
    n = a.shape[-1]

    def step(j, lower):
        row_j = expand_dims(_row(lower, j), -2)
        v = m.subtract(_column(a, j), r.sum(m.multiply(lower, row_j), axis=-1))
        index = _iota(v.shape, v.ndim - 1)
        diag = m.sqrt(r.sum(m.where(m.equal(index, j), v, 0.0), axis=-1, keepdims=True))
        col = m.where(m.greater(index, j), m.true_divide(v, diag), m.where(m.equal(index, j), diag, 0.0))
        cols = _iota(lower.shape, lower.ndim - 1)
        return m.where(m.equal(cols, j), expand_dims(col, -1), lower)

    lower = _loop(n, step, m.multiply(a, 0.0)) if n else a
    return swapaxes(lower, -1, -2) if upper else lower


def matrix_power(a, n: int):
    from .linalg import matmul
    a = _square(a, "matrix_power")
    n = int(n)
    if n < 0:
        a, n = inv(a), -n
    size = a.shape[-1]
    result = broadcast_to(astype(m.equal(_iota((size, size), 0), _iota((size, size), 1)), a.dtype), a.shape)
    base = a
    while n:
        if n & 1:
            result = matmul(result, base)
        n >>= 1
        if n:
            base = matmul(base, base)
    return result


def _vector_norm(x, ord, axis, keepdims):
    ax = m.abs(x)
    if ord is None or ord == 2:
        return m.sqrt(r.sum(m.multiply(ax, ax), axis=axis, keepdims=keepdims))
    if ord == np.inf:
        return r.max(ax, axis=axis, keepdims=keepdims)
    if ord == -np.inf:
        return r.min(ax, axis=axis, keepdims=keepdims)
    if ord == 0:
        return r.sum(astype(m.not_equal(x, 0.0), x.dtype), axis=axis, keepdims=keepdims)
    if ord == 1:
        return r.sum(ax, axis=axis, keepdims=keepdims)
    if isinstance(ord, str):
        raise ValueError(f"norm: invalid norm order {ord!r} for vectors")
    p = float(ord)
    return m.power(r.sum(m.power(ax, p), axis=axis, keepdims=keepdims), 1.0 / p)


def _matrix_norm(x, ord, axes, keepdims):
    row, col = axes
    ax = m.abs(x)
    if ord is None or ord == "fro":
        return m.sqrt(r.sum(m.multiply(ax, ax), axis=axes, keepdims=keepdims))
    if ord in (1, -1, np.inf, -np.inf):
        summed_axis, other = (row, col) if ord in (1, -1) else (col, row)
        sums = r.sum(ax, axis=summed_axis, keepdims=True)
        out = (r.max if ord in (1, np.inf) else r.min)(sums, axis=other, keepdims=True)
        return out if keepdims else reshape(out, [s for d, s in enumerate(x.shape) if d not in axes])
    if ord in ("nuc", 2, -2):
        raise NotImplementedError(f"norm(ord={ord!r}) needs singular values (an SVD), which MLC does not have")
    raise ValueError(f"norm: invalid norm order {ord!r} for matrices")


def norm(x, ord=None, axis=None, keepdims=False):
    x = to_float(asarray(x))
    if axis is None:
        if ord is None:
            flat = reshape(x, (-1,))
            out = _vector_norm(flat, None, 0, False)
            return reshape(out, (1,) * x.ndim) if keepdims else out
        axes = tuple(range(x.ndim))
    else:
        axes = r.normalize_axes(axis, x.ndim)
    if len(axes) == 1:
        return _vector_norm(x, ord, axes, keepdims)
    if len(axes) == 2:
        return _matrix_norm(x, ord, axes, keepdims)
    raise ValueError(f"norm: improper number of dimensions to norm ({len(axes)})")


__all__ = ["det", "slogdet", "solve", "inv", "cholesky", "matrix_power", "norm"]
