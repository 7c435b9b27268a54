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
MLC_JIT=execution-engine compile LLVM IR with MLIR's ExecutionEngine (LLVM's whole -O
                         pipeline) instead of MLC's pipeline and ORC (CompileOptions.jit)
MLC_OPENBLAS_POOL=0      leave numpy's OpenBLAS on its own threads (by default, once MLC's
                         runtime loads, OpenBLAS runs its parallel jobs on MLC's pool:
                         runtime/parallel_runtime.c says why)
MLC_CACHE=0              no persistent compilation cache (on by default)
MLC_CACHE_DIR=dir        where the persistent cache lives (default: the user cache
                         directory, $XDG_CACHE_HOME/mlc or ~/.cache/mlc)
MLC_CACHE_MAX_MB=n       the cache's size cap; least recently used entries go first (1024)
MLC_COLLECTIVE_TIMEOUT=s seconds a compiled collective waits for the other processes before
                         it aborts the job (CompileOptions.collective_timeout; 300, 0: forever)
MLC_MPI_LIBRARY=path     the MPICH-ABI libmpi.so.12 compiled collectives call (default: the
                         `mpich` wheel's, in the environment's lib/)
MLC_COLLECTIVES=mpi      emit MPI calls for collectives even on one process (lit tests)

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

from .options import JITS, VECTOR_BITS, CompileOptions

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
    return CompileOptions(threads=_env_num_threads(), vector_bits=_env_vector_bits(), blas=_env_blas(),
                          jit=_env_jit(), collective_timeout=_env_collective_timeout())


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


def gemm_kernels_enabled() -> bool:
    """Whether matmuls call MLC's precompiled GEMM kernels: the running compile's option
    (only where ORC links the code: the ExecutionEngine cannot add their objects)."""
    active = _ACTIVE.get()
    return active is None or (active.gemm_kernels and active.jit == "orc")


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


def _env_jit() -> str:
    """MLC_JIT (default 'orc'); a ValueError names a bad value."""
    value = os.environ.get("MLC_JIT", "").strip() or CompileOptions.jit
    if value not in JITS:
        raise ValueError(f"MLC_JIT must be one of {', '.join(JITS)}, got {value!r}")
    return value


def openblas_on_pool() -> bool:
    return os.environ.get("MLC_OPENBLAS_POOL", "1").strip() not in ("0", "false", "False", "off")


def _env_collective_timeout() -> float:
    """MLC_COLLECTIVE_TIMEOUT in seconds (default 300); a ValueError names a bad value."""
    text = os.environ.get("MLC_COLLECTIVE_TIMEOUT", "").strip()
    if not text:
        return CompileOptions.collective_timeout
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not value >= 0:
        raise ValueError(f"MLC_COLLECTIVE_TIMEOUT must be a number of seconds >= 0, got '{text}'")
    return value


def collective_timeout() -> float:
    """The running compile's collective_timeout, else MLC_COLLECTIVE_TIMEOUT's."""
    active = _ACTIVE.get()
    return active.collective_timeout if active is not None else _env_collective_timeout()


def combine_threshold_bytes() -> int:
    """The running compile's combine_threshold_bytes (the default's outside a compile)."""
    active = _ACTIVE.get()
    return (active if active is not None else CompileOptions()).combine_threshold_bytes


def mpi_library() -> str | None:
    """MLC_MPI_LIBRARY: the MPI library compiled collectives call, None when unset."""
    return os.environ.get("MLC_MPI_LIBRARY", "").strip() or None


# What a launcher sets on every rank: hydra and Slurm (pmi/pmi2) set PMI_SIZE, Open MPI's
# launcher OMPI_COMM_WORLD_SIZE.
_LAUNCHER_SIZE_VARIABLES = ("PMI_SIZE", "OMPI_COMM_WORLD_SIZE")


def launched_size() -> int:
    """How many processes a launcher (mpiexec) started, from its variables; 1 without one."""
    for name in _LAUNCHER_SIZE_VARIABLES:
        value = os.environ.get(name)
        if value and value.isdigit():
            return int(value)
    return 1


def num_threads_set() -> bool:
    """Whether MLC_NUM_THREADS is set (by the user, or by share_num_threads)."""
    return "MLC_NUM_THREADS" in os.environ


def share_num_threads(threads: int) -> None:
    """Sets MLC_NUM_THREADS for this process (and the processes it starts): distributed
    splits a host's cores between the job's processes on it."""
    os.environ["MLC_NUM_THREADS"] = str(threads)


def forced_mpi_collectives() -> bool:
    """MLC_COLLECTIVES=mpi: collectives become MPI calls even on one process (lit tests)."""
    return os.environ.get("MLC_COLLECTIVES") == "mpi"


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
