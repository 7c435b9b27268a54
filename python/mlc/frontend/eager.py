"""Eager calls: an mlc.numpy / mlc.lax / mlc.nn function called outside `mlc.jit` on
numpy arrays compiles itself (once per function, static arguments and array signature;
the array arguments are the compiled function's inputs, everything else is baked in as a
constant) and runs, as JAX's op-by-op mode. Inside a trace, or on Tracers, it is the
plain function."""

from __future__ import annotations

import functools
import threading

import numpy as np

from .pytree import flatten, unflatten
from .tracing import Tracer, tracing_active

_CACHE: dict = {}
_LOCK = threading.Lock()


def _is_array(leaf) -> bool:
    return isinstance(leaf, (np.ndarray, np.generic))


def _jitted(fn, structure, static, positions):
    key = (fn, structure, static, positions)
    with _LOCK:
        compiled = _CACHE.get(key)
        if compiled is None:
            from .jit import jit

            def call(*arrays):
                leaves = list(static)
                for i, a in zip(positions, arrays):
                    leaves[i] = a
                args, kwargs = unflatten(structure, leaves)
                return fn(*args, **kwargs)
            call.__name__ = getattr(fn, "__name__", "eager")
            compiled = _CACHE[key] = jit(call)
    return compiled


def eager(fn):
    """fn, made callable outside jit on numpy arrays and Python values."""
    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        if tracing_active():
            return fn(*args, **kwargs)
        leaves, structure = flatten((args, kwargs))
        if any(isinstance(leaf, Tracer) for leaf in leaves):
            return fn(*args, **kwargs)  # a leaked tracer: fn reports it
        positions = tuple(i for i, leaf in enumerate(leaves) if _is_array(leaf))
        static = tuple(None if i in positions else leaf for i, leaf in enumerate(leaves))
        try:
            hash(static)
        except TypeError:
            raise TypeError(f"{getattr(fn, '__name__', 'function')} called outside jit with an "
                            f"unhashable non-array argument; call it inside mlc.jit") from None
        compiled = _jitted(fn, structure, static, positions)
        return compiled(*[leaves[i] for i in positions])
    wrapper.__wrapped_eager__ = fn
    return wrapper


def eager_namespace(namespace: dict, names) -> None:
    """Wraps the functions among `names` in a module namespace with `eager` (in place)."""
    wrapped: dict = {}  # aliases (swish = silu) stay one object
    for name in names:
        value = namespace.get(name)
        if callable(value) and not isinstance(value, type) and not hasattr(value, "__wrapped_eager__"):
            if id(value) not in wrapped:
                wrapped[id(value)] = eager(value)
            namespace[name] = wrapped[id(value)]
