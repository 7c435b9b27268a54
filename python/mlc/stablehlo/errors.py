"""StableHloError: input MLC cannot import, reported as `file:line:col: error: ...`."""

from __future__ import annotations

from mlir import ir

from ..diagnostics import CompileError, format_location


class StableHloError(CompileError):
    """StableHLO input that does not parse or that MLC cannot import (the op and its line)."""


def error_at(where, message: str, source_name: str = "<input>") -> StableHloError:
    """A StableHloError at an op or ir.Location (or a (line, col) pair of the input text)."""
    if isinstance(where, tuple):
        return StableHloError(f"{source_name}:{where[0]}:{where[1]}: error: {message}")
    loc = where if isinstance(where, ir.Location) else where.location
    return StableHloError(f"{format_location(loc, source_name)}: error: {message}")
