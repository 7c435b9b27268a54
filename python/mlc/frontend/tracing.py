"""Tracing: a Python function called on Tracers records hlo ops into a function body.

A `Tracer` stands for an array inside a function being traced: it knows its shape and
numpy dtype and holds the ir.Value computing it. The numpy-like API (`mlc.numpy`) builds
hlo ops on Tracers; every op gets the user's source line as its MLIR location. Python
control flow on a Tracer is impossible (its value is unknown until run time) and says so.
"""

from __future__ import annotations

import os
import sys
import threading
from dataclasses import dataclass, field

import numpy as np
from mlir import ir

from ..dialects.hlo.types import HloTypeError

_PACKAGE_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


class TracingError(TypeError):
    """A traced function did something that cannot be compiled; the message says why."""


class ConcretizationError(TracingError):
    """A traced value was used where Python needs a concrete value."""


class UnexpectedTracerError(TracingError):
    """A traced value escaped the function being traced (stored in a global, returned by a
    side channel) and was used after that trace, or inside another one (JAX's name)."""


@dataclass
class TraceContext:
    """The function being traced: where ops go, and the module that holds it."""

    module: ir.Module
    context: ir.Context
    locations: dict = field(default_factory=dict)
    # Splat attributes of Python scalars by (value, its type, sign, dtype, shape) (core.splat):
    # a graph multiplies by the same few scalars over and over.
    splats: dict = field(default_factory=dict)
    # (shape, numpy dtype) of each tensor type of the trace (core._shape_and_dtype): every
    # op's result is read back as one, and a graph has a few types.
    shapes: dict = field(default_factory=dict)

    def user_location(self) -> ir.Location:
        """The first frame outside MLC's own code: the user's line, as file:line:col."""
        frame = sys._getframe(2)
        while frame is not None and frame.f_code.co_filename.startswith(_PACKAGE_DIR):
            frame = frame.f_back
        if frame is None:
            return ir.Location.unknown(self.context)
        key = (frame.f_code.co_filename, frame.f_lineno)
        loc = self.locations.get(key)
        if loc is None:
            loc = ir.Location.file(key[0], key[1], 1, context=self.context)
            self.locations[key] = loc
        return loc


_state = threading.local()


def current_trace() -> TraceContext:
    trace = getattr(_state, "trace", None)
    if trace is None:
        raise TracingError("this mlc.numpy function needs a traced value: call it inside a "
                           "function decorated with @mlc.jit (outside jit, use numpy)")
    return trace


def tracing_active() -> bool:
    return getattr(_state, "trace", None) is not None


def active_trace() -> TraceContext | None:
    """The current trace of this thread, or None."""
    return getattr(_state, "trace", None)


class tracing:
    """`with tracing(trace):` makes `trace` the current one for this thread."""

    def __init__(self, trace: TraceContext):
        self.trace = trace

    def __enter__(self):
        self.previous = getattr(_state, "trace", None)
        _state.trace = self.trace
        return self.trace

    def __exit__(self, *exc):
        _state.trace = self.previous


def emit(build, *args, **kwargs):
    """Runs an hlo builder at the user's location; shape errors name the user's line."""
    trace = current_trace()
    loc = trace.user_location()
    try:
        with loc:
            return build(*args, **kwargs)
    except HloTypeError as e:
        op = getattr(build, "__name__", "op").rstrip("_")
        raise TypeError(f"{_where(loc)}: hlo.{op}: {e}") from None


def _where(loc: ir.Location) -> str:
    return f"{loc.filename}:{loc.start_line}" if loc.is_a_file() else "<unknown>"


class Tracer:
    """An array inside a traced function: shape, dtype, and the ir.Value computing it.

    `weak` marks a Python scalar (JAX's weak type): it takes the dtype of the array it
    meets instead of promoting it.
    """

    __slots__ = ("_value", "_trace", "shape", "dtype", "weak")
    __array_priority__ = 1000  # numpy defers to our operators: np_array + tracer -> tracer

    def __init__(self, value: ir.Value, shape: tuple, dtype: np.dtype, weak: bool = False):
        self._value = value
        self._trace = getattr(_state, "trace", None)
        self.shape = tuple(shape)
        self.dtype = np.dtype(dtype)
        self.weak = weak

    @property
    def value(self) -> ir.Value:
        """The ir.Value, only inside the trace that made it: a value of a finished trace
        belongs to a module (and context) that may be gone, and using it would crash."""
        if self._trace is not getattr(_state, "trace", None):
            raise UnexpectedTracerError(
                f"a traced value ({self.dtype}{list(self.shape)}) from another function's trace was used "
                f"here. It escaped the function being traced (a global, a closure or a list kept "
                f"after jit returned); pass it as an argument or return it instead.")
        return self._value

    def belongs_to(self, trace: TraceContext | None) -> bool:
        """Whether this Tracer was made in `trace` (so `value` may be read there)."""
        return self._trace is trace

    @property
    def ndim(self) -> int:
        return len(self.shape)

    @property
    def size(self) -> int:
        return int(np.prod(self.shape, dtype=np.int64))

    def __repr__(self) -> str:
        return f"Tracer<{self.dtype}{list(self.shape)}>"

    def __len__(self) -> int:
        if not self.shape:
            raise TypeError("len() of a 0-d traced array")
        return self.shape[0]

    def __iter__(self):
        if not self.shape:
            raise TypeError("iteration over a 0-d traced array")
        return (self[i] for i in range(self.shape[0]))

    def _concrete(self, what: str):
        raise ConcretizationError(
            f"{what} of a traced value ({self!r}) is unknown while tracing: the value exists "
            f"only when the compiled function runs. Use mlc.numpy.where or mlc.lax.cond for "
            f"data-dependent choices, or mark the argument static with "
            f"jit(..., static_argnums=...) if it is a compile-time constant.")

    def __bool__(self):
        self._concrete("The truth value")

    def __int__(self):
        self._concrete("The integer value")

    def __float__(self):
        self._concrete("The float value")

    def __index__(self):
        self._concrete("The index value")

    def __array__(self, *args, **kwargs):
        self._concrete("The numpy value")

    def __complex__(self):
        self._concrete("The complex value")

    def item(self, *args):
        self._concrete("The Python value (.item())")

    def tolist(self):
        self._concrete("The Python list (.tolist())")

    __hash__ = None  # mutable-free but value-less: not usable as a dict key
