"""Reductions: reduce add/mul/max/min (and/or/xor are integer-only: nothing to carry).

Max and min share the derivative equally among the elements that tie for the result, as
JAX does: d max(x) / dx_i = [x_i = max] / #{j: x_j = max}. Products use the product of
the other elements, exact with zeros (no division by a zero element).
"""

from __future__ import annotations

from ...dialects import hlo
from ..registry import jvp_rule, vjp_rule
from ..values import compare, full_like, scalar_like, shape, sum_to, zeros_like


def expand(v, x_shape, dims):
    """A reduce result broadcast back over the reduced `dims` to `x_shape`."""
    kept = [d for d in range(len(x_shape)) if d not in dims]
    return hlo.broadcast_in_dim(v, list(x_shape), kept)


def _chooser_weights(ctx):
    """[x = result] / count, at x's shape: each tied element's share of the derivative."""
    x = ctx.operands[0]
    dims = list(ctx.attr("dimensions"))
    hit = compare(x, expand(ctx.result, shape(x), dims), "EQ")
    ones = hlo.select(hit, full_like(x, 1), zeros_like(x))
    count = hlo.reduce(ones, scalar_like(x, 0), dims, "add")
    return hlo.divide(ones, expand(count, shape(x), dims))


def _product_of_others(ctx):
    """d(init * prod x)/dx_i: out / x_i where x_i != 0; at a zero, the product of the
    non-zero elements (and init) if it is the only zero, else 0."""
    x, init = ctx.operands
    dims = list(ctx.attr("dimensions"))
    zero, one = zeros_like(x), full_like(x, 1)
    is_zero = compare(x, zero, "EQ")
    nonzero = hlo.select(is_zero, one, x)
    product = expand(hlo.reduce(nonzero, init, dims, "mul"), shape(x), dims)
    zeros = expand(hlo.reduce(hlo.select(is_zero, one, zero), scalar_like(x, 0), dims, "add"),
                   shape(x), dims)
    at_zero = hlo.select(compare(zeros, one, "EQ"), product, zero)
    elsewhere = hlo.divide(expand(ctx.result, shape(x), dims), nonzero)
    return hlo.select(is_zero, at_zero, elsewhere)


@vjp_rule("hlo.reduce")
def reduce_vjp(ctx, cts):
    """reduce(x, init, dims, kind): add: ct_x = broadcast(ct), ct_init = sum(ct);
    max/min: ct_x = broadcast(ct) * [x = out] / count(x = out); mul: ct_x = broadcast(ct) *
    prod(others), ct_init = sum(ct * out / init)."""
    (ct,) = cts
    x, init = ctx.operands
    kind, dims = ctx.attr("kind"), list(ctx.attr("dimensions"))
    spread = expand(ct, shape(x), dims)
    if kind == "add":
        return [spread, sum_to(ct, ())]
    if kind in ("max", "min"):
        return [hlo.multiply(spread, _chooser_weights(ctx)), None]
    if kind == "mul":
        ct_init = sum_to(hlo.multiply(ct, hlo.reduce(x, scalar_like(x, 1), dims, "mul")), ())
        return [hlo.multiply(spread, _product_of_others(ctx)), ct_init]
    return [None, None]


@jvp_rule("hlo.reduce")
def reduce_jvp(ctx, ts):
    """reduce(x, init, dims, kind): add: t = reduce_add(t_x) + t_init; max/min:
    t = sum(t_x * [x = out] / count); mul: t = sum(t_x * prod(others)) + t_init * prod(x)."""
    x, init = ctx.operands
    kind, dims = ctx.attr("kind"), list(ctx.attr("dimensions"))
    t_x, t_init = ts
    zero = scalar_like(x, 0)
    out = None
    if kind == "add":
        if t_x is not None:
            out = hlo.reduce(t_x, zero, dims, "add")
        if t_init is not None:
            spread = hlo.broadcast_in_dim(t_init, list(shape(ctx.result)), [])
            out = spread if out is None else hlo.add(out, spread)
        return [out]
    if kind in ("max", "min") and t_x is not None:
        return [hlo.reduce(hlo.multiply(t_x, _chooser_weights(ctx)), zero, dims, "add")]
    if kind == "mul":
        if t_x is not None:
            out = hlo.reduce(hlo.multiply(t_x, _product_of_others(ctx)), zero, dims, "add")
        if t_init is not None:
            part = hlo.multiply(hlo.broadcast_in_dim(t_init, list(shape(ctx.result)), []),
                                hlo.reduce(x, scalar_like(x, 1), dims, "mul"))
            out = part if out is None else hlo.add(out, part)
        return [out]
    return [None]


