"""hlo.convolution -> the lhs padded (edges, and lhs dilation as interior zeros), then one
linalg.generic accumulating lhs * rhs over the loops

    (batch, group, output feature in group, output spatial..., input feature in group, kernel spatial...)

with lhs spatial index `out * stride + k * rhs_dilation`. Feature groups split the input
and output features (grouped / depthwise convolution); batch groups split the lhs batch and
the output features. The (group, feature) extent comes from a shape-only operand."""

from __future__ import annotations

from mlir import ir
from mlir.dialects import linalg

from ...dialects.hlo.shape_rules import convolution_layout
from .registry import PARALLEL, REDUCTION, empty, generic, lowering
from .scalar import combine, const, convert_scalar
from .slicing import pad_tensor


def _dim(i: int) -> ir.AffineExpr:
    return ir.AffineDimExpr.get(i)


def _affine(*terms) -> ir.AffineExpr:
    """sum of (loop, coefficient) terms."""
    expr = None
    for loop, coefficient in terms:
        term = _dim(loop) if coefficient == 1 else ir.AffineExpr.get_mul(_dim(loop), ir.AffineConstantExpr.get(coefficient))
        expr = term if expr is None else ir.AffineExpr.get_add(expr, term)
    return expr


@lowering("convolution")
def lower_convolution(op, sig):
    lhs, rhs = sig.operand_types
    c = convolution_layout(sig)
    result_type = op.results[0].type
    et = result_type.element_type
    n = len(c.in_spatial)

    low, high, interior = [0] * lhs.rank, [0] * lhs.rank, [0] * lhs.rank
    for i, d in enumerate(c.in_spatial):
        low[d], high[d] = c.padding[i]
        interior[d] = c.lhs_dilation[i] - 1
    source = op.operands[0]
    if any(low) or any(high) or any(interior):
        source = pad_tensor(source, const(lhs.element_type, 0), low, high, interior)

    groups = max(c.feature_groups, c.batch_groups)
    c_group = rhs.shape[c.k_in]
    o_group = rhs.shape[c.k_out] // groups
    b_group = lhs.shape[c.in_batch] // c.batch_groups
    # Loop numbering.
    B, G, O = 0, 1, 2
    S = [3 + i for i in range(n)]
    C = 3 + n
    K = [4 + n + i for i in range(n)]
    n_loops = 4 + 2 * n

    lhs_exprs = [None] * lhs.rank
    lhs_exprs[c.in_batch] = _affine((G, b_group), (B, 1)) if c.batch_groups > 1 else _dim(B)
    lhs_exprs[c.in_feature] = _affine((G, c_group), (C, 1)) if c.feature_groups > 1 else _dim(C)
    for i, d in enumerate(c.in_spatial):
        lhs_exprs[d] = _affine((S[i], c.strides[i]), (K[i], c.rhs_dilation[i]))
    rhs_exprs = [None] * rhs.rank
    rhs_exprs[c.k_in] = _dim(C)
    rhs_exprs[c.k_out] = _affine((G, o_group), (O, 1))
    for i, d in enumerate(c.k_spatial):
        rhs_exprs[d] = _dim(K[i])
    out_exprs = [None] * result_type.rank
    out_exprs[c.out_batch] = _dim(B)
    out_exprs[c.out_feature] = _affine((G, o_group), (O, 1))
    for i, d in enumerate(c.out_spatial):
        out_exprs[d] = _dim(S[i])

    groups_shape = empty(ir.RankedTensorType.get([groups, o_group], et))
    maps = [ir.AffineMap.get(n_loops, 0, lhs_exprs), ir.AffineMap.get(n_loops, 0, rhs_exprs),
            ir.AffineMap.get(n_loops, 0, [_dim(G), _dim(O)]), ir.AffineMap.get(n_loops, 0, out_exprs)]
    iterators = [PARALLEL] * (3 + n) + [REDUCTION] * (1 + n)
    init = linalg.fill(const(et, 0), outs=[empty(result_type)])

    def body(x, w, _shape, acc):
        x = convert_scalar(x, lhs.element_type, et, sig.operand_unsigned(0), sig.result_unsigned())
        w = convert_scalar(w, rhs.element_type, et, sig.operand_unsigned(1), sig.result_unsigned())
        return combine("add", et, acc, combine("mul", et, x, w))

    return [generic([source, op.operands[1], groups_shape], init, maps, iterators, body)]
