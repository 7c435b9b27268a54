"""erf, erfc and erf_inv to full precision (lax.erf / erfc / erf_inv), composed from
exponential, log and arithmetic; float32 and float16 are computed in float64 and rounded
once (the op table has no erf):

    erf(x)  = 2/sqrt(pi) e^{-x^2} sum_{n>=0} 2^n x^{2n+1} / (1 3 5 ... (2n+1))   |x| < 2.5
              (45 terms, all of one sign: no cancellation; within 5e-16 relative)
    erfc(x) = e^{-x^2} / sqrt(pi) / (x + (1/2)/(x + 1/(x + (3/2)/(x + ...))))     x >= 2.5
              (Laplace's continued fraction, 40 levels), erf = 1 - erfc, odd in x
    erf_inv(y) = Giles' single-precision approximation ("Approximating the erfinv
              function", GPU Computing Gems, 2011), then two Newton steps on erf;
              erf_inv(+-1) = +-inf, NaN outside [-1, 1]

Derivatives are the exact ones (custom JVPs): erf' = 2/sqrt(pi) e^{-x^2},
erf_inv'(y) = sqrt(pi)/2 e^{erf_inv(y)^2}.
"""

from __future__ import annotations

import math

import numpy as np

from . import math as m
from .core import asarray, astype, constant, to_float

_F64 = np.dtype(np.float64)
_SERIES_TERMS, _FRACTION_LEVELS, _SWITCH = 45, 40, 2.5
_TWO_OVER_SQRT_PI = 2 / math.sqrt(math.pi)


def _f(value):
    """A float64 constant (a Python float would be rounded through float32: it is weakly
    typed, made a float32 constant first)."""
    return constant(np.asarray(value, _F64))


def _like(value, x):
    return constant(np.asarray(value, x.dtype))


def _in_f64(fn):
    def wrapper(x):
        x = to_float(asarray(x))
        return astype(fn(astype(x, _F64)), x.dtype)
    wrapper.__name__ = fn.__name__
    return wrapper


def _erf_series(x):
    xs = m.clip(x, _f(-_SWITCH), _f(_SWITCH))
    two_x2 = m.multiply(m.multiply(xs, xs), _f(2.0))
    term = total = xs
    for n in range(1, _SERIES_TERMS):
        term = m.multiply(term, m.true_divide(two_x2, _f(2 * n + 1)))
        total = m.add(total, term)
    return m.multiply(m.multiply(total, m.exp(m.negative(m.multiply(xs, xs)))), _f(_TWO_OVER_SQRT_PI))


def _erfc_fraction(a):
    """erfc(a) for a >= _SWITCH (a is clamped there)."""
    a = m.maximum(a, _f(_SWITCH))
    f = a
    for k in range(_FRACTION_LEVELS, 0, -1):
        f = m.add(a, m.true_divide(_f(k / 2), f))
    return m.true_divide(m.exp(m.negative(m.multiply(a, a))), m.multiply(f, _f(math.sqrt(math.pi))))


def _erf64(x):
    a = m.abs(x)
    tail = m.subtract(_f(1.0), _erfc_fraction(a))
    tail = m.where(m.less(x, 0), m.negative(tail), tail)
    return m.where(m.less(a, _f(_SWITCH)), _erf_series(x), m.where(m.isnan(x), x, tail))


def _erfc64(x):
    a = m.abs(x)
    far = _erfc_fraction(a)
    far = m.where(m.less(x, 0), m.subtract(_f(2.0), far), far)
    return m.where(m.less(a, _f(_SWITCH)), m.subtract(_f(1.0), _erf_series(x)), m.where(m.isnan(x), x, far))


def _giles(y):
    w = m.negative(m.log(m.multiply(m.subtract(1.0, y), m.add(1.0, y))))
    central = m.subtract(w, 2.5)
    p = None
    for c in (2.81022636e-08, 3.43273939e-07, -3.5233877e-06, -4.39150654e-06, 0.00021858087,
              -0.00125372503, -0.00417768164, 0.246640727, 1.50140941):
        p = m.add(m.multiply(p, central), _f(c)) if p is not None else m.add(m.multiply(central, _f(0.0)), _f(c))
    tail = m.subtract(m.sqrt(w), 3.0)
    q = None
    for c in (-0.000200214257, 0.000100950558, 0.00134934322, -0.00367342844, 0.00573950773,
              -0.0076224613, 0.00943887047, 1.00167406, 2.83297682):
        q = m.add(m.multiply(q, tail), _f(c)) if q is not None else m.add(m.multiply(tail, _f(0.0)), _f(c))
    return m.multiply(m.where(m.less(w, 5.0), p, q), y)


def _erf_inv64(y):
    x = _giles(y)
    edge = m.equal(m.abs(y), 1.0)
    safe = m.where(edge, 0.0, x)
    for _ in range(2):
        slope = m.multiply(m.exp(m.negative(m.multiply(safe, safe))), _f(_TWO_OVER_SQRT_PI))
        safe = m.subtract(safe, m.true_divide(m.subtract(_erf64(safe), m.where(edge, 0.0, y)), slope))
    return m.where(edge, m.multiply(y, np.inf), safe)


_RULES: dict = {}


def _rules():
    # Built on first use: mlc.autodiff imports the frontend.
    if not _RULES:
        from ..autodiff.custom import custom_jvp

        @custom_jvp
        def erf(x):
            return _in_f64(_erf64)(x)

        @erf.defjvp
        def erf_jvp(primals, tangents):
            (x,), (t,) = primals, tangents
            return erf(x), m.multiply(t, m.multiply(m.exp(m.negative(m.multiply(x, x))), _like(_TWO_OVER_SQRT_PI, x)))

        @custom_jvp
        def erfc(x):
            return _in_f64(_erfc64)(x)

        @erfc.defjvp
        def erfc_jvp(primals, tangents):
            (x,), (t,) = primals, tangents
            return erfc(x), m.multiply(t, m.multiply(m.exp(m.negative(m.multiply(x, x))), _like(-_TWO_OVER_SQRT_PI, x)))

        @custom_jvp
        def erf_inv(y):
            return _in_f64(_erf_inv64)(y)

        @erf_inv.defjvp
        def erf_inv_jvp(primals, tangents):
            (y,), (t,) = primals, tangents
            x = _in_f64(_erf_inv64)(y)  # not erf_inv: its marker in the tangent would recurse
            return x, m.multiply(t, m.multiply(m.exp(m.multiply(x, x)), _like(math.sqrt(math.pi) / 2, x)))
        _RULES.update(erf=erf, erfc=erfc, erf_inv=erf_inv)
    return _RULES


def erf(x):
    return _rules()["erf"](to_float(asarray(x)))


def erfc(x):
    return _rules()["erfc"](to_float(asarray(x)))


def erf_inv(x):
    return _rules()["erf_inv"](to_float(asarray(x)))


__all__ = ["erf", "erfc", "erf_inv"]
