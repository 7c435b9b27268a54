"""Pass `mlc-fold-widening`: a contraction reads its operands before they are widened.

    %a32 = linalg.generic ins(%a : tensor<MxKxi8>) outs(...) { extsi : i8 to i32 }
    %c = linalg.generic ins(%a32, %b32 : ...) outs(%acc : tensor<MxNxi32>) {
    ^bb0(%x: i32, %y: i32, %o: i32): %p = arith.muli %x, %y; %s = arith.addi %o, %p ...
  ->
    %c = linalg.generic ins(%a, %b32 : tensor<MxKxi8>, ...) outs(%acc : tensor<MxNxi32>) {
    ^bb0(%x8: i8, %y: i32, %o: i32): %x = arith.extsi %x8 : i8 to i32; %p = arith.muli %x, %y ...

What a product with preferred_element_type leaves (int8 x int8 -> int32, f16 x f16 -> f32):
the frontend converts both operands, then multiplies in the wide type. Materialized, the
widened copies cost 4x the operands' bytes in memory traffic, and they hide the narrow
element type from the matmul strategies: MLC's packed kernel widens while packing instead,
and with 16-bit or narrower integers uses VNNI's int16-pair multiply-add where the host has
it (codegen/packed_gemm.py). The widening kernel is folded only when the contraction is its
one user (otherwise it is computed anyway); extsi, extui and extf only (an int -> float
convert changes what a product means).

Expects: linalg on tensors (after inlining the fusion functions). Produces: contractions
whose body widens some block arguments first (contraction.match_contraction reads them).
"""

from __future__ import annotations

from dataclasses import dataclass

from mlir import ir
from mlir.dialects import arith

from ..codegen.contraction import WIDENINGS, match_contraction
from ..transforms.pass_base import Pass


def _widening(value: ir.Value):
    """(narrow value, widening op name, the kernel) when `value` is the one result of an
    elementwise kernel that only widens its one input, and one operand reads it (a
    contraction reading it twice, x * x, keeps the kernel)."""
    producer = value.owner
    if not isinstance(producer, ir.OpView) or producer.operation.name != "linalg.generic":
        return None
    if len(producer.operands) != 2 or len(producer.results) != 1 or len(list(value.uses)) != 1:
        return None
    maps = [ir.AffineMapAttr(m).value for m in producer.attributes["indexing_maps"]]
    if any(m != ir.AffineMap.get_identity(m.n_dims) for m in maps):
        return None
    block = producer.regions[0].blocks[0]
    body = list(block.operations)
    if len(body) != 2 or body[0].operation.name not in WIDENINGS \
            or body[0].operands[0] != block.arguments[0] or body[1].operands[0] != body[0].results[0]:
        return None
    return producer.operands[0], body[0].operation.name, producer


@dataclass(frozen=True)
class FoldWidening(Pass):
    """contraction(ext(a), ext(b)) -> contraction(a, b) widening in its body (module docstring)."""

    name = "mlc-fold-widening"

    def run(self, module: ir.Operation) -> None:
        contractions = []

        def visit(op):
            if op.name == "linalg.generic":
                if match_contraction(op, vectors=True) is not None:
                    contractions.append(op)
                return ir.WalkResult.SKIP
            return ir.WalkResult.ADVANCE

        module.walk(visit)
        for op in contractions:
            block = op.regions[0].blocks[0]
            for i in (0, 1):
                found = _widening(op.operands[i])
                if found is None:
                    continue
                narrow, kind, producer = found
                argument = block.arguments[i]
                wide = argument.type
                op.operands[i] = narrow
                argument.set_type(ir.RankedTensorType(narrow.type).element_type)
                with ir.InsertionPoint.at_block_begin(block), op.location:
                    widened = ir.Operation.create(kind, results=[wide], operands=[argument]).result
                argument.replace_all_uses_except(widened, widened.owner.operation)
                producer.operation.erase()
