"""Shape ops: the batch dim rides along as a new leading dim of operand and result.

    broadcast_in_dim(x[b], dims) -> broadcast_in_dim(x, [0] + (dims+1))
    reshape(x[b], S) -> reshape(x, [B] + S)
    transpose(x[b], p) -> transpose(x, [0] + (p+1))
    reverse(x[b], dims) -> reverse(x, dims+1)
    slice(x[b], s, l, st) -> slice(x, [0]+s, [B]+l, [1]+st)
    pad(x[b], v) -> pad(x, v) with no padding on dim 0; a batched v: pad with 0, then
        select(mask of the padding, v, padded)
    tensor.concat(x[b], y, dim d) -> tensor.concat(x, broadcast(y), dim d+1)
"""

from __future__ import annotations

from mlir import ir
from mlir.dialects import tensor

from ...dialects import hlo
from ..registry import batch_rule
from ..values import (batched_type, etype, i64_array, materialize, rebuild, scalar_constant, shape,
                      shifted)


@batch_rule("hlo.broadcast_in_dim")
def broadcast_in_dim(ctx, args):
    """broadcast_in_dim(x[b], dims) -> broadcast_in_dim(x, [0] + (dims+1)) to [B] + shape."""
    dims = [0] + shifted(ctx.attr("broadcast_dimensions"))
    return rebuild(ctx.op, [args[0].value], [batched_type(ctx.result.type, ctx.size)],
                   {"broadcast_dimensions": i64_array(dims)})


@batch_rule("hlo.reshape")
def reshape(ctx, args):
    """reshape(x[b], S) -> reshape(x, [B] + S); autodiff markers (identity reshapes tagged
    `mlc.autodiff`) keep their tag, except a custom-derivative one, whose rule was recorded
    for the per-example values (its derivative is then the traced primal ops')."""
    new = rebuild(ctx.op, [args[0].value], [batched_type(ctx.result.type, ctx.size)])
    owner = new[0].owner
    if "mlc.autodiff" in owner.attributes and \
            ir.StringAttr(owner.attributes["mlc.autodiff"]).value == "custom":
        del owner.attributes["mlc.autodiff"]
        del owner.attributes["mlc.custom_id"]
    return new


@batch_rule("hlo.transpose")
def transpose(ctx, args):
    """transpose(x[b], p) -> transpose(x, [0] + (p+1))."""
    perm = [0] + shifted(ctx.attr("permutation"))
    return rebuild(ctx.op, [args[0].value], [batched_type(ctx.result.type, ctx.size)],
                   {"permutation": i64_array(perm)})


@batch_rule("hlo.reverse")
def reverse(ctx, args):
    """reverse(x[b], dims) -> reverse(x, dims+1)."""
    return rebuild(ctx.op, [args[0].value], [batched_type(ctx.result.type, ctx.size)],
                   {"dimensions": i64_array(shifted(ctx.attr("dimensions")))})


@batch_rule("hlo.slice")
def slice_(ctx, args):
    """slice(x[b], s, l, st) -> slice(x, [0]+s, [B]+l, [1]+st)."""
    return rebuild(ctx.op, [args[0].value], [batched_type(ctx.result.type, ctx.size)], {
        "start_indices": i64_array([0] + ctx.attr("start_indices")),
        "limit_indices": i64_array([ctx.size] + ctx.attr("limit_indices")),
        "strides": i64_array([1] + ctx.attr("strides"))})


@batch_rule("hlo.pad")
def pad(ctx, args):
    """pad(x[b], v) -> pad(x, v) with dim 0 unpadded; for a batched v,
    select(pad(false-mask of x, true), broadcast(v), pad(x, 0))."""
    x_arg, v_arg = args
    x = materialize(x_arg, ctx.size)
    low, high = [0] + ctx.attr("edge_padding_low"), [0] + ctx.attr("edge_padding_high")
    inner = [0] + ctx.attr("interior_padding")
    if not v_arg.batched:
        return [hlo.pad(x, v_arg.value, low, high, inner)]
    padded = hlo.pad(x, scalar_constant(etype(x), 0), low, high, inner)
    i1 = ir.IntegerType.get_signless(1)
    mask = hlo.broadcast_in_dim(scalar_constant(i1, 0), list(shape(x)), [])
    mask = hlo.pad(mask, scalar_constant(i1, 1), low, high, inner)
    fill = hlo.broadcast_in_dim(v_arg.value, list(shape(padded)), [0])
    return [hlo.select(mask, fill, padded)]


@batch_rule("tensor.concat")
def concat(ctx, args):
    """tensor.concat(x[b], y, dim d) -> tensor.concat(x, broadcast(y), dim d+1)."""
    dim = ir.IntegerAttr(ctx.op.attributes["dim"]).value
    operands = [materialize(a, ctx.size) for a in args]
    return [tensor.concat(batched_type(ctx.result.type, ctx.size), dim + 1, operands)]
