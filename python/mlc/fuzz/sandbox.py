"""A worker process that runs checks, so a segfault or a hang is a reported failure.

`Worker().call(kind, *args)` runs `CHECKS[kind](*args)` in a spawned child process and
returns its result: None when the check passed, else `(failure kind, message)`. When the
child dies (a signal: segfault, abort) the result is `("crash", ...)` with the exit code,
when it does not answer within `timeout` seconds it is killed and the result is
`("hang", ...)`; either way a fresh child is started for the next call.
"""

from __future__ import annotations

import multiprocessing as mp
import traceback


def _checks():
    from .compare import check_hlo
    from .mutations import check_mutant
    from .numpy_programs import check_numpy_program
    return {"hlo": check_hlo, "mutant": check_mutant, "numpy": check_numpy_program}


def _serve(conn) -> None:
    checks = _checks()
    while True:
        try:
            kind, args = conn.recv()
        except EOFError:
            return
        try:
            result = checks[kind](*args)
        except Exception as exc:  # a bug in the fuzzer itself: reported, never swallowed
            result = ("fuzzer-error", f"{type(exc).__name__}: {exc}\n{traceback.format_exc()[-1500:]}")
        conn.send(result)


class Worker:
    def __init__(self, timeout: float = 120.0):
        self.timeout = timeout
        self._ctx = mp.get_context("spawn")
        self.proc = None
        self._start()

    def _start(self) -> None:
        self.conn, child = self._ctx.Pipe()
        self.proc = self._ctx.Process(target=_serve, args=(child,), daemon=True)
        self.proc.start()
        child.close()

    def call(self, kind: str, *args):
        if self.proc is None or not self.proc.is_alive():
            self._start()
        self.conn.send((kind, args))
        if not self.conn.poll(self.timeout):
            self.proc.kill()
            self.proc.join()
            self._start()
            return "hang", f"no answer in {self.timeout:.0f} s (killed)"
        try:
            return self.conn.recv()
        except (EOFError, ConnectionResetError):
            self.proc.join()
            code = self.proc.exitcode
            self._start()
            return "crash", f"the worker process died (exit code {code}, a negative code is a signal)"

    def close(self) -> None:
        if self.proc is not None and self.proc.is_alive():
            self.conn.close()
            self.proc.join(5)
            if self.proc.is_alive():
                self.proc.kill()
                self.proc.join()
        self.proc = None
