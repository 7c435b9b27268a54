"""The element types MLC passes between numpy and compiled code, in one table.

Signless integers are signed here (i1 is numpy's bool); `ui8`..`ui64` are unsigned. Each entry maps a
numpy dtype to the MLIR element type spelling used in tensor and memref types.
"""

from __future__ import annotations

import numpy as np

NUMPY_TO_MLIR = {
    np.dtype(np.float16): "f16",
    np.dtype(np.float32): "f32",
    np.dtype(np.float64): "f64",
    np.dtype(np.bool_): "i1",
    np.dtype(np.int8): "i8",
    np.dtype(np.int16): "i16",
    np.dtype(np.int32): "i32",
    np.dtype(np.int64): "i64",
    np.dtype(np.uint8): "ui8",
    np.dtype(np.uint16): "ui16",
    np.dtype(np.uint32): "ui32",
    np.dtype(np.uint64): "ui64",
}
MLIR_TO_NUMPY = {v: k for k, v in NUMPY_TO_MLIR.items()}


def mlir_element_name(dtype) -> str:
    """The MLIR spelling of a numpy dtype, or a TypeError naming the supported ones."""
    dt = np.dtype(dtype)
    try:
        return NUMPY_TO_MLIR[dt]
    except KeyError:
        raise TypeError(f"dtype {dt} is not supported; supported: "
                        f"{', '.join(str(d) for d in NUMPY_TO_MLIR)}") from None


# The bindings hand back types downcast to their class (F32Type, IntegerType, ...), so
# the class name and an integer's width find the dtype without printing the type (7 us).
_FLOAT_CLASSES = {"F16Type": np.dtype(np.float16), "F32Type": np.dtype(np.float32),
                  "F64Type": np.dtype(np.float64)}
_INTEGERS = {(dt.itemsize * 8 if dt.kind != "b" else 1, dt.kind == "u"): dt
             for dt in NUMPY_TO_MLIR if dt.kind in "biu"}


def numpy_dtype(element_type) -> np.dtype:
    """The numpy dtype of an MLIR element type (an ir.Type or its spelling)."""
    kind = type(element_type).__name__
    found = _FLOAT_CLASSES.get(kind)
    if found is not None:
        return found
    if kind == "IntegerType" and not element_type.is_signed:  # si8 has no numpy twin here
        found = _INTEGERS.get((element_type.width, element_type.is_unsigned))
        if found is not None:
            return found
    name = str(element_type)
    try:
        return MLIR_TO_NUMPY[name]
    except KeyError:
        raise TypeError(f"element type {name} has no numpy equivalent here; supported: "
                        f"{', '.join(MLIR_TO_NUMPY)}") from None
