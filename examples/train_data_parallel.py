"""Data-parallel training of an MLP over MPI processes, with the gradient all-reduce
compiled into the training step.

    mpiexec -n 2 python -m mpi4py examples/train_data_parallel.py    # two processes
    python examples/train_data_parallel.py                           # one process, same result

Every process starts from process 0's parameters (mlc.distributed.broadcast_from_process_0),
takes its shard of each global batch (process_shard), computes the gradient of its local
mean loss and averages it with mlc.lax.pmean inside the jitted step: the compiled step calls
MPI_Allreduce itself. So after N steps the parameters equal those of one process training
on the same global batches (to float rounding); `--save` writes them to compare.
`-m mpi4py` makes a rank that raises abort the whole job instead of leaving it hanging.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

import mlc
import mlc.nn as nn
import mlc.numpy as mnp
from mlc import distributed

CLASSES, FEATURES = 10, 64


def make_data(n, seed=0):
    """Gaussian blobs, one per class, in FEATURES dimensions (the same on every process)."""
    rng = np.random.default_rng(seed)
    centers = rng.standard_normal((CLASSES, FEATURES)).astype(np.float32) * 2
    labels = rng.integers(0, CLASSES, n)
    x = centers[labels] + rng.standard_normal((n, FEATURES)).astype(np.float32)
    return x.astype(np.float32), np.eye(CLASSES, dtype=np.float32)[labels]


def init_params(seed, sizes):
    rng = np.random.default_rng(seed)
    return [{"w": (rng.standard_normal((m, n)) * np.sqrt(2.0 / m)).astype(np.float32),
             "b": np.zeros(n, np.float32)} for m, n in zip(sizes[:-1], sizes[1:])]


def loss_fn(params, x, labels):
    for layer in params[:-1]:
        x = nn.relu(x @ layer["w"] + layer["b"])
    z = x @ params[-1]["w"] + params[-1]["b"]
    return -mnp.mean(mnp.sum(nn.log_softmax(z) * labels, axis=-1))


def sgd(params, grads, lr):
    return mlc.tree_util.tree_map(lambda p, g: p - lr * g, params, grads)


def train_step_fn(params, x, labels):
    """One SGD step on this process's shard; gradients and loss averaged over processes.
    On several processes the compile packs the 7 all_reduces (6 gradients and the loss)
    into one (hlo-combine-collectives)."""
    loss, grads = mlc.value_and_grad(loss_fn)(params, x, labels)
    grads = mlc.lax.pmean(grads, "processes")
    return sgd(params, grads, 0.05), mlc.lax.pmean(loss, "processes")


train_step = mlc.jit(train_step_fn)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=50)
    parser.add_argument("--batch", type=int, default=512, help="global batch size")
    parser.add_argument("--hidden", type=int, default=256)
    parser.add_argument("--save", help="write the final parameters (process 0) to this .npz")
    parser.add_argument("--separate-allreduces", action="store_true",
                        help="one all_reduce per gradient (CompileOptions(combine_threshold_bytes=0))")
    args = parser.parse_args(argv)
    step_fn = (mlc.jit(train_step_fn, options=mlc.CompileOptions(combine_threshold_bytes=0))
               if args.separate_allreduces else train_step)

    distributed.initialize()
    rank, count = distributed.process_index(), distributed.process_count()
    x_all, y_all = make_data(args.batch * args.steps)
    # Each process draws its own parameters; process 0's win, so every process starts equal.
    params = distributed.broadcast_from_process_0(
        init_params(rank, [FEATURES, args.hidden, args.hidden, CLASSES]))

    times, losses = [], []
    for step in range(args.steps):
        batch = slice(step * args.batch, (step + 1) * args.batch)
        x, y = distributed.process_shard((x_all[batch], y_all[batch]))
        start = time.perf_counter()
        params, loss = step_fn(params, x, y)
        times.append(time.perf_counter() - start)
        losses.append(float(loss))
    steady = float(np.median(times[1:])) if len(times) > 1 else times[0]
    local = args.batch // count
    print(f"[process {rank}/{count}] loss {losses[0]:.4f} -> {losses[-1]:.4f}; step {steady * 1e3:.2f} ms "
          f"(first, with compile: {times[0]:.2f} s); {local / steady:,.0f} samples/s on this process, "
          f"{args.batch / steady:,.0f} samples/s for the job", flush=True)
    if args.save and rank == 0:
        leaves, _ = mlc.tree_util.tree_flatten(params)
        np.savez(args.save, *leaves)


if __name__ == "__main__":
    main()
