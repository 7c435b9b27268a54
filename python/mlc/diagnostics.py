"""MLIR diagnostics as text a user can act on: `file:line:col: error: message`, the way
mlir-opt prints them, plus the CompileError that carries them."""

from __future__ import annotations

import re

from mlir import ir

_SEVERITY = {ir.DiagnosticSeverity.ERROR: "error", ir.DiagnosticSeverity.WARNING: "warning",
             ir.DiagnosticSeverity.NOTE: "note", ir.DiagnosticSeverity.REMARK: "remark"}


class CompileError(Exception):
    """IR that failed to parse, verify or lower; str() holds the formatted diagnostics."""


class LocatedError(Exception):
    """An error about one op of a traced program (a transformation's rule cannot apply to
    it): the message starts with the user's `file:line` when the op has one."""

    def __init__(self, message: str, location: ir.Location | None = None):
        self.message = message
        self.location = location
        where = user_line(location)
        super().__init__(f"{where}: {message}" if where else message)


def user_line(location: ir.Location | None) -> str:
    """file:line of a file location (looking through call sites and names), else ''."""
    if location is None:
        return ""
    try:
        if location.is_a_file():
            return f"{location.filename}:{location.start_line}"
        if location.is_a_name() or location.is_a_callsite():
            return user_line(location.child_loc if location.is_a_name() else location.callee)
    except Exception:  # noqa: BLE001 - an unusual location kind: say nothing rather than fail
        return ""
    return ""


# ir.Module.parse names its buffer "-"; diagnostics show the real source name instead.
_PARSER_BUFFER_NAME = "-"


def format_location(loc: ir.Location, source_name: str = "<input>") -> str:
    while loc.is_a_name():
        loc = loc.child_loc
    if loc.is_a_callsite():
        loc = loc.caller
    if loc.is_a_fused() and loc.locations:
        loc = loc.locations[0]
    if loc.is_a_file():
        filename = source_name if loc.filename == _PARSER_BUFFER_NAME else loc.filename
        return f"{filename}:{loc.start_line}:{loc.start_col}"
    return source_name


def format_diagnostic(diag, source_name: str = "<input>") -> str:
    severity = _SEVERITY[diag.severity]
    text = f"{format_location(diag.location, source_name)}: {severity}: {diag.message}"
    for note in diag.notes:
        text += "\n" + format_diagnostic(note, source_name)
    return text


def format_error(error: ir.MLIRError, source_name: str = "<input>") -> str:
    lines = [format_diagnostic(d, source_name) for d in error.error_diagnostics]
    return "\n".join(lines) or f"{source_name}: error: {error}"


# MLIR's parser recurses once per nested bracket; 100,000 of them overflow the C stack and
# kill the process. Real programs nest a few dozen levels.
MAX_NESTING = 1000
_OPEN, _CLOSE = "([{", ")]}"


def check_nesting(text: str, source_name: str = "<input>") -> None:
    """A CompileError naming the place where brackets nest deeper than MAX_NESTING."""
    if sum(text.count(c) for c in _OPEN) < MAX_NESTING:
        return
    depth, line, col, quoted = 0, 1, 0, False
    for ch in text:
        col += 1
        if ch == "\n":
            line, col = line + 1, 0
        elif ch == '"':
            quoted = not quoted
        elif quoted:
            continue
        elif ch in _OPEN:
            depth += 1
            if depth > MAX_NESTING:
                raise CompileError(f"{source_name}:{line}:{col}: error: brackets nested more than "
                                   f"{MAX_NESTING} levels deep")
        elif ch in _CLOSE:
            depth -= 1


# `"hlo."(...)`: a dialect prefix with no op name makes MLIR abort the process ("created
# with unregistered dialect") instead of reporting an error.
_EMPTY_OP_NAME = re.compile(r'"([A-Za-z_][\w$]*)\."\s*\(')


def check_op_names(text: str, source_name: str = "<input>") -> None:
    match = _EMPTY_OP_NAME.search(text)
    if match:
        line = text.count("\n", 0, match.start()) + 1
        col = match.start() - (text.rfind("\n", 0, match.start()) + 1) + 1
        raise CompileError(f"{source_name}:{line}:{col}: error: op name '{match.group(1)}.' has no "
                           f"name after the dialect prefix")


def parse_module(text: str, context: ir.Context, source_name: str = "<input>") -> ir.Module:
    """Parses `text` (a module, or top-level ops that form one); a syntax or verifier error
    raises CompileError with `source_name:line:col`."""
    check_nesting(text, source_name)
    check_op_names(text, source_name)
    try:
        with context:
            return ir.Module.parse(text)
    except ir.MLIRError as e:
        raise CompileError(format_error(e, source_name)) from None
