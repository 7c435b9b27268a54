"""mlc.eval_shape: the shapes and dtypes of fun(*args) without compiling or running it
(fun is traced into a scratch module and thrown away), as jax.eval_shape; and the
device no-ops of a CPU-only compiler, block_until_ready and device_put."""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from mlir import ir
from mlir.dialects import func

from ..context import thread_context
from .core import DEFAULT_FLOAT, DEFAULT_INT, asarray, element_type
from .pytree import flatten, unflatten
from .tracing import TraceContext, Tracer, tracing


class ShapeDtypeStruct(NamedTuple):
    """An array's shape and dtype, standing for it in eval_shape (and its result)."""

    shape: tuple
    dtype: np.dtype

    @property
    def ndim(self) -> int:
        return len(self.shape)

    @property
    def size(self) -> int:
        return int(np.prod(self.shape, dtype=np.int64))

    def __repr__(self) -> str:
        return f"ShapeDtypeStruct(shape={tuple(self.shape)}, dtype={np.dtype(self.dtype).name})"


def _struct(shape, dtype) -> ShapeDtypeStruct:
    return ShapeDtypeStruct(tuple(int(s) for s in shape), np.dtype(dtype))


def _spec(leaf) -> tuple:
    """(shape, dtype, weak) of an eval_shape argument leaf."""
    if isinstance(leaf, ShapeDtypeStruct) or (hasattr(leaf, "shape") and hasattr(leaf, "dtype")):
        return tuple(int(s) for s in leaf.shape), np.dtype(leaf.dtype), False
    if isinstance(leaf, bool):
        return (), np.dtype(np.bool_), False
    if isinstance(leaf, int):
        return (), DEFAULT_INT, True
    if isinstance(leaf, float):
        return (), DEFAULT_FLOAT, True
    raise TypeError(f"eval_shape arguments must be arrays, ShapeDtypeStructs or Python scalars, "
                    f"got {type(leaf).__name__}")


def _is_struct(x) -> bool:
    return isinstance(x, ShapeDtypeStruct)


def eval_shape(fun, *args, **kwargs):
    """A pytree of ShapeDtypeStruct like fun(*args, **kwargs)'s result."""
    leaves, structure = flatten((args, kwargs), is_leaf=_is_struct)
    specs = [_spec(leaf) for leaf in leaves]
    context = thread_context()  # (this thread's, as jit's traces: a new one costs ~5 ms)
    with context, ir.Location.unknown():
        module = ir.Module.create()
        trace = TraceContext(module, context)
        types = [ir.RankedTensorType.get(list(s), element_type(d)) for s, d, _ in specs]
        result = {}
        with ir.InsertionPoint(module.body), tracing(trace):
            f = func.FuncOp("eval_shape", (types, []))
            block = f.add_entry_block()
            with ir.InsertionPoint(block):
                tracers = [Tracer(v, s, d, w) for v, (s, d, w) in zip(block.arguments, specs)]
                call_args, call_kwargs = unflatten(structure, tracers)
                out = fun(*call_args, **call_kwargs)
                out_leaves, out_structure = flatten(out)
                out_tracers = [asarray(x) for x in out_leaves]
                result["value"] = unflatten(out_structure, [_struct(t.shape, t.dtype) for t in out_tracers])
                func.ReturnOp([])
    return result["value"]


def block_until_ready(x):
    """x itself: MLC's calls return finished numpy arrays (JAX's asynchronous dispatch has
    nothing to wait for here)."""
    return x


def device_put(x, device=None, *, src=None, donate=False, may_alias=None):
    """x as numpy arrays (leaves converted with numpy.asarray): there is one device, the CPU."""
    leaves, structure = flatten(x)
    def put(leaf):
        if isinstance(leaf, Tracer):
            return leaf
        if isinstance(leaf, (bool, int, float)) and not isinstance(leaf, np.generic):  # JAX's defaults
            return np.asarray(leaf, np.bool_ if isinstance(leaf, bool) else DEFAULT_INT if isinstance(leaf, int)
                              else DEFAULT_FLOAT)
        return np.asarray(leaf)
    return unflatten(structure, [put(leaf) for leaf in leaves])


__all__ = ["ShapeDtypeStruct", "eval_shape", "block_until_ready", "device_put"]
