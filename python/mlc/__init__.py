"""MLC: an XLA-style ML compiler on the upstream MLIR Python bindings.

`mlc.compile(hlo_text)` lowers an hlo module through linalg and LLVM and returns an
Executable that runs on numpy arrays.
"""

from .compiler import compile, lower  # noqa: A004
from .diagnostics import CompileError
from .runtime.executable import Executable

__all__ = ["compile", "lower", "CompileError", "Executable"]
__version__ = "0.1.0"
