"""Quickstart: compile XLA's seed example, model_fn(x, y, z) = reduce_sum(x * y + z), and
run it on 1e6 float32 elements next to numpy.

The function is built with MLC's hlo builders, compiled through linalg and LLVM to native
code, and called with numpy arrays.
"""

import time

import numpy as np
from mlir import ir
from mlir.dialects import func

import mlc
from mlc.context import make_context
from mlc.dialects import hlo

N = 1_000_000


def build_model_fn() -> ir.Module:
    vector = ir.RankedTensorType.get([N], ir.F32Type.get())
    module = ir.Module.create()
    with ir.InsertionPoint(module.body):
        @func.FuncOp.from_py_func(vector, vector, vector, name="model_fn")
        def model_fn(x, y, z):
            zero = hlo.constant(np.float32(0))
            return hlo.reduce(hlo.add(hlo.multiply(x, y), z), zero, dimensions=[0], kind="add")
    return module


def median_seconds(fn, repeats=50):
    fn()  # warm-up
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return float(np.median(times))


def main():
    with make_context(), ir.Location.unknown():
        module = build_model_fn()
        print("hlo module:\n" + str(module))
        start = time.perf_counter()
        model_fn = mlc.compile(module, entry="model_fn")
        compile_ms = (time.perf_counter() - start) * 1e3

    rng = np.random.default_rng(0)
    x, y, z = (rng.standard_normal(N).astype(np.float32) for _ in range(3))
    ours = model_fn(x, y, z)
    reference = np.sum(x * y + z)
    exact = np.sum(x.astype(np.float64) * y + z)

    t_mlc = median_seconds(lambda: model_fn(x, y, z))
    t_numpy = median_seconds(lambda: np.sum(x * y + z))
    print(f"compiled {model_fn.signature} in {compile_ms:.0f} ms")
    print(f"{'':8}{'result':>16}{'median time':>14}")
    print(f"{'MLC':8}{float(ours):16.6f}{t_mlc * 1e3:11.3f} ms")
    print(f"{'numpy':8}{float(reference):16.6f}{t_numpy * 1e3:11.3f} ms")
    print(f"{'exact':8}{float(exact):16.6f}   (float64)")
    print(f"MLC / numpy time: {t_mlc / t_numpy:.2f}x")
    if not np.isclose(ours, exact, rtol=1e-4):
        raise SystemExit("MLC's result differs from numpy's")


if __name__ == "__main__":
    main()
