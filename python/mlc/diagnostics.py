"""MLIR diagnostics as text a user can act on: `file:line:col: error: message`, the way
mlir-opt prints them, plus the CompileError that carries them."""

from __future__ import annotations

from mlir import ir

_SEVERITY = {ir.DiagnosticSeverity.ERROR: "error", ir.DiagnosticSeverity.WARNING: "warning",
             ir.DiagnosticSeverity.NOTE: "note", ir.DiagnosticSeverity.REMARK: "remark"}


class CompileError(Exception):
    """IR that failed to parse, verify or lower; str() holds the formatted diagnostics."""


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


def parse_module(text: str, context: ir.Context, source_name: str = "<input>") -> ir.Module:
    """Parses `text` (a module, or top-level ops that form one); a syntax or verifier error
    raises CompileError with `source_name:line:col`."""
    try:
        with context:
            return ir.Module.parse(text)
    except ir.MLIRError as e:
        raise CompileError(format_error(e, source_name)) from None
