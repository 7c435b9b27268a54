"""The one place MLC reads environment variables.

MLC_DUMP_DIR=dir         write the IR of every stage of every jit compile into dir
MLC_LOG_COMPILES=1       log each jit compile (signature, and what changed on a re-compile)
MLC_NUM_THREADS=n        threads for parallel loops (default: the cores this process may use)
MLC_VECTOR_BITS=256|512  the vector register width code is generated for (default: the
                         host's; 128 also accepted). Wider than the host is still correct
                         code (LLVM splits the vectors), only slower; tests use it to cover
                         both AVX2 and AVX-512 code on any host.
MLC_BLAS=0               no BLAS calls: every matmul runs MLC's generated code

Each is read when it is needed (at compile time), so a test may set one for one compile.
"""

from __future__ import annotations

import os

VECTOR_BITS = (128, 256, 512)


def dump_dir() -> str | None:
    return os.environ.get("MLC_DUMP_DIR") or None


def log_compiles() -> bool:
    return os.environ.get("MLC_LOG_COMPILES", "0") not in ("", "0", "false", "False")


def num_threads() -> int | None:
    """MLC_NUM_THREADS as a positive int, None when unset; a ValueError names a bad value."""
    text = os.environ.get("MLC_NUM_THREADS", "").strip()
    if not text:
        return None
    if not text.isdigit() or int(text) < 1:
        raise ValueError(f"MLC_NUM_THREADS must be a positive integer, got '{text}'")
    return int(text)


def vector_bits() -> int | None:
    """MLC_VECTOR_BITS (128, 256 or 512), None when unset; a ValueError names a bad value."""
    text = os.environ.get("MLC_VECTOR_BITS", "").strip()
    if not text:
        return None
    if not text.isdigit() or int(text) not in VECTOR_BITS:
        raise ValueError(f"MLC_VECTOR_BITS must be one of {', '.join(map(str, VECTOR_BITS))}, got '{text}'")
    return int(text)


def blas_enabled() -> bool:
    return os.environ.get("MLC_BLAS", "1").strip() != "0"


def check() -> None:
    """Raises a ValueError naming the first malformed setting; called before a compile so
    a bad value is reported where the user's call is, not from inside a pass."""
    num_threads()
    vector_bits()
