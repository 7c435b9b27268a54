"""Dispatch overhead of a cached mlc.jit call on tiny inputs, and first-call compile times.

    python benchmarks/dispatch.py        # prints a table, writes benchmarks/results/dispatch.json

Dispatch: median over many calls of a cached function on 4-element arrays (the work itself
is nanoseconds, so this is the per-call overhead). Compile: wall time of the first call of
a fresh jit function (trace + hlo-to-linalg + LLVM lowering + JIT codegen). jax.jit is
measured the same way when jax is installed.
"""

from __future__ import annotations

import json
import platform
import statistics
import sys
import time
from pathlib import Path

import numpy as np

import mlc
import mlc.nn as nn

RESULTS = Path(__file__).resolve().parent / "results" / "dispatch.json"


def per_call_us(fn, args, calls=20000, repeats=7) -> float:
    fn(*args)
    samples = []
    for _ in range(repeats):
        start = time.perf_counter()
        for _ in range(calls):
            fn(*args)
        samples.append((time.perf_counter() - start) / calls * 1e6)
    return statistics.median(samples)


def first_call_ms(make, args, clear=lambda: None) -> float:
    samples = []
    for _ in range(3):
        clear()  # jax keeps compiled executables across jit objects: start cold
        fn = make()
        start = time.perf_counter()
        out = fn(*args)
        getattr(out, "block_until_ready", lambda: None)()
        samples.append((time.perf_counter() - start) * 1e3)
    return statistics.median(samples)


def workloads(numpy_module, nn_module):
    rng = np.random.default_rng(0)
    x = rng.standard_normal((64, 256)).astype(np.float32)
    w1 = rng.standard_normal((256, 512)).astype(np.float32) * 0.05
    w2 = rng.standard_normal((512, 10)).astype(np.float32) * 0.05
    b1, b2 = np.zeros(512, np.float32), np.zeros(10, np.float32)
    scale, bias = np.ones(256, np.float32), np.zeros(256, np.float32)
    return {
        "softmax": (lambda a: nn_module.softmax(a, axis=-1), (x,)),
        "layer_norm": (lambda a, s, b: (a - a.mean(-1, keepdims=True)) /
                       numpy_module.sqrt(a.var(-1, keepdims=True) + 1e-5) * s + b, (x, scale, bias)),
        "mlp_2layer": (lambda a, p, q, r, t: nn_module.relu(a @ p + q) @ r + t, (x, w1, b1, w2, b2)),
    }


def measure_mlc() -> dict:
    tiny = np.ones(4, np.float32)
    add3 = mlc.jit(lambda a, b, c: a * b + c)
    results = {"dispatch_us": per_call_us(add3, (tiny, tiny, tiny)), "compile_ms": {}}
    for name, (fn, args) in workloads(__import__("mlc.numpy", fromlist=["x"]), nn).items():
        results["compile_ms"][name] = first_call_ms(lambda fn=fn: mlc.jit(fn), args)
    return results


def measure_jax() -> dict | None:
    try:
        import jax
        import jax.numpy as jnp
    except ImportError:
        return None
    tiny = np.ones(4, np.float32)
    add3 = jax.jit(lambda a, b, c: a * b + c)
    results = {"dispatch_us": per_call_us(lambda *a: add3(*a).block_until_ready(), (tiny, tiny, tiny)),
               "compile_ms": {}}
    for name, (fn, args) in workloads(jnp, jax.nn).items():
        results["compile_ms"][name] = first_call_ms(lambda fn=fn: jax.jit(fn), args, jax.clear_caches)
    return results


def main() -> None:
    mlc_results, jax_results = measure_mlc(), measure_jax()
    print(f"{'':22}{'MLC':>10}{'jax.jit':>10}")
    jax_dispatch = f"{jax_results['dispatch_us']:10.1f}" if jax_results else f"{'-':>10}"
    print(f"{'dispatch (us/call)':22}{mlc_results['dispatch_us']:10.1f}{jax_dispatch}")
    for name, ms in mlc_results["compile_ms"].items():
        other = f"{jax_results['compile_ms'][name]:10.0f}" if jax_results else f"{'-':>10}"
        print(f"{'compile ' + name + ' (ms)':22}{ms:10.0f}{other}")
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    RESULTS.write_text(json.dumps({
        "date": time.strftime("%Y-%m-%d"), "machine": platform.machine(), "python": sys.version.split()[0],
        "mlc": mlc_results, "jax": jax_results}, indent=2) + "\n")
    print(f"wrote {RESULTS.relative_to(Path.cwd()) if RESULTS.is_relative_to(Path.cwd()) else RESULTS}")


if __name__ == "__main__":
    main()
