"""Pass `hlo-optimize`: the default graph pipeline, simplify -> fold -> cse -> dce, repeated
until nothing changes (at most `max-iterations` rounds), then hlo-combine-collectives when the job has several processes (threshold: the compile's
CompileOptions.combine_threshold_bytes)."""

from __future__ import annotations

from dataclasses import dataclass

from mlir import ir

from .. import config, distributed
from .hlo_combine_collectives import combine_collectives
from .hlo_cse import common_subexpressions
from .hlo_dce import dead_code_elimination
from .hlo_fold import HloFold, fold_constants
from .hlo_simplify import HloSimplify
from .hlo_verify import HloGraphPass


@dataclass(frozen=True)
class HloOptimize(HloGraphPass):
    """hlo-simplify, hlo-fold, hlo-cse and hlo-dce to a fixed point (bounded), then hlo-combine-collectives.

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
        for round_ in range(self.max_iterations):
            changes = simplify.rewrite(module)
            if round_ and not changes:
                # The round before left nothing to fold, merge or erase (each of those
                # walks runs to its own fixed point, and cse and dce create no work for
                # fold, cse or dce): only a simplification could have, and none happened.
                break
            changes += fold_constants(module, self.size_limit)
            changes += common_subexpressions(module, {})
            changes += dead_code_elimination(module)
            if not changes:
                break
        # Then independent all_reduces packed into one per kind and type, once (the loop
        # above undoes none of it); the size cap is the compile's combine_threshold_bytes.
        # On one process a collective is the identity: packing would only copy.
        if config.forced_mpi_collectives() or distributed.process_count() > 1:
            combine_collectives(module, config.combine_threshold_bytes())
