"""Collectives across MPI processes: the batch dim is one more data dim.

    all_reduce(x[b]) -> all_reduce(x)                         (elementwise across processes)
    collective_broadcast(x[b]) -> collective_broadcast(x)
    all_gather(x[b], dim d) -> all_gather(x, dim d+1)
    reduce_scatter(x[b], dim d) -> reduce_scatter(x, dim d+1)
"""

from __future__ import annotations

from ..registry import batch_rule
from ..values import batched_type, i64, rebuild


@batch_rule("hlo.all_reduce", "hlo.collective_broadcast")
def all_reduce(ctx, args):
    """all_reduce(x[b]) -> all_reduce(x) on [B, ...]; collective_broadcast the same."""
    return rebuild(ctx.op, [args[0].value], [batched_type(ctx.result.type, ctx.size)])


@batch_rule("hlo.all_gather")
def all_gather(ctx, args):
    """all_gather(x[b], all_gather_dim d) -> all_gather(x, d+1)."""
    return rebuild(ctx.op, [args[0].value], [batched_type(ctx.result.type, ctx.size)],
                   {"all_gather_dim": i64(ctx.attr("all_gather_dim") + 1)})


@batch_rule("hlo.reduce_scatter")
def reduce_scatter(ctx, args):
    """reduce_scatter(x[b], scatter_dimension d) -> reduce_scatter(x, d+1)."""
    return rebuild(ctx.op, [args[0].value], [batched_type(ctx.result.type, ctx.size)],
                   {"scatter_dimension": i64(ctx.attr("scatter_dimension") + 1)})
