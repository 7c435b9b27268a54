"""What the benchmark scripts share: timing by median after a warm-up, and the numpy
eager reference versions of the workloads."""

from __future__ import annotations

import statistics
import time

import numpy as np


def median_ms(fn, args, repeats: int = 15) -> float:
    """Median wall time of fn(*args) in ms over `repeats` calls after one warm-up call
    (waits for jax's asynchronous results)."""
    fn(*args)
    samples = []
    for _ in range(repeats):
        start = time.perf_counter()
        out = fn(*args)
        getattr(out, "block_until_ready", lambda: None)()
        samples.append((time.perf_counter() - start) * 1e3)
        del out  # a dropped result goes back to MLC's buffer pool before the next call
    return statistics.median(samples)


def np_softmax(x):
    e = np.exp(x - x.max(-1, keepdims=True))
    return e / e.sum(-1, keepdims=True)


def np_layer_norm(x):
    mean = x.mean(-1, keepdims=True)
    return (x - mean) / np.sqrt(x.var(-1, keepdims=True) + 1e-5)


def ratio_chart(path, names, mlc_ratios, jax_ratios=None, log=False, title=None) -> bool:
    """Horizontal bars of speed-ups over numpy eager (MLC, and jax.jit when given; 0 for a
    missing jax value), saved as PNG at `path`; False when matplotlib is not installed."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return False
    y = np.arange(len(names))
    fig, ax = plt.subplots(figsize=(9, 0.45 * len(names) + 1.5))
    ax.barh(y - 0.2, mlc_ratios, 0.4, label="MLC")
    if jax_ratios is not None:
        ax.barh(y + 0.2, jax_ratios, 0.4, label="jax.jit")
    ax.axvline(1.0, color="black", linewidth=0.8)
    if log:
        ax.set_xscale("log")
    ax.set_yticks(y, names)
    ax.invert_yaxis()
    ax.set_xlabel("speed-up over numpy eager (median time ratio" + (", log scale)" if log else ")"))
    if title:
        ax.set_title(title)
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return True
