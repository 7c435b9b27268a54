"""MLIR diagnostics as text a user can act on: `file:line:col: error: message`, the way
mlir-opt prints them, plus the CompileError that carries them."""

from __future__ import annotations

from mlir import ir

_SEVERITY = {ir.DiagnosticSeverity.ERROR: "error", ir.DiagnosticSeverity.WARNING: "warning",
             ir.DiagnosticSeverity.NOTE: "note", ir.DiagnosticSeverity.REMARK: "remark"}


class CompileError(Exception):
    """IR that failed to parse, verify or lower; str() holds the formatted diagnostics."""


def format_location(loc: ir.Location) -> str:
    while loc.is_a_name():
        loc = loc.child_loc
    if loc.is_a_callsite():
        loc = loc.caller
    if loc.is_a_fused() and loc.locations:
        loc = loc.locations[0]
    if loc.is_a_file():
        return f"{loc.filename}:{loc.start_line}:{loc.start_col}"
    return "<unknown>"


def format_diagnostic(diag, indent: str = "") -> str:
    text = f"{indent}{format_location(diag.location)}: {_SEVERITY[diag.severity]}: {diag.message}"
    for note in diag.notes:
        text += "\n" + format_diagnostic(note, indent)
    return text


def format_error(error: ir.MLIRError) -> str:
    lines = [format_diagnostic(d) for d in error.error_diagnostics]
    return "\n".join(lines) or str(error)


def parse_module(text: str, context: ir.Context, source_name: str = "<input>") -> ir.Module:
    """Parses `text`; a syntax or verifier error raises CompileError with file:line:col."""
    try:
        with context:
            op = ir.Operation.parse(text, source_name=source_name)
    except ir.MLIRError as e:
        raise CompileError(format_error(e)) from None
    return to_module(op)


def to_module(module_op) -> ir.Module:
    """An ir.Module owning the ops of a parsed builtin.module operation.

    `Operation.parse` is the parser that records the source name in locations, but it returns
    an operation, and the ExecutionEngine wants an ir.Module: so the ops move over.
    """
    with module_op.context, ir.Location.unknown():
        module = ir.Module.create()
        if module_op.operation.name != "builtin.module":  # a lone top-level op, e.g. a func
            module.body.append(module_op.operation)
            return module
        for attr in module_op.attributes:
            module.operation.attributes[attr.name] = attr.attr
        for op in list(module_op.regions[0].blocks[0].operations):
            op.detach_from_parent()
            module.body.append(op)
    return module
