"""AOT export: an hlo function -> a position-independent shared library and a C header.

    int name(const float *in0, ..., float *out0, ...);   /* 0 on success */

Every argument is a contiguous row-major buffer of the compiled signature's shape; results
are written into caller-allocated buffers. The library needs only the C library (libc,
libm, and glibc's libmvec when the code calls vector sin/cos): it is compiled again for
export single-threaded unless `threads` asks for more (then MLC's thread pool,
runtime/parallel_runtime.c, is linked into the library), without BLAS calls, and for a portable CPU
(x86-64-v2 with 128-bit vectors) unless `cpu="native"` asks for this host's. The object
code comes from the JIT's own LLVM path (runtime/llvm_backend.py: MLC's LLVM pipeline,
position-independent code for the chosen CPU); a small generated C wrapper turns the plain pointers into
the memref descriptors of MLC's calling convention (mlc.abi), and the system C compiler links
both, exporting only `name`.
"""

from __future__ import annotations

import dataclasses
import os
import platform
import re
import tempfile

import numpy as np
from mlir import ir
from mlir.dialects.llvm import translate_module_to_llvmir

from .abi import c_interface
from .compiler import resolve_options, run_stages
from .context import thread_context
from .diagnostics import parse_module
from .options import CompileOptions
from .runtime.executable import describe
from .runtime.llvm_backend import LLVMError, object_code
from .runtime.memref import TensorSpec
from .runtime import parallel_runtime
from .runtime.native_library import LinkError, link_shared, runtime_dependencies

CPUS = {"portable": ("x86-64-v2", 128), "native": ("native", None)}
_C_TYPES = {"float32": "float", "float64": "double", "float16": "uint16_t", "bool": "bool",
            **{f"int{n}": f"int{n}_t" for n in (8, 16, 32, 64)},
            **{f"uint{n}": f"uint{n}_t" for n in (8, 16, 32, 64)}}


class ExportError(RuntimeError):
    """The function cannot be exported as asked (an unsupported feature, a bad name, a tool failing)."""


def export_options(options: CompileOptions, cpu: str) -> CompileOptions:
    """`options` for an exported library: no BLAS calls, GEMM kernels generated in the
    library (not MLC's precompiled ones), the CPU level's vector width, one thread unless
    `options.threads` asks for more."""
    if cpu not in CPUS:
        raise ExportError(f"cpu must be one of {', '.join(CPUS)}, got {cpu!r}")
    bits = CPUS[cpu][1] if _x86() else None  # None: the host's width (native)
    return resolve_options(dataclasses.replace(options, blas=False, gemm_kernels=False, threads=options.threads or 1,
                                               vector_bits=bits))


def _x86() -> bool:
    return platform.machine() in ("x86_64", "AMD64")


def export_library(hlo_module: ir.Module, inputs, outputs, path: str, name: str,
                   header: str | None = None, cpu: str = "portable",
                   options: CompileOptions | None = None, entry: str = "main",
                   source_name: str = "<input>") -> str:
    """Compiles `entry` of `hlo_module` (not modified) for export and writes the library at
    `path` and its header (default: `<name>.h` beside it); returns the header's path."""
    if not re.fullmatch(r"[A-Za-z_]\w*", name or ""):
        raise ExportError(f"the exported name must be a C identifier, got {name!r}")
    options = export_options(options or CompileOptions(), cpu)
    module = parse_module(hlo_module.operation.get_asm(enable_debug_info=True), thread_context(), source_name)
    with module.context:
        run_stages(module, options, "llvm", source_name)
        info = describe(module, entry)
        defined = _defined_symbols(module)
        llvm_ir = str(translate_module_to_llvmir(module.operation))
    if name in defined:
        raise ExportError(f"the exported name {name!r} is also a function of the compiled module; choose another")
    needs = runtime_dependencies(info.externals)
    unsupported = [n for n in needs if n not in ("mvec", "parallel")]
    if unsupported:
        what = {"blas": "numpy's OpenBLAS",
                "c_runner_utils": "MLIR's C runner utilities", "mpi": "MPI (collectives)"}
        calls = [e for e in info.externals if set(runtime_dependencies([e])) & set(unsupported)]
        raise ExportError(f"an exported library cannot call {', '.join(what[n] for n in unsupported)} "
                          f"(it calls {', '.join(calls[:5])}); exported code must need only the C library")
    header = header or os.path.join(os.path.dirname(path), name + ".h")
    with tempfile.TemporaryDirectory(prefix="mlc-export-") as tmp:
        mcpu = CPUS[cpu][0] if _x86() else ("native" if cpu == "native" else "generic")
        obj = _object_code(llvm_ir, tmp, mcpu, options.opt_level)
        wrapper = os.path.join(tmp, "wrapper.c")
        with open(wrapper, "w") as f:
            f.write(wrapper_source(name, entry, inputs, outputs, info.scratch_bytes))
        libs = ["-lm"] + (["-lmvec"] if "mvec" in needs else [])
        sources = [wrapper, obj]
        if "parallel" in needs:  # the thread pool goes inside the library (its symbols local)
            sources.append(str(parallel_runtime.SOURCE))
            libs.append("-pthread")
        try:
            link_shared(sources, path, [name], ["-Wl,--no-undefined", *libs])
        except LinkError as e:
            raise ExportError(str(e)) from None
    with open(header, "w") as f:
        f.write(header_source(name, inputs, outputs, cpu, "mvec" in needs))
    return header


def _defined_symbols(module: ir.Module) -> set[str]:
    return {ir.StringAttr(op.operation.attributes["sym_name"]).value for op in module.body.operations
            if "sym_name" in op.operation.attributes}


def _object_code(llvm_ir: str, tmp: str, cpu: str, opt_level: int) -> str:
    """Writes the module's object code (MLC's LLVM pipeline, position independent) for `cpu`
    ('native': the host's CPU and features) into `tmp`; returns its path."""
    try:
        code = object_code(llvm_ir, opt_level, None if cpu == "native" else cpu)
    except LLVMError as e:
        raise ExportError(f"LLVM failed on the exported module: {e}") from None
    path = os.path.join(tmp, "module.o")
    with open(path, "wb") as f:
        f.write(code)
    return path


def c_type(dtype) -> str:
    name = np.dtype(dtype).name
    if name not in _C_TYPES:
        raise ExportError(f"dtype {name} has no C type for export")
    return _C_TYPES[name]


def _parameters(inputs, outputs) -> list[str]:
    return ([f"const {c_type(s.dtype)} *in{i}" for i, s in enumerate(inputs)]
            + [f"{c_type(s.dtype)} *out{i}" for i, s in enumerate(outputs)])


def _descriptor(var: str, pointer: str, spec: TensorSpec) -> str:
    shape = list(spec.shape)
    strides = [int(np.prod(shape[i + 1:], dtype=np.int64)) for i in range(len(shape))]
    fields = f"(void *){pointer}, (void *){pointer}, 0"
    if shape:
        fields += ", {" + ", ".join(map(str, shape)) + "}, {" + ", ".join(map(str, strides)) + "}"
    return f"  struct memref{len(shape)} {var} = {{{fields}}};"


def wrapper_source(name: str, entry: str, inputs, outputs, scratch_bytes: int | None) -> str:
    """C that calls `entry`'s C interface with descriptors of the plain buffers."""
    specs = list(inputs) + list(outputs)
    ranks = sorted({len(s.shape) for s in specs} | ({1} if scratch_bytes is not None else set()))
    lines = ["#include <stdbool.h>", "#include <stdint.h>", "#include <stdlib.h>", ""]
    for r in ranks:  # MLIR's ranked memref descriptor, one struct per rank
        arrays = f" int64_t sizes[{r}]; int64_t strides[{r}];" if r else ""
        lines.append(f"struct memref{r} {{ void *allocated; void *aligned; int64_t offset;{arrays} }};")
    params = [f"struct memref{len(s.shape)} *" for s in specs] + (["struct memref1 *"] if scratch_bytes is not None else [])
    lines += ["", f"void {c_interface(entry)}({', '.join(params) or 'void'});", "",
              f"__attribute__((visibility(\"default\"))) int {name}({', '.join(_parameters(inputs, outputs)) or 'void'}) {{"]
    args = []
    for i, s in enumerate(inputs):
        lines.append(_descriptor(f"a{i}", f"in{i}", s))
        args.append(f"&a{i}")
    for i, s in enumerate(outputs):
        lines.append(_descriptor(f"r{i}", f"out{i}", s))
        args.append(f"&r{i}")
    if scratch_bytes is not None:  # the temporaries: one 64-byte aligned buffer per call (thread safe)
        lines += ["  void *scratch = NULL;",
                  f"  if (posix_memalign(&scratch, 64, {max(scratch_bytes, 1)})) return 1;",
                  _descriptor("s", "scratch", TensorSpec((scratch_bytes,), np.dtype(np.uint8)))]
        args.append("&s")
    lines.append(f"  {c_interface(entry)}({', '.join(args)});")
    if scratch_bytes is not None:
        lines.append("  free(scratch);")
    lines += ["  return 0;", "}", ""]
    return "\n".join(lines)


def header_source(name: str, inputs, outputs, cpu: str, uses_libmvec: bool) -> str:
    guard = f"MLC_{name.upper()}_H"
    described = [f" *   in{i}: {s}" for i, s in enumerate(inputs)] + [f" *   out{i}: {s}" for i, s in enumerate(outputs)]
    return "\n".join([
        f"/* Generated by MLC: {name}, compiled ahead of time for the {cpu} CPU level.", " *",
        " * Every argument is a contiguous row-major buffer of the shape and element type below;",
        " * results are written into the out buffers the caller allocates. Returns 0 on success,",
        " * nonzero if the temporary buffer could not be allocated. Safe to call from several",
        " * threads at once. float16 elements are IEEE half-precision bit patterns (uint16_t).",
        f" * Link with -l<library>{' (it needs glibc libm and libmvec)' if uses_libmvec else ' (it needs glibc libm)'}.",
        " *", *described, " */",
        f"#ifndef {guard}", f"#define {guard}", "", "#include <stdbool.h>", "#include <stdint.h>", "",
        "#ifdef __cplusplus", "extern \"C\" {", "#endif", "",
        f"int {name}({', '.join(_parameters(inputs, outputs)) or 'void'});", "",
        "#ifdef __cplusplus", "}", "#endif", "", f"#endif  /* {guard} */", ""])
