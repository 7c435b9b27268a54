"""Compile time against graph size: MLC beside jax.jit on three generated programs.

    python benchmarks/compile_scaling.py              # every series, ~10 minutes
    python benchmarks/compile_scaling.py chain        # series whose name contains 'chain'
                                                      # (the other series' rows are kept)
    python benchmarks/compile_scaling.py --quick      # the small sizes only

Programs (f32 arrays of SHAPE, built with mlc.numpy and, for jax, jax.numpy):
- chain N: an elementwise chain of N ops, x = x * 1.0001, x = x + 0.5, x = tanh(x), repeated;
- outputs K: a function returning K distinct results x * i + 1;
- wide W: W independent branches tanh(x * (i + 1)) summed into one result.
For each size: trace (python function -> hlo module), lower (the hlo passes: verify,
optimize, fuse, up to the hlo-fused stage) and full compile (`mlc.jit(f).lower(x).compile()`:
every stage and LLVM), each once, wall time in seconds; `compile_cpu_s` is the process CPU
time of the compile (the machine may be shared). The persistent cache is a fresh directory,
so every compile is a miss (and pays for its store). jax.jit's lower + compile run in a child
process (jax cannot be imported in a process that loaded the MLIR bindings); the column is
skipped when jax is not installed. A series stops after the first point whose compile took
more than LIMIT_S. Writes benchmarks/results/compile_scaling.json and compile_scaling.md.
"""

from __future__ import annotations

import json
import os
import platform
import subprocess
import sys
import tempfile
import textwrap
import time
from pathlib import Path

import numpy as np

import mlc
import mlc.numpy as mnp
from mlc.compiler import lower as lower_module
from mlc.context import make_context
from mlc.diagnostics import parse_module
from mlc.runtime import disk_cache

RESULTS = Path(__file__).resolve().parent / "results"
SHAPE = (256,)
LIMIT_S = 60.0
SIZES = {"chain": (100, 200, 400, 800, 1600, 3200, 5000),
         "outputs": (50, 100, 200, 400, 1000),
         "wide": (50, 100, 200, 400, 1000)}
NOTES = "## Notes"  # compile_scaling.md keeps what follows this heading when it is regenerated
QUICK = {"chain": (100, 400, 1600), "outputs": (50, 200), "wide": (50, 200)}


# --- the programs, written once for both libraries (np_ is mlc.numpy or jax.numpy) --------
def chain(np_, n):
    def f(x):
        for i in range(n):
            k = i % 3
            if k == 0:
                x = x * 1.0001
            elif k == 1:
                x = x + 0.5
            else:
                x = np_.tanh(x)
        return x
    return f


def outputs(np_, k):
    def f(x):
        return [x * float(i) + 1.0 for i in range(k)]
    return f


def wide(np_, w):
    def f(x):
        acc = x
        for i in range(w):
            acc = acc + np_.tanh(x * float(i + 1))
        return acc
    return f


PROGRAMS = {"chain": chain, "outputs": outputs, "wide": wide}

# The jax child: the same program source, run with jax.numpy; prints seconds as JSON.
_JAX_CHILD = textwrap.dedent("""
    import json, sys, time
    import numpy as np
    import jax, jax.numpy as jnp
    {programs}
    kind, size, shape = sys.argv[1], int(sys.argv[2]), tuple(json.loads(sys.argv[3]))
    f = {{"chain": chain, "outputs": outputs, "wide": wide}}[kind](jnp, size)
    x = np.ones(shape, np.float32)
    start = time.perf_counter()
    lowered = jax.jit(f).lower(x)
    traced = time.perf_counter()
    cpu = time.process_time()
    lowered.compile()
    print(json.dumps({{"jax_trace_s": traced - start, "jax_compile_s": time.perf_counter() - traced,
                      "jax_compile_cpu_s": time.process_time() - cpu}}))
""")


def jax_version() -> str | None:
    try:
        out = subprocess.run([sys.executable, "-c", "import jax; print(jax.__version__)"],
                             capture_output=True, text=True, timeout=120)
    except (OSError, subprocess.TimeoutExpired):
        return None
    return out.stdout.strip() if out.returncode == 0 else None


def measure_jax(kind: str, size: int) -> dict:
    import inspect
    source = "\n".join(inspect.getsource(PROGRAMS[k]) for k in PROGRAMS)
    script = _JAX_CHILD.format(programs=source)
    env = dict(os.environ, JAX_PLATFORMS="cpu")
    try:
        out = subprocess.run([sys.executable, "-c", script, kind, str(size), json.dumps(SHAPE)],
                             capture_output=True, text=True, timeout=10 * LIMIT_S, env=env)
    except subprocess.TimeoutExpired:
        return {"jax_error": "timeout"}
    if out.returncode != 0:
        return {"jax_error": out.stderr.strip().splitlines()[-1] if out.stderr.strip() else "failed"}
    return json.loads(out.stdout.strip().splitlines()[-1])


def measure_mlc(kind: str, size: int) -> dict:
    f = PROGRAMS[kind](mnp, size)
    x = np.ones(SHAPE, np.float32)
    jitted = mlc.jit(f)
    start = time.perf_counter()
    lowered = jitted.lower(x)
    trace_s = time.perf_counter() - start
    module = parse_module(lowered.hlo_text, make_context(), lowered.name)
    start = time.perf_counter()
    lower_module(module, "hlo-fused", lowered.name)
    hlo_s = time.perf_counter() - start
    del module
    start, cpu = time.perf_counter(), time.process_time()
    compiled = lowered.compile()
    compile_s, compile_cpu_s = time.perf_counter() - start, time.process_time() - cpu
    disk_cache.flush_all()  # the store's link runs on a thread: not in the next measurement
    result = compiled(x)  # the compiled program runs
    first = result[0] if isinstance(result, (list, tuple)) else result
    if not np.all(np.isfinite(first)):
        raise AssertionError(f"{kind} {size}: non-finite result")
    return {"trace_s": trace_s, "hlo_passes_s": hlo_s, "compile_s": compile_s,
            "compile_cpu_s": compile_cpu_s}


def run(series: dict[str, tuple[int, ...]], with_jax: bool) -> list[dict]:
    rows = []
    for kind, sizes in series.items():
        mlc_stopped = jax_stopped = False
        for size in sizes:
            row = {"program": kind, "size": size}
            if not mlc_stopped:
                row.update(measure_mlc(kind, size))
                mlc_stopped = row["compile_s"] > LIMIT_S
            if with_jax and not jax_stopped:
                row.update(measure_jax(kind, size))
                jax_stopped = row.get("jax_compile_s", LIMIT_S + 1) > LIMIT_S
            if len(row) == 2:
                break
            sys.stderr.write(f"{kind:8s} {size:6d}  " + "  ".join(
                f"{k}={v:.2f}" for k, v in row.items() if isinstance(v, float)) + "\n")
            rows.append(row)
    return rows


def markdown(rows: list[dict], machine: dict) -> str:
    lines = [f"MLC compile time against graph size, {machine['date']}: {machine['cpu']}, "
             f"{machine['cores']} cores (shared), f32{list(SHAPE)} arrays, jax "
             f"{machine.get('jax') or 'not installed'}. Seconds, one run each (wall; CPU in parentheses).",
             "",
             "| program | size | MLC trace | MLC hlo passes | MLC compile | jax.jit compile |",
             "|---|---:|---:|---:|---:|---:|"]
    for r in rows:
        def fmt(key):
            return f"{r[key]:.2f}" if key in r else "-"
        mlc_compile = f"{fmt('compile_s')} ({fmt('compile_cpu_s')})" if "compile_s" in r else "-"
        jax_compile = (f"{fmt('jax_compile_s')} ({fmt('jax_compile_cpu_s')})" if "jax_compile_s" in r
                       else r.get("jax_error", "-"))
        lines.append(f"| {r['program']} | {r['size']} | {fmt('trace_s')} | {fmt('hlo_passes_s')} | "
                     f"{mlc_compile} | {jax_compile} |")
    return "\n".join(lines) + "\n"


def main(argv: list[str]) -> None:
    quick = "--quick" in argv
    names = [a for a in argv if not a.startswith("--")]
    sizes = QUICK if quick else SIZES
    series = {k: v for k, v in sizes.items() if not names or any(n in k for n in names)}
    if not series:
        sys.exit(f"no series matches {names}; series: {', '.join(SIZES)}")
    version = jax_version()
    machine = {"date": time.strftime("%Y-%m-%d"), "cores": os.cpu_count(),
               "cpu": platform.processor() or platform.machine(), "numpy": np.__version__,
               "jax": version, "shape": list(SHAPE), "limit_s": LIMIT_S}
    with tempfile.TemporaryDirectory() as cache_dir:
        os.environ["MLC_CACHE_DIR"] = cache_dir  # every compile a miss, as a first call
        rows = run(series, version is not None)
    RESULTS.mkdir(parents=True, exist_ok=True)
    previous = RESULTS / "compile_scaling.json"
    if names and previous.exists():  # a partial run keeps the other series' rows
        kept = [r for r in json.loads(previous.read_text())["rows"] if r["program"] not in series]
        rows = sorted(kept + rows, key=lambda r: (list(SIZES).index(r["program"]), r["size"]))
    (RESULTS / "compile_scaling.json").write_text(json.dumps({"machine": machine, "rows": rows}, indent=2) + "\n")
    table = markdown(rows, machine)
    path = RESULTS / "compile_scaling.md"
    notes = path.read_text().partition(NOTES)[2] if path.exists() else ""  # kept across runs
    path.write_text(table + (f"\n{NOTES}{notes}" if notes else ""))
    print(table)
    print(f"wrote {RESULTS / 'compile_scaling.json'}, compile_scaling.md")


if __name__ == "__main__":
    main(sys.argv[1:])
