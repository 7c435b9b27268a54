"""The batching walker: ops in SSA order -> their batched form.

`Batcher` maps every value it has seen to an `Arg` (the value to use and whether it is
batched). An op none of whose operands or region free values is batched is left alone
(`clone=False`, the ops traced by mlc.vmap stay where they are) or copied with its operands
remapped (`clone=True`: a body copied into a new region or function). Any other op goes to
its rule. Ops are emitted at the caller's insertion point with the location of the op they
batch (the user's line).
"""

from __future__ import annotations

from typing import Sequence

from mlir import ir

from ..autodiff.regions import free_values
from .errors import BatchingError
from .registry import RULES, Arg, RuleContext, Unbatched, load_rules


def _remap_operands(op: ir.Operation, lookup) -> None:
    for i, v in enumerate(op.operands):
        new = lookup(v)
        if new is not v:
            op.operands[i] = new
    for region in op.regions:
        for block in region.blocks:
            for inner in block.operations:
                _remap_operands(inner.operation, lookup)


class Batcher:
    """Batched forms of the values of one region (batch size `size`)."""

    def __init__(self, size: int, clone: bool, values: dict | None = None):
        load_rules()
        self.size = size
        self.clone = clone
        self.values: dict[ir.Value, Arg] = dict(values or {})

    def set(self, old: ir.Value, new: ir.Value, is_batched: bool) -> None:
        self.values[old] = Arg(new, is_batched)

    def get(self, v: ir.Value) -> Arg:
        return self.values.get(v, Arg(v, False))

    def child(self, clone: bool = True) -> "Batcher":
        """A walker for a nested region: it sees this one's values."""
        return Batcher(self.size, clone, self.values)

    def reads_batched(self, op: ir.Operation) -> bool:
        if any(self.get(v).batched for v in op.operands):
            return True
        return bool(len(op.regions)) and any(self.get(v).batched for v in free_values(op.regions))

    def _copy(self, op: ir.Operation) -> None:
        new = op.clone(ir.InsertionPoint.current)
        _remap_operands(new, lambda v: self.get(v).value)
        for old, fresh in zip(op.results, new.results):
            self.set(old, fresh, False)

    def run(self, ops: Sequence[ir.Operation]) -> None:
        for op in ops:
            op = op.operation
            if not self.reads_batched(op):
                if self.clone:
                    self._copy(op)
                continue
            rule = RULES.get(op.name)
            if rule is None:
                raise BatchingError(f"vmap of '{op.name}' is not implemented (no batching rule)",
                                    op.location)
            with op.location:
                outs = rule(RuleContext(op, walker=self, size=self.size), [self.get(v) for v in op.operands])
            for old, new in zip(op.results, outs, strict=True):
                if isinstance(new, Unbatched):
                    self.set(old, new.value, False)
                else:
                    self.set(old, new, True)
