"""Pass `mlc-fuse-kernels`: linalg's elementwise fusion, inside hlo-fuse's fusions only.

hlo-fuse decides what runs as one kernel (with its cost model); each fusion it outlined
(a private function tagged `hlo.fusion_kind`) then becomes one loop nest through upstream
`linalg-fuse-elementwise-ops`. Run on every function, the upstream pass would also merge
ops hlo-fuse deliberately kept apart: a lone `tanh(x)` left before a matmul in @main was
merged into the matmul's loop, recomputed for every output column (tanh(x) @ w on 512x512
took 1.9 s instead of 18 ms) and off BLAS. So unit-extent folding runs on every function
and elementwise fusion on the fusion functions only.
"""

from __future__ import annotations

from dataclasses import dataclass

from mlir import ir, passmanager

from ..transforms.hlo_fuse import FUSION_KIND
from ..transforms.pass_base import Pass
from .merge_kernels import merge_kernels

_EVERY_FUNCTION = "func.func(linalg-fold-unit-extent-dims)"
_IN_A_FUSION = "func.func(linalg-fuse-elementwise-ops)"


@dataclass(frozen=True)
class FuseKernels(Pass):
    """Folds unit dims of linalg ops in every function and merges producer/consumer
    linalg.generics inside the functions hlo-fuse outlined (attribute hlo.fusion_kind).

    Expects: linalg on tensors (hlo-to-linalg's output). Produces: each fusion function one
    loop nest where upstream elementwise fusion can make it so; other functions' kernels
    unmerged.
    """

    name = "mlc-fuse-kernels"

    def run(self, module: ir.Operation) -> None:
        passmanager.PassManager.parse(f"builtin.module({_EVERY_FUNCTION})").run(module)
        fuse = passmanager.PassManager.parse(_IN_A_FUSION)
        for op in module.regions[0].blocks[0].operations:
            if op.operation.name == "func.func" and FUSION_KIND in op.attributes:
                fuse.run(op.operation)
                # A value leaving a multi-output fusion has two uses: upstream leaves its
                # loop apart; merge_kernels joins the loops (and what that makes fusible).
                while merge_kernels(op.operation):
                    fuse.run(op.operation)
