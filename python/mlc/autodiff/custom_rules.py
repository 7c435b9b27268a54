"""User-defined derivative rules of traced functions (mlc.custom_vjp, mlc.custom_jvp), by
id. The tracing API installs the lookup (rules live with the trace that made them); the
`marker:custom` rules call `lookup(id)`. Without it (a module read from text), a custom
marker cannot be differentiated and says so."""

from __future__ import annotations

from typing import Callable

from .errors import DifferentiationError

_lookup: Callable | None = None


def install(lookup: Callable) -> None:
    global _lookup
    _lookup = lookup


def lookup(ident: int, location=None):
    rule = _lookup(ident) if _lookup is not None else None
    if rule is None:
        raise DifferentiationError(f"custom derivative rule #{ident} is not known here (the "
                                   f"program was not traced in this process)", location)
    return rule
