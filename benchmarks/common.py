"""What the benchmark scripts share: timing by median after a warm-up, the correctness
measure every implementation is checked with, the numpy eager reference versions of the
workloads and the speed-up bar chart. (Imports numpy only: the peers' child processes in
peers.py use it too, and they must not load MLC's MLIR bindings.)"""

from __future__ import annotations

import statistics
import time

import numpy as np

RTOL = 2e-3  # an output passes when |out - ref| <= RTOL * max(1, max|ref|), ref in float64


def leaves(out) -> list[np.ndarray]:
    """A function's result as a list of numpy arrays (one per output)."""
    return [np.asarray(o) for o in (out if isinstance(out, (tuple, list)) else [out])]


def max_error(out, ref) -> float:
    """max over outputs of max|out - ref| / max(1, max|ref|) (inf on a shape mismatch)."""
    worst = 0.0
    for o, r in zip(leaves(out), leaves(ref), strict=True):
        if o.shape != r.shape:
            return float("inf")
        scale = max(1.0, float(np.max(np.abs(r))) if r.size else 1.0)
        worst = max(worst, float(np.max(np.abs(o.astype(np.float64) - r))) / scale if r.size else 0.0)
    return worst


def f64(args):
    """The float arrays of args cast to float64 (the reference's inputs), others unchanged."""
    return [a.astype(np.float64) if a.dtype.kind == "f" else a for a in args]


PEERS = {"jax": "jax.jit", "iree": "IREE"}


def peer_ratios(row: dict) -> None:
    """Adds mlc_vs_<peer> (the peer's median over MLC's: above 1, MLC is faster) for each
    peer timed in `row` (<peer>_ms), and best_peer / mlc_vs_best for the faster of the peers
    whose output passed (<peer>_error <= RTOL): issue 14's "the faster of jax.jit and IREE"."""
    if "mlc_ms" not in row:
        return
    best = None
    for k in PEERS:
        if f"{k}_ms" not in row:
            continue
        row[f"mlc_vs_{k}"] = row[f"{k}_ms"] / row["mlc_ms"]
        if row.get(f"{k}_error", 0.0) <= RTOL and (best is None or row[f"{k}_ms"] < row[f"{best}_ms"]):
            best = k
    if best is not None:
        row["best_peer"], row["mlc_vs_best"] = best, row[f"{best}_ms"] / row["mlc_ms"]


# A pause before each implementation's samples: numpy's OpenBLAS leaves its worker threads
# spinning on the cores for ~0.1 s after its last call (OPENBLAS_THREAD_TIMEOUT, 2^28
# cycles), which slowed whatever was timed next by up to 1.5x (attention_core, MLC right
# after numpy: 13.9 ms against 9.8 with the workers asleep).
SETTLE_S = 0.25


def median_ms(fn, args, repeats: int = 15) -> float:
    """Median wall time of fn(*args) in ms over `repeats` calls after one warm-up call
    (waits for jax's asynchronous results), started after SETTLE_S."""
    time.sleep(SETTLE_S)
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


def ratio_chart(path, names, mlc_ratios, jax_ratios=None, log=False, title=None, iree_ratios=None) -> bool:
    """Horizontal bars of speed-ups over numpy eager (MLC, and jax.jit / IREE when given; 0 for
    a missing value), saved as PNG at `path`; False when matplotlib is not installed."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return False
    series = [("MLC", mlc_ratios)] + [(label, r) for label, r in (("jax.jit", jax_ratios), ("IREE", iree_ratios))
                                      if r is not None]
    height = 0.8 / len(series)
    y = np.arange(len(names))
    fig, ax = plt.subplots(figsize=(9, 0.45 * len(names) * max(1, len(series) / 2) + 1.5))
    for i, (label, ratios) in enumerate(series):
        ax.barh(y - 0.4 + height * (i + 0.5), ratios, height, label=label)
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
