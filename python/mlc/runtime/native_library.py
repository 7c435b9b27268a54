"""Shared libraries of compiled code: linking an object file with the system C compiler,
and loading one into this process with the runtime libraries its code calls.

A library exports only the symbols asked for (a version script makes the rest local) and
binds its own calls to itself (-Bsymbolic): every library MLC makes defines `main` and
helpers with the same names, and the Python executable exports a `main` of its own.
"""

from __future__ import annotations

import ctypes
import functools
import os
import shutil
import subprocess
import tempfile
from typing import Iterable, Sequence

from ..abi import PARALLEL_SYMBOL
from .libraries import find_blas, find_libmvec, runtime_library


class LinkError(RuntimeError):
    """The system C compiler is missing or failed to link a shared library."""


def c_compiler() -> str:
    """The system C compiler (cc, gcc or clang on PATH); LinkError if there is none."""
    for name in ("cc", "gcc", "clang"):
        path = shutil.which(name)
        if path:
            return path
    raise LinkError("no C compiler (cc, gcc or clang) on PATH: it links compiled code into shared libraries")


SHARED_FLAGS = ("-shared", "-fPIC", "-O2")  # every library link_shared builds


def link_shared(objects: Sequence[str], output: str, exports: Iterable[str],
                extra_args: Sequence[str] = ()) -> None:
    """Links `objects` (and C sources) into the shared library `output`, exporting only
    `exports`. Undefined symbols stay undefined unless `extra_args` names their libraries."""
    with tempfile.NamedTemporaryFile("w", suffix=".map", delete=False) as script:
        script.write("{ global: " + "".join(f"{name}; " for name in exports) + "local: *; };\n")
    try:
        command = [c_compiler(), *SHARED_FLAGS, "-o", output, *objects,
                   "-Wl,-Bsymbolic", f"-Wl,--version-script={script.name}", *extra_args]
        done = subprocess.run(command, capture_output=True, text=True)
        if done.returncode != 0:
            raise LinkError(f"linking {output} failed ({' '.join(command)}):\n{done.stderr.strip()}")
    finally:
        os.unlink(script.name)


def runtime_dependencies(externals: Iterable[str]) -> list[str]:
    """Which runtime libraries code calling `externals` needs: 'parallel', 'blas', 'mvec' and
    'c_runner_utils' (memrefCopy and friends) for what the C library does not define. The
    last is asked for only when needed: it pulls in libMLIR.so, about 0.1 s to load."""
    needs = set()
    for name in externals:
        if name == PARALLEL_SYMBOL:
            needs.add("parallel")
        elif name.startswith("scipy_cblas"):
            needs.add("blas")
        elif name.startswith("_ZGV"):
            needs.add("mvec")
        elif name.startswith("MPI_"):  # compiled collectives (mlc.distributed)
            needs.add("mpi")
        elif not any(hasattr(lib, name) for lib in _c_libraries()):
            needs.add("c_runner_utils")
    return sorted(needs)


@functools.cache
def _c_libraries() -> tuple[ctypes.CDLL, ...]:
    return tuple(ctypes.CDLL(name) for name in ("libc.so.6", "libm.so.6"))


def load_dependencies(needs: Iterable[str]) -> None:
    """Loads the named runtime libraries RTLD_GLOBAL, so a library's undefined symbols
    resolve from the process."""
    for need in needs:
        if need == "parallel":
            from .parallel_runtime import load_parallel_runtime
            if load_parallel_runtime() is None:
                raise OSError("the code runs parallel loops, and MLC's parallel runtime cannot be built here")
        elif need == "blas":
            if find_blas() is None:
                raise OSError("the code calls numpy's OpenBLAS, which this numpy does not have")
        elif need == "mvec":
            if find_libmvec() is None:
                raise OSError("the code calls glibc's libmvec, which this system does not have")
        elif need == "mpi":
            from . import libraries
            libraries.load_mpi()  # MpiLibraryError (a RuntimeError) when there is none
        elif need == "c_runner_utils":
            _load_global(str(runtime_library("mlir_c_runner_utils")))
        else:
            raise ValueError(f"unknown runtime dependency {need!r}")


_LOADED: dict[str, ctypes.CDLL] = {}


def _load_global(path: str) -> ctypes.CDLL:
    if path not in _LOADED:
        _LOADED[path] = ctypes.CDLL(path, mode=ctypes.RTLD_GLOBAL)
    return _LOADED[path]


def load(path: str, needs: Iterable[str]) -> ctypes.CDLL:
    """dlopens `path` after its runtime dependencies; OSError if it cannot be loaded."""
    load_dependencies(needs)
    return ctypes.CDLL(path, mode=ctypes.RTLD_LOCAL | getattr(os, "RTLD_NOW", 2))
