"""The compile pipeline as named stages: hlo -> hlo-optimized -> hlo-fused -> linalg ->
buffers -> codegen -> llvm.

Each stage is a list of passes from the registry; the IR after any stage can be emitted
(`mlc-opt --emit=<stage>`, `compile(..., stage=...)`), and every stage boundary is
verified by the PassManager's verifier.
"""

from __future__ import annotations

from dataclasses import dataclass

from mlir import ir, passmanager

from .options import CompileOptions
from .conversion.hlo_to_linalg import HloToLinalg
from .codegen.pipeline import CpuCodegen
from .conversion.lower_to_llvm import Bufferize, BuffersToLLVM
from .transforms.pass_base import Pass
from .transforms.hlo_fuse import HloFuse
from .transforms.hlo_optimize import HloOptimize
from .transforms.verify import HloVerify


@dataclass(frozen=True)
class Stage:
    name: str
    summary: str
    passes: tuple[Pass, ...]


def stages(options: CompileOptions | None = None) -> list[Stage]:
    """The stages `options` select (default CompileOptions() when None).

    opt_level 0 skips the graph optimizations and the CPU strategies (the hlo-optimized
    and codegen stages are empty);
    fusion=False skips hlo-fuse and kernel merging, so every op is its own loop nest."""
    options = options or CompileOptions()
    opt_level, fusion = options.opt_level, options.fusion
    # The codegen passes read threads, vector width and BLAS use through config, which
    # answers from the options of the compile running (compiler.run_stages sets them).
    # hlo-verify checks the input once; the graph passes after it keep the IR valid.
    return [
        Stage("hlo", "the input, verified", (HloVerify(),)),
        Stage("hlo-optimized", "after hlo-optimize (simplify, fold, cse, dce)",
              (HloOptimize(verify_input=False),) if opt_level > 0 else ()),
        Stage("hlo-fused", "after hlo-fuse: fusions outlined into private functions",
              (HloFuse(verify_input=False),) if fusion else ()),
        Stage("linalg", "linalg/tensor/arith/math on tensors", (HloToLinalg(),)),
        Stage("buffers", "kernels fused and bufferized: memrefs, destination-passing style",
              (Bufferize(fuse=fusion, tile_matmul=opt_level > 0),)),
        Stage("codegen", "CPU strategies applied: vectorized loops",
              (CpuCodegen(),) if opt_level > 0 else ()),
        Stage("llvm", "the LLVM dialect", (BuffersToLLVM(),)),
    ]


STAGE_NAMES = [s.name for s in stages()]


def pass_manager(passes, context: ir.Context, print_ir_after_all: bool = False
                 ) -> passmanager.PassManager:
    pm = passmanager.PassManager("builtin.module", context=context)
    for p in passes:
        p.add_to(pm)
    if print_ir_after_all:
        pm.enable_ir_printing(print_after_all=True)
    return pm


def check_stage(stage: str) -> None:
    if stage not in STAGE_NAMES:
        raise ValueError(f"unknown stage '{stage}'; stages: {', '.join(STAGE_NAMES)}")


def passes_until(stage: str, options: CompileOptions | None = None) -> list[Pass]:
    """Every pass from the input up to and including `stage`."""
    check_stage(stage)
    result: list[Pass] = []
    for s in stages(options):
        result += s.passes
        if s.name == stage:
            return result
    raise AssertionError(stage)
