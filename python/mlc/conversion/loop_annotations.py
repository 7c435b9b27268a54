"""Pass `mlc-loop-annotations`: loop metadata where LLVM reads it.

mlc-unroll-budget marks scf loops with `llvm.loop_annotation` (unroll disabled); the SCF
and CF lowerings carry the mark to the loop's back-edge branch as a discardable attribute,
which LLVM translation ignores. This pass moves it to the branch's own `loop_annotation`,
emitted as `!llvm.loop` metadata.
"""

from __future__ import annotations

from dataclasses import dataclass

from mlir import ir

from ..transforms.pass_base import Pass
from .unroll_budget import ANNOTATION


@dataclass(frozen=True)
class LoopAnnotations(Pass):
    """Moves `llvm.loop_annotation` from a discardable attribute of llvm.br / llvm.cond_br
    (where convert-scf-to-cf and cf-to-llvm leave it) to the branch's own `loop_annotation`,
    the one LLVM translation emits as `!llvm.loop` metadata.

    Expects and produces: the LLVM dialect.
    """

    name = "mlc-loop-annotations"

    def run(self, module: ir.Operation) -> None:
        # Branches end blocks, and LLVM-dialect functions are flat CFGs: only each block's
        # last op is looked at (a walk visiting every op cost ~20 ms on a training step).
        for function in module.regions[0].blocks[0].operations:
            for region in function.regions:
                for block in region.blocks:
                    ops = block.operations
                    if not len(ops):
                        continue
                    op = ops[len(ops) - 1].operation
                    if op.name in ("llvm.br", "llvm.cond_br") and ANNOTATION in op.attributes:
                        op.attributes["loop_annotation"] = op.attributes[ANNOTATION]
                        del op.attributes[ANNOTATION]
