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
