"""Time of the hlo-optimize pipeline on generated graphs of 1,000, 5,000 and 20,000 ops.

    python benchmarks/compile_time.py    # prints a table, writes benchmarks/results/compile_time.json

Each graph is a random DAG of elementwise ops on tensor<16xf32> values with what a
tracer produces: multiplications by one, repeated subexpressions and dead values. Times are medians of 3 runs of the pass alone (parsing excluded).
"""

from __future__ import annotations

import json
import statistics
import time
from pathlib import Path

import numpy as np

from mlc.compiler import run_passes
from mlc.context import make_context
from mlc.diagnostics import parse_module
from mlc.transforms.hlo_optimize import HloOptimize

RESULTS = Path(__file__).resolve().parent / "results" / "compile_time.json"
T = "tensor<16xf32>"


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


def main() -> None:
    rows = [measure(n) for n in (1000, 5000, 20000)]
    print(f"{'ops':>8}{'hlo-optimize (s)':>18}{'us/op':>8}{'ops left':>10}")
    for r in rows:
        print(f"{r['ops']:8d}{r['seconds']:18.2f}{r['seconds'] / r['ops'] * 1e6:8.0f}{r['hlo_ops_after']:10d}")
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    RESULTS.write_text(json.dumps({"date": time.strftime("%Y-%m-%d"), "results": rows}, indent=2) + "\n")


if __name__ == "__main__":
    main()
