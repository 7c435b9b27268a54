"""The core of the numpy-like API: turning values into Tracers, dtype promotion,
broadcasting, and elementwise ops.

Dtype rules follow JAX: dtypes promote along JAX's lattice (promotion.py: f32 + i32 ->
f32, u32 + i32 -> i64); Python scalars are *weakly typed* and take the dtype of the array
they meet (`f32_array * 2.0` stays float32); the default dtypes (a lone Python float, a
mean of integers, exp of an integer) are float32 and int32.
"""

from __future__ import annotations

import math

import numpy as np
from mlir import ir

from ..dialects import hlo
from ..dtypes import mlir_element_name, numpy_dtype
from .promotion import join
from .tracing import Tracer, active_trace, current_trace, emit

DEFAULT_FLOAT = np.dtype(np.float32)
DEFAULT_INT = np.dtype(np.int32)


# MLIR element type spelling -> its builder in the current context (parsing the spelling
# cost as much as the rest of building a splat constant).
_ELEMENT_TYPES = {"f16": ir.F16Type.get, "bf16": ir.BF16Type.get, "f32": ir.F32Type.get,
                  "f64": ir.F64Type.get,
                  **{f"i{w}": (lambda w=w: ir.IntegerType.get_signless(w)) for w in (1, 8, 16, 32, 64)},
                  **{f"ui{w}": (lambda w=w: ir.IntegerType.get_unsigned(w)) for w in (8, 16, 32, 64)}}


def element_type(dtype) -> ir.Type:
    name = mlir_element_name(dtype)
    build = _ELEMENT_TYPES.get(name)
    return build() if build is not None else ir.Type.parse(name)


def _shape_and_dtype(value: ir.Value) -> tuple[tuple, np.dtype]:
    t = value.type  # (types come downcast: no cast for a ranked tensor)
    trace = active_trace()
    found = trace.shapes.get(t) if trace is not None else None
    if found is None:
        rt = t if type(t) is ir.RankedTensorType else ir.RankedTensorType(t)
        found = (tuple(rt.shape), numpy_dtype(rt.element_type))
        if trace is not None:
            trace.shapes[t] = found
    return found


def wrap(value: ir.Value, weak: bool = False) -> Tracer:
    shape, dtype = _shape_and_dtype(value)
    return Tracer(value, shape, dtype, weak)


def constant(value, dtype=None, weak: bool = False) -> Tracer:
    array = np.asarray(value, dtype=dtype)
    return wrap(emit(hlo.constant, array), weak)


def asarray(x, dtype=None) -> Tracer:
    """A Tracer for x: Tracers as they are, Python scalars weakly typed, arrays as constants."""
    if isinstance(x, Tracer):
        return x if dtype is None else astype(x, dtype)
    if isinstance(x, (bool, int, float)) and not isinstance(x, np.generic) and dtype is None:
        if isinstance(x, bool):
            return constant(x, np.bool_, weak=True)
        if isinstance(x, int):
            return constant(x, DEFAULT_INT, weak=True)
        return constant(x, DEFAULT_FLOAT, weak=True)
    if isinstance(x, (list, tuple)) and any(isinstance(v, Tracer) for v in x):
        from .shapes import stack
        return stack([asarray(v) for v in x])
    array = np.asarray(x, dtype=dtype)
    if array.dtype == np.float64 and dtype is None and not isinstance(x, (np.ndarray, np.generic)):
        array = array.astype(DEFAULT_FLOAT)  # Python float lists: the default float
    if array.dtype == np.int64 and dtype is None and not isinstance(x, (np.ndarray, np.generic)):
        array = array.astype(DEFAULT_INT)
    if array.dtype.kind not in "biuf":
        raise TypeError(f"cannot use a value of type {type(x).__name__} (dtype {array.dtype}) as an array")
    return constant(array)


def _is_python_scalar(x) -> bool:
    return isinstance(x, (bool, int, float)) and not isinstance(x, np.generic)


def _kind_rank(dtype: np.dtype) -> int:
    return {"b": 0, "u": 1, "i": 1, "f": 2}[dtype.kind]


def _dtype_and_weak(x) -> tuple[np.dtype, bool]:
    if isinstance(x, Tracer):
        return x.dtype, x.weak
    if isinstance(x, (np.ndarray, np.generic)):  # (np.float64 is also a Python float)
        return x.dtype, False
    if isinstance(x, bool):
        return np.dtype(np.bool_), False
    if isinstance(x, int):
        return DEFAULT_INT, True
    if isinstance(x, float):
        return DEFAULT_FLOAT, True
    return np.dtype(x), False


def result_type(*xs) -> tuple[np.dtype, bool]:
    """(dtype, weak) of combining xs (Tracers, arrays, dtypes, Python scalars): JAX's
    promotion lattice (see promotion.py)."""
    if not xs:
        raise ValueError("at least one array or dtype is required")
    return join([_dtype_and_weak(x) for x in xs], DEFAULT_INT, DEFAULT_FLOAT)


def result_dtype(*xs) -> np.dtype:
    """jax.numpy.result_type: the dtype of combining xs."""
    return result_type(*xs)[0]


def astype(x, dtype) -> Tracer:
    x = asarray(x)
    dtype = np.dtype(dtype)
    if x.dtype == dtype:
        return Tracer(x.value, x.shape, dtype)
    return wrap(emit(hlo.convert, x.value, element_type(dtype)))


def broadcast_to(x, shape) -> Tracer:
    x = asarray(x)
    shape = tuple(int(s) for s in shape)
    if x.shape == shape:
        return x
    if len(shape) < x.ndim:
        raise ValueError(f"cannot broadcast shape {x.shape} to {shape}")
    offset = len(shape) - x.ndim
    for i, s in enumerate(x.shape):
        if s not in (1, shape[offset + i]):
            raise ValueError(f"cannot broadcast shape {x.shape} to {shape}")
    dims = list(range(offset, len(shape)))
    return Tracer(emit(hlo.broadcast_in_dim, x.value, shape, dims), shape, x.dtype, x.weak)


def _broadcast_shape(xs: list[Tracer]) -> tuple:
    shapes = {x.shape for x in xs}
    if len(shapes) <= 1:  # the common case, without numpy's general rule
        return shapes.pop() if shapes else ()
    try:
        return np.broadcast_shapes(*[x.shape for x in xs])
    except ValueError:
        raise ValueError(f"operands could not be broadcast together with shapes "
                         f"{' '.join(str(x.shape) for x in xs)}") from None


def broadcast_arrays(*xs) -> list[Tracer]:
    xs = [asarray(x) for x in xs]
    shape = _broadcast_shape(xs)
    return [broadcast_to(x, shape) for x in xs]


def promote(*xs, to=None) -> list[Tracer]:
    """Operands converted to their common dtype (or `to`) and broadcast to one shape."""
    if to is not None:
        dtype, weak = np.dtype(to), all(_dtype_and_weak(x)[1] for x in xs)
    else:
        dtype, weak = result_type(*xs)
    # A Python scalar becomes a constant of the result dtype directly (as JAX's weak types
    # do): made float32 first, x64 * 0.1 would multiply by 0.10000000149011612.
    arrays = [None if _is_python_scalar(x) else asarray(x) for x in xs]
    arrays = [x if x is None or x.dtype == dtype else astype(x, dtype) for x in arrays]
    shape = _broadcast_shape([x for x in arrays if x is not None])
    promoted, trace = [], active_trace()
    for v, x in zip(xs, arrays):
        x = splat(v, dtype, shape) if x is None else broadcast_to(x, shape)
        # A Tracer is never changed: one of this trace that is already right is passed on
        # as it is (another's raises in `value`, as before).
        promoted.append(x if x.weak == weak and x.belongs_to(trace) else Tracer(x.value, x.shape, x.dtype, weak))
    return promoted


def splat(value, dtype: np.dtype, shape: tuple) -> Tracer:
    """The Python scalar `value` as a weakly typed `dtype` array of `shape`: one splat
    hlo.constant (what constant + broadcast_in_dim simplify to, built directly)."""
    # (the sign tells -0.0 from 0.0, equal as keys)
    key = (value, type(value), math.copysign(1.0, value) if isinstance(value, float) else 0, dtype, shape)
    splats = current_trace().splats
    attr = splats.get(key)
    if attr is None:
        array = np.asarray(value, dtype=dtype)  # numpy's range checks: uint8 + 300 raises
        et = element_type(dtype)
        if dtype.kind == "f":
            scalar = ir.FloatAttr.get(et, float(array))
        elif -2 ** 63 <= int(array) < 2 ** 63:  # IntegerAttr.get takes an int64
            scalar = ir.IntegerAttr.get(et, int(array))
        else:
            return broadcast_to(constant(array, weak=True), shape)
        attr = splats[key] = ir.DenseElementsAttr.get_splat(ir.RankedTensorType.get(list(shape), et), scalar)
    return Tracer(emit(hlo.constant, attr), shape, dtype, True)


def to_float(x: Tracer) -> Tracer:
    """x itself if floating, else converted to the default float (numpy's true division)."""
    return x if x.dtype.kind == "f" else astype(x, DEFAULT_FLOAT)


def elementwise(build, *xs, to=None, float_only: bool = False, result_dtype_=None) -> Tracer:
    xs = promote(*xs, to=to)
    if float_only:
        xs = [to_float(x) for x in xs]
    value = emit(build, *[x.value for x in xs])
    shape, dtype = _shape_and_dtype(value)
    return Tracer(value, shape, dtype, all(x.weak for x in xs) and result_dtype_ is None)
