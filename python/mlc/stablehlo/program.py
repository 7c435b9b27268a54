"""mlc.stablehlo.load: an imported StableHLO function as a callable program."""

from __future__ import annotations

import os
import threading

import numpy as np

from .importer import to_hlo_module

# Executables by (hlo text without locations, entry): the two text forms of one program,
# or one file loaded twice, compile once per process.
_COMPILED: dict = {}
_COMPILED_LOCK = threading.Lock()


class Program:
    """An imported function. Called on numpy arrays it runs compiled code (compiled once per
    module; the signature is fixed by the StableHLO text); called on traced values inside
    mlc.jit / mlc.grad it inlines its hlo into the current trace, so it is differentiated
    and optimized with the code around it."""

    def __init__(self, hlo_text: str, entry: str, source_name: str, key: str | None = None):
        self.hlo_text = hlo_text
        # The hlo without source locations: the same for both text forms of one program.
        self.plain_text = key or hlo_text
        self._key = (self.plain_text, entry)
        self.entry = entry
        self.source_name = source_name
        self._compiled = None
        self._lock = threading.Lock()

    def __repr__(self) -> str:
        return f"<mlc.stablehlo.Program @{self.entry} from {self.source_name}>"

    def as_text(self) -> str:
        return self.hlo_text

    def __call__(self, *args):
        from ..frontend.tracing import Tracer, tracing_active
        if tracing_active() or any(isinstance(a, Tracer) for a in args):
            from .inline import inline_call
            return inline_call(self, args)
        return self.compiled()(*[np.asarray(a) for a in args])

    def compiled(self):
        with self._lock:
            if self._compiled is None:
                with _COMPILED_LOCK:
                    self._compiled = _COMPILED.get(self._key)
                if self._compiled is None:
                    from ..compiler import compile as mlc_compile
                    self._compiled = mlc_compile(self.hlo_text, entry=self.entry,
                                                 source_name=self.source_name)
                    with _COMPILED_LOCK:
                        _COMPILED[self._key] = self._compiled
            return self._compiled


def load(text_or_path: str, entry: str = "main") -> Program:
    """Imports StableHLO text (or a file holding it) and returns its function `entry`."""
    source_name = "<input>"
    if isinstance(text_or_path, os.PathLike) or ("\n" not in text_or_path and os.path.exists(text_or_path)):
        source_name = os.fspath(text_or_path)
        with open(source_name, "rb") as f:
            data = f.read()
        if data.startswith(b"ML\xefR"):  # MLIR bytecode (a VHLO artifact): the importer says so
            text_or_path = data.decode("latin-1")
        else:
            text_or_path = data.decode("utf-8")
    module = to_hlo_module(text_or_path, source_name, entries=[entry])
    return Program(module.operation.get_asm(enable_debug_info=True), entry, source_name,
                   key=module.operation.get_asm(enable_debug_info=False))
