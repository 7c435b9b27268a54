"""numpy's elementwise functions on Tracers, each one or a few hlo ops.

`add`..`arctan2` follow numpy's semantics where they differ from StableHLO's: true division
of integers gives floats, `floor_divide` and `remainder` round toward -inf (hlo.divide and
hlo.remainder truncate), `right_shift` is logical for unsigned integers, and `round` rounds
half to even (with numpy's `decimals`).

Float `floor_divide`/`remainder` are numpy's `npy_divmod` step for step (so inf // 1 is NaN,
signs of zero and NaN/inf cases agree). Integer division by zero follows JAX: `x % 0` is 0
(numpy agrees), `x // 0` is JAX's -1 adjusted by its floor rule (-2 for x != 0, -1 for
x == 0; UINT_MAX unsigned), where numpy gives 0. Bool operands of the integer-only ops
(shifts, `//`, `%`) become int32, as JAX's numeric promotion does (numpy: int8).
"""

from __future__ import annotations

import numpy as np

from ..dialects import hlo
from .core import DEFAULT_FLOAT, DEFAULT_INT, asarray, astype, element_type, elementwise, promote, to_float, wrap
from .tracing import Tracer, emit


def _float_unary(build):
    def fn(x):
        return elementwise(build, x, float_only=True)
    fn.__name__ = build.__name__
    return fn


def _unary(build):
    def fn(x):
        return elementwise(build, x)
    fn.__name__ = build.__name__
    return fn


def _binary(build):
    def fn(x, y):
        return elementwise(build, x, y)
    fn.__name__ = build.__name__
    return fn


add = _binary(hlo.add)
subtract = _binary(hlo.subtract)
multiply = _binary(hlo.multiply)
maximum = _binary(hlo.maximum)
minimum = _binary(hlo.minimum)
bitwise_and = _binary(hlo.and_)
bitwise_or = _binary(hlo.or_)
bitwise_xor = _binary(hlo.xor)


def _numeric(x, y):
    """Promoted operands, bools as int32 (JAX's promote_args_numeric)."""
    x, y = promote(x, y)
    if x.dtype == bool:
        x, y = promote(astype(x, DEFAULT_INT), astype(y, DEFAULT_INT))
    return x, y


def left_shift(x, y):
    return elementwise(hlo.shift_left, *_numeric(x, y))


def right_shift(x, y):
    """numpy's >>: logical for unsigned integers, arithmetic for signed ones. A count >= the
    bit width (or negative, read as unsigned) gives 0, or -1 for a negative signed x."""
    x, y = _numeric(x, y)
    build = hlo.shift_right_logical if x.dtype.kind == "u" else hlo.shift_right_arithmetic
    return elementwise(build, x, y)


negative = _unary(hlo.negate)
_abs = _unary(hlo.abs)


def abs(x):  # noqa: A001 - numpy's name
    """|x|; the identity on booleans (as numpy and JAX; hlo.abs takes numbers only)."""
    x = asarray(x)
    return x if x.dtype == np.bool_ else _abs(x)


absolute = abs
sign = _unary(hlo.sign)
invert = _unary(hlo.not_)
exp = _float_unary(hlo.exponential)
expm1 = _float_unary(hlo.exponential_minus_one)
log = _float_unary(hlo.log)
log1p = _float_unary(hlo.log_plus_one)
sqrt = _float_unary(hlo.sqrt)
cbrt = _float_unary(hlo.cbrt)
sin = _float_unary(hlo.sine)
cos = _float_unary(hlo.cosine)
tan = _float_unary(hlo.tan)
tanh = _float_unary(hlo.tanh)


def _rounding(build):
    """floor, ceil: the identity on integers and bools, which keep their dtype (JAX, and
    numpy since 2.x; they were rounded as floats, ceil(int64) a float32); floats rounded."""
    def fn(x):
        x = asarray(x)
        return x if x.dtype.kind in "biu" else elementwise(build, x, float_only=True)
    fn.__name__ = build.__name__
    return fn


floor = _rounding(hlo.floor)
ceil = _rounding(hlo.ceil)


def trunc(x):
    """Rounded toward zero: ceil below zero, floor elsewhere (so -0.5 -> -0.0 and NaN stays
    NaN); integers and bools unchanged, as floor and ceil."""
    x = asarray(x)
    if x.dtype.kind in "biu":
        return x
    return where(less(x, 0), ceil(x), floor(x))


rint = _float_unary(hlo.round_nearest_even)
isfinite = _float_unary(hlo.is_finite)


def arctan2(y, x):
    return elementwise(hlo.atan2, y, x, float_only=True)


def true_divide(x, y):
    x, y = promote(x, y)
    x, y = to_float(x), to_float(y)
    return elementwise(hlo.divide, x, y)


divide = true_divide


def _signbit(x: Tracer) -> Tracer:
    """The float's sign bit (true for -0.0 and negative NaNs)."""
    bits = np.dtype(f"i{x.dtype.itemsize}")
    return less(wrap(emit(hlo.bitcast_convert, x.value, element_type(bits))), 0)


def _signed_zero(sign_of: Tracer) -> Tracer:
    """copysign(0, sign_of), weakly typed (it takes the dtype of what it meets)."""
    return where(_signbit(sign_of), -0.0, 0.0)


def _float_divmod(x: Tracer, y: Tracer) -> tuple[Tracer, Tracer]:
    """numpy's npy_divmod (npy_math_internal.h): fmod, then the quotient from the exact
    a - mod, both stepped to floor rounding; zero results take their sign from a / b (the
    quotient) and b (the remainder); b == 0 gives a / b and fmod's NaN. float16 goes
    through float32, as numpy's npy_half_divmod does."""
    if x.dtype == np.float16:
        div, mod = _float_divmod(astype(x, np.float32), astype(y, np.float32))
        return astype(div, np.float16), astype(mod, np.float16)
    mod = elementwise(hlo.remainder, x, y)  # fmod
    div = true_divide(subtract(x, mod), y)
    mod_is_zero = equal(mod, 0)
    adjust = logical_and(logical_not(mod_is_zero), not_equal(less(y, 0), less(mod, 0)))
    mod = where(adjust, add(mod, y), where(mod_is_zero, _signed_zero(y), mod))
    div = where(adjust, subtract(div, 1), div)
    floor_div = floor(div)
    floor_div = where(greater(subtract(div, floor_div), 0.5), add(floor_div, 1), floor_div)
    quotient = true_divide(x, y)
    floor_div = where(equal(div, 0), _signed_zero(quotient), floor_div)
    by_zero = equal(y, 0)
    return where(by_zero, quotient, floor_div), mod


def floor_divide(x, y):
    x, y = _numeric(x, y)
    if x.dtype.kind == "f":
        return _float_divmod(x, y)[0]
    q = elementwise(hlo.divide, x, y)
    if x.dtype.kind == "u":
        return q
    # Truncation rounds toward zero; numpy rounds toward -inf: step down when signs differ
    # and the division is inexact (JAX's rule, which also fixes x // 0: see the docstring).
    r = elementwise(hlo.remainder, x, y)
    adjust = logical_and(not_equal(r, 0), not_equal(sign(x), sign(y)))
    return where(adjust, subtract(q, 1), q)


def remainder(x, y):
    """numpy's %: the result has the sign of the divisor; x % 0 is 0 for integers (numpy,
    JAX) and NaN for floats."""
    x, y = _numeric(x, y)
    if x.dtype.kind == "f":
        return _float_divmod(x, y)[1]
    by_zero = equal(y, 0)
    r = elementwise(hlo.remainder, x, where(by_zero, 1, y))
    if x.dtype.kind == "u":
        return r
    adjust = logical_and(not_equal(r, 0), not_equal(less(r, 0), less(y, 0)))
    return where(adjust, add(r, y), r)


mod = remainder


def round(x, decimals=0):  # noqa: A001 - numpy's name
    """numpy's round: half to even, at `decimals` digits (negative: left of the point).
    Floats are rint(x * 10^d) / 10^d (rint(x / 10^-d) * 10^-d for d < 0), as numpy computes
    them (float16 in float32, as JAX does); integers are unchanged for decimals >= 0 and
    rounded exactly, in integer arithmetic, for decimals < 0."""
    x = asarray(x)
    decimals = int(decimals)
    if x.dtype.kind in "biu":
        if decimals >= 0:
            return x
        if x.dtype == bool:
            x = astype(x, DEFAULT_INT)
        factor = 10 ** -decimals
        if factor > np.iinfo(x.dtype).max:  # |x| < factor / 2: every value rounds to 0
            return multiply(x, 0)
        f = astype(factor, x.dtype)
        q = floor_divide(x, f)
        r = subtract(x, multiply(q, f))  # 0 <= r < factor
        rest = subtract(f, r)
        odd = not_equal(remainder(q, 2), 0)
        up = logical_or(greater(r, rest), logical_and(equal(r, rest), odd))
        return multiply(where(up, add(q, 1), q), f)
    dtype = x.dtype
    if dtype == np.float16:
        x = astype(x, np.float32)
    if decimals == 0:
        out = rint(x)
    elif decimals > 0:
        out = true_divide(rint(multiply(x, 10.0 ** decimals)), 10.0 ** decimals)
    else:
        out = multiply(rint(true_divide(x, 10.0 ** -decimals)), 10.0 ** -decimals)
    return astype(out, dtype) if dtype == np.float16 else out


around = round


def power(x, y):
    return elementwise(hlo.power, x, y)


def square(x):
    """x * x; a bool squares as the default int (as JAX; bool * bool would stay bool)."""
    x = asarray(x)
    if x.dtype == np.bool_:
        x = astype(x, DEFAULT_INT)
    return multiply(x, x)


def reciprocal(x):
    return true_divide(1.0 if asarray(x).dtype.kind == "f" else 1, x)


def rsqrt(x):
    return elementwise(hlo.rsqrt, x, float_only=True)


def sigmoid(x):
    return elementwise(hlo.logistic, x, float_only=True)


def clip(x, a_min=None, a_max=None):
    x = asarray(x)
    if a_min is not None:
        x = maximum(x, astype(asarray(a_min), x.dtype) if not isinstance(a_min, Tracer) else a_min)
    if a_max is not None:
        x = minimum(x, astype(asarray(a_max), x.dtype) if not isinstance(a_max, Tracer) else a_max)
    return x


def _compare(direction):
    def fn(x, y):
        x, y = promote(x, y)
        return wrap(emit(hlo.compare, x.value, y.value, direction))
    fn.__name__ = direction.lower()
    return fn


equal = _compare("EQ")
not_equal = _compare("NE")
less = _compare("LT")
less_equal = _compare("LE")
greater = _compare("GT")
greater_equal = _compare("GE")


def _logical(build):
    def fn(x, y):
        return elementwise(build, astype(x, bool), astype(y, bool))
    fn.__name__ = build.__name__
    return fn


logical_and = _logical(hlo.and_)
logical_or = _logical(hlo.or_)
logical_xor = _logical(hlo.xor)


def logical_not(x):
    return elementwise(hlo.not_, astype(x, bool))


def where(condition, x, y):
    """x where condition else y; weakly typed when both x and y are (JAX's rule)."""
    condition = astype(asarray(condition), bool)
    x, y = promote(x, y)
    condition, x, y = promote_shapes(condition, x, y)
    return wrap(emit(hlo.select, condition.value, x.value, y.value), x.weak and y.weak)


def promote_shapes(*xs):
    from .core import broadcast_arrays
    return broadcast_arrays(*xs)


def isnan(x):
    x = asarray(x)
    return not_equal(x, x)


def isinf(x):
    x = to_float(asarray(x))
    return logical_and(logical_not(isfinite(x)), logical_not(isnan(x)))


__all__ = [name for name in dir() if not name.startswith("_") and name not in
           ("annotations", "hlo", "asarray", "astype", "elementwise", "promote", "to_float", "wrap",
            "emit", "Tracer", "DEFAULT_FLOAT", "DEFAULT_INT", "promote_shapes", "np", "element_type")]
