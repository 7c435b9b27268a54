"""Pass `mlc-select-min-max`: a scalar NaN-propagating maximum or minimum becomes compares
and selects.

    %r = arith.maximumf %a, %b : f32
  ->
    %gt = arith.cmpf ogt, %a, %b            (olt for minimumf)
    %r0 = arith.select %gt, %a, %b          (x86: maxss)
    %both = bitcast(bits(a) & bits(b))      (| for minimumf: max(+0, -0) = +0, min = -0)
    %r1 = arith.select (a == b), %both, %r0
    %r = arith.select (a or b NaN), a + b, %r1   (a quiet NaN)

Why: LLVM's x86 lowering of a scalar llvm.maximum orders +0 and -0 with a branch on an
operand's sign bit, taken at random on random data: a max over rows of 2 (a 2x2 max pool
written as reshape + max) took 10.8 ns per output, a mispredicted branch each, against
0.5 for the same sum. Vectors of several lanes are lowered with blends (no branch) and are
left alone; scalars and one-lane vectors (what upstream's vectorizer leaves of a short
reduction) are rewritten.
"""

from __future__ import annotations

from dataclasses import dataclass

from mlir import ir
from mlir.dialects import arith

from ..transforms.pass_base import Pass, apply_patterns


def _one_lane(t: ir.Type) -> bool:
    """A float scalar or a one-lane float vector."""
    if isinstance(t, ir.VectorType):
        return t.shape == [1] and isinstance(t.element_type, ir.FloatType)
    return isinstance(t, ir.FloatType)


def _bits_type(t: ir.Type) -> ir.Type:
    element = t.element_type if isinstance(t, ir.VectorType) else t
    bits = ir.IntegerType.get_signless(ir.FloatType(element).width)
    return ir.VectorType.get(t.shape, bits) if isinstance(t, ir.VectorType) else bits


def select_min_max(op, rewriter):
    """arith.maximumf / arith.minimumf (scalar) -> compares and selects (module docstring)."""
    t = op.results[0].type
    if not _one_lane(t):
        return None
    largest = op.name == "arith.maximumf"
    a, b = op.operands
    with rewriter.ip, op.location:
        picked = arith.select(arith.cmpf(arith.CmpFPredicate.OGT if largest else arith.CmpFPredicate.OLT, a, b), a, b)
        bits = _bits_type(t)
        combine = arith.andi if largest else arith.ori
        zeros = arith.bitcast(t, combine(arith.bitcast(bits, a), arith.bitcast(bits, b)))
        picked = arith.select(arith.cmpf(arith.CmpFPredicate.OEQ, a, b), zeros, picked)
        result = arith.select(arith.cmpf(arith.CmpFPredicate.UNO, a, b), arith.addf(a, b), picked)
    rewriter.replace_op(op, [result])
    return True


@dataclass(frozen=True)
class SelectMinMax(Pass):
    """Rewrites scalar (and one-lane vector) arith.maximumf / minimumf as compares and selects.

    Expects: arith on scalars or vectors. Produces: the same with no scalar maximumf/minimumf.
    """

    name = "mlc-select-min-max"

    def run(self, module: ir.Operation) -> None:
        apply_patterns(module, {"arith.maximumf": [select_min_max], "arith.minimumf": [select_min_max]})
