"""MLC's thread pool (parallel_runtime.c): built once per machine with the system C compiler,
kept in the cache directory, loaded into the process RTLD_GLOBAL so compiled code (JIT or
a cached library) resolves `mlc_parallel_for` from it.

Without a C compiler, or when building fails, the runtime is unavailable and code is
compiled single-threaded (target.num_threads() is then 1), with one warning.

Once loaded, it also becomes numpy's OpenBLAS's threading (`share_with_openblas`, unless
MLC_OPENBLAS_POOL=0): OpenBLAS's own workers spin for ~0.1 s after every call, and MLC's
threads running beside them got half the cores (parallel_runtime.c).
"""

from __future__ import annotations

import ctypes
import functools
import hashlib
import os
import tempfile
import warnings
from pathlib import Path

from .. import config
from ..abi import PARALLEL_SYMBOL
from .native_library import SHARED_FLAGS, link_shared

SOURCE = Path(__file__).with_name("parallel_runtime.c")
OPENBLAS_CALLBACK = "mlc_openblas_threads"
# OpenBLAS >= 0.3.27's setter, as numpy's scipy-openblas64 names it and as plain OpenBLAS does.
_OPENBLAS_SETTERS = ("scipy_openblas_set_threads_callback_function64_",
                     "openblas_set_threads_callback_function")


_EXPORTS = (PARALLEL_SYMBOL, OPENBLAS_CALLBACK)
_LINK_ARGS = ("-pthread",)


def source_digest() -> str:
    """Names the built library: its source and how it is linked (a change to either builds
    a new one instead of loading a stale cached copy)."""
    how = " ".join(SHARED_FLAGS + _EXPORTS + _LINK_ARGS)
    return hashlib.sha256(SOURCE.read_bytes() + how.encode()).hexdigest()[:16]


def _build_into(directory: Path, name: str) -> Path:
    """Builds the runtime as `directory/name`, atomically: concurrent builders each rename a
    whole file into place."""
    directory.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix="tmp-", suffix=".so", dir=directory)
    os.close(fd)
    try:
        # (LinkError, a RuntimeError, without a C compiler or when it fails)
        link_shared([str(SOURCE)], tmp, _EXPORTS, _LINK_ARGS)
        os.chmod(tmp, 0o755)
        os.replace(tmp, directory / name)
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)
    return directory / name


# The C signatures (parallel_runtime.c), for callers through ctypes:
#   void body(void *context, int64_t block)          a parallel loop's body
#   void dojob(int thread_num, void *job, int data)   one OpenBLAS job
PARALLEL_BODY = ctypes.CFUNCTYPE(None, ctypes.c_void_p, ctypes.c_int64)
OPENBLAS_JOB = ctypes.CFUNCTYPE(None, ctypes.c_int, ctypes.c_void_p, ctypes.c_int)


def _load(path: Path) -> ctypes.CDLL:
    library = ctypes.CDLL(str(path), mode=ctypes.RTLD_GLOBAL)
    # AttributeError: not our library (a damaged file)
    parallel_for, openblas = getattr(library, PARALLEL_SYMBOL), getattr(library, OPENBLAS_CALLBACK)
    parallel_for.argtypes, parallel_for.restype = [PARALLEL_BODY, ctypes.c_void_p, ctypes.c_int64, ctypes.c_int64], None
    openblas.argtypes = [ctypes.c_int, OPENBLAS_JOB, ctypes.c_int, ctypes.c_size_t, ctypes.c_void_p, ctypes.c_int]
    openblas.restype = None
    return library


@functools.cache
def load_parallel_runtime() -> ctypes.CDLL | None:
    """The runtime, loaded once per process: the cache directory's copy (built there when
    missing, built again when it does not load), else one built in a private temporary
    directory (the cache off, read-only or full); None and one warning if none can be built."""
    name = f"libmlc_parallel-{source_digest()}.so"
    if config.cache_enabled():
        directory = Path(config.cache_dir()) / "runtime"
        if (directory / name).exists():
            try:
                return _load(directory / name)
            except (OSError, AttributeError):
                pass  # truncated or damaged: built again below
        try:
            return _load(_build_into(directory, name))
        except (OSError, RuntimeError, AttributeError):
            pass  # a read-only or full cache directory, or no C compiler: tried once more below
    try:
        return _load(_build_into(Path(tempfile.mkdtemp(prefix="mlc-runtime-")), name))
    except (OSError, RuntimeError, AttributeError) as e:
        warnings.warn(f"MLC's parallel runtime is unavailable, compiled code runs on one thread: {e}",
                      RuntimeWarning, stacklevel=2)
        return None


def parallel_runtime_available() -> bool:
    return load_parallel_runtime() is not None


@functools.cache
def share_with_openblas() -> bool:
    """Makes numpy's OpenBLAS (libraries.find_blas) run its parallel jobs on MLC's pool, once
    per process; False when there is no pool, no such library, an OpenBLAS without
    caller-managed threading (before 0.3.27), or MLC_OPENBLAS_POOL=0."""
    from .libraries import find_blas
    runtime, blas_path = load_parallel_runtime(), find_blas()
    if runtime is None or blas_path is None or not config.openblas_on_pool():
        return False
    blas = ctypes.CDLL(str(blas_path))  # already loaded: the same handle
    setter = next((getattr(blas, name) for name in _OPENBLAS_SETTERS if hasattr(blas, name)), None)
    if setter is None:
        return False
    setter.argtypes, setter.restype = [ctypes.c_void_p], None
    setter(ctypes.cast(getattr(runtime, OPENBLAS_CALLBACK), ctypes.c_void_p))
    return True
