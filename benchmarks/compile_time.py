"""Compile time: the first call of four small programs beside jax.jit's, the compile of the
benchmark table's rows beside jax.jit's, and the hlo-optimize pipeline on generated graphs of
1,000, 5,000 and 20,000 ops.

    python benchmarks/compile_time.py                  # both tables
    python benchmarks/compile_time.py --first-call     # the first-call table only
    python benchmarks/compile_time.py --first-call --label before   # keep these numbers as 'before'
    python benchmarks/compile_time.py --table          # the benchmark table's rows only

First call: softmax and layer_norm on f32[256, 512], a 2-layer MLP's loss (64x128 -> 256 ->
10, mean squared error) and a 40-op elementwise chain (x*c, x+c, tanh, exp(-x), repeated)
on f32[256, 512]. In one process, after a warm-up compile of another function, each program
is jitted anew and called once, REPEATS times: the time of that call (trace, every stage,
LLVM, the persistent cache's store in a fresh directory, the run), wall and process CPU,
medians. jax.jit's first call (trace, lower, XLA compile, run) is timed the same way in a
child process (jax's MLIR bindings cannot share a process with MLC's). Results go to
compile_time.json under the run's label ('after' by default; other labels are kept) and the
table to compile_time.md.

The benchmark table's rows (run.py's workloads: matmuls, an MLP layer, softmax, layer_norm,
conv2d on their large shapes): `lower(...).compile()` alone, no call (their runs take up to
100 ms), after a warm-up of both compilers in this one process (as run.py times them), MLC
with a fresh persistent cache directory each time (a miss) and jax.jit after
`jax.clear_caches()`; MLC and jax.jit alternate per workload, TABLE_REPEATS times each,
medians. run.py's own compile column is one compile per row.

Optimize: each graph is a random DAG of elementwise ops on tensor<16xf32> values with what a
tracer produces: multiplications by one, repeated subexpressions and dead values. Times are
medians of 3 runs of the pass alone (parsing excluded).
"""

from __future__ import annotations

import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import textwrap
import time
from pathlib import Path

import numpy as np

from mlc.compiler import run_passes
from mlc.context import make_context
from mlc.diagnostics import parse_module
from mlc.transforms.hlo_optimize import HloOptimize

RESULTS = Path(__file__).resolve().parent / "results" / "compile_time.json"
TABLE = RESULTS.with_suffix(".md")
NOTES = "## Notes"  # compile_time.md keeps what follows this heading when it is regenerated
T = "tensor<16xf32>"
REPEATS = 5
TABLE_REPEATS = 5
ROUNDS = 5  # alternating rounds of MLC and jax.jit

# --- first call: the programs, written once for both libraries --------------------------
# np_ is mlc.numpy or jax.numpy; nn_ is mlc.nn or jax.nn.
PROGRAMS = textwrap.dedent("""
    def softmax(np_, nn_):
        return nn_.softmax

    def layer_norm(np_, nn_):
        def f(x):
            mean = np_.mean(x, axis=-1, keepdims=True)
            var = np_.mean((x - mean) ** 2, axis=-1, keepdims=True)
            return (x - mean) / np_.sqrt(var + 1e-5)
        return f

    def mlp_loss(np_, nn_):
        def f(x, w1, b1, w2, b2, y):
            h = np_.maximum(x @ w1 + b1, 0.0)
            return np_.mean((h @ w2 + b2 - y) ** 2)
        return f

    def chain40(np_, nn_):
        def f(x):
            for i in range(40):
                k = i % 4
                if k == 0:
                    x = x * 1.0001
                elif k == 1:
                    x = x + 0.5
                elif k == 2:
                    x = np_.tanh(x)
                else:
                    x = np_.exp(-x)
            return x
        return f

    def inputs(name):
        import numpy as np
        rng = np.random.default_rng(0)
        def r(*shape):
            return rng.standard_normal(shape).astype(np.float32)
        if name == "mlp_loss":
            return [r(64, 128), r(128, 256), r(256), r(256, 10), r(10), r(64, 10)]
        return [r(256, 512)]

    NAMES = ["softmax", "layer_norm", "mlp_loss", "chain40"]
""")

_JAX_CHILD = PROGRAMS + textwrap.dedent("""
    import json, statistics, sys, time
    import numpy as np
    import jax, jax.numpy as jnp
    jax.jit(lambda x: x * 2 + 1)(np.ones(8, np.float32)).block_until_ready()  # warm-up
    result = {}
    for name in NAMES:
        args = inputs(name)
        walls, cpus = [], []
        for _ in range(int(sys.argv[1])):
            jax.clear_caches()
            f = jax.jit(globals()[name](jnp, jax.nn))
            start, cpu = time.perf_counter(), time.process_time()
            jax.block_until_ready(f(*args))
            walls.append(time.perf_counter() - start)
            cpus.append(time.process_time() - cpu)
        result[name] = {"wall_s": statistics.median(walls), "cpu_s": statistics.median(cpus)}
    print(json.dumps(result))
""")


def first_call_mlc(repeats: int) -> dict:
    import mlc
    import mlc.nn
    import mlc.numpy
    from mlc.runtime import disk_cache
    namespace: dict = {}
    exec(PROGRAMS, namespace)
    result = {}
    with tempfile.TemporaryDirectory() as cache_root:
        os.environ["MLC_CACHE_DIR"] = os.path.join(cache_root, "warm-up")
        mlc.jit(lambda x: x * 2 + 1)(np.ones(8, np.float32))  # imports, first context, JIT
        for name in namespace["NAMES"]:
            args = namespace["inputs"](name)
            walls, cpus = [], []
            for i in range(repeats):
                os.environ["MLC_CACHE_DIR"] = os.path.join(cache_root, f"{name}{i}")  # a miss
                f = mlc.jit(namespace[name](mlc.numpy, mlc.nn))
                start, cpu = time.perf_counter(), time.process_time()
                f(*args)
                walls.append(time.perf_counter() - start)
                cpus.append(time.process_time() - cpu)
                disk_cache.flush_all()  # the store's link runs on a thread: not in the next call
            result[name] = {"wall_s": statistics.median(walls), "cpu_s": statistics.median(cpus)}
    return result


def first_call_jax(repeats: int) -> dict | None:
    env = dict(os.environ, JAX_PLATFORMS="cpu")
    try:
        out = subprocess.run([sys.executable, "-c", _JAX_CHILD, str(repeats)], capture_output=True,
                             text=True, timeout=600, env=env)
    except (OSError, subprocess.TimeoutExpired):
        return None
    if out.returncode != 0:
        return None
    return json.loads(out.stdout.strip().splitlines()[-1])


def table_compile(repeats: int) -> list[dict]:
    """The benchmark table's rows: median lower(...).compile() seconds (wall, process CPU) of
    MLC and of jax.jit (None without jax), alternating (module docstring)."""
    import mlc
    from mlc.runtime import disk_cache
    from run import workloads
    try:
        import jax
        import jax.lax as jlax
        import jax.nn as jnn
        import jax.numpy as jnp
    except ImportError:
        jax = None
    rng = np.random.default_rng(0)
    rows = []
    with tempfile.TemporaryDirectory() as cache_root:
        os.environ["MLC_CACHE_DIR"] = os.path.join(cache_root, "warm-up")
        mlc.jit(lambda x: x * 2 + 1)(np.ones(8, np.float32))  # imports, first context, JIT
        if jax is not None:
            jax.jit(lambda x: x * 2 + 1)(np.ones(8, np.float32)).block_until_ready()
        for n, w in enumerate(workloads()):
            args = w.make_inputs(rng)
            mlc_wall, mlc_cpu, jax_wall, jax_cpu = [], [], [], []
            for i in range(repeats):
                os.environ["MLC_CACHE_DIR"] = os.path.join(cache_root, f"{n}-{i}")  # a miss
                start, cpu = time.perf_counter(), time.process_time()
                mlc.jit(w.mlc_fn).lower(*args).compile()
                mlc_wall.append(time.perf_counter() - start)
                mlc_cpu.append(time.process_time() - cpu)
                disk_cache.flush_all()  # the store's link runs on a thread: not in the next compile
                if jax is not None and w.jax_fn is not None:
                    jax_args = [jnp.asarray(a) for a in args]
                    fn = w.jax_fn(jnp, jnn, jlax)
                    jax.clear_caches()
                    start, cpu = time.perf_counter(), time.process_time()
                    jax.jit(fn).lower(*jax_args).compile()
                    jax_wall.append(time.perf_counter() - start)
                    jax_cpu.append(time.process_time() - cpu)
            row = {"workload": w.name, "mlc_s": statistics.median(mlc_wall), "mlc_cpu_s": statistics.median(mlc_cpu)}
            if jax_wall:
                row.update(jax_s=statistics.median(jax_wall), jax_cpu_s=statistics.median(jax_cpu))
            rows.append(row)
    return rows


def table_markdown(table: dict) -> str:
    lines = [f"The benchmark table's rows, compile only (`lower(...).compile()`, after a warm-up, "
             f"{table['machine']['date']}, load average {table['machine'].get('load', '?')}): medians of "
             f"{TABLE_REPEATS} compiles each, MLC and jax.jit alternating; seconds, wall (process CPU).",
             "", "| workload | MLC | jax.jit | MLC / jax (wall) |", "|---|---:|---:|---:|"]
    for r in table["rows"]:
        jax_cell = f"{r['jax_s']:.3f} ({r['jax_cpu_s']:.3f})" if "jax_s" in r else "-"
        ratio = f"{r['mlc_s'] / r['jax_s']:.2f}" if "jax_s" in r else "-"
        lines.append(f"| {r['workload']} | {r['mlc_s']:.3f} ({r['mlc_cpu_s']:.3f}) | {jax_cell} | {ratio} |")
    return "\n".join(lines) + "\n"


def _over_rounds(rounds: list[dict]) -> dict:
    """Per program: the median over rounds of each round's medians, and each round's CPU median."""
    return {name: {"wall_s": statistics.median(r[name]["wall_s"] for r in rounds),
                   "cpu_s": statistics.median(r[name]["cpu_s"] for r in rounds),
                   "cpu_rounds_s": [r[name]["cpu_s"] for r in rounds]}
            for name in rounds[0]}


def first_call_markdown(runs: dict) -> str:
    labels = [k for k in runs if k not in ("machine", "jax")]
    head = " | ".join(f"MLC {k}" for k in labels)
    machine = runs["machine"]
    lines = [f"First-call compile time (same process, after a warm-up), {machine['date']}: "
             f"{machine['cpu']}, {machine['cores']} cores shared with other jobs (load average "
             f"{machine.get('load', '?')} when measured: wall time then mostly measures waiting for a "
             f"core, so compare the process CPU times). Seconds: wall (process CPU), the median over "
             f"{ROUNDS} rounds (MLC and jax.jit alternating) of each round's median of {REPEATS} first "
             f"calls; the last column gives the range of the rounds' own ratios.",
             "",
             f"| program | {head} | jax.jit | MLC {labels[-1]} / jax (CPU) |",
             "|---|" + "---:|" * (len(labels) + 2)]
    for name in ("softmax", "layer_norm", "mlp_loss", "chain40"):
        cells = []
        for k in labels + ["jax"]:
            r = runs.get(k, {}).get(name)
            cells.append(f"{r['wall_s']:.3f} ({r['cpu_s']:.3f})" if r else "-")
        last, jax_row = runs[labels[-1]].get(name), runs.get("jax", {}).get(name)
        ratio = f"{last['cpu_s'] / jax_row['cpu_s']:.2f}" if last and jax_row else "-"
        if last and jax_row and "cpu_rounds_s" in last and "cpu_rounds_s" in jax_row:
            per_round = [m / j for m, j in zip(last["cpu_rounds_s"], jax_row["cpu_rounds_s"])]
            ratio += f" ({min(per_round):.2f}-{max(per_round):.2f})"
        lines.append(f"| {name} | " + " | ".join(cells) + f" | {ratio} |")
    return "\n".join(lines) + "\n"


def generate(n_ops: int, seed: int = 0) -> str:
    rng = np.random.default_rng(seed)
    lines = [f"func.func @main(%a: {T}, %b: {T}) -> {T} {{",
             f'  %one = "hlo.constant"() {{value = dense<1.0> : {T}}} : () -> {T}',
             f'  %c = "hlo.constant"() {{value = dense<2.0> : {T}}} : () -> {T}']
    values = ["%a", "%b", "%one", "%c"]
    binary = ["add", "multiply", "subtract", "maximum"]
    for i in range(n_ops):
        kind = rng.integers(0, 6)
        x = values[-1 - rng.integers(0, min(len(values), 8))]
        y = values[-1 - rng.integers(0, min(len(values), 8))]
        name = f"%v{i}"
        if kind == 0:
            lines.append(f'  {name} = "hlo.multiply"({x}, %one) : ({T}, {T}) -> {T}')  # x * 1
        elif kind == 1:
            lines.append(f'  {name} = "hlo.negate"({x}) : ({T}) -> {T}')
        elif kind == 2:
            lines.append(f'  {name} = "hlo.add"(%a, %c) : ({T}, {T}) -> {T}')  # repeats: CSE merges them
        else:
            op = binary[rng.integers(0, len(binary))]
            lines.append(f'  {name} = "hlo.{op}"({x}, {y}) : ({T}, {T}) -> {T}')
        values.append(name)
    lines.append(f"  return {values[-1]} : {T}")
    lines.append("}")
    return "\n".join(lines)


def measure(n_ops: int) -> dict:
    text = generate(n_ops)
    samples, ops_after = [], None
    for _ in range(3):
        module = parse_module(text, make_context())
        start = time.perf_counter()
        run_passes(module, [HloOptimize()])
        samples.append(time.perf_counter() - start)
        ops_after = str(module).count('"hlo.')
    return {"ops": n_ops, "seconds": statistics.median(samples), "hlo_ops_after": ops_after}


def main(argv: list[str]) -> None:
    previous = json.loads(RESULTS.read_text()) if RESULTS.exists() else {}
    data = {"date": time.strftime("%Y-%m-%d"), "results": previous.get("results", []),
            "first_call": previous.get("first_call", {}), "table": previous.get("table")}
    if "--table" in argv:
        data["table"] = {"machine": {"date": data["date"], "load": f"{os.getloadavg()[0]:.1f}"},
                         "rows": table_compile(TABLE_REPEATS)}
        _write(data)
        print(table_markdown(data["table"]))
        return
    label = argv[argv.index("--label") + 1] if "--label" in argv else "after"
    runs = data["first_call"]
    runs["machine"] = {"date": data["date"], "cpu": platform.processor() or platform.machine(),
                       "cores": os.cpu_count(), "load": f"{os.getloadavg()[0]:.1f}"}
    mlc_rounds, jax_rounds = [], []
    for _ in range(ROUNDS):  # alternating, so a slow spell of the shared host hits both
        mlc_rounds.append(first_call_mlc(REPEATS))
        jax_result = first_call_jax(REPEATS)
        if jax_result is not None:
            jax_rounds.append(jax_result)
    runs[label] = _over_rounds(mlc_rounds)
    if jax_rounds:
        runs["jax"] = _over_rounds(jax_rounds)
    runs = {k: runs[k] for k in ["machine", *sorted(k for k in runs if k not in ("machine", "jax", "after")),
                                 "after", "jax"] if k in runs}
    data["first_call"] = runs
    print(first_call_markdown(runs))
    if "--first-call" not in argv:
        rows = [measure(n) for n in (1000, 5000, 20000)]
        print(f"{'ops':>8}{'hlo-optimize (s)':>18}{'us/op':>8}{'ops left':>10}")
        for r in rows:
            print(f"{r['ops']:8d}{r['seconds']:18.2f}{r['seconds'] / r['ops'] * 1e6:8.0f}{r['hlo_ops_after']:10d}")
        data["results"] = rows
    _write(data)


def _write(data: dict) -> None:
    """compile_time.json, and compile_time.md: both tables, then the notes kept from before."""
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    RESULTS.write_text(json.dumps(data, indent=2) + "\n")
    text = first_call_markdown(data["first_call"]) if data["first_call"].get("after") else ""
    if data.get("table"):
        text += "\n" + table_markdown(data["table"])
    notes = TABLE.read_text().partition(NOTES)[2] if TABLE.exists() else ""
    TABLE.write_text(text + (f"\n{NOTES}{notes}" if notes else ""))


if __name__ == "__main__":
    main(sys.argv[1:])
