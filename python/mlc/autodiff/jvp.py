"""Forward mode: the JVP of a straight-line list of ops, by forward propagation.

`Forward` walks the ops in order and calls each op's JVP rule with the tangents of its
operands (None is a symbolic zero: an op whose operands all have zero tangents emits
nothing). Ops with regions (scf.if, scf.while) always run their rule: values they capture
from outside may carry tangents. Tangent ops are emitted at the caller's insertion point
(after the whole forward computation: they read primal values, never the reverse).
"""

from __future__ import annotations

from typing import Sequence

from mlir import ir

from .errors import DifferentiationError
from .vjp import rule_key
from .registry import JVP_RULES, NON_DIFFERENTIABLE, RuleContext, load_rules
from .values import differentiable


class Forward:
    """Tangents of the values of one region."""

    def __init__(self, remap=None):
        load_rules()
        self.tangents: dict[ir.Value, ir.Value] = {}
        self.remap = remap or (lambda v: v)

    def tangent(self, value: ir.Value) -> ir.Value | None:
        return self.tangents.get(value)

    def set(self, value: ir.Value, tangent: ir.Value | None) -> None:
        if tangent is None or not differentiable(value):
            return
        if tangent.type != value.type:
            raise AssertionError(f"tangent type {tangent.type} for a value of type {value.type}")
        self.tangents[value] = tangent

    def run(self, ops: Sequence[ir.Operation]) -> None:
        for op in ops:
            op = op.operation
            ts = [self.tangents.get(v) for v in op.operands]
            if not op.regions and all(t is None for t in ts):
                continue
            if op.name in NON_DIFFERENTIABLE or not any(differentiable(r) for r in op.results):
                continue
            rule = JVP_RULES.get(rule_key(op))
            if rule is None:
                raise DifferentiationError(f"forward-mode differentiation of '{op.name}' is not "
                                           f"implemented", op.location)
            with op.location:
                outs = rule(RuleContext(op, self), ts)
            for value, t in zip(op.results, outs, strict=True):
                self.set(value, t)


def jvp_of_ops(ops: Sequence[ir.Operation], inputs: Sequence[ir.Value],
               input_tangents: Sequence[ir.Value | None], outputs: Sequence[ir.Value],
               remap=None) -> list[ir.Value | None]:
    """Tangents of `outputs` given those of `inputs`, for the computation `ops`."""
    walker = Forward(remap)
    for value, t in zip(inputs, input_tangents, strict=True):
        walker.set(value, t)
    walker.run(ops)
    return [walker.tangent(v) for v in outputs]
