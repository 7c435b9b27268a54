"""MLC's thread pool (parallel_runtime.c): built once per machine with the system C compiler,
kept in the cache directory, loaded into the process RTLD_GLOBAL so compiled code (JIT or
a cached library) resolves `mlc_parallel_for` from it.

Without a C compiler, or when building fails, the runtime is unavailable and code is
compiled single-threaded (target.num_threads() is then 1), with one warning.
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
from .native_library import link_shared

SOURCE = Path(__file__).with_name("parallel_runtime.c")


def source_digest() -> str:
    return hashlib.sha256(SOURCE.read_bytes()).hexdigest()[:16]


def _build_into(directory: Path, name: str) -> Path:
    """Builds the runtime as `directory/name`, atomically: concurrent builders each rename a
    whole file into place."""
    directory.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix="tmp-", suffix=".so", dir=directory)
    os.close(fd)
    try:
        # (LinkError, a RuntimeError, without a C compiler or when it fails)
        link_shared([str(SOURCE)], tmp, [PARALLEL_SYMBOL], ["-pthread"])
        os.chmod(tmp, 0o755)
        os.replace(tmp, directory / name)
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)
    return directory / name


def _load(path: Path) -> ctypes.CDLL:
    library = ctypes.CDLL(str(path), mode=ctypes.RTLD_GLOBAL)
    getattr(library, PARALLEL_SYMBOL)  # AttributeError: not our library (a damaged file)
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
