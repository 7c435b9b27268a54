"""Algebraic simplification of elementwise hlo ops."""

from __future__ import annotations

import math

import numpy as np
from mlir import ir

from ...dialects import hlo
from ...dialects.hlo.types import is_bool, is_unsigned
from ..patterns import (attrs, element_type, is_float_value, is_splat_of, operand_if_same_type, pattern, producer,
                        splat, splat_like)


def _either(op, number):
    """(x, the other operand) when one operand of a binary op is a splat `number`."""
    lhs, rhs = op.operands
    if is_splat_of(rhs, number):
        return lhs
    if is_splat_of(lhs, number):
        return rhs
    return None


@pattern("hlo.add")
def add_negative_zero(op, ctx):
    """hlo.add(x, splat -0.0) -> x   (x + 0 for integers; exact: x + -0.0 is x for every x)"""
    if is_float_value(op.result):
        return _keep(_either(op, -0.0))
    return _keep(_either(op, 0))


@pattern("hlo.add", fast_math=True)
def add_zero_fast(op, ctx):
    """hlo.add(x, splat +0.0) -> x   (fast-math: -0.0 + 0.0 is +0.0)"""
    return _keep(_either(op, 0.0)) if is_float_value(op.result) else None


@pattern("hlo.subtract")
def subtract_zero(op, ctx):
    """hlo.subtract(x, splat 0) -> x   (exact for floats too: -0.0 - 0.0 = -0.0)"""
    lhs, rhs = op.operands
    return [lhs] if is_splat_of(rhs, 0.0 if is_float_value(lhs) else 0) else None


@pattern("hlo.multiply")
def multiply_one(op, ctx):
    """hlo.multiply(x, splat 1) -> x"""
    return _keep(_either(op, 1))


@pattern("hlo.divide")
def divide_one(op, ctx):
    """hlo.divide(x, splat 1) -> x"""
    lhs, rhs = op.operands
    return [lhs] if is_splat_of(rhs, 1) else None


def _zero_result(op):
    return [splat_like(op.result.type, 0)]


@pattern("hlo.multiply")
def multiply_zero_integer(op, ctx):
    """hlo.multiply(x, splat 0) -> splat 0   (integers; floats under fast-math)"""
    if is_float_value(op.result) and not ctx.fast_math:
        return None
    lhs, rhs = op.operands
    return _zero_result(op) if is_splat_of(lhs, 0) or is_splat_of(rhs, 0) else None


@pattern("hlo.subtract")
def subtract_self(op, ctx):
    """hlo.subtract(x, x) -> splat 0   (integers; floats under fast-math: inf - inf is NaN)"""
    lhs, rhs = op.operands
    if lhs != rhs or (is_float_value(lhs) and not ctx.fast_math):
        return None
    return _zero_result(op)


def _involution(name):
    def fn(op, ctx):
        inner = producer(op.operands[0], name)
        return [inner.operands[0]] if inner is not None else None
    return fn


@pattern("hlo.negate")
def negate_negate(op, ctx):
    """hlo.negate(hlo.negate(x)) -> x"""
    return _involution("hlo.negate")(op, ctx)


@pattern("hlo.not")
def not_not(op, ctx):
    """hlo.not(hlo.not(x)) -> x"""
    return _involution("hlo.not")(op, ctx)


@pattern("hlo.abs")
def abs_abs(op, ctx):
    """hlo.abs(hlo.abs(x)) -> hlo.abs(x)"""
    inner = producer(op.operands[0], "hlo.abs")
    return [inner.result] if inner is not None else None


@pattern("hlo.abs")
def abs_unsigned(op, ctx):
    """hlo.abs(x) -> x   (unsigned x: each value is its own magnitude)"""
    return [op.operands[0]] if _unsigned(op.result) else None


@pattern("hlo.abs")
def abs_negate(op, ctx):
    """hlo.abs(hlo.negate(x)) -> hlo.abs(x)   (signed and float x; for unsigned x, -x wraps
    and abs is the identity: abs(-2) is 2^64 - 2 in ui64, not 2)"""
    inner = producer(op.operands[0], "hlo.negate")
    return [hlo.abs(inner.operands[0])] if inner is not None and not _unsigned(op.result) else None


def _unsigned(value: ir.Value) -> bool:
    return is_unsigned(ir.RankedTensorType(value.type).element_type)


def _idempotent(op, ctx):
    lhs, rhs = op.operands
    return [lhs] if lhs == rhs else None


for _name in ("maximum", "minimum", "and", "or"):
    def _make(name):
        def fn(op, ctx):
            return _idempotent(op, ctx)
        fn.__doc__ = f"hlo.{name}(x, x) -> x"
        fn.__name__ = f"{name}_self"
        return fn
    pattern(f"hlo.{_name}")(_make(_name))


@pattern("hlo.xor")
def xor_self(op, ctx):
    """hlo.xor(x, x) -> splat 0"""
    lhs, rhs = op.operands
    return _zero_result(op) if lhs == rhs else None


@pattern("hlo.select")
def select_same_branches(op, ctx):
    """hlo.select(p, x, x) -> x"""
    _, a, b = op.operands
    return [a] if a == b else None


@pattern("hlo.select")
def select_constant_predicate(op, ctx):
    """hlo.select(splat true, a, b) -> a;  hlo.select(splat false, a, b) -> b"""
    p, a, b = op.operands
    value = splat(p)
    if value is None:
        return None
    return [a] if value else [b]


_SELF_COMPARE = {"EQ": True, "LE": True, "GE": True, "NE": False, "LT": False, "GT": False}


@pattern("hlo.compare")
def compare_self_integer(op, ctx):
    """hlo.compare(x, x, EQ|LE|GE) -> splat true; (NE|LT|GT) -> splat false   (integers: NaN != NaN)"""
    lhs, rhs = op.operands
    if lhs != rhs or is_float_value(lhs):
        return None
    return [splat_like(op.result.type, _SELF_COMPARE[attrs(op)["comparison_direction"]])]


@pattern("hlo.compare")
def compare_bool_identity(op, ctx):
    """hlo.compare(b, splat false, NE) -> b;  hlo.compare(b, splat true, EQ) -> b   (b: i1;
    count_nonzero(mask) and mask != 0 write it)"""
    if not is_bool(element_type(op.operands[0])):
        return None
    direction = attrs(op)["comparison_direction"]
    if direction not in ("NE", "EQ"):
        return None
    return _keep(_either(op, direction == "EQ"))


@pattern("hlo.power")
def power_two(op, ctx):
    """hlo.power(x, splat 2) -> hlo.multiply(x, x)"""
    x, y = op.operands
    return [hlo.multiply(x, x)] if is_splat_of(y, 2) else None


@pattern("hlo.power")
def power_one(op, ctx):
    """hlo.power(x, splat 1) -> x"""
    x, y = op.operands
    return [x] if is_splat_of(y, 1) else None


@pattern("hlo.power")
def power_zero(op, ctx):
    """hlo.power(x, splat 0) -> splat 1   (IEEE pow(x, 0) is 1 even for NaN)"""
    x, y = op.operands
    return [splat_like(op.result.type, 1)] if is_splat_of(y, 0.0 if is_float_value(y) else 0) else None


@pattern("hlo.power", fast_math=True)
def power_half(op, ctx):
    """hlo.power(x, splat 0.5) -> hlo.sqrt(x)   (fast-math: differs at -0.0 and -inf)"""
    x, y = op.operands
    return [hlo.sqrt(x)] if is_float_value(x) and is_splat_of(y, 0.5) else None


@pattern("hlo.divide")
def divide_by_power_of_two(op, ctx):
    """hlo.divide(x, splat c) -> hlo.multiply(x, splat 1/c)   (floats, when 1/c is exact: c = +-2^k)"""
    x, c = op.operands
    value = splat(c)
    if not is_float_value(x) or value is None or value == 0 or not math.isfinite(value):
        return None
    mantissa, exponent = math.frexp(abs(value))
    if mantissa != 0.5:
        return None
    reciprocal = 1.0 / value
    info = np.finfo(_numpy_float(x))
    if not (info.tiny <= abs(reciprocal) <= info.max):
        return None
    return [hlo.multiply(x, splat_like(c.type, reciprocal))]


def _numpy_float(value):
    width = ir.FloatType(ir.RankedTensorType(value.type).element_type).width
    return {16: np.float16, 32: np.float32, 64: np.float64}.get(width, np.float32)


@pattern("hlo.multiply", fast_math=True)
def exp_times_exp(op, ctx):
    """hlo.multiply(hlo.exponential(x), hlo.exponential(y)) -> hlo.exponential(hlo.add(x, y))   (fast-math)"""
    a = producer(op.operands[0], "hlo.exponential")
    b = producer(op.operands[1], "hlo.exponential")
    if a is None or b is None:
        return None
    return [hlo.exponential(hlo.add(a.operands[0], b.operands[0]))]


@pattern("hlo.convert")
def convert_same_type(op, ctx):
    """hlo.convert(x) : T -> T  ->  x"""
    return operand_if_same_type(op)


def _lossless(src: ir.Type, dst: ir.Type) -> bool:
    """Every value of src is exactly representable in dst."""
    def kind(t):
        if isinstance(t, ir.FloatType):
            return ("f", t.width, {16: 11, 32: 24, 64: 53}.get(t.width, 8) if str(t) != "bf16" else 8,
                    {16: 5, 32: 8, 64: 11}.get(t.width, 8))
        return ("u" if t.is_unsigned or t.width == 1 else "i", t.width, None, None)
    a, b = kind(src), kind(dst)
    if a[0] == "f":
        return b[0] == "f" and b[2] >= a[2] and b[3] >= a[3]
    if b[0] == "f":
        bits = a[1] if a[0] == "u" else a[1] - 1
        return bits <= b[2]
    if a[0] == b[0]:
        return b[1] >= a[1]
    return a[0] == "u" and b[0] == "i" and b[1] > a[1]


@pattern("hlo.convert")
def convert_convert_lossless(op, ctx):
    """hlo.convert(hlo.convert(x) : A) : B -> hlo.convert(x) : B   (when x -> A is lossless)"""
    inner = producer(op.operands[0], "hlo.convert")
    if inner is None:
        return None
    x = inner.operands[0]
    if not _lossless(ir.RankedTensorType(x.type).element_type, ir.RankedTensorType(inner.result.type).element_type):
        return None
    target = ir.RankedTensorType(op.result.type).element_type
    if x.type == op.result.type:
        return [x]
    return [hlo.convert(x, target)]


def _keep(x):
    return [x] if x is not None else None
