"""The batching rule table: op name -> rule.

A rule `rule(ctx, args)` gets the op (through `ctx`) and one `Arg` per operand: the value to
use (the operand's batched form, batch dim first, or the unbatched value itself) and
whether it is batched. It returns one entry per result: an `ir.Value` that is batched
(batch dim first), or `unbatched(value)`. Rules emit ops at the current insertion point and
location (the walker sets both) and are only called when some operand (or, for ops with
regions, some value a region reads) is batched. `load_rules()` imports every rule module.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Callable, NamedTuple

from mlir import ir

from ..transforms.rule_context import RuleContext as BaseRuleContext
from ..transforms.rule_context import import_rule_modules

RULES: dict[str, Callable] = {}

_RULE_MODULES = ("elementwise", "shape", "reduce", "dot", "convolution", "indexing", "sort",
                 "collectives", "control")


class Arg(NamedTuple):
    """An operand as the rule sees it."""

    value: ir.Value
    batched: bool


class Unbatched(NamedTuple):
    value: ir.Value


def unbatched(value: ir.Value) -> Unbatched:
    """A rule's result that carries no batch dimension."""
    return Unbatched(value)


def batch_rule(*names: str):
    """Registers a batching rule for the ops `names` (full names, e.g. "hlo.add")."""
    def register(fn):
        for name in names:
            assert name not in RULES, f"two batching rules for {name}"
            RULES[name] = fn
        return fn
    return register


@functools.cache
def load_rules() -> None:
    """Imports every rule module once (they register themselves)."""
    import_rule_modules(__package__, _RULE_MODULES)


@dataclass
class RuleContext(BaseRuleContext):
    """What a batching rule sees: the op (see transforms.rule_context) and the batch size."""

    size: int = 0
