"""MLC: an XLA-style ML compiler on the upstream MLIR Python bindings.

`mlc.jit(f)` traces a numpy-like function (written with `mlc.numpy`, `mlc.nn`) into the
hlo dialect, compiles it once per signature and runs it on numpy arrays;
`mlc.compile(hlo_text)` does the same for an hlo module.
"""

from .compiler import compile, lower  # noqa: A004
from .diagnostics import CompileError
from .frontend.jit import Compiled, Jitted, Lowered, jit
from .frontend.tracing import ConcretizationError, TracingError, UnexpectedTracerError
from .runtime.executable import Executable

# The JAX-shaped namespaces, as `import jax; jax.lax.fori_loop` works.
from . import lax, nn, numpy, random, reference, tree_util  # noqa: E402

__all__ = ["lax", "nn", "numpy", "random", "reference", "tree_util", "compile", "lower", "jit", "Jitted", "Lowered", "Compiled", "CompileError", "Executable",
           "TracingError", "ConcretizationError", "UnexpectedTracerError"]
__version__ = "0.1.0"
