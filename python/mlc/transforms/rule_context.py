"""What a per-op rule of an IR transformation (autodiff's, vmap's) sees of the op it rewrites."""

from __future__ import annotations

import importlib
from dataclasses import dataclass, field

import numpy as np
from mlir import ir

from ..dialects.hlo.verify import signature_of


@dataclass
class RuleContext:
    """The op, its operands and results, attribute values as Python values, and the walker
    (ops with regions transform their bodies with a nested walk)."""

    op: ir.Operation
    walker: object = None
    _attrs: dict | None = field(default=None, repr=False)

    @property
    def operands(self) -> list[ir.Value]:
        return list(self.op.operands)

    @property
    def results(self) -> list[ir.Value]:
        return list(self.op.results)

    @property
    def result(self) -> ir.Value:
        return self.op.results[0]

    def attr(self, name: str, default=None):
        """An hlo attribute as a Python value (lists, ints, strings, bools; `padding` as
        (low, high) pairs), or `default` when the op does not carry it."""
        if self._attrs is None:
            self._attrs = signature_of(self.op).attributes if self.op.name.startswith("hlo.") else {}
        if name not in self._attrs:
            return default
        value = self._attrs[name]
        if name == "padding":
            flat = [int(v) for v in np.array(ir.DenseIntElementsAttr(value)).reshape(-1)]
            return [(flat[i], flat[i + 1]) for i in range(0, len(flat), 2)]
        return value


def import_rule_modules(package: str, names) -> None:
    """Imports `package.rules.<name>` for each name: rule modules register themselves."""
    for name in names:
        importlib.import_module(f"{package}.rules.{name}")
