"""make_context(): an MLIR context with the upstream dialects and the hlo dialect loaded.

The bindings are not thread-safe, so each compile gets its own context; a context must
only ever be used by one thread at a time.
"""

from __future__ import annotations

from mlir import ir

from .dialects.hlo import load_hlo_dialect


def make_context() -> ir.Context:
    context = ir.Context()
    load_hlo_dialect(context)
    return context
