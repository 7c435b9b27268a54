"""Pass `mlc-signless`: unsigned tensors (`tensor<...xui8>`) become signless
(`tensor<...xi8>`), and the unrealized casts hlo-to-linalg put between the two vanish.

hlo-to-linalg already computes on signless types (with unsigned semantics where the hlo
types were unsigned); what is left unsigned is the function signatures and the values
that flow between lowered ops. The bits are the same, so this is a pure retyping.
"""

from __future__ import annotations

from dataclasses import dataclass

from mlir import ir

from ..dialects.hlo.types import signless
from ..transforms.pass_base import Pass
from .retype import retype_everything


def _to_signless(t: ir.Type) -> ir.Type | None:
    new = signless(t) if isinstance(t, (ir.RankedTensorType, ir.IntegerType)) else t
    return new if new != t else None


@dataclass(frozen=True)
class Signless(Pass):
    """Makes unsigned integer tensors signless and drops the casts that become no-ops.

    Expects: linalg/tensor/arith/scf/func on tensors. Produces: the same with no unsigned
    integer types and no unrealized_conversion_cast between identical types.
    """

    name = "mlc-signless"

    def run(self, module: ir.Operation) -> None:
        ops = retype_everything(module, _to_signless)
        for op in ops:
            if (op.name == "builtin.unrealized_conversion_cast" and len(op.operands) == 1
                    and op.operands[0].type == op.results[0].type):
                op.results[0].replace_all_uses_with(op.operands[0])
                op.erase()
