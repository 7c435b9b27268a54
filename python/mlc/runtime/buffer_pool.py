"""A caching allocator for large result arrays (what XLA's BFC allocator does for JAX).

Every call of a compiled function returns fresh numpy arrays. A large `np.empty` is a
fresh mmap, and the kernel then takes a page fault per 4 KiB it first writes: measured
here, writing a new 16 MiB result cost more than computing softmax on it. The pool keeps
the memory of results the program has dropped and hands it out again.

A result is a numpy array whose base is a `_Lease`; when the last array (or view) using
it is gone, the lease returns its block to the pool. Only results of at least MIN_BYTES
go through the pool (small ones are cheap for numpy's own allocator), and the pool keeps at
most MAX_CACHED_BYTES of free blocks; the rest is freed normally.
"""

from __future__ import annotations

import math
import threading
from collections import defaultdict

import numpy as np

MIN_BYTES = 1 << 20
MAX_CACHED_BYTES = 1 << 30
_ALIGNMENT = 64


def aligned_bytes(nbytes: int) -> np.ndarray:
    """A new uint8 array of `nbytes` whose data starts on a 64-byte boundary."""
    raw = np.empty(nbytes + _ALIGNMENT, np.uint8)
    start = -raw.ctypes.data % _ALIGNMENT
    return raw[start:start + nbytes]


class _Lease:
    """Owns one pool block while arrays use it (numpy keeps it as their base)."""

    __slots__ = ("__array_interface__", "_block", "_pool")

    def __init__(self, pool: "BufferPool", block: np.ndarray, shape: tuple, dtype: np.dtype):
        self._pool = pool
        self._block = block
        self.__array_interface__ = {"data": (block.ctypes.data, False), "shape": shape,
                                    "typestr": dtype.str, "version": 3}

    def __del__(self):
        self._pool.release(self._block)


class BufferPool:
    """Free blocks by byte size; thread-safe."""

    def __init__(self, max_cached_bytes: int = MAX_CACHED_BYTES):
        self._free: dict[int, list[np.ndarray]] = defaultdict(list)
        self._cached = 0
        self._max = max_cached_bytes
        self._lock = threading.Lock()

    def empty(self, shape: tuple, dtype: np.dtype, nbytes: int | None = None) -> np.ndarray:
        """An uninitialized C-contiguous array, 64-byte aligned, from the pool when it is
        large. `nbytes` (the array's size, if the caller knows it) saves computing it."""
        if nbytes is None:
            nbytes = math.prod(shape) * dtype.itemsize
        if nbytes < MIN_BYTES:
            return np.empty(shape, dtype)
        with self._lock:
            blocks = self._free.get(nbytes)
            block = blocks.pop() if blocks else None
            if block is not None:
                self._cached -= nbytes
        if block is None:
            block = aligned_bytes(nbytes)
        return np.asarray(_Lease(self, block, shape, dtype))

    def release(self, block: np.ndarray) -> None:
        with self._lock:
            if self._cached + block.nbytes <= self._max:
                self._free[block.nbytes].append(block)
                self._cached += block.nbytes

    @property
    def cached_bytes(self) -> int:
        return self._cached


POOL = BufferPool()
