"""MLC: an XLA-style ML compiler on the upstream MLIR Python bindings.

`mlc.jit(f)` traces a numpy-like function (written with `mlc.numpy`, `mlc.nn`) into the
hlo dialect, compiles it once per signature and runs it on numpy arrays;
`mlc.compile(hlo_text)` does the same for an hlo module.
"""

from .compiler import compile, lower  # noqa: A004
from .diagnostics import CompileError
from .frontend.jit import Compiled, Jitted, Lowered, Traced, jit
from .options import CompileOptions
from .frontend.tracing import ConcretizationError, TracingError, UnexpectedTracerError
from .runtime.executable import Executable

from .autodiff.api import grad, hessian, jacfwd, jacrev, jvp, value_and_grad, vjp
from .autodiff.custom import custom_jvp, custom_vjp, stop_gradient
from .autodiff.errors import DifferentiationError
from .frontend.eval_shape import ShapeDtypeStruct, block_until_ready, device_put, eval_shape
from .batching.api import vmap

# The JAX-shaped namespaces, as `import jax; jax.lax.fori_loop` works.
from . import distributed, lax, nn, numpy, random, stablehlo, tree_util  # noqa: E402

# Imported on first use (`mlc.reference`, `from mlc import reference`): the reference
# interpreter imports ml_dtypes, which alone took 1.3-1.6 s, most of `import mlc`.
_LAZY_SUBMODULES = ("reference",)


def __getattr__(name: str):
    if name in _LAZY_SUBMODULES:
        import importlib
        return importlib.import_module(f"{__name__}.{name}")  # also binds it on this module
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__():
    return sorted(set(globals()) | set(_LAZY_SUBMODULES))


__all__ = ["distributed", "lax", "nn", "numpy", "random", "reference", "stablehlo", "tree_util", "compile", "lower", "jit", "Jitted", "Traced", "Lowered", "Compiled", "CompileOptions", "CompileError", "Executable",
           "TracingError", "ConcretizationError", "UnexpectedTracerError",
           "grad", "value_and_grad", "vjp", "jvp", "jacfwd", "jacrev", "hessian", "custom_vjp",
           "custom_jvp", "stop_gradient", "DifferentiationError", "vmap"]
__all__ += ["eval_shape", "ShapeDtypeStruct", "block_until_ready", "device_put"]
__version__ = "0.1.0"
