"""Order statistics on hlo.sort / hlo.argsort (the op table's: stable merge sort, NaN
last ascending, NaN first descending): sort, argsort, searchsorted, quantile and its
relatives (median, percentile, the nan- forms), and lax.top_k.

    quantile(a, q) = lerp(s[floor(p)], s[ceil(p)], p - floor(p)), p = q (n - 1),
                     s = sort(a) along the axis (numpy's "linear" method; NaN if the slice
                     has a NaN)
    nanquantile    = the same with n = the count of non-NaN values per slice (sort puts the
                     NaNs last, so s[:count] are the values)
    searchsorted   = the count of a[i] < v ("left") or a[i] <= v ("right") in NaN-last order
                     (a compare against every element, then a sum)
    top_k(x, k)    = the first k of a descending stable argsort: ties keep the lower index
"""

from __future__ import annotations

import numpy as np

from ..dialects import hlo
from . import math as m
from .core import DEFAULT_INT, asarray, astype, constant, element_type, to_float, wrap
from .reductions import normalize_axes
from .shapes import moveaxis, ravel, reshape
from .tracing import emit


def _axis_last(a, axis):
    """(a with the reduced axes merged into one last axis, the reduced axes)."""
    if axis is None:
        return ravel(a), tuple(range(a.ndim))
    axes = normalize_axes(axis, a.ndim)
    x = moveaxis(a, axes, tuple(range(a.ndim - len(axes), a.ndim)))
    keep = x.shape[:a.ndim - len(axes)]
    return reshape(x, keep + (int(np.prod([a.shape[d] for d in axes], dtype=np.int64)),)), axes


def sort(a, axis=-1, *, kind=None, order=None, stable=True, descending=False):
    """Ascending (NaN last) or descending (NaN first), along axis (a flattened if None)."""
    if order is not None:
        raise ValueError("sort: 'order' (structured arrays) is not supported")
    a = asarray(a)
    if axis is None:
        a, axis = ravel(a), 0
    if a.ndim == 0:
        return a
    (axis,) = normalize_axes(axis, a.ndim)
    if a.size == 0:
        return a
    return wrap(emit(hlo.sort, a.value, axis, bool(descending)))


def argsort(a, axis=-1, *, kind=None, order=None, stable=True, descending=False):
    """Stable indices (int32) that sort a; equal elements keep their order either way."""
    if order is not None:
        raise ValueError("argsort: 'order' (structured arrays) is not supported")
    a = asarray(a)
    if axis is None:
        a, axis = ravel(a), 0
    if a.ndim == 0:
        return constant(np.zeros((), DEFAULT_INT))
    (axis,) = normalize_axes(axis, a.ndim)
    if a.size == 0:
        return constant(np.zeros(a.shape, DEFAULT_INT))
    return wrap(emit(hlo.argsort, a.value, axis, bool(descending), element_type(DEFAULT_INT)))


def _nan_last_less(x, y):
    """x < y in numpy's sort order, where NaN is larger than everything."""
    if x.dtype.kind != "f":
        return m.less(x, y)
    return m.logical_or(m.less(x, y), m.logical_and(m.isnan(y), m.logical_not(m.isnan(x))))


def searchsorted(a, v, side="left", sorter=None, *, method="scan"):
    """Where v's elements go in the sorted 1-D a to keep it sorted (int32). method "scan"
    (JAX's default) is a binary search, one gather per bit of n (_binary_search);
    "compare_all" compares every v with every a (n x m work, no gathers)."""
    if method not in ("scan", "compare_all", "scan_unrolled", "sort"):
        raise ValueError(f"searchsorted: method must be 'scan' or 'compare_all', got {method!r}")
    from .core import promote
    from .reductions import sum as reduce_sum
    from .shapes import expand_dims
    if side not in ("left", "right"):
        raise ValueError(f"side must be 'left' or 'right', got {side!r}")
    a = asarray(a)
    if a.ndim != 1:
        raise ValueError(f"searchsorted: a must be one-dimensional, got shape {a.shape}")
    if sorter is not None:
        from .selection import take
        a = take(a, sorter, mode="clip")
    a, v = asarray(a), asarray(v)
    dtype = np.dtype(np.result_type(a.dtype, v.dtype)) if not v.weak else a.dtype
    a, v = astype(a, dtype), astype(v, dtype)
    if a.shape[0] == 0:
        return constant(np.zeros(v.shape, DEFAULT_INT))
    if method != "compare_all":
        return _binary_search(a, v, side)
    ae = reshape(a, (1,) * v.ndim + a.shape)
    ve = expand_dims(v, -1)
    ae, ve = promote(ae, ve)
    before = _nan_last_less(ae, ve) if side == "left" else m.logical_not(_nan_last_less(ve, ae))
    return reduce_sum(astype(before, DEFAULT_INT), axis=-1)


def _binary_search(a, v, side):
    """The count of a's elements before v ("left") or not after it ("right"). a is sorted,
    so they are a prefix; its length is found a bit at a time, from the highest power of
    two <= n down: pos + step is taken while a[pos + step - 1] still comes before v.

    One gather, compare and select per step (the [lo, hi) halving it replaced took ten
    ops a step: a search of 10^5 elements traced 17 steps into a 170-op fusion, most of
    its 0.4 s first call)."""
    from .core import broadcast_to
    from .selection import take
    n = int(a.shape[0])
    pos = broadcast_to(constant(np.zeros((), DEFAULT_INT)), v.shape)
    step, reach = 1 << (n.bit_length() - 1), 0  # reach: the largest pos can be so far
    while step:
        probe = take(a, m.add(pos, step - 1), mode="clip")  # (clipped only where the bound below fails)
        before = _nan_last_less(probe, v) if side == "left" else m.logical_not(_nan_last_less(v, probe))
        taken = m.add(pos, step)
        if reach + step > n:  # pos + step may pass the end
            before = m.logical_and(before, m.less_equal(taken, n))
        pos = m.where(before, taken, pos)
        reach, step = reach + step, step >> 1
    return pos


def digitize(x, bins, right=False):
    """The bin of each x: searchsorted(bins, x, 'left' if right else 'right') (increasing bins)."""
    return searchsorted(bins, x, side="left" if right else "right")


_METHODS = ("linear", "lower", "higher", "midpoint", "nearest")


def _lerp(lo, hi, t):
    """numpy's _lerp: a + (b - a) t, from the other end when t >= 0.5 (exact at t = 1)."""
    diff = m.subtract(hi, lo)
    return m.where(m.greater_equal(t, 0.5), m.subtract(hi, m.multiply(diff, m.subtract(1.0, t))),
                   m.add(lo, m.multiply(diff, t)))


def _quantile(a, q, axis, method, keepdims, skip_nan: bool, name: str):
    from .reductions import any as reduce_any, sum as reduce_sum
    from .selection import take_along_axis
    if method not in _METHODS:
        raise ValueError(f"{name}: method must be one of {_METHODS}, got {method!r}")
    a = to_float(asarray(a))
    q = astype(asarray(q), a.dtype)
    x, axes = _axis_last(a, axis)
    batch, n = x.shape[:-1], x.shape[-1]
    s = sort(x, -1) if n else x
    qflat = reshape(q, (-1,))
    nq = qflat.shape[0]
    if skip_nan:
        count = reduce_sum(m.logical_not(m.isnan(x)), axis=-1, keepdims=True)  # (batch, 1)
        count = astype(count, a.dtype)
    else:
        count = constant(np.asarray(float(n), a.dtype))
    last = m.subtract(count, 1.0)
    pos = m.multiply(reshape(qflat, (1,) * len(batch) + (nq,)), last)  # (batch or 1s, nq)
    pos = m.clip(pos, 0.0, m.maximum(last, 0.0))
    lo_f, hi_f = m.floor(pos), m.ceil(pos)
    if n == 0:
        out = constant(np.full(batch + (nq,), np.nan, a.dtype))
    else:
        from .core import broadcast_to
        shape = batch + (nq,)

        def pick(p):
            return take_along_axis(s, broadcast_to(astype(p, DEFAULT_INT), shape), axis=-1)
        lo, hi = pick(lo_f), pick(hi_f)
        if method == "linear":
            out = _lerp(lo, hi, m.subtract(pos, lo_f))
        elif method == "lower":
            out = lo
        elif method == "higher":
            out = hi
        elif method == "midpoint":
            out = m.multiply(m.add(lo, hi), 0.5)
        else:
            out = pick(m.rint(pos))
        if skip_nan:
            out = m.where(m.equal(count, 0), np.nan, out)
        else:
            out = m.where(reduce_any(m.isnan(x), axis=-1, keepdims=True), np.nan, out)
    out = moveaxis(out, -1, 0)  # numpy's order: q's dims first
    if keepdims:
        kept = [1 if d in axes else size for d, size in enumerate(a.shape)]
        out = reshape(out, (nq,) + tuple(kept))
    return reshape(out, q.shape + out.shape[1:])


def quantile(a, q, axis=None, out=None, overwrite_input=False, method="linear", keepdims=False, *,
             interpolation=None):
    return _quantile(a, q, axis, interpolation or method, keepdims, False, "quantile")


def nanquantile(a, q, axis=None, out=None, overwrite_input=False, method="linear", keepdims=False, *,
                interpolation=None):
    return _quantile(a, q, axis, interpolation or method, keepdims, True, "nanquantile")


def percentile(a, q, axis=None, out=None, overwrite_input=False, method="linear", keepdims=False, *,
               interpolation=None):
    return quantile(a, m.true_divide(q, 100.0), axis, method=interpolation or method, keepdims=keepdims)


def nanpercentile(a, q, axis=None, out=None, overwrite_input=False, method="linear", keepdims=False, *,
                  interpolation=None):
    return nanquantile(a, m.true_divide(q, 100.0), axis, method=interpolation or method, keepdims=keepdims)


def median(a, axis=None, out=None, overwrite_input=False, keepdims=False):
    """The middle value (the mean of the two middle ones for an even count); NaN if any is NaN."""
    return quantile(a, 0.5, axis, method="midpoint", keepdims=keepdims)


def nanmedian(a, axis=None, out=None, overwrite_input=False, keepdims=False):
    return nanquantile(a, 0.5, axis, method="midpoint", keepdims=keepdims)


def unique(ar, return_index=False, return_inverse=False, return_counts=False, axis=None, *, equal_nan=True,
           size=None, fill_value=None):
    """The sorted distinct values of ar (flattened), in `size` slots (a static bound:
    extra slots take fill_value, default the smallest value; values past size are
    dropped). From a stable sort s: a value starts a group where s[i] != s[i - 1] (NaNs
    are one group with equal_nan); the running count of starts is its slot; scatters
    write the values, first indices (return_index), counts (return_counts); the inverse
    maps each element back to its slot (ar's shape, as numpy 2)."""
    from .reductions import cumsum
    from .selection import _need_size
    from .shapes import concatenate
    from .statistics import _scatter_add
    if axis is not None:
        raise NotImplementedError("unique(axis=...) is not supported")
    x = asarray(ar)
    size = _need_size("unique", size)
    flat = ravel(x)
    n = flat.shape[0]
    extras = []
    if n == 0:
        values = constant(np.zeros((size,), x.dtype))
        extras = [constant(np.zeros((size,), DEFAULT_INT)) for f in (return_index, return_counts) if f]
        if return_inverse:
            extras.insert(int(bool(return_index)), constant(np.zeros(x.shape, DEFAULT_INT)))
        return (values, *extras) if extras else values
    order = argsort(flat)
    s = sort(flat)
    differs = m.not_equal(s[1:], s[:-1])
    if equal_nan and x.dtype.kind == "f":
        differs = m.logical_and(differs, m.logical_not(m.logical_and(m.isnan(s[1:]), m.isnan(s[:-1]))))
    first = concatenate([constant(np.ones((1,), np.bool_)), differs])
    slot = m.subtract(cumsum(astype(first, DEFAULT_INT)), 1)
    target = m.where(first, slot, size)  # non-starts go out of bounds: dropped
    fill = s[0] if fill_value is None else astype(asarray(fill_value), x.dtype)
    values = _scatter_set(m.add(constant(np.zeros((size,), x.dtype)), fill), target, s)
    if return_index:
        extras.append(_scatter_set(constant(np.zeros((size,), DEFAULT_INT)), target, order))
    if return_inverse:
        inverse = _scatter_set(constant(np.zeros((n,), DEFAULT_INT)), order, slot)
        extras.append(reshape(inverse, x.shape))
    if return_counts:
        extras.append(_scatter_add(size, slot, constant(np.ones((n,), DEFAULT_INT))))
    return (values, *extras) if extras else values


def _scatter_set(out, index, values):
    from ..dialects import hlo as _hlo
    n = index.shape[0]
    return wrap(emit(_hlo.scatter, out.value, reshape(index, (n, 1)).value, values.value, update_window_dims=[],
                     inserted_window_dims=[0], scatter_dims_to_operand_dims=[0], index_vector_dim=1, kind="set"))


def top_k(operand, k: int):
    """jax.lax.top_k: the k largest along the last axis (values, int32 indices), largest
    first; ties keep the lower index first; NaN counts as the largest."""
    x = asarray(operand)
    k = int(k)
    if x.ndim == 0:
        raise ValueError("top_k: operand must have at least one dimension")
    if not 0 <= k <= x.shape[-1]:
        raise ValueError(f"top_k: k must be in [0, {x.shape[-1]}], got {k}")
    if x.size == 0 or k == 0:
        shape = x.shape[:-1] + (k,)
        return constant(np.zeros(shape, x.dtype)), constant(np.zeros(shape, DEFAULT_INT))
    values, indices = emit(hlo.top_k, x.value, k, element_type(DEFAULT_INT))
    return wrap(values), wrap(indices)


def _first_positions(x, k: int, descending: bool):
    """The positions of the first k along the last axis in sort order (argsort with limit:
    a selection when k is small)."""
    if k == 0:
        return constant(np.zeros(x.shape[:-1] + (0,), DEFAULT_INT))
    return wrap(emit(hlo.argsort, x.value, x.ndim - 1, descending, element_type(DEFAULT_INT), limit=k))


def _partitioned(a, kth, axis, name):
    a = asarray(a)
    if a.ndim == 0:
        raise ValueError(f"{name}: a must have at least one dimension")
    (axis,) = normalize_axes(axis, a.ndim)
    n = a.shape[axis]
    kth = int(kth)
    if not -n <= kth < n:
        raise ValueError(f"{name}: kth {kth} is out of bounds for an axis of size {n}")
    x = moveaxis(a, axis, -1)
    kth %= n
    bottom = _first_positions(x, kth + 1, descending=False)
    # The rest, in position order (as JAX's argpartition): the positions bottom did not
    # take, marked in a boolean mask and listed by a stable sort of that mask (a two-way
    # partition, O(n); with ties at the kth value, the two parts never share an element).
    rows = [wrap(emit(hlo.iota, list(bottom.shape), element_type(DEFAULT_INT), d)) for d in range(x.ndim - 1)]
    taken = constant(np.zeros(x.shape, np.bool_)).at[(*rows, bottom)].set(True)
    top = _first_positions(taken, n - kth - 1, descending=False)
    return x, axis, bottom, top


def argpartition(a, kth, axis=-1, kind="introselect", order=None):
    """jnp.argpartition: positions along axis such that the kth one is where a sort puts it,
    those before it the smaller elements, those after the larger. The order inside each
    part is unspecified (numpy's and JAX's docs); here, as JAX's: the first kth + 1 in
    ascending order (NaN sorts last, as in sort), the rest in position order; so
    take_along_axis(a, argpartition(a, k)) is partition(a, k)."""
    from .shapes import concatenate
    if order is not None:
        raise ValueError("argpartition: 'order' (structured arrays) is not supported")
    x, axis, bottom, top = _partitioned(a, kth, axis, "argpartition")
    return moveaxis(concatenate([bottom, top], axis=-1), -1, axis)


def partition(a, kth, axis=-1, kind="introselect", order=None):
    """jnp.partition: the values in argpartition's order (the kth in its sorted place; JAX
    orders the larger part descending, here it keeps the positions' order)."""
    from .selection import take_along_axis
    from .shapes import concatenate
    if order is not None:
        raise ValueError("partition: 'order' (structured arrays) is not supported")
    x, axis, bottom, top = _partitioned(a, kth, axis, "partition")
    order_ = concatenate([bottom, top], axis=-1)
    return moveaxis(take_along_axis(x, order_, axis=-1, mode="clip"), -1, axis)  # (in bounds)


def lexsort(keys, axis=-1):
    """Indices sorting by the last key, ties by the one before, and so on (stable argsorts,
    from the first key to the last)."""
    from .selection import take_along_axis
    keys = [asarray(k) for k in (keys if isinstance(keys, (list, tuple)) else list(asarray(keys)))]
    if not keys:
        raise TypeError("lexsort: need at least one key")
    shape = keys[0].shape
    if any(k.shape != shape for k in keys):
        raise ValueError("lexsort: all keys need the same shape")
    order = argsort(keys[0], axis=axis)
    for k in keys[1:]:
        order = take_along_axis(order, argsort(take_along_axis(k, order, axis=axis), axis=axis), axis=axis)
    return order


# isin's table: at least this many slots, and at most this many (bytes zeroed per call).
_TABLE_MIN, _TABLE_MAX = 4096, 1 << 24


def isin_table_size(elements: int, tests: int) -> int:
    """The slots of isin's table for that many elements and test values: 4 per value
    looked up or set (numpy's kind='table' takes spans up to ~6 per value)."""
    return min(max(4 * (elements + tests), _TABLE_MIN), _TABLE_MAX)


def isin(element, test_elements, assume_unique=False, invert=False, *, method="auto"):
    """Whether each element of `element` is in `test_elements` (element's shape): a compare
    with every test element when there are few; for integers whose test values span less
    than a table's size (checked at run time), a lookup in a table of those values (as
    numpy's kind='table'); else a binary search in the sorted test elements."""
    element, test = asarray(element), ravel(asarray(test_elements))
    if test.size == 0:
        found = constant(np.zeros(element.shape, np.bool_))
    elif method == "compare_all" or (method == "auto" and test.size <= 64):
        from .core import promote
        from .reductions import any as reduce_any
        from .shapes import expand_dims
        e, t = promote(expand_dims(element, -1), reshape(test, (1,) * element.ndim + test.shape))
        found = reduce_any(m.equal(e, t), axis=-1)
    else:
        from .core import result_type
        dtype, _ = result_type(element, test)  # the comparison's (weak types included)
        e, t = astype(element, dtype), astype(test, dtype)
        if method == "auto" and e.dtype.kind in "iu":
            from .lax import cond
            from .reductions import max as reduce_max, min as reduce_min
            size, lo, hi = isin_table_size(e.size, t.size), reduce_min(t), reduce_max(t)
            found = cond(_fits_table(lo, hi, size), lambda: _table_lookup(e, t, lo, hi, size),
                         lambda: _search(e, t))
        else:
            found = _search(e, t)
    return m.logical_not(found) if invert else found


def _search(e, t):
    """e in t by a binary search in sorted t."""
    from .selection import take
    s = sort(t)
    i = m.minimum(searchsorted(s, e), t.size - 1)
    return m.equal(take(s, i, mode="clip"), e)


def _fits_table(lo, hi, size: int):
    """hi - lo < size, without overflow in their (integer) type."""
    top = np.iinfo(lo.dtype).max
    if top <= size:  # a type narrower than the table: any span fits
        return constant(np.array(True))
    # hi < lo + size, where lo + size does not overflow; above that, hi - lo < size anyway.
    return m.logical_or(m.greater(lo, constant(np.array(top - size, lo.dtype))),
                        m.less(hi, m.add(lo, constant(np.array(size, lo.dtype)))))


def _table_lookup(e, t, lo, hi, size: int):
    """e in t through a table of `size` flags, slot v - lo set for each test value v (lo,
    hi: t's min and max, which the caller checked fit). At 64 bits e - lo may wrap for e
    far outside [lo, hi]; the range test decides those."""
    from .indexing import getitem

    def offset(x):  # x - lo as int64: exact below 64 bits; at 64 bits exact for x in [lo, hi]
        if x.dtype.itemsize < 8:
            return m.subtract(astype(x, np.int64), astype(lo, np.int64))
        return astype(m.subtract(x, lo), np.int64)

    table = constant(np.zeros(size, np.bool_)).at[offset(t)].set(True)
    inside = m.logical_and(m.greater_equal(e, lo), m.less_equal(e, hi))
    slot = m.clip(offset(e), 0, size - 1)
    return m.logical_and(inside, getitem(table, slot))


__all__ = ["sort", "argsort", "argpartition", "partition", "lexsort", "isin", "searchsorted", "digitize", "unique",
           "quantile", "nanquantile", "percentile", "nanpercentile", "median", "nanmedian"]
