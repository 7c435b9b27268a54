"""More CHLO ops JAX emits, decomposed into hlo ops at import: inverse trigonometric and
hyperbolic functions, lgamma/digamma, zeta/polygamma, bessel_i1e, next_after, is_inf, conj (of reals),
constant_like and the broadcast_* binary ops. Each rule's docstring states its formula."""

from __future__ import annotations

import math

from mlir import ir

from ..dialects import hlo
from ..dialects.hlo import OPS
from . import attributes as A
from .chlo import _float_operand, splat
from .registry import rule


def _lt(a, b):
    return hlo.compare(a, b, "LT", "FLOAT")


def _eq(a, b):
    return hlo.compare(a, b, "EQ", "FLOAT")


def _eps(x) -> float:
    element = ir.RankedTensorType(x.type).element_type
    if isinstance(element, ir.BF16Type):
        return 2.0 ** -7
    return {16: 2.0 ** -10, 32: 2.0 ** -23, 64: 2.0 ** -52}[ir.FloatType(element).width]


@rule("chlo.asin")
def asin(cv, op):
    """asin(x) = atan2(x, sqrt((1 - x)(1 + x)))."""
    x = _float_operand(cv, op)
    one = splat(x, 1.0)
    return [hlo.atan2(x, hlo.sqrt(hlo.multiply(hlo.subtract(one, x), hlo.add(one, x))))]


@rule("chlo.acos")
def acos(cv, op):
    """acos(x) = atan2(sqrt((1 - x)(1 + x)), x)."""
    x = _float_operand(cv, op)
    one = splat(x, 1.0)
    return [hlo.atan2(hlo.sqrt(hlo.multiply(hlo.subtract(one, x), hlo.add(one, x))), x)]


@rule("chlo.atan")
def atan(cv, op):
    """atan(x) = atan2(x, 1)."""
    x = _float_operand(cv, op)
    return [hlo.atan2(x, splat(x, 1.0))]


@rule("chlo.asinh")
def asinh(cv, op):
    """asinh(x) = sign(x) * log1p(|x| + x^2 / (1 + sqrt(1 + x^2))) (accurate near 0);
    for |x| > 1/sqrt(eps), where x^2 would lose 1 or overflow, sign(x) * (log|x| + log 2)."""
    x = _float_operand(cv, op)
    ax = hlo.abs(x)
    one = splat(x, 1.0)
    sq = hlo.multiply(ax, ax)
    small = hlo.log_plus_one(hlo.add(ax, hlo.divide(sq, hlo.add(one, hlo.sqrt(hlo.add(one, sq))))))
    large = hlo.add(hlo.log(ax), splat(x, math.log(2.0)))
    big = hlo.compare(ax, splat(x, 1.0 / math.sqrt(_eps(x))), "GT", "FLOAT")
    return [hlo.multiply(hlo.sign(x), hlo.select(big, large, small))]


@rule("chlo.acosh")
def acosh(cv, op):
    """acosh(x) = log1p(y + sqrt(y (x + 1))) with y = x - 1 (accurate near 1; NaN below 1);
    for x > 1/sqrt(eps), log x + log 2."""
    x = _float_operand(cv, op)
    one = splat(x, 1.0)
    y = hlo.subtract(x, one)
    small = hlo.log_plus_one(hlo.add(y, hlo.sqrt(hlo.multiply(y, hlo.add(x, one)))))
    large = hlo.add(hlo.log(x), splat(x, math.log(2.0)))
    big = hlo.compare(x, splat(x, 1.0 / math.sqrt(_eps(x))), "GT", "FLOAT")
    return [hlo.select(big, large, small)]


@rule("chlo.atanh")
def atanh(cv, op):
    """atanh(x) = 0.5 * log1p(2x / (1 - x)): +-inf at +-1, NaN beyond."""
    x = _float_operand(cv, op)
    ratio = hlo.divide(hlo.multiply(splat(x, 2.0), x), hlo.subtract(splat(x, 1.0), x))
    out = hlo.multiply(splat(x, 0.5), hlo.log_plus_one(ratio))
    outside = hlo.compare(hlo.abs(x), splat(x, 1.0), "GT", "FLOAT")
    return [hlo.select(outside, splat(x, float("nan")), out)]


# Lanczos' approximation, g = 7, nine coefficients (the set Numerical Recipes and XLA use):
# Gamma(z + 1) = sqrt(2 pi) t^(z + 1/2) e^-t A(z), t = z + g + 1/2,
# A(z) = c0 + sum_k c_k / (z + k).
_LANCZOS_G = 7.0
_LANCZOS = (0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313,
            -176.61502916214059, 12.507343278686905, -0.13857109526572012,
            9.9843695780195716e-6, 1.5056327351493116e-7)


def _lanczos(z):
    """(A(z), A'(z)) for z >= -0.5."""
    a = splat(z, _LANCZOS[0])
    da = splat(z, 0.0)
    for k, c in enumerate(_LANCZOS[1:], start=1):
        zk = hlo.add(z, splat(z, float(k)))
        term = hlo.divide(splat(z, c), zk)
        a = hlo.add(a, term)
        da = hlo.subtract(da, hlo.divide(term, zk))
    return a, da


def _sin_pi_abs(x):
    """|sin(pi x)| computed from the distance of x to the nearest integer (exact reduction)."""
    ax = hlo.abs(x)
    frac = hlo.subtract(ax, hlo.floor(ax))
    dist = hlo.minimum(frac, hlo.subtract(splat(x, 1.0), frac))
    return hlo.sine(hlo.multiply(splat(x, math.pi), dist))


@rule("chlo.lgamma")
def lgamma(cv, op):
    """log|Gamma(x)|: for x >= 0.5, with z = x - 1 and t = z + g + 1/2 (Lanczos, g = 7),
    0.5 log(2 pi) + (z + 1/2) log t - t + log A(z), log t taken as
    log(g + 1/2) + log1p(z / (g + 1/2)); for x < 0.5 the reflection
    log(pi / |sin(pi x)|) - lgamma(1 - x), with |sin(pi x)| from x's distance to the
    nearest integer. +inf at x = 0, -1, -2, ... and at +-inf; NaN stays NaN."""
    return [lgamma_of(_float_operand(cv, op))]


def lgamma_of(x):
    one, half = splat(x, 1.0), splat(x, 0.5)
    reflect = _lt(x, half)
    y = hlo.select(reflect, hlo.subtract(one, x), x)  # >= 0.5
    z = hlo.subtract(y, one)
    a, _ = _lanczos(z)
    gh = _LANCZOS_G + 0.5
    t = hlo.add(z, splat(x, gh))
    log_t = hlo.add(splat(x, math.log(gh)), hlo.log_plus_one(hlo.divide(z, splat(x, gh))))
    body = hlo.add(hlo.subtract(hlo.multiply(hlo.add(z, half), log_t), t), hlo.log(a))
    direct = hlo.add(splat(x, 0.5 * math.log(2 * math.pi)), body)
    reflected = hlo.subtract(hlo.log(hlo.divide(splat(x, math.pi), _sin_pi_abs(x))), direct)
    out = hlo.select(reflect, reflected, direct)
    inf = splat(x, float("inf"))
    pole = hlo.and_(hlo.compare(x, splat(x, 0.0), "LE", "FLOAT"), _eq(x, hlo.floor(x)))
    out = hlo.select(pole, inf, out)
    return hlo.select(_eq(hlo.abs(x), inf), inf, out)


@rule("chlo.digamma")
def digamma(cv, op):
    """psi(x) = d/dx log Gamma(x): for x >= 0.5, with z = x - 1, t = z + g + 1/2,
    log t + A'(z) / A(z) - g / t (Lanczos, g = 7); for x < 0.5 the reflection
    psi(1 - x) - pi / tan(pi x), tan(pi x) taken of x minus its nearest integer. NaN at
    x = 0, -1, -2, ...; +inf at +inf."""
    return [digamma_of(_float_operand(cv, op))]


def digamma_of(x):
    one, half = splat(x, 1.0), splat(x, 0.5)
    reflect = _lt(x, half)
    y = hlo.select(reflect, hlo.subtract(one, x), x)
    z = hlo.subtract(y, one)
    a, da = _lanczos(z)
    gh = _LANCZOS_G + 0.5
    t = hlo.add(z, splat(x, gh))
    log_t = hlo.add(splat(x, math.log(gh)), hlo.log_plus_one(hlo.divide(z, splat(x, gh))))
    direct = hlo.subtract(hlo.add(log_t, hlo.divide(da, a)), hlo.divide(splat(x, _LANCZOS_G), t))
    r = hlo.subtract(x, hlo.round_nearest_even(x))
    cot = hlo.divide(splat(x, math.pi), hlo.tan(hlo.multiply(splat(x, math.pi), r)))
    out = hlo.select(reflect, hlo.subtract(direct, cot), direct)
    pole = hlo.and_(hlo.compare(x, splat(x, 0.0), "LE", "FLOAT"), _eq(x, hlo.floor(x)))
    out = hlo.select(pole, splat(x, float("nan")), out)
    inf = splat(x, float("inf"))
    return hlo.select(_eq(x, inf), inf, out)


# B_2, B_4, ..., B_24 (Bernoulli numbers) for the Euler-Maclaurin tail of zeta.
_BERNOULLI = (1 / 6, -1 / 30, 1 / 42, -1 / 30, 5 / 66, -691 / 2730, 7 / 6, -3617 / 510,
              43867 / 798, -174611 / 330, 854513 / 138, -236364091 / 2730)
_ZETA_TERMS = 9


def zeta_of(s, q):
    """Hurwitz zeta(s, q) = sum_k (q + k)^-s by Euler-Maclaurin: the first N = 9 terms,
    then with w = q + N: w^(1-s) / (s - 1) + w^-s / 2 +
    sum_j B_2j / (2j)! s (s+1) ... (s+2j-2) w^(-s-2j+1), j = 1..12. NaN for s < 1 and for
    q < 0 with a non-integer s; +inf at s = 1 and at q = 0, -1, -2, ..."""
    total = splat(s, 0.0)
    for k in range(_ZETA_TERMS):
        total = hlo.add(total, hlo.power(hlo.add(q, splat(q, float(k))), hlo.negate(s)))
    w = hlo.add(q, splat(q, float(_ZETA_TERMS)))
    w_s = hlo.power(w, hlo.negate(s))
    one = splat(s, 1.0)
    total = hlo.add(total, hlo.divide(hlo.multiply(w_s, w), hlo.subtract(s, one)))
    total = hlo.add(total, hlo.multiply(splat(s, 0.5), w_s))
    rising = s  # s (s+1) ... (s+2j-2)
    w_power = hlo.divide(w_s, w)  # w^(-s-2j+1)
    factorial = 2.0
    for j, b in enumerate(_BERNOULLI, start=1):
        term = hlo.multiply(hlo.multiply(splat(s, b / factorial), rising), w_power)
        total = hlo.add(total, term)
        rising = hlo.multiply(rising, hlo.multiply(hlo.add(s, splat(s, 2.0 * j - 1)),
                                                   hlo.add(s, splat(s, 2.0 * j))))
        w_power = hlo.divide(w_power, hlo.multiply(w, w))
        factorial *= (2 * j + 1) * (2 * j + 2)
    nan, inf = splat(s, float("nan")), splat(s, float("inf"))
    zero = splat(q, 0.0)
    q_integer = _eq(q, hlo.floor(q))
    out = hlo.select(hlo.and_(_lt(q, zero), hlo.not_(_eq(s, hlo.floor(s)))), nan, total)
    out = hlo.select(hlo.and_(hlo.compare(q, zero, "LE", "FLOAT"), q_integer), inf, out)
    out = hlo.select(_eq(s, one), inf, out)
    return hlo.select(_lt(s, one), nan, out)


@rule("chlo.zeta")
def zeta(cv, op):
    """chlo.zeta(s, q): the Hurwitz zeta function (zeta_of's formula)."""
    s, q = cv.operands(op)
    _float_operand(cv, op)
    return [zeta_of(s, q)]


@rule("chlo.polygamma")
def polygamma(cv, op):
    """polygamma(n, x): digamma(x) for n = 0, (-1)^(n+1) n! zeta(n + 1, x) for integer
    n >= 1 (n! = exp(lgamma(n + 1))); NaN for other n."""
    n, x = cv.operands(op)
    _float_operand(cv, op)
    one = splat(n, 1.0)
    factorial = hlo.exponential(lgamma_of(hlo.add(n, one)))
    odd = _eq(hlo.remainder(n, splat(n, 2.0)), one)
    sign = hlo.select(odd, one, splat(n, -1.0))
    higher = hlo.multiply(hlo.multiply(sign, factorial), zeta_of(hlo.add(n, one), x))
    out = hlo.select(_eq(n, splat(n, 0.0)), digamma_of(x), higher)
    valid = hlo.and_(_eq(n, hlo.floor(n)), hlo.compare(n, splat(n, 0.0), "GE", "FLOAT"))
    return [hlo.select(valid, out, splat(n, float("nan")))]


_I1E_SWITCH, _I1E_SERIES, _I1E_ASYMPTOTIC = 20.0, 50, 12


@rule("chlo.bessel_i1e")
def bessel_i1e(cv, op):
    """i1e(x) = exp(-|x|) I1(x), odd in x. |x| <= 20: the power series
    sign(x) e^-|x| sum_k (|x|/2)^(2k+1) / (k! (k+1)!) (50 terms, all positive: no
    cancellation); beyond: the asymptotic expansion sign(x) / sqrt(2 pi |x|) *
    sum_k c_k |x|^-k, c_k = prod_j (-(4 - (2j - 1)^2)) / (k! 8^k) (12 terms; relative error
    < 1e-12 at 20). f16/bf16 are computed in f32 (the series' terms exceed f16's range)."""
    x = _float_operand(cv, op)
    element = ir.RankedTensorType(x.type).element_type
    narrow = isinstance(element, ir.BF16Type) or ir.FloatType(element).width < 32
    if narrow:
        x = hlo.convert(x, ir.F32Type.get())
    ax = hlo.abs(x)
    half = hlo.multiply(ax, splat(x, 0.5))
    q = hlo.multiply(half, half)
    term, total = half, half
    for k in range(1, _I1E_SERIES):
        term = hlo.multiply(term, hlo.multiply(q, splat(x, 1.0 / (k * (k + 1)))))
        total = hlo.add(total, term)
    series = hlo.multiply(total, hlo.exponential(hlo.negate(ax)))
    inverse = hlo.divide(splat(x, 1.0), ax)
    coefficient, power, asymptotic = 1.0, splat(x, 1.0), splat(x, 1.0)
    for k in range(1, _I1E_ASYMPTOTIC + 1):
        coefficient *= -(4 - (2 * k - 1) ** 2) / (8 * k)
        power = hlo.multiply(power, inverse)
        asymptotic = hlo.add(asymptotic, hlo.multiply(splat(x, coefficient), power))
    asymptotic = hlo.multiply(asymptotic, hlo.rsqrt(hlo.multiply(splat(x, 2 * math.pi), ax)))
    small = hlo.compare(ax, splat(x, _I1E_SWITCH), "LE", "FLOAT")
    out = hlo.multiply(hlo.sign(x), hlo.select(small, series, asymptotic))
    return [hlo.convert(out, element) if narrow else out]


@rule("chlo.next_after")
def next_after(cv, op):
    """The float after x in the direction of y, on x's bits as an integer: NaN if either is
    NaN; y if x == y; the smallest subnormal with y's sign if x is +-0; otherwise the bits
    plus 1 when moving away from zero (x < y and x > 0, or x > y and x < 0), minus 1
    otherwise."""
    x, y = cv.operands(op)
    t = ir.RankedTensorType(x.type)
    if not isinstance(t.element_type, ir.FloatType):
        raise cv.error(op, "next_after of non-float operands is not supported")
    from .bits import _const, _float_format, _int
    width = _float_format(t.element_type)[0]
    it = _int(width)
    shape = list(t.shape)
    xi, yi = hlo.bitcast_convert(x, it), hlo.bitcast_convert(y, it)
    sign_mask = _const(1 << (width - 1), it, shape)
    zero = splat(x, 0.0)
    tiny = hlo.bitcast_convert(hlo.or_(hlo.and_(yi, sign_mask), _const(1, it, shape)),
                               t.element_type)
    away = hlo.compare(_lt(x, y), _lt(zero, x), "EQ", "UNSIGNED")
    step = hlo.select(away, _const(1, it, shape), _const(-1, it, shape))
    moved = hlo.bitcast_convert(hlo.add(xi, step), t.element_type)
    out = hlo.select(_eq(x, zero), tiny, moved)
    out = hlo.select(_eq(x, y), y, out)
    nan = hlo.or_(hlo.compare(x, x, "NE", "FLOAT"), hlo.compare(y, y, "NE", "FLOAT"))
    return [hlo.select(nan, splat(x, float("nan")), out)]


@rule("chlo.is_inf", "chlo.is_pos_inf", "chlo.is_neg_inf")
def is_inf(cv, op):
    """|x| == inf, x == +inf, x == -inf."""
    x = _float_operand(cv, op)
    inf = splat(x, float("inf"))
    if op.name == "chlo.is_inf":
        return [_eq(hlo.abs(x), inf)]
    return [_eq(x, inf if op.name == "chlo.is_pos_inf" else hlo.negate(inf))]


@rule("chlo.conj")
def conj(cv, op):
    """The conjugate of a real number is itself."""
    if "complex" in str(op.operands[0].type):
        raise cv.error(op, "'chlo.conj' of a complex operand is not supported")
    return cv.operands(op)


@rule("chlo.constant_like")
def constant_like(cv, op):
    """A splat of `value` in the operand's shape and element type."""
    t = ir.RankedTensorType(op.results[0].type)
    value = A.get(op, "value")
    if isinstance(value, ir.FloatAttr):
        attr = ir.FloatAttr.get(t.element_type, value.value)
    else:
        attr = ir.IntegerAttr.get(t.element_type, ir.IntegerAttr(value).value)
    return [hlo.constant(ir.DenseElementsAttr.get_splat(t, attr))]


_BROADCAST_BINARY = ("add", "atan2", "divide", "maximum", "minimum", "multiply", "power",
                     "remainder", "shift_left", "shift_right_arithmetic", "shift_right_logical",
                     "subtract", "and", "or", "xor", "compare")


def _broadcast_to(cv, op, value: ir.Value, shape, dims) -> ir.Value:
    t = ir.RankedTensorType(value.type)
    if list(t.shape) == list(shape):
        return value
    if dims is None or t.rank == len(shape):  # numpy rules: align trailing dims
        dims = list(range(len(shape) - t.rank, len(shape)))
    return hlo.broadcast_in_dim(value, list(shape), dims)


@rule(*[f"chlo.broadcast_{name}" for name in _BROADCAST_BINARY])
def broadcast_binary(cv, op):
    """chlo.broadcast_X(a, b): both operands broadcast to the result shape (numpy rules, or
    `broadcast_dimensions` for the lower-rank one), then hlo.X."""
    from .convert import hlo_attributes
    name = op.name.removeprefix("chlo.broadcast_")
    shape = list(ir.RankedTensorType(op.results[0].type).shape)
    dims_attr = A.get(op, "broadcast_dimensions")
    dims = A.int_list(dims_attr) if dims_attr is not None else None
    a, b = cv.operands(op)
    ra, rb = ir.RankedTensorType(a.type).rank, ir.RankedTensorType(b.type).rank
    a = _broadcast_to(cv, op, a, shape, dims if ra < rb else None)
    b = _broadcast_to(cv, op, b, shape, dims if rb < ra else None)
    return [ir.Operation.create(f"hlo.{name}", results=[op.results[0].type], operands=[a, b],
                                attributes=hlo_attributes(op, OPS[name])).result]


