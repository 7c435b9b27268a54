"""Scalar emitters: what one element of each elementwise hlo op computes, in arith/math.

`SCALAR_OPS[name](info, *args)` emits the scalar computation at the current insertion
point (inside a linalg.generic body) and returns the result value. The same emitters serve
every kernel that computes elementwise ops, so an op's semantics live in one place.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from mlir import ir
from mlir.dialects import arith, math

from ...dialects.hlo.types import integer_width, is_bool, is_float


@dataclass(frozen=True)
class ElementInfo:
    """What an emitter may need: attribute values, the (signless) operand/result element
    types, and whether the hlo types were unsigned."""

    attributes: dict
    operand_types: tuple
    result_type: ir.Type
    unsigned: bool = False  # the operands (and so the result, but for compare) are unsigned
    result_unsigned: bool = False


ScalarFn = Callable[..., ir.Value]
SCALAR_OPS: dict[str, ScalarFn] = {}


def scalar(name: str):
    def register(fn: ScalarFn) -> ScalarFn:
        SCALAR_OPS[name] = fn
        return fn
    return register


def _same_type_op(name: str) -> Callable[..., ir.Value]:
    """A builder of op `name` whose one result has its first operand's type (arith's binary
    ops, math's functions), at the current insertion point and location. The bindings'
    Operation.create directly: the generated builders (arith.addf, math.tanh) make the same
    op about 3x slower, and a big graph builds one per element op."""
    def build(*operands: ir.Value) -> ir.Value:
        return ir.Operation.create(name, results=[operands[0].type], operands=list(operands)).result
    build.__name__ = name.partition(".")[2]
    return build


_ADDF, _ADDI, _ORI = _same_type_op("arith.addf"), _same_type_op("arith.addi"), _same_type_op("arith.ori")
_MULF, _MULI, _ANDI = _same_type_op("arith.mulf"), _same_type_op("arith.muli"), _same_type_op("arith.andi")
_SUBF, _SUBI, _NEGF = _same_type_op("arith.subf"), _same_type_op("arith.subi"), _same_type_op("arith.negf")
_DIVF = _same_type_op("arith.divf")


def const(t: ir.Type, value) -> ir.Value:
    """A scalar arith.constant of element type `t` (integers wrap to its width)."""
    if is_float(t):
        attr = ir.FloatAttr.get(t, float(value))
    else:
        width = integer_width(t)
        value = int(value) & ((1 << width) - 1)
        if width > 1 and value >= 1 << (width - 1):
            value -= 1 << width  # two's complement: the signless constant with the same bits
        attr = ir.IntegerAttr.get(t, value)
    # (what arith.constant(t, attr) builds, without the generated builder's overhead)
    return ir.Operation.create("arith.constant", results=[t], attributes={"value": attr}).result


def _by_class(t: ir.Type, float_fn, int_fn, bool_fn=None):
    if is_float(t):
        return float_fn
    if is_bool(t) and bool_fn is not None:
        return bool_fn
    return int_fn


# Combiners: also used by reduce, scatter and dot_general. i1 is a logical value, so its add
# is `or` and its mul is `and` (StableHLO), and max/min are or/and (maxsi would treat true
# as -1). `u` says the integers are unsigned.
COMBINERS = {
    "add": lambda t, u: _by_class(t, _ADDF, _ADDI, _ORI),
    "mul": lambda t, u: _by_class(t, _MULF, _MULI, _ANDI),
    "max": lambda t, u: _by_class(t, arith.maximumf, arith.maxui if u else arith.maxsi, arith.ori),
    "min": lambda t, u: _by_class(t, arith.minimumf, arith.minui if u else arith.minsi, arith.andi),
    "and": lambda t, u: arith.andi,
    "or": lambda t, u: arith.ori,
    "xor": lambda t, u: arith.xori,
}


def combine(kind: str, t: ir.Type, a: ir.Value, b: ir.Value, unsigned: bool = False) -> ir.Value:
    return COMBINERS[kind](t, unsigned)(a, b)


# The combiners' identities (t, unsigned) -> value: add 0, mul 1, max -inf or the smallest
# integer, min the reverse; the bitwise combiners have none here.
IDENTITIES = {
    "add": lambda t, u: const(t, 0),
    "mul": lambda t, u: const(t, 1),
    "max": lambda t, u: extreme(t, False, u),
    "min": lambda t, u: extreme(t, True, u),
}


def identity(kind: str, t: ir.Type, unsigned: bool) -> ir.Value | None:
    """The combiner's identity (IDENTITIES), None for one without."""
    make = IDENTITIES.get(kind)
    return make(t, unsigned) if make is not None else None


def extreme(t: ir.Type, largest: bool, unsigned: bool) -> ir.Value:
    """The identity of min (largest=True: +inf, INT_MAX, UINT_MAX) or of max."""
    if is_float(t):
        return const(t, float("inf") if largest else float("-inf"))
    if is_bool(t):
        return const(t, 1 if largest else 0)
    width = ir.IntegerType(t).width
    if unsigned:
        return const(t, (1 << width) - 1 if largest else 0)
    return const(t, (1 << (width - 1)) - 1 if largest else -(1 << (width - 1)))


@scalar("add")
def _add(info, lhs, rhs):
    return combine("add", info.result_type, lhs, rhs)


@scalar("multiply")
def _multiply(info, lhs, rhs):
    return combine("mul", info.result_type, lhs, rhs)


@scalar("maximum")
def _maximum(info, lhs, rhs):
    return combine("max", info.result_type, lhs, rhs, info.unsigned)


@scalar("minimum")
def _minimum(info, lhs, rhs):
    return combine("min", info.result_type, lhs, rhs, info.unsigned)


@scalar("subtract")
def _subtract(info, lhs, rhs):
    return _by_class(info.result_type, _SUBF, _SUBI)(lhs, rhs)


@scalar("divide")
def _divide(info, lhs, rhs):
    t = info.result_type
    if is_float(t):
        return _DIVF(lhs, rhs)
    if info.unsigned:  # x / 0 = all ones (XLA); no overflow case
        by_zero = arith.cmpi(arith.CmpIPredicate.eq, rhs, const(t, 0))
        quotient = arith.divui(lhs, arith.select(by_zero, const(t, 1), rhs))
        return arith.select(by_zero, const(t, -1), quotient)
    # LLVM's sdiv traps on x/0 and INT_MIN/-1; XLA defines them as -1 and INT_MIN.
    zero, one, minus_one = const(t, 0), const(t, 1), const(t, -1)
    int_min = const(t, -(1 << (integer_width(t) - 1)))
    by_zero = arith.cmpi(arith.CmpIPredicate.eq, rhs, zero)
    overflow = arith.andi(arith.cmpi(arith.CmpIPredicate.eq, lhs, int_min),
                          arith.cmpi(arith.CmpIPredicate.eq, rhs, minus_one))
    safe_rhs = arith.select(arith.ori(by_zero, overflow), one, rhs)
    return arith.select(by_zero, minus_one, arith.divsi(lhs, safe_rhs))


@scalar("negate")
def _negate(info, x):
    t = info.result_type
    if is_float(t):
        return _NEGF(x)
    return _SUBI(const(t, 0), x)


@scalar("abs")
def _abs(info, x):
    if info.unsigned:
        return x
    return _by_class(info.result_type, math.absf, math.absi)(x)


# Float functions that are one math-dialect op each.
_MATH_UNARY = {name: _same_type_op(f"math.{op}") for name, op in {
    "exponential": "exp", "log": "log", "tanh": "tanh", "sqrt": "sqrt", "rsqrt": "rsqrt",
    "cbrt": "cbrt", "sine": "sin", "cosine": "cos", "tan": "tan",
    "floor": "floor", "ceil": "ceil", "round_nearest_even": "roundeven",
    "round_nearest_afz": "round", "popcnt": "ctpop", "count_leading_zeros": "ctlz",
}.items()}
for _name, _fn in _MATH_UNARY.items():
    scalar(_name)(lambda info, x, _fn=_fn: _fn(x))


def _in_f32_if_narrow(t: ir.Type, x: ir.Value, fn) -> ir.Value:
    """fn(x, type) computed in f32 for f16/bf16 (then rounded once), in `t` otherwise."""
    if ir.FloatType(t).width >= 32:
        return fn(x, t)
    f32 = ir.F32Type.get()
    return arith.truncf(t, fn(arith.extf(f32, x), f32))


def _log1p(x: ir.Value, t: ir.Type) -> ir.Value:
    # Not log(1 + x) (what math.log1p becomes in convert-math-to-llvm): that loses every
    # digit for |x| < eps. With u = 1 + x rounded, log(u) * (x / (u - 1)) is accurate to a
    # few ulp (Goldberg 1991, Theorem 4): ln(u)/(u-1) is flat, so u's rounding error cancels.
    # x / (u - 1) first keeps x * log(u) from overflowing for huge x.
    u = arith.addf(const(t, 1), x)
    u_minus_one = arith.subf(u, const(t, 1))
    result = arith.mulf(math.log(u), arith.divf(x, u_minus_one))
    result = arith.select(arith.cmpf(arith.CmpFPredicate.OEQ, u_minus_one, const(t, 0)), x, result)  # tiny x, +-0
    # +inf: inf/inf in the ratio would be NaN. (x = -1: log(0) * 1 = -inf; x < -1, NaN: NaN.)
    return arith.select(arith.cmpf(arith.CmpFPredicate.OEQ, u, const(t, float("inf"))), u, result)


def _expm1(x: ir.Value, t: ir.Type) -> ir.Value:
    # Not exp(x) - 1 (what math.expm1 becomes): with u = exp(x) rounded, (u - 1) * (x / log(u))
    # is accurate to a few ulp (Kahan's formula; (u-1)/log(u) is flat in u). x / log(u)
    # first keeps (u - 1) * x from overflowing near the top of the range.
    u = math.exp(x)
    u_minus_one = arith.subf(u, const(t, 1))
    result = arith.mulf(u_minus_one, arith.divf(x, math.log(u)))
    result = arith.select(arith.cmpf(arith.CmpFPredicate.OEQ, u_minus_one, const(t, 0)), x, result)  # tiny x, +-0
    # exp(x) rounds to 0 or below 1/2 eps: -1 exactly (log(0) = -inf would give 0 above).
    result = arith.select(arith.cmpf(arith.CmpFPredicate.OEQ, u_minus_one, const(t, -1)), u_minus_one, result)
    # overflow and +inf: inf/inf in the ratio would be NaN.
    return arith.select(arith.cmpf(arith.CmpFPredicate.OEQ, u, const(t, float("inf"))), u, result)


@scalar("log_plus_one")
def _log_plus_one(info, x):
    return _in_f32_if_narrow(info.result_type, x, _log1p)


@scalar("exponential_minus_one")
def _exponential_minus_one(info, x):
    return _in_f32_if_narrow(info.result_type, x, _expm1)


@scalar("logistic")
def _logistic(info, x):
    t = info.result_type
    return arith.divf(const(t, 1), arith.addf(const(t, 1), math.exp(arith.negf(x))))


@scalar("sign")
def _sign(info, x):
    t = info.result_type
    if is_float(t):  # x itself for +-0 and NaN
        positive = arith.cmpf(arith.CmpFPredicate.OGT, x, const(t, 0))
        negative = arith.cmpf(arith.CmpFPredicate.OLT, x, const(t, 0))
        return arith.select(positive, const(t, 1), arith.select(negative, const(t, -1), x))
    if info.unsigned:
        return arith.extui(t, arith.cmpi(arith.CmpIPredicate.ne, x, const(t, 0)))
    positive = arith.cmpi(arith.CmpIPredicate.sgt, x, const(t, 0))
    negative = arith.cmpi(arith.CmpIPredicate.slt, x, const(t, 0))
    return arith.select(positive, const(t, 1), arith.select(negative, const(t, -1), const(t, 0)))


@scalar("is_finite")
def _is_finite(info, x):
    # Ordered not-equal: false for NaN as well as for infinities.
    t = info.operand_types[0]
    return arith.cmpf(arith.CmpFPredicate.ONE, math.absf(x), const(t, float("inf")))


@scalar("not")
def _not(info, x):
    return arith.xori(x, const(info.result_type, -1))


scalar("and")(lambda info, lhs, rhs: arith.andi(lhs, rhs))
scalar("or")(lambda info, lhs, rhs: arith.ori(lhs, rhs))
scalar("xor")(lambda info, lhs, rhs: arith.xori(lhs, rhs))
@scalar("atan2")
def _atan2(info, y, x):
    """atan2(y, x), with atan2(+-0, +-0) = +-0 (x = +0) or +-pi (x = -0) spelled out as C's
    and numpy's: upstream's math.atan2 folder answers NaN for two constant zeros (a folded
    iota, a zero broadcast), which the libm call would get right."""
    t = info.result_type
    zero = const(t, 0)
    both_zero = arith.andi(arith.cmpf(arith.CmpFPredicate.OEQ, y, zero),
                           arith.cmpf(arith.CmpFPredicate.OEQ, x, zero))
    negative_x = arith.cmpf(arith.CmpFPredicate.OLT, math.copysign(const(t, 1), x), zero)
    on_axis = math.copysign(arith.select(negative_x, const(t, 3.141592653589793), zero), y)
    return arith.select(both_zero, on_axis, math.atan2(y, x))


@scalar("remainder")
def _remainder(info, lhs, rhs):
    t = info.result_type
    if is_float(t):
        return arith.remf(lhs, rhs)
    if info.unsigned:  # x % 0 = x
        by_zero = arith.cmpi(arith.CmpIPredicate.eq, rhs, const(t, 0))
        return arith.select(by_zero, lhs, arith.remui(lhs, arith.select(by_zero, const(t, 1), rhs)))
    # srem traps on x % 0 and INT_MIN % -1; XLA defines them as x and 0.
    zero, one, minus_one = const(t, 0), const(t, 1), const(t, -1)
    by_zero = arith.cmpi(arith.CmpIPredicate.eq, rhs, zero)
    by_minus_one = arith.cmpi(arith.CmpIPredicate.eq, rhs, minus_one)
    safe_rhs = arith.select(arith.ori(by_zero, by_minus_one), one, rhs)
    rem = arith.remsi(lhs, safe_rhs)  # x % 1 = 0 covers the -1 case
    return arith.select(by_zero, lhs, rem)


@scalar("power")
def _power(info, lhs, rhs):
    t = info.result_type
    if is_float(t):
        return math.powf(lhs, rhs)
    if info.unsigned:
        # math.ipowi reads n as signed: for n >= 2^(w-1) (top bit set) it would give 0.
        # x^n = x^(n without its top bit) * x^(2^(w-1)), the latter by w-1 squarings.
        w = integer_width(t)
        low = arith.andi(rhs, const(t, (1 << (w - 1)) - 1))
        top = lhs
        for _ in range(w - 1):
            top = arith.muli(top, top)
        high = arith.cmpi(arith.CmpIPredicate.ne, arith.andi(rhs, const(t, -(1 << (w - 1)))), const(t, 0))
        part = math.ipowi(lhs, low)
        return arith.select(high, arith.muli(part, top), part)
    # Integer x^n by squaring over the bits of n; n < 0 gives 0 unless |x| = 1.
    zero, one, minus_one = const(t, 0), const(t, 1), const(t, -1)
    positive = math.ipowi(lhs, arith.select(arith.cmpi(arith.CmpIPredicate.slt, rhs, zero), zero, rhs))
    odd = arith.cmpi(arith.CmpIPredicate.ne, arith.andi(rhs, one), zero)
    negative_result = arith.select(arith.cmpi(arith.CmpIPredicate.eq, lhs, one), one,
                                   arith.select(arith.cmpi(arith.CmpIPredicate.eq, lhs, minus_one),
                                                arith.select(odd, minus_one, one), zero))
    return arith.select(arith.cmpi(arith.CmpIPredicate.slt, rhs, zero), negative_result, positive)


def _shift(info, lhs, rhs, shift_fn, overflow_value):
    # LLVM shifts by >= the bit width are poison; StableHLO defines them.
    t = info.result_type
    too_far = arith.cmpi(arith.CmpIPredicate.uge, rhs, const(t, integer_width(t)))
    safe = arith.select(too_far, const(t, 0), rhs)
    return arith.select(too_far, overflow_value(t, lhs), shift_fn(lhs, safe))


scalar("shift_left")(lambda info, lhs, rhs: _shift(info, lhs, rhs, arith.shli, lambda t, x: const(t, 0)))
scalar("shift_right_logical")(
    lambda info, lhs, rhs: _shift(info, lhs, rhs, arith.shrui, lambda t, x: const(t, 0)))
scalar("shift_right_arithmetic")(lambda info, lhs, rhs: _shift(
    info, lhs, rhs, arith.shrsi, lambda t, x: arith.shrsi(x, const(t, integer_width(t) - 1))))


@scalar("clamp")
def _clamp(info, low, x, high):
    t, u = info.result_type, info.unsigned
    return combine("min", t, combine("max", t, x, low, u), high, u)


_FLOAT_PREDICATES = {"EQ": "OEQ", "NE": "UNE", "LT": "OLT", "LE": "OLE", "GT": "OGT", "GE": "OGE"}
_SIGNED_PREDICATES = {"EQ": "eq", "NE": "ne", "LT": "slt", "LE": "sle", "GT": "sgt", "GE": "sge"}
_UNSIGNED_PREDICATES = {"EQ": "eq", "NE": "ne", "LT": "ult", "LE": "ule", "GT": "ugt", "GE": "uge"}


def default_compare_type(t: ir.Type, unsigned: bool = False) -> str:
    """StableHLO's default: FLOAT for floats, UNSIGNED for i1 and unsigned integers, SIGNED
    for other integers."""
    return "FLOAT" if is_float(t) else "UNSIGNED" if is_bool(t) or unsigned else "SIGNED"


@scalar("compare")
def _compare(info, lhs, rhs):
    t = info.operand_types[0]
    direction = info.attributes["comparison_direction"]
    compare_type = info.attributes.get("compare_type") or default_compare_type(t, info.unsigned)
    if compare_type == "FLOAT":
        return arith.cmpf(getattr(arith.CmpFPredicate, _FLOAT_PREDICATES[direction]), lhs, rhs)
    if compare_type == "TOTALORDER":
        lhs, rhs = _total_order_key(lhs, t), _total_order_key(rhs, t)
    table = _UNSIGNED_PREDICATES if compare_type == "UNSIGNED" else _SIGNED_PREDICATES
    return arith.cmpi(getattr(arith.CmpIPredicate, table[direction]), lhs, rhs)


def _total_order_key(x: ir.Value, t: ir.Type) -> ir.Value:
    """An integer whose signed order is IEEE totalOrder: -NaN < -inf < ... < -0 < +0 < ... < NaN.

    The float's bits as a signed integer order non-negative floats correctly; negative ones
    are ordered backwards, so their magnitude bits are flipped.
    """
    it = ir.IntegerType.get_signless(ir.FloatType(t).width)
    bits = arith.bitcast(it, x)
    negative = arith.cmpi(arith.CmpIPredicate.slt, bits, const(it, 0))
    int_max = const(it, (1 << (ir.FloatType(t).width - 1)) - 1)
    return arith.select(negative, arith.xori(bits, int_max), bits)


@scalar("select")
def _select(info, pred, on_true, on_false):
    return arith.select(pred, on_true, on_false)


@scalar("bitcast_convert")
def _bitcast_convert(info, x):
    return arith.bitcast(info.result_type, x)


@scalar("convert")
def _convert(info, x):
    return convert_scalar(x, info.operand_types[0], info.result_type, info.unsigned,
                          info.result_unsigned)


def convert_scalar(x: ir.Value, src: ir.Type, dst: ir.Type, src_unsigned: bool = False,
                   dst_unsigned: bool = False) -> ir.Value:
    """StableHLO convert of one element (signless types; the flags say which side is
    unsigned): see docs/dialect.md for the rounding and saturation rules."""
    if src == dst:
        return x
    if is_bool(dst):
        if is_float(src):
            return arith.cmpf(arith.CmpFPredicate.UNE, x, const(src, 0))
        return arith.cmpi(arith.CmpIPredicate.ne, x, const(src, 0))
    if is_float(src) and is_float(dst):
        wider = ir.FloatType(dst).width > ir.FloatType(src).width
        return arith.extf(dst, x) if wider else arith.truncf(dst, x)
    zero_extend = is_bool(src) or src_unsigned
    if is_float(dst):
        return arith.uitofp(dst, x) if zero_extend else arith.sitofp(dst, x)
    if is_float(src):
        return _float_to_int_saturating(x, src, dst, dst_unsigned)
    src_w, dst_w = integer_width(src), integer_width(dst)
    if dst_w > src_w:
        return arith.extui(dst, x) if zero_extend else arith.extsi(dst, x)
    return arith.trunci(dst, x)


def _float_to_int_saturating(x, src, dst, unsigned: bool):
    # fptosi/fptoui are poison out of range; clamp like XLA: NaN -> 0, out of range -> the
    # nearest end of the integer range.
    if ir.FloatType(src).width < 32:
        src = ir.F32Type.get()
        x = arith.extf(src, x)
    w = integer_width(dst)
    low, high = (0, (1 << w) - 1) if unsigned else (-(1 << (w - 1)), (1 << (w - 1)) - 1)
    raw = arith.fptoui(dst, x) if unsigned else arith.fptosi(dst, x)
    too_big = arith.cmpf(arith.CmpFPredicate.OGE, x, const(src, float(high + 1)))
    too_small = arith.cmpf(arith.CmpFPredicate.OLT, x, const(src, float(low)))
    is_nan = arith.cmpf(arith.CmpFPredicate.UNO, x, x)
    result = arith.select(too_big, const(dst, high), raw)
    result = arith.select(too_small, const(dst, low), result)
    return arith.select(is_nan, const(dst, 0), result)
