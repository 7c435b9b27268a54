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
import subprocess
import tempfile
import warnings
from pathlib import Path

from .. import config
from ..abi import PARALLEL_SYMBOL

SOURCE = Path(__file__).with_name("parallel_runtime.c")
_FLAGS = ("-O2", "-shared", "-fPIC", "-pthread")


def source_digest() -> str:
    return hashlib.sha256(SOURCE.read_bytes() + " ".join(_FLAGS).encode()).hexdigest()[:16]


def compile_runtime(output: str, extra_objects: tuple[str, ...] = ()) -> None:
    """Compiles parallel_runtime.c (and links `extra_objects`) into the shared library
    `output`; RuntimeError naming the compiler's complaint when that fails."""
    from .native_library import c_compiler
    command = [c_compiler(), *_FLAGS, "-o", output, str(SOURCE), *extra_objects]
    done = subprocess.run(command, capture_output=True, text=True)
    if done.returncode != 0:
        raise RuntimeError(f"building MLC's parallel runtime failed ({' '.join(command)}):\n"
                           f"{done.stderr.strip()}")


def _build() -> str:
    """The runtime library's path: in the cache directory when the cache is on (built there
    once, renamed into place), else in a temporary directory of this process."""
    name = f"libmlc_parallel-{source_digest()}.so"
    if config.cache_enabled():
        directory = Path(config.cache_dir()) / "runtime"
        path = directory / name
        if path.exists():
            return str(path)
        try:
            directory.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(prefix="tmp-", suffix=".so", dir=directory)
            os.close(fd)
            try:
                compile_runtime(tmp)
                os.chmod(tmp, 0o755)
                os.replace(tmp, path)  # atomic: concurrent builders each rename a whole file
            finally:
                if os.path.exists(tmp):
                    os.unlink(tmp)
            return str(path)
        except OSError:
            pass  # a read-only or full cache directory: build it privately below
    directory = tempfile.mkdtemp(prefix="mlc-runtime-")
    path = os.path.join(directory, name)
    compile_runtime(path)
    return path


@functools.cache
def load_parallel_runtime() -> ctypes.CDLL | None:
    """The runtime, loaded once per process; None (and one warning) if it cannot be built."""
    try:
        path = _build()
        library = ctypes.CDLL(path, mode=ctypes.RTLD_GLOBAL)
        getattr(library, PARALLEL_SYMBOL)
        return library
    except (OSError, RuntimeError, AttributeError) as e:
        warnings.warn(f"MLC's parallel runtime is unavailable, compiled code runs on one thread: {e}",
                      RuntimeWarning, stacklevel=2)
        return None


def parallel_runtime_available() -> bool:
    return load_parallel_runtime() is not None
