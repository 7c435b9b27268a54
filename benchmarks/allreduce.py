"""All-reduce across MPI processes: MLC's compiled collectives against mpi4py on numpy arrays.

    mpiexec -n 2 python -m mpi4py benchmarks/allreduce.py [--sizes 1e6 1e7] [--reps 20]
        [--parameters 50] [--markdown benchmarks/results/allreduce.md]

Three tables, printed by process 0 (and appended to --markdown):
1. psum of one float32 array of each size: the compiled kernel (its agreement check, then
   MPI_Allreduce out of place from the argument into the result: mlc-out-of-place-collectives)
   against mpi4py's Allreduce out of place, and the kernel with the argument donated (`donate_argnums=0`: in place on the
   argument itself, no copy) against mpi4py's Allreduce(MPI.IN_PLACE, ...).
2. A gradient-sized pytree (`--parameters` tensors of mixed sizes, as an MLP's weights and
   biases): pmean of the tree compiled with hlo-combine-collectives (one packed
   all_reduce) and without it (combine_threshold_bytes=0: one all_reduce per tensor),
   against mpi4py's Allreduce per tensor and on one packed numpy buffer, each then scaled
   by 1/processes in place (a mean, as pmean computes).
3. The cost of the agreement check: a compiled psum of one float32 against mpi4py's, which
   has no check (the difference is the check's small all-reduce plus the call's dispatch).
Each timing is the median over `reps` rounds that call every variant of a table once, in
turn (so load changes hit all alike), each call started together on all ranks (a barrier);
each round runs the variants in a new random order (the same on every rank), so no variant
always follows the same other one: what ran before changes what is still in the 8 MiB L3
cache the cores share (a fixed rotation keeps the cyclic order, and made the first variant,
which always followed mpi4py's, look 0.1-0.2 ms slower at 1e6 than the same call elsewhere).
"""

from __future__ import annotations

import argparse
import datetime
import os
import time

import numpy as np

import mlc
from mlc import CompileOptions, distributed


def medians_ms(fns, comm, reps: int) -> list[float]:
    """Median ms of each of `fns`, measured in alternation (one call of each per round, in
    a random order), so a change in the machine's load falls on all of them alike."""
    for fn in fns:
        fn()  # warm up (and compile)
    times = [[] for _ in fns]
    order = np.random.default_rng(0)  # one seed: every rank draws the same orders
    for _ in range(reps):
        for k in order.permutation(len(fns)):
            comm.Barrier()
            start = time.perf_counter()
            fns[k]()
            times[k].append(time.perf_counter() - start)
    return [float(np.median(t)) * 1e3 for t in times]


def parameter_shapes(count: int) -> list[tuple[int, ...]]:
    """`count` tensors of mixed sizes: (w, b) pairs of dense layers of widths 64..1024."""
    rng = np.random.default_rng(0)
    widths = rng.choice([64, 128, 256, 512, 1024], size=count // 2 + 1)
    shapes = []
    for i in range(count):
        m, n = int(widths[i // 2]), int(widths[i // 2 + 1])
        shapes.append((m, n) if i % 2 == 0 else (n,))
    return shapes


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=float, nargs="+", default=[1e6, 1e7])
    parser.add_argument("--reps", type=int, default=20)
    parser.add_argument("--parameters", type=int, default=50)
    parser.add_argument("--markdown", help="append the tables to this file (process 0)")
    args = parser.parse_args(argv)
    distributed.initialize()
    comm = distributed.communicator()
    if comm is None:
        raise SystemExit("run under mpiexec: mpiexec -n 2 python -m mpi4py benchmarks/allreduce.py")
    from mpi4py import MPI
    rank, count = distributed.process_index(), distributed.process_count()
    lines = []

    psum = mlc.jit(lambda x: mlc.lax.psum(x, "processes"))
    psum_donated = mlc.jit(lambda x: mlc.lax.psum(x, "processes"), donate_argnums=0)
    lines += [f"### psum of one float32 array, {count} processes, median of {args.reps}", "",
              "| elements | MLC psum ms | mpi4py Allreduce ms | ratio | MLC psum, donated ms "
              "| mpi4py in place ms | ratio |",
              "|---:|---:|---:|---:|---:|---:|---:|"]
    for size in args.sizes:
        n = int(size)
        x = np.random.default_rng(rank).standard_normal(n).astype(np.float32)
        out, want = np.empty_like(x), np.empty_like(x)
        comm.Allreduce(x, want)
        np.testing.assert_allclose(psum(x), want, rtol=1e-6)
        donated = x.copy()
        assert psum_donated(donated) is donated
        np.testing.assert_allclose(donated, want, rtol=1e-6)
        # Both in-place variants keep summing into their array (it doubles each call:
        # float32 reaches inf after ~128 calls, which costs the same to add).
        inplace = x.copy()
        compiled, mpi4py, compiled_donated, mpi4py_inplace = medians_ms(
            [lambda: psum(x), lambda: comm.Allreduce(x, out), lambda: psum_donated(donated),
             lambda: comm.Allreduce(MPI.IN_PLACE, inplace)], comm, args.reps)
        lines.append(f"| {n:.0e} | {compiled:.2f} | {mpi4py:.2f} | {compiled / mpi4py:.2f} "
                     f"| {compiled_donated:.2f} | {mpi4py_inplace:.2f} | {compiled_donated / mpi4py_inplace:.2f} |")

    shapes = parameter_shapes(args.parameters)
    rng = np.random.default_rng(rank)
    grads = [rng.standard_normal(s).astype(np.float32) for s in shapes]
    total = sum(g.size for g in grads)
    combined = mlc.jit(lambda g: mlc.lax.pmean(g, "processes"))
    separate = mlc.jit(lambda g: mlc.lax.pmean(g, "processes"),
                       options=CompileOptions(combine_threshold_bytes=0))
    text = combined.lower(grads).as_text("hlo-optimized")
    calls = [text.count('"hlo.all_reduce"'),
             separate.lower(grads).as_text("hlo-optimized").count('"hlo.all_reduce"')]
    for a, b in zip(combined(grads), separate(grads)):
        np.testing.assert_allclose(a, b, rtol=1e-6)
    outs = [np.empty_like(g) for g in grads]

    # pmean's mpi4py twins average too (what a data-parallel step needs, and what MLC's
    # compiled pmean does): scaled in place after the sum.
    scale = np.float32(1.0 / count)

    def per_tensor():
        for g, o in zip(grads, outs):
            comm.Allreduce(g, o)
            np.multiply(o, scale, out=o)

    packed = np.empty(total, np.float32)

    def one_buffer():
        np.concatenate([g.ravel() for g in grads], out=packed)
        comm.Allreduce(MPI.IN_PLACE, packed)
        np.multiply(packed, scale, out=packed)
        start = 0
        for g, o in zip(grads, outs):
            o.ravel()[:] = packed[start:start + g.size]
            start += g.size

    timings = medians_ms([lambda: combined(grads), lambda: separate(grads), per_tensor, one_buffer],
                         comm, args.reps)
    lines += ["", f"### pmean of {len(shapes)} gradient tensors ({total:,} float32, {total * 4 / 2**20:.1f} MiB, "
              f"sizes {min(g.size for g in grads):,}..{max(g.size for g in grads):,}), {count} processes", "",
              "| variant | all_reduce calls | ms |", "|---|---:|---:|",
              f"| MLC, combined (hlo-combine-collectives) | {calls[0]} | {timings[0]:.2f} |",
              f"| MLC, one all_reduce per tensor (combine_threshold_bytes=0) | {calls[1]} | {timings[1]:.2f} |",
              f"| mpi4py Allreduce per tensor, then scaled | {len(shapes)} | {timings[2]:.2f} |",
              f"| mpi4py, packed into one buffer, then scaled | 1 | {timings[3]:.2f} |"]

    one = np.ones(1, np.float32)
    small_out = np.empty_like(one)
    small = medians_ms([lambda: psum(one), lambda: comm.Allreduce(one, small_out)], comm, args.reps * 10)
    lines += ["", "### one float32: the agreement check and the call's dispatch", "",
              "| MLC psum µs | mpi4py Allreduce µs |", "|---:|---:|",
              f"| {small[0] * 1e3:.1f} | {small[1] * 1e3:.1f} |"]

    if rank == 0:
        load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
        header = [f"## {datetime.date.today()}: {count} processes, load {load:.2f} (2 cores, shared)", ""]
        text = "\n".join(header + lines) + "\n"
        print(text)
        if args.markdown:
            with open(args.markdown, "a") as f:
                f.write("\n" + text)


if __name__ == "__main__":
    main()
