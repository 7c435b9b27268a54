"""Constants, comparisons, selection and element-type conversion in the hlo dialect.

Contract: `constant` reads its dense value with the bits of the result type (an i8 literal
declared ui8 reads as ui8); `iota` is the index converted to the element type (integers
wrap; the verifier rejects i1); `compare` follows `compare_type` (default FLOAT for floats,
UNSIGNED for i1 and unsigned, SIGNED otherwise; FLOAT is ordered except NE; TOTALORDER is
IEEE totalOrder); `convert` rounds float -> narrower float to nearest even, truncates
float -> integer toward zero with saturation and NaN -> 0 (XLA), wraps integer narrowing,
and maps anything to i1 as x != 0; `bitcast_convert` reinterprets the bits.
"""

from __future__ import annotations

import numpy as np
from mlir import ir

from .elementwise import maximum, minimum
from .registry import (bits_of, contiguous, evaluates, is_float_dtype, numpy_dtype_of,
                       signed_view, unsigned_view)


def dense_value(attr: ir.Attribute, result_type: ir.Type) -> np.ndarray:
    """A dense elements attribute as an array of the result type's dtype and shape."""
    attr = ir.DenseElementsAttr(attr)
    dt = numpy_dtype_of(result_type)
    shape = tuple(ir.RankedTensorType(result_type).shape)
    if dt.name == "bfloat16" or str(attr.type.element_type) == "bf16":
        fp = ir.DenseFPElementsAttr(attr)
        values = [fp.get_splat_value().value] if attr.is_splat else [fp[i] for i in range(len(fp))]
        raw = np.array(values, np.float64).astype(dt)
    elif attr.is_splat and str(attr.type.element_type) == "i1":
        # The bindings' buffer of an i1 splat is one packed byte: np.array(attr) would give
        # eight trues and then falses.
        raw = np.array(ir.IntegerAttr(attr.get_splat_value()).value != 0)
    else:
        raw = np.array(attr)
        if raw.dtype != dt:  # same width, other signedness: the same bits
            raw = contiguous(raw).view(dt) if raw.dtype.itemsize == dt.itemsize else raw.astype(dt)
    return np.broadcast_to(raw, shape).copy() if raw.size == 1 else raw.reshape(shape).copy()


@evaluates("hlo.constant")
def _constant(ctx):
    """constant: the dense `value`, read with the bits of the result type."""
    return dense_value(ctx.op.attributes["value"], ctx.result_type())


@evaluates("hlo.iota")
def _iota(ctx):
    """iota: output[i...] = i_{iota_dimension} converted like hlo.convert (integers wrap)."""
    shape, dim = ctx.result_shape(), ctx.attrs["iota_dimension"]
    index = np.arange(shape[dim], dtype=np.int64).reshape([-1 if d == dim else 1 for d in range(len(shape))])
    return convert_array(np.broadcast_to(index, shape), ctx.result_dtype())


def _total_order_key(x: np.ndarray) -> np.ndarray:
    """A signed integer whose order is IEEE totalOrder (-NaN < -inf < -0 < +0 < inf < NaN)."""
    bits = signed_view(x)
    int_max = np.array(np.iinfo(bits.dtype).max, bits.dtype)
    return np.where(bits < 0, bits ^ int_max, bits)


_COMPARISONS = {"EQ": np.equal, "NE": np.not_equal, "LT": np.less, "LE": np.less_equal,
                "GT": np.greater, "GE": np.greater_equal}


def default_compare_type(dt: np.dtype) -> str:
    if is_float_dtype(dt):
        return "FLOAT"
    return "UNSIGNED" if dt == np.bool_ or dt.kind == "u" else "SIGNED"


@evaluates("hlo.compare")
def _compare(ctx, lhs, rhs):
    """compare(x, y): by compare_type; FLOAT ordered (NaN: only NE true), TOTALORDER by bits."""
    direction = ctx.attrs["comparison_direction"]
    compare_type = ctx.attrs.get("compare_type") or default_compare_type(lhs.dtype)
    if compare_type == "TOTALORDER" and is_float_dtype(lhs.dtype):
        lhs, rhs = _total_order_key(lhs), _total_order_key(rhs)
    elif compare_type == "SIGNED" and lhs.dtype == np.bool_:  # i1 true is -1 as a signed value
        lhs, rhs = -lhs.astype(np.int8), -rhs.astype(np.int8)
    elif compare_type == "SIGNED" and lhs.dtype.kind == "u":
        lhs, rhs = signed_view(lhs), signed_view(rhs)
    elif compare_type == "UNSIGNED" and lhs.dtype.kind == "i":
        lhs, rhs = unsigned_view(lhs), unsigned_view(rhs)
    return _COMPARISONS[direction](lhs, rhs)


@evaluates("hlo.select")
def _select(ctx, pred, on_true, on_false):
    """select(p, t, f): p ? t : f elementwise; a 0-d p selects whole tensors."""
    return np.where(pred, on_true, on_false)


@evaluates("hlo.clamp")
def _clamp(ctx, low, x, high):
    """clamp(lo, x, hi): minimum(maximum(x, lo), hi) (NaN anywhere -> NaN)."""
    return minimum(maximum(x, low), high)


def _float_to_int(x: np.ndarray, dt: np.dtype) -> np.ndarray:
    """Truncate toward zero; saturate at dt's range; NaN -> 0 (XLA's rule)."""
    info = np.iinfo(dt)
    wide = x.astype(np.float64)  # exact for f16/bf16/f32; f64 unchanged
    t = np.trunc(wide)
    too_big = wide >= float(info.max) + 1.0   # 2^(w-1) or 2^w, exact powers of two
    too_small = wide < float(info.min)
    safe = np.where(too_big | too_small | np.isnan(wide), 0.0, t)
    result = safe.astype(dt)
    result = np.where(too_big, np.array(info.max, dt), result)
    result = np.where(too_small, np.array(info.min, dt), result)
    return result.astype(dt)


def convert_array(x: np.ndarray, dt: np.dtype) -> np.ndarray:
    """hlo.convert of an array to dtype `dt` (see the module docstring)."""
    x = np.asarray(x)
    if x.dtype == dt:
        return x.copy()
    if dt == np.bool_:
        return x != 0
    if is_float_dtype(x.dtype) and not is_float_dtype(dt):
        return _float_to_int(x, dt)
    return x.astype(dt)  # float rounding to nearest even, int -> float, integer wrap/extend


@evaluates("hlo.convert")
def _convert(ctx, x):
    """convert(x): floats round to nearest even; float -> int truncates, saturates, NaN -> 0; -> i1 is x != 0."""
    return convert_array(x, ctx.result_dtype())


@evaluates("hlo.bitcast_convert")
def _bitcast_convert(ctx, x):
    """bitcast_convert(x): the same bits read as the result element type."""
    dt = ctx.result_dtype()
    if bits_of(dt) != bits_of(x.dtype):
        raise NotImplementedError(f"bitcast_convert between widths ({x.dtype} -> {dt}) at {ctx.op.location}")
    return contiguous(x).view(dt)
