"""The one registry of the reference interpreter: op name -> evaluator, and what evaluators share.

An evaluator is `fn(ctx, *operands) -> value | list[value]`: `ctx` is the `OpContext` of
the op being run (its attributes as Python values, its result dtypes and shapes, and the
interpreter for regions and calls); operands are numpy arrays (tensors, 0-d for tensor<T>)
or numpy scalars (i1, index and other scalar values). An evaluator returns one value per
op result (a bare value when there is one). Values are numpy arrays of the dtype
`numpy_dtype_of(element type)` gives: i1 -> bool, iN -> intN, uiN -> uintN, fN -> floatN,
bf16 -> ml_dtypes.bfloat16 when ml_dtypes is installed, index -> int64.

Every evaluator runs under `np.errstate(all="ignore")`: integers wrap like two's
complement in their own width, floats overflow to inf and produce NaN silently.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import Any, Callable

import numpy as np
from mlir import ir

try:  # numpy has no bf16; ml_dtypes (when present) gives one, else bf16 values are refused
    import ml_dtypes as _ml_dtypes
except ImportError:  # pragma: no cover - depends on the environment
    _ml_dtypes = None

Evaluator = Callable[..., Any]


@dataclass
class Terminated:
    """What a terminator's evaluator returns: the values it passes to the parent op."""

    values: list

EVALUATORS: dict[str, Evaluator] = {}

_DTYPES = {
    "i1": np.dtype(np.bool_), "i8": np.dtype(np.int8), "i16": np.dtype(np.int16),
    "i32": np.dtype(np.int32), "i64": np.dtype(np.int64), "ui8": np.dtype(np.uint8),
    "ui16": np.dtype(np.uint16), "ui32": np.dtype(np.uint32), "ui64": np.dtype(np.uint64),
    "si8": np.dtype(np.int8), "si16": np.dtype(np.int16), "si32": np.dtype(np.int32),
    "si64": np.dtype(np.int64), "f16": np.dtype(np.float16), "f32": np.dtype(np.float32),
    "f64": np.dtype(np.float64), "index": np.dtype(np.int64),
}
if _ml_dtypes is not None:
    _DTYPES["bf16"] = np.dtype(_ml_dtypes.bfloat16)


def evaluates(*names: str):
    """Registers `fn` as the evaluator of each op name (full names: `hlo.add`, `scf.if`)."""
    def register(fn: Evaluator) -> Evaluator:
        for name in names:
            if name in EVALUATORS:
                raise AssertionError(f"two evaluators for {name}")
            EVALUATORS[name] = fn
        return fn
    return register


def numpy_dtype_of(t: ir.Type) -> np.dtype:
    """The numpy dtype of an element type (or of a tensor type's elements)."""
    if isinstance(t, ir.ShapedType):
        t = ir.ShapedType(t).element_type
    try:
        return _DTYPES[str(t)]
    except KeyError:
        raise NotImplementedError(f"the reference interpreter has no numpy dtype for {t}") from None


def is_float_dtype(dt: np.dtype) -> bool:
    return dt.kind == "f" or dt.name == "bfloat16"


def bits_of(dt: np.dtype) -> int:
    return 1 if dt == np.bool_ else dt.itemsize * 8


def contiguous(x) -> np.ndarray:
    """`x` as a C-contiguous array (0-d stays 0-d, unlike np.ascontiguousarray in numpy 1)."""
    x = np.asarray(x)
    return x if x.flags.c_contiguous else x.copy(order="C")


def unsigned_view(x: np.ndarray) -> np.ndarray:
    """The same bits as the unsigned integer type of the same width."""
    return contiguous(x).view(np.dtype(f"u{x.dtype.itemsize}"))


def signed_view(x: np.ndarray) -> np.ndarray:
    return contiguous(x).view(np.dtype(f"i{x.dtype.itemsize}"))


def as_array(value, dtype: np.dtype) -> np.ndarray:
    """`value` as a C-contiguous array of `dtype`, converted without value checks (wraps)."""
    return contiguous(np.asarray(value).astype(dtype, copy=False))


@dataclass
class OpContext:
    """What an evaluator may ask about the op it evaluates."""

    op: ir.Operation
    interpreter: Any  # the Interpreter: regions and calls are evaluated through it
    frame: dict       # the values of the function being run (regions see the enclosing ones)

    def run_region(self, i: int, args) -> list:
        """Runs the op's region i with its block arguments bound to `args`; the values its
        terminator (scf.yield, scf.condition) passes on."""
        return self.interpreter.run_region(self.op.regions[i], list(args), self.frame)

    @cached_property
    def attrs(self) -> dict:
        """An hlo op's attributes as Python values (verify.signature_of), by name."""
        from ..dialects.hlo.verify import signature_of
        return signature_of(self.op).attributes

    def result_type(self, i: int = 0) -> ir.Type:
        return self.op.results[i].type

    def result_dtype(self, i: int = 0) -> np.dtype:
        return numpy_dtype_of(self.op.results[i].type)

    def result_shape(self, i: int = 0) -> tuple[int, ...]:
        return tuple(ir.RankedTensorType(self.op.results[i].type).shape)

    def operand_type(self, i: int) -> ir.Type:
        return self.op.operands[i].type
