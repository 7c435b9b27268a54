"""GEMM speed: MLC's own packed kernel (CompileOptions(blas=False)) against OpenBLAS called
from MLC (mlc-blas) and numpy's matmul (the same OpenBLAS), f32 and f64, square and skinny
shapes, one and two threads. Writes benchmarks/results/gemm.md; blas.py's rule cites it.

    python benchmarks/gemm.py [--quick] [--repeat N]
    python benchmarks/gemm.py --small-m [--repeat N]   # only the small-M section of gemm.md
    python benchmarks/gemm.py --int8                   # only the int8 section of gemm.md

Each thread count runs in its own process (OpenBLAS reads OPENBLAS_NUM_THREADS when it is
loaded). With one thread the three versions are timed interleaved, call by call, so a load
spike from other processes hits all of them alike; with two, each runs its rounds back to
back after a pause (OpenBLAS's spinning helper thread would otherwise slow the next call); each GFLOP/s number is the best of the rounds
(the least disturbed call); the ratio columns compare own to
OpenBLAS by best wall time and by median process CPU time per call (for one thread the
CPU time does not count the time other processes held the core: the steadiest number on a
shared machine). Each thread count runs `--repeat` times (default 3) in fresh processes and
every column is the median over those runs.

`--small-m` times the skinny shapes of recurrent cells and small-batch dense layers (M from
4 to 256 rows against K x N weights; blas.FEW_ROWS comes from it) and rewrites only
its own section of gemm.md: per-call medians of wall and process CPU time, one and two
threads, each repeat a fresh process per thread count, the thread counts alternating.

`--int8` times int8 x int8 -> int32 products (lax.dot_general with preferred_element_type)
on MLC's packed kernel with VNNI's int16-pair multiply-add (where the host has it) and with
int32 multiplies and adds (VNNI off), against numpy (int32 matmul: numpy has no integer
BLAS) and jax.jit (in a child process, when installed); medians of interleaved calls.
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import time

SQUARE = [64, 128, 256, 512, 1024, 2048]
SKINNY = [(32, 1024, 1024), (1024, 1024, 32), (1024, 64, 1024), (4096, 256, 64), (8 * 512, 64, 512)]
F64 = [256, 1024]


def measure(threads: int, quick: bool) -> list[dict]:
    import numpy as np

    import mlc
    import mlc.codegen.blas as blas
    from mlc import CompileOptions

    blas.MIN_MNK = 1  # the mlc_blas version calls OpenBLAS at every size (the rule is what is measured)
    blas.OWN_F32_MIN_BITS = 1 << 30  # f32 too, at any vector width
    rows = []
    shapes = [(n, n, n, "f32") for n in SQUARE if not (quick and n > 1024)]
    shapes += [(m, k, n, "f32") for m, k, n in SKINNY] + [(n, n, n, "f64") for n in F64]
    rng = np.random.default_rng(0)
    for m, k, n, dt in shapes:
        dtype = np.float32 if dt == "f32" else np.float64
        a, b = rng.standard_normal((m, k)).astype(dtype), rng.standard_normal((k, n)).astype(dtype)
        own = mlc.jit(lambda x, y: x @ y, options=CompileOptions(blas=False, threads=threads))
        blas = mlc.jit(lambda x, y: x @ y, options=CompileOptions(blas=True, threads=threads))
        fns = {"own": own, "mlc_blas": blas, "numpy": np.matmul}
        for f in fns.values():
            f(a, b)
        flops = 2.0 * m * n * k
        seconds_per_round = max(flops / 20e9, 1e-4)
        rounds = max(5, min(41, int(1.5 / seconds_per_round / 3)))
        if quick:
            rounds = max(5, rounds // 3)
        wall = {name: [] for name in fns}
        cpu = {name: [] for name in fns}
        def timed(name, f):
            start, start_cpu = time.perf_counter(), time.process_time()
            f(a, b)
            cpu[name].append(time.process_time() - start_cpu)
            wall[name].append(time.perf_counter() - start)

        if threads == 1:
            for _ in range(rounds):
                for name, f in fns.items():
                    timed(name, f)
        else:
            # Two threads: OpenBLAS's helper thread keeps spinning on a core for a while
            # after each call, which would slow whichever call comes next: each version
            # runs its rounds back to back, after a pause that lets that thread sleep.
            for name, f in fns.items():
                time.sleep(0.3)
                f(a, b)
                for _ in range(rounds):
                    timed(name, f)
        best = {name: flops / min(v) / 1e9 for name, v in wall.items()}
        # CPU seconds of the process per call: what one thread computes, whatever else the
        # machine runs (two threads: includes OpenBLAS's and MLC's pool's spinning).
        cpu_ratio = statistics.median(cpu["mlc_blas"]) / statistics.median(cpu["own"])
        row = {"m": m, "k": k, "n": n, "dtype": dt, "threads": threads, "rounds": rounds, **best,
               "own_over_blas": best["own"] / best["mlc_blas"], "own_over_blas_cpu": cpu_ratio}
        rows.append(row)
        print(json.dumps(row), flush=True)
    return rows


SMALL_M = [4, 8, 12, 16, 24, 32, 48, 64, 128, 256]
SMALL_M_KN = [(256, 1536), (512, 1536), (256, 4096), (512, 512), (1024, 1024), (768, 3072), (3072, 768),
              (512, 2048)]
SMALL_M_TITLE = "## Small M: the packed kernel or OpenBLAS for few rows"


def small_m(threads: int) -> list[dict]:
    """f32 x[M, K] @ w[K, N] over SMALL_M x SMALL_M_KN: MLC's packed kernel, MLC's OpenBLAS
    call (MIN_MNK lowered to 1) and numpy.matmul; per version the median wall and process
    CPU seconds per call. One thread: the versions interleaved call by call. Two: in
    batches, rotating which goes first, each after a pause (OpenBLAS's helper thread spins
    on a core after a call and would slow whatever runs next)."""
    import numpy as np

    import mlc
    import mlc.codegen.blas as blas
    from mlc import CompileOptions

    blas.MIN_MNK = 1
    blas.OWN_F32_MIN_BITS = 1 << 30
    blas.PACKED_MIN_MNK = 0  # the packed kernel even where register tiles would take it
    rng = np.random.default_rng(0)
    rows = []
    for k, n in SMALL_M_KN:
        w = rng.standard_normal((k, n)).astype(np.float32)
        for m in SMALL_M:
            x = rng.standard_normal((m, k)).astype(np.float32)
            fns = {"own": mlc.jit(lambda x, y: x @ y, options=CompileOptions(blas=False, threads=threads)),
                   "mlc_blas": mlc.jit(lambda x, y: x @ y, options=CompileOptions(blas=True, threads=threads)),
                   "numpy": np.matmul}
            for f in fns.values():
                f(x, w)
            start = time.perf_counter()
            fns["numpy"](x, w)
            # ~0.25 s of calls per version, 15..61 of them
            calls = max(15, min(61, int(0.25 / max(time.perf_counter() - start, 1e-6))))
            wall = {name: [] for name in fns}
            cpu = {name: [] for name in fns}

            def timed(name):
                start, start_cpu = time.perf_counter(), time.process_time()
                fns[name](x, w)
                cpu[name].append(time.process_time() - start_cpu)
                wall[name].append(time.perf_counter() - start)

            names = list(fns)
            if threads == 1:
                for _ in range(calls):
                    for name in names:
                        timed(name)
            else:
                for batch in range(2):
                    for name in names[batch:] + names[:batch]:
                        time.sleep(0.2)
                        fns[name](x, w)
                        for _ in range((calls + 1) // 2):
                            timed(name)
            row = {"m": m, "k": k, "n": n, "threads": threads, "calls": calls}
            for name in names:
                row[name] = statistics.median(wall[name]) * 1e6
                row[name + "_best"] = min(wall[name]) * 1e6
                row[name + "_cpu"] = statistics.median(cpu[name]) * 1e6
            rows.append(row)
            print(json.dumps(row), flush=True)
    return rows


def small_m_report(repeats: int) -> None:
    """Runs small_m in fresh processes (`repeats` per thread count, alternating) and writes
    the medians as the small-M section of gemm.md, keeping the rest of the file."""
    runs = {1: [], 2: []}
    for _ in range(repeats):
        for threads in (1, 2):
            env = dict(os.environ, OPENBLAS_NUM_THREADS=str(threads), MLC_NUM_THREADS=str(threads), MLC_CACHE="0")
            out = subprocess.run([sys.executable, __file__, "--small-m-child"], env=env, capture_output=True,
                                 text=True, check=True).stdout
            runs[threads].append([json.loads(line) for line in out.splitlines() if line.startswith("{")])
            print(out, end="", flush=True)  # the raw rows, for the record
            print(f"threads {threads}: run {len(runs[threads])} of {repeats} done", flush=True)
    load = os.getloadavg()
    lines = [SMALL_M_TITLE, "",
             f"`python benchmarks/gemm.py --small-m --repeat {repeats}`: f32 x[M, K] @ w[K, N], microseconds per "
             f"call, the median over the calls of a run, then the median of {repeats} runs (fresh processes, "
             "the thread counts alternating); 1-minute load average "
             f"{load[0]:.1f} at the end. `own` = MLC's packed GEMM, `blas` = MLC's OpenBLAS call, `numpy` = "
             "numpy.matmul. One thread: median wall and process CPU time. Two threads (each version in "
             "batches after a pause): the best wall time (the least disturbed call: with another "
             "process on the machine OpenBLAS's two threads often lost a whole scheduler slice, 8-16 ms, "
             "per call) and the ratio of medians; CPU time there counts the helper threads' spinning. "
             "`own/blas` < 1: the packed kernel is faster.", "",
             "| M | K x N | 1T own | 1T blas | 1T numpy | 1T own/blas wall | 1T own/blas CPU "
             "| 2T own best | 2T blas best | 2T numpy best | 2T own/blas best | 2T own/blas median |",
             "|---|---|---|---|---|---|---|---|---|---|---|---|"]
    def med(results, key):
        return statistics.median(r[key] for r in results)
    for one, two in zip(zip(*runs[1]), zip(*runs[2])):
        r = one[0]
        o1, b1, n1 = med(one, "own"), med(one, "mlc_blas"), med(one, "numpy")
        oc, bc = med(one, "own_cpu"), med(one, "mlc_blas_cpu")
        o2, b2, n2 = med(two, "own_best"), med(two, "mlc_blas_best"), med(two, "numpy_best")
        lines.append(f"| {r['m']} | {r['k']} x {r['n']} | {o1:.0f} | {b1:.0f} | {n1:.0f} | {o1 / b1:.2f} | "
                     f"{oc / bc:.2f} | {o2:.0f} | {b2:.0f} | {n2:.0f} | {o2 / b2:.2f} | "
                     f"{med(two, 'own') / med(two, 'mlc_blas'):.2f} |")
    _write_section(SMALL_M_TITLE, lines)


def _write_section(title: str, lines: list[str]) -> None:
    """Puts `lines` (starting with `title`) into gemm.md in place of the section of that
    title, up to the next heading of its level, or at the end; the rest is kept."""
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "results", "gemm.md")
    text = open(path).read() if os.path.exists(path) else ""
    section = "\n".join(lines) + "\n"
    if title in text:
        head, rest = text.split(title, 1)
        tail = rest.split("\n## ", 1)
        text = head + section + ("\n## " + tail[1] if len(tail) > 1 else "")
    else:
        text = text.rstrip("\n") + "\n\n" + section
    with open(path, "w") as f:
        f.write(text)
    print(section)


INT8_TITLE = "## int8 x int8 -> int32: VNNI or int32 multiply-adds"
INT8_SHAPES = [(256, 256, 256), (512, 512, 512), (1024, 1024, 1024), (2048, 2048, 2048), (64, 4096, 1024)]
_JAX_INT8 = """
import json, sys, time, numpy as np, jax, jax.numpy as jnp
for m, k, n in json.loads(sys.argv[1]):
    rng = np.random.default_rng(0)
    a = jnp.asarray(rng.integers(-128, 128, (m, k)).astype(np.int8))
    b = jnp.asarray(rng.integers(-128, 128, (k, n)).astype(np.int8))
    f = jax.jit(lambda x, y: jax.lax.dot_general(x, y, (((1,), (0,)), ((), ())), preferred_element_type=jnp.int32))
    f(a, b).block_until_ready()
    ts = []
    for _ in range(max(5, min(200, int(2e9 / (m * k * n))))):
        t0 = time.perf_counter(); f(a, b).block_until_ready(); ts.append(time.perf_counter() - t0)
    print(json.dumps({"m": m, "k": k, "n": n, "jax": float(np.median(ts))}), flush=True)
"""


def int8_report() -> None:
    """int8 x int8 -> int32 on MLC (VNNI kernel, int32 kernel), numpy and jax.jit."""
    import numpy as np

    import mlc
    import mlc.codegen.blas as blas
    import mlc.lax as lax
    from mlc import CompileOptions
    from mlc.codegen.target import int16_pair_dot, vector_register_bits

    has_vnni = int16_pair_dot(vector_register_bits())
    jax_times = {}
    try:
        out = subprocess.run([sys.executable, "-c", _JAX_INT8, json.dumps(INT8_SHAPES)], capture_output=True,
                             text=True, timeout=600).stdout
        jax_times = {(r["m"], r["k"], r["n"]): r["jax"] for r in map(json.loads, out.split("\n")[:-1])}
    except (OSError, subprocess.SubprocessError, ValueError):
        pass
    fn = lambda x, y: lax.dot_general(x, y, (((1,), (0,)), ((), ())), preferred_element_type=np.int32)  # noqa: E731
    rows = []
    for m, k, n in INT8_SHAPES:
        rng = np.random.default_rng(0)
        a, b = rng.integers(-128, 128, (m, k)).astype(np.int8), rng.integers(-128, 128, (k, n)).astype(np.int8)
        want = a.astype(np.int32) @ b.astype(np.int32)
        versions = {}
        saved = blas.int16_pair_dot
        for name, vnni in (("vnni", True), ("int32", False)):
            if name == "vnni" and not has_vnni:
                continue
            blas.int16_pair_dot = saved if vnni else (lambda bits: False)
            f = mlc.jit(fn, options=CompileOptions())
            assert np.array_equal(f(a, b), want)
            versions[name] = f
        blas.int16_pair_dot = saved
        if m * k * n <= 1 << 28:  # numpy's integer matmul takes seconds above (no BLAS)
            versions["numpy"] = lambda x, y: x.astype(np.int32) @ y.astype(np.int32)
        calls = max(3, min(100, int(1e9 / (m * k * n))))
        samples = {name: [] for name in versions}
        for _ in range(calls):  # interleaved: a load spike hits every version alike
            for name, f in versions.items():
                t0 = time.perf_counter()
                f(a, b)
                samples[name].append(time.perf_counter() - t0)
        row = {"m": m, "k": k, "n": n, **{name: statistics.median(t) for name, t in samples.items()}}
        if (m, k, n) in jax_times:
            row["jax"] = jax_times[(m, k, n)]
        rows.append(row)
        print(json.dumps(row), flush=True)
    load = os.getloadavg()
    lines = [INT8_TITLE, "",
             f"`python benchmarks/gemm.py --int8` on this host ({_host()}; VNNI: "
             f"{'yes' if has_vnni else 'no'}), two threads, milliseconds per call (medians of interleaved "
             f"calls; jax.jit in a child process, timed alone), GOP/s = 2MNK / time; 1-minute load "
             f"average {load[0]:.1f} at the end. `vnni`: the packed kernel reading the int8 operands, "
             "one vpdpwssd per vector (two k per int32 lane); `int32`: the same kernel with int32 "
             "multiplies and adds; `numpy`: int32 matmul of the widened operands (not timed above "
             "2^28 multiply-adds: seconds per call). vpdpwssd takes two int16 products per int32 lane; "
             "VNNI's vpdpbusd takes four (unsigned x signed bytes) and would double the kernel's peak, "
             "but int8 x int8 needs an offset of one operand and a column-sum correction: not done.", "",
             "| M x K x N | MLC vnni ms | MLC int32 ms | numpy ms | jax.jit ms | vnni GOP/s | vnni / int32 | vnni / jax |",
             "|---|---:|---:|---:|---:|---:|---:|---:|"]

    def cell(r, key, scale=1e3):
        return f"{r[key] * scale:.3f}" if key in r else "-"

    for r in rows:
        gops = f"{2 * r['m'] * r['k'] * r['n'] / r['vnni'] / 1e9:.0f}" if "vnni" in r else "-"
        speedup = f"{r['int32'] / r['vnni']:.2f}x" if "vnni" in r else "-"
        vs_jax = f"{r['jax'] / r['vnni']:.2f}x" if "vnni" in r and "jax" in r else "-"
        lines.append(f"| {r['m']} x {r['k']} x {r['n']} | {cell(r, 'vnni')} | {cell(r, 'int32')} | "
                     f"{cell(r, 'numpy')} | {cell(r, 'jax')} | {gops} | {speedup} | {vs_jax} |")
    _write_section(INT8_TITLE, lines)


def _host() -> str:
    """The CPU model and vector extensions, from /proc/cpuinfo (what the numbers depend on)."""
    from mlc.codegen.target import cpu_flags, host_vector_bits
    model = "unknown CPU"
    try:
        with open("/proc/cpuinfo") as f:
            model = next((line.split(":", 1)[1].strip() for line in f if line.startswith("model name")), model)
    except OSError:
        pass
    isa = {512: "AVX-512", 256: "AVX2", 128: "SSE"}[host_vector_bits()]
    return f"{model}, {os.cpu_count()} cores, {isa}{' + FMA' if 'fma' in cpu_flags() else ''}"


def tiled_vs_packed() -> list[dict]:
    """Small f32 matmuls, one thread, BLAS off: mlc-tile-matmul's register tiles against the
    packed kernel (blas.PACKED_MIN_MNK forced either way); median process CPU time of 10
    calls, as GFLOP/s."""
    import numpy as np

    import mlc
    import mlc.codegen.blas as blas
    from mlc import CompileOptions

    rows = []
    for m, k, n in [(16, 16, 16), (32, 32, 64), (64, 64, 64), (128, 128, 128), (256, 256, 256)]:
        a, b = np.ones((m, k), np.float32), np.ones((k, n), np.float32)
        row = {"m": m, "k": k, "n": n}
        saved = blas.PACKED_MIN_MNK
        for name, threshold in (("tiled", 1 << 62), ("packed", 0)):
            blas.PACKED_MIN_MNK = threshold
            f = mlc.jit(lambda x, y: x @ y, options=CompileOptions(blas=False, threads=1))
            row[name] = 2.0 * m * n * k / _median_cpu_seconds(f, a, b) / 1e9
        blas.PACKED_MIN_MNK = saved
        rows.append(row)
        print(json.dumps(row), flush=True)
    return rows


def _median_cpu_seconds(f, *args) -> float:
    """Process CPU seconds per call of f(*args): after one warm-up call, the median of 21
    samples of 10 calls each."""
    f(*args)
    samples = []
    for _ in range(21):
        start = time.process_time()
        for _ in range(10):
            f(*args)
        samples.append((time.process_time() - start) / 10)
    return statistics.median(samples)


def epilogue() -> list[dict]:
    """relu(x @ w + b), one thread, BLAS off: register tiles with the epilogue fused, against
    the packed kernel and a separate epilogue loop (tile_matmul.EPILOGUE_TILED_MAX_MNK forced)."""
    import numpy as np

    import mlc
    import mlc.codegen.tile_matmul as matmul
    import mlc.nn as nn
    from mlc import CompileOptions

    rows = []
    for m, k, n in [(128, 64, 64), (128, 128, 128), (256, 128, 256), (256, 256, 256)]:
        x, w, b = np.ones((m, k), np.float32), np.ones((k, n), np.float32), np.ones(n, np.float32)
        row = {"m": m, "k": k, "n": n, "epilogue": True}
        saved = matmul.EPILOGUE_TILED_MAX_MNK
        for name, threshold in (("tiled", 1 << 62), ("packed", 0)):
            matmul.EPILOGUE_TILED_MAX_MNK = threshold
            f = mlc.jit(lambda x, w, b: nn.relu(x @ w + b), options=CompileOptions(blas=False, threads=1))
            row[name] = 2.0 * m * n * k / _median_cpu_seconds(f, x, w, b) / 1e9
        matmul.EPILOGUE_TILED_MAX_MNK = saved
        rows.append(row)
        print(json.dumps(row), flush=True)
    return rows


def main() -> None:
    quick = "--quick" in sys.argv
    if "--child" in sys.argv:
        measure(int(os.environ["MLC_NUM_THREADS"]), quick)
        return
    if "--small-m-child" in sys.argv:
        small_m(int(os.environ["MLC_NUM_THREADS"]))
        return
    repeats = int(sys.argv[sys.argv.index("--repeat") + 1]) if "--repeat" in sys.argv else 3
    if "--small-m" in sys.argv:
        small_m_report(repeats)
        return
    if "--int8" in sys.argv:
        os.environ["MLC_CACHE"] = "0"  # the two kernels must really be compiled
        int8_report()
        return
    if "--small" in sys.argv:
        tiled_vs_packed()
        epilogue()
        return
    rows = []
    for threads in (1, 2):
        env = dict(os.environ, OPENBLAS_NUM_THREADS=str(threads), MLC_NUM_THREADS=str(threads), MLC_CACHE="0")
        runs = []
        for _ in range(repeats):  # separate processes: the median of the runs is reported
            out = subprocess.run([sys.executable, __file__, "--child"] + (["--quick"] if quick else []),
                                 env=env, capture_output=True, text=True, check=True).stdout
            runs.append([json.loads(line) for line in out.splitlines() if line.startswith("{")])
        for results in zip(*runs):
            row = dict(results[0])
            for key in ("own", "mlc_blas", "numpy", "own_over_blas", "own_over_blas_cpu"):
                row[key] = statistics.median(r[key] for r in results)
            rows.append(row)
    env = dict(os.environ, OPENBLAS_NUM_THREADS="1", MLC_NUM_THREADS="1", MLC_CACHE="0")
    out = subprocess.run([sys.executable, __file__, "--small"], env=env, capture_output=True, text=True,
                         check=True).stdout
    small = [json.loads(line) for line in out.splitlines() if line.startswith("{")]
    load = os.getloadavg()
    lines = ["# GEMM: MLC's packed kernel vs OpenBLAS", "",
             f"`python benchmarks/gemm.py` on {_host()}; "
             f"1-minute load average {load[0]:.1f} at the end (other jobs may share the machine: "
             "the ratio columns are the comparable numbers: "
             "one thread interleaves the three versions call by call, two threads run each version "
             "back to back after a pause; with two, OpenBLAS's jobs (mlc_blas and numpy) run on MLC's "
             "thread pool, as whenever MLC is loaded: runtime/parallel_runtime.c).", "",
             f"GFLOP/s (best of the interleaved rounds, wall time; median of {repeats} runs); `own` = MLC's packed GEMM "
             "(`CompileOptions(blas=False)`), `mlc_blas` = MLC calling OpenBLAS (mlc-blas, its size "
             "rule lowered to 1 so every size is a call), "
             "`numpy` = numpy.matmul (same OpenBLAS, OPENBLAS_NUM_THREADS = threads).", "",
             "| M x K x N | dtype | threads | own | mlc_blas | numpy | own / OpenBLAS (wall) | own / OpenBLAS (CPU time) |",
             "|---|---|---|---|---|---|---|---|"]
    for r in rows:
        lines.append(f"| {r['m']} x {r['k']} x {r['n']} | {r['dtype']} | {r['threads']} | {r['own']:.1f} | "
                     f"{r['mlc_blas']:.1f} | {r['numpy']:.1f} | {r['own_over_blas']:.2f} | {r['own_over_blas_cpu']:.2f} |")
    lines += ["", "## Small matmuls: register tiles (mlc-tile-matmul) or the packed kernel", "",
              "One thread, BLAS off, GFLOP/s from the median process CPU time of 10 calls "
              "(`blas.PACKED_MIN_MNK` forced each way).", "",
              "| M x K x N | tiled | packed |", "|---|---|---|"]
    lines += [f"| {r['m']} x {r['k']} x {r['n']} | {r['tiled']:.1f} | {r['packed']:.1f} |" for r in small
              if "epilogue" not in r]
    lines += ["", "## With an epilogue: relu(x @ w + b)", "",
              "One thread, BLAS off, GFLOP/s (CPU time): register tiles with the bias and relu "
              "fused (`tiled`) against the packed kernel and a separate epilogue loop "
              "(`tile_matmul.EPILOGUE_TILED_MAX_MNK` forced each way).", "",
              "| M x K x N | tiled + fused | packed + loop |", "|---|---|---|"]
    lines += [f"| {r['m']} x {r['k']} x {r['n']} | {r['tiled']:.1f} | {r['packed']:.1f} |" for r in small
              if "epilogue" in r]
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "results", "gemm.md")
    previous = open(path).read() if os.path.exists(path) else ""
    for title in (SMALL_M_TITLE, INT8_TITLE):  # measured separately (--small-m, --int8): kept
        if title in previous:
            lines += ["", title + previous.split(title, 1)[1].split("\n## ", 1)[0].rstrip("\n")]
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
