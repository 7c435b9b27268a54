"""Indexing: gather and scatter take the batch dim as a batching dimension (StableHLO's
operand_batching_dims / input_batching_dims); dynamic slices with batched starts become
gathers and scatters.

    gather(x[b], i[b])  -> gather(x, i) with batching dims (0, 0) added, other dims +1
    gather(x, i[b])     -> gather(x, i) with B as one more index batch dim (index dims +1)
    gather(x[b], i)     -> gather(x, broadcast(i)) as above
    scatter(x, i, u) with any batched -> scatter(x[b], i[b], u[b]) with batching dims (0, 0)
    dynamic_slice(x[b], s) -> dynamic_slice(x, [0] + s)
    dynamic_slice(x, s[b]) -> gather(x[b], stack(s)[b]) with batching dims (0, 0)
    dynamic_update_slice(x, u, s[b]) -> scatter set of u[b] at clamp(stack(s)[b]) (0, 0)
"""

from __future__ import annotations

from mlir.dialects import tensor

from ...dialects import hlo
from ...dialects.hlo.types import tensor_type
from ..registry import Arg, batch_rule
from ..values import etype, materialize, scalar_constant, shape, shifted


def _opt(ctx, name):
    return list(ctx.attr(name, []))


@batch_rule("hlo.gather")
def gather(ctx, args):
    """gather(x[b], i[b]) -> gather(x, i) with batching dims (0, 0); gather(x, i[b]) -> B as
    one more index batch dim; a batched x alone broadcasts i."""
    x_arg, i_arg = args
    common = dict(collapsed_slice_dims=shifted(ctx.attr("collapsed_slice_dims")),
                  start_index_map=shifted(ctx.attr("start_index_map")),
                  index_vector_dim=ctx.attr("index_vector_dim") + 1,
                  indices_are_sorted=ctx.attr("indices_are_sorted"),
                  offset_dims=shifted(ctx.attr("offset_dims")))
    if not x_arg.batched:
        return [hlo.gather(x_arg.value, i_arg.value, **{
            **common, "collapsed_slice_dims": ctx.attr("collapsed_slice_dims"),
            "start_index_map": ctx.attr("start_index_map"), "slice_sizes": ctx.attr("slice_sizes"),
            "operand_batching_dims": _opt(ctx, "operand_batching_dims") or None,
            "start_indices_batching_dims": shifted(_opt(ctx, "start_indices_batching_dims")) or None})]
    indices = materialize(i_arg, ctx.size)
    return [hlo.gather(x_arg.value, indices, **common, slice_sizes=[1] + ctx.attr("slice_sizes"),
                       operand_batching_dims=[0] + shifted(_opt(ctx, "operand_batching_dims")),
                       start_indices_batching_dims=[0] + shifted(_opt(ctx, "start_indices_batching_dims")))]


@batch_rule("hlo.scatter")
def scatter(ctx, args):
    """scatter(x, i, u) with any operand batched -> scatter(x[b], i[b], u[b]) with batching
    dims (0, 0) added and every other dim +1."""
    x, i, u = (materialize(a, ctx.size) for a in args)
    return [hlo.scatter(
        x, i, u, update_window_dims=shifted(ctx.attr("update_window_dims")),
        inserted_window_dims=shifted(ctx.attr("inserted_window_dims")),
        scatter_dims_to_operand_dims=shifted(ctx.attr("scatter_dims_to_operand_dims")),
        index_vector_dim=ctx.attr("index_vector_dim") + 1, kind=ctx.attr("kind"),
        input_batching_dims=[0] + shifted(_opt(ctx, "input_batching_dims")),
        scatter_indices_batching_dims=[0] + shifted(_opt(ctx, "scatter_indices_batching_dims")),
        indices_are_sorted=ctx.attr("indices_are_sorted"), unique_indices=ctx.attr("unique_indices"))]


def _stacked_starts(starts: list[Arg], size: int):
    """The starts (0-d per example) as one [B, n] index tensor."""
    columns = [hlo.reshape(materialize(s, size), [size, 1]) for s in starts]
    if len(columns) == 1:
        return columns[0]
    return tensor.concat(tensor_type([size, len(columns)], etype(columns[0])), 1, columns)


@batch_rule("hlo.dynamic_slice")
def dynamic_slice(ctx, args):
    """dynamic_slice(x[b], s) -> dynamic_slice(x, [0] + s, [B] + sizes); batched starts ->
    gather(x[b], stack(s)[b]) with batching dims (0, 0) (gather clamps as dynamic_slice does)."""
    x_arg, starts = args[0], args[1:]
    sizes = ctx.attr("slice_sizes")
    if not any(s.batched for s in starts):
        zero = scalar_constant(etype(starts[0].value), 0) if starts else None
        return [hlo.dynamic_slice(x_arg.value, [zero] + [s.value for s in starts] if starts else [],
                                  [ctx.size] + sizes)]
    rank = len(sizes)
    return [hlo.gather(materialize(x_arg, ctx.size), _stacked_starts(starts, ctx.size),
                       offset_dims=list(range(1, rank + 1)), collapsed_slice_dims=[],
                       start_index_map=list(range(1, rank + 1)), index_vector_dim=1,
                       slice_sizes=[1] + sizes, operand_batching_dims=[0],
                       start_indices_batching_dims=[0])]


@batch_rule("hlo.dynamic_update_slice")
def dynamic_update_slice(ctx, args):
    """dynamic_update_slice(x, u, s) -> dynamic_update_slice(x[b], u[b], [0] + s); batched
    starts -> scatter set of u[b] at clamp(0, s, dim - size)[b], batching dims (0, 0)."""
    x_arg, u_arg, starts = args[0], args[1], args[2:]
    x, u = materialize(x_arg, ctx.size), materialize(u_arg, ctx.size)
    if not any(s.batched for s in starts):
        zero = [scalar_constant(etype(starts[0].value), 0)] if starts else []
        return [hlo.dynamic_update_slice(x, u, zero + [s.value for s in starts])]
    rank = len(starts)
    clamped = []
    for d, s in enumerate(starts):
        et = etype(s.value)
        high = scalar_constant(et, shape(x)[d + 1] - shape(u)[d + 1])
        clamped.append(Arg(hlo.clamp(scalar_constant(et, 0), s.value, high), s.batched))
    return [hlo.scatter(x, _stacked_starts(clamped, ctx.size), u,
                        update_window_dims=list(range(1, rank + 1)), inserted_window_dims=[],
                        scatter_dims_to_operand_dims=list(range(1, rank + 1)), index_vector_dim=1,
                        kind="set", input_batching_dims=[0], scatter_indices_batching_dims=[0])]
