"""StableHLO collectives over one group of all processes -> hlo's MPI-backed collectives.

MLC runs one program per process of an MPI job (mlc.distributed), so a StableHLO
collective imports when its `replica_groups` form one group holding every process in
order, `[[0, 1, ..., P-1]]` (or are empty: all processes): that is JAX's `psum` & co over
a pmap/shard_map axis spanning every device, with one device per process.

    stablehlo.all_reduce (add|multiply|maximum|minimum body) -> hlo.all_reduce {kind}
    stablehlo.all_gather {all_gather_dim}                     -> hlo.all_gather
    stablehlo.reduce_scatter {scatter_dimension} (body)       -> hlo.reduce_scatter {kind}
    stablehlo.collective_broadcast                           -> hlo.collective_broadcast

Each operand of a variadic all_reduce/all_gather becomes its own hlo op. channel_handle
and use_global_device_ids change nothing with one device per process. Rejected, with the
reason: several groups or a group that is not every process in order (sub-communicators,
other roots), other combiners (and/or/xor: MPI has them, hlo's collectives do not), and a
group of P processes in a job launched with another count (`mlc.distributed`'s launcher
size; MLC_COLLECTIVES=mpi, the lit tests' forced lowering, skips that check). all_gather
and reduce_scatter take P from their types as hlo does.
"""

from __future__ import annotations

from mlir import ir

from .. import config, distributed
from . import attributes as A
from .regions import combiner_kind
from .registry import rule

_KINDS = ("add", "mul", "max", "min")


def _group_size(cv, op) -> int | None:
    """P for one group of processes 0..P-1 in order; None for `replica_groups` empty or
    absent (every process). Anything else is an error."""
    attr = A.get(op, "replica_groups")
    if attr is None:
        return None
    if not isinstance(attr, ir.DenseIntElementsAttr):
        raise cv.error(op, f"replica_groups {attr} is not supported (expected a dense i64 tensor)")
    shape = ir.ShapedType(attr.type).shape
    ids = A.int_list(attr)
    if not ids:
        return None
    if len(shape) != 2 or shape[0] != 1 or ids != list(range(len(ids))):
        groups = [ids[i:i + shape[-1]] for i in range(0, len(ids), shape[-1])] if len(shape) == 2 else ids
        raise cv.error(op, f"replica_groups {groups} is not supported: collectives run over one group "
                           f"of all processes in order, [[0, 1, ..., P-1]]")
    size = len(ids)
    if not config.forced_mpi_collectives():
        launched = distributed.launched_size()
        if size != launched:
            raise cv.error(op, f"replica_groups has {size} processes, this job has {launched}")
    return size


def _kind(cv, op) -> str:
    kind = combiner_kind(op.regions[0])
    if kind not in _KINDS:
        raise cv.error(op, f"'{op.name}' with this reduction body is not supported (one add, "
                           f"multiply, maximum or minimum of the two arguments)")
    return kind


def _each(cv, op, name: str, attributes: dict) -> list[ir.Value]:
    """One hlo.`name` per operand (StableHLO's variadic forms)."""
    return [ir.Operation.create(f"hlo.{name}", results=[r.type], operands=[x],
                                attributes=dict(attributes)).result
            for x, r in zip(cv.operands(op), op.results)]


@rule("stablehlo.all_reduce")
def all_reduce(cv, op):
    _group_size(cv, op)
    return _each(cv, op, "all_reduce", {"kind": ir.StringAttr.get(_kind(cv, op))})


@rule("stablehlo.all_gather")
def all_gather(cv, op):
    _group_size(cv, op)
    return _each(cv, op, "all_gather", {"all_gather_dim": A.i64(A.get(op, "all_gather_dim").value)})


@rule("stablehlo.reduce_scatter")
def reduce_scatter(cv, op):
    _group_size(cv, op)
    return _each(cv, op, "reduce_scatter", {"scatter_dimension": A.i64(A.get(op, "scatter_dimension").value),
                                            "kind": ir.StringAttr.get(_kind(cv, op))})


@rule("stablehlo.collective_broadcast")
def collective_broadcast(cv, op):
    _group_size(cv, op)  # the root is the group's first process: 0
    return _each(cv, op, "collective_broadcast", {})
