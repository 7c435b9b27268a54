"""numpy's shape functions on Tracers: reshape, transpose and friends, concatenation,
splitting, padding, flipping, tiling and repeating."""

from __future__ import annotations

import numpy as np
from mlir.dialects import tensor

from ..dialects import hlo
from .core import asarray, broadcast_to, constant, wrap
from .tracing import Tracer, emit


def _axis(axis: int, ndim: int) -> int:
    if not -ndim <= axis < ndim:
        raise ValueError(f"axis {axis} is out of bounds for an array of dimension {ndim}")
    return axis % ndim


def reshape(x, shape, order="C") -> Tracer:
    if order != "C":
        raise NotImplementedError(f"reshape(order={order!r}): only row-major order is supported")
    x = asarray(x)
    shape = (shape,) if isinstance(shape, (int, np.integer)) else tuple(int(s) for s in shape)
    if shape.count(-1) > 1:
        raise ValueError("can only specify one unknown dimension")
    if -1 in shape:
        known = int(np.prod([s for s in shape if s != -1], dtype=np.int64))
        if known == 0 or x.size % known:
            raise ValueError(f"cannot reshape array of size {x.size} into shape {shape}")
        shape = tuple(x.size // known if s == -1 else s for s in shape)
    if int(np.prod(shape, dtype=np.int64)) != x.size:
        raise ValueError(f"cannot reshape array of size {x.size} into shape {shape}")
    if shape == x.shape:
        return x
    return Tracer(emit(hlo.reshape, x.value, shape), shape, x.dtype, x.weak)


def ravel(x) -> Tracer:
    return reshape(x, [-1])


def transpose(x, axes=None) -> Tracer:
    x = asarray(x)
    axes = tuple(reversed(range(x.ndim))) if axes is None else tuple(_axis(a, x.ndim) for a in axes)
    if sorted(axes) != list(range(x.ndim)):
        raise ValueError(f"axes {axes} don't match an array of dimension {x.ndim}")
    if axes == tuple(range(x.ndim)):
        return x
    return wrap(emit(hlo.transpose, x.value, list(axes)))


def swapaxes(x, axis1, axis2) -> Tracer:
    x = asarray(x)
    axes = list(range(x.ndim))
    a, b = _axis(axis1, x.ndim), _axis(axis2, x.ndim)
    axes[a], axes[b] = axes[b], axes[a]
    return transpose(x, axes)


def moveaxis(x, source, destination) -> Tracer:
    x = asarray(x)
    src = [source] if isinstance(source, int) else list(source)
    dst = [destination] if isinstance(destination, int) else list(destination)
    src = [_axis(a, x.ndim) for a in src]
    dst = [_axis(a, x.ndim) for a in dst]
    order = [d for d in range(x.ndim) if d not in src]
    for d, s in sorted(zip(dst, src)):
        order.insert(d, s)
    return transpose(x, order)


def expand_dims(x, axis) -> Tracer:
    x = asarray(x)
    axes = [axis] if isinstance(axis, int) else list(axis)
    ndim = x.ndim + len(axes)
    axes = sorted(_axis(a, ndim) for a in axes)
    shape = list(x.shape)
    for a in axes:
        shape.insert(a, 1)
    return reshape(x, shape)


def squeeze(x, axis=None) -> Tracer:
    x = asarray(x)
    if axis is None:
        axes = [d for d, s in enumerate(x.shape) if s == 1]
    else:
        axes = [_axis(a, x.ndim) for a in ([axis] if isinstance(axis, int) else axis)]
        for a in axes:
            if x.shape[a] != 1:
                raise ValueError(f"cannot select an axis to squeeze out which has size not equal to one")
    return reshape(x, [s for d, s in enumerate(x.shape) if d not in axes])


def concatenate(arrays, axis=0) -> Tracer:
    from .core import astype, result_dtype
    arrays = [asarray(a) for a in arrays]
    if not arrays:
        raise ValueError("need at least one array to concatenate")
    dtype = result_dtype(*arrays)
    return _concat([astype(a, dtype) for a in arrays], axis)


def _concat(arrays, axis) -> Tracer:
    first = arrays[0]
    axis = _axis(axis, first.ndim)
    for a in arrays:
        if a.ndim != first.ndim or any(s != t for d, (s, t) in enumerate(zip(a.shape, first.shape)) if d != axis):
            raise ValueError(f"all the input array dimensions except for the concatenation axis must "
                             f"match exactly, got shapes {[x.shape for x in arrays]}")
    shape = list(first.shape)
    shape[axis] = sum(a.shape[axis] for a in arrays)
    if 0 in shape:  # nothing to copy: tensor.concat's slices of it would be out of bounds
        from .core import constant
        return constant(np.zeros(shape, first.dtype))
    arrays = [a for a in arrays if a.shape[axis]]  # empty pieces add nothing
    if len(arrays) == 1:
        return arrays[0]
    from .core import element_type
    from mlir import ir
    result_type = ir.RankedTensorType.get(shape, element_type(first.dtype))
    return wrap(emit(tensor.concat, result_type, axis, [a.value for a in arrays]))


def stack(arrays, axis=0) -> Tracer:
    arrays = [asarray(a) for a in arrays]
    if not arrays:
        raise ValueError("need at least one array to stack")
    shapes = {a.shape for a in arrays}
    if len(shapes) != 1:
        raise ValueError(f"all input arrays must have the same shape, got {sorted(shapes)}")
    from .core import result_dtype, astype
    dtype = result_dtype(*arrays)
    arrays = [astype(a, dtype) for a in arrays]
    axis = _axis(axis, arrays[0].ndim + 1)
    return _concat([expand_dims(a, axis) for a in arrays], axis)


def split(x, indices_or_sections, axis=0) -> list[Tracer]:
    x = asarray(x)
    axis = _axis(axis, x.ndim)
    n = x.shape[axis]
    if isinstance(indices_or_sections, int):
        if n % indices_or_sections:
            raise ValueError("array split does not result in an equal division")
        step = n // indices_or_sections
        bounds = list(range(0, n + 1, step))
    else:
        bounds = [0] + [min(int(i), n) for i in indices_or_sections] + [n]
    pieces = []
    for lo, hi in zip(bounds[:-1], bounds[1:]):
        start = [lo if d == axis else 0 for d in range(x.ndim)]
        limit = [max(hi, lo) if d == axis else s for d, s in enumerate(x.shape)]
        pieces.append(wrap(emit(hlo.slice, x.value, start, limit, [1] * x.ndim)))
    return pieces


_INDEX_MODES = ("edge", "reflect", "symmetric", "wrap")


def pad(x, pad_width, mode="constant", constant_values=0, **kwargs) -> Tracer:
    """numpy's pad. "constant" is one hlo.pad; "edge", "reflect", "symmetric" and "wrap"
    copy elements: per axis, numpy's own pad of the static positions 0..n-1 says which
    source element each output position takes (so every width, even past the axis length,
    follows numpy), and a gather takes them."""
    x = asarray(x)
    widths = np.broadcast_to(np.asarray(pad_width, dtype=np.int64), (x.ndim, 2)) if x.ndim else np.zeros((0, 2), np.int64)
    if (widths < 0).any():
        raise ValueError("index can't contain negative values")
    if mode in _INDEX_MODES:
        return _pad_by_index(x, widths, mode, kwargs)
    if mode != "constant":
        raise NotImplementedError(f"pad(mode={mode!r}): supported modes are 'constant', "
                                  f"{', '.join(repr(m) for m in _INDEX_MODES)}")
    value = constant(np.asarray(constant_values).astype(x.dtype))
    return wrap(emit(hlo.pad, x.value, value.value, [int(w) for w in widths[:, 0]],
                     [int(w) for w in widths[:, 1]], [0] * x.ndim))


def flip(x, axis=None) -> Tracer:
    x = asarray(x)
    axes = list(range(x.ndim)) if axis is None else [_axis(a, x.ndim) for a in
                                                      ([axis] if isinstance(axis, int) else axis)]
    if not axes:
        return x
    return wrap(emit(hlo.reverse, x.value, axes))


def tile(x, reps) -> Tracer:
    x = asarray(x)
    reps = (reps,) if isinstance(reps, int) else tuple(reps)
    ndim = max(x.ndim, len(reps))
    x = reshape(x, (1,) * (ndim - x.ndim) + x.shape)
    reps = (1,) * (ndim - len(reps)) + reps
    # Broadcast to (r0, s0, r1, s1, ...) then merge each pair.
    interleaved = []
    for r, s in zip(reps, x.shape):
        interleaved += [1, s]
    expanded = reshape(x, interleaved)
    target = []
    for r, s in zip(reps, x.shape):
        target += [r, s]
    return reshape(broadcast_to(expanded, target), [r * s for r, s in zip(reps, x.shape)])


def repeat(x, repeats: int, axis=None) -> Tracer:
    if not isinstance(repeats, (int, np.integer)):
        raise NotImplementedError("repeat with per-element repeat counts has a data-dependent shape")
    x = asarray(x)
    if axis is None:
        x, axis = reshape(x, [-1]), 0
    axis = _axis(axis, x.ndim)
    shape = list(x.shape)
    expanded = reshape(x, shape[:axis + 1] + [1] + shape[axis + 1:])
    target = shape[:axis + 1] + [int(repeats)] + shape[axis + 1:]
    out = shape[:axis] + [shape[axis] * int(repeats)] + shape[axis + 1:]
    return reshape(broadcast_to(expanded, target), out)


def _pad_by_index(x: Tracer, widths, mode: str, kwargs) -> Tracer:
    from .selection import take
    reflect_type = kwargs.pop("reflect_type", "even")
    if kwargs or reflect_type != "even":
        raise NotImplementedError(f"pad(mode={mode!r}) with {dict(kwargs, reflect_type=reflect_type)}")
    for axis, (lo, hi) in enumerate(widths):
        n = x.shape[axis]
        if lo == 0 and hi == 0:
            continue
        if n == 0:
            raise ValueError(f"can't extend empty axis {axis} using modes other than 'constant' or 'empty'")
        source = np.pad(np.arange(n), (int(lo), int(hi)), mode=mode).astype(np.int32)
        x = take(x, source, axis=axis, mode="clip")
    return x
