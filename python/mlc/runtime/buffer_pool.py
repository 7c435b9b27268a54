"""A caching allocator for large result arrays (what XLA's BFC allocator does for JAX).

Every call of a compiled function returns fresh numpy arrays. A large `np.empty` is a
fresh mmap, and the kernel then takes a page fault per 4 KiB it first writes: measured
here, writing a new 16 MiB result cost more than computing softmax on it. The pool keeps
the memory of results the program has dropped and hands it out again.

A result is a numpy view of a block the pool owns: numpy points every view's `base` at the
array that owns the memory, so a block is free exactly when nothing but the pool refers to
it (its reference count is the pool's own). Handing one out costs a view (~1 us), where
a result whose base was an `__array_interface__` object with a `__del__` cost ~10 us per
call, paid again when it died, and far more right after a call that swept the caches (an
MPI all-reduce of 4 MB: ~0.1 ms per call). Only results of at least MIN_BYTES go through
the pool (small ones are cheap for numpy's own allocator), and the blocks it keeps (in use
or free) stay under MAX_CACHED_BYTES: a new block that would pass the cap first evicts free
blocks, and is allocated outside the pool when that is not enough.
"""

from __future__ import annotations

import math
import sys
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


def _calibrate() -> int:
    """The reference count of a block nothing but the pool holds, seen as the pool's loops
    see it: its entry in a list, the loop variable, getrefcount's own argument."""
    entries = [(np.empty(1, np.uint8), 0)]
    for owner, _ in entries:
        return sys.getrefcount(owner)


_IDLE_REFS = _calibrate()


class BufferPool:
    """Blocks by byte size, each an (owner array, aligned start) pair; thread-safe."""

    def __init__(self, max_cached_bytes: int = MAX_CACHED_BYTES):
        self._blocks: dict[int, list[tuple[np.ndarray, int]]] = defaultdict(list)
        self._held = 0  # bytes of all blocks the pool keeps, in use or free
        self._max = max_cached_bytes
        self._lock = threading.Lock()

    def empty(self, shape: tuple, dtype: np.dtype, nbytes: int | None = None) -> np.ndarray:
        """An uninitialized C-contiguous array, 64-byte aligned, from the pool when it is
        large. `nbytes` (the array's size, if the caller knows it) saves computing it."""
        if nbytes is None:
            nbytes = math.prod(shape) * dtype.itemsize
        if nbytes < MIN_BYTES:
            return np.empty(shape, dtype)
        with self._lock:  # the view is made under the lock: then no other thread sees it idle
            blocks = self._blocks[nbytes]
            for owner, start in blocks:
                if sys.getrefcount(owner) <= _IDLE_REFS:  # no result uses it
                    return np.ndarray(shape, dtype, owner, start)
            owner, start = self._new_block(nbytes)
            return np.ndarray(shape, dtype, owner, start)

    def _new_block(self, nbytes: int) -> tuple[np.ndarray, int]:
        if self._held + nbytes > self._max:
            self._evict(self._held + nbytes - self._max)
        block = aligned_bytes(nbytes)
        entry = (block.base, block.ctypes.data - block.base.ctypes.data)
        if self._held + nbytes <= self._max:
            self._blocks[nbytes].append(entry)
            self._held += nbytes
        return entry

    def _evict(self, wanted: int) -> None:
        """Drops free blocks (any size) until `wanted` bytes are gone or none is left."""
        for size, blocks in self._blocks.items():
            kept = []
            for owner, start in blocks:
                if wanted > 0 and sys.getrefcount(owner) <= _IDLE_REFS:
                    wanted -= size
                    self._held -= size
                else:
                    kept.append((owner, start))
            blocks[:] = kept

    @property
    def cached_bytes(self) -> int:
        """Bytes of the blocks no result uses at the moment."""
        with self._lock:
            return sum(size for size, blocks in self._blocks.items()
                       for owner, _ in blocks if sys.getrefcount(owner) <= _IDLE_REFS)


POOL = BufferPool()
