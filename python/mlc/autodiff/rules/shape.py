"""Shape ops: all linear, so the JVP applies the op to the tangent and the VJP applies its
transpose to the cotangent (broadcast <-> sum, slice <-> pad, reshape, transpose and
reverse <-> their inverses, dynamic_slice <-> dynamic_update_slice into zeros,
concatenate <-> slices)."""

from __future__ import annotations

from mlir import ir
from mlir.dialects import tensor

from ...dialects import hlo
from ..registry import jvp_rule, vjp_rule
from ..values import materialize, scalar_like, shape, sum_to, zeros_like


def same_op(build, doc: str):
    """A JVP that applies the op again to the first operand's tangent (None stays None);
    `doc` states it."""
    def jvp(ctx, ts):
        return [None if ts[0] is None else build(ctx, ts[0])]
    jvp.__doc__ = doc
    return jvp


@vjp_rule("hlo.broadcast_in_dim", ignores="all")
def broadcast_in_dim_vjp(ctx, cts):
    """broadcast_in_dim(x, dims): ct_x = sum of ct over the new and the expanded dims,
    transposed back to x's dim order and reshaped to x's shape."""
    (ct,) = cts
    x = ctx.operands[0]
    dims = list(ctx.attr("broadcast_dimensions"))
    out_shape, in_shape = shape(ct), shape(x)
    summed = [d for d in range(len(out_shape))
              if d not in dims or (in_shape[dims.index(d)] == 1 and out_shape[d] != 1)]
    if summed:
        ct = hlo.reduce(ct, scalar_like(ct, 0), summed, "add")
    kept = [d for d in range(len(out_shape)) if d not in summed]  # ascending result dims
    # The operand dims these came from, in result order; a permuted broadcast needs a transpose.
    order = [dims.index(d) for d in kept]
    remaining = sorted(order)
    if order != remaining:
        ct = hlo.transpose(ct, [order.index(i) for i in remaining])
    if shape(ct) != in_shape:
        ct = hlo.reshape(ct, in_shape)
    return [ct]


jvp_rule("hlo.broadcast_in_dim")(same_op(
    lambda ctx, t: hlo.broadcast_in_dim(t, shape(ctx.result), ctx.attr("broadcast_dimensions")), "broadcast_in_dim(x): t = broadcast_in_dim(t_x)."))


@vjp_rule("hlo.reshape", ignores="all")
def reshape_vjp(ctx, cts):
    """reshape(x): ct_x = reshape(ct, shape(x))."""
    return [hlo.reshape(cts[0], shape(ctx.operands[0]))]


jvp_rule("hlo.reshape")(same_op(lambda ctx, t: hlo.reshape(t, shape(ctx.result)), "reshape(x): t = reshape(t_x)."))


@vjp_rule("hlo.transpose", ignores="all")
def transpose_vjp(ctx, cts):
    """transpose(x, p): ct_x = transpose(ct, p^-1)."""
    perm = list(ctx.attr("permutation"))
    inverse = [perm.index(i) for i in range(len(perm))]
    return [hlo.transpose(cts[0], inverse)]


jvp_rule("hlo.transpose")(same_op(lambda ctx, t: hlo.transpose(t, ctx.attr("permutation")), "transpose(x, p): t = transpose(t_x, p)."))


@vjp_rule("hlo.reverse", ignores="all")
def reverse_vjp(ctx, cts):
    """reverse(x, dims): ct_x = reverse(ct, dims)."""
    return [hlo.reverse(cts[0], ctx.attr("dimensions"))]


jvp_rule("hlo.reverse")(same_op(lambda ctx, t: hlo.reverse(t, ctx.attr("dimensions")), "reverse(x, dims): t = reverse(t_x, dims)."))


@vjp_rule("hlo.slice", ignores="all")
def slice_vjp(ctx, cts):
    """slice(x, start, limit, stride): ct_x = pad(ct, 0, low=start, high=rest,
    interior=stride-1), which puts each element back where it was read."""
    (ct,) = cts
    in_shape, out_shape = shape(ctx.operands[0]), shape(ct)
    starts, strides = ctx.attr("start_indices"), ctx.attr("strides")
    high = [n - (s + (m - 1) * k + 1) if m else n - s
            for n, s, m, k in zip(in_shape, starts, out_shape, strides)]
    interior = [k - 1 if m > 1 else 0 for m, k in zip(out_shape, strides)]
    low = list(starts)
    for d, m in enumerate(out_shape):
        if m == 0:  # nothing was read: all zeros
            low[d], high[d], interior[d] = in_shape[d], 0, 0
    return [hlo.pad(ct, scalar_like(ct, 0), low, high, interior)]


jvp_rule("hlo.slice")(same_op(lambda ctx, t: hlo.slice(
    t, ctx.attr("start_indices"), ctx.attr("limit_indices"), ctx.attr("strides")), "slice(x, ...): t = slice(t_x, ...)."))


def unpad(ct, low, high, interior):
    """The transpose of pad(x, v, low, high, interior) restricted to x: crop (or zero-extend
    where the pad cropped) and take every (interior+1)-th element."""
    unpadded = hlo.pad(ct, scalar_like(ct, 0), [-v for v in low], [-v for v in high],
                       [0] * len(low))
    return hlo.slice(unpadded, [0] * len(low), list(shape(unpadded)), [i + 1 for i in interior])


@vjp_rule("hlo.pad", ignores="all")
def pad_vjp(ctx, cts):
    """pad(x, v, lo, hi, in): ct_x = every (in+1)-th element of pad(ct, 0, -lo, -hi);
    ct_v = sum(ct) - sum(ct_x)."""
    (ct,) = cts
    low, high = ctx.attr("edge_padding_low"), ctx.attr("edge_padding_high")
    interior = ctx.attr("interior_padding")
    ct_x = unpad(ct, low, high, interior)
    total = sum_to(ct, ())
    ct_v = hlo.subtract(total, sum_to(ct_x, ()))
    return [ct_x, ct_v]


@jvp_rule("hlo.pad")
def pad_jvp(ctx, ts):
    """pad(x, v, ...): t = pad(t_x, t_v, ...)."""
    x, v = ctx.operands
    if ts[0] is None and ts[1] is None:
        return [None]
    return [hlo.pad(materialize(ts[0], x), materialize(ts[1], v), ctx.attr("edge_padding_low"),
                    ctx.attr("edge_padding_high"), ctx.attr("interior_padding"))]


@vjp_rule("hlo.dynamic_slice", ignores=(0,))
def dynamic_slice_vjp(ctx, cts):
    """dynamic_slice(x, s..., sizes): ct_x = dynamic_update_slice(zeros, ct, s...) (both
    clamp the starts the same way)."""
    x, *starts = ctx.operands
    return [hlo.dynamic_update_slice(zeros_like(x), cts[0], starts)] + [None] * len(starts)


jvp_rule("hlo.dynamic_slice")(same_op(lambda ctx, t: hlo.dynamic_slice(
    t, ctx.operands[1:], ctx.attr("slice_sizes")), "dynamic_slice(x, s...): t = dynamic_slice(t_x, s...)."))


@vjp_rule("hlo.dynamic_update_slice", ignores=(0, 1))
def dynamic_update_slice_vjp(ctx, cts):
    """dynamic_update_slice(x, u, s...): ct_x = ct with the window zeroed,
    ct_u = dynamic_slice(ct, s..., shape(u))."""
    (ct,) = cts
    x, update, *starts = ctx.operands
    ct_x = hlo.dynamic_update_slice(ct, zeros_like(update), starts)
    ct_u = hlo.dynamic_slice(ct, starts, shape(update))
    return [ct_x, ct_u] + [None] * len(starts)


@jvp_rule("hlo.dynamic_update_slice")
def dynamic_update_slice_jvp(ctx, ts):
    """dynamic_update_slice(x, u, s...): t = dynamic_update_slice(t_x, t_u, s...)."""
    x, update, *starts = ctx.operands
    if ts[0] is None and ts[1] is None:
        return [None]
    return [hlo.dynamic_update_slice(materialize(ts[0], x), materialize(ts[1], update), starts)]


def _concat_dim(op) -> int:
    return ir.IntegerAttr(op.attributes["dim"]).value


@vjp_rule("tensor.concat", ignores="all")
def concat_vjp(ctx, cts):
    """concat(x_1..x_n, dim): ct_x_i = the slice of ct at x_i's offset along dim."""
    (ct,) = cts
    dim = _concat_dim(ctx.op)
    full = shape(ct)
    out, offset = [], 0
    for x in ctx.operands:
        size = shape(x)[dim]
        start = [0] * len(full)
        limit = list(full)
        start[dim], limit[dim] = offset, offset + size
        out.append(hlo.slice(ct, start, limit, [1] * len(full)))
        offset += size
    return out


@jvp_rule("tensor.concat")
def concat_jvp(ctx, ts):
    """concat(x_1..x_n, dim): t = concat(t_1..t_n, dim)."""
    pieces = [materialize(t, x) for t, x in zip(ts, ctx.operands)]
    return [tensor.concat(ctx.result.type, _concat_dim(ctx.op), pieces)]
