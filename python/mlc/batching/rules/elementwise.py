"""Elementwise ops: the batch dim is one more elementwise dim.

    op(x[b], y) -> op(x, broadcast(y)) with result [B, ...]

Unbatched operands are broadcast along the batch dim; 0-d operands that the op allows
(select's predicate, clamp's bounds) are broadcast to the result shape first, since a
per-example scalar is no longer 0-d once batched. `constant` and `iota` read nothing and
are never batched.
"""

from __future__ import annotations

from ...dialects.hlo.ops import OPS
from ..registry import batch_rule
from ..values import batched_type, materialize, rebuild, shape

_FAMILIES = ("elementwise-unary", "elementwise-binary", "predicate", "compare", "clamp",
             "select", "convert", "bitcast")
ELEMENTWISE = [f"hlo.{d.name}" for d in OPS.values() if d.family in _FAMILIES]


@batch_rule(*ELEMENTWISE)
def elementwise(ctx, args):
    """op(x[b], y[b]) -> op(x, y) on [B, ...]: every operand brought to [B] + the result's shape."""
    per_example = shape(ctx.result)
    operands = [materialize(a, ctx.size, per_example) for a in args]
    return rebuild(ctx.op, operands, [batched_type(r.type, ctx.size) for r in ctx.op.results])


@batch_rule("hlo.constant", "hlo.iota")
def no_operands(ctx, args):
    """constant/iota read no value, so the walker never asks: they stay unbatched."""
    raise AssertionError(f"{ctx.op.name} has no operands to be batched")
