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

from ..transforms.pass_base import Pass, apply_patterns
from .target import cpu_flags


def _contracting_product(value: ir.Value, contracts: dict):
    """The arith.mulf computing `value`, if it has the contract flag and no other use.
    `contracts`: fastmath attribute -> whether it allows contraction, for this run (the
    flag's spelling is read once per distinct attribute, not once per op)."""
    if type(value) is ir.BlockArgument:  # (values come downcast: no owner to read)
        return None
    owner = value.owner
    op = owner.operation if isinstance(owner, (ir.OpView, ir.Operation)) else None
    if op is None or op.name != "arith.mulf":
        return None
    attributes = op.attributes
    if "fastmath" not in attributes:
        return None
    flags = attributes["fastmath"]
    contract = contracts.get(flags)
    if contract is None:
        contract = contracts[flags] = "contract" in str(flags)
    if not contract:
        return None
    uses = iter(value.uses)
    if next(uses, None) is None or next(uses, None) is not None:  # exactly one use
        return None
    return op


def fuse_multiply_add(op, rewriter, contracts: dict | None = None):
    """addf(acc, mulf(a, b) [contract]) -> fma(a, b, acc), on vectors."""
    if not isinstance(op.results[0].type, ir.VectorType):
        return None
    contracts = {} if contracts is None else contracts
    for product_index in (1, 0):
        product = _contracting_product(op.operands[product_index], contracts)
        if product is not None:
            acc = op.operands[1 - product_index]
            with rewriter.ip, op.location:  # (the op itself: math.fma's builder costs ~3x)
                fused = ir.Operation.create("math.fma", results=[acc.type],
                                            operands=[product.operands[0], product.operands[1], acc]).result
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
            contracts: dict = {}

            def fuse(op, rewriter):
                return fuse_multiply_add(op, rewriter, contracts)
            apply_patterns(module, {"arith.addf": [fuse]})
