"""What the host CPU can do, read once: its vector width and its number of cores.

LLVM's JIT already compiles for the host CPU (the ExecutionEngine detects it); MLC's own
strategies need the same facts earlier, to choose tile and vector sizes in MLIR.
"""

from __future__ import annotations

import functools
import os

from .. import config
from ..runtime.parallel_runtime import parallel_runtime_available


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


def host_vector_bits() -> int:
    """The width of the host's widest vector register: 512 (AVX-512), 256 (AVX/AVX2) or 128."""
    flags = cpu_flags()
    if "avx512f" in flags:
        return 512
    if "avx" in flags:
        return 256
    return 128


def vector_register_bits() -> int:
    """The vector width code is generated for: MLC_VECTOR_BITS if set, else the host's.

    Vector shapes follow it; what must run natively (calls into an ISA-specific library)
    follows host_vector_bits()."""
    return config.vector_bits() or host_vector_bits()


def int16_pair_dot(register_bits: int) -> bool:
    """Whether the host multiplies int16 pairs into int32 lanes in one instruction (VNNI's
    vpdpwssd) at this vector width: AVX512-VNNI at 512 bits (and at 256 with AVX512VL),
    AVX-VNNI at 256. The host's, not the target width's: the instruction must exist."""
    flags = cpu_flags()
    if register_bits == 512:
        return "avx512_vnni" in flags
    if register_bits == 256:
        return ("avx512_vnni" in flags and "avx512vl" in flags) or "avx_vnni" in flags
    return False


def num_threads() -> int:
    """Threads for parallel loops: MLC_NUM_THREADS if set, else the cores this process may
    use; 1 when MLC's parallel runtime cannot be built (no C compiler)."""
    n = config.num_threads()
    if n is None:
        n = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
    return n if n == 1 or parallel_runtime_available() else 1


def blas_on_pool() -> bool:
    """Whether numpy's OpenBLAS runs its parallel jobs on MLC's thread pool in this process
    (runtime/parallel_runtime.py's share_with_openblas; MLC_OPENBLAS_POOL=0 says no). Then
    no OpenBLAS worker spins beside MLC's loops after a call, and a function that calls BLAS
    may keep its loops parallel (mlc-sequential-beside-blas, blas._beside_blas)."""
    from ..runtime.parallel_runtime import share_with_openblas
    return share_with_openblas()


def sequential_beside_blas(setting: int = -1) -> bool:
    """Whether a function that calls BLAS runs its loops on one thread: a pass option's
    `beside` setting, 1 always, 0 never, -1 where OpenBLAS keeps its own (spinning) workers
    (not blas_on_pool)."""
    return setting == 1 or (setting == -1 and not blas_on_pool())


_DEFAULT_LLC_BYTES = 8 << 20
_DEFAULT_L2_BYTES = 256 << 10


@functools.cache
def _cache_sizes() -> dict[int, int]:
    """{cache level: bytes} of cpu0's data and unified caches (sysfs); empty when unreadable."""
    sizes: dict[int, int] = {}
    base = "/sys/devices/system/cpu/cpu0/cache"
    try:
        for entry in os.listdir(base):
            if not entry.startswith("index"):
                continue
            with open(f"{base}/{entry}/type") as f:
                if f.read().strip() == "Instruction":
                    continue
            with open(f"{base}/{entry}/level") as f:
                level = int(f.read().strip())
            with open(f"{base}/{entry}/size") as f:
                text = f.read().strip()
            scale = {"K": 1 << 10, "M": 1 << 20, "G": 1 << 30}.get(text[-1:], 1)
            sizes[level] = max(sizes.get(level, 0), int(text.rstrip("KMG")) * scale)
    except (OSError, ValueError):
        return {}
    return sizes


def last_level_cache_bytes() -> int:
    """The largest CPU cache of this host (sysfs), or 8 MiB when it cannot be read."""
    return max(_cache_sizes().values(), default=0) or _DEFAULT_LLC_BYTES


def l2_cache_bytes() -> int:
    """One core's level-2 cache (sysfs), or 256 KiB when it cannot be read."""
    return _cache_sizes().get(2) or _DEFAULT_L2_BYTES
