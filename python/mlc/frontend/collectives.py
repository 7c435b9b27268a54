"""Collectives over the processes of the job, as jax.lax names them: psum, pmean, pmax,
pmin, all_gather, psum_scatter, pbroadcast. Inside `mlc.jit` they emit hlo.all_reduce
(all_gather, reduce_scatter, collective_broadcast), which the compiled code runs as an MPI
call (the identity on one process). `x` may be an array or a pytree of arrays (one
all_reduce per leaf). The one axis is "processes" (`mlc.distributed.AXIS_NAME`): every
process of the job."""

from __future__ import annotations

import numpy as np

from ..dialects import hlo
from .core import asarray, wrap
from .pytree import flatten, unflatten
from .tracing import Tracer, _where, current_trace, emit


def _check_axis(axis_name, what: str) -> None:
    from ..distributed import AXIS_NAME
    names = axis_name if isinstance(axis_name, (tuple, list)) else (axis_name,)
    if list(names) != [AXIS_NAME]:
        loc = current_trace().user_location()
        raise NameError(f"{_where(loc)}: {what}: unknown axis name {axis_name!r}; collectives "
                        f"run over all processes, named {AXIS_NAME!r}")


def _leaf(x, what: str) -> Tracer:
    if not isinstance(x, (Tracer, np.ndarray, np.generic, int, float)) or isinstance(x, bool):
        loc = current_trace().user_location()
        raise TypeError(f"{_where(loc)}: {what}: expected an array, got {type(x).__name__}")
    return asarray(x)


def _all_reduce(x, axis_name, kind: str, what: str):
    _check_axis(axis_name, what)
    leaves, structure = flatten(x)
    out = [wrap(emit(hlo.all_reduce, _leaf(v, what).value, kind)) for v in leaves]
    return unflatten(structure, out)


def psum(x, axis_name):
    """The sum of x over all processes, on every process (jax.lax.psum)."""
    return _all_reduce(x, axis_name, "add", "psum")


def pmax(x, axis_name):
    """The elementwise maximum of x over all processes (jax.lax.pmax)."""
    return _all_reduce(x, axis_name, "max", "pmax")


def pmin(x, axis_name):
    """The elementwise minimum of x over all processes (jax.lax.pmin)."""
    return _all_reduce(x, axis_name, "min", "pmin")


def pmean(x, axis_name):
    """The mean of x over all processes (jax.lax.pmean): psum / process_count."""
    from ..distributed import process_count
    from .math import true_divide
    count = process_count()
    leaves, structure = flatten(psum(x, axis_name))
    return unflatten(structure, [true_divide(v, count) for v in leaves])


def _axis(axis: int, rank: int, what: str) -> int:
    if not -rank <= axis < rank:
        loc = current_trace().user_location()
        raise ValueError(f"{_where(loc)}: {what}: axis {axis} is out of range for rank {rank}")
    return axis % rank


def all_gather(x, axis_name, *, axis: int = 0, tiled: bool = False):
    """Every process's x, in process order (jax.lax.all_gather): stacked along a new `axis`,
    or concatenated along `axis` when `tiled`."""
    from ..distributed import process_count
    from .shapes import expand_dims
    _check_axis(axis_name, "all_gather")
    count = process_count()

    def gather(v):
        v = _leaf(v, "all_gather")
        if not tiled:
            v = expand_dims(v, _axis(axis, v.ndim + 1, "all_gather"))
        return wrap(emit(hlo.all_gather, v.value, _axis(axis, v.ndim, "all_gather"), count))

    leaves, structure = flatten(x)
    return unflatten(structure, [gather(v) for v in leaves])


def psum_scatter(x, axis_name, *, scatter_dimension: int = 0, tiled: bool = False):
    """psum, then process i keeps block i of `scatter_dimension` (jax.lax.psum_scatter): that
    dimension must have process_count() entries (removed), or a multiple of it when `tiled`."""
    from ..distributed import process_count
    from .shapes import squeeze
    _check_axis(axis_name, "psum_scatter")
    count = process_count()

    def scatter(v):
        v = _leaf(v, "psum_scatter")
        dim = _axis(scatter_dimension, v.ndim, "psum_scatter")
        if not tiled and v.shape[dim] != count:
            loc = current_trace().user_location()
            raise ValueError(f"{_where(loc)}: psum_scatter: dimension {dim} has {v.shape[dim]} "
                             f"entries, not one per process ({count}); pass tiled=True to split it")
        out = wrap(emit(hlo.reduce_scatter, v.value, dim, "add", count))
        return out if tiled else squeeze(out, dim)

    leaves, structure = flatten(x)
    return unflatten(structure, [scatter(v) for v in leaves])


def pbroadcast(x, axis_name, source: int = 0):
    """Process `source`'s x on every process (jax.lax.pbroadcast, StableHLO's
    collective_broadcast; MPI_Bcast). The root is process 0: `source` must be 0. Its
    derivative sends the summed cotangent back to process 0 (zero on the others)."""
    _check_axis(axis_name, "pbroadcast")
    if isinstance(source, bool) or not isinstance(source, (int, np.integer)) or source != 0:
        loc = current_trace().user_location()
        raise ValueError(f"{_where(loc)}: pbroadcast: source must be process 0 (the root of "
                         f"hlo.collective_broadcast), got {source!r}")
    leaves, structure = flatten(x)
    out = [wrap(emit(hlo.collective_broadcast, _leaf(v, "pbroadcast").value)) for v in leaves]
    return unflatten(structure, out)
