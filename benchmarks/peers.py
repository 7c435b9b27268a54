"""Benchmark peers in child processes: jax.jit and IREE next to MLC.

jax's and IREE's MLIR bindings clash with MLC's (and with each other's) in one process, so a
peer runs in a child process kept up for the whole benchmark run. Parent and child speak JSON
lines over the child's stdin/stdout, one reply per request:

    {"op": "version"}                          -> {"version": "..."}  (None: not installed)
    {"op": "load", "path": inputs.npz, "nargs": n, "nref": k, ...}
                                               -> {"compile_s": s, "error": e, ...}
                                                  or {"failed": "first line of the error"}
    {"op": "time", "repeats": n}               -> {"samples": [ms, ...], ...}
    {"op": "quit"}                             -> {} and the child exits

The inputs (arr_0..) and the float64 reference outputs (ref0..) travel in an .npz file. What
"load" means is the peer's: corpus.py's jax child builds a block and jit-compiles it (and can
write its StableHLO text for IREE); the IREE child here compiles a StableHLO file.

    python benchmarks/peers.py --iree-child    # the IREE child (started by IreePeer)
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

from common import leaves, max_error

HERE = Path(__file__).resolve()


def first_line(e: BaseException, limit: int = 200) -> str:
    text = str(e).strip()
    return f"{type(e).__name__}: {text.splitlines()[0][:limit] if text else ''}"


class ChildPeer:
    """The parent's side: starts `argv` (a child running `serve`), asks it JSON-line requests.
    A child that died (a crash while compiling, say) is started again at the next load."""

    name = "peer"

    def __init__(self, argv: list[str], workdir: Path, env: dict | None = None):
        self.argv, self.workdir, self.env = argv, Path(workdir), env
        self.last: dict = {}
        self._spawn()
        self.version = self.ask({"op": "version"}).get("version")

    def _spawn(self) -> None:
        self.proc = subprocess.Popen(self.argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
                                     env=self.env)

    def ask(self, msg: dict) -> dict:
        try:
            self.proc.stdin.write(json.dumps(msg) + "\n")
            self.proc.stdin.flush()
            line = self.proc.stdout.readline()
        except (BrokenPipeError, OSError):
            line = ""
        if not line:
            raise RuntimeError(f"the {self.name} child exited (code {self.proc.poll()})")
        return json.loads(line)

    def load(self, args: list, ref, **fields) -> dict:
        """Sends the inputs and the reference outputs, then {"op": "load", **fields}; a child
        that exits while loading gives {"failed": ...} (and is started again next time)."""
        if self.proc.poll() is not None:
            self._spawn()
            self.ask({"op": "version"})
        path = self.workdir / f"{self.name}_inputs.npz"
        refs = leaves(ref)
        np.savez(path, *args, **{f"ref{i}": a for i, a in enumerate(refs)})
        try:
            return self.ask({"op": "load", "path": str(path), "nargs": len(args), "nref": len(refs), **fields})
        except RuntimeError as e:
            return {"failed": str(e)}

    def time(self, repeats: int) -> list[float]:
        """`repeats` call times in ms after a warm-up (the whole reply is kept in self.last)."""
        self.last = self.ask({"op": "time", "repeats": repeats})
        return self.last.get("samples", [])

    def close(self) -> None:
        try:
            self.ask({"op": "quit"})
        except (RuntimeError, ValueError):
            pass
        try:
            self.proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.proc.kill()


def start_peer(cls, *args):
    """cls(*args), or None when the child cannot start or its package is not installed."""
    try:
        peer = cls(*args)
    except (OSError, RuntimeError, ValueError):
        return None
    if peer.version is None:
        peer.close()
        return None
    return peer


# --- the child's side ---------------------------------------------------------------------
def serve(handlers: dict) -> None:
    """The child's loop: one JSON reply per request line, until "quit" or end of input. A
    handler's exception is the reply {"failed": its first line}. The protocol keeps the real
    stdout; anything else printed (by a compiler, a runtime) goes to stderr."""
    proto = os.fdopen(os.dup(1), "w")
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    for line in sys.stdin:
        msg = json.loads(line)
        if msg["op"] == "quit":
            proto.write("{}\n")
            proto.flush()
            return
        try:
            reply = handlers[msg["op"]](msg)
        except Exception as e:  # noqa: BLE001 - reported to the parent, the run goes on
            reply = {"failed": first_line(e)}
        proto.write(json.dumps(reply) + "\n")
        proto.flush()


def read_inputs(msg: dict) -> tuple[list[np.ndarray], list[np.ndarray]]:
    """The inputs and the reference outputs of a load request."""
    data = np.load(msg["path"])
    return [data[f"arr_{i}"] for i in range(msg["nargs"])], [data[f"ref{i}"] for i in range(msg["nref"])]


# --- IREE -----------------------------------------------------------------------------------
IREE_FLAGS = ["--iree-llvmcpu-target-cpu=host"]
IREE_DEVICE = "local-task"


class IreePeer(ChildPeer):
    """IREE (llvm-cpu, the host's CPU, the multi-threaded local-task device) in a child
    process: load(stablehlo_path, args, ref) compiles a StableHLO module's @main (jax.jit's
    lowering), time(n) calls it with the inputs already on the device. Each sample includes
    `.to_host()` of every output; self.last["d2h"] has that part of each sample alone."""

    name = "iree"

    def __init__(self, workdir: Path):
        super().__init__([sys.executable, str(HERE), "--iree-child"], workdir)

    def load(self, stablehlo: Path, args: list, ref) -> dict:  # noqa: D102
        return super().load(args, ref, stablehlo=str(stablehlo))


def _iree_error_line(e: BaseException) -> str:
    """The first diagnostic of an IREE compiler error (its message starts with the command
    line), else its first line."""
    for line in str(e).splitlines():
        if "error:" in line:
            return line.strip()[:300]
    return first_line(e, 300)


def iree_child() -> None:
    try:
        from importlib.metadata import version

        import iree.compiler as ic
        import iree.runtime as rt
        iree_version = version("iree-base-compiler")
    except ImportError:
        serve({"version": lambda msg: {"version": None}})
        return
    config = None
    state: dict = {}

    def to_host(out):
        return [o.to_host() for o in (out if isinstance(out, (tuple, list)) else [out])]

    def load(msg):
        nonlocal config
        state.clear()
        args, ref = read_inputs(msg)
        text = Path(msg["stablehlo"]).read_text()
        start = time.perf_counter()
        try:
            vmfb = ic.compile_str(text, target_backends=["llvm-cpu"], input_type="stablehlo",
                                  extra_args=IREE_FLAGS)
        except Exception as e:  # noqa: BLE001 - the row says why
            return {"failed": "compile: " + _iree_error_line(e)}
        compile_s = time.perf_counter() - start
        if config is None:
            config = rt.Config(IREE_DEVICE)
        ctx = rt.SystemContext(config=config)
        vm = rt.VmModule.copy_buffer(ctx.instance, vmfb)
        ctx.add_vm_module(vm)
        fn = getattr(ctx.modules, vm.name)["main"]
        dev_args = [rt.asdevicearray(config.device, a) for a in args]
        out = to_host(fn(*dev_args))
        state.update(ctx=ctx, fn=fn, args=dev_args)
        return {"compile_s": compile_s, "error": max_error(out, ref),
                "out_mb": sum(o.nbytes for o in out) / 1e6}

    def time_calls(msg):
        if not state:
            return {"samples": [], "d2h": []}
        fn, args = state["fn"], state["args"]
        out = to_host(fn(*args))  # warm-up
        del out
        samples, d2h = [], []
        for _ in range(msg["repeats"]):
            start = time.perf_counter()
            result = fn(*args)
            mid = time.perf_counter()
            out = to_host(result)
            end = time.perf_counter()
            samples.append((end - start) * 1e3)
            d2h.append((end - mid) * 1e3)
            del out, result
        return {"samples": samples, "d2h": d2h}

    serve({"version": lambda msg: {"version": iree_version}, "load": load, "time": time_calls})


if __name__ == "__main__":
    if sys.argv[1:] == ["--iree-child"]:
        iree_child()
    else:
        sys.exit(__doc__)
