"""value_and_grad of a 2-layer MLP (256x1024 -> 1024 relu -> 128, MSE): MLC against
jax.jit(jax.value_and_grad) and a hand-written numpy backward pass.

jax (optional) runs in a subprocess: its MLIR bindings and MLC's cannot share a process.
The subprocess stays up and the measurements alternate (rounds of MLC, jax and numpy
medians, then the median of the rounds), so a change in the machine's load mid-run hits
all three alike. Compile time is the first call's. Results go to
benchmarks/results/grad_mlp.{json,md}.

    python benchmarks/grad_mlp.py [--repeats 20]
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import median_ms  # noqa: E402

BATCH, IN, HIDDEN, OUT = 256, 1024, 1024, 128
RESULTS = Path(__file__).resolve().parent / "results"


def make_inputs(seed: int = 0):
    rng = np.random.default_rng(seed)
    params = {"w1": (rng.standard_normal((IN, HIDDEN)) / np.sqrt(IN)).astype(np.float32),
              "b1": np.zeros(HIDDEN, np.float32),
              "w2": (rng.standard_normal((HIDDEN, OUT)) / np.sqrt(HIDDEN)).astype(np.float32),
              "b2": np.zeros(OUT, np.float32)}
    x = rng.standard_normal((BATCH, IN)).astype(np.float32)
    y = rng.standard_normal((BATCH, OUT)).astype(np.float32)
    return params, x, y


def numpy_value_and_grad(params, x, y):
    pre = x @ params["w1"] + params["b1"]
    h = np.maximum(pre, 0)
    out = h @ params["w2"] + params["b2"]
    diff = out - y
    loss = np.mean(diff * diff)
    d_out = (2.0 / diff.size) * diff
    d_h = (d_out @ params["w2"].T) * (pre > 0)
    return loss, {"w1": x.T @ d_h, "b1": d_h.sum(0), "w2": h.T @ d_out, "b2": d_out.sum(0)}


JAX_SCRIPT = r"""
import json, sys, time
import numpy as np
sys.path.insert(0, sys.argv[1])
from grad_mlp import make_inputs
from common import median_ms
import jax, jax.numpy as jnp

def loss(params, x, y):
    h = jax.nn.relu(x @ params["w1"] + params["b1"])
    out = h @ params["w2"] + params["b2"]
    return jnp.mean((out - y) ** 2)

params, x, y = make_inputs()
params = {k: jnp.asarray(v) for k, v in params.items()}
x, y = jnp.asarray(x), jnp.asarray(y)
step = jax.jit(jax.value_and_grad(loss))
start = time.perf_counter()
value, grads = step(params, x, y)
jax.block_until_ready(grads)
compile_s = time.perf_counter() - start
def run(*a):
    return jax.block_until_ready(step(*a))
print(json.dumps({"jax_version": jax.__version__, "compile_s": compile_s, "loss": float(value)}), flush=True)
for line in sys.stdin:  # one median per request: "<repeats>"
    print(json.dumps({"ms": median_ms(run, [params, x, y], int(line))}), flush=True)
"""


class JaxWorker:
    """jax.jit(jax.value_and_grad(loss)) in a subprocess, measuring on request."""

    def __init__(self):
        self.proc = subprocess.Popen([sys.executable, "-c", JAX_SCRIPT, str(Path(__file__).resolve().parent)],
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                     text=True)
        self.info = self._read()

    def _read(self) -> dict:
        line = self.proc.stdout.readline()
        if not line:
            raise RuntimeError(self.proc.stderr.read().strip().splitlines()[-1:] or "jax failed")
        return json.loads(line)

    def median_ms(self, repeats: int) -> float:
        self.proc.stdin.write(f"{repeats}\n")
        self.proc.stdin.flush()
        return self._read()["ms"]

    def close(self) -> None:
        self.proc.stdin.close()
        self.proc.wait(timeout=60)


def start_jax():
    try:
        return JaxWorker()
    except (OSError, RuntimeError, json.JSONDecodeError) as e:
        print(f"jax: not measured ({e})")
        return None


def main(argv=None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeats", type=int, default=10, help="calls per median")
    parser.add_argument("--rounds", type=int, default=5, help="alternating rounds")
    parser.add_argument("--no-save", action="store_true")
    args = parser.parse_args(argv)

    import mlc
    import mlc.nn as nn
    import mlc.numpy as mnp

    def loss(params, x, y):
        h = nn.relu(x @ params["w1"] + params["b1"])
        out = h @ params["w2"] + params["b2"]
        return mnp.mean((out - y) ** 2)

    params, x, y = make_inputs()
    step = mlc.jit(mlc.value_and_grad(loss))
    start = time.perf_counter()
    value, grads = step(params, x, y)
    compile_s = time.perf_counter() - start
    want_value, want = numpy_value_and_grad(params, x, y)
    for k in want:  # the benchmark measures a correct gradient
        np.testing.assert_allclose(grads[k], want[k], rtol=2e-3, atol=1e-5)
    np.testing.assert_allclose(value, want_value, rtol=1e-4)
    load_before = os.getloadavg()[0]
    worker = start_jax()
    rounds = {"mlc": [], "jax": [], "numpy": []}
    for _ in range(args.rounds):
        rounds["mlc"].append(median_ms(step, [params, x, y], args.repeats))
        if worker:
            rounds["jax"].append(worker.median_ms(args.repeats))
        rounds["numpy"].append(median_ms(numpy_value_and_grad, [params, x, y], args.repeats))
    mlc_ms, numpy_ms = statistics.median(rounds["mlc"]), statistics.median(rounds["numpy"])
    jax = dict(worker.info, ms=statistics.median(rounds["jax"])) if worker else None
    if worker:
        worker.close()

    row = {"workload": f"MLP {BATCH}x{IN} -> {HIDDEN} relu -> {OUT}, MSE: value_and_grad",
           "numpy_ms": numpy_ms, "mlc_ms": mlc_ms, "mlc_compile_s": compile_s,
           "jax_ms": jax["ms"] if jax else None, "jax_compile_s": jax["compile_s"] if jax else None,
           "jax_version": jax["jax_version"] if jax else None, "rounds_ms": rounds,
           "openblas_threads": os.environ.get("OPENBLAS_NUM_THREADS", "default"),
           "load_average": [round(load_before, 2), round(os.getloadavg()[0], 2)]}
    if jax:
        np.testing.assert_allclose(jax["loss"], value, rtol=1e-4)
    print(f"{'':12}{'ms':>9}{'compile s':>11}")
    print(f"{'numpy':12}{numpy_ms:9.2f}{'':>11}")
    print(f"{'MLC':12}{mlc_ms:9.2f}{compile_s:11.2f}")
    if jax:
        print(f"{'jax.jit':12}{jax['ms']:9.2f}{jax['compile_s']:11.2f}")
        print(f"MLC / jax.jit speed: {jax['ms'] / mlc_ms:.2f}x")
    if not args.no_save:
        save(row)
    return row


def save(row: dict) -> None:
    """Adds the row to the results (one row per OPENBLAS_NUM_THREADS setting, latest kept)."""
    date = datetime.date.today().isoformat()
    RESULTS.mkdir(exist_ok=True)
    path = RESULTS / "grad_mlp.json"
    rows = json.loads(path.read_text())["rows"] if path.exists() else []
    rows = [r for r in rows if r.get("openblas_threads") != row["openblas_threads"]] + [dict(row, date=date)]
    path.write_text(json.dumps({"unit": "ms (median of round medians)", "rows": rows}, indent=2) + "\n")
    lines = ["# value_and_grad of a 2-layer MLP (`python benchmarks/grad_mlp.py`)", "",
             "Medians of alternating rounds (MLC, jax.jit, numpy); the load average is the machine's",
             "before and after the run (2 cores; other work was running on it).", "",
             "| date | OPENBLAS_NUM_THREADS | numpy ms | MLC ms | jax.jit ms | MLC / jax | MLC compile s | jax compile s | load |",
             "|---|---|---:|---:|---:|---:|---:|---:|---|"]
    for r in rows:
        jax_ms = r["jax_ms"]
        lines.append(f"| {r['date']} | {r['openblas_threads']} | {r['numpy_ms']:.2f} | {r['mlc_ms']:.2f} | "
                     + (f"{jax_ms:.2f} | {jax_ms / r['mlc_ms']:.2f}x | " if jax_ms else "- | - | ")
                     + f"{r['mlc_compile_s']:.2f} | " + (f"{r['jax_compile_s']:.2f}" if jax_ms else "-")
                     + f" | {r['load_average'][0]} -> {r['load_average'][1]} |")
    lines += ["", f"Workload: {rows[-1]['workload']}.", ""]
    (RESULTS / "grad_mlp.md").write_text("\n".join(lines))


if __name__ == "__main__":
    main()
