"""CHLO ops JAX emits, decomposed into hlo ops at import.

erf/erfc use Abramowitz & Stegun's rational approximation 7.1.26 (|error| < 1.5e-7, below
f32's resolution near 1): erfc(|x|) = t*P(t)*exp(-x^2) with t = 1/(1 + p|x|), which is
accurate in the tail as well; erf = sign(x)*(1 - erfc(|x|)). f64 uses a series and a
continued fraction instead (double precision)."""

from __future__ import annotations

import math

from mlir import ir

from ..dialects import hlo
from .registry import rule

_P = 0.3275911
_A = (0.254829592, -0.284496736, 1.421413741, -1.453152027, 1.061405429)


def splat(like: ir.Value, value: float) -> ir.Value:
    t = ir.RankedTensorType(like.type)
    return hlo.constant(ir.DenseElementsAttr.get_splat(t, ir.FloatAttr.get(t.element_type, value)))


def _float_operand(cv, op) -> ir.Value:
    x = cv.value(op.operands[0])
    if not isinstance(ir.RankedTensorType(x.type).element_type, ir.FloatType):
        raise cv.error(op, f"'{op.name}' of a non-float operand is not supported")
    return x


def _erfc_abs(x: ir.Value) -> ir.Value:
    """erfc(|x|) by A&S 7.1.26."""
    ax = hlo.abs(x)
    t = hlo.divide(splat(x, 1.0), hlo.add(splat(x, 1.0), hlo.multiply(splat(x, _P), ax)))
    poly = splat(x, _A[-1])
    for a in reversed(_A[:-1]):
        poly = hlo.add(hlo.multiply(poly, t), splat(x, a))
    return hlo.multiply(hlo.multiply(poly, t), hlo.exponential(hlo.negate(hlo.multiply(ax, ax))))


def _is_f64(x: ir.Value) -> bool:
    element = ir.RankedTensorType(x.type).element_type
    return isinstance(element, ir.F64Type)


# f64 (A&S 7.1.26's 1.5e-7 is far from double precision): below |x| = 2 the Maclaurin
# series 2/sqrt(pi) sum_n (-1)^n x^(2n+1) / (n! (2n+1)) (60 terms, error < 1e-13); from 2 on
# erfc(x) by its continued fraction e^-x^2 / sqrt(pi) / (x + (1/2)/(x + 1/(x + (3/2)/(x + ...))))
# evaluated bottom up from depth 60 (relative error < 1e-15 there).
_F64_SWITCH, _F64_SERIES, _F64_FRACTION = 2.0, 60, 60


def _erf_series(x: ir.Value) -> ir.Value:
    total, term = x, x  # starting from x keeps erf(-0) = -0
    x2 = hlo.multiply(x, x)
    for n in range(1, _F64_SERIES):
        term = hlo.negate(hlo.multiply(hlo.multiply(term, x2), splat(x, 1.0 / n)))
        total = hlo.add(total, hlo.multiply(term, splat(x, 1.0 / (2 * n + 1))))
    return hlo.multiply(total, splat(x, 2.0 / math.sqrt(math.pi)))


def _erfc_fraction(ax: ir.Value) -> ir.Value:
    """erfc(ax) for ax >= 2 (elsewhere finite, unused)."""
    safe = hlo.maximum(ax, splat(ax, _F64_SWITCH))
    f = safe
    for k in range(_F64_FRACTION, 0, -1):
        f = hlo.add(safe, hlo.divide(splat(ax, k / 2.0), f))
    scale = hlo.multiply(hlo.exponential(hlo.negate(hlo.multiply(safe, safe))),
                         splat(ax, 1.0 / math.sqrt(math.pi)))
    return hlo.divide(scale, f)


def _erfc_abs_f64(x: ir.Value) -> ir.Value:
    ax = hlo.abs(x)
    small = hlo.compare(ax, splat(x, _F64_SWITCH), "LT", "FLOAT")
    return hlo.select(small, hlo.subtract(splat(x, 1.0), _erf_series(ax)), _erfc_fraction(ax))


@rule("chlo.erf")
def erf(cv, op):
    """erf(x) = sign(x) (1 - erfc(|x|)), erfc(|x|) by A&S 7.1.26; f64: the series below
    |x| = 2, 1 - the continued fraction's erfc from there."""
    x = _float_operand(cv, op)
    if _is_f64(x):
        ax = hlo.abs(x)
        small = hlo.compare(ax, splat(x, _F64_SWITCH), "LT", "FLOAT")
        large = hlo.multiply(hlo.sign(x), hlo.subtract(splat(x, 1.0), _erfc_fraction(ax)))
        return [hlo.select(small, _erf_series(x), large)]
    return [hlo.multiply(hlo.sign(x), hlo.subtract(splat(x, 1.0), _erfc_abs(x)))]


@rule("chlo.erfc")
def erfc(cv, op):
    """erfc(x) = erfc(|x|) for x >= 0, 2 - erfc(|x|) below (A&S 7.1.26; f64: 1 - the series
    below |x| = 2, the continued fraction from there)."""
    x = _float_operand(cv, op)
    q = _erfc_abs_f64(x) if _is_f64(x) else _erfc_abs(x)
    negative = hlo.compare(x, splat(x, 0.0), "LT", "FLOAT")
    return [hlo.select(negative, hlo.subtract(splat(x, 2.0), q), q)]


@rule("chlo.square")
def square(cv, op):
    """x * x."""
    x = cv.value(op.operands[0])
    return [hlo.multiply(x, x)]


@rule("chlo.sinh")
def sinh(cv, op):
    """(e^x - e^-x) / 2."""
    x = _float_operand(cv, op)
    return [hlo.multiply(splat(x, 0.5), hlo.subtract(hlo.exponential(x), hlo.exponential(hlo.negate(x))))]


@rule("chlo.cosh")
def cosh(cv, op):
    """(e^x + e^-x) / 2."""
    x = _float_operand(cv, op)
    return [hlo.multiply(splat(x, 0.5), hlo.add(hlo.exponential(x), hlo.exponential(hlo.negate(x))))]


@rule("chlo.tan")
def tan(cv, op):
    """hlo.tan."""
    return [hlo.tan(_float_operand(cv, op))]


@rule("chlo.top_k")
def top_k(cv, op):
    """The k largest along the last dim, largest first, ties by lower index: hlo.top_k's
    argsort with a limit (a selection) and a gather."""
    x = cv.value(op.operands[0])
    k = ir.IntegerAttr(op.attributes["k"]).value
    return list(hlo.top_k(x, k, ir.RankedTensorType(op.results[1].type).element_type))


# erf_inv: M. Giles, "Approximating the erfinv function" (GPU Computing Gems, 2011), the
# single-precision version: a polynomial in w = -log(1 - x^2), one branch for w < 5 (in
# w - 2.5) and one for the tails (in sqrt(w) - 3); erf_inv(x) = p(w) * x. +-1 give +-inf.
_ERFINV_CENTRAL = (2.81022636e-08, 3.43273939e-07, -3.5233877e-06, -4.39150654e-06,
                   0.00021858087, -0.00125372503, -0.00417768164, 0.246640727, 1.50140941)
_ERFINV_TAIL = (-0.000200214257, 0.000100950558, 0.00134934322, -0.00367342844,
                0.00573950773, -0.0076224613, 0.00943887047, 1.00167406, 2.83297682)


def _horner(coefficients, w):
    p = splat(w, coefficients[0])
    for c in coefficients[1:]:
        p = hlo.add(hlo.multiply(p, w), splat(w, c))
    return p


@rule("chlo.erf_inv")
def erf_inv(cv, op):
    """Giles' single-precision polynomials in w = -log(1 - x^2) (see above); +-inf at +-1.
    f64: that estimate refined by two Newton steps on the f64 erf."""
    x = _float_operand(cv, op)
    one = splat(x, 1.0)
    w = hlo.negate(hlo.log(hlo.multiply(hlo.subtract(one, x), hlo.add(one, x))))
    central = _horner(_ERFINV_CENTRAL, hlo.subtract(w, splat(x, 2.5)))
    tail = _horner(_ERFINV_TAIL, hlo.subtract(hlo.sqrt(w), splat(x, 3.0)))
    p = hlo.select(hlo.compare(w, splat(x, 5.0), "LT", "FLOAT"), central, tail)
    result = hlo.multiply(p, x)
    if _is_f64(x):
        result = _refine_erf_inv(x, result)
    # |x| = 1: the polynomial is finite there, erf_inv is +-inf.
    at_one = hlo.compare(hlo.abs(x), one, "EQ", "FLOAT")
    return [hlo.select(at_one, hlo.multiply(x, splat(x, float("inf"))), result)]


def _refine_erf_inv(x: ir.Value, y: ir.Value) -> ir.Value:
    """Two Newton steps z -= r / (2/sqrt(pi) e^-z^2) on z = |y| for a = |x|, the residual
    r = erf(z) - a taken as (1 - a) - erfc(z) above a = 0.5 (no cancellation near 1)."""
    a, z = hlo.abs(x), hlo.abs(y)
    upper = hlo.compare(a, splat(x, 0.5), "GT", "FLOAT")
    for _ in range(2):
        tail = hlo.subtract(hlo.subtract(splat(x, 1.0), a), _erfc_abs_f64(z))
        central = hlo.subtract(_erf_series(hlo.minimum(z, splat(x, _F64_SWITCH))), a)
        residual = hlo.select(upper, tail, central)
        slope = hlo.multiply(splat(x, 2.0 / math.sqrt(math.pi)),
                             hlo.exponential(hlo.negate(hlo.multiply(z, z))))
        z = hlo.subtract(z, hlo.divide(residual, slope))
    return hlo.multiply(hlo.sign(x), z)
