"""The element types the fuzzers use, their numpy dtypes and their edge values.

bf16 has a numpy dtype only through ml_dtypes, and MLC does not take or return bf16 arrays
(docs/dialect.md), so bf16 appears only *inside* generated programs, as a convert target
(f32 -> bf16 -> f32), and only when ml_dtypes is installed.
"""

from __future__ import annotations

import numpy as np

try:
    import ml_dtypes  # noqa: F401
    HAVE_BF16 = True
except ImportError:  # pragma: no cover - depends on the environment
    HAVE_BF16 = False

SIGNED = ("i8", "i16", "i32", "i64")
UNSIGNED = ("ui8", "ui16", "ui32", "ui64")
FLOATS = ("f16", "f32", "f64")
BOOL = "i1"
INTS = SIGNED + UNSIGNED
ALL = (BOOL,) + INTS + FLOATS

NUMPY = {
    "i1": np.dtype(np.bool_), "i8": np.dtype(np.int8), "i16": np.dtype(np.int16),
    "i32": np.dtype(np.int32), "i64": np.dtype(np.int64), "ui8": np.dtype(np.uint8),
    "ui16": np.dtype(np.uint16), "ui32": np.dtype(np.uint32), "ui64": np.dtype(np.uint64),
    "f16": np.dtype(np.float16), "f32": np.dtype(np.float32), "f64": np.dtype(np.float64),
}

# Element classes of ops.py's table -> the element type names that belong to them.
CLASSES = {
    "any": ALL,
    "number": INTS + FLOATS,
    "float": FLOATS,
    "integer": (BOOL,) + INTS,
    "int": INTS,
}


def bit_width(name: str) -> int:
    return 1 if name == "i1" else NUMPY[name].itemsize * 8


def is_float(name: str) -> bool:
    return name.startswith("f") or name == "bf16"


def edge_values(name: str) -> list:
    """Values every fuzzer mixes into its inputs: zeros, ones, extremes, NaN, infinities."""
    dt = NUMPY[name]
    if name == "i1":
        return [False, True]
    if dt.kind in "iu":
        info = np.iinfo(dt)
        vals = [0, 1, info.max, info.max - 1, info.min, 2, 7]
        if dt.kind == "i":
            vals += [-1, info.min + 1, -2]
        return vals
    info = np.finfo(dt)
    return [0.0, -0.0, 1.0, -1.0, 0.5, float(info.max), -float(info.max), float(info.tiny),
            float(info.smallest_subnormal), float("nan"), float("inf"), float("-inf"), 2.5, -2.5]


def tensor_type(shape, name: str) -> str:
    return "tensor<" + "".join(f"{s}x" for s in shape) + name + ">"
