"""Quickstart: XLA's seed example, model_fn(x, y, z) = reduce_sum(x * y + z), jit-compiled
by MLC and run on 1e6 float32 elements next to numpy.

mlc.jit traces the function into the hlo dialect, lowers it through linalg and LLVM to
native code on the first call, and afterwards only dispatches.
"""

import time

import numpy as np

import mlc
import mlc.numpy as mnp

N = 1_000_000


@mlc.jit
def model_fn(x, y, z):
    return mnp.sum(x * y + z)


def median_seconds(fn, repeats=50):
    fn()  # warm-up
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return float(np.median(times))


def main():
    rng = np.random.default_rng(0)
    x, y, z = (rng.standard_normal(N).astype(np.float32) for _ in range(3))
    print("traced hlo:\n" + model_fn.lower(x, y, z).as_text())

    start = time.perf_counter()
    ours = model_fn(x, y, z)  # first call: trace, optimize, compile, run
    first_call_ms = (time.perf_counter() - start) * 1e3
    reference = np.sum(x * y + z)
    exact = np.sum(x.astype(np.float64) * y + z)

    t_mlc = median_seconds(lambda: model_fn(x, y, z))
    t_numpy = median_seconds(lambda: np.sum(x * y + z))
    print(f"first call (trace + compile + run): {first_call_ms:.0f} ms")
    print(f"{'':8}{'result':>16}{'median time':>14}")
    print(f"{'MLC':8}{float(ours):16.6f}{t_mlc * 1e3:11.3f} ms")
    print(f"{'numpy':8}{float(reference):16.6f}{t_numpy * 1e3:11.3f} ms")
    print(f"{'exact':8}{float(exact):16.6f}   (float64)")
    print(f"MLC / numpy time: {t_mlc / t_numpy:.2f}x   cache: {model_fn.cache_info()}")
    if not np.isclose(ours, exact, rtol=1e-4):
        raise SystemExit("MLC's result differs from numpy's")


if __name__ == "__main__":
    main()
