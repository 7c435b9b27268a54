"""Collectives: all_reduce combines the operand across the job's processes (mpi4py's
allreduce on the numpy arrays under mpiexec; the identity on one process); all_gather,
reduce_scatter and collective_broadcast (process 0's operand everywhere) likewise."""

from __future__ import annotations

import numpy as np

from .registry import evaluates

_COMBINE = {"add": np.add, "mul": np.multiply, "max": np.maximum, "min": np.minimum}


@evaluates("hlo.all_reduce")
def _all_reduce(ctx, x):
    """all_reduce(x): x of every process combined elementwise with `kind`, on every process."""
    from .. import distributed
    comm = distributed.communicator()
    if comm is None:
        return x
    parts = comm.allgather(np.asarray(x))
    combine = _COMBINE[ctx.attrs["kind"]]
    out = parts[0]
    for part in parts[1:]:
        out = combine(out, part)
    return np.asarray(out, dtype=x.dtype)


def _processes_in_type(ctx, x, dim: int, gather: bool) -> int:
    shape = ctx.result_shape()
    return shape[dim] // x.shape[dim] if gather else x.shape[dim] // shape[dim]


def _check_processes(what: str, processes: int, count: int) -> None:
    if processes != count:
        raise ValueError(f"{what} was built for {processes} processes, this job has {count}")


@evaluates("hlo.all_gather")
def _all_gather(ctx, x):
    """all_gather(x): every process's x concatenated along `all_gather_dim`, in process order."""
    from .. import distributed
    dim = ctx.attrs["all_gather_dim"]
    _check_processes("all_gather", _processes_in_type(ctx, x, dim, True), distributed.process_count())
    comm = distributed.communicator()
    if comm is None:
        return x
    return np.concatenate(comm.allgather(np.asarray(x)), axis=dim)


@evaluates("hlo.reduce_scatter")
def _reduce_scatter(ctx, x):
    """reduce_scatter(x): all_reduce with `kind`, then block `process_index` of `scatter_dimension`."""
    from .. import distributed
    dim = ctx.attrs["scatter_dimension"]
    count = distributed.process_count()
    _check_processes("reduce_scatter", _processes_in_type(ctx, x, dim, False), count)
    comm = distributed.communicator()
    if comm is None:
        return x
    combined = _all_reduce(ctx, x)
    return np.split(combined, count, axis=dim)[distributed.process_index()]


@evaluates("hlo.collective_broadcast")
def _collective_broadcast(ctx, x):
    """collective_broadcast(x): process 0's x, on every process."""
    from .. import distributed
    comm = distributed.communicator()
    if comm is None:
        return x
    return np.asarray(comm.bcast(np.asarray(x), root=0), dtype=x.dtype)
