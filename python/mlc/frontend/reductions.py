"""numpy's reductions (axis=None|int|tuple, negative axes, keepdims) as hlo.reduce and
friends. Sums of bools and small integers accumulate in int32, means of integers in
float32 (JAX's defaults)."""

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


def sum(x, axis=None, dtype=None, keepdims=False, initial=None):  # noqa: A001
    x = asarray(x)
    return reduce(x, "add", axis, keepdims, _sum_dtype(x, dtype), initial)


def prod(x, axis=None, dtype=None, keepdims=False, initial=None):
    x = asarray(x)
    return reduce(x, "mul", axis, keepdims, _sum_dtype(x, dtype), initial)


def max(x, axis=None, keepdims=False, initial=None):  # noqa: A001
    x = asarray(x)
    if x.size == 0 and initial is None:
        raise ValueError("zero-size array to reduction operation max which has no identity")
    return reduce(x, "or" if x.dtype == np.bool_ else "max", axis, keepdims, None, initial)


def min(x, axis=None, keepdims=False, initial=None):  # noqa: A001
    x = asarray(x)
    if x.size == 0 and initial is None:
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


def mean(x, axis=None, dtype=None, keepdims=False):
    from .math import true_divide
    x = asarray(x)
    if dtype is None and x.dtype.kind != "f":
        dtype = DEFAULT_FLOAT
    total = sum(x, axis, dtype, keepdims)
    return true_divide(total, float(_count(x, normalize_axes(axis, x.ndim))))


def var(x, axis=None, dtype=None, ddof=0, keepdims=False):
    from .math import multiply, subtract, true_divide
    x = asarray(x)
    if x.dtype.kind != "f":
        x = astype(x, dtype or DEFAULT_FLOAT)
    centered = subtract(x, mean(x, axis, dtype, keepdims=True))
    n = _count(x, normalize_axes(axis, x.ndim))
    return true_divide(sum(multiply(centered, centered), axis, dtype, keepdims), float(n - ddof))


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
