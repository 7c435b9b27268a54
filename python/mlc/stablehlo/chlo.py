"""CHLO ops JAX emits, decomposed into hlo ops at import.

erf/erfc use Abramowitz & Stegun's rational approximation 7.1.26 (|error| < 1.5e-7, below
f32's resolution near 1): erfc(|x|) = t*P(t)*exp(-x^2) with t = 1/(1 + p|x|), which is
accurate in the tail as well; erf = sign(x)*(1 - erfc(|x|))."""

from __future__ import annotations

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


@rule("chlo.erf")
def erf(cv, op):
    x = _float_operand(cv, op)
    return [hlo.multiply(hlo.sign(x), hlo.subtract(splat(x, 1.0), _erfc_abs(x)))]


@rule("chlo.erfc")
def erfc(cv, op):
    x = _float_operand(cv, op)
    q = _erfc_abs(x)
    negative = hlo.compare(x, splat(x, 0.0), "LT", "FLOAT")
    return [hlo.select(negative, hlo.subtract(splat(x, 2.0), q), q)]


@rule("chlo.square")
def square(cv, op):
    x = cv.value(op.operands[0])
    return [hlo.multiply(x, x)]


@rule("chlo.sinh")
def sinh(cv, op):
    x = _float_operand(cv, op)
    return [hlo.multiply(splat(x, 0.5), hlo.subtract(hlo.exponential(x), hlo.exponential(hlo.negate(x))))]


@rule("chlo.cosh")
def cosh(cv, op):
    x = _float_operand(cv, op)
    return [hlo.multiply(splat(x, 0.5), hlo.add(hlo.exponential(x), hlo.exponential(hlo.negate(x))))]


@rule("chlo.tan")
def tan(cv, op):
    return [hlo.tan(_float_operand(cv, op))]


@rule("chlo.top_k")
def top_k(cv, op):
    # The k largest along the last dim, largest first; ties keep the lower index first,
    # which a stable descending sort gives.
    x = cv.value(op.operands[0])
    t = ir.RankedTensorType(x.type)
    k = ir.IntegerAttr(op.attributes["k"]).value
    dim = t.rank - 1
    values = hlo.sort(x, dim, descending=True)
    indices = hlo.argsort(x, dim, descending=True,
                          index_type=ir.RankedTensorType(op.results[1].type).element_type)
    limit = list(t.shape[:-1]) + [k]
    return [hlo.slice(v, [0] * t.rank, limit) for v in (values, indices)]


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
    x = _float_operand(cv, op)
    one = splat(x, 1.0)
    w = hlo.negate(hlo.log(hlo.multiply(hlo.subtract(one, x), hlo.add(one, x))))
    central = _horner(_ERFINV_CENTRAL, hlo.subtract(w, splat(x, 2.5)))
    tail = _horner(_ERFINV_TAIL, hlo.subtract(hlo.sqrt(w), splat(x, 3.0)))
    p = hlo.select(hlo.compare(w, splat(x, 5.0), "LT", "FLOAT"), central, tail)
    result = hlo.multiply(p, x)
    # |x| = 1: the polynomial is finite there, erf_inv is +-inf.
    at_one = hlo.compare(hlo.abs(x), one, "EQ", "FLOAT")
    return [hlo.select(at_one, hlo.multiply(x, splat(x, float("inf"))), result)]
