"""Elementary functions the op table has no op for, composed from the ones it has
(exponential, exponential_minus_one, log, log_plus_one, sqrt, atan2, power):

    arctan(x)  = atan2(x, 1)
    arcsin(x)  = atan2(x, sqrt((1 - x)(1 + x)))
    arccos(x)  = atan2(sqrt((1 - x)(1 + x)), x)
    sinh(x)    = sign(x) (u + u / (u + 1)) / 2, u = expm1(|x|)        (|x| <= 1: no cancellation)
               = sign(x) (e - 1 / (4 e)), e = exp(|x| - ln 2)            (|x| > 1: no early overflow)
    cosh(x)    = e + 1 / (4 e),  e = exp(|x| - ln 2)
    arcsinh(x) = sign(x) log1p(a + a^2 / (1 + sqrt(1 + a^2))), a = |x|   (log(a) + ln 2 for huge a)
    arccosh(x) = log1p(t + sqrt(t (t + 2))), t = x - 1                    (log(x) + ln 2 for huge x)
    arctanh(x) = log1p(2x / (1 - x)) / 2
    log2(x)    = log(x) / ln 2,  log10(x) = log(x) / ln 10,  exp2(x) = 2 ** x
    logaddexp(a, b)  = m + log1p(exp(-|a - b|)), m = max(a, b)            (a == b: a + ln 2)
    logaddexp2(a, b) = m + log1p(exp2(-|a - b|)) / ln 2

Integers and bools are computed in the default float (JAX's rule for inexact functions).
"""

from __future__ import annotations

import math as _math

import numpy as np

from . import math as m
from .core import asarray, constant, promote, to_float

_LN2 = _math.log(2.0)


def _c(value, like):
    """A constant in like's dtype: a Python float would be rounded through float32 (a weakly
    typed scalar is made a float32 constant first), too coarse for float64."""
    return constant(np.asarray(value, like.dtype))


def _float(x):
    return to_float(asarray(x))


def arctan(x):
    x = _float(x)
    return m.arctan2(x, m.astype(1.0, x.dtype))


def _one_minus_square(x):
    return m.multiply(m.subtract(1.0, x), m.add(1.0, x))


def arcsin(x):
    x = _float(x)
    return m.arctan2(x, m.sqrt(_one_minus_square(x)))


def arccos(x):
    x = _float(x)
    return m.arctan2(m.sqrt(_one_minus_square(x)), x)


def sinh(x):
    x = _float(x)
    a = m.abs(x)
    u = m.expm1(a)
    small = m.multiply(0.5, m.add(u, m.true_divide(u, m.add(u, 1.0))))
    e = m.exp(m.subtract(a, _c(_LN2, x)))
    large = m.subtract(e, m.true_divide(0.25, e))
    out = m.where(m.greater(a, 1.0), large, small)
    return m.where(m.less(x, 0), m.negative(out), m.where(m.isnan(x), x, out))


def cosh(x):
    x = _float(x)
    e = m.exp(m.subtract(m.abs(x), _c(_LN2, x)))
    return m.add(e, m.true_divide(0.25, e))


def _huge(dtype) -> float:
    """Beyond this, a^2 overflows or 1 is lost next to a: the log(2a) forms take over."""
    return float(np.sqrt(np.finfo(dtype).max) / 4)


def arcsinh(x):
    x = _float(x)
    a = m.abs(x)
    a2 = m.multiply(a, a)
    moderate = m.log1p(m.add(a, m.true_divide(a2, m.add(1.0, m.sqrt(m.add(1.0, a2))))))
    out = m.where(m.greater(a, _c(_huge(x.dtype), x)), m.add(m.log(a), _c(_LN2, x)), moderate)
    return m.where(m.less(x, 0), m.negative(out), m.where(m.isnan(x), x, out))


def arccosh(x):
    x = _float(x)
    t = m.subtract(x, 1.0)
    moderate = m.log1p(m.add(t, m.sqrt(m.multiply(t, m.add(t, 2.0)))))
    return m.where(m.greater(x, _c(_huge(x.dtype), x)), m.add(m.log(x), _c(_LN2, x)), moderate)


def arctanh(x):
    x = _float(x)
    return m.multiply(0.5, m.log1p(m.true_divide(m.multiply(2.0, x), m.subtract(1.0, x))))


def log2(x):
    x = _float(x)
    return m.multiply(m.log(x), _c(1 / _LN2, x))


def log10(x):
    x = _float(x)
    return m.multiply(m.log(x), _c(1 / _math.log(10.0), x))


def exp2(x):
    x = _float(x)
    return m.power(m.astype(2.0, x.dtype), x)


def _logaddexp(a, b, exp_fn, scale):
    a, b = promote(a, b)
    a, b = to_float(a), to_float(b)
    big = m.maximum(a, b)
    out = m.add(big, m.multiply(m.log1p(exp_fn(m.negative(m.abs(m.subtract(a, b))))), _c(scale, a)))
    # Equal infinities: a itself, where a - b would be NaN. (Finite ties take the formula, so
    # the derivative there is 1/2 each, as JAX's.)
    return m.where(m.logical_and(m.equal(a, b), m.isinf(a)), a, out)


_RULES: dict = {}


def _logaddexp_rule():
    """logaddexp with JAX's derivative, d/da = e^(a - out), d/db = e^(b - out) (1/2 each at
    a tie; the formula's max and |a - b| would give 0 there)."""
    if not _RULES:
        from ..autodiff.custom import custom_jvp

        @custom_jvp
        def logaddexp_(a, b):
            return _logaddexp(a, b, m.exp, 1.0)

        @logaddexp_.defjvp
        def logaddexp_jvp(primals, tangents):
            (a, b), (ta, tb) = primals, tangents
            out = _logaddexp(a, b, m.exp, 1.0)  # not logaddexp_: its marker would recurse
            half = _c(-_LN2, out)

            def weight(v):
                d = m.subtract(v, out)
                return m.exp(m.where(m.isnan(d), half, d))  # both infinite: 1/2 each
            return out, m.add(m.multiply(ta, weight(a)), m.multiply(tb, weight(b)))
        _RULES["logaddexp"] = logaddexp_
    return _RULES["logaddexp"]


def logaddexp(x1, x2):
    a, b = promote(x1, x2)
    return _logaddexp_rule()(to_float(a), to_float(b))


def logaddexp2(x1, x2):
    return _logaddexp(x1, x2, exp2, 1 / _LN2)


def sinc(x):
    """sin(pi x) / (pi x), 1 at 0."""
    x = _float(x)
    zero = m.equal(x, 0)
    px = m.multiply(m.where(zero, 1.0, x), _c(_math.pi, x))
    return m.where(zero, 1.0, m.true_divide(m.sin(px), px))


def heaviside(x1, x2):
    """0 where x1 < 0, x2 where x1 == 0, 1 where x1 > 0 (NaN where x1 is NaN)."""
    a, b = promote(x1, x2)
    a, b = to_float(a), to_float(b)
    step = m.where(m.less(a, 0), 0.0, m.where(m.greater(a, 0), 1.0, b))
    return m.where(m.isnan(a), a, step)


def deg2rad(x):
    x = _float(x)
    return m.multiply(x, _c(_math.pi / 180, x))


def rad2deg(x):
    x = _float(x)
    return m.multiply(x, _c(180 / _math.pi, x))


def hypot(x1, x2):
    """sqrt(x1^2 + x2^2) as M sqrt(1 + (m/M)^2), M = max(|x1|, |x2|): no overflow; inf wins."""
    a, b = promote(x1, x2)
    a, b = m.abs(to_float(a)), m.abs(to_float(b))
    hi, lo = m.maximum(a, b), m.minimum(a, b)
    ratio = m.true_divide(lo, m.where(m.equal(hi, 0), 1.0, hi))
    out = m.multiply(hi, m.sqrt(m.add(1.0, m.multiply(ratio, ratio))))
    return m.where(m.logical_or(m.isinf(a), m.isinf(b)), np.inf, out)


radians, degrees = deg2rad, rad2deg
__all__ = ["arctan", "arcsin", "arccos", "sinh", "cosh", "arcsinh", "arccosh", "arctanh", "log2", "log10",
           "exp2", "logaddexp", "logaddexp2", "sinc", "deg2rad", "rad2deg", "radians", "degrees", "hypot"]
