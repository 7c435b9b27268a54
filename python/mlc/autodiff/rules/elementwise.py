"""Elementwise ops: derivatives stated as partials, from which both modes follow.

A unary rule gives f'(x) (it may use the result y = f(x)); the JVP is t * f'(x) and the
VJP ct * f'(x). A binary rule gives the partials (df/dlhs, df/drhs). Conventions at the
kinks are JAX's: |x|' = 1 at 0, max/min split a tie equally between the operands, clamp
passes the derivative only strictly inside (min, max), x^y has d/dx = 0 where y = 0 and
d/dy = 0 where x = 0.
"""

from __future__ import annotations

from mlir import ir

from ...dialects import hlo
from ...dialects.hlo.types import is_float
from ..registry import jvp_rule, vjp_rule
from ..values import (add, broadcast_to, compare, etype, full_like, materialize, mul, neg,
                      select_or_zero, sum_to, zeros_like)


def unary(name: str):
    """Registers f'(x, y) of the unary op `name` as its JVP and VJP."""
    def register(derivative):
        @vjp_rule(name)
        def vjp(ctx, cts):
            (ct,) = cts
            return [hlo.multiply(ct, derivative(ctx.operands[0], ctx.result))]

        @jvp_rule(name)
        def jvp(ctx, ts):
            (t,) = ts
            return [hlo.multiply(t, derivative(ctx.operands[0], ctx.result))]
        vjp.__doc__ = jvp.__doc__ = derivative.__doc__
        return derivative
    return register


def binary(name: str):
    """Registers the partials (d/dlhs, d/drhs)(lhs, rhs, out) of the binary op `name`."""
    def register(partials):
        @vjp_rule(name)
        def vjp(ctx, cts):
            (ct,) = cts
            lhs, rhs = ctx.operands
            dl, dr = partials(lhs, rhs, ctx.result)
            return [hlo.multiply(ct, dl) if dl is not None else None,
                    hlo.multiply(ct, dr) if dr is not None else None]

        @jvp_rule(name)
        def jvp(ctx, ts):
            lhs, rhs = ctx.operands
            dl, dr = partials(lhs, rhs, ctx.result)
            return [add(mul(ts[0], dl), mul(ts[1], dr))]
        vjp.__doc__ = jvp.__doc__ = partials.__doc__
        return partials
    return register


# --- linear ops ---------------------------------------------------------------------------

@vjp_rule("hlo.add", ignores="all")
def add_vjp(ctx, cts):
    """add(x, y): ct_x = ct, ct_y = ct."""
    return [cts[0], cts[0]]


@jvp_rule("hlo.add")
def add_jvp(ctx, ts):
    """add(x, y): t = t_x + t_y."""
    return [add(*ts)]


@vjp_rule("hlo.subtract", ignores="all")
def subtract_vjp(ctx, cts):
    """subtract(x, y): ct_x = ct, ct_y = -ct."""
    return [cts[0], neg(cts[0])]


@jvp_rule("hlo.subtract")
def subtract_jvp(ctx, ts):
    """subtract(x, y): t = t_x - t_y."""
    return [add(ts[0], neg(ts[1]))]


@vjp_rule("hlo.negate", ignores="all")
def negate_vjp(ctx, cts):
    """negate(x): ct_x = -ct."""
    return [neg(cts[0])]


@jvp_rule("hlo.negate")
def negate_jvp(ctx, ts):
    """negate(x): t = -t_x."""
    return [neg(ts[0])]


# --- unary ------------------------------------------------------------------------------

@unary("hlo.abs")
def _abs(x, y):
    """|x|' = 1 where x >= 0, -1 elsewhere (JAX: 1 at 0)."""
    return hlo.select(compare(x, zeros_like(x), "GE"), full_like(x, 1), full_like(x, -1))


@unary("hlo.exponential")
def _exp(x, y):
    """exp'(x) = y."""
    return y


@unary("hlo.exponential_minus_one")
def _expm1(x, y):
    """expm1'(x) = y + 1."""
    return hlo.add(y, full_like(y, 1))


@unary("hlo.log")
def _log(x, y):
    """log'(x) = 1 / x."""
    return hlo.divide(full_like(x, 1), x)


@unary("hlo.log_plus_one")
def _log1p(x, y):
    """log1p'(x) = 1 / (1 + x)."""
    return hlo.divide(full_like(x, 1), hlo.add(x, full_like(x, 1)))


@unary("hlo.logistic")
def _logistic(x, y):
    """logistic'(x) = y (1 - y)."""
    return hlo.multiply(y, hlo.subtract(full_like(y, 1), y))


@unary("hlo.tanh")
def _tanh(x, y):
    """tanh'(x) = 1 - y^2."""
    return hlo.subtract(full_like(y, 1), hlo.multiply(y, y))


@unary("hlo.sqrt")
def _sqrt(x, y):
    """sqrt'(x) = 0.5 / y."""
    return hlo.divide(full_like(y, 0.5), y)


@unary("hlo.rsqrt")
def _rsqrt(x, y):
    """rsqrt'(x) = -0.5 y / x."""
    return hlo.divide(hlo.multiply(full_like(y, -0.5), y), x)


@unary("hlo.cbrt")
def _cbrt(x, y):
    """cbrt'(x) = 1 / (3 y^2)."""
    return hlo.divide(full_like(y, 1), hlo.multiply(full_like(y, 3), hlo.multiply(y, y)))


@unary("hlo.sine")
def _sin(x, y):
    """sin'(x) = cos(x)."""
    return hlo.cosine(x)


@unary("hlo.cosine")
def _cos(x, y):
    """cos'(x) = -sin(x)."""
    return hlo.negate(hlo.sine(x))


@unary("hlo.tan")
def _tan(x, y):
    """tan'(x) = 1 + y^2."""
    return hlo.add(full_like(y, 1), hlo.multiply(y, y))


# --- binary -----------------------------------------------------------------------------

@binary("hlo.multiply")
def _multiply(x, y, out):
    """d(x*y) = (y, x)."""
    return y, x


@binary("hlo.divide")
def _divide(x, y, out):
    """d(x/y) = (1/y, -out/y)."""
    return hlo.divide(full_like(y, 1), y), hlo.negate(hlo.divide(out, y))


def _trunc(q):
    return hlo.multiply(hlo.sign(q), hlo.floor(hlo.abs(q)))


@binary("hlo.remainder")
def _remainder(x, y, out):
    """d rem(x, y) = (1, -trunc(x / y))."""
    return full_like(x, 1), hlo.negate(_trunc(hlo.divide(x, y)))


@binary("hlo.power")
def _power(x, y, out):
    """d x^y = (y x^(y-1), 0 where y = 0; log(x) x^y, 0 where x = 0)."""
    zero, one = zeros_like(x), full_like(x, 1)
    dx = hlo.select(compare(y, zero, "EQ"), zero,
                    hlo.multiply(y, hlo.power(x, hlo.subtract(y, one))))
    safe_x = hlo.select(compare(x, zero, "EQ"), one, x)
    dy = hlo.multiply(hlo.log(safe_x), out)
    return dx, dy


def _balanced(a, b, out):
    """1 where a alone is the result, 0.5 where a and b tie, 0 elsewhere."""
    a_wins = compare(a, out, "EQ")
    b_ties = compare(b, out, "EQ")
    share = hlo.select(b_ties, full_like(a, 0.5), full_like(a, 1))
    return hlo.select(a_wins, share, zeros_like(a))


@binary("hlo.maximum")
def _maximum(x, y, out):
    """d max(x, y) = (1, 0) where x > y, (0.5, 0.5) where x = y, (0, 1) where x < y."""
    return _balanced(x, y, out), _balanced(y, x, out)


@binary("hlo.minimum")
def _minimum(x, y, out):
    """d min(x, y) = (1, 0) where x < y, (0.5, 0.5) where x = y, (0, 1) where x > y."""
    return _balanced(x, y, out), _balanced(y, x, out)


@binary("hlo.atan2")
def _atan2(y, x, out):
    """d atan2(y, x) = (x, -y) / (x^2 + y^2)."""
    denominator = hlo.add(hlo.multiply(x, x), hlo.multiply(y, y))
    return hlo.divide(x, denominator), hlo.divide(hlo.negate(y), denominator)


# --- clamp, select, convert ---------------------------------------------------------------

def _clamp_masks(lo, x, hi):
    """(where min passes, where x passes, where max passes), at x's shape (JAX's rule)."""
    lo_b, hi_b = broadcast_to(lo, _shape(x)), broadcast_to(hi, _shape(x))
    inside = hlo.and_(compare(x, lo_b, "GT"), compare(x, hi_b, "LT"))
    lo_wins = hlo.and_(compare(lo_b, x, "GT"), compare(lo_b, hi_b, "LT"))
    hi_wins = compare(hi_b, x, "LT")
    return lo_wins, inside, hi_wins


def _shape(v):
    return tuple(ir.RankedTensorType(v.type).shape)


@vjp_rule("hlo.clamp")
def clamp_vjp(ctx, cts):
    """clamp(lo, x, hi): ct_x = ct where lo < x < hi; ct_lo = ct where lo > x and lo < hi;
    ct_hi = ct where hi < x (summed to 0-d bounds)."""
    (ct,) = cts
    lo, x, hi = ctx.operands
    masks = _clamp_masks(lo, x, hi)
    lo_ct, x_ct, hi_ct = (select_or_zero(m, ct) for m in masks)
    return [sum_to(lo_ct, _shape(lo)), x_ct, sum_to(hi_ct, _shape(hi))]


@jvp_rule("hlo.clamp")
def clamp_jvp(ctx, ts):
    """clamp(lo, x, hi): t = t_lo, t_x or t_hi by which of them the result is (JAX's masks)."""
    lo, x, hi = ctx.operands
    out = None
    for mask, t in zip(_clamp_masks(lo, x, hi), ts):
        if t is not None:
            out = add(out, select_or_zero(mask, broadcast_to(t, _shape(x))))
    return [out]


@vjp_rule("hlo.select", ignores=(1, 2))
def select_vjp(ctx, cts):
    """select(p, a, b): ct_a = p ? ct : 0, ct_b = p ? 0 : ct."""
    (ct,) = cts
    pred = ctx.operands[0]
    zero = zeros_like(ct)
    return [None, hlo.select(pred, ct, zero), hlo.select(pred, zero, ct)]


@jvp_rule("hlo.select")
def select_jvp(ctx, ts):
    """select(p, a, b): t = select(p, t_a, t_b)."""
    pred, a, b = ctx.operands
    if ts[1] is None and ts[2] is None:
        return [None]
    return [hlo.select(pred, materialize(ts[1], a), materialize(ts[2], b))]


@vjp_rule("hlo.convert", ignores="all")
def convert_vjp(ctx, cts):
    """convert(x) float -> float: ct_x = convert(ct) back; integers carry nothing."""
    x = ctx.operands[0]
    if not is_float(etype(x)):
        return [None]
    return [hlo.convert(cts[0], etype(x))]


@jvp_rule("hlo.convert")
def convert_jvp(ctx, ts):
    """convert(x) float -> float: t = convert(t_x)."""
    if not is_float(etype(ctx.result)):
        return [None]
    return [hlo.convert(ts[0], etype(ctx.result))]
