"""The long mode: run the three fuzzers until time is up, shrink and save every failure.

Each round runs one hypothesis search per fuzzer (hlo programs, mutants, numpy programs)
with a fresh seed; checks run in a worker process (sandbox.py). A failing example is
shrunk by hypothesis (at most `shrink_seconds` of new checks per failure) and written to
`out/NNN-<fuzzer>-<kind>/`: `program.mlir` (or `program.py`), `inputs.npz` (arg0, arg1...)
and `description.txt` (one line). Failures are grouped into distinct signatures: the
fuzzer, the failure kind, and the ops of the minimized program.
"""

from __future__ import annotations

import hashlib
import os
import pickle
import re
import time

import numpy as np
from hypothesis import HealthCheck, given, seed, settings

from .hlo_programs import hlo_programs
from .known import known
from .mutations import mutants
from .numpy_programs import numpy_programs
from .sandbox import Worker

FUZZERS = ("hlo", "mutant", "numpy")


def _key(obj) -> str:
    return hashlib.sha1(pickle.dumps(obj)).hexdigest()


def _payload(fuzzer: str, example):
    if fuzzer == "hlo":
        return (example.text, example.inputs, example.tolerance, example.terms)
    if fuzzer == "mutant":
        return (example[1],)
    return (example,)


def _strategy(fuzzer: str):
    return {"hlo": hlo_programs(), "mutant": mutants(), "numpy": numpy_programs()}[fuzzer]


def signature(fuzzer: str, example, kind: str, message: str) -> str:
    if fuzzer == "hlo":
        found = re.findall(r'"hlo\.(\w+)"|\b(scf\.(?:if|while|index_switch))\b', example.text)
        ops = ",".join(sorted({op or region for op, region in found}))
    elif fuzzer == "numpy":
        ops = ",".join(s.op for s in example.steps)
    else:
        ops = example[0] + ":" + re.sub(r"\d+", "N", message.split(":")[0])
    return f"{fuzzer}/{kind}/{ops}"


def write_failure(out: str, index: int, fuzzer: str, example, kind: str, message: str) -> str:
    path = os.path.join(out, f"{index:03d}-{fuzzer}-{kind}")
    os.makedirs(path, exist_ok=True)
    line = f"{fuzzer} {kind}: {message}".replace("\n", " ")
    if fuzzer == "hlo":
        with open(os.path.join(path, "program.mlir"), "w") as f:
            f.write(example.text)
        np.savez(os.path.join(path, "inputs.npz"), **{f"arg{i}": a for i, a in enumerate(example.inputs)})
        line += f" | tolerance {example.tolerance}, terms {example.terms}"
    elif fuzzer == "numpy":
        from .numpy_programs import reproducer
        with open(os.path.join(path, "program.py"), "w") as f:
            f.write(reproducer(example))
        names = ["x", "y"]
        np.savez(os.path.join(path, "inputs.npz"), **{names[i]: a for i, a in enumerate(example.inputs)})
    else:
        with open(os.path.join(path, "program.mlir"), "w") as f:
            f.write(example[1])
        line += f" | mutation {example[0]}"
    with open(os.path.join(path, "description.txt"), "w") as f:
        f.write(line + "\n")
    return path


def _reproducer(fuzzer: str, example) -> str:
    return example.text if fuzzer == "hlo" else example[1] if fuzzer == "mutant" else example.source()


def run_one(worker: Worker, fuzzer: str, seed_value: int, examples: int, deadline: float,
            stats: dict, shrink_seconds: float = 90.0, skip_known: bool = False):
    """One hypothesis search; the shrunk failure (example, kind, message) or None."""
    failing: dict = {}
    state = {"first": None, "last": None}

    @seed(seed_value)
    @settings(max_examples=examples, deadline=None, database=None, derandomize=False,
              suppress_health_check=list(HealthCheck), print_blob=False)
    @given(_strategy(fuzzer))
    def search(example):
        key = _key(_payload(fuzzer, example))
        if key in failing:
            state["last"] = (example,) + failing[key]
            raise AssertionError(failing[key][1])
        if state["first"] is not None and time.monotonic() - state["first"] > shrink_seconds:
            return  # the shrink budget is spent: keep the smallest failure found so far
        if state["first"] is None and time.monotonic() > deadline:
            return
        stats[fuzzer] = stats.get(fuzzer, 0) + (state["first"] is None)
        result = worker.call(fuzzer, *_payload(fuzzer, example))
        if result is not None and skip_known and known(result[0], result[1], _reproducer(fuzzer, example)):
            stats["known"] = stats.get("known", 0) + 1
            result = None
        if result is not None:
            failing[key] = result
            state["first"] = state["first"] or time.monotonic()
            state["last"] = (example,) + tuple(result)
            raise AssertionError(result[1])

    try:
        search()
    except Exception:
        if state["last"] is None:
            raise
        return state["last"]
    return None


def main(minutes: float, seed_value: int = 0, out: str = "fuzz-failures", fuzzers=FUZZERS,
         examples_per_round: int = 40, skip_known: bool = False) -> int:
    deadline = time.monotonic() + minutes * 60
    os.makedirs(out, exist_ok=True)
    worker = Worker()
    stats: dict = {}
    failures, signatures = [], {}
    round_ = 0
    try:
        while time.monotonic() < deadline:
            for fuzzer in fuzzers:
                if time.monotonic() >= deadline:
                    break
                try:
                    found = run_one(worker, fuzzer, seed_value * 100003 + round_, examples_per_round,
                                    deadline, stats, skip_known=skip_known)
                except Exception as exc:  # a generator bug: reported, the run goes on
                    print(f"FUZZER ERROR ({fuzzer}, seed {seed_value * 100003 + round_}): "
                          f"{type(exc).__name__}: {str(exc)[:300]}", flush=True)
                    continue
                if found is None:
                    continue
                example, kind, message = found
                sig = signature(fuzzer, example, kind, message)
                path = write_failure(out, len(failures), fuzzer, example, kind, message)
                failures.append(path)
                signatures.setdefault(sig, []).append(path)
                print(f"FAILURE {path}: {sig}: {message.splitlines()[0][:300]}", flush=True)
            round_ += 1
            print(f"[{time.strftime('%H:%M:%S')}] round {round_}: {stats}, {len(failures)} failures",
                  flush=True)
    finally:
        worker.close()
    total = sum(v for k, v in stats.items() if k != "known")
    print(f"\nprograms run: {total} ({', '.join(f'{k} {v}' for k, v in stats.items())})")
    print(f"failures found: {len(failures)}, distinct signatures: {len(signatures)}")
    for sig, paths in sorted(signatures.items()):
        print(f"  {sig}: {len(paths)} x, e.g. {paths[0]}")
    return 1 if failures else 0
