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
