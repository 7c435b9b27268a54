"""The error autodiff raises when a program cannot be differentiated."""

from __future__ import annotations

from mlir import ir


class DifferentiationError(TypeError):
    """This program (or this op of it) has no derivative MLC can build; `location` is the
    op's (the user's line when the program was traced)."""

    def __init__(self, message: str, location: ir.Location | None = None):
        self.message = message
        self.location = location
        where = describe(location)
        super().__init__(f"{where}: {message}" if where else message)


def describe(location: ir.Location | None) -> str:
    """file:line of a file location (looking through call sites and names), else ''."""
    if location is None:
        return ""
    try:
        if location.is_a_file():
            return f"{location.filename}:{location.start_line}"
        if location.is_a_name() or location.is_a_callsite():
            return describe(location.child_loc if location.is_a_name() else location.callee)
    except Exception:  # noqa: BLE001 - an unusual location kind: say nothing rather than fail
        return ""
    return ""
