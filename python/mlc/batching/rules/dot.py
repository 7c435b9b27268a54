"""dot_general: a batch dim of both operands becomes a batching dimension; a batch dim of one
operand is a free dim of it.

    dot_general(x[b], y[b]) -> dot_general(x, y) with batch dims ([0]+lb+1, [0]+rb+1)
    dot_general(x[b], y)    -> dot_general(x, y) with x's dims +1; B is x's first free dim,
                               moved to the front of the result
    dot_general(x, y[b])    -> the same with y's first free dim
    (one operand batched and no batching dims: B joins that operand's free dims and the
    product is one 2-D matmul, reshaped back)
    dot_general(x[b], y[b]) with every contracting dim of size 1 (an outer product, as the
                               per-example gradient of a dense layer is) -> broadcast
                               multiply: a batched matmul with K = 1 is all overhead
"""

from __future__ import annotations

from ...dialects import hlo
from ..registry import batch_rule
from ..values import etype, move_dim, shape, shifted


@batch_rule("hlo.dot_general")
def dot_general(ctx, args):
    """dot_general(x[b], y[b]) -> dot_general(x, y) with batch dims (0, 0) added; one batched
    operand: its batch dim is a free dim, moved to the front of the result."""
    (x, xb), (y, yb) = args
    lb, rb = ctx.attr("lhs_batching_dimensions"), ctx.attr("rhs_batching_dimensions")
    lc, rc = ctx.attr("lhs_contracting_dimensions"), ctx.attr("rhs_contracting_dimensions")
    result_type = etype(ctx.result)
    if xb and yb and all(shape(x)[d + 1] == 1 for d in lc):
        return [_outer(x, y, lb, rb, lc, rc, result_type, shape(ctx.result))]
    if xb and yb:
        return [hlo.dot_general(x, y, [0] + shifted(lb), [0] + shifted(rb), shifted(lc),
                                shifted(rc), result_type)]
    if not lb:
        return [_as_matmul(x, y, xb, lc, rc, result_type)]
    if xb:
        out = hlo.dot_general(x, y, shifted(lb), rb, shifted(lc), rc, result_type)
        return [move_dim(out, len(lb), 0)]  # results: batch, x free (B first), y free
    out = hlo.dot_general(x, y, lb, shifted(rb), lc, shifted(rc), result_type)
    x_rank = len(shape(ctx.op.operands[0]))
    x_free = x_rank - len(lb) - len(lc)
    return [move_dim(out, len(lb) + x_free, 0)]


def _matrix(v, rows, cols):
    """v with dims `rows` then `cols` (transposed if need be), as a rows x cols matrix."""
    order = list(rows) + list(cols)
    if order != list(range(len(order))):
        v = hlo.transpose(v, order)
    s = shape(v)
    m = 1
    for n in s[:len(rows)]:
        m *= n
    k = 1
    for n in s[len(rows):]:
        k *= n
    return hlo.reshape(v, [m, k])


def _as_matmul(x, y, xb, lc, rc, result_type):
    """One batched operand, no batching dims: the batch dim joins the operand's free dims
    and the contraction is one 2-D matmul (what codegen handles best), reshaped back."""
    if xb:
        x_free = [0] + [d for d in range(1, len(shape(x))) if d - 1 not in lc]
        x2 = _matrix(x, x_free, shifted(lc))
        y_free = [d for d in range(len(shape(y))) if d not in rc]
        y2 = _matrix(y, rc, y_free)
        out = hlo.dot_general(x2, y2, [], [], [1], [0], result_type)
        return hlo.reshape(out, [shape(x)[d] for d in x_free] + [shape(y)[d] for d in y_free])
    x_free = [d for d in range(len(shape(x))) if d not in lc]
    x2 = _matrix(x, x_free, lc)
    y_free = [0] + [d for d in range(1, len(shape(y))) if d - 1 not in rc]
    y2 = _matrix(y, shifted(rc), y_free)
    out = hlo.dot_general(x2, y2, [], [], [1], [0], result_type)
    out = hlo.reshape(out, [shape(x)[d] for d in x_free] + [shape(y)[d] for d in y_free])
    return move_dim(out, len(x_free), 0)  # results: x free, then y free with B first


def _outer(x, y, lb, rb, lc, rc, element_type, per_example):
    """The batched dot_general of size-1 contractions as broadcast(x) * broadcast(y): the
    result dims are B, the batch dims, x's free dims, y's free dims."""
    nb = len(lb)
    x_free = [d for d in range(len(shape(x)) - 1) if d not in lb and d not in lc]
    y_free = [d for d in range(len(shape(y)) - 1) if d not in rb and d not in rc]
    full = [shape(x)[0], *per_example]

    def spread(v, batch, free, offset):
        kept = [0] + [d + 1 for d in batch] + [d + 1 for d in free]
        v = hlo.transpose(v, kept + [d for d in range(len(shape(v))) if d not in kept])
        v = hlo.reshape(v, [shape(v)[d] for d in range(len(kept))])  # drops the size-1 dims
        v = v if etype(v) == element_type else hlo.convert(v, element_type)
        dims = list(range(nb + 1)) + [1 + nb + offset + i for i in range(len(free))]
        return hlo.broadcast_in_dim(v, full, dims)
    return hlo.multiply(spread(x, lb, x_free, 0), spread(y, rb, y_free, len(x_free)))
