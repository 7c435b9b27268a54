"""gather <-> scatter-add: each is the other's transpose.

gather clamps each start so its slice fits in the operand, so its VJP clamps the indices
the same way and scatter-adds the cotangent at them (scatter would drop a window that does
not fit; clamped ones all fit). scatter drops an update whose window does not fit, so its
VJP gathers the cotangent at the update's position and zeroes the dropped updates. For
kind "set", positions written get a zero cotangent in the input, and only the update that
was written last at a position (duplicates: the last in order) gets that position's
cotangent. Scatters combining with mul/max/min have no rule.
"""

from __future__ import annotations

import numpy as np
from mlir import ir

from ...dialects import hlo
from ..errors import DifferentiationError
from ..registry import jvp_rule, vjp_rule
from ..values import etype, full, materialize, shape, zeros_like


def _bounds(indices, index_vector_dim, maxima):
    """A constant of the indices' shape holding, per index component, its upper bound."""
    idx_shape, et = shape(indices), etype(indices)
    if index_vector_dim == len(idx_shape):
        return full(idx_shape, et, maxima[0])
    from ..values import np_dtype
    vector = hlo.constant(np.asarray(maxima, dtype=np_dtype(indices)))
    return hlo.broadcast_in_dim(vector, list(idx_shape), [index_vector_dim])


def _clamped(indices, index_vector_dim, maxima):
    return hlo.clamp(full((), etype(indices), 0), indices, _bounds(indices, index_vector_dim, maxima))


def _gather_attrs(ctx):
    return dict(offset_dims=ctx.attr("offset_dims"), collapsed_slice_dims=ctx.attr("collapsed_slice_dims"),
                start_index_map=ctx.attr("start_index_map"), index_vector_dim=ctx.attr("index_vector_dim"),
                slice_sizes=ctx.attr("slice_sizes"), operand_batching_dims=ctx.attr("operand_batching_dims"),
                start_indices_batching_dims=ctx.attr("start_indices_batching_dims"))


@vjp_rule("hlo.gather", ignores=(0,))
def gather_vjp(ctx, cts):
    """gather(x, i): ct_x = scatter_add(zeros(x), clamp(i), ct) with the mirrored dims."""
    (ct,) = cts
    operand, indices = ctx.operands
    a = _gather_attrs(ctx)
    maxima = [shape(operand)[d] - a["slice_sizes"][d] for d in a["start_index_map"]]
    clamped = _clamped(indices, a["index_vector_dim"], maxima)
    ct_x = hlo.scatter(zeros_like(operand), clamped, ct, update_window_dims=a["offset_dims"],
                       inserted_window_dims=a["collapsed_slice_dims"],
                       scatter_dims_to_operand_dims=a["start_index_map"],
                       index_vector_dim=a["index_vector_dim"], kind="add",
                       input_batching_dims=a["operand_batching_dims"],
                       scatter_indices_batching_dims=a["start_indices_batching_dims"])
    return [ct_x, None]


@jvp_rule("hlo.gather")
def gather_jvp(ctx, ts):
    """gather(x, i): t = gather(t_x, i)."""
    return [hlo.gather(ts[0], ctx.operands[1], **_gather_attrs(ctx))]


def _scatter_dims(ctx):
    return dict(update_window_dims=ctx.attr("update_window_dims"),
                inserted_window_dims=ctx.attr("inserted_window_dims"),
                scatter_dims_to_operand_dims=ctx.attr("scatter_dims_to_operand_dims"),
                index_vector_dim=ctx.attr("index_vector_dim"),
                input_batching_dims=ctx.attr("input_batching_dims") or [],
                scatter_indices_batching_dims=ctx.attr("scatter_indices_batching_dims") or [])


def _attrs(d):
    """The scatter dims as builder arguments (empty optional batching dims left out)."""
    optional = ("input_batching_dims", "scatter_indices_batching_dims")
    return {k: (v or None) if k in optional else v for k, v in d.items()}


def _window_sizes(operand, updates, d) -> list[int]:
    """The size of the window each update writes, per operand dim."""
    collapsed = set(d["inserted_window_dims"]) | set(d["input_batching_dims"])
    window = iter(shape(updates)[k] for k in d["update_window_dims"])
    return [1 if i in collapsed else next(window) for i in range(len(shape(operand)))]


def _gather_back(x, indices, updates, d, sizes):
    """x read at each update's window: the gather that is the scatter's transpose."""
    return hlo.gather(x, indices, offset_dims=d["update_window_dims"],
                      collapsed_slice_dims=d["inserted_window_dims"],
                      start_index_map=d["scatter_dims_to_operand_dims"],
                      index_vector_dim=d["index_vector_dim"], slice_sizes=sizes,
                      operand_batching_dims=d["input_batching_dims"] or None,
                      start_indices_batching_dims=d["scatter_indices_batching_dims"] or None)


def _in_bounds(operand, indices, updates, d, sizes):
    """i1 at updates' shape: the update's window fits in the operand (it was not dropped)."""
    ivd = d["index_vector_dim"]
    maxima = [shape(operand)[k] - sizes[k] for k in d["scatter_dims_to_operand_dims"]]
    low = hlo.compare(indices, zeros_like(indices), "GE")
    high = hlo.compare(indices, _bounds(indices, ivd, maxima), "LE")
    ok = hlo.and_(low, high)
    if ivd < len(shape(indices)):
        ok = hlo.reduce(ok, full((), ir.IntegerType.get_signless(1), 1), [ivd], "and")
    scatter_dims = [k for k in range(len(shape(updates))) if k not in d["update_window_dims"]]
    return hlo.broadcast_in_dim(ok, list(shape(updates)), scatter_dims)


def _last_writer(operand, indices, updates, d, sizes):
    """i1 at updates' shape: this update element is the one a kind=set scatter kept."""
    count = int(np.prod(shape(updates), dtype=np.int64))
    i64 = ir.IntegerType.get_signless(64)
    ids = hlo.reshape(hlo.iota([max(count, 1)], i64, 0) if count else full([0], i64, 0), shape(updates))
    winners = hlo.scatter(full(shape(operand), i64, -1), indices, ids, kind="set", **_attrs(d))
    return hlo.compare(_gather_back(winners, indices, updates, d, sizes), ids, "EQ")


@vjp_rule("hlo.scatter", ignores=(0, 2))
def scatter_vjp(ctx, cts):
    """scatter(x, i, u, add): ct_x = ct, ct_u = gather(ct, i) where the update fit, else 0;
    kind set: ct_x = scatter_set(ct, i, 0), ct_u as for add where the update was kept."""
    (ct,) = cts
    operand, indices, updates = ctx.operands
    kind = ctx.attr("kind")
    d = _scatter_dims(ctx)
    sizes = _window_sizes(operand, updates, d)
    keep = _in_bounds(operand, indices, updates, d, sizes)
    if kind == "add":
        ct_x = ct
    elif kind == "set":
        ct_x = hlo.scatter(ct, indices, zeros_like(updates), kind="set", **_attrs(d))
        keep = hlo.and_(keep, _last_writer(operand, indices, updates, d, sizes))
    else:
        raise DifferentiationError(f"reverse-mode differentiation of a scatter with kind "
                                   f"'{kind}' is not implemented (add and set are)", ctx.op.location)
    ct_u = hlo.select(keep, _gather_back(ct, indices, updates, d, sizes), zeros_like(updates))
    return [ct_x, None, ct_u]


@jvp_rule("hlo.scatter")
def scatter_jvp(ctx, ts):
    """scatter(x, i, u, add|set): t = scatter(t_x, i, t_u) with the same kind (both are
    linear in (x, u) jointly)."""
    operand, indices, updates = ctx.operands
    kind = ctx.attr("kind")
    if kind not in ("add", "set"):
        raise DifferentiationError(f"forward-mode differentiation of a scatter with kind "
                                   f"'{kind}' is not implemented (add and set are)", ctx.op.location)
    d = _attrs(_scatter_dims(ctx))
    return [hlo.scatter(materialize(ts[0], operand), indices, materialize(ts[2], updates),
                        kind=kind, **d)]
