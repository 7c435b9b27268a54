"""Sorting along a dim: the batch dim is another independent row.

    sort(x[b], dimension d) -> sort(x, d+1)
    argsort(x[b], dimension d) -> argsort(x, d+1)
"""

from __future__ import annotations

from ..registry import batch_rule
from ..values import batched_type, i64, rebuild


@batch_rule("hlo.sort", "hlo.argsort")
def sort(ctx, args):
    """sort/argsort(x[b], dimension d) -> sort/argsort(x, d+1)."""
    return rebuild(ctx.op, [args[0].value], [batched_type(ctx.result.type, ctx.size)],
                   {"dimension": i64(ctx.attr("dimension") + 1)})
