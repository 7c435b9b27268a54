"""The CPU performance table: MLC against numpy eager (and jax.jit and IREE when installed).

    python benchmarks/run.py            # all workloads, ~3 minutes
    python benchmarks/run.py softmax    # workloads whose name contains 'softmax'
    python benchmarks/run.py softmax --out /tmp/trial    # results elsewhere (a trial run)
    python benchmarks/run.py --no-iree  # without IREE

Each workload compiles once (timed: trace, every stage and LLVM, `lower(...).compile()`, in
a fresh persistent cache so it is a miss, after a warm-up compile of another function; jax.jit's `lower(...).compile()` timed the same
way after `jax.clear_caches()`), then `repeats` timed calls after a warm-up; the tables quote medians, and every ratio comes from this
same run (numpy's median over the implementation's: above 1 is faster than numpy).
jax.jit runs in this process; IREE in a child process kept up for the run (peers.py: its MLIR
bindings clash with MLC's), compiling jax's StableHLO of the workload (so IREE needs jax) and
timing calls with the inputs already on its device, each including `.to_host()` of the
output. Every implementation's output is checked against numpy on float64-cast inputs.
Writes benchmarks/results/<date>.json, a markdown table <date>.md, and a bar chart of the
ratios <date>.png (when matplotlib is installed: `pip install -e '.[bench]'`, which also
installs jax and IREE).
"""

from __future__ import annotations

import json
import os
import platform
import statistics
import sys
import tempfile
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
from common import PEERS, RTOL, f64, median_ms, np_layer_norm, np_softmax, peer_ratios, ratio_chart
from peers import IreePeer, first_line, start_peer

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


def run_iree(w: Workload, fn, jax_args, args, iree_peer: IreePeer, jax, row: dict) -> None:
    """IREE's columns of one row: jax's StableHLO of the workload compiled and timed in the
    IREE child (its output checked against numpy on float64-cast inputs)."""
    hlo = iree_peer.workdir / "workload.stablehlo.mlir"
    try:  # keep_unused: IREE's @main takes every input
        hlo.write_text(jax.jit(fn, keep_unused=True).lower(*jax_args).as_text())
    except Exception as e:  # noqa: BLE001 - the row says why
        row["iree_failed"] = "no StableHLO: " + first_line(e)
        return
    got = iree_peer.load(hlo, args, w.numpy_fn(*f64(args)))
    if "failed" in got:
        row["iree_failed"] = got["failed"]
        return
    row["iree_compile_s"], row["iree_error"] = got["compile_s"], got["error"]
    row["iree_ms"] = statistics.median(iree_peer.time(w.repeats))
    row["iree_d2h_ms"], row["iree_out_mb"] = statistics.median(iree_peer.last["d2h"]), got["out_mb"]


def run(selected: list[Workload], jax_modules, iree_peer: IreePeer | None = None) -> list[dict]:
    rng = np.random.default_rng(0)
    # Both compilers warmed up first (imports, the first context and JIT, jax's backend), so
    # the first row's compile column times that row's compile alone.
    mlc.jit(lambda x: x * 2 + 1)(np.ones(8, np.float32))
    if jax_modules is not None:
        jax_modules[0].jit(lambda x: x * 2 + 1)(np.ones(8, np.float32)).block_until_ready()
    progress = Progress(len(selected))
    rows = []
    for w in selected:
        progress.step(w.name)
        args = w.make_inputs(rng)
        jitted = mlc.jit(w.mlc_fn)
        start = time.perf_counter()
        compiled = jitted.lower(*args).compile()
        compile_s = time.perf_counter() - start
        np.testing.assert_allclose(compiled(*args), w.numpy_fn(*args), rtol=RTOL, atol=RTOL)
        row = {"workload": w.name, "target": w.target, "compile_s": compile_s,
               "numpy_ms": median_ms(w.numpy_fn, args, w.repeats),
               "mlc_ms": median_ms(jitted, args, w.repeats)}
        if jax_modules is not None and w.jax_fn is not None:
            jax, jnp, jnn, jlax = jax_modules
            jax_args = [jnp.asarray(a) for a in args]
            fn = w.jax_fn(jnp, jnn, jlax)
            jax.clear_caches()  # jax's compile timed like MLC's: trace, lower and compile, nothing cached
            start = time.perf_counter()
            jax.jit(fn).lower(*jax_args).compile()
            row["jax_compile_s"] = time.perf_counter() - start
            row["jax_ms"] = median_ms(jax.jit(fn), jax_args, w.repeats)
            if iree_peer is not None:
                run_iree(w, fn, jax_args, args, iree_peer, jax, row)
        elif iree_peer is not None:
            row["iree_failed"] = "no StableHLO (it comes from jax, not installed)"
        if w.flops:
            for key in ("numpy", "mlc", "jax", "iree"):
                if f"{key}_ms" in row:
                    row[f"{key}_gflops"] = w.flops / row[f"{key}_ms"] / 1e6
        row["mlc_vs_numpy"] = row["numpy_ms"] / row["mlc_ms"]
        for key in PEERS:
            if f"{key}_ms" in row:
                row[f"{key}_vs_numpy"] = row["numpy_ms"] / row[f"{key}_ms"]
        peer_ratios(row)
        rows.append(row)
    progress.close()
    return rows


def markdown(rows: list[dict], machine: dict) -> str:
    lines = [f"MLC benchmark, {machine['date']}: {machine['cores']} threads, {machine['vector_bits']}-bit vectors, "
             f"numpy {machine['numpy']}, jax {machine.get('jax') or 'not installed'}, "
             f"IREE {machine.get('iree') or 'not run'}, load average {machine.get('load', '?')}. Medians in ms; "
             "ratios X / numpy are numpy's time over X's (higher is faster), MLC / peer the peer's time over MLC's "
             "(above 1: MLC is faster); best peer is the faster of jax.jit and IREE (issue 14's ratio).", "",
             "IREE compiles jax.jit's StableHLO (llvm-cpu, `--iree-llvmcpu-target-cpu=host`, local-task device) "
             "in a child process; its times include `.to_host()` of the output"
             + _d2h_note(rows) + ".", "",
             "| workload | numpy | MLC | jax.jit | IREE | MLC / numpy | jax / numpy | IREE / numpy | MLC / jax | "
             "MLC / IREE | MLC / best peer | GFLOP/s MLC (numpy) | compile s MLC (jax, IREE) | target | note |",
             "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---|"]
    for r in rows:
        def fmt(key, spec=".2f", suffix=""):
            return format(r[key], spec) + suffix if key in r else "-"
        gflops = f"{r['mlc_gflops']:.0f} ({r['numpy_gflops']:.0f})" if "mlc_gflops" in r else "-"
        best = f"{r['mlc_vs_best']:.2f}x ({'jax' if r['best_peer'] == 'jax' else 'IREE'})" if "mlc_vs_best" in r else "-"
        peers = [fmt(k) for k in ("jax_compile_s", "iree_compile_s") if k in r]
        comp = fmt("compile_s") + (f" ({', '.join(peers)})" if peers else "")
        note = "; ".join([f"{label} FAILED: {r[f'{k}_failed']}" for k, label in PEERS.items() if f"{k}_failed" in r]
                         + [f"{label} WRONG: error {r[f'{k}_error']:.1e} > {RTOL}" for k, label in PEERS.items()
                            if r.get(f"{k}_error", 0.0) > RTOL])
        lines.append(f"| {r['workload']} | {fmt('numpy_ms')} | {fmt('mlc_ms')} | {fmt('jax_ms')} | {fmt('iree_ms')} | "
                     f"{fmt('mlc_vs_numpy', suffix='x')} | {fmt('jax_vs_numpy', suffix='x')} | "
                     f"{fmt('iree_vs_numpy', suffix='x')} | {fmt('mlc_vs_jax', suffix='x')} | "
                     f"{fmt('mlc_vs_iree', suffix='x')} | {best} | {gflops} | {comp} | {r['target']} | {note or '-'} |")
    return "\n".join(lines) + "\n"


def _d2h_note(rows: list[dict]) -> str:
    rows = [r for r in rows if "iree_d2h_ms" in r]
    if not rows:
        return ""
    r = max(rows, key=lambda r: r["iree_out_mb"])
    return (f" (on {r['workload']}'s {r['iree_out_mb']:.1f} MB output {r['iree_d2h_ms']:.3f} ms of {r['iree_ms']:.2f}: "
            "the local-task device's result buffer is host-visible, `.to_host()` maps it without a copy)")


def bar_chart(rows: list[dict], path: Path) -> bool:
    jax, iree = ([r.get(f"{k}_vs_numpy", 0) for r in rows] if any(f"{k}_vs_numpy" in r for r in rows) else None
                 for k in ("jax", "iree"))
    return ratio_chart(path, [r["workload"] for r in rows], [r["mlc_vs_numpy"] for r in rows], jax,
                       iree_ratios=iree)


def main(argv: list[str]) -> None:
    import argparse
    ap = argparse.ArgumentParser(description="MLC against numpy eager, jax.jit and IREE (the round-1 table).")
    ap.add_argument("names", nargs="*", help="workloads whose name contains one of these (default: all)")
    ap.add_argument("--out", type=Path, default=RESULTS, help="results directory (default benchmarks/results)")
    ap.add_argument("--no-iree", action="store_true", help="leave IREE out")
    opts = ap.parse_args(argv)
    selected = [w for w in workloads() if not opts.names or any(a in w.name for a in opts.names)]
    if not selected:
        sys.exit(f"no workload matches {opts.names}; workloads: {', '.join(w.name for w in workloads())}")
    try:
        import jax
        import jax.lax as jlax
        import jax.nn as jnn
        import jax.numpy as jnp
        jax_modules = (jax, jnp, jnn, jlax)
    except ImportError:
        jax, jax_modules = None, None
    date = time.strftime("%Y-%m-%d")
    with tempfile.TemporaryDirectory() as tmp:
        # A fresh persistent cache: the compile column times a miss, not an earlier run's entry.
        os.environ["MLC_CACHE_DIR"] = str(Path(tmp) / "mlc-cache")
        iree_peer = None if opts.no_iree or jax is None else start_peer(IreePeer, Path(tmp))
        machine = {"date": date, "cores": num_threads(), "vector_bits": vector_register_bits(),
                   "cpu": platform.processor() or platform.machine(), "numpy": np.__version__,
                   "jax": getattr(jax, "__version__", None), "iree": iree_peer.version if iree_peer else None,
                   "load": f"{os.getloadavg()[0]:.1f}"}
        try:
            rows = run(selected, jax_modules, iree_peer)
        finally:
            if iree_peer is not None:
                iree_peer.close()
    out = opts.out
    out.mkdir(parents=True, exist_ok=True)
    (out / f"{date}.json").write_text(json.dumps({"machine": machine, "rows": rows}, indent=2) + "\n")
    table = markdown(rows, machine)
    (out / f"{date}.md").write_text(table)
    chart = bar_chart(rows, out / f"{date}.png")
    print(table)
    print(f"wrote {out / (date + '.json')}, {date}.md" + (f", {date}.png" if chart else
                                                          " (no chart: pip install matplotlib)"))


if __name__ == "__main__":
    main(sys.argv[1:])
