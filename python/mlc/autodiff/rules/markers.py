"""Marker ops: identity ops (`hlo.reshape` to the same type) tagged with an `mlc.autodiff`
attribute, which the walkers dispatch on instead of the op name.

- `"stop_gradient"`: the identity whose derivative is zero (mlc.stop_gradient).
- `"custom"`: an output of a function with a user-defined derivative (mlc.custom_vjp /
  mlc.custom_jvp); `mlc.custom_id` names the rule, which the tracing API registered in
  `custom_rules.lookup`. The marker's operand (the traced primal computation) is not
  differentiated: the user's rule replaces it.

Markers are plain identities for everything else: hlo-simplify removes them, so they cost
nothing in programs that are not differentiated.
"""

from __future__ import annotations

from mlir import ir

from .. import custom_rules
from ..registry import jvp_rule, vjp_rule

MARKER_ATTRIBUTE = "mlc.autodiff"


def marker_kind(op: ir.Operation) -> str | None:
    if MARKER_ATTRIBUTE not in op.attributes:
        return None
    return ir.StringAttr(op.attributes[MARKER_ATTRIBUTE]).value


@vjp_rule("marker:stop_gradient", ignores="all")
def stop_gradient_vjp(ctx, cts):
    """stop_gradient(x): ct_x = 0."""
    return [None]


@jvp_rule("marker:stop_gradient")
def stop_gradient_jvp(ctx, ts):
    """stop_gradient(x): t = 0."""
    return [None]


def _rule(ctx):
    ident = ir.IntegerAttr(ctx.op.attributes["mlc.custom_id"]).value
    return custom_rules.lookup(ident, ctx.op.location)


@vjp_rule("marker:custom")
def custom_vjp(ctx, cts):
    """y_k = custom(x)_k: the user's rule maps (ct_y_1..ct_y_n) to {x_i: ct_x_i}, once for
    the whole group of outputs (at its last marker, when every ct_y is complete)."""
    rule = _rule(ctx)
    done = ctx.walker.__dict__.setdefault("custom_done", set())
    if rule.ident in done:
        return [None]
    done.add(rule.ident)
    outputs = [ctx.walker.remap(v) for v in rule.outputs]
    return rule.vjp(ctx.walker, [ctx.walker.ct(v) for v in outputs])


@jvp_rule("marker:custom")
def custom_jvp(ctx, ts):
    """y_k = custom(x)_k: the user's rule maps the tangents of x to those of every y_k,
    computed once for the group at its first marker."""
    rule = _rule(ctx)
    done = ctx.walker.__dict__.setdefault("custom_done", {})
    if rule.ident not in done:
        done[rule.ident] = rule.jvp(ctx.walker, ts)
    outputs = [ctx.walker.remap(v) for v in rule.outputs]
    return [done[rule.ident][outputs.index(ctx.result)]]
