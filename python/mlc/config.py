"""The one place MLC reads environment variables.

MLC_DUMP_DIR=dir         write the IR after every stage of every compile into dir
                         (<name>.<n>.<stage>.mlir; such compiles skip the cache lookup)
MLC_LOG_COMPILES=1       log each jit compile (signature, and what changed on a re-compile)
                         and each persistent-cache hit, miss (with the key field that
                         changed), store and corrupt entry
MLC_NUM_THREADS=n        threads for parallel loops (default: the cores this process may use)
MLC_VECTOR_BITS=256|512  the vector register width code is generated for (default: the
                         host's; 128 also accepted). Wider than the host is still correct
                         code (LLVM splits the vectors), only slower; tests use it to cover
                         both AVX2 and AVX-512 code on any host.
MLC_BLAS=0               no BLAS calls: every matmul runs MLC's generated code
MLC_CACHE=0              no persistent compilation cache (on by default)
MLC_CACHE_DIR=dir        where the persistent cache lives (default: the user cache
                         directory, $XDG_CACHE_HOME/mlc or ~/.cache/mlc)
MLC_CACHE_MAX_MB=n       the cache's size cap; least recently used entries go first (1024)

Each is read when it is needed (at compile time), so a test may set one for one compile.
MLC_NUM_THREADS, MLC_VECTOR_BITS and MLC_BLAS make the default CompileOptions
(`default_options()`); while a compile runs, `num_threads()`, `vector_bits()` and
`blas_enabled()` answer from that compile's options (`compiling_with`), so passes that ask
here see the options the caller gave.
"""

from __future__ import annotations

import contextlib
import contextvars
import os

from .options import VECTOR_BITS, CompileOptions

# The options of the compile running in this thread (passes run on the compiling thread).
_ACTIVE: contextvars.ContextVar[CompileOptions | None] = contextvars.ContextVar("mlc_options", default=None)


@contextlib.contextmanager
def compiling_with(options: CompileOptions):
    """While the block runs, the settings below answer from `options`."""
    token = _ACTIVE.set(options)
    try:
        yield options
    finally:
        _ACTIVE.reset(token)


def default_options() -> CompileOptions:
    """CompileOptions from the environment; a ValueError names a malformed variable."""
    return CompileOptions(threads=_env_num_threads(), vector_bits=_env_vector_bits(), blas=_env_blas())


def dump_dir() -> str | None:
    return os.environ.get("MLC_DUMP_DIR") or None


def log_compiles() -> bool:
    return os.environ.get("MLC_LOG_COMPILES", "0") not in ("", "0", "false", "False")


def num_threads() -> int | None:
    """Threads for parallel loops: the running compile's option, else MLC_NUM_THREADS; None
    means the host's cores."""
    active = _ACTIVE.get()
    return active.threads if active is not None else _env_num_threads()


def vector_bits() -> int | None:
    """The vector width: the running compile's option, else MLC_VECTOR_BITS; None means the host's."""
    active = _ACTIVE.get()
    return active.vector_bits if active is not None else _env_vector_bits()


def blas_enabled() -> bool:
    active = _ACTIVE.get()
    return active.blas if active is not None else _env_blas()


def _env_num_threads() -> int | None:
    """MLC_NUM_THREADS as a positive int, None when unset; a ValueError names a bad value."""
    text = os.environ.get("MLC_NUM_THREADS", "").strip()
    if not text:
        return None
    if not text.isdigit() or int(text) < 1:
        raise ValueError(f"MLC_NUM_THREADS must be a positive integer, got '{text}'")
    return int(text)


def _env_vector_bits() -> int | None:
    """MLC_VECTOR_BITS (128, 256 or 512), None when unset; a ValueError names a bad value."""
    text = os.environ.get("MLC_VECTOR_BITS", "").strip()
    if not text:
        return None
    if not text.isdigit() or int(text) not in VECTOR_BITS:
        raise ValueError(f"MLC_VECTOR_BITS must be one of {', '.join(map(str, VECTOR_BITS))}, got '{text}'")
    return int(text)


def _env_blas() -> bool:
    return os.environ.get("MLC_BLAS", "1").strip() != "0"


def check() -> None:
    """Raises a ValueError naming the first malformed setting; called before a compile so
    a bad value is reported where the user's call is, not from inside a pass."""
    default_options()


# --- the persistent compilation cache --------------------------------------------------

def cache_enabled() -> bool:
    return os.environ.get("MLC_CACHE", "1").strip() not in ("0", "false", "False", "off")


def cache_dir() -> str:
    """MLC_CACHE_DIR, else the user cache directory's mlc/ (XDG_CACHE_HOME or ~/.cache)."""
    explicit = os.environ.get("MLC_CACHE_DIR", "").strip()
    if explicit:
        return explicit
    base = os.environ.get("XDG_CACHE_HOME", "").strip() or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "mlc")


def cache_max_bytes() -> int:
    text = os.environ.get("MLC_CACHE_MAX_MB", "").strip()
    if not text:
        return 1024 << 20
    try:
        return max(0, int(float(text) * (1 << 20)))
    except ValueError:
        raise ValueError(f"MLC_CACHE_MAX_MB must be a number of megabytes, got '{text}'") from None
