"""File input and output for the command-line tools: every failure is one line naming the
file and the reason (`mlc-opt: error: cannot write 'x.dot': No such file or directory`),
never a traceback."""

from __future__ import annotations

import sys


class ToolError(Exception):
    """A user-facing failure of a CLI: printed as `<tool>: error: <message>`, exit code 1."""


def read_text(path: str) -> str:
    """The UTF-8 text of `path` ('-' is standard input)."""
    name = "<stdin>" if path == "-" else path
    try:
        data = sys.stdin.buffer.read() if path == "-" else open(path, "rb").read()
    except OSError as e:
        raise ToolError(f"cannot read '{name}': {e.strerror}") from None
    nul = data.find(bytes(1))
    if nul >= 0:
        raise ToolError(f"'{name}' is a binary file (a NUL byte at offset {nul}); "
                        f"MLIR input is text (bytecode is not supported)")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise ToolError(f"'{name}' is not UTF-8 text (byte 0x{data[e.start]:02x} at offset {e.start})") from None


def write_text(path: str, text: str) -> None:
    """Writes `text` to `path` ('-' is standard output)."""
    if path == "-":
        sys.stdout.write(text)
        return
    try:
        with open(path, "w") as f:
            f.write(text)
    except OSError as e:
        raise ToolError(f"cannot write '{path}': {e.strerror}") from None
