"""Memref descriptors for calling JIT code with numpy arrays, without per-call ctypes work.

MLIR's C interface passes a ranked memref as a pointer to
`{allocated, aligned, offset, sizes[rank], strides[rank]}`. The struct class for a rank is
built once (`descriptor_class`), and an Executable keeps one filled-in descriptor per
argument: a call only stores the array's data pointer into it.
"""

from __future__ import annotations

import ctypes
import functools
from dataclasses import dataclass

import numpy as np


@functools.cache
def descriptor_class(rank: int) -> type[ctypes.Structure]:
    fields = [("allocated", ctypes.c_void_p), ("aligned", ctypes.c_void_p),
              ("offset", ctypes.c_int64)]
    if rank:
        fields += [("sizes", ctypes.c_int64 * rank), ("strides", ctypes.c_int64 * rank)]
    return type(f"MemRefDescriptor{rank}D", (ctypes.Structure,), {"_fields_": fields})


def _read_data_field(array: np.ndarray) -> int:
    # PyArrayObject starts with PyObject_HEAD, then `char *data` (numpy's stable C ABI):
    # reading that field costs ~0.2 us where `array.ctypes.data` costs ~1.5 us.
    return ctypes.c_void_p.from_address(id(array) + _DATA_OFFSET).value or 0


def _ctypes_data(array: np.ndarray) -> int:
    return array.ctypes.data


_DATA_OFFSET = ctypes.sizeof(ctypes.c_ssize_t) + ctypes.sizeof(ctypes.c_void_p)


def _pick_data_pointer():
    """The fast field read if it agrees with numpy's own answer here, else numpy's."""
    probes = [np.arange(7, dtype=np.float32), np.zeros((3, 4))[1:, ::2], np.empty(0)]
    if all(_read_data_field(p) == p.ctypes.data for p in probes[:2]):
        return _read_data_field
    return _ctypes_data


data_pointer = _pick_data_pointer()


def _read_data_fields(arrays) -> list[int]:
    read = ctypes.c_void_p.from_address
    return [read(id(a) + _DATA_OFFSET).value or 0 for a in arrays]


# data_pointer of each array, the field read inlined (a call per array is half the cost).
data_pointers = _read_data_fields if data_pointer is _read_data_field else \
    (lambda arrays: [_ctypes_data(a) for a in arrays])


# From this many arrays on, a call checked in Python stores their pointers natively
# (runtime/signature_check.py): below it, the native call costs more than the stores it
# replaces. (The jit fast path's native check stores them whatever their number.)
NATIVE_POINTERS_MIN = 16


@dataclass(frozen=True)
class TensorSpec:
    """A statically shaped array: what an argument or result of a compiled function is."""

    shape: tuple[int, ...]
    dtype: np.dtype

    def __str__(self) -> str:
        return f"{self.dtype}[{', '.join(map(str, self.shape))}]"


def make_descriptor(spec: TensorSpec) -> ctypes.Structure:
    """A descriptor with the sizes and row-major strides of `spec`; pointers are set per call."""
    desc = descriptor_class(len(spec.shape))()
    if spec.shape:
        stride, element_strides = 1, []
        for size in reversed(spec.shape):
            element_strides.append(stride)
            stride *= size
        desc.sizes[:] = list(spec.shape)
        desc.strides[:] = list(reversed(element_strides))
    return desc


def checked_argument(i: int, value, spec: TensorSpec, signature: str) -> np.ndarray:
    """Argument `i` of a call to `signature` as an array of `spec`'s shape and dtype (a
    Python or numpy scalar becomes a 0-d array); a TypeError or ValueError naming the
    argument otherwise. Masked arrays are refused: the mask would be silently dropped."""
    if isinstance(value, np.ma.MaskedArray):
        raise TypeError(f"argument {i} of {signature} is a numpy masked array "
                        f"(numpy.ma.MaskedArray): compiled code reads its data and would "
                        f"silently ignore the mask; pass x.filled(value), or x.data and the "
                        f"mask as separate arrays")
    if isinstance(value, np.ndarray):
        array = value
    elif isinstance(value, (bool, int, float, np.generic)) and not spec.shape:
        array = np.asarray(value, dtype=spec.dtype)
    else:
        raise TypeError(f"argument {i} of {signature} must be a numpy array, got {type(value).__name__}")
    if array.dtype != spec.dtype:
        raise TypeError(f"argument {i} of {signature} must have dtype {spec.dtype}, got {array.dtype}")
    if array.shape != spec.shape:
        raise ValueError(f"argument {i} of {signature} must have shape {spec.shape}, got {array.shape}")
    return array

