"""The CPU performance table: MLC against numpy eager (and jax.jit when jax is installed).

    python benchmarks/run.py            # all workloads, ~3 minutes
    python benchmarks/run.py softmax    # workloads whose name contains 'softmax'

Each workload runs once to compile (timed: the first call's compile time), then `repeats`
timed calls after a warm-up; the tables quote medians, and every ratio comes from this
same run (numpy's median over the implementation's: above 1 is faster than numpy).
Writes benchmarks/results/<date>.json, a markdown table <date>.md, and a bar chart of the
ratios <date>.png (when matplotlib is installed: `pip install -e '.[bench]'`).
"""

from __future__ import annotations

import json
import platform
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

import numpy as np

import mlc
import mlc.lax as lax
import mlc.nn as nn
import mlc.numpy as mnp
from mlc.codegen.target import num_threads, vector_register_bits
from common import median_ms, np_layer_norm, np_softmax, ratio_chart

RESULTS = Path(__file__).resolve().parent / "results"


@dataclass
class Workload:
    """One row of the table: the MLC function, numpy's eager version, jax's (built from
    jax.numpy / jax.nn / jax.lax), the inputs, the flop count (for GFLOP/s) and the target."""

    name: str
    mlc_fn: Callable
    numpy_fn: Callable
    jax_fn: Callable | None
    make_inputs: Callable[[np.random.Generator], list]
    target: str
    flops: int = 0
    repeats: int = 15


def np_conv_nhwc(x, w):
    """numpy eager 'SAME' 3x3 convolution: pad, im2col with strided views, one matmul."""
    kh, kw, c, o = w.shape
    xp = np.pad(x, ((0, 0), (kh // 2, kh // 2), (kw // 2, kw // 2), (0, 0)))
    n, h, wd, _ = x.shape
    cols = np.lib.stride_tricks.sliding_window_view(xp, (kh, kw), axis=(1, 2))  # n,h,w,c,kh,kw
    cols = cols.transpose(0, 1, 2, 4, 5, 3).reshape(n * h * wd, kh * kw * c)
    return (cols @ w.reshape(kh * kw * c, o)).reshape(n, h, wd, o)


def conv_mlc(x, w):
    return lax.conv_general_dilated(x, w, (1, 1), "SAME", dimension_numbers=("NHWC", "HWIO", "NHWC"))


def tanh_chain(x):
    return mnp.tanh(x * 0.5 + 0.1) * nn.sigmoid(x)


def workloads() -> list[Workload]:
    f32 = np.float32
    result = []
    for n in (256, 512, 1024, 2048):
        result.append(Workload(
            f"matmul f32 N={n}", lambda a, b: a @ b, lambda a, b: a @ b,
            lambda jnp, jnn, jlax: lambda a, b: a @ b,
            lambda rng, n=n: [rng.standard_normal((n, n)).astype(f32) for _ in range(2)],
            ">= 0.8x numpy GFLOP/s (N >= 512)", flops=2 * n ** 3, repeats=10 if n >= 2048 else 15))
    result += [
        Workload("MLP relu(x@W+b) 256x1024x1024", lambda x, w, b: mnp.maximum(x @ w + b, 0.0),
                 lambda x, w, b: np.maximum(x @ w + b, 0),
                 lambda jnp, jnn, jlax: lambda x, w, b: jnp.maximum(x @ w + b, 0),
                 lambda rng: [rng.standard_normal((256, 1024)).astype(f32),
                              rng.standard_normal((1024, 1024)).astype(f32) * 0.03,
                              rng.standard_normal(1024).astype(f32)],
                 ">= 0.9x numpy", flops=2 * 256 * 1024 * 1024),
        Workload("model_fn sum(x*y+z) 1e7", lambda x, y, z: mnp.sum(x * y + z), lambda x, y, z: np.sum(x * y + z),
                 lambda jnp, jnn, jlax: lambda x, y, z: jnp.sum(x * y + z),
                 lambda rng: [rng.standard_normal(10_000_000).astype(f32) for _ in range(3)], ">= 3x numpy"),
        Workload("tanh(x*a+b)*sigmoid(x) 1e7", tanh_chain,
                 lambda x: np.tanh(x * np.float32(0.5) + np.float32(0.1)) * (1 / (1 + np.exp(-x))),
                 lambda jnp, jnn, jlax: lambda x: jnp.tanh(x * 0.5 + 0.1) * jnn.sigmoid(x),
                 lambda rng: [rng.standard_normal(10_000_000).astype(f32)], ">= 4.4x numpy"),
        Workload("softmax 4096x1024", nn.softmax, np_softmax, lambda jnp, jnn, jlax: jnn.softmax,
                 lambda rng: [rng.standard_normal((4096, 1024)).astype(f32)], ">= 5x numpy"),
        Workload("layer_norm 4096x1024", nn.layer_norm, np_layer_norm,
                 lambda jnp, jnn, jlax: lambda x: (x - x.mean(-1, keepdims=True))
                 / jnp.sqrt(x.var(-1, keepdims=True) + 1e-5),
                 lambda rng: [rng.standard_normal((4096, 1024)).astype(f32)], ">= 5x numpy"),
        Workload("conv2d NHWC 3x3 8x56x56x64->64", conv_mlc, np_conv_nhwc,
                 lambda jnp, jnn, jlax: lambda x, w: jlax.conv_general_dilated(
                     x, w, (1, 1), "SAME", dimension_numbers=("NHWC", "HWIO", "NHWC")),
                 lambda rng: [rng.standard_normal((8, 56, 56, 64)).astype(f32),
                              rng.standard_normal((3, 3, 64, 64)).astype(f32) * 0.05],
                 "within 1.5x of jax.jit", flops=2 * 8 * 56 * 56 * 64 * 64 * 9, repeats=10),
    ]
    return result


class Progress:
    """A one-line text progress bar on stderr."""

    def __init__(self, total: int):
        self.total, self.done = total, 0

    def step(self, label: str) -> None:
        width = 30
        filled = width * self.done // self.total
        sys.stderr.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {self.done}/{self.total} {label[:40]:40}")
        sys.stderr.flush()
        self.done += 1

    def close(self) -> None:
        sys.stderr.write(f"\r[{'#' * 30}] {self.total}/{self.total} done{' ' * 40}\n")


def run(selected: list[Workload], jax_modules) -> list[dict]:
    rng = np.random.default_rng(0)
    progress = Progress(len(selected))
    rows = []
    for w in selected:
        progress.step(w.name)
        args = w.make_inputs(rng)
        jitted = mlc.jit(w.mlc_fn)
        start = time.perf_counter()
        compiled = jitted.lower(*args).compile()
        compile_s = time.perf_counter() - start
        np.testing.assert_allclose(compiled(*args), w.numpy_fn(*args), rtol=2e-3, atol=2e-3)
        row = {"workload": w.name, "target": w.target, "compile_s": compile_s,
               "numpy_ms": median_ms(w.numpy_fn, args, w.repeats),
               "mlc_ms": median_ms(jitted, args, w.repeats)}
        if jax_modules is not None and w.jax_fn is not None:
            jax, jnp, jnn, jlax = jax_modules
            jax_args = [jnp.asarray(a) for a in args]
            row["jax_ms"] = median_ms(jax.jit(w.jax_fn(jnp, jnn, jlax)), jax_args, w.repeats)
        if w.flops:
            for key in ("numpy", "mlc", "jax"):
                if f"{key}_ms" in row:
                    row[f"{key}_gflops"] = w.flops / row[f"{key}_ms"] / 1e6
        row["mlc_vs_numpy"] = row["numpy_ms"] / row["mlc_ms"]
        if "jax_ms" in row:
            row["jax_vs_numpy"] = row["numpy_ms"] / row["jax_ms"]
            row["mlc_vs_jax"] = row["jax_ms"] / row["mlc_ms"]
        rows.append(row)
    progress.close()
    return rows


def markdown(rows: list[dict], machine: dict) -> str:
    lines = [f"MLC benchmark, {machine['date']}: {machine['cores']} threads, {machine['vector_bits']}-bit vectors, "
             f"numpy {machine['numpy']}, jax {machine.get('jax') or 'not installed'}. Medians in ms; "
             "ratios are numpy's time over each one's (higher is faster).", "",
             "| workload | numpy | MLC | jax.jit | MLC / numpy | jax / numpy | MLC / jax | GFLOP/s MLC (numpy) | compile s | target |",
             "|---|---:|---:|---:|---:|---:|---:|---:|---:|---|"]
    for r in rows:
        def fmt(key, spec=".2f"):
            return format(r[key], spec) if key in r else "-"
        gflops = f"{r['mlc_gflops']:.0f} ({r['numpy_gflops']:.0f})" if "mlc_gflops" in r else "-"
        lines.append(f"| {r['workload']} | {fmt('numpy_ms')} | {fmt('mlc_ms')} | {fmt('jax_ms')} | "
                     f"{fmt('mlc_vs_numpy')}x | {fmt('jax_vs_numpy')}x | {fmt('mlc_vs_jax')}x | {gflops} | "
                     f"{fmt('compile_s')} | {r['target']} |")
    return "\n".join(lines) + "\n"


def bar_chart(rows: list[dict], path: Path) -> bool:
    jax = [r.get("jax_vs_numpy", 0) for r in rows] if any("jax_vs_numpy" in r for r in rows) else None
    return ratio_chart(path, [r["workload"] for r in rows], [r["mlc_vs_numpy"] for r in rows], jax)


def main(argv: list[str]) -> None:
    selected = [w for w in workloads() if not argv or any(a in w.name for a in argv)]
    if not selected:
        sys.exit(f"no workload matches {argv}; workloads: {', '.join(w.name for w in workloads())}")
    try:
        import jax
        import jax.lax as jlax
        import jax.nn as jnn
        import jax.numpy as jnp
        jax_modules = (jax, jnp, jnn, jlax)
    except ImportError:
        jax, jax_modules = None, None
    date = time.strftime("%Y-%m-%d")
    machine = {"date": date, "cores": num_threads(), "vector_bits": vector_register_bits(),
               "cpu": platform.processor() or platform.machine(), "numpy": np.__version__,
               "jax": getattr(jax, "__version__", None)}
    rows = run(selected, jax_modules)
    RESULTS.mkdir(parents=True, exist_ok=True)
    (RESULTS / f"{date}.json").write_text(json.dumps({"machine": machine, "rows": rows}, indent=2) + "\n")
    table = markdown(rows, machine)
    (RESULTS / f"{date}.md").write_text(table)
    chart = bar_chart(rows, RESULTS / f"{date}.png")
    print(table)
    print(f"wrote {RESULTS / (date + '.json')}, {date}.md" + (f", {date}.png" if chart else
                                                              " (no chart: pip install matplotlib)"))


if __name__ == "__main__":
    main(sys.argv[1:])
