"""numpy indexing on Tracers: integers, slices with any step, None, Ellipsis, and integer
arrays (a gather); JAX-style functional updates `x.at[idx].set(v)` (a scatter).

Boolean masks select a data-dependent number of elements, which a static-shape compiler
cannot give a type to: they raise with an explanation (use `where` instead).
"""

from __future__ import annotations

import numpy as np

from ..dialects import hlo
from .core import DEFAULT_INT, asarray, astype, broadcast_arrays, broadcast_to, wrap
from .shapes import expand_dims, reshape
from .tracing import Tracer, emit


def _index_dtype(item):
    if isinstance(item, (Tracer, np.ndarray)):
        return item.dtype
    return np.asarray(item).dtype if isinstance(item, list) else None


def _normalize(index, ndim):
    """Expands Ellipsis; returns the index items as a list."""
    items = list(index) if isinstance(index, tuple) else [index]
    for item in items:
        if _index_dtype(item) == np.bool_:
            raise IndexError("boolean mask indexing selects a data-dependent number of elements, "
                             "so the result has no static shape; use mlc.numpy.where(mask, x, other) "
                             "or multiply by the mask instead")
    # Identity tests throughout: `==` on a Tracer would build a comparison op.
    consumed = sum(1 for i in items if i is not None and i is not Ellipsis)
    ellipses = [k for k, i in enumerate(items) if i is Ellipsis]
    if len(ellipses) > 1:
        raise IndexError("an index can only have a single ellipsis ('...')")
    if ellipses:
        at = ellipses[0]
        items[at:at + 1] = [slice(None)] * (ndim - consumed)
    else:
        items += [slice(None)] * (ndim - consumed)
    if consumed > ndim:
        raise IndexError(f"too many indices for array: array is {ndim}-dimensional, "
                         f"but {consumed} were indexed")
    return items


def _is_array_index(item) -> bool:
    return isinstance(item, (np.ndarray, list)) or (isinstance(item, Tracer) and item.ndim > 0)


def _is_traced_scalar(item) -> bool:
    return isinstance(item, Tracer) and item.ndim == 0


def getitem(x: Tracer, index) -> Tracer:
    items = _normalize(index, x.ndim)
    if any(_is_array_index(i) for i in items):
        return _advanced(x, items)
    if any(_is_traced_scalar(i) for i in items):
        return _dynamic(x, items)
    start, limit, strides, reverse, out_shape = [], [], [], [], []
    dim = 0
    for item in items:
        if item is None:
            out_shape.append(("new",))
            continue
        size = x.shape[dim]
        if isinstance(item, (int, np.integer)):
            i = int(item)
            if not -size <= i < size:
                raise IndexError(f"index {i} is out of bounds for axis {dim} with size {size}")
            i %= size
            start.append(i), limit.append(i + 1), strides.append(1)
        elif isinstance(item, slice):
            lo, hi, step = item.indices(size)
            if step < 0:
                # x[hi+1 .. lo] reversed: slice the ascending range, then reverse.
                count = len(range(lo, hi, step))
                first = lo + (count - 1) * step if count else 0
                start.append(first), limit.append(first + (count - 1) * -step + 1 if count else 0)
                strides.append(-step), reverse.append(len(start) - 1)
            else:
                start.append(lo), limit.append(max(hi, lo)), strides.append(step)
            out_shape.append(("keep", len(start) - 1))
        else:
            raise TypeError(f"unsupported index {item!r} of type {type(item).__name__}")
        dim += 1
    value = x
    if start != [0] * x.ndim or limit != list(x.shape) or strides != [1] * x.ndim:
        value = wrap(emit(hlo.slice, x.value, start, limit, strides))
    if reverse:
        value = wrap(emit(hlo.reverse, value.value, reverse))
    shape = [1 if kind[0] == "new" else value.shape[kind[1]] for kind in out_shape]
    return reshape(value, shape)


def _dynamic(x: Tracer, items) -> Tracer:
    """x[i] with a traced integer i: a dynamic_slice (the start clamped into range, as JAX's
    indexing does), then the indexed axes dropped."""
    from .math import add, less, where
    starts, sizes, dropped, dim = [], [], [], 0
    for item in items:
        if item is None:
            raise NotImplementedError("None together with a traced index")
        size = x.shape[dim]
        if _is_traced_scalar(item):
            i = astype(item, DEFAULT_INT)
            starts.append(where(less(i, 0), add(i, size), i)), sizes.append(1), dropped.append(dim)
        elif isinstance(item, (int, np.integer)):
            starts.append(asarray(int(item) % size)), sizes.append(1), dropped.append(dim)
        elif isinstance(item, slice) and item.indices(size)[2] == 1:
            lo, hi, _ = item.indices(size)
            starts.append(asarray(lo)), sizes.append(max(hi - lo, 0))
        else:
            raise NotImplementedError("a strided slice together with a traced index")
        dim += 1
    starts = [astype(s_, DEFAULT_INT) for s_ in starts]
    value = wrap(emit(hlo.dynamic_slice, x.value, [s_.value for s_ in starts], sizes))
    return reshape(value, [n for d, n in enumerate(sizes) if d not in dropped])


def _advanced(x: Tracer, items) -> Tracer:
    """Integer-array indexing of leading axes: x[i0, i1, ...] with broadcast index arrays,
    the rest of the axes taken whole (a gather)."""
    positions = [k for k, i in enumerate(items) if _is_array_index(i)]
    arrays = [items[k] for k in positions]
    first = positions[0]
    if positions != list(range(first, first + len(arrays))) or any(i is None for i in items):
        raise NotImplementedError("integer-array indexing is supported for one contiguous group of "
                                  "array indices (and no None)")
    for i in items:
        if not (_is_array_index(i) or (isinstance(i, slice) and i == slice(None))):
            raise NotImplementedError("integer-array indexing mixed with basic slices other than ':'")
    indices = broadcast_arrays(*[astype(asarray(i if isinstance(i, Tracer) else np.asarray(i)), DEFAULT_INT)
                                 for i in arrays])
    # Negative indices count from the end, as numpy's.
    from .math import add, less, where
    dims = list(range(first, first + len(arrays)))
    indices = [where(less(ix, 0), add(ix, x.shape[d]), ix) for ix, d in zip(indices, dims)]
    batch_shape = indices[0].shape
    from .shapes import stack
    stacked = expand_dims(indices[0], -1) if len(indices) == 1 else stack(indices, axis=-1)
    nb = len(batch_shape)
    # numpy's order: axes before the index group, the index shape, then the axes after it.
    offset_dims = list(range(first)) + [first + nb + k for k in range(x.ndim - first - len(arrays))]
    slice_sizes = [1 if d in dims else s for d, s in enumerate(x.shape)]
    return wrap(emit(hlo.gather, x.value, stacked.value, offset_dims=offset_dims,
                     collapsed_slice_dims=dims, start_index_map=dims, index_vector_dim=nb,
                     slice_sizes=slice_sizes))


class _IndexUpdate:
    def __init__(self, x: Tracer, index):
        self.x, self.index = x, index

    def _scatter(self, values, kind: str) -> Tracer:
        x = self.x
        items = _normalize(self.index, x.ndim)
        if any(_is_array_index(i) for i in items) or any(i is None for i in items):
            return self._scatter_arrays(items, values, kind)
        # Basic indices: scatter a window at a static start.
        region = getitem(x, self.index)
        values = broadcast_to(astype(asarray(values), x.dtype), region.shape)
        starts, window_shape, dim = [], [], 0
        for item in items:
            size = x.shape[dim]
            if isinstance(item, (int, np.integer)):
                starts.append(int(item) % size), window_shape.append(1)
            else:
                lo, hi, step = item.indices(size)
                if step != 1:
                    raise NotImplementedError("x.at[...] with a strided slice")
                starts.append(lo), window_shape.append(max(hi - lo, 0))
            dim += 1
        update = reshape(values, [1] + window_shape)
        start = wrap(emit(hlo.constant, np.asarray([starts], dtype=np.int32)))
        return wrap(emit(hlo.scatter, x.value, start.value, update.value,
                         update_window_dims=list(range(1, x.ndim + 1)), inserted_window_dims=[],
                         scatter_dims_to_operand_dims=list(range(x.ndim)), index_vector_dim=1, kind=kind))

    def _scatter_arrays(self, items, values, kind):
        x = self.x
        positions = [k for k, i in enumerate(items) if _is_array_index(i)]
        arrays = [items[k] for k in positions]
        dims = positions
        indices = broadcast_arrays(*[astype(asarray(i if isinstance(i, Tracer) else np.asarray(i)), DEFAULT_INT)
                                     for i in arrays])
        from .math import add, less, where
        from .shapes import stack
        indices = [where(less(ix, 0), add(ix, x.shape[d]), ix) for ix, d in zip(indices, dims)]
        stacked = stack(indices, axis=-1)
        nb = indices[0].ndim
        window = [s for d, s in enumerate(x.shape) if d not in dims]
        updates = broadcast_to(astype(asarray(values), x.dtype), indices[0].shape + tuple(window))
        return wrap(emit(hlo.scatter, x.value, stacked.value, updates.value,
                         update_window_dims=list(range(nb, nb + len(window))), inserted_window_dims=dims,
                         scatter_dims_to_operand_dims=dims, index_vector_dim=nb, kind=kind))

    def set(self, values):  # noqa: A003 - JAX's name
        return self._scatter(values, "set")

    def add(self, values):
        return self._scatter(values, "add")

    def multiply(self, values):
        return self._scatter(values, "mul")

    def min(self, values):  # noqa: A003
        return self._scatter(values, "min")

    def max(self, values):  # noqa: A003
        return self._scatter(values, "max")

    def get(self):
        return getitem(self.x, self.index)


class AtIndexer:
    """`x.at[index]` -> an object with set/add/multiply/min/max/get, as in JAX."""

    def __init__(self, x: Tracer):
        self.x = x

    def __getitem__(self, index):
        return _IndexUpdate(self.x, index)
