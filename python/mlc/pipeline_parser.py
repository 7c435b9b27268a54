"""Parses pass-pipeline text that mixes MLC's Python passes with upstream MLIR passes.

Upstream's parser cannot name a Python pass (LLVM 22), so MLC splits the text itself:
`builtin.module(hlo-verify, func.func(canonicalize), hlo-to-linalg{opt=1})` gives
[HloVerify(), UpstreamPasses("func.func(canonicalize)"), HloToLinalg(opt=1)]. Runs of
upstream elements are kept together as text and checked by upstream's own parser.
"""

from __future__ import annotations

from mlir import ir, passmanager

from .passes import get_pass_class, pass_names
from .transforms.pass_base import OptionError, Pass, UpstreamPasses


class PipelineError(ValueError):
    """Pipeline text that does not parse, or names a pass that does not exist."""


def split_top_level(text: str, sep: str = ",") -> list[str]:
    """Splits on `sep` outside (), {} and quotes."""
    parts, depth, start, quote = [], 0, 0, False
    for i, ch in enumerate(text):
        if ch == '"':
            quote = not quote
        elif quote:
            continue
        elif ch in "({":
            depth += 1
        elif ch in ")}":
            depth -= 1
            if depth < 0:
                raise PipelineError(f"unbalanced '{ch}' in pipeline '{text}'")
        elif ch == sep and depth == 0:
            parts.append(text[start:i].strip())
            start = i + 1
    if depth != 0 or quote:
        raise PipelineError(f"unbalanced brackets or quotes in pipeline '{text}'")
    parts.append(text[start:].strip())
    return [p for p in parts if p]


def _strip_module_anchor(text: str) -> str:
    text = text.strip()
    if text.startswith("builtin.module(") and text.endswith(")"):
        return text[len("builtin.module("):-1]
    return text


def parse_options(text: str) -> dict[str, str]:
    """`a=1 b=x c` -> {'a': '1', 'b': 'x', 'c': 'true'}"""
    options = {}
    for item in split_top_level(text, " "):
        key, eq, value = item.partition("=")
        options[key.strip()] = value.strip() if eq else "true"
    return options


def make_pass(name: str, options: dict[str, str] | None = None) -> Pass | None:
    cls = get_pass_class(name)
    if cls is None:
        return None
    try:
        return cls.from_options(options or {})
    except OptionError as e:
        raise PipelineError(str(e)) from None


def _parse_element(element: str) -> Pass | None:
    name, brace, rest = element.partition("{")
    if "(" in name:
        return None  # an op-anchored nest such as func.func(...): upstream's
    if brace and not rest.endswith("}"):
        raise PipelineError(f"malformed options in '{element}'")
    return make_pass(name.strip(), parse_options(rest[:-1]) if brace else {})


def check_upstream(text: str, context: ir.Context) -> None:
    try:
        passmanager.PassManager.parse(f"builtin.module({text})", context=context)
    except ValueError as e:
        detail = str(e).strip().splitlines()
        raise PipelineError(f"cannot parse pipeline element(s) '{text}': "
                            f"{' '.join(detail) or 'unknown pass'} (MLC passes: "
                            f"{', '.join(pass_names())})") from None


def parse_pipeline(text: str, context: ir.Context) -> list[Pass]:
    passes: list[Pass] = []
    upstream: list[str] = []

    def flush():
        if upstream:
            joined = ",".join(upstream)
            check_upstream(joined, context)
            passes.append(UpstreamPasses(joined))
            upstream.clear()

    for element in split_top_level(_strip_module_anchor(text)):
        p = _parse_element(element)
        if p is None:
            upstream.append(element)
        else:
            flush()
            passes.append(p)
    flush()
    return passes
