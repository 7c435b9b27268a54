"""The persistent compilation cache: a new process's first call, cold against warm.

    python benchmarks/disk_cache.py              # a new dated section in results/disk_cache.md
    python benchmarks/disk_cache.py --repeats 5 --label after --compare before=/path/to/python
    python benchmarks/disk_cache.py --no-write   # print only

Each number is measured in a fresh Python process, after `import mlc` (the import is shown
apart): the first call of a jit function (trace + compile or cache load + run), as wall
time and as the process's CPU time (time.process_time), which other jobs on a shared
machine disturb much less. "cold, cache off": MLC_CACHE=0. "cold, cache on": an empty
cache directory (compile, then store: the link runs on a background thread, so it shows
only in the exit time). "warm": a second process with the cache the first one filled.
Medians of `--repeats` runs each; the machine's load average is recorded with them.

--compare NAME=DIR runs the same children with DIR (a copy of the tree's `python/`
directory, e.g. before a change) first on PYTHONPATH, interleaved with this tree's runs,
so both see the same load.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import textwrap
from pathlib import Path

RESULTS = Path(__file__).resolve().parent / "results" / "disk_cache.md"

CHILD = textwrap.dedent("""
    import json, sys, time
    t0, c0 = time.perf_counter(), time.process_time()
    import numpy as np, mlc, mlc.numpy as mnp, mlc.nn as nn
    t1, c1 = time.perf_counter(), time.process_time()
    rng = np.random.default_rng(0)
    name = sys.argv[1]
    if name == "softmax (256, 512)":
        f, args = mlc.jit(lambda x: nn.softmax(x)), (rng.standard_normal((256, 512)).astype(np.float32),)
    elif name == "layer_norm (256, 512)":
        def ln(x):
            m = mnp.mean(x, axis=-1, keepdims=True)
            return (x - m) / mnp.sqrt(mnp.mean(mnp.square(x - m), axis=-1, keepdims=True) + 1e-5)
        f, args = mlc.jit(ln), (rng.standard_normal((256, 512)).astype(np.float32),)
    elif name == "2-layer MLP loss":
        def mlp(x, w1, w2, y):
            h = mnp.maximum(x @ w1, 0.0)
            return mnp.mean(mnp.square(h @ w2 - y))
        f = mlc.jit(mlp)
        args = (rng.standard_normal((64, 256)).astype(np.float32), rng.standard_normal((256, 512)).astype(np.float32),
                rng.standard_normal((512, 10)).astype(np.float32), rng.standard_normal((64, 10)).astype(np.float32))
    else:
        def chain(x):
            for i in range(20):
                x = mnp.tanh(x) * 1.01 + 0.01
            return x
        f, args = mlc.jit(chain), (rng.standard_normal((256, 512)).astype(np.float32),)
    t2, c2 = time.perf_counter(), time.process_time()
    f(*args)
    t3, c3 = time.perf_counter(), time.process_time()
    hit = next(iter(f._cache.values())).cache_hit
    print(json.dumps({"import_s": t1 - t0, "import_cpu_s": c1 - c0, "first_call_ms": (t3 - t2) * 1e3,
                      "first_call_cpu_ms": (c3 - c2) * 1e3, "hit": hit}))
""")
WORKLOADS = ["softmax (256, 512)", "layer_norm (256, 512)", "2-layer MLP loss", "40-op elementwise chain"]
FIELDS = ("off", "off_cpu", "cold", "cold_cpu", "warm", "warm_cpu", "import", "import_cpu")


def child(name: str, env: dict, python_dir: str | None) -> dict:
    env = {**os.environ, **env}
    if python_dir:
        env["PYTHONPATH"] = python_dir + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    done = subprocess.run([sys.executable, "-c", CHILD, name], env=env, capture_output=True, text=True, check=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


def one_round(name: str, python_dir: str | None) -> dict:
    """cache off, then cold and warm with a fresh cache directory."""
    off = child(name, {"MLC_CACHE": "0"}, python_dir)
    with tempfile.TemporaryDirectory() as cache:
        on = {"MLC_CACHE": "1", "MLC_CACHE_DIR": cache}
        for _attempt in range(3):  # MLC's sources changing in between (an edit) is a miss
            first = child(name, on, python_dir)
            second = child(name, on, python_dir)
            if second["hit"]:
                break
        assert not first["hit"] and second["hit"], (first, second)
    return {"off": off["first_call_ms"], "off_cpu": off["first_call_cpu_ms"],
            "cold": first["first_call_ms"], "cold_cpu": first["first_call_cpu_ms"],
            "warm": second["first_call_ms"], "warm_cpu": second["first_call_cpu_ms"],
            "import": second["import_s"], "import_cpu": second["import_cpu_s"]}


def measure(trees: dict[str, str | None], repeats: int) -> tuple[dict, list[float]]:
    """{tree: {workload: {field: median}}}; the runs of the trees interleaved."""
    runs = {t: {w: [] for w in WORKLOADS} for t in trees}
    loads = [os.getloadavg()[0]]
    for name in WORKLOADS:
        for _ in range(repeats):
            for tree, python_dir in trees.items():
                runs[tree][name].append(one_round(name, python_dir))
        loads.append(os.getloadavg()[0])
        for tree in trees:
            m = {f: statistics.median(r[f] for r in runs[tree][name]) for f in FIELDS}
            print(f"{tree:8s} {name:26s} off {m['off']:7.1f} ({m['off_cpu']:6.1f}) ms  cold {m['cold']:7.1f} "
                  f"({m['cold_cpu']:6.1f}) ms  warm {m['warm']:6.1f} ({m['warm_cpu']:5.1f}) ms  "
                  f"import {m['import']:.2f} ({m['import_cpu']:.2f}) s", flush=True)
    medians = {t: {w: {f: statistics.median(r[f] for r in runs[t][w]) for f in FIELDS} for w in WORKLOADS}
               for t in trees}
    return medians, loads


def section(medians: dict, loads: list[float], repeats: int, note: str) -> str:
    date = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    lines = [f"## {date}", "",
             f"`python benchmarks/disk_cache.py` on {platform.processor() or platform.machine()}, "
             f"{os.cpu_count()} cores shared with other jobs; load average (1 min) "
             f"{min(loads):.1f}-{max(loads):.1f} during the runs. Medians of {repeats} fresh processes "
             f"per cell: wall ms (process CPU ms); `import mlc` in s.", ""]
    if note:
        lines += [note, ""]
    lines += ["| workload | tree | cold, cache off | cold, cache on | warm cache | `import mlc` |",
              "|---|---|---:|---:|---:|---:|"]
    for name in WORKLOADS:
        for tree, m in medians.items():
            m = m[name]
            lines.append(f"| {name} | {tree} | {m['off']:.1f} ({m['off_cpu']:.1f}) | {m['cold']:.1f} "
                         f"({m['cold_cpu']:.1f}) | {m['warm']:.1f} ({m['warm_cpu']:.1f}) | "
                         f"{m['import']:.2f} ({m['import_cpu']:.2f}) |")
    return "\n".join(lines) + "\n"


def main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--label", default="this tree", help="the name of this tree's rows")
    parser.add_argument("--compare", action="append", default=[], metavar="NAME=DIR",
                        help="also run with DIR (a python/ directory) first on PYTHONPATH")
    parser.add_argument("--compare-only", action="store_true", help="run only the --compare trees")
    parser.add_argument("--note", default="", help="a paragraph to put under the section's heading")
    parser.add_argument("--no-write", action="store_true")
    args = parser.parse_args(argv)
    trees: dict[str, str | None] = {}
    for item in args.compare:
        name, _, directory = item.partition("=")
        trees[name] = os.path.abspath(directory)
    if not args.compare_only:
        trees[args.label] = None
    medians, loads = measure(trees, args.repeats)
    text = section(medians, loads, args.repeats, args.note)
    print(text)
    if not args.no_write:
        old = RESULTS.read_text() if RESULTS.exists() else "# Persistent compilation cache: first call in a new process\n"
        RESULTS.write_text(old.rstrip("\n") + "\n\n" + text)
        print(f"appended to {RESULTS}")


if __name__ == "__main__":
    main(sys.argv[1:])
