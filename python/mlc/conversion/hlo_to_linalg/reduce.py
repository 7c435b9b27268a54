"""Reductions. hlo.reduce -> linalg.fill of the init value, then a linalg.generic that
combines each input element into the output (reduction iterators on `dimensions`).
argmax/argmin -> one linalg.generic with two outputs (best value, its index).
reduce_window -> the input padded with the init value (edges and base dilation), then a
linalg.generic over (output dims, window dims) reading `out * stride + w * dilation`."""

from __future__ import annotations

from mlir import ir
from mlir.dialects import arith, linalg, tensor

from ...dialects.hlo.shape_rules import optional_per_dim, padding_pairs
from ...dialects.hlo.types import is_bool, is_float

from .registry import (PARALLEL, REDUCTION, empty, generic, generic_n, identity_map, loop_index,
                       lowering, projection)
from .scalar import combine, const
from .slicing import pad_tensor


@lowering("reduce")
def lower_reduce(op, sig):
    x, _ = sig.operand_types
    result_type = op.results[0].type
    dims = sig.attributes["dimensions"]
    kind = sig.attributes["kind"]
    init = linalg.fill(tensor.extract(op.operands[1], []), outs=[empty(result_type)])
    kept = [d for d in range(x.rank) if d not in dims]
    iterators = [REDUCTION if d in dims else PARALLEL for d in range(x.rank)]
    et = x.element_type
    unsigned = sig.operand_unsigned(0)
    return [generic([op.operands[0]], init, [identity_map(x.rank), projection(x.rank, kept)],
                    iterators, lambda v, acc: combine(kind, et, v, acc, unsigned))]


def _extreme(t: ir.Type, largest: bool, unsigned: bool) -> ir.Value:
    """The identity of min (largest=True: +inf, INT_MAX, UINT_MAX) or of max."""
    if is_float(t):
        return const(t, float("inf") if largest else float("-inf"))
    if is_bool(t):
        return const(t, 1 if largest else 0)
    width = ir.IntegerType(t).width
    if unsigned:
        return const(t, (1 << width) - 1 if largest else 0)
    return const(t, (1 << (width - 1)) - 1 if largest else -(1 << (width - 1)))


@lowering("argmax", "argmin")
def lower_arg_reduce(op, sig):
    (x,) = sig.operand_types
    dim = sig.attributes["dimension"]
    result_type = op.results[0].type
    et, it = x.element_type, result_type.element_type
    is_max = sig.name == "argmax"
    value_type = ir.RankedTensorType.get(result_type.shape, et)
    unsigned = sig.operand_unsigned(0)
    best_init = linalg.fill(_extreme(et, not is_max, unsigned), outs=[empty(value_type)])
    index_init = linalg.fill(const(it, 0), outs=[empty(result_type)])
    kept = [d for d in range(x.rank) if d != dim]
    out_map = projection(x.rank, kept)
    iterators = [REDUCTION if d == dim else PARALLEL for d in range(x.rank)]

    def body(v, best, best_index):
        # Strictly better wins, so the first of equal elements stays; a NaN beats any number.
        if is_float(et):
            better = arith.cmpf(arith.CmpFPredicate.OGT if is_max else arith.CmpFPredicate.OLT, v, best)
            nan_over_number = arith.andi(arith.cmpf(arith.CmpFPredicate.UNO, v, v),
                                         arith.cmpf(arith.CmpFPredicate.ORD, best, best))
            take = arith.ori(better, nan_over_number)
        else:
            as_unsigned = is_bool(et) or unsigned
            pred = ("ugt" if is_max else "ult") if as_unsigned else ("sgt" if is_max else "slt")
            take = arith.cmpi(getattr(arith.CmpIPredicate, pred), v, best)
        index = loop_index(dim, it)
        return [arith.select(take, v, best), arith.select(take, index, best_index)]

    results = generic_n([op.operands[0]], [best_init, index_init],
                        [identity_map(x.rank), out_map, out_map], iterators, body)
    return [results[1]]


@lowering("reduce_window")
def lower_reduce_window(op, sig):
    x, _ = sig.operand_types
    rank = x.rank
    a = sig.attributes
    window = a["window_dimensions"]
    strides = optional_per_dim(sig, "window_strides", rank, 1)
    base = optional_per_dim(sig, "base_dilations", rank, 1)
    dilations = optional_per_dim(sig, "window_dilations", rank, 1)
    padding = padding_pairs(sig, rank)
    init_scalar = tensor.extract(op.operands[1], [])
    source = op.operands[0]
    if any(b != 1 for b in base) or any(p != (0, 0) for p in padding):
        source = pad_tensor(source, init_scalar, [lo for lo, _ in padding], [hi for _, hi in padding],
                            [b - 1 for b in base])
    result_type = op.results[0].type
    init = linalg.fill(init_scalar, outs=[empty(result_type)])
    # Loops: output dims 0..rank-1, then window dims rank..2*rank-1. The window's extent comes
    # from a shape-only operand (never read), as linalg's pooling ops do.
    n_loops = 2 * rank
    in_exprs = [ir.AffineExpr.get_add(
        ir.AffineExpr.get_mul(ir.AffineDimExpr.get(d), ir.AffineConstantExpr.get(strides[d])),
        ir.AffineExpr.get_mul(ir.AffineDimExpr.get(rank + d), ir.AffineConstantExpr.get(dilations[d])))
        for d in range(rank)]
    window_shape = empty(ir.RankedTensorType.get(list(window), x.element_type))
    maps = [ir.AffineMap.get(n_loops, 0, in_exprs), projection(n_loops, range(rank, n_loops)),
            projection(n_loops, range(rank))]
    kind, et, unsigned = a["kind"], x.element_type, sig.operand_unsigned(0)
    return [generic([source, window_shape], init, maps, [PARALLEL] * rank + [REDUCTION] * rank,
                    lambda v, _w, acc: combine(kind, et, v, acc, unsigned))]
