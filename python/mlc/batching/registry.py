"""The batching rule table: op name -> rule.

A rule `rule(ctx, args)` gets the op (through `ctx`) and one `Arg` per operand: the value to
use (the operand's batched form, batch dim first, or the unbatched value itself) and
whether it is batched. It returns one entry per result: an `ir.Value` that is batched
(batch dim first), or `unbatched(value)`. Rules emit ops at the current insertion point and
location (the walker sets both) and are only called when some operand (or, for ops with
regions, some value a region reads) is batched. `load_rules()` imports every rule module.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass, field
from typing import Callable, NamedTuple

from mlir import ir

from ..dialects.hlo.verify import signature_of

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


_loaded = False


def load_rules() -> None:
    global _loaded
    if not _loaded:
        for name in _RULE_MODULES:
            importlib.import_module(f"{__package__}.rules.{name}")
        _loaded = True


@dataclass
class RuleContext:
    """What a rule sees: the op, the batch size, attribute values as Python values, and the
    walker (ops with regions batch their bodies with a nested walk)."""

    op: ir.Operation
    size: int
    walker: object = None
    _attrs: dict | None = field(default=None, repr=False)

    @property
    def result(self) -> ir.Value:
        return self.op.results[0]

    def attr(self, name: str, default=None):
        """An hlo attribute as a Python value (`padding` as (low, high) pairs)."""
        if self._attrs is None:
            self._attrs = signature_of(self.op).attributes if self.op.name.startswith("hlo.") else {}
        if name not in self._attrs:
            return default
        value = self._attrs[name]
        if name == "padding":
            import numpy as np
            flat = [int(v) for v in np.array(ir.DenseIntElementsAttr(value)).reshape(-1)]
            return [(flat[i], flat[i + 1]) for i in range(0, len(flat), 2)]
        return value
