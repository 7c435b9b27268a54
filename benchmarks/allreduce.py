"""All-reduce of float32 arrays across MPI processes: MLC's compiled psum (the kernel
calls MPI_Allreduce itself) against mpi4py's Allreduce on numpy arrays (same library).

    mpiexec -n 2 python -m mpi4py benchmarks/allreduce.py [--sizes 1e6 1e7] [--reps 20]

Each timing is the median over `reps` calls, every call started together on all ranks
(a barrier before each); process 0 prints the table.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

import mlc
from mlc import distributed


def median_time(fn, comm, reps: int) -> float:
    fn()  # warm up (and compile)
    times = []
    for _ in range(reps):
        comm.Barrier()
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return float(np.median(times))


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=float, nargs="+", default=[1e6, 1e7])
    parser.add_argument("--reps", type=int, default=20)
    args = parser.parse_args(argv)
    distributed.initialize()
    comm = distributed.communicator()
    if comm is None:
        raise SystemExit("run under mpiexec: mpiexec -n 2 python -m mpi4py benchmarks/allreduce.py")
    from mpi4py import MPI

    psum = mlc.jit(lambda x: mlc.lax.psum(x, "processes"))
    rows = []
    for size in args.sizes:
        n = int(size)
        x = np.random.default_rng(distributed.process_index()).standard_normal(n).astype(np.float32)
        out = np.empty_like(x)
        want = np.empty_like(x)
        comm.Allreduce(x, want)
        np.testing.assert_allclose(psum(x), want, rtol=1e-6)
        inplace = x.copy()
        compiled = median_time(lambda: psum(x), comm, args.reps)
        mpi4py = median_time(lambda: comm.Allreduce(x, out), comm, args.reps)
        mpi4py_inplace = median_time(lambda: comm.Allreduce(MPI.IN_PLACE, inplace), comm, args.reps)
        rows.append((n, compiled, mpi4py, mpi4py_inplace))
    if distributed.process_index() == 0:
        print(f"all-reduce (sum) of float32 over {distributed.process_count()} processes, median of {args.reps}")
        print(f"{'elements':>10} {'mlc psum (ms)':>14} {'mpi4py (ms)':>12} {'mpi4py in place (ms)':>21} {'mlc/mpi4py':>11}")
        for n, compiled, mpi4py, inplace in rows:
            print(f"{n:>10.0e} {compiled * 1e3:>14.2f} {mpi4py * 1e3:>12.2f} {inplace * 1e3:>21.2f} {compiled / mpi4py:>11.2f}")


if __name__ == "__main__":
    main()
