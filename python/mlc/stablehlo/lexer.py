"""A tokenizer for MLIR text, enough for StableHLO's custom assembly (pretty.py).

A type or attribute with an angle-bracket body (`tensor<4x6xf32>`, `dense<[1, 2]>`,
`#stablehlo<comparison_direction GT>`, `#stablehlo.conv<[b, 0]x[0, i]->[b, 0]>`) is one
token: its body is passed through, never parsed here."""

from __future__ import annotations

import re
from dataclasses import dataclass

from .errors import StableHloError


@dataclass(frozen=True)
class Token:
    kind: str    # value, symbol, caret, ident, hash, string, number, punct
    text: str
    start: int
    end: int
    line: int
    col: int


_PATTERNS = [
    ("skip", r"\s+|//[^\n]*"),
    ("string", r'"(?:[^"\\]|\\.)*"'),
    ("value", r"%[\w$.-]+(?:#\d+)?"),
    ("symbol", r'@(?:[\w$.-]+|"(?:[^"\\]|\\.)*")'),
    ("caret", r"\^[\w$.-]+"),
    ("hash", r"[#!][\w$.]+"),
    ("number", r"-?0x[0-9A-Fa-f]+|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?"),
    ("ident", r"[A-Za-z_][\w$.]*"),
    ("punct", r"->|[()\[\]{},:=<>*?+-]"),
]
_TOKEN = re.compile("|".join(f"(?P<{name}>{pattern})" for name, pattern in _PATTERNS))


def _angle_end(text: str, start: int, source_name: str, line: int, col: int) -> int:
    """The offset just past the `>` that closes the `<` at `start` (`->` does not close)."""
    depth, i, n = 0, start, len(text)
    while i < n:
        ch = text[i]
        if ch == '"':
            i += 1
            while i < n and text[i] != '"':
                i += 2 if text[i] == "\\" else 1
        elif ch == "<":
            depth += 1
        elif ch == ">" and text[i - 1] != "-":
            depth -= 1
            if depth == 0:
                return i + 1
        i += 1
    raise StableHloError(f"{source_name}:{line}:{col}: error: unbalanced '<'")


def tokenize(text: str, source_name: str = "<input>") -> list[Token]:
    tokens, pos, line, line_start = [], 0, 1, 0
    n = len(text)
    while pos < n:
        m = _TOKEN.match(text, pos)
        if m is None:
            raise StableHloError(f"{source_name}:{line}:{pos - line_start + 1}: error: "
                                 f"unexpected character {text[pos]!r}")
        kind, end = m.lastgroup, m.end()
        col = pos - line_start + 1
        if kind in ("ident", "hash") and end < n and text[end] == "<":
            end = _angle_end(text, end, source_name, line, col)
        if kind != "skip":
            tokens.append(Token(kind, text[pos:end], pos, end, line, col))
        newlines = text.count("\n", pos, end)
        if newlines:
            line += newlines
            line_start = text.rfind("\n", pos, end) + 1
        pos = end
    return tokens
