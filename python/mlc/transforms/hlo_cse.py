"""Pass `hlo-cse`: common-subexpression elimination of hlo ops across a function.

Two ops are the same expression when they have the same name, operands, attributes and
result types. An op is replaced by an equal one that dominates it: one earlier in the
same block or in an enclosing block (so a computation outside an scf.if serves both of
its branches). hlo ops have no side effects; upstream ops are left to upstream `cse`.
"""

from __future__ import annotations

from dataclasses import dataclass

from mlir import ir

from .hlo_dce import is_pure
from .hlo_verify import HloGraphPass


def _key(op):
    attributes = tuple((name, op.attributes[name]) for name in sorted(op.attributes))
    return (op.name, tuple(op.operands), attributes, tuple(r.type for r in op.results))


def common_subexpressions(op: ir.Operation, visible: dict) -> int:
    replaced = 0
    for region in op.regions:
        for block in region.blocks:
            scope = dict(visible)  # what dominates this block, plus what it defines
            for inner in [o.operation for o in block.operations]:
                if is_pure(inner) and not len(inner.regions):
                    key = _key(inner)
                    earlier = scope.get(key)
                    if earlier is not None:
                        for old, new in zip(inner.results, earlier.results):
                            old.replace_all_uses_with(new)
                        inner.operation.erase()
                        replaced += 1
                        continue
                    scope[key] = inner
                replaced += common_subexpressions(inner.operation, scope)
    return replaced


@dataclass(frozen=True)
class HloCse(HloGraphPass):
    """Merges hlo ops that compute the same expression (same op, operands, attributes, types).

    Expects and produces hlo with func/scf/tensor; regions see the expressions of the blocks
    that enclose them.
    """

    name = "hlo-cse"

    def run(self, module: ir.Operation) -> None:
        self.check_input(module)
        common_subexpressions(module, {})
