"""sort: a permutation of its operand along one dimension, so derivatives move with it.

With p = argsort(x) (same order and stability as sort), sorted[..., j, ...] =
x[..., p[..., j, ...], ...]: the JVP gathers the tangent through p and the VJP
scatter-adds the cotangent back through it (p is a permutation: no two go to one place).
"""

from __future__ import annotations

from mlir import ir
from mlir.dialects import tensor

from ...dialects import hlo
from ...dialects.hlo.types import tensor_type
from ..registry import jvp_rule, vjp_rule
from ..values import shape, zeros_like


def _positions(ctx):
    """[..., rank] index vectors: where each sorted element came from in x."""
    x = ctx.operands[0]
    dim = ctx.attr("dimension")
    rank = len(shape(x))
    i64 = ir.IntegerType.get_signless(64)
    perm = hlo.argsort(x, dim, bool(ctx.attr("descending", False)), index_type=i64)
    columns = []
    for d in range(rank):
        column = perm if d == dim else hlo.iota(shape(x), i64, d)
        columns.append(hlo.reshape(column, list(shape(x)) + [1]))
    if rank == 1:
        return columns[0]
    return tensor.concat(tensor_type(list(shape(x)) + [rank], i64), rank, columns)


@vjp_rule("hlo.sort")
def sort_vjp(ctx, cts):
    """sort(x): ct_x = scatter_add(zeros, argsort(x), ct) along the sorted dimension."""
    x = ctx.operands[0]
    rank = len(shape(x))
    return [hlo.scatter(zeros_like(x), _positions(ctx), cts[0], update_window_dims=[],
                        inserted_window_dims=list(range(rank)),
                        scatter_dims_to_operand_dims=list(range(rank)), index_vector_dim=rank,
                        kind="add")]


@jvp_rule("hlo.sort")
def sort_jvp(ctx, ts):
    """sort(x): t = gather(t_x, argsort(x)) along the sorted dimension."""
    rank = len(shape(ctx.operands[0]))
    return [hlo.gather(ts[0], _positions(ctx), offset_dims=[], collapsed_slice_dims=list(range(rank)),
                       start_index_map=list(range(rank)), index_vector_dim=rank,
                       slice_sizes=[1] * rank)]
