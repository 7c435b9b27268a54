"""Element-type classes and the tensor facts the shape rules, builders and lowerings share."""

from __future__ import annotations

from mlir import ir

FLOAT_TYPE_NAMES = ("f16", "bf16", "f32", "f64")


class HloTypeError(ValueError):
    """An hlo op whose operands, attributes or result types break its rule."""


def is_float(t: ir.Type) -> bool:
    return isinstance(t, ir.FloatType)


def is_integer(t: ir.Type) -> bool:
    """Integer element types of any width, i1 included."""
    return isinstance(t, ir.IntegerType)


def is_bool(t: ir.Type) -> bool:
    return isinstance(t, ir.IntegerType) and ir.IntegerType(t).width == 1


def is_unsigned(t: ir.Type) -> bool:
    return isinstance(t, ir.IntegerType) and ir.IntegerType(t).is_unsigned


def signless(t: ir.Type) -> ir.Type:
    """ui8 -> i8, tensor<4xui8> -> tensor<4xi8>; other types unchanged. arith and linalg
    compute on signless integers; whether a value is unsigned is kept on the side."""
    if isinstance(t, ir.RankedTensorType):
        et = t.element_type
        if not isinstance(et, ir.IntegerType) or et.is_signless:
            return t  # (not rebuilt: most tensors are float or signless)
        return ir.RankedTensorType.get(t.shape, signless(et))
    if isinstance(t, ir.IntegerType) and not t.is_signless:
        return ir.IntegerType.get_signless(t.width)
    return t


def integer_width(t: ir.Type) -> int:
    return ir.IntegerType(t).width


def element_bits(t: ir.Type) -> int | None:
    """Bit width of an integer or float element type; None for index and anything else."""
    if isinstance(t, (ir.IntegerType, ir.FloatType)):
        return t.width
    return None


def static_tensor(t: ir.Type, what: str) -> ir.RankedTensorType:
    """`t` as a statically shaped ranked tensor type, or an HloTypeError naming `what`."""
    if type(t) is ir.RankedTensorType and hash(t) in _checked(t.context):
        return t
    if not isinstance(t, ir.RankedTensorType):
        raise HloTypeError(f"{what} must be a ranked tensor, got {t}")
    # The bindings downcast types to their class; a cast is needed only for a plain ir.Type.
    rt = t if type(t) is ir.RankedTensorType else ir.RankedTensorType(t)
    if not rt.has_static_shape:
        raise HloTypeError(f"{what} must have a static shape, got {t} (dynamic shapes are not supported)")
    et = rt.element_type
    if not is_supported_element(et):
        raise HloTypeError(f"{what} has unsupported element type {et} (supported: i1, i8-i64, "
                           f"ui8-ui64, {', '.join(FLOAT_TYPE_NAMES)})")
    if byte_size(rt) >= MAX_TENSOR_BYTES:
        raise HloTypeError(f"{what} is too large: {t} holds {byte_size(rt)} bytes, more than "
                           f"2^62 (sizes and strides are 64-bit integers)")
    _checked(rt.context).add(hash(rt))
    return rt


def _checked(context: ir.Context) -> set:
    """The tensor types static_tensor accepted in `context`, by hash: the hash of the type's
    uniqued storage pointer, stable while the context lives (distinct types share one only
    by a 64-bit hash collision). Not the types themselves: they refer back to the context,
    a cycle through the bindings Python's collector cannot see, and kept every context alive.
    Verifying a module re-checks the same few types thousands of times."""
    return context_memo(context, "_mlc_static_tensors")


def context_memo(context: ir.Context, attribute: str, kind: type = set):
    """A set (or another `kind` of container) kept on `context` under `attribute` for the
    context's life (a memo of things checked in it); a fresh one each time for a context
    type that takes no attributes."""
    memo = getattr(context, attribute, None)
    if memo is None:
        memo = kind()
        try:
            setattr(context, attribute, memo)
        except AttributeError:  # a context type without attributes: no memo
            pass
    return memo


# Memref sizes and strides are i64; a tensor at or beyond this overflows them.
MAX_TENSOR_BYTES = 2 ** 62
_INTEGER_WIDTHS = (1, 8, 16, 32, 64)


def is_supported_element(t: ir.Type) -> bool:
    """An element type MLC computes with: i1, (u)i8-64, f16, bf16, f32, f64 (not f8, tf32,
    i4, i128, index, complex)."""
    if isinstance(t, ir.IntegerType):
        return t.width in _INTEGER_WIDTHS and not (t.is_unsigned and t.width == 1)
    return isinstance(t, _FLOAT_TYPES)


_FLOAT_TYPES = (ir.F16Type, ir.BF16Type, ir.F32Type, ir.F64Type)  # FLOAT_TYPE_NAMES, as classes


def tensor_type(shape, element_type: ir.Type) -> ir.RankedTensorType:
    return ir.RankedTensorType.get(list(shape), element_type)


def shape_str(shape) -> str:
    return "x".join(str(d) for d in shape) if len(shape) else "scalar"


def element_type_of(t: ir.Type) -> ir.Type:
    """The element type of a shaped type (vector, tensor, memref); any other type itself."""
    return ir.ShapedType(t).element_type if isinstance(t, ir.ShapedType) else t


def element_bytes(et: ir.Type) -> int:
    """Bytes of one element as stored (i1 counts as one byte; other types as 8)."""
    width = et.width if isinstance(et, (ir.FloatType, ir.IntegerType)) else 64
    return max(width // 8, 1)


def byte_size(t: ir.Type) -> int:
    """Bytes of a statically shaped tensor or memref (i1 counts as one byte, as stored)."""
    shaped = t if isinstance(t, ir.ShapedType) else ir.ShapedType(t)
    n = 1
    for d in shaped.shape:
        n *= d
    return n * element_bytes(shaped.element_type)
