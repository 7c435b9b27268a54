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
    """What must match besides the result types (compared only when this matches: reading
    and hashing types was most of the pass on graphs without repeats)."""
    attributes = op.attributes
    if len(attributes):
        attributes = tuple((name, attributes[name]) for name in sorted(attributes))
    else:
        attributes = ()
    return (op.name, tuple(op.operands), attributes)


def _result_types(op) -> list:
    return op.results.types


def common_subexpressions(op: ir.Operation, visible: dict) -> int:
    """`visible`: key -> [(result types or None until read, op), ...], earliest first."""
    replaced = 0
    for region in op.regions:
        for block in region.blocks:
            scope = dict(visible)  # what dominates this block, plus what it defines
            for inner in [o.operation for o in block.operations]:
                if len(inner.regions):  # never merged: its regions see this block's expressions
                    replaced += common_subexpressions(inner, scope)
                    continue
                if not is_pure(inner):
                    continue
                key = _key(inner)
                entries = scope.get(key)
                if entries is None:
                    scope[key] = [[None, inner]]
                    continue
                types = _result_types(inner)
                earlier = None
                for entry in entries:
                    if entry[0] is None:
                        entry[0] = _result_types(entry[1])
                    if entry[0] == types:
                        earlier = entry[1]
                        break
                if earlier is None:
                    scope[key] = entries + [[types, inner]]  # (a new list: enclosing scopes share the old)
                    continue
                for old, new in zip(inner.results, earlier.results):
                    old.replace_all_uses_with(new)
                inner.erase()
                replaced += 1
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
