"""Pass `hlo-simplify`: XLA's algebraic simplifier for the hlo dialect.

The patterns live in `simplify/` by op family; each states its rewrite in its docstring.
Rewrites that change NaN, inf or -0.0 results run only with `fast-math`.
"""

from __future__ import annotations

from dataclasses import dataclass

from mlir import ir

from . import simplify  # noqa: F401  (registers the patterns)
from .hlo_dce import dead_code_elimination
from .patterns import SIMPLIFY_PATTERNS, PatternContext, apply_rewrite_patterns
from .hlo_verify import HloGraphPass


@dataclass(frozen=True)
class HloSimplify(HloGraphPass):
    """Algebraic simplification of hlo ops (x*1 -> x, transpose of transpose, ...).

    Expects and produces hlo (with func/scf/tensor around it); ops left unused are erased.
    Invalid IR is reported and left alone. Options: fast-math (also rewrite where NaN/inf/-0.0 results could change).
    """

    name = "hlo-simplify"
    fast_math: bool = False

    def run(self, module: ir.Operation) -> None:
        self.check_input(module)
        # As upstream canonicalize: ops a rewrite left without users go too (IRDL ops have
        # no side-effect interface, so the greedy driver cannot know they are dead).
        if self.rewrite(module):
            dead_code_elimination(module)

    def rewrite(self, module: ir.Operation) -> int:
        """One round of the patterns on valid hlo; the number of rewrites."""
        return apply_rewrite_patterns(module, SIMPLIFY_PATTERNS, PatternContext(self.fast_math))
