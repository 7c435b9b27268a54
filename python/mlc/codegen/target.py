"""What the host CPU can do, read once: its vector width and its number of cores.

LLVM's JIT already compiles for the host CPU (the ExecutionEngine detects it); MLC's own
strategies need the same facts earlier, to choose tile and vector sizes in MLIR.
"""

from __future__ import annotations

import functools
import os


@functools.cache
def cpu_flags() -> frozenset[str]:
    """The feature flags of the host CPU (Linux's /proc/cpuinfo); empty when unknown."""
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("flags"):
                    return frozenset(line.split(":", 1)[1].split())
    except OSError:
        pass
    return frozenset()


def vector_register_bits() -> int:
    """The width of the widest vector register: 512 (AVX-512), 256 (AVX/AVX2) or 128."""
    flags = cpu_flags()
    if "avx512f" in flags:
        return 512
    if "avx" in flags:
        return 256
    return 128


def num_threads() -> int:
    """Threads for parallel loops: MLC_NUM_THREADS if set, else the cores this process may use."""
    text = os.environ.get("MLC_NUM_THREADS", "").strip()
    if text:
        try:
            n = int(text)
        except ValueError:
            raise ValueError(f"MLC_NUM_THREADS must be a positive integer, got '{text}'") from None
        if n < 1:
            raise ValueError(f"MLC_NUM_THREADS must be a positive integer, got '{text}'")
        return n
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
