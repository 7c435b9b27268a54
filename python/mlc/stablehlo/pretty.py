"""MLC's reader for StableHLO's pretty (custom) assembly: rewrites it to the generic form.

The upstream parser reads `func.func`, `return`, `call` and quoted generic ops itself, but
not `stablehlo.add %0, %1 : tensor<4xf32>` without the StableHLO dialect. This reader copies
the text through and replaces each custom-form `stablehlo.*`/`chlo.*` op by its generic
spelling, produced by the op's entry in pretty_forms.FORMS. Line structure is kept and each
rewritten op carries `loc("<input>":line:col)`, so later errors point into the input."""

from __future__ import annotations

import re

from .errors import StableHloError
from .lexer import Token, tokenize

_CUSTOM_OP = re.compile(r'(?<![\w."#!%@$-])(stablehlo|chlo)\.[a-z_]+')


def has_custom_ops(text: str) -> bool:
    """True if `text` spells some StableHLO/CHLO op in its custom form."""
    for m in _CUSTOM_OP.finditer(text):
        # A quoted string (an attribute value) may mention an op name: skip those.
        line_start = text.rfind("\n", 0, m.start()) + 1
        if text.count('"', line_start, m.start()) % 2 == 0:
            return True
    return False


def is_op_name(token: Token) -> bool:
    return token.kind == "ident" and token.text.startswith(("stablehlo.", "chlo."))


class Reader:
    """A cursor over the tokens plus the output being built."""

    def __init__(self, text: str, source_name: str):
        self.text = text
        self.source_name = source_name
        self.tokens = tokenize(text, source_name)
        self.pos = 0
        self._fresh = 0

    # -- cursor ----------------------------------------------------------------------------

    def peek(self, offset: int = 0) -> Token | None:
        i = self.pos + offset
        return self.tokens[i] if i < len(self.tokens) else None

    def at(self, *texts: str) -> bool:
        t = self.peek()
        return t is not None and t.text in texts

    def next(self) -> Token:
        t = self.peek()
        if t is None:
            last = self.tokens[-1]
            raise self.error(last, "unexpected end of input")
        self.pos += 1
        return t

    def expect(self, text: str, what: str = "") -> Token:
        t = self.next()
        if t.text != text:
            raise self.error(t, f"expected '{text}'{what}, got '{t.text}'")
        return t

    def accept(self, text: str) -> bool:
        if self.at(text):
            self.pos += 1
            return True
        return False

    def error(self, token: Token, message: str) -> StableHloError:
        return StableHloError(f"{self.source_name}:{token.line}:{token.col}: error: {message}")

    def fresh(self) -> str:
        self._fresh += 1
        return f"%__mlc_{self._fresh}"

    # -- pieces of the syntax ----------------------------------------------------------------

    def value(self) -> str:
        t = self.next()
        if t.kind != "value":
            raise self.error(t, f"expected an SSA value, got '{t.text}'")
        return t.text

    def values(self) -> list[str]:
        """`%a, %b, ...` (stops before a `,` not followed by a value)."""
        out = [self.value()]
        while self.at(",") and self.peek(1) is not None and self.peek(1).kind == "value":
            self.next()
            out.append(self.value())
        return out

    def int_list(self) -> list[int]:
        """`[1, 2]` -> [1, 2]."""
        self.expect("[")
        out = []
        while not self.at("]"):
            t = self.next()
            try:
                out.append(int(t.text))
            except ValueError:
                raise self.error(t, f"expected an integer, got '{t.text}'") from None
            self.accept(",")
        self.expect("]")
        return out

    def type_(self) -> str:
        t = self.next()
        if t.kind not in ("ident", "hash"):
            raise self.error(t, f"expected a type, got '{t.text}'")
        return t.text

    def type_list(self) -> list[str]:
        out = [self.type_()]
        while self.at(",") and self.peek(1) is not None and self.peek(1).kind in ("ident", "hash") \
                and not self.peek(1).text.startswith(("stablehlo.", "chlo.")):
            self.next()
            out.append(self.type_())
        return out

    def results_types(self) -> list[str]:
        if self.accept("("):
            out = [] if self.at(")") else self.type_list()
            self.expect(")")
            return out
        return [self.type_()]

    def trailing_types(self) -> tuple[list[str], list[str] | None]:
        """`: T`, `: T1, T2`, `: T -> R` or `: (T1, T2) -> R`: (the types before `->`, the
        result types after it or None)."""
        self.expect(":")
        if self.accept("("):
            operands = [] if self.at(")") else self.type_list()
            self.expect(")")
        else:
            operands = self.type_list()
        if self.accept("->"):
            return operands, self.results_types()
        return operands, None

    def raw_until_balanced(self, open_: str, close: str) -> str:
        """The source text between `open_` (the next token) and its matching `close`."""
        first = self.expect(open_)
        depth = 1
        while True:
            t = self.next()
            if t.text == open_:
                depth += 1
            elif t.text == close:
                depth -= 1
                if depth == 0:
                    return self.text[first.end:t.start]

    def block_argument(self) -> str:
        """`%name: type` (a block argument)."""
        name = self.value()
        self.expect(":")
        return f"{name}: {self.type_()}"

    def attr_dict(self) -> list[str]:
        """An optional `{...}` attribute dictionary, as its raw entries' text (one string)."""
        if not self.at("{"):
            return []
        raw = self.raw_until_balanced("{", "}").strip()
        return [raw] if raw else []

    def region(self, block_args: str = "") -> str:
        """`{ ops }` rewritten (custom ops inside too), with `^bb0(args):` inserted when the
        custom form names the block arguments outside the braces."""
        first = self.expect("{")
        body = self.rewrite_until("}", first.end)
        close = self.expect("}")
        header = f" ^bb0({block_args}):" if block_args else ""
        return "{" + header + body + self.text[self._last_end:close.start] + "}"

    # -- the rewrite ------------------------------------------------------------------------

    def rewrite_until(self, stop: str | None, start: int = 0) -> str:
        """Copies tokens until `stop` at brace depth 0 (not consumed), rewriting custom ops."""
        from .pretty_forms import read_op
        out = []
        depth = 0
        self._last_end = start
        while self.peek() is not None:
            t = self.peek()
            if stop is not None and depth == 0 and t.text == stop:
                break
            if is_op_name(t):
                out.append(self.text[self._last_end:t.start])
                generic = read_op(self, t)
                end = self.tokens[self.pos - 1].end
                # Keep the line count: later generic lines keep their line numbers.
                newlines = self.text.count("\n", t.start, end) - generic.count("\n")
                out.append(generic + "\n" * max(newlines, 0))
                self._last_end = end
                continue
            self.next()
            if t.text == "{":
                depth += 1
            elif t.text == "}":
                depth -= 1
            out.append(self.text[self._last_end:t.end])
            self._last_end = t.end
        return "".join(out)

    def location(self, token: Token) -> str:
        name = self.source_name.replace("\\", "\\\\").replace('"', '\\"')
        return f'loc("{name}":{token.line}:{token.col})'


def to_generic(text: str, source_name: str = "<input>") -> str:
    """`text` with every custom-form StableHLO/CHLO op in the generic form."""
    reader = Reader(text, source_name)
    if not reader.tokens:
        return text
    out = reader.rewrite_until(None, 0)
    return out + text[reader._last_end:]
