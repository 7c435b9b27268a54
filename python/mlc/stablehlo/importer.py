"""The import entry points: StableHLO text (either form) -> hlo text or module."""

from __future__ import annotations

import re

from mlir import ir

from ..context import make_context
from ..diagnostics import check_nesting, format_error
from .convert import convert_module
from .errors import StableHloError

_OP = re.compile(r"(?<![\w.])\"?(stablehlo|chlo|vhlo)\.[a-z_]")
_COMMENT = re.compile(r"//[^\n]*")
# VHLO's portable artifact is bytecode: `ML\xefR` magic.
_BYTECODE_MAGIC = "ML\xefR"


def is_stablehlo(text: str) -> bool:
    """Does `text` hold StableHLO/CHLO ops (so it needs import before hlo passes)?"""
    if text.startswith(_BYTECODE_MAGIC):
        return True
    return _OP.search(_COMMENT.sub("", text)) is not None  # a comment may name an op


def _is_generic(text: str) -> bool:
    from .pretty import has_custom_ops
    return not has_custom_ops(text)


_PRETTY_CALL = re.compile(r'(?<![\w."])(?:func\.)?call\s+(@[\w$.-]+|@"[^"]*")\s*\(([^)]*)\)\s*:')


def _unregistered_calls(text: str) -> str:
    """Calls spelled as the unregistered op `mlc.call` (same operands, `callee`, types):
    the upstream verifier rejects a func.call inside the region of an unregistered op
    (JAX's reducers call private helpers), and convert.py inlines either spelling."""
    text = text.replace('"func.call"(', '"mlc.call"(')
    return _PRETTY_CALL.sub(lambda m: f'"mlc.call"({m.group(2)}) {{callee = {m.group(1)}}} :', text)


def parse_stablehlo(text: str, context: ir.Context, source_name: str = "<input>") -> ir.Module:
    """The source module, in `context` (unregistered dialects allowed): the pretty form is
    first rewritten to the generic form by MLC's reader."""
    if text.startswith(_BYTECODE_MAGIC):
        raise StableHloError(f"{source_name}:1:1: error: MLIR bytecode (a VHLO portable "
                             f"artifact) is not supported: give StableHLO text")
    if re.search(r"(?<![\w.])\"?vhlo\.", text):
        m = re.search(r"vhlo\.\w+", text)
        line = text.count("\n", 0, m.start()) + 1
        raise StableHloError(f"{source_name}:{line}:1: error: VHLO ops ('{m.group(0)}') are "
                             f"not supported: give StableHLO text")
    if not _is_generic(text):
        from .pretty import to_generic
        text = to_generic(text, source_name)
    text = _unregistered_calls(text)
    check_nesting(text, source_name)
    context.allow_unregistered_dialects = True
    try:
        with context:
            return ir.Module.parse(text)
    except ir.MLIRError as e:
        raise StableHloError(format_error(e, source_name)) from None


def to_hlo_module(text: str, source_name: str = "<input>", entries=None,
                  context: ir.Context | None = None) -> ir.Module:
    context = context or make_context()
    source = parse_stablehlo(text, context, source_name)
    return convert_module(source, source_name, entries)


def to_hlo(text: str, source_name: str = "<input>", entries=None) -> str:
    """hlo module text for StableHLO `text` (either form)."""
    return to_hlo_module(text, source_name, entries).operation.get_asm(enable_debug_info=True)
