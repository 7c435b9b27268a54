"""Pass `mlc-fma`: a vector multiply-add the source allowed to contract becomes one fused
multiply-add.

    %p = arith.mulf %a, %b fastmath<contract> : vector<4x8xf32>
    %s = arith.addf %acc, %p : vector<4x8xf32>
  ->
    %s = math.fma %a, %b, %acc : vector<4x8xf32>

The dot_general lowering marks its multiply and add `contract` (like XLA's CPU backend,
which lets LLVM form FMAs); the vectorizer's reduction lowering re-creates the add
without the flag, so LLVM alone would keep the two instructions. Only a mulf with the
flag and a single use is fused, and only when the host CPU has FMA (math.fma would
otherwise become a libm call).
"""

from __future__ import annotations

from dataclasses import dataclass

from mlir import ir
from mlir.dialects import math

from ..transforms.pass_base import Pass, apply_patterns
from .target import cpu_flags


def _contracting_product(value: ir.Value):
    owner = value.owner
    op = owner.operation if isinstance(owner, (ir.OpView, ir.Operation)) else None
    if op is None or op.name != "arith.mulf" or len(list(value.uses)) != 1:
        return None
    if "fastmath" not in op.attributes or "contract" not in str(op.attributes["fastmath"]):
        return None
    return op


def fuse_multiply_add(op, rewriter):
    """addf(acc, mulf(a, b) [contract]) -> fma(a, b, acc), on vectors."""
    if not isinstance(op.results[0].type, ir.VectorType):
        return None
    for product_index in (1, 0):
        product = _contracting_product(op.operands[product_index])
        if product is not None:
            acc = op.operands[1 - product_index]
            with rewriter.ip, op.location:
                fused = math.fma(product.operands[0], product.operands[1], acc)
            rewriter.replace_op(op, [fused])
            return True
    return None


@dataclass(frozen=True)
class FuseMultiplyAdd(Pass):
    """Fuses contractible vector multiply-adds into math.fma (hosts with FMA only).

    Expects: vector arith ops. Produces: math.fma where addf adds a contract mulf.
    """

    name = "mlc-fma"
    force: bool = False  # fuse even if the host CPU reports no FMA (for tests)

    def run(self, module: ir.Operation) -> None:
        if self.force or "fma" in cpu_flags():
            apply_patterns(module, {"arith.addf": [fuse_multiply_add]})
