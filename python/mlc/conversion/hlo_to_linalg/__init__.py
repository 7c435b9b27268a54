"""Pass `hlo-to-linalg`: every hlo op -> linalg/tensor/arith/math on tensors.

Each op's lowering is registered in `registry.LOWERINGS` by the family modules imported
below. The pass rewrites every hlo op, in regions too (scf.if/scf.while bodies), and fails
naming any hlo op that has no lowering.
"""

from __future__ import annotations

from dataclasses import dataclass

from mlir import ir

from ...dialects.hlo import verify_hlo
from ...dialects.hlo.verify import hlo_ops_in, signature_of
from ...transforms.pass_base import Pass, PassError, apply_patterns
from . import (constant, convolution, dot, elementwise, indexing, reduce, shape,  # noqa: F401
               slicing, sort)  # (importing registers the lowerings)
from .registry import LOWERINGS


def _rewrite_with(lower):
    def pattern(op, rewriter):
        sig = signature_of(op.operation)
        with rewriter.ip, op.location:
            values = lower(op, sig)
        rewriter.replace_op(op, list(values))
        return True
    pattern.__name__ = lower.__name__
    return pattern


@dataclass(frozen=True)
class HloToLinalg(Pass):
    """Lowers hlo ops to linalg, tensor, arith and math ops on tensors.

    Expects: hlo (verified first; invalid IR is reported, never rewritten), func, scf,
    tensor. Produces: linalg.generic/fill/transpose, tensor.empty/extract/collapse_shape/
    expand_shape, arith and math; no hlo op is left.
    """

    name = "hlo-to-linalg"

    def run(self, module: ir.Operation) -> None:
        errors = verify_hlo(module)
        if errors:
            raise PassError(errors[0][1], errors[0][0])
        patterns = {f"hlo.{name}": [_rewrite_with(fn)] for name, fn in LOWERINGS.items()}
        apply_patterns(module, patterns)
        left = hlo_ops_in(module)
        if left:
            raise PassError(f"'{left[0].name}' has no lowering to linalg", left[0].location)
