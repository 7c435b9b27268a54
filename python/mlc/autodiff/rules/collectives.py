"""Collectives: all_reduce add/max/min/mul, all_gather and reduce_scatter (add), with JAX's convention for values replicated
across processes: the transpose of psum is psum (a cotangent arriving on every process is
summed over them), so grad(pmean(loss_local)) is the local gradient and a data-parallel
step averages its gradients with pmean, as with jax.pmap.

max/min share the derivative among the processes whose element ties for the result
(as hlo.reduce's rule does among elements); mul uses result / x, so an element that is 0
on some process gets a NaN or inf derivative (jax.lax has no pprod to compare with).
all_gather and reduce_scatter(add) are each other's transposes, as JAX's all_gather and
psum_scatter.

collective_broadcast (out = x of process 0 on every process) is linear; its transpose is
a reduce to the root: process 0's cotangent is psum(ct), every other process's is 0 (its
operand does not reach any result). It is built from ops MLC has, a reduce_scatter(add)
of [ct, 0, ..., 0] (ct in block 0 of P blocks), which hands the summed block 0 to
process 0 and zero blocks to the others; the same P-times-larger message as MPI's
Reduce_scatter_block, acceptable for a broadcast that runs once (parameters at start).
"""

from __future__ import annotations

from ...dialects import hlo
from ..errors import DifferentiationError
from ..registry import jvp_rule, vjp_rule
from ..values import compare, full_like, scalar_like, shape, zeros_like


def _winner_weights(ctx):
    """[x = result] / (number of processes where that holds): each process's share."""
    x = ctx.operands[0]
    hit = hlo.select(compare(x, ctx.result, "EQ"), full_like(x, 1), zeros_like(x))
    return hlo.divide(hit, hlo.all_reduce(hit, "add"))


def _local_factor(ctx):
    """d result / d x on this process: 1 (add), the winner's share (max/min), result/x (mul)."""
    kind = ctx.attr("kind")
    if kind in ("max", "min"):
        return _winner_weights(ctx)
    if kind == "mul":
        return hlo.divide(ctx.result, ctx.operands[0])
    return None


@vjp_rule("hlo.all_reduce")
def all_reduce_vjp(ctx, cts):
    """all_reduce(x, kind): ct_x = psum(ct) (add); psum(ct) * [x = out] / psum([x = out])
    (max/min); psum(ct * out) / x (mul)."""
    (ct,) = cts
    if ctx.attr("kind") == "mul":
        return [hlo.divide(hlo.all_reduce(hlo.multiply(ct, ctx.result), "add"), ctx.operands[0])]
    summed = hlo.all_reduce(ct, "add")
    factor = _local_factor(ctx)
    return [summed if factor is None else hlo.multiply(summed, factor)]


@jvp_rule("hlo.all_reduce")
def all_reduce_jvp(ctx, ts):
    """all_reduce(x, kind): t = psum(t_x) (add); psum(t_x * [x = out] / count) (max/min);
    out * psum(t_x / x) (mul)."""
    (t,) = ts
    if t is None:
        return [None]
    if ctx.attr("kind") == "mul":
        return [hlo.multiply(ctx.result, hlo.all_reduce(hlo.divide(t, ctx.operands[0]), "add"))]
    factor = _local_factor(ctx)
    return [hlo.all_reduce(t if factor is None else hlo.multiply(t, factor), "add")]


def _processes(ctx, dim_attr: str, gathered_is_result: bool) -> int:
    dim = ctx.attr(dim_attr)
    small, big = (ctx.operands[0], ctx.result) if gathered_is_result else (ctx.result, ctx.operands[0])
    return shape(big)[dim] // shape(small)[dim]


@vjp_rule("hlo.all_gather", ignores="all")
def all_gather_vjp(ctx, cts):
    """all_gather(x, dim): ct_x = reduce_scatter(ct, dim, add) (JAX: psum_scatter)."""
    (ct,) = cts
    dim = ctx.attr("all_gather_dim")
    return [hlo.reduce_scatter(ct, dim, "add", _processes(ctx, "all_gather_dim", True))]


@jvp_rule("hlo.all_gather")
def all_gather_jvp(ctx, ts):
    """all_gather(x, dim): t = all_gather(t_x, dim) (linear)."""
    (t,) = ts
    dim = ctx.attr("all_gather_dim")
    return [None if t is None else hlo.all_gather(t, dim, _processes(ctx, "all_gather_dim", True))]


def _additive(ctx) -> None:
    if ctx.attr("kind") != "add":
        raise DifferentiationError(f"reduce_scatter with kind \"{ctx.attr('kind')}\" has no derivative "
                                   "rule (only add, psum_scatter's)", ctx.op.location)


@vjp_rule("hlo.reduce_scatter", ignores="all")
def reduce_scatter_vjp(ctx, cts):
    """reduce_scatter(x, dim, add): ct_x = all_gather(ct, dim) (JAX's psum_scatter rule)."""
    _additive(ctx)
    (ct,) = cts
    dim = ctx.attr("scatter_dimension")
    return [hlo.all_gather(ct, dim, _processes(ctx, "scatter_dimension", False))]


@jvp_rule("hlo.reduce_scatter")
def reduce_scatter_jvp(ctx, ts):
    """reduce_scatter(x, dim, add): t = reduce_scatter(t_x, dim, add) (linear)."""
    _additive(ctx)
    (t,) = ts
    dim = ctx.attr("scatter_dimension")
    return [None if t is None else hlo.reduce_scatter(t, dim, "add", _processes(ctx, "scatter_dimension", False))]


@vjp_rule("hlo.collective_broadcast", ignores="all")
def collective_broadcast_vjp(ctx, cts):
    """collective_broadcast(x): ct_x = psum(ct) on process 0, 0 elsewhere (reduce to the root),
    as reduce_scatter(pad(ct[None], high P-1 along the new dim 0), 0, add)[0]."""
    from ... import distributed
    (ct,) = cts
    processes = distributed.process_count()
    dims = shape(ct)
    stacked = hlo.pad(hlo.reshape(ct, (1, *dims)), scalar_like(ct, 0), [0] * (len(dims) + 1),
                      [processes - 1] + [0] * len(dims))
    mine = hlo.reduce_scatter(stacked, 0, "add", processes)
    return [hlo.reshape(mine, dims)]


@jvp_rule("hlo.collective_broadcast")
def collective_broadcast_jvp(ctx, ts):
    """collective_broadcast(x): t = collective_broadcast(t_x) (linear)."""
    (t,) = ts
    return [None if t is None else hlo.collective_broadcast(t)]
