"""reduce_window add/max/min, through its windows as strided slices.

Let xp = pad(x, init, lo, hi, interior = base_dilation - 1), the array the windows slide
over. For each window offset w (a multi-index over window_dimensions), the elements at
offset w of every window form s_w = slice(xp, w * window_dilation, stride window_strides),
of the result's shape; the result is the combination of the s_w. So:

- add: ct_xp = sum_w slice^T(ct), ct_x = the elements of ct_xp that came from x; the JVP is
  reduce_window(t_x) itself.
- max/min: the first offset (row-major) whose s_w equals the result takes the whole
  derivative, as XLA's select-and-scatter does.
"""

from __future__ import annotations

import itertools

from ...dialects import hlo
from ..errors import DifferentiationError
from ..registry import jvp_rule, vjp_rule
from ..values import add, materialize, scalar_like, select_or_zero, shape, sum_to
from .shape import unpad


def _geometry(ctx):
    x = ctx.operands[0]
    rank = len(shape(x))
    window = ctx.attr("window_dimensions")
    strides = ctx.attr("window_strides") or [1] * rank
    base = ctx.attr("base_dilations") or [1] * rank
    wdil = ctx.attr("window_dilations") or [1] * rank
    padding = ctx.attr("padding") or [(0, 0)] * rank
    return window, strides, base, wdil, padding


def _padded(ctx, value, init):
    window, strides, base, wdil, padding = _geometry(ctx)
    return hlo.pad(value, init, [p[0] for p in padding], [p[1] for p in padding], [b - 1 for b in base])


def _windows(ctx, xp_shape):
    """(start, limit, strides) of each offset's strided slice of xp, in row-major order."""
    window, strides, base, wdil, padding = _geometry(ctx)
    out_shape = shape(ctx.result)
    if 0 in out_shape:
        return
    for offset in itertools.product(*[range(w) for w in window]):
        start = [o * d for o, d in zip(offset, wdil)]
        limit = [s + (m - 1) * k + 1 for s, m, k in zip(start, out_shape, strides)]
        yield start, limit, list(strides)


def _slice_transpose(ct, xp_shape, start, limit, strides):
    high = [n - lim for n, lim in zip(xp_shape, limit)]
    interior = [k - 1 for k in strides]
    return hlo.pad(ct, scalar_like(ct, 0), start, high, interior)


def _choices(ctx, xp):
    """Per window offset: (slice bounds, i1 mask where that offset is the chosen element)."""
    taken = None
    out = ctx.result
    for bounds in _windows(ctx, shape(xp)):
        hit = hlo.compare(hlo.slice(xp, *bounds), out, "EQ")
        if taken is None:
            mask, taken = hit, hit
        else:
            mask = hlo.and_(hit, hlo.not_(taken))
            taken = hlo.or_(taken, hit)
        yield bounds, mask


def _kind(ctx):
    kind = ctx.attr("kind")
    if kind not in ("add", "max", "min"):
        raise DifferentiationError(f"differentiation of reduce_window with kind '{kind}' is not "
                                   f"implemented (add, max and min are)", ctx.op.location)
    return kind


@vjp_rule("hlo.reduce_window")
def reduce_window_vjp(ctx, cts):
    """reduce_window(x, init): add: ct_x = unpad(sum_w slice_w^T(ct)), ct_init = sum(ct) +
    (what fell on padding); max/min: ct_x = unpad(sum_w slice_w^T(ct * [first offset
    where s_w = out]))."""
    (ct,) = cts
    x, init = ctx.operands
    kind = _kind(ctx)
    window, strides, base, wdil, padding = _geometry(ctx)
    xp = _padded(ctx, x, init)
    xp_shape = shape(xp)
    total = None
    if kind == "add":
        for bounds in _windows(ctx, xp_shape):
            total = add(total, _slice_transpose(ct, xp_shape, *bounds))
    else:
        for bounds, mask in _choices(ctx, xp):
            total = add(total, _slice_transpose(select_or_zero(mask, ct), xp_shape, *bounds))
    if total is None:
        return [None, None]
    ct_x = unpad(total, [p[0] for p in padding], [p[1] for p in padding], [b - 1 for b in base])
    ct_init = None
    if kind == "add":
        ct_init = hlo.add(sum_to(ct, ()), hlo.subtract(sum_to(total, ()), sum_to(ct_x, ())))
    return [ct_x, ct_init]


@jvp_rule("hlo.reduce_window")
def reduce_window_jvp(ctx, ts):
    """reduce_window(x, init): add: t = reduce_window_add(t_x) (plus t_init per covered
    element); max/min: t = sum_w select(first offset where s_w = out, slice_w(t_xp))."""
    x, init = ctx.operands
    kind = _kind(ctx)
    window, strides, base, wdil, padding = _geometry(ctx)
    if kind == "add" and ts[1] is None:
        return [hlo.reduce_window(ts[0], scalar_like(x, 0), window, "add", strides, base, wdil,
                                  padding)]
    t_xp = _padded(ctx, materialize(ts[0], x), materialize(ts[1], init))
    out = None
    if kind == "add":
        out = hlo.broadcast_in_dim(materialize(ts[1], init), list(shape(ctx.result)), [])
        for bounds in _windows(ctx, shape(t_xp)):
            out = hlo.add(out, hlo.slice(t_xp, *bounds))
        return [out]
    xp = _padded(ctx, x, init)
    for bounds, mask in _choices(ctx, xp):
        out = add(out, select_or_zero(mask, hlo.slice(t_xp, *bounds)))
    return [out]


