"""Pass `hlo-to-linalg`: every hlo op -> linalg/tensor/arith/math on tensors.

Each op's lowering is registered in `registry.LOWERINGS` by the family modules imported
below. The pass rewrites every hlo op, in regions too (scf.if/scf.while bodies), and fails
naming any hlo op that has no lowering.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from mlir import ir

from ...dialects.hlo import verify_hlo
from ...dialects.hlo.shape_rules import OpSignature
from ...dialects.hlo.types import is_unsigned, signless
from ...dialects.hlo.verify import hlo_ops_in, signature_of
from ...transforms.pass_base import Pass, PassError, apply_patterns
from . import (collectives, constant, convolution, dot, elementwise, indexing, reduce,  # noqa: F401
               shape, slicing, sort)  # (importing registers the lowerings)
from .registry import LOWERINGS, cast, empty
from .loop_fusion import lower_loop_fusion
from ...transforms.hlo_fuse import FUSION_KIND


@dataclass(frozen=True)
class _Result:
    type: ir.Type


@dataclass(frozen=True)
class SignlessView:
    """What a lowering sees of an hlo op: operands and result types made signless.

    arith and linalg compute on signless integers only. An op on unsigned types (ui8 ...)
    is lowered on signless casts of its operands; the signature records which operands and
    results were unsigned, so the lowering can pick unsigned semantics (divui, ult, ...).
    """

    operands: list
    results: list
    location: ir.Location


def _signless_signature(sig, op) -> "OpSignature":
    return replace(sig, operand_types=[signless(t) for t in sig.operand_types],
                   declared_results=[signless(r.type) for r in op.results],
                   unsigned_operands=tuple(is_unsigned(t.element_type) for t in sig.operand_types),
                   unsigned_results=tuple(is_unsigned(r.type.element_type) for r in op.results))


def _rewrite_with(lower):
    def pattern(op, rewriter):
        sig = signature_of(op.operation)
        with rewriter.ip, op.location:
            if all(0 in r.type.shape for r in op.results):
                # No element to compute: the lowerings' slices of empty tensors would have
                # offsets past the (zero) size, which tensor's verifier rejects.
                values = [cast(empty(signless(r.type)), r.type) for r in op.results]
            else:
                view = SignlessView([cast(v, signless(v.type)) for v in op.operands],
                                    [_Result(signless(r.type)) for r in op.results], op.location)
                values = lower(view, _signless_signature(sig, op))
                values = [cast(v, r.type) for v, r in zip(values, op.results)]
        rewriter.replace_op(op, values)
        return True
    pattern.__name__ = lower.__name__
    return pattern


@dataclass(frozen=True)
class HloToLinalg(Pass):
    """Lowers hlo ops to linalg, tensor, arith and math ops on tensors.

    Expects: hlo (verified first; invalid IR is reported, never rewritten), func, scf,
    tensor. Produces: linalg, tensor, scf, arith and math on signless types; no hlo op is
    left. Unsigned tensors meet the signless code through unrealized_conversion_casts, which
    mlc-signless removes. Option verify-input (default true): false skips the check.
    """

    name = "hlo-to-linalg"
    # false where the input is known valid: the compile pipeline verified it at its start
    # and the graph passes keep it valid (the check is a quarter of this pass on big graphs).
    verify_input: bool = True

    def run(self, module: ir.Operation) -> None:
        errors = verify_hlo(module) if self.verify_input else None
        if errors:
            raise PassError(errors[0][1], errors[0][0])
        # Loop fusions of elementwise ops: one generic each, built at once (loop_fusion.py).
        known: dict = {}  # (their ops' element infos, shared across fusions)
        for op in module.regions[0].blocks[0].operations:
            if op.operation.name == "func.func" and FUSION_KIND in op.attributes and \
                    ir.StringAttr(op.attributes[FUSION_KIND]).value == "loop":
                lower_loop_fusion(op.operation, known)
        patterns = {f"hlo.{name}": [_rewrite_with(fn)] for name, fn in LOWERINGS.items()}
        apply_patterns(module, patterns)
        left = hlo_ops_in(module)
        if left:
            raise PassError(f"'{left[0].name}' has no lowering to linalg", left[0].location)
