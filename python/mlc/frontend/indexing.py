"""numpy indexing on Tracers: integers, slices with any step, None, Ellipsis, and integer
arrays (a gather); JAX-style functional updates `x.at[idx].set(v)` (a scatter).

Boolean masks select a data-dependent number of elements, which a static-shape compiler
cannot give a type to: they raise with an explanation (use `where` instead).
"""

from __future__ import annotations

import numpy as np

from ..dialects import hlo
from .core import DEFAULT_INT, asarray, astype, broadcast_arrays, broadcast_to, element_type, wrap
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


def _start_dtype(indices) -> np.dtype:
    """The one integer type for a set of start indices (an op's starts share one type):
    int64 when any index needs it (64-bit, or uint32 past int32's range), else int32."""
    wide = any(np.dtype(i.dtype).itemsize == 8 or (np.dtype(i.dtype).kind == "u" and np.dtype(i.dtype).itemsize == 4)
               for i in indices if isinstance(i, (Tracer, np.ndarray)))
    return np.dtype(np.int64) if wide else DEFAULT_INT


def _from_end(i: Tracer, size: int, dtype) -> Tracer:
    """A traced index in `dtype` where negatives count from the end (numpy). An unsigned
    index is clamped to `size` in its own type first, so 2^64-1 never wraps to -1; what
    is still out of range is then clamped (gather, dynamic_slice) or dropped (scatter)."""
    from .math import add, less, minimum, where
    if i.dtype.kind == "b" or i.dtype.kind not in "iu":
        raise IndexError(f"indices must be integers, got {i.dtype}")
    if i.dtype.kind == "u":
        if size <= np.iinfo(i.dtype).max:
            i = minimum(i, asarray(np.asarray(size, i.dtype)))
        return astype(i, dtype)
    i = astype(i, dtype)
    return where(less(i, 0), add(i, size), i)


def _is_scalar_index(item) -> bool:
    return _is_traced_scalar(item) or isinstance(item, (int, np.integer))


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
    indexing does), then the indexed axes dropped; strided slices and None apply after."""
    dtype = _start_dtype(items)
    starts, sizes, dropped, after, dim = [], [], [], [], 0
    for item in items:
        if item is None:
            after.append(None)
            continue
        size = x.shape[dim]
        if _is_traced_scalar(item):
            starts.append(_from_end(item, size, dtype)), sizes.append(1), dropped.append(dim)
        elif isinstance(item, (int, np.integer)):
            if not -size <= int(item) < size:
                raise IndexError(f"index {int(item)} is out of bounds for axis {dim} with size {size}")
            starts.append(asarray(int(item) % size)), sizes.append(1), dropped.append(dim)
        elif item.indices(size)[2] == 1:
            lo, hi, _ = item.indices(size)
            starts.append(asarray(lo)), sizes.append(max(hi - lo, 0)), after.append(slice(None))
        else:  # the whole axis here, the strided slice of it afterwards
            starts.append(asarray(0)), sizes.append(size), after.append(item)
        dim += 1
    starts = [astype(s_, dtype) for s_ in starts]
    value = wrap(emit(hlo.dynamic_slice, x.value, [s_.value for s_ in starts], sizes))
    value = reshape(value, [n for d, n in enumerate(sizes) if d not in dropped])
    if any(a is None or a != slice(None) for a in after):
        value = getitem(value, tuple(after))
    return value


def _advanced(x: Tracer, items) -> Tracer:
    """Integer-array indexing: x[..., i0, i1, ...] with broadcast index arrays (integers
    beside them broadcast with them, as in numpy), a gather. Slices on the other axes are
    applied first as basic indexing."""
    if any(i is None for i in items):
        raise NotImplementedError("integer-array indexing together with None")
    if any(isinstance(i, slice) and i != slice(None) for i in items):
        x = getitem(x, tuple(i if isinstance(i, slice) else slice(None) for i in items))
        items = [slice(None) if isinstance(i, slice) else i for i in items]
    positions = [k for k, i in enumerate(items) if not isinstance(i, slice)]
    arrays = [items[k] for k in positions]
    first = positions[0]
    if positions != list(range(first, first + len(arrays))):
        raise NotImplementedError("integer-array indexing is supported for one contiguous group of "
                                  "array indices")
    # Negative indices count from the end, as numpy's.
    dims = list(range(first, first + len(arrays)))
    indices = _index_arrays(arrays, [x.shape[d] for d in dims])
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


def _index_arrays(arrays, sizes) -> list[Tracer]:
    """Integer index arrays (and integers among them) in one index type, negatives counted
    from the end of their axis, broadcast together."""
    arrays = [i if isinstance(i, Tracer) else asarray(np.asarray(i)) for i in arrays]
    dtype = _start_dtype(arrays)
    return broadcast_arrays(*[_from_end(i, size, dtype) for i, size in zip(arrays, sizes)])


class _IndexUpdate:
    """x.at[index].<kind>(values): a scatter. As JAX: negative indices count from the end,
    and an update whose index is out of bounds is dropped (scatter's rule)."""

    def __init__(self, x: Tracer, index):
        self.x, self.index = x, index

    def _scatter(self, values, kind: str) -> Tracer:
        x = self.x
        items = _normalize(self.index, x.ndim)
        if any(i is None for i in items):
            raise NotImplementedError("x.at[...] with None in the index")
        if any(_is_array_index(i) for i in items):
            if all(_is_array_index(i) or _is_scalar_index(i) or i == slice(None) for i in items):
                return self._scatter_arrays(items, values, kind)
            return self._scatter_positions(values, kind)
        if any(isinstance(i, slice) and i.indices(x.shape[d])[2] != 1 for d, i in enumerate(items)):
            return self._scatter_positions(values, kind)
        return self._scatter_window(items, values, kind)

    def _scatter_window(self, items, values, kind):
        """Integers (static or traced) and step-1 slices: one window at a (traced) start."""
        from .shapes import stack
        x = self.x
        dtype = _start_dtype(items)
        starts, window_shape, region_shape = [], [], []
        for dim, item in enumerate(items):
            size = x.shape[dim]
            if _is_traced_scalar(item):
                starts.append(_from_end(item, size, dtype)), window_shape.append(1)
            elif isinstance(item, (int, np.integer)):
                if not -size <= int(item) < size:
                    raise IndexError(f"index {int(item)} is out of bounds for axis {dim} with size {size}")
                starts.append(asarray(int(item) % size)), window_shape.append(1)
            else:
                lo, hi, _ = item.indices(size)
                starts.append(asarray(lo)), window_shape.append(max(hi - lo, 0))
                region_shape.append(window_shape[-1])
        values = broadcast_to(astype(asarray(values), x.dtype), tuple(region_shape))
        update = reshape(values, [1] + window_shape)
        start = reshape(stack([astype(v, dtype) for v in starts]), [1, x.ndim])
        return wrap(emit(hlo.scatter, x.value, start.value, update.value,
                         update_window_dims=list(range(1, x.ndim + 1)), inserted_window_dims=[],
                         scatter_dims_to_operand_dims=list(range(x.ndim)), index_vector_dim=1, kind=kind))

    def _scatter_positions(self, values, kind):
        """Any other index (strided slices, arrays beside partial slices): the flat positions
        of the selected elements are x's row-major counter indexed the same way (so they
        follow getitem's rules exactly), then one scatter into x flattened."""
        from .shapes import ravel
        x = self.x
        counter = reshape(wrap(emit(hlo.iota, [x.size], element_type(DEFAULT_INT), 0)), x.shape)
        positions = getitem(counter, self.index)
        updates = broadcast_to(astype(asarray(values), x.dtype), positions.shape)
        flat = ravel(x)
        out = wrap(emit(hlo.scatter, flat.value, reshape(positions, [positions.size, 1]).value,
                        ravel(updates).value, update_window_dims=[], inserted_window_dims=[0],
                        scatter_dims_to_operand_dims=[0], index_vector_dim=1, kind=kind))
        return reshape(out, x.shape)

    def _scatter_arrays(self, items, values, kind):
        """Integer arrays (and integers among them, which broadcast with them as numpy's
        advanced indices) on some dims, the other dims taken whole."""
        x = self.x
        dims = [k for k, i in enumerate(items) if not isinstance(i, slice)]
        arrays = [items[k] for k in dims]
        from .shapes import stack
        indices = _index_arrays(arrays, [x.shape[d] for d in dims])
        stacked = stack(indices, axis=-1)
        nb = indices[0].ndim
        window = [s for d, s in enumerate(x.shape) if d not in dims]
        # numpy's value shape: the index shape where the group stood (first if not contiguous).
        first = dims[0] if dims == list(range(dims[0], dims[0] + len(dims))) else 0
        before = [s for d, s in enumerate(x.shape) if d < first and d not in dims]
        after = window[len(before):]
        updates = broadcast_to(astype(asarray(values), x.dtype), tuple(before) + indices[0].shape + tuple(after))
        if before:  # the scatter wants the index dims first
            order = list(range(len(before), len(before) + nb)) + list(range(len(before))) + \
                list(range(len(before) + nb, updates.ndim))
            from .shapes import transpose
            updates = transpose(updates, order)
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
