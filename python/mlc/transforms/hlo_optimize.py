"""Pass `hlo-optimize`: the default graph pipeline, simplify -> fold -> cse -> dce, repeated
until nothing changes (at most `max-iterations` rounds)."""

from __future__ import annotations

from dataclasses import dataclass

from mlir import ir

from .hlo_cse import common_subexpressions
from .hlo_dce import dead_code_elimination
from .hlo_fold import HloFold, fold_constants
from .hlo_simplify import HloSimplify
from .verify import HloGraphPass


@dataclass(frozen=True)
class HloOptimize(HloGraphPass):
    """hlo-simplify, hlo-fold, hlo-cse and hlo-dce to a fixed point (bounded).

    Expects and produces hlo with func/scf/tensor. Options: max-iterations (default 8),
    fast-math (passed to hlo-simplify), size-limit (passed to hlo-fold).
    """

    name = "hlo-optimize"
    max_iterations: int = 8
    fast_math: bool = False
    size_limit: int = 1_000_000

    def __post_init__(self):
        if self.max_iterations < 1:
            raise ValueError(f"option max-iterations must be >= 1, got {self.max_iterations}")
        HloFold(size_limit=self.size_limit)  # hlo-fold's own check of the option

    def run(self, module: ir.Operation) -> None:
        self.check_input(module)
        simplify = HloSimplify(fast_math=self.fast_math, verify_input=False)
        for _ in range(self.max_iterations):
            changes = simplify.rewrite(module)
            changes += fold_constants(module, self.size_limit)
            changes += common_subexpressions(module, {})
            changes += dead_code_elimination(module)
            if not changes:
                return
