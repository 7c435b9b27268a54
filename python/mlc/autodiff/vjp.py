"""Reverse mode: the VJP of a straight-line list of ops, by reverse accumulation.

`Backward` walks the ops in reverse order (the list is in SSA order, so a value's users all
come after it and its cotangent is complete when its op is reached), calls each op's VJP
rule with the cotangents of its results, and adds the returned cotangents into its
operands'. Values used more than once (fan-out) accumulate with hlo.add; a value nobody
contributed to has the symbolic zero (absent from the table), so no zeros are built and
ops whose results have no cotangent emit nothing. Only float tensors carry cotangents.

Backward ops are emitted at the caller's insertion point; each carries the location of
the forward op it differentiates (the user's line).
"""

from __future__ import annotations

from typing import Callable, Sequence

from mlir import ir

from .errors import DifferentiationError
from .registry import NON_DIFFERENTIABLE, VJP_RULES, RuleContext, load_rules
from .rules.markers import marker_kind
from .values import add, differentiable


class Backward:
    """Cotangents of the values of one region; `remap` translates values recorded when the
    program was traced (custom rules) into this copy of it."""

    def __init__(self, remap: Callable[[ir.Value], ir.Value] | None = None):
        load_rules()
        self.cts: dict[ir.Value, ir.Value] = {}
        self.remap = remap or (lambda v: v)

    def accumulate(self, value: ir.Value, ct: ir.Value | None) -> None:
        if ct is None or not differentiable(value):
            return
        if ct.type != value.type:
            raise AssertionError(f"cotangent type {ct.type} for a value of type {value.type}")
        self.cts[value] = add(self.cts.get(value), ct)

    def ct(self, value: ir.Value) -> ir.Value | None:
        return self.cts.get(value)

    def run(self, ops: Sequence[ir.Operation]) -> None:
        for op in reversed(ops):
            op = op.operation
            cts = [self.cts.get(r) for r in op.results]
            if all(c is None for c in cts) or op.name in NON_DIFFERENTIABLE:
                continue
            rule = VJP_RULES.get(rule_key(op))
            if rule is None:
                raise DifferentiationError(f"reverse-mode differentiation of '{op.name}' is not "
                                           f"implemented", op.location)
            with op.location:
                out = rule(RuleContext(op, self), cts)
            pairs = out.items() if isinstance(out, dict) else zip(op.operands, out, strict=True)
            for value, ct in pairs:
                self.accumulate(value, ct)


def vjp_of_ops(ops: Sequence[ir.Operation], outputs: Sequence[ir.Value],
               output_cts: Sequence[ir.Value | None], inputs: Sequence[ir.Value],
               remap=None) -> list[ir.Value | None]:
    """Cotangents of `inputs` given those of `outputs`, for the computation `ops`."""
    walker = Backward(remap)
    for value, ct in zip(outputs, output_cts, strict=True):
        walker.accumulate(value, ct)
    walker.run(ops)
    return [walker.ct(v) for v in inputs]


def rule_key(op: ir.Operation) -> str:
    """The rule table key: the op name, or `marker:<kind>` for a marker op."""
    kind = marker_kind(op)
    return op.name if kind is None else f"marker:{kind}"
