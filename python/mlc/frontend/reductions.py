"""numpy's reductions (axis=None|int|tuple, negative axes, keepdims) as hlo.reduce and
friends. Sums of bools and small integers accumulate in int32, means of integers in
float32 (JAX's defaults). float16 sums, products, means and variances are computed in
float32 and rounded to float16 once at the end, as JAX does (`upcast_f16_for_computation`):
a float16 accumulator overflows past 65504 and loses every addend below 1/2048 of it."""

from __future__ import annotations

import builtins

import numpy as np

from ..dialects import hlo
from .core import DEFAULT_FLOAT, DEFAULT_INT, asarray, astype, constant, wrap
from .shapes import reshape
from .tracing import Tracer, emit


def normalize_axes(axis, ndim: int) -> tuple[int, ...]:
    if axis is None:
        return tuple(range(ndim))
    axes = (axis,) if isinstance(axis, (int, np.integer)) else tuple(axis)
    out = []
    for a in axes:
        a = int(a)
        if not -ndim <= a < builtins.max(ndim, 1):
            raise ValueError(f"axis {a} is out of bounds for an array of dimension {ndim}")
        out.append(a % ndim if ndim else 0)
    if len(set(out)) != len(out):
        raise ValueError(f"repeated axis in {axis}")
    return tuple(out)


def _keep(result: Tracer, x: Tracer, axes, keepdims: bool) -> Tracer:
    if not keepdims:
        return result
    return reshape(result, [1 if d in axes else s for d, s in enumerate(x.shape)])


def _identity(kind: str, dtype: np.dtype):
    if kind == "add" or kind == "or" or kind == "xor":
        return 0
    if kind in ("mul", "and"):
        return 1 if kind == "mul" or dtype == np.bool_ else -1
    if dtype.kind == "f":
        return -np.inf if kind == "max" else np.inf
    if dtype == np.bool_:
        return kind == "min"
    info = np.iinfo(dtype)
    return info.min if kind == "max" else info.max


def reduce(x, kind: str, axis=None, keepdims=False, dtype=None, initial=None) -> Tracer:
    x = asarray(x)
    if dtype is not None:
        x = astype(x, dtype)
    axes = normalize_axes(axis, x.ndim)
    init_value = _identity(kind, x.dtype) if initial is None else initial
    init = constant(np.asarray(init_value).astype(x.dtype))
    result = wrap(emit(hlo.reduce, x.value, init.value, list(axes), kind))
    return _keep(result, x, axes, keepdims)


def _sum_dtype(x: Tracer, dtype):
    if dtype is not None:
        return dtype
    if x.dtype == np.bool_ or (x.dtype.kind in "iu" and x.dtype.itemsize < 4):
        return DEFAULT_INT if x.dtype.kind != "u" else np.uint32
    return None


_COMPUTATION_DTYPE = {np.dtype(np.float16): np.dtype(np.float32)}


def _upcast_reduce(x: Tracer, kind: str, axis, keepdims, dtype, initial) -> Tracer:
    """reduce(kind) in `dtype` (or x's), accumulated in float32 when that is float16."""
    out_dtype = np.dtype(dtype) if dtype is not None else x.dtype
    wide = _COMPUTATION_DTYPE.get(out_dtype)
    if wide is None:
        return reduce(x, kind, axis, keepdims, dtype, initial)
    return astype(reduce(x, kind, axis, keepdims, wide, initial), out_dtype)


def sum(x, axis=None, dtype=None, keepdims=False, initial=None):  # noqa: A001
    x = asarray(x)
    return _upcast_reduce(x, "add", axis, keepdims, _sum_dtype(x, dtype), initial)


def prod(x, axis=None, dtype=None, keepdims=False, initial=None):
    x = asarray(x)
    return _upcast_reduce(x, "mul", axis, keepdims, _sum_dtype(x, dtype), initial)


def _empty_axis(x: Tracer, axis) -> bool:
    """Whether a reduced axis is empty (max/min then have no value). Only those: the max of a
    (3, 2, 0) array over its size-2 axis is a (3, 0) array, as in numpy and JAX."""
    return builtins.any(x.shape[a] == 0 for a in normalize_axes(axis, x.ndim))


def max(x, axis=None, keepdims=False, initial=None):  # noqa: A001
    x = asarray(x)
    if initial is None and _empty_axis(x, axis):
        raise ValueError("zero-size array to reduction operation max which has no identity")
    return reduce(x, "or" if x.dtype == np.bool_ else "max", axis, keepdims, None, initial)


def min(x, axis=None, keepdims=False, initial=None):  # noqa: A001
    x = asarray(x)
    if initial is None and _empty_axis(x, axis):
        raise ValueError("zero-size array to reduction operation min which has no identity")
    return reduce(x, "and" if x.dtype == np.bool_ else "min", axis, keepdims, None, initial)


amax, amin = max, min


def all(x, axis=None, keepdims=False):  # noqa: A001
    return reduce(astype(x, bool), "and", axis, keepdims)


def any(x, axis=None, keepdims=False):  # noqa: A001
    return reduce(astype(x, bool), "or", axis, keepdims)


def _count(x: Tracer, axes) -> int:
    n = 1
    for a in axes:
        n *= x.shape[a]
    return n


def _mean_dtypes(x: Tracer, dtype) -> tuple[np.dtype, np.dtype]:
    """(result dtype, computation dtype) of mean/var: integers give float32, float16 is
    computed in float32 (JAX's rules)."""
    out = np.dtype(dtype) if dtype is not None else x.dtype if x.dtype.kind == "f" else DEFAULT_FLOAT
    return out, _COMPUTATION_DTYPE.get(out, out)


def mean(x, axis=None, dtype=None, keepdims=False):
    from .math import true_divide
    x = asarray(x)
    out, wide = _mean_dtypes(x, dtype)
    total = reduce(x, "add", axis, keepdims, wide)
    result = true_divide(total, float(_count(x, normalize_axes(axis, x.ndim))))
    return astype(result, out)


def var(x, axis=None, dtype=None, ddof=0, keepdims=False):
    from .math import multiply, subtract, true_divide
    x = asarray(x)
    out, wide = _mean_dtypes(x, dtype)
    x = astype(x, wide)
    centered = subtract(x, mean(x, axis, keepdims=True))
    n = _count(x, normalize_axes(axis, x.ndim))
    result = true_divide(reduce(multiply(centered, centered), "add", axis, keepdims), float(n - ddof))
    return astype(result, out)


def std(x, axis=None, dtype=None, ddof=0, keepdims=False):
    from .math import sqrt
    return sqrt(var(x, axis, dtype, ddof, keepdims))


def _arg(build, x, axis, keepdims):
    x = asarray(x)
    if axis is None:
        x, axis = reshape(x, [-1]), 0
    (axis,) = normalize_axes(axis, x.ndim)
    if x.shape[axis] == 0:
        raise ValueError("attempt to get argmax/argmin of an empty sequence")
    from .core import element_type
    result = wrap(emit(build, x.value, axis, element_type(DEFAULT_INT)))
    return _keep(result, x, (axis,), keepdims)


def argmax(x, axis=None, keepdims=False):
    return _arg(hlo.argmax, x, axis, keepdims)


def argmin(x, axis=None, keepdims=False):
    return _arg(hlo.argmin, x, axis, keepdims)


def cumsum(x, axis=None, dtype=None):
    """A running sum: reduce_window over a window of the whole axis, padded on the left."""
    x = asarray(x)
    if axis is None:
        x, axis = reshape(x, [-1]), 0
    (axis,) = normalize_axes(axis, x.ndim)
    dtype = _sum_dtype(x, dtype)
    if dtype is not None:
        x = astype(x, dtype)
    n = x.shape[axis]
    window = [n if d == axis else 1 for d in range(x.ndim)]
    padding = [(n - 1, 0) if d == axis else (0, 0) for d in range(x.ndim)]
    zero = constant(np.zeros((), x.dtype))
    if n == 0:
        return x
    return wrap(emit(hlo.reduce_window, x.value, zero.value, window, "add", padding=padding))
