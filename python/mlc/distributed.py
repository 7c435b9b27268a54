"""The processes of one data-parallel job, as JAX's `jax.distributed` names them.

Under `mpiexec` (or any PMI launcher: hydra, Slurm's `srun --mpi=pmi2`) the job is MPI's
COMM_WORLD, initialised through mpi4py; started any other way it is one process, and
nothing MPI is imported or loaded. Compiled collectives (hlo.all_reduce, all_gather and
reduce_scatter, from `mlc.lax.psum` and friends) call MPI themselves on COMM_WORLD; this module only sets MPI
up, says who this process is, and moves host data (shards of a batch, parameters).

No failure leaves a job hanging or reads garbage:
- a process that raises an uncaught exception prints it under "[process i/P]" and aborts
  the whole job (MPI_Abort, exit code 1; `initialize()` installs the excepthook, so this
  holds without `python -m mpi4py` too, which does the same for `sys.exit(nonzero)`);
- a process that ends while others still run sends each of them an exit notice (tag
  EXIT_TAG); a process waiting in a compiled collective that sees one aborts the job 2 s
  later, naming the process that left and the collective's line;
- every compiled collective has a deadline (CompileOptions.collective_timeout,
  MLC_COLLECTIVE_TIMEOUT; 300 s): past it the job is aborted with the op and the line;
- a compiled collective first checks with one small all-reduce that every process calls
  the same collective on the same element count and dtype, and aborts naming the line if not;
- a process killed by a signal makes hydra (mpiexec) end the job;
- `MPIEXEC_TIMEOUT=<seconds>` makes hydra kill a job that runs longer (the backstop).
Host-side helpers here (`broadcast_from_process_0`, `check_same_signature`) use mpi4py's
blocking calls: only the launcher's abort and MPIEXEC_TIMEOUT bound them.
"""

from __future__ import annotations

import atexit
import os
import sys
import time
import traceback
from dataclasses import dataclass

import numpy as np

from . import config

AXIS_NAME = "processes"
"""The one axis name collectives accept: all processes of the job."""


@dataclass(frozen=True)
class _World:
    index: int
    count: int
    comm: object = None  # mpi4py's COMM_WORLD; None on one process


_world: _World | None = None


def launched_size() -> int:
    """How many processes the launcher started (1 when not launched by mpiexec); read from
    the environment, without initialising MPI."""
    return config.launched_size()


def initialize() -> None:
    """Joins the job: MPI (through mpi4py) when launched by mpiexec with several processes,
    a single process otherwise. Idempotent; the first collective or query calls it too."""
    global _world
    if _world is not None:
        return
    if launched_size() <= 1:
        _world = _World(0, 1)
        return
    from mpi4py import MPI  # MPI_Init (thread level "multiple")

    from .runtime.libraries import load_mpi
    load_mpi()  # compiled collectives resolve MPI_* from the process
    _check_abi(MPI)
    comm = MPI.COMM_WORLD
    _share_cores(comm, MPI)
    _world = _World(comm.Get_rank(), comm.Get_size(), comm)
    _install_failure_handlers(comm)


def _install_failure_handlers(comm) -> None:
    """An uncaught exception aborts the job (naming this process); a normal exit tells the
    other processes, so one still waiting in a collective for this one stops waiting."""
    previous = sys.excepthook

    def abort_on_exception(kind, value, tb):
        if issubclass(kind, KeyboardInterrupt):
            return previous(kind, value, tb)
        where = f"[process {comm.Get_rank()}/{comm.Get_size()}]"
        text = "".join(traceback.format_exception(kind, value, tb))
        _abort_job(comm, "".join(f"{where} {line}\n" for line in text.rstrip("\n").split("\n"))
                   + f"{where} {kind.__name__} on process {comm.Get_rank()}: aborting the job\n", 1)

    sys.excepthook = abort_on_exception
    atexit.register(_announce_exit, comm)


def _announce_exit(comm) -> None:
    """Sends every other process a zero-byte notice (tag EXIT_TAG) that this one has ended;
    compiled collectives waiting for it see the notice (see hlo_to_linalg/collectives.py)."""
    from .conversion.hlo_to_linalg.collectives import EXIT_TAG
    try:
        from mpi4py import MPI
        if MPI.Is_finalized():
            return
        for rank in range(comm.Get_size()):
            if rank != comm.Get_rank():
                comm.Isend([None, 0, MPI.BYTE], dest=rank, tag=EXIT_TAG).Free()
    except Exception:  # noqa: BLE001 - exiting anyway; the collective deadline still holds
        pass


def _share_cores(comm, MPI) -> None:
    """Processes on one host split its cores for their parallel loops (MLC_NUM_THREADS,
    unless set), so P processes do not each start a pool as large as the host."""
    if config.num_threads_set():
        return
    local = comm.Split_type(MPI.COMM_TYPE_SHARED)
    ranks_here = local.Get_size()
    local.Free()
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
    config.share_num_threads(max(1, cores // ranks_here))


def _check_abi(MPI) -> None:
    """Compiled collectives carry MPICH's integer handles: the library mpi4py loaded must
    use the same ones (an Open MPI build, with pointer handles, does not)."""
    from .conversion.hlo_to_linalg.collectives import MPI4PY_NAMES
    wrong = [name for name, handle in MPI4PY_NAMES.items() if getattr(MPI, name).handle != handle]
    if wrong:
        raise RuntimeError(f"the MPI library mpi4py uses ({MPI.Get_library_version().splitlines()[0]}) "
                           f"does not have MPICH's ABI (handles {', '.join(wrong)} differ), which "
                           "compiled collectives need: install the `mpich` wheel")


def _get() -> _World:
    initialize()
    return _world


def process_index() -> int:
    """This process's rank in the job (0 on one process)."""
    return _get().index


def process_count() -> int:
    """How many processes the job has (1 when not launched by mpiexec)."""
    return _get().count


def communicator():
    """mpi4py's COMM_WORLD, or None on one process."""
    return _get().comm


def process_shard(global_batch, axis: int = 0):
    """This process's contiguous slice of `global_batch` along `axis` (arrays or a pytree of
    them): process i gets rows [i * n / P, (i + 1) * n / P). The batch size must divide."""
    from . import tree_util
    index, count = process_index(), process_count()

    def shard(x):
        x = np.asarray(x)
        n = x.shape[axis]
        if n % count:
            raise ValueError(f"process_shard: a batch of {n} along axis {axis} does not split "
                             f"evenly over {count} processes")
        size = n // count
        return np.take(x, np.arange(index * size, (index + 1) * size), axis=axis)

    return tree_util.tree_map(shard, global_batch)


def broadcast_from_process_0(tree):
    """Every process gets process 0's arrays (a pytree of numpy arrays): parameters start
    equal everywhere. Shapes and dtypes must match across processes (checked)."""
    from . import tree_util
    comm = communicator()
    if comm is None:
        return tree
    leaves, treedef = tree_util.tree_flatten(tree)
    arrays = [np.ascontiguousarray(np.asarray(x)) for x in leaves]
    check_same_signature(arrays, "broadcast_from_process_0")
    for a in arrays:
        comm.Bcast(a, root=0)
    return tree_util.tree_unflatten(treedef, arrays)


def check_same_signature(arrays, what: str) -> None:
    """Raises on every process if the shapes/dtypes of `arrays` differ between processes: a
    collective on mismatched buffers would read garbage or hang."""
    comm = communicator()
    if comm is None:
        return
    mine = [(tuple(np.shape(a)), str(np.asarray(a).dtype)) for a in arrays]
    everyone = comm.allgather(mine)
    for rank, theirs in enumerate(everyone):
        if theirs != mine:
            raise ValueError(f"{what}: process {process_index()} has arrays {mine} but process "
                             f"{rank} has {theirs}; every process must pass the same shapes and dtypes")


def abort(message: str, code: int = 1) -> None:
    """Ends the whole job (every rank) after printing `message` naming this rank."""
    text = f"[process {process_index()}] {message}\n"
    comm = communicator()
    if comm is None:
        sys.stderr.write(text)
        sys.stderr.flush()
        raise SystemExit(code)
    _abort_job(comm, text, code)


def _abort_job(comm, text: str, code: int) -> None:
    """Writes `text` to stderr, gives mpiexec the compiled collectives' DRAIN_US to forward
    it (a message still in the pipe when MPI_Abort tears the job down was lost: one CI run
    of the raising-rank test saw the traceback but not its last line), then MPI_Abort."""
    from .conversion.hlo_to_linalg.collectives import DRAIN_US
    sys.stderr.write(text)
    sys.stderr.flush()
    time.sleep(DRAIN_US / 1e6)
    comm.Abort(code)
    os._exit(code)  # MPI_Abort may return before mpiexec ends this process
