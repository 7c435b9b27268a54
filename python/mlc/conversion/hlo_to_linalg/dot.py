"""hlo.dot_general -> linalg.fill(0) then a linalg.generic over the loops
(batch..., lhs free..., rhs free..., contracting...) computing acc + lhs * rhs."""

from __future__ import annotations

from mlir import ir
from mlir.dialects import arith, linalg

from ...dialects.hlo.types import is_float

from .registry import PARALLEL, REDUCTION, empty, generic, lowering, projection
from .scalar import combine, const, convert_scalar


@lowering("dot_general")
def lower_dot_general(op, sig):
    lhs, rhs = sig.operand_types
    a = sig.attributes
    lb, rb = a["lhs_batching_dimensions"], a["rhs_batching_dimensions"]
    lc, rc = a["lhs_contracting_dimensions"], a["rhs_contracting_dimensions"]
    lhs_free = [d for d in range(lhs.rank) if d not in lb and d not in lc]
    rhs_free = [d for d in range(rhs.rank) if d not in rb and d not in rc]
    nb, nl, nr, nc = len(lb), len(lhs_free), len(rhs_free), len(lc)
    n_loops = nb + nl + nr + nc
    contract_base = nb + nl + nr

    lhs_loop = {d: i for i, d in enumerate(lb)}
    lhs_loop.update({d: nb + i for i, d in enumerate(lhs_free)})
    lhs_loop.update({d: contract_base + i for i, d in enumerate(lc)})
    rhs_loop = {d: i for i, d in enumerate(rb)}
    rhs_loop.update({d: nb + nl + i for i, d in enumerate(rhs_free)})
    rhs_loop.update({d: contract_base + i for i, d in enumerate(rc)})

    result_type = op.results[0].type
    et = result_type.element_type
    init = linalg.fill(const(et, 0), outs=[empty(result_type)])
    maps = [projection(n_loops, [lhs_loop[d] for d in range(lhs.rank)]),
            projection(n_loops, [rhs_loop[d] for d in range(rhs.rank)]),
            projection(n_loops, list(range(contract_base)))]
    iterators = [PARALLEL] * contract_base + [REDUCTION] * nc

    def body(x, y, acc):
        x = convert_scalar(x, lhs.element_type, et, sig.operand_unsigned(0), sig.result_unsigned())
        y = convert_scalar(y, rhs.element_type, et, sig.operand_unsigned(1), sig.result_unsigned())
        if is_float(et):  # contract: LLVM may fuse the pair into one FMA (one rounding, not two)
            contract = ir.Attribute.parse("#arith.fastmath<contract>")
            return arith.addf(acc, arith.mulf(x, y, fastmath=contract), fastmath=contract)
        return combine("add", et, acc, combine("mul", et, x, y))

    return [generic([op.operands[0], op.operands[1]], init, maps, iterators, body)]
