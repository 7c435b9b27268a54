"""Selecting elements by position: take, take_along_axis (gathers through numpy-style
integer-array indexing), diagonal/diag/trace, tril/triu (an iota comparison and a select),
unravel_index/ravel_multi_index (integer arithmetic), and the data-dependent selections
argwhere/nonzero/flatnonzero, which need a static `size` (a cumulative count of the
hits gives each hit its output slot, then a scatter writes it there).

Out-of-bounds indices follow JAX's `mode`: "fill" (the default: NaN for floats, the
smallest value for signed integers, the largest for unsigned, True for bools), "clip",
or "wrap"; negative indices in [-n, 0) count from the end first.
"""

from __future__ import annotations

import numpy as np

from ..dialects import hlo
from . import math as m
from .core import DEFAULT_INT, asarray, astype, broadcast_to, constant, element_type, wrap
from .indexing import getitem
from .reductions import normalize_axes
from .shapes import moveaxis, ravel, reshape
from .tracing import Tracer, emit


def _axis(axis, ndim) -> int:
    return normalize_axes(axis, ndim)[0] if ndim else 0


def _fill_value(dtype: np.dtype, fill_value):
    if fill_value is not None:
        return fill_value
    if dtype.kind == "f":
        return np.nan
    if dtype.kind == "b":
        return True
    info = np.iinfo(dtype)
    return info.min if dtype.kind == "i" else info.max


def _indices(indices) -> Tracer:
    indices = asarray(indices)
    if indices.dtype.kind not in "iu":
        raise TypeError(f"indices must be integers, got {indices.dtype}")
    return indices


def _normalized(indices: Tracer, n: int, mode: str):
    """(indices in [0, n) under `mode`, the in-bounds mask or None)."""
    if mode not in ("fill", "clip", "wrap"):
        raise ValueError(f"mode must be one of 'fill', 'clip' or 'wrap', got {mode!r}")
    if indices.dtype.kind == "u":
        indices = astype(indices, np.int64 if indices.dtype.itemsize >= 4 else DEFAULT_INT)
    if mode == "wrap":
        return (m.remainder(indices, n) if n else indices), None
    if mode == "clip":
        return m.clip(indices, 0, max(n - 1, 0)), None
    valid = m.logical_and(m.greater_equal(indices, -n), m.less(indices, n))
    return m.where(m.less(indices, 0), m.add(indices, n), indices), valid


def _filled(values: Tracer, valid, fill_value) -> Tracer:
    if valid is None:
        return values
    fill = np.asarray(_fill_value(values.dtype, fill_value)).astype(values.dtype)
    return m.where(valid, values, constant(fill))


def take(a, indices, axis=None, mode=None, fill_value=None, unique_indices=False, indices_are_sorted=False):
    """jnp.take: a[..., indices, ...] along `axis` (a flattened when None)."""
    a, indices = asarray(a), _indices(indices)
    if axis is None:
        a, axis = ravel(a), 0
    axis = _axis(axis, a.ndim)
    if a.ndim == 0:
        raise ValueError("take: the array must have at least one dimension")
    n = a.shape[axis]
    idx, valid = _normalized(indices, n, mode or "fill")
    if n == 0:
        if valid is not None and indices.size:
            shape = a.shape[:axis] + indices.shape + a.shape[axis + 1:]
            return constant(np.full(shape, _fill_value(a.dtype, fill_value), a.dtype))
        idx = m.multiply(idx, 0)
    out = getitem(a, (slice(None),) * axis + (idx,))
    if valid is not None:
        valid = reshape(valid, (1,) * axis + indices.shape + (1,) * (a.ndim - axis - 1))
        out = _filled(out, broadcast_to(valid, out.shape), fill_value)
    return out


def take_along_axis(arr, indices, axis=-1, mode=None, fill_value=None):
    """jnp.take_along_axis: out[i.., j, k..] = arr[i.., indices[i.., j, k..], k..]; the
    other dims of arr and indices broadcast."""
    arr, indices = asarray(arr), _indices(indices)
    if axis is None:
        if indices.ndim != 1:
            raise ValueError("take_along_axis with axis=None needs one-dimensional indices")
        arr, axis = ravel(arr), 0
    if arr.ndim != indices.ndim:
        raise ValueError(f"indices and arr must have the same number of dimensions; "
                         f"{indices.ndim} vs. {arr.ndim}")
    axis = _axis(axis, arr.ndim)
    shape = []
    for d, (s, t) in enumerate(zip(arr.shape, indices.shape)):
        if d == axis:
            shape.append(t)
        elif s == t or s == 1 or t == 1:
            shape.append(t if s == 1 else s)
        else:
            raise ValueError(f"take_along_axis: arr shape {arr.shape} and indices shape "
                             f"{indices.shape} do not broadcast outside axis {axis}")
    shape = tuple(shape)
    n = arr.shape[axis]
    idx, valid = _normalized(broadcast_to(indices, shape), n, mode or "fill")
    if 0 in shape:
        return constant(np.zeros(shape, arr.dtype))
    if n == 0:
        return constant(np.full(shape, _fill_value(arr.dtype, fill_value), arr.dtype))
    if all(s == t for d, (s, t) in enumerate(zip(arr.shape, shape)) if d != axis):
        # One gather batched over the other dims (as top_k's): each result element reads its
        # index and nothing else. As advanced indexing, every other dim needs an iota index
        # array, and the index vectors are concatenated in memory before the gather.
        rank = arr.ndim
        batch = [d for d in range(rank) if d != axis] or None
        column = reshape(idx, shape + (1,))
        out = emit(hlo.gather, arr.value, column.value, offset_dims=[], collapsed_slice_dims=[axis],
                   start_index_map=[axis], index_vector_dim=rank, slice_sizes=[1] * rank,
                   operand_batching_dims=batch, start_indices_batching_dims=batch)
        return _filled(wrap(out), valid, fill_value)
    index_dtype = idx.dtype
    items = []
    for d, s in enumerate(arr.shape):
        if d == axis:
            items.append(idx)
        elif s == 1:
            items.append(constant(np.zeros(shape, index_dtype)))
        else:
            items.append(wrap(emit(hlo.iota, list(shape), element_type(index_dtype), d)))
    return _filled(getitem(arr, tuple(items)), valid, fill_value)


def diagonal(a, offset=0, axis1=0, axis2=1):
    """The diagonal a[..., i, i + offset] of the axis1 x axis2 planes, as the last axis."""
    a = asarray(a)
    if a.ndim < 2:
        raise ValueError("diagonal requires an array of at least two dimensions")
    axis1, axis2 = _axis(axis1, a.ndim), _axis(axis2, a.ndim)
    if axis1 == axis2:
        raise ValueError("axis1 and axis2 cannot be the same")
    x = moveaxis(a, (axis1, axis2), (-2, -1))
    rows, cols = x.shape[-2:]
    offset = int(offset)
    n = max(0, min(rows, cols - offset) if offset >= 0 else min(rows + offset, cols))
    if n == 0:
        return constant(np.zeros(x.shape[:-2] + (0,), a.dtype))
    r = np.arange(n) + max(-offset, 0)
    c = np.arange(n) + max(offset, 0)
    return getitem(x, (Ellipsis, r.astype(np.int32), c.astype(np.int32)))


def diag(v, k=0):
    """A 1-D v placed on the k-th diagonal of a square matrix; a 2-D v's k-th diagonal."""
    v = asarray(v)
    k = int(k)
    if v.ndim == 2:
        return diagonal(v, k)
    if v.ndim != 1:
        raise ValueError("diag: input must be 1- or 2-d")
    n = v.shape[0] + abs(k)
    if n == 0:
        return constant(np.zeros((0, 0), v.dtype))
    from .shapes import pad
    padded = pad(v, (0, abs(k)))
    values = broadcast_to(reshape(padded, (n, 1) if k >= 0 else (1, n)), (n, n))
    return m.where(_band(n, n, k, "eq"), values, constant(np.zeros((), v.dtype)))


def _band(rows: int, cols: int, k: int, how: str) -> Tracer:
    """col - row == k ("eq"), <= k ("le") or >= k ("ge") over a rows x cols grid."""
    i = wrap(emit(hlo.iota, [rows, cols], element_type(DEFAULT_INT), 0))
    j = wrap(emit(hlo.iota, [rows, cols], element_type(DEFAULT_INT), 1))
    d = m.subtract(j, i)
    return {"eq": m.equal, "le": m.less_equal, "ge": m.greater_equal}[how](d, k)


def _triangle(x, k, how):
    x = asarray(x)
    if x.ndim < 2:
        raise ValueError(f"{'tril' if how == 'le' else 'triu'}: input array must be at least 2-d")
    mask = _band(x.shape[-2], x.shape[-1], int(k), how)
    return m.where(mask, x, constant(np.zeros((), x.dtype)))


def tril(m_, k=0):
    """The elements on and below the k-th diagonal (the last two axes), zeros elsewhere."""
    return _triangle(m_, k, "le")


def triu(m_, k=0):
    """The elements on and above the k-th diagonal (the last two axes), zeros elsewhere."""
    return _triangle(m_, k, "ge")


def trace(a, offset=0, axis1=0, axis2=1, dtype=None):
    from .reductions import sum as reduce_sum
    return reduce_sum(diagonal(a, offset, axis1, axis2), axis=-1, dtype=dtype)


def unravel_index(indices, shape):
    """The coordinates of flat indices in `shape` (a tuple of arrays); negative indices
    count from the end, and out-of-range ones are clipped into range, as JAX does."""
    indices = _indices(indices)
    shape = tuple(int(s) for s in shape)
    size = int(np.prod(shape, dtype=np.int64))
    if indices.dtype.kind == "u":
        indices = astype(indices, np.int64)
    flat = m.where(m.less(indices, 0), m.add(indices, size), indices)
    flat = m.clip(flat, 0, max(size - 1, 0))
    coords = []
    for s in reversed(shape):
        coords.append(m.remainder(flat, s) if s else flat)
        flat = m.floor_divide(flat, s) if s else flat
    return tuple(reversed(coords))


def ravel_multi_index(multi_index, dims, mode="raise", order="C"):
    """The flat index of coordinates in `dims` (row-major); mode "clip" or "wrap" as numpy
    ("raise" cannot check traced values: it clips, as JAX does)."""
    if order != "C":
        raise NotImplementedError("ravel_multi_index: only order='C' is supported")
    dims = tuple(int(d) for d in dims)
    if len(multi_index) != len(dims):
        raise ValueError(f"parameter multi_index must be a sequence of length {len(dims)}")
    flat = None
    for index, d in zip(multi_index, dims):
        index = _indices(index)
        index = m.remainder(index, d) if mode == "wrap" else m.clip(index, 0, d - 1)
        flat = index if flat is None else m.add(m.multiply(flat, d), index)
    return flat


def _need_size(name, size):
    if size is None:
        raise ValueError(f"{name}: the number of nonzero elements depends on the data, so the "
                         f"result has no static shape; pass size=N (a static bound; extra slots "
                         f"are filled with fill_value)")
    return int(size)


def _flat_positions(a: Tracer, size: int, fill_value) -> Tracer:
    """The flat positions of a's nonzero elements, in order, padded with fill_value to size."""
    from .reductions import cumsum
    hits = ravel(m.not_equal(a, constant(np.zeros((), a.dtype))))
    n = hits.shape[0]
    dtype = np.dtype(np.int64) if n > np.iinfo(np.int32).max else DEFAULT_INT
    fill = 0 if fill_value is None else fill_value
    out = constant(np.full((size,), fill, dtype))
    if n == 0 or size == 0:
        return out
    slot = m.subtract(cumsum(astype(hits, dtype)), 1)
    slot = m.where(hits, slot, size)  # misses go out of bounds: the scatter drops them
    positions = wrap(emit(hlo.iota, [n], element_type(dtype), 0))
    return wrap(emit(hlo.scatter, out.value, reshape(slot, (n, 1)).value, positions.value,
                     update_window_dims=[], inserted_window_dims=[0], scatter_dims_to_operand_dims=[0],
                     index_vector_dim=1, kind="set"))


def flatnonzero(a, *, size=None, fill_value=None):
    a = asarray(a)
    return _flat_positions(a, _need_size("flatnonzero", size), fill_value)


def nonzero(a, *, size=None, fill_value=None):
    """Per-axis indices of the nonzero elements (a tuple), padded to `size` with fill_value
    (a scalar, or one per axis)."""
    a = asarray(a)
    if a.ndim == 0:
        raise ValueError("Calling nonzero on 0d arrays is not allowed. Use jnp.atleast_1d(scalar) instead.")
    size = _need_size("nonzero", size)
    fills = fill_value if isinstance(fill_value, (tuple, list)) else [fill_value] * a.ndim
    flat = _flat_positions(a, size, -1)
    valid = m.greater_equal(flat, 0)
    coords = unravel_index(m.maximum(flat, 0), a.shape) if a.size else [flat] * a.ndim
    return tuple(m.where(valid, c, 0 if f is None else f) for c, f in zip(coords, fills))


def argwhere(a, *, size=None, fill_value=None):
    """The coordinates of the nonzero elements, one row each: shape (size, a.ndim)."""
    a = asarray(a)
    if a.ndim == 0:  # no coordinates to give: (size, 0)
        return constant(np.zeros((_need_size("argwhere", size), 0), DEFAULT_INT))
    return _stack_columns(nonzero(a, size=size, fill_value=fill_value))


def _stack_columns(coords):
    from .shapes import stack
    return stack(coords, axis=1)


def count_nonzero(a, axis=None, keepdims=False):
    from .reductions import sum as reduce_sum
    a = asarray(a)
    return reduce_sum(m.not_equal(a, constant(np.zeros((), a.dtype))), axis=axis, keepdims=keepdims)


__all__ = ["take", "take_along_axis", "diagonal", "diag", "tril", "triu", "trace", "unravel_index",
           "ravel_multi_index", "flatnonzero", "nonzero", "argwhere", "count_nonzero"]
