"""Pass `hlo-dce`: removes hlo ops whose results are never used, in nested regions too."""

from __future__ import annotations

from dataclasses import dataclass

from mlir import ir

from .hlo_verify import HloGraphPass

# Ops without side effects that MLC may delete: every hlo op, and tensor.concat.
def is_pure(op) -> bool:
    return op.name.startswith("hlo.") or op.name == "tensor.concat"


def unused(op) -> bool:
    """No result of `op` has a use."""
    return all(next(iter(r.uses), None) is None for r in op.results)


def dead_code_elimination(root: ir.Operation) -> int:
    removed = 0
    for region in root.regions:
        for block in region.blocks:
            # Reverse order: a dead user goes first, which can make its operands dead too.
            for op in reversed([o.operation for o in block.operations]):
                if len(op.regions):
                    removed += dead_code_elimination(op)
                if is_pure(op) and unused(op):
                    op.erase()
                    removed += 1
    return removed


@dataclass(frozen=True)
class HloDce(HloGraphPass):
    """Removes hlo ops (and tensor.concat) whose results are unused.

    Expects and produces hlo with func/scf/tensor. Upstream ops are left to upstream passes.
    """

    name = "hlo-dce"

    def run(self, module: ir.Operation) -> None:
        self.check_input(module)
        dead_code_elimination(module)
