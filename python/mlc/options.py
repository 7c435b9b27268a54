"""CompileOptions: every setting that changes the code a compile produces, in one object.

The Python API (`mlc.compile(..., options=)`, `mlc.jit(..., options=)`), the pipelines
(`pipelines.stages(options)`) and both CLIs (`mlc-opt`, `mlc-run`: their flags are generated
from the fields below) read this one class, and it is part of every compilation-cache key.
`config.default_options()` builds the default from the environment (MLC_NUM_THREADS,
MLC_VECTOR_BITS, MLC_BLAS); this module reads nothing itself, so it sits at the bottom of
the package and anything may import it.
"""

from __future__ import annotations

import argparse
import dataclasses
from dataclasses import dataclass, field

VECTOR_BITS = (128, 256, 512)
JITS = ("orc", "execution-engine")


def _doc(text: str, flag: str, **argparse_kwargs) -> dict:
    # A field's docstring and its CLI flag live together, so the flags cannot drift from the
    # fields (a test checks every field has both).
    return {"doc": text, "flag": flag, "argparse": argparse_kwargs}


@dataclass(frozen=True)
class CompileOptions:
    """How to compile: graph optimization, fusion and the CPU code generation choices."""

    opt_level: int = field(default=2, metadata=_doc(
        "0 runs no graph optimization (hlo-optimize), no CPU strategies (mlc-cpu-codegen, "
        "matmul tiling) and LLVM -O0; 1..3 run them and set LLVM's optimization level.",
        "-O", type=int, choices=range(4)))
    fusion: bool = field(default=True, metadata=_doc(
        "Fuse ops into kernels (hlo-fuse, kernel merging, row fusion); False compiles every "
        "op as its own loop nest.", "--fusion"))
    threads: int | None = field(default=None, metadata=_doc(
        "Threads that parallel loops run on (MLC's thread pool); None: the cores this "
        "process may use. 1 generates no parallel loops.", "--threads", type=int))
    vector_bits: int | None = field(default=None, metadata=_doc(
        "The vector register width code is generated for (128, 256 or 512); None: the "
        "host's. Wider than the host is correct code, only slower.", "--vector-bits", type=int,
        choices=VECTOR_BITS))
    blas: bool = field(default=True, metadata=_doc(
        "Call numpy's OpenBLAS for f32/f64 matmuls the measured rule picks (at least 2^25 "
        "multiply-adds but f32 on 512-bit vectors, or 2^22 with at most 8 rows, or a "
        "vector-matrix product: mlc-blas, benchmarks/results/gemm.md) when the library is there; False "
        "runs MLC's own packed GEMM kernel for those too.", "--blas"))
    gemm_kernels: bool = field(default=True, metadata=_doc(
        "f32/f64 matmuls MLC's packed GEMM takes, and direct convolutions without a fused "
        "epilogue, call MLC's precompiled runtime-sized kernels (built once per host and "
        "vector width, kept in the persistent cache: codegen/kernel_library.py, "
        "gemm_library.py, conv_library.py) instead of a kernel generated for each program's shapes; "
        "False generates them in the program (as exported libraries and the "
        "execution-engine JIT always do).", "--gemm-kernels"))
    jit: str = field(default="orc", metadata=_doc(
        "How LLVM IR becomes code in memory. 'orc': MLC's LLVM pipeline through LLVM's C "
        "API, then ORC's LLJIT (runtime/llvm_backend.py); 'execution-engine': MLIR's "
        "ExecutionEngine with LLVM's whole -O pipeline (slower to compile; the reference "
        "the tests compare against).", "--jit", choices=JITS))
    collective_timeout: float = field(default=300.0, metadata=_doc(
        "Seconds a compiled collective (psum, all_gather, ...) may wait for the other "
        "processes before it aborts the whole job with a message naming this process and "
        "the op's line (a peer that raised, exited or hangs); 0 waits forever.",
        "--collective-timeout", type=float))
    combine_threshold_bytes: int = field(default=32 << 20, metadata=_doc(
        "hlo-combine-collectives packs independent all_reduces of one kind and element "
        "type into one, up to this many bytes per combined all_reduce; 0 combines none.",
        "--combine-threshold-bytes", type=int))

    def __post_init__(self):
        if not isinstance(self.opt_level, int) or not 0 <= self.opt_level <= 3:
            raise ValueError(f"opt_level must be 0..3, got {self.opt_level!r}")
        if self.threads is not None and (not isinstance(self.threads, int) or self.threads < 1):
            raise ValueError(f"threads must be a positive integer or None, got {self.threads!r}")
        if self.vector_bits is not None and self.vector_bits not in VECTOR_BITS:
            raise ValueError(f"vector_bits must be one of {', '.join(map(str, VECTOR_BITS))} or None, "
                             f"got {self.vector_bits!r}")
        if not isinstance(self.collective_timeout, (int, float)) or not self.collective_timeout >= 0:
            raise ValueError(f"collective_timeout must be a number of seconds >= 0, got {self.collective_timeout!r}")
        if not isinstance(self.combine_threshold_bytes, int) or self.combine_threshold_bytes < 0:
            raise ValueError(f"combine_threshold_bytes must be an integer >= 0, got {self.combine_threshold_bytes!r}")
        if self.jit not in JITS:
            raise ValueError(f"jit must be one of {', '.join(map(repr, JITS))}, got {self.jit!r}")
        for name in ("fusion", "blas", "gemm_kernels"):
            if not isinstance(getattr(self, name), bool):
                raise ValueError(f"{name} must be a bool, got {getattr(self, name)!r}")

    def replace(self, **changes) -> "CompileOptions":
        """A copy with `changes`; None values are ignored (so keyword defaults pass through)."""
        return dataclasses.replace(self, **{k: v for k, v in changes.items() if v is not None})

    def as_dict(self) -> dict:
        return dataclasses.asdict(self)


def field_docs() -> dict[str, str]:
    """Each field's docstring, by name."""
    return {f.name: f.metadata["doc"] for f in dataclasses.fields(CompileOptions)}


def add_arguments(parser: argparse.ArgumentParser, defaults: CompileOptions) -> None:
    """Adds one flag per field to a CLI's parser (bools as --X/--no-X), defaults shown."""
    group = parser.add_argument_group("compile options (CompileOptions)")
    for f in dataclasses.fields(CompileOptions):
        value = getattr(defaults, f.name)
        shown = "host" if value is None else value
        kwargs = dict(f.metadata["argparse"])
        if f.type in (bool, "bool"):
            kwargs["action"] = argparse.BooleanOptionalAction
        elif "choices" not in kwargs:
            kwargs["metavar"] = "N"
        group.add_argument(f.metadata["flag"], dest=f"option_{f.name}", default=None,
                           help=f"{f.metadata['doc']} (default: {shown})", **kwargs)


def from_arguments(args: argparse.Namespace, defaults: CompileOptions) -> CompileOptions:
    """The options the parsed flags give, starting from `defaults`."""
    return defaults.replace(**{f.name: getattr(args, f"option_{f.name}")
                               for f in dataclasses.fields(CompileOptions)})
