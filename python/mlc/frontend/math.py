"""numpy's elementwise functions on Tracers, each one or a few hlo ops.

`add`..`arctan2` follow numpy's semantics where they differ from StableHLO's: true division
of integers gives floats, `floor_divide` and `remainder` round toward -inf (hlo.divide and
hlo.remainder truncate), and `round` rounds half to even.
"""

from __future__ import annotations

from ..dialects import hlo
from .core import DEFAULT_FLOAT, asarray, astype, elementwise, promote, to_float, wrap
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
left_shift = _binary(hlo.shift_left)
right_shift = _binary(hlo.shift_right_arithmetic)
negative = _unary(hlo.negate)
abs = _unary(hlo.abs)  # noqa: A001 - numpy's name
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
floor = _float_unary(hlo.floor)
ceil = _float_unary(hlo.ceil)
round = _float_unary(hlo.round_nearest_even)  # noqa: A001 - numpy's name
rint = round
isfinite = _float_unary(hlo.is_finite)


def arctan2(y, x):
    return elementwise(hlo.atan2, y, x, float_only=True)


def true_divide(x, y):
    x, y = promote(x, y)
    x, y = to_float(x), to_float(y)
    return elementwise(hlo.divide, x, y)


divide = true_divide


def floor_divide(x, y):
    x, y = promote(x, y)
    if x.dtype.kind == "f":
        return floor(true_divide(x, y))
    q = elementwise(hlo.divide, x, y)
    if x.dtype.kind == "u":
        return q
    # Truncation rounds toward zero; numpy rounds toward -inf: step down when signs differ.
    r = elementwise(hlo.remainder, x, y)
    adjust = logical_and(not_equal(r, 0), not_equal(less(r, 0), less(y, 0)))
    return where(adjust, subtract(q, 1), q)


def remainder(x, y):
    """numpy's %: the result has the sign of the divisor."""
    x, y = promote(x, y)
    r = elementwise(hlo.remainder, x, y)
    if x.dtype.kind == "u":
        return r
    adjust = logical_and(not_equal(r, 0), not_equal(less(r, 0), less(y, 0)))
    return where(adjust, add(r, y), r)


mod = remainder


def power(x, y):
    return elementwise(hlo.power, x, y)


def square(x):
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
    condition = astype(asarray(condition), bool)
    x, y = promote(x, y)
    condition, x, y = promote_shapes(condition, x, y)
    return wrap(emit(hlo.select, condition.value, x.value, y.value))


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
            "emit", "Tracer", "DEFAULT_FLOAT", "promote_shapes")]
