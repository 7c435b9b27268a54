"""What fusion buys: the seed model_fn at 1e6 and 1e7 elements, softmax and layer_norm on
(4096, 1024), each with MLC fused, MLC unfused, numpy eager and (when installed) jax.jit.

    python benchmarks/fusion.py    # prints a table, writes benchmarks/results/fusion.json

Medians of repeated calls after a warm-up, all in one run; ratios are numpy's time over
each implementation's (higher is faster than numpy).
"""

from __future__ import annotations

import json
import time
from pathlib import Path

import numpy as np

import mlc
import mlc.nn as nn
import mlc.numpy as mnp
from common import median_ms, np_layer_norm, np_softmax

RESULTS = Path(__file__).resolve().parent / "results" / "fusion.json"


def workloads():
    rng = np.random.default_rng(0)
    small = [rng.standard_normal(1_000_000).astype(np.float32) for _ in range(3)]
    large = [rng.standard_normal(10_000_000).astype(np.float32) for _ in range(3)]
    matrix = rng.standard_normal((4096, 1024)).astype(np.float32)
    model_fn = (lambda x, y, z: mnp.sum(x * y + z), lambda x, y, z: np.sum(x * y + z))
    return [
        ("model_fn 1e6", *model_fn, small, lambda jnp, jnn: lambda x, y, z: jnp.sum(x * y + z)),
        ("model_fn 1e7", *model_fn, large, lambda jnp, jnn: lambda x, y, z: jnp.sum(x * y + z)),
        ("softmax 4096x1024", nn.softmax, np_softmax, [matrix], lambda jnp, jnn: jnn.softmax),
        ("layer_norm 4096x1024", nn.layer_norm, np_layer_norm, [matrix],
         lambda jnp, jnn: lambda x: (x - x.mean(-1, keepdims=True)) / jnp.sqrt(x.var(-1, keepdims=True) + 1e-5)),
    ]


def main() -> None:
    try:
        import jax
        import jax.numpy as jnp
    except ImportError:
        jax = None
    rows = []
    for name, fn, reference, args, jax_fn in workloads():
        row = {"workload": name,
               "numpy_ms": median_ms(reference, args),
               "mlc_fused_ms": median_ms(mlc.jit(fn), args),
               "mlc_unfused_ms": median_ms(mlc.jit(fn, fusion=False), args)}
        if jax is not None:
            row["jax_ms"] = median_ms(jax.jit(jax_fn(jnp, jax.nn)), [jnp.asarray(a) for a in args])
        rows.append(row)
    header = f"{'workload':22}{'numpy':>9}{'fused':>9}{'unfused':>9}{'jax.jit':>9}  {'np/fused':>8}{'np/unfused':>11}{'np/jax':>8}"
    print(header)
    for r in rows:
        jax_ms = r.get("jax_ms")
        print(f"{r['workload']:22}{r['numpy_ms']:9.2f}{r['mlc_fused_ms']:9.2f}{r['mlc_unfused_ms']:9.2f}"
              f"{jax_ms if jax_ms else float('nan'):9.2f}  {r['numpy_ms'] / r['mlc_fused_ms']:8.2f}x"
              f"{r['numpy_ms'] / r['mlc_unfused_ms']:10.2f}x"
              f"{(r['numpy_ms'] / jax_ms) if jax_ms else float('nan'):7.2f}x")
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    RESULTS.write_text(json.dumps({"date": time.strftime("%Y-%m-%d"), "unit": "ms (median)", "rows": rows},
                                  indent=2) + "\n")


if __name__ == "__main__":
    main()
