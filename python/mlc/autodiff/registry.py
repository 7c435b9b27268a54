"""The autodiff rule tables: op name -> VJP rule, op name -> JVP rule, and the ops that are
declared non-differentiable (their outputs carry no derivative).

A VJP rule `vjp(ctx, cts)` gets the op (through `ctx`) and the cotangent of each result
(None is a symbolic zero) and returns one cotangent per operand (None for zero), or a dict
{value: cotangent} when the cotangents go to values that are not operands (custom rules).
A JVP rule `jvp(ctx, tangents)` gets one tangent per operand (None for zero) and returns
one tangent per result. Rules emit hlo ops at the current insertion point and location;
the walkers (`vjp.py`, `jvp.py`) set both. Rule modules under `rules/` register themselves
with the decorators below; `load_rules()` imports them all.

`ignores` of a VJP rule lists the operand positions whose primal *values* the rule never
reads ("all" for none of them; by default it reads all). Loops use it to store only the
carries their backward pass reads.
"""

from __future__ import annotations

import functools
from typing import Callable

from ..dialects.hlo.ops import OPS
from ..transforms.rule_context import RuleContext  # noqa: F401  (what a rule sees; jvp/vjp build it)
from ..transforms.rule_context import import_rule_modules

VJP_RULES: dict[str, Callable] = {}
JVP_RULES: dict[str, Callable] = {}
VJP_IGNORES: dict[str, frozenset | str] = {}
# op name -> why it has no derivative (its results are integers/booleans, or piecewise
# constant: the derivative is zero almost everywhere, as JAX defines it).
NON_DIFFERENTIABLE: dict[str, str] = {}

_RULE_MODULES = ("elementwise", "shape", "reduce", "dot", "convolution", "indexing", "sort",
                 "window", "control", "markers", "collectives")


def vjp_rule(*names: str, ignores=()):
    """Registers a VJP rule for the ops `names` (full names, e.g. "hlo.add")."""
    def register(fn):
        for name in names:
            assert name not in VJP_RULES, f"two VJP rules for {name}"
            VJP_RULES[name] = fn
            VJP_IGNORES[name] = ignores if ignores == "all" else frozenset(ignores)
        return fn
    return register


def jvp_rule(*names: str):
    """Registers a JVP rule for the ops `names`."""
    def register(fn):
        for name in names:
            assert name not in JVP_RULES, f"two JVP rules for {name}"
            JVP_RULES[name] = fn
        return fn
    return register


def reads_operand(op_key: str, position: int) -> bool:
    """Whether the VJP rule of `op_key` reads the primal value of operand `position`."""
    ignores = VJP_IGNORES.get(op_key, frozenset())
    return ignores != "all" and position not in ignores


def non_differentiable(reason: str, *names: str) -> None:
    for name in names:
        NON_DIFFERENTIABLE[name] = reason


@functools.cache
def load_rules() -> None:
    """Imports every rule module once (they register themselves)."""
    import_rule_modules(__package__, _RULE_MODULES)
    # Ops the op table declares without a derivative.
    for opdef in OPS.values():
        if opdef.differentiable is False:
            NON_DIFFERENTIABLE.setdefault(opdef.full_name, "declared non-differentiable in the op table")


