"""hlo.dot_general -> linalg.fill(0) then a linalg.generic over the loops
(batch..., lhs free..., rhs free..., contracting...) computing acc + lhs * rhs.

The matmul strategies (mlc-blas: OpenBLAS or MLC's packed GEMM) read each operand as a
matrix: its free dims must be adjacent in memory, and so must its contracting dims, in
the same order in both operands (then each group is one leading dimension; the batch dims
may be anywhere: they are loops around the GEMM). An operand laid out otherwise (free dims
interleaved with contracting ones, contracting dims permuted between lhs and rhs) is
transposed once here into [batch, free, contracting] (lhs) or [batch, contracting, free]
(rhs), a copy of the operand instead of a scalar loop nest over the contraction."""

from __future__ import annotations

from mlir import ir
from mlir.dialects import arith, linalg

from ...dialects.hlo.types import is_float

from .registry import PARALLEL, REDUCTION, empty, fill, generic, lowering, projection
from .scalar import combine, const, convert_scalar


def _adjacent(positions) -> bool:
    """Whether dims at `positions` (in this order) are consecutive ascending dims."""
    return all(q == p + 1 for p, q in zip(positions, positions[1:]))


def _transposed(value: ir.Value, t, perm) -> ir.Value:
    shape = [t.shape[d] for d in perm]
    out = empty(ir.RankedTensorType.get(shape, t.element_type))
    op = linalg.transpose(value, outs=[out], permutation=perm)
    return op.results[0] if hasattr(op, "results") else op


def gemm_layouts(lhs_rank, rhs_rank, lb, rb, lc, rc):
    """The permutations (or None) that make each operand a matrix (module docstring); the
    contracting pairs are ordered by their lhs position first."""
    pairs = sorted(zip(lc, rc))
    lc, rc = [p[0] for p in pairs], [p[1] for p in pairs]
    lhs_free = [d for d in range(lhs_rank) if d not in lb and d not in lc]
    rhs_free = [d for d in range(rhs_rank) if d not in rb and d not in rc]
    lhs_perm = rhs_perm = None
    if not (_adjacent(lhs_free) and _adjacent(lc)):
        lhs_perm = list(lb) + lhs_free + lc
    if not (_adjacent(rhs_free) and _adjacent(rc)):
        rhs_perm = list(rb) + rc + rhs_free
    return lhs_perm, rhs_perm


def _permuted_dims(perm, dims):
    """Where dims of an operand are after transposing it by `perm`."""
    return [perm.index(d) for d in dims]


@lowering("dot_general")
def lower_dot_general(op, sig):
    lhs, rhs = sig.operand_types
    a = sig.attributes
    lb, rb = list(a["lhs_batching_dimensions"]), list(a["rhs_batching_dimensions"])
    lc, rc = list(a["lhs_contracting_dimensions"]), list(a["rhs_contracting_dimensions"])
    lhs_value, rhs_value = op.operands[0], op.operands[1]
    lhs_perm, rhs_perm = gemm_layouts(lhs.rank, rhs.rank, lb, rb, lc, rc)
    if lhs_perm is not None and lhs_perm != list(range(lhs.rank)):
        lhs_value = _transposed(lhs_value, lhs, lhs_perm)
        lb, lc = _permuted_dims(lhs_perm, lb), _permuted_dims(lhs_perm, lc)
        lhs = ir.RankedTensorType(lhs_value.type)
    if rhs_perm is not None and rhs_perm != list(range(rhs.rank)):
        rhs_value = _transposed(rhs_value, rhs, rhs_perm)
        rb, rc = _permuted_dims(rhs_perm, rb), _permuted_dims(rhs_perm, rc)
        rhs = ir.RankedTensorType(rhs_value.type)
    lhs_free = [d for d in range(lhs.rank) if d not in lb and d not in lc]
    rhs_free = [d for d in range(rhs.rank) if d not in rb and d not in rc]
    nb, nl, nr, nc = len(lb), len(lhs_free), len(rhs_free), len(lc)
    n_loops = nb + nl + nr + nc
    contract_base = nb + nl + nr

    # A vector times a matrix whose free dims follow its contracting ones in memory (x @ W
    # for one row x): the contracting loops go outside, so the innermost loop runs along
    # W's rows and the output (out[n:n+16] += x[k] * W[k, n:n+16], vectorized) instead of
    # down W's columns, one element at a time (a (1000,) @ (1000, 777) without BLAS: 990 us).
    reduce_outside = nb == 0 and nl == 0 and nc > 0 and nr > 0 and max(rc) < min(rhs_free)
    free_base = nc if reduce_outside else nb + nl  # where the rhs free loops start
    contracting_base = 0 if reduce_outside else contract_base

    lhs_loop = {d: i for i, d in enumerate(lb)}
    lhs_loop.update({d: nb + i for i, d in enumerate(lhs_free)})
    lhs_loop.update({d: contracting_base + i for i, d in enumerate(lc)})
    rhs_loop = {d: i for i, d in enumerate(rb)}
    rhs_loop.update({d: free_base + i for i, d in enumerate(rhs_free)})
    rhs_loop.update({d: contracting_base + i for i, d in enumerate(rc)})

    result_type = op.results[0].type
    et = result_type.element_type
    init = fill(const(et, 0), empty(result_type))
    out_loops = list(range(nc, n_loops)) if reduce_outside else list(range(contract_base))
    maps = [projection(n_loops, [lhs_loop[d] for d in range(lhs.rank)]),
            projection(n_loops, [rhs_loop[d] for d in range(rhs.rank)]),
            projection(n_loops, out_loops)]
    iterators = ([REDUCTION] * nc + [PARALLEL] * nr if reduce_outside
                 else [PARALLEL] * contract_base + [REDUCTION] * nc)

    def body(x, y, acc):
        x = convert_scalar(x, lhs.element_type, et, sig.operand_unsigned(0), sig.result_unsigned())
        y = convert_scalar(y, rhs.element_type, et, sig.operand_unsigned(1), sig.result_unsigned())
        if is_float(et):  # contract: LLVM may fuse the pair into one FMA (one rounding, not two)
            contract = ir.Attribute.parse("#arith.fastmath<contract>")
            return arith.addf(acc, arith.mulf(x, y, fastmath=contract), fastmath=contract)
        return combine("add", et, acc, combine("mul", et, x, y))

    return [generic([lhs_value, rhs_value], init, maps, iterators, body)]
