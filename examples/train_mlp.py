"""Train an MLP classifier on scikit-learn's digits (8x8 images, 10 classes) with MLC.

The whole training step, forward, backward (mlc.value_and_grad) and an Adam update
written with mlc.numpy, is one mlc.jit function: traced and compiled once, then run per
batch. A tqdm bar shows the loss and accuracy; a PNG plots both per epoch.

    pip install -e '.[examples]' && python examples/train_mlp.py [--epochs 30] [--plot out.png]
"""

from __future__ import annotations

import argparse
import os
import time

# The model's matrices are small (at most 64x128 by 128): OpenBLAS's threads cost more than
# they save there, and far more when other processes load the cores. Set before numpy loads.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import numpy as np  # noqa: E402

import mlc  # noqa: E402
import mlc.nn as nn  # noqa: E402
import mlc.numpy as mnp  # noqa: E402


def init_params(rng, sizes):
    """He-initialized weights and zero biases, one (w, b) pair per layer."""
    return [{"w": (rng.standard_normal((m, n)) * np.sqrt(2.0 / m)).astype(np.float32),
             "b": np.zeros(n, np.float32)} for m, n in zip(sizes[:-1], sizes[1:])]


def logits(params, x):
    for layer in params[:-1]:
        x = nn.relu(x @ layer["w"] + layer["b"])
    return x @ params[-1]["w"] + params[-1]["b"]


def loss_fn(params, x, labels):
    """Mean cross-entropy of softmax(logits) against one-hot labels, and the batch accuracy."""
    z = logits(params, x)
    loss = -mnp.mean(mnp.sum(nn.log_softmax(z) * labels, axis=-1))
    accuracy = mnp.mean((mnp.argmax(z, axis=-1) == mnp.argmax(labels, axis=-1)).astype(np.float32))
    return loss, accuracy


def adam(params, grads, m, v, step, lr=1e-3, b1=0.9, b2=0.999, eps=1e-8):
    """One Adam update of a list of {name: array}, in mlc.numpy."""
    new_params, new_m, new_v = [], [], []
    correction = mnp.sqrt(1 - b2 ** step) / (1 - b1 ** step)
    for p, g, mp, vp in zip(params, grads, m, v):
        mp = {k: b1 * mp[k] + (1 - b1) * g[k] for k in p}
        vp = {k: b2 * vp[k] + (1 - b2) * g[k] * g[k] for k in p}
        new_params.append({k: p[k] - lr * correction * mp[k] / (mnp.sqrt(vp[k]) + eps) for k in p})
        new_m.append(mp)
        new_v.append(vp)
    return new_params, new_m, new_v


@mlc.jit
def train_step(params, m, v, step, x, labels):
    (loss, accuracy), grads = mlc.value_and_grad(loss_fn, has_aux=True)(params, x, labels)
    params, m, v = adam(params, grads, m, v, step)
    return params, m, v, loss, accuracy


@mlc.jit
def evaluate(params, x, labels):
    return loss_fn(params, x, labels)


def load_digits(rng, test_fraction=0.2):
    from sklearn.datasets import load_digits as sklearn_digits
    data = sklearn_digits()
    x = (data.data / 16.0).astype(np.float32)
    labels = np.eye(10, dtype=np.float32)[data.target]
    order = rng.permutation(len(x))
    n_test = int(len(x) * test_fraction)
    test, train = order[:n_test], order[n_test:]
    return x[train], labels[train], x[test], labels[test]


def plot(history, path):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    epochs = np.arange(1, len(history["train_loss"]) + 1)
    fig, (left, right) = plt.subplots(1, 2, figsize=(10, 4))
    left.plot(epochs, history["train_loss"], label="train")
    left.plot(epochs, history["test_loss"], label="test")
    left.set_xlabel("epoch")
    left.set_ylabel("cross-entropy")
    left.legend()
    right.plot(epochs, history["train_accuracy"], label="train")
    right.plot(epochs, history["test_accuracy"], label="test")
    right.set_xlabel("epoch")
    right.set_ylabel("accuracy")
    right.legend()
    fig.suptitle("MLP on scikit-learn digits, trained with mlc.value_and_grad + Adam")
    fig.tight_layout()
    fig.savefig(path, dpi=100)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--epochs", type=int, default=30)
    parser.add_argument("--batch", type=int, default=64)
    parser.add_argument("--hidden", type=int, default=128)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--plot", default="train_mlp.png")
    args = parser.parse_args(argv)
    from tqdm import tqdm

    rng = np.random.default_rng(args.seed)
    x_train, y_train, x_test, y_test = load_digits(rng)
    params = init_params(rng, [64, args.hidden, args.hidden, 10])
    m = [{k: np.zeros_like(a) for k, a in layer.items()} for layer in params]
    v = [{k: np.zeros_like(a) for k, a in layer.items()} for layer in params]
    history = {"train_loss": [], "train_accuracy": [], "test_loss": [], "test_accuracy": []}
    n_batches = len(x_train) // args.batch  # whole batches only: one compiled signature
    step = 0
    start = time.perf_counter()
    bar = tqdm(range(args.epochs), desc="training", unit="epoch")
    for _ in bar:
        order = rng.permutation(len(x_train))
        losses, accuracies = [], []
        for b in range(n_batches):
            idx = order[b * args.batch:(b + 1) * args.batch]
            step += 1
            params, m, v, loss, accuracy = train_step(params, m, v, np.float32(step), x_train[idx], y_train[idx])
            losses.append(float(loss))
            accuracies.append(float(accuracy))
        test_loss, test_accuracy = evaluate(params, x_test, y_test)
        history["train_loss"].append(np.mean(losses))
        history["train_accuracy"].append(np.mean(accuracies))
        history["test_loss"].append(float(test_loss))
        history["test_accuracy"].append(float(test_accuracy))
        bar.set_postfix(loss=f"{np.mean(losses):.4f}", acc=f"{np.mean(accuracies):.3f}",
                        test_acc=f"{float(test_accuracy):.3f}")
    elapsed = time.perf_counter() - start
    print(f"test accuracy {history['test_accuracy'][-1]:.4f} after {args.epochs} epochs "
          f"({step} steps, {elapsed:.1f} s; train_step compiled {train_step.cache_info().misses} time(s))")
    if args.plot:
        plot(history, args.plot)
        print(f"wrote {args.plot}")
    return history


if __name__ == "__main__":
    main()
