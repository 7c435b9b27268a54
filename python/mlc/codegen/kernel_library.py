"""MLC's precompiled kernels: built once per host, kept, linked with the programs that call
them (as XLA's CPU backend calls Eigen's matmul and convolution, compiled when XLA was built).

Each family describes its kernels by a variant (a frozen dataclass: what the code is
specialized for; everything else is a runtime argument) with

    .symbol             the kernel's function name (`mlc_gemm_...`, `mlc_conv_...`)
    .parse(symbol)      the variant a symbol names, or None (a staticmethod)
    .build_module()     a module holding the kernel's function as the family's emitter
                        makes it, in the current context (the `codegen` stage's form)
    .threads, .register_bits   the compile options it is built with
    .kind               what it is, for logs

    gemm_library.py   Variant      the packed GEMM over runtime M, N, K, offsets, strides
    conv_library.py   ConvVariant  the direct 2-D convolution over runtime sizes (and its
                                   input's zero padding)

A kernel is built the first time a program calls it: the codegen stage's passes (the
operator selection excepted) and the llvm stage on its own module, then LLVM's object code
for the host. It is kept in memory and in the persistent cache's directory (`<key>.kernel`,
keyed like the cache's entries by the host, toolchain and MLC's sources; evicted like them;
MLC_LOG_COMPILES logs each build and load). `kernel_objects` gives the compiled kernels
among the functions a program calls, whose objects compiler.compile_module links with the
program's (in the JIT as in the persistent cache's shared library).
"""

from __future__ import annotations

import json
import logging
import os
import threading
import time
from dataclasses import dataclass

from mlir import ir

from .. import config

log = logging.getLogger("mlc")
# The element (= accumulator) types kernels exist for, by the name in their symbols.
ELEMENT_TYPES = {"f32": ir.F32Type.get, "f64": ir.F64Type.get}


def families() -> tuple:
    """The variant classes of the kernel families (module docstring)."""
    from .conv_library import ConvVariant
    from .gemm_library import Variant
    return (Variant, ConvVariant)


def parse(symbol: str):
    """The variant of any family that `symbol` names, or None."""
    return next((v for v in (family.parse(symbol) for family in families()) if v is not None), None)


@dataclass(frozen=True)
class KernelObject:
    """A kernel's object code and the functions it calls that it does not define."""

    symbol: str
    code: bytes
    externals: tuple[str, ...]


# The codegen stage's operator selection: it would find nothing to select in a kernel's module.
_SELECTION = ("mlc-blas", "mlc-direct-conv")
_COMPILED: dict[tuple, KernelObject] = {}
_LOCK = threading.Lock()


def _after_fork_in_child() -> None:
    """A child forked while another thread built a kernel must not wait on its lock."""
    global _LOCK
    _LOCK = threading.Lock()


os.register_at_fork(after_in_child=_after_fork_in_child)


def kernel_objects(externals, opt_level: int) -> list[KernelObject]:
    """The compiled kernels among the functions a program calls (`externals`)."""
    return [compiled(variant, opt_level) for variant in map(parse, externals) if variant is not None]


def compiled(variant, opt_level: int) -> KernelObject:
    """`variant`'s kernel: from memory, the persistent cache, or built now (and kept in both)."""
    key = (variant, opt_level)
    with _LOCK:  # one build per kernel, whichever thread asks first
        found = _COMPILED.get(key)
        if found is None:
            found = _load(variant, opt_level)
            if found is None:
                start = time.perf_counter()
                found = _store(_build(variant, opt_level), opt_level)
                if config.log_compiles():
                    log.warning("mlc: built %s kernel %s in %.0f ms", variant.kind, variant.symbol,
                                (time.perf_counter() - start) * 1e3)
            elif config.log_compiles():
                log.warning("mlc cache: loaded %s kernel %s", variant.kind, variant.symbol)
            _COMPILED[key] = found
    return found


def _build(variant, opt_level: int) -> KernelObject:
    from mlir.dialects.llvm import translate_module_to_llvmir

    from ..compiler import resolve_options, run_passes
    from ..context import make_context, prepare_for_passes
    from ..options import CompileOptions
    from ..pipelines import codegen_passes, llvm_passes
    from ..runtime.executable import describe
    from ..runtime.llvm_backend import object_code
    options = resolve_options(CompileOptions(opt_level=opt_level, threads=variant.threads,
                                             vector_bits=variant.register_bits))
    context = make_context()  # a context of its own, freed with the module
    prepare_for_passes(context)  # (the kernels are built of vector, memref, scf ops)
    with context, config.compiling_with(options):
        module = variant.build_module()
        passes = [p for p in codegen_passes() if p.name not in _SELECTION] + llvm_passes()
        run_passes(module, passes, f"<{variant.symbol}>", verify_each=False)
        externals = describe(module, variant.symbol).externals
        code = object_code(str(translate_module_to_llvmir(module.operation)), opt_level)
    return KernelObject(variant.symbol, code, externals)


def _cache_file(variant, opt_level: int):
    """(the persistent cache, the kernel's file name there for this host and toolchain), or
    None when the cache is off."""
    from ..runtime import disk_cache
    from ..runtime.fingerprint import environment_fields
    cache = disk_cache.default_cache()
    if cache is None:
        return None
    fields = {"kernel": variant.symbol, "opt_level": str(opt_level), **environment_fields(str(cache.root))}
    return cache, f"{cache.key(fields)}.kernel"


def _load(variant, opt_level: int) -> KernelObject | None:
    """The kernel from the persistent cache: a JSON line (symbol, size, externals), then the
    object code; None when missing, truncated or not this kernel's (then built again)."""
    found = _cache_file(variant, opt_level)
    data = found[0].read_file(found[1]) if found is not None else None
    if data is None:
        return None
    header, _, code = data.partition(b"\n")
    try:
        meta = json.loads(header)
        if meta["symbol"] != variant.symbol or len(code) != meta["bytes"]:
            return None
        return KernelObject(variant.symbol, code, tuple(meta["externals"]))
    except (ValueError, KeyError, TypeError):
        return None


def _store(kernel: KernelObject, opt_level: int) -> KernelObject:
    found = _cache_file(parse(kernel.symbol), opt_level)
    if found is not None:
        header = json.dumps({"symbol": kernel.symbol, "bytes": len(kernel.code), "externals": list(kernel.externals)})
        found[0].write_file(found[1], header.encode() + b"\n" + kernel.code)
    return kernel


def forget_compiled() -> None:
    """Drops the kernels compiled in this process (tests: the next use builds or loads again)."""
    with _LOCK:
        _COMPILED.clear()
