"""The compile pipeline, in one place: hlo -> hlo-optimized -> hlo-fused -> linalg ->
buffers -> codegen -> llvm.

Every stage is a list of passes from the registry, written out below with the reason for
each step and each ordering constraint; a new strategy goes into one of these lists. The IR
after any stage can be emitted (`mlc-opt --emit=<stage>`, `compile(..., stage=...)`) and
is verified at the stage's end (compiler.run_stages; inside a stage the passes run without
the PassManager's verifier after each one, which cost a quarter of the pipeline's time).

The named pipelines `mlc-bufferize`, `mlc-cpu-codegen`, `mlc-buffers-to-llvm` and
`mlc-lower-to-llvm` (the last three stages together) run the same lists from mlc-opt.
"""

from __future__ import annotations

from dataclasses import dataclass

from mlir import ir, passmanager

from .codegen.blas import Blas
from .codegen.chain_tiling import ChainTiling
from .codegen.strided_copies import StridedCopies
from .codegen.direct_conv import DirectConv
from .codegen.fma import FuseMultiplyAdd
from .codegen.select_min_max import SelectMinMax
from .codegen.math_approx import MathApprox
from .codegen.tile_matmul import TileMatmul
from .codegen.parallel_outline import ParallelOutline
from .codegen.row_fusion import RowFusion
from .codegen.vector_math import VectorMath
from .codegen.transposed_broadcasts import TransposedBroadcasts
from .codegen.vectorize import Vectorize
from .conversion.bool_to_byte import BoolToByte
from .conversion.buffer_deallocation import BufferDeallocation
from .conversion.control_flow_destinations import ControlFlowDestinations
from .conversion.distinct_results import DistinctResults
from .conversion.reshaped_results import ReshapedResults
from .conversion.fold_widening import FoldWidening
from .conversion.fuse_kernels import FuseKernels
from .conversion.hlo_to_linalg import HloToLinalg
from .conversion.inline_budget import InlineBudget
from .conversion.llvm_linkage import LlvmLinkage
from .conversion.merge_functions import MergeFunctions
from .conversion.preallocate_temporaries import PreallocateTemporaries
from .conversion.readonly_arguments import ReadonlyArguments
from .conversion.signless import Signless
from .conversion.split_functions import SplitFunctions
from .conversion.loop_annotations import LoopAnnotations
from .conversion.out_of_place_collectives import OutOfPlaceCollectives
from .conversion.unroll_budget import UnrollBudget
from .options import CompileOptions
from .transforms.hlo_fuse import HloFuse
from .transforms.hlo_optimize import HloOptimize
from .transforms.pass_base import Pass, PassPipeline, UpstreamPasses as Upstream
from .transforms.hlo_verify import HloVerify


# --- buffers: linalg on tensors -> memrefs, destination-passing style ------------------------
def buffers_passes(fuse: bool = True, tile_matmul: bool = True) -> list[Pass]:
    """Public functions get destination-passing style: their results become trailing memref
    arguments the caller allocates, so no buffer allocated in compiled code reaches Python."""
    return [
        # Unsigned and signed integers become signless before any upstream pass sees them.
        Signless(),
        # Inside each fusion function hlo-fuse made, producer/consumer linalg.generics merge:
        # a loop or input fusion becomes one loop nest.
        *([FuseKernels()] if fuse else []),
        # Fusion functions are inlined before bufferization, so their values never become buffers.
        # Without the inliner's canonicalization of every function it visits: the stage's own
        # cleanups do it (the llvm stage of the corpus and table's programs byte-identical;
        # the inlining 61 -> 19 ms over 35 programs).
        Upstream("inline{default-pipeline=},symbol-dce"),
        # Matmuls read narrow operands, widening in the body (after inlining: the widening
        # and the product may come from two fusion functions), before any strategy looks.
        FoldWidening(),
        # A contraction, the row-wise ops after it and the contraction reading them (attention)
        # run by blocks of rows, their intermediates in cache (before the matmul strategies,
        # which then see tile-sized contractions).
        *([ChainTiling()] if fuse else []),
        # Register-tile the matmuls BLAS will not take (after inlining: they see their operands).
        *([TileMatmul()] if tile_matmul else []),
        # Before bufferizing: which arguments are only read, results that must be distinct
        # buffers, i1 tensors stored as bytes.
        ReadonlyArguments(),
        DistinctResults(),
        BoolToByte(),
        # A tensor.empty only inserted into a bigger tensor (a conv's zero borders, a concat's
        # parts) becomes a slice of it: the fill or generic writes in place, not into a
        # temporary then copied (the borders were 30 row copies from a zeroed stack buffer).
        Upstream("eliminate-empty-tensors"),
        # Both branches of an scf.if compute a result into one destination made before it:
        # no buffer per branch copied into the if's result.
        ControlFlowDestinations(),
        # Tensors -> memrefs across function boundaries; loops may yield fresh buffers (scf.while).
        Upstream("one-shot-bufferize{bufferize-function-boundaries function-boundary-type-conversion="
                 "identity-layout-map allow-return-allocs-from-loops}"),
        # Bufferizing insert_slice chains leaves copies of a view onto the same view: CSE makes
        # them one value, canonicalize erases copy(x, x). Canonicalize also drops the buffers
        # sequential loops carry unchanged (a register-tiled matmul's scf.for over its output),
        # so the result below is the alloc itself, computed in the caller's buffer, not copied.
        Upstream("func.func(cse,canonicalize)"),
        # Results -> out-params; a statically shaped result is computed in place in the caller's buffer.
        Upstream("buffer-results-to-out-params{hoist-static-allocs modify-public-functions}"),
        # ... and so is a reshape of a buffer the function allocates (repeat, a flatten).
        ReshapedResults(),
        # An operand copied only to be all-reduced in place is sent from where it is
        # (before StridedCopies and the scratch views change the copies' form).
        OutOfPlaceCollectives(),
        StridedCopies(),
        # Row-wise kernels (softmax, norms) read each row once (needs the fused kernels).
        *([RowFusion()] if fuse else []),
        # Top-level temporaries become views of one scratch argument the caller allocates once
        # (before deallocation, which would otherwise free them).
        PreallocateTemporaries(),
        # Free every temporary buffer left before returning (after out-params, so results are
        # not freed; the i1 ownership buffers it makes stored as bytes): usually none is left.
        BufferDeallocation(),
        # C wrappers for the functions that exist now, not for the functions the CPU
        # strategies and the LLVM lowering add later (BLAS and libm declarations, outlined
        # parallel bodies).
        Upstream("func.func(llvm-request-c-wrappers)"),
    ]


# --- codegen: MLC's CPU strategies on bufferized linalg --------------------------------------
def codegen_passes() -> list[Pass]:
    return [
        # 2-D NHWC convolutions hlo-to-linalg kept as named ops: direct register-tiled kernels.
        DirectConv(),
        # Named ops left after bufferization (linalg.copy, linalg.transpose, ...) become
        # generics, so mlc-blas and mlc-vectorize see them too.
        Upstream("func.func(linalg-generalize-named-ops)"),
        # Big matmuls become BLAS calls first: what is left is vectorized.
        Blas(),
        # Innermost loops over vectors of the target's width.
        Vectorize(),
        # A register-tiled matmul's A rows as splats, not transposes lowered element by element.
        TransposedBroadcasts(),
        # After vectorizing (so the math ops are vector ops): f32 exp/log/tanh as polynomial
        # helpers, then what has no approximation (sin/cos, f64) as libmvec calls.
        MathApprox(),
        VectorMath(),
        FuseMultiplyAdd(),
        # Scalar NaN-propagating max/min as compares and selects: LLVM's x86 lowering
        # branches on a sign bit there (vectors are lowered with blends).
        SelectMinMax(),
        # Last: outer loops of big kernels on all cores (their bodies outlined, called from
        # MLC's thread pool, runtime/parallel_runtime.c).
        ParallelOutline(),
    ]


# --- llvm: bufferized linalg and loops -> the LLVM dialect -----------------------------------
def llvm_passes() -> list[Pass]:
    return [
        # A big function's loop nests become several functions first: LLVM is superlinear in
        # the size of a function's blocks.
        SplitFunctions(),
        # Equal kernels (repeated layers) are one function from here on: lowered and compiled once.
        MergeFunctions(),
        Upstream("func.func(convert-linalg-to-loops)"),
        # Vector transfers of rank > 1 (and masked ones) become 1-D vector ops, unrolled: the
        # loop form stages each vector in a memref.alloca placed inside the enclosing loops,
        # and LLVM leaves an alloca outside the entry block on the stack for good, so a
        # register-tiled matmul (vector<4x32xf32> tiles) grew the stack by 4 KB per tile: the
        # 2-process training example overflowed the 8 MB stack and crashed.
        Upstream("convert-vector-to-scf{full-unroll=true}"),
        # Subviews must be expanded before LLVM conversion, or translation meets unrealized casts.
        Upstream("expand-strided-metadata"),
        Upstream("lower-affine"),
        # On the scf loops: convert-scf-to-cf carries its marks onto the back edges.
        UnrollBudget(),
        Upstream("convert-scf-to-cf"),
        # Integer powers (math.ipowi) have no LLVM lowering: outline them as loop functions.
        Upstream("convert-math-to-funcs"),
        # tanh and friends have no LLVM intrinsic: math-to-libm turns what math-to-llvm leaves into calls.
        Upstream("convert-math-to-llvm"),
        Upstream("convert-math-to-libm"),
        Upstream("convert-vector-to-llvm"),
        Upstream("convert-to-llvm"),
        Upstream("reconcile-unrealized-casts"),
        # Kernels of the same shapes, outlined apart (parallel bodies, split runs), become one
        # function: LLVM compiles each distinct body once.
        MergeFunctions(),
        # Compile-time cost models for LLVM, on the final functions: helpers stay called when
        # inlining them everywhere would blow up the module; loop marks go where LLVM reads them.
        InlineBudget(),
        LoopAnnotations(),
        # Each body compiled once: no copy per JIT wrapper (LLVM's codegen is most of a compile).
        LlvmLinkage(),
        # Declarations nothing calls go: what stays declared is what the code links to
        # (executable.describe).
        Upstream("symbol-dce"),
    ]


@dataclass(frozen=True)
class Bufferize(PassPipeline):
    """Fuses kernels (with fuse), inlines fusion functions, register-tiles the matmuls BLAS
    will not take (with tile-matmul) and bufferizes: tensors -> memrefs.

    Expects: linalg/tensor/arith/math/scf/func on tensors (the `linalg` stage). Produces: the
    `buffers` stage, memrefs in destination-passing style.
    """

    name = "mlc-bufferize"
    fuse: bool = True
    tile_matmul: bool = True

    def passes(self) -> list[Pass]:
        return buffers_passes(self.fuse, self.tile_matmul)


@dataclass(frozen=True)
class CpuCodegen(PassPipeline):
    """Runs the CPU strategies on bufferized linalg: big matmuls as BLAS calls, vectorized
    innermost loops, then f32 exp/log/tanh as polynomials (so they vectorize too), sin/cos
    and f64 exp/log as libmvec calls, outer loops of big kernels on all cores (MLC's thread pool).

    Expects: the `buffers` stage. Produces: scf loops over vector ops where a strategy
    applied, linalg elsewhere; mlc-buffers-to-llvm lowers both.
    """

    name = "mlc-cpu-codegen"

    def passes(self) -> list[Pass]:
        return codegen_passes()


@dataclass(frozen=True)
class BuffersToLLVM(PassPipeline):
    """Lowers bufferized linalg and loops to the LLVM dialect.

    Expects: the `buffers` or `codegen` stage. Produces: the llvm dialect only (the `llvm`
    stage).
    """

    name = "mlc-buffers-to-llvm"

    def passes(self) -> list[Pass]:
        return llvm_passes()


@dataclass(frozen=True)
class LowerToLLVM(PassPipeline):
    """Bufferizes linalg on tensors and lowers it through loops to the LLVM dialect.

    Expects: linalg/tensor/arith/math/scf/func on tensors (the output of hlo-to-linalg).
    Produces: the llvm dialect only; public functions take their results as out-params
    and carry `llvm.emit_c_interface`. Option fuse (default true): merge elementwise
    kernels inside each function (each fusion hlo-fuse outlined becomes one loop nest).
    Option codegen (default true): run the CPU strategies (mlc-cpu-codegen) on the buffers.
    """

    name = "mlc-lower-to-llvm"
    fuse: bool = True
    codegen: bool = True

    def passes(self) -> list[Pass]:
        strategies = codegen_passes() if self.codegen else []
        return [*buffers_passes(self.fuse, tile_matmul=self.codegen), *strategies, *llvm_passes()]


# --- the stages ------------------------------------------------------------------------------
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
    return [
        # hlo-verify checks the input once; the graph passes after it keep the IR valid.
        Stage("hlo", "the input, verified", (HloVerify(),)),
        Stage("hlo-optimized", "after hlo-optimize (simplify, fold, cse, dce)",
              (HloOptimize(verify_input=False),) if opt_level > 0 else ()),
        # After optimizing: fusion decisions count the uses that are left.
        Stage("hlo-fused", "after hlo-fuse: fusions outlined into private functions",
              (HloFuse(verify_input=False),) if fusion else ()),
        Stage("linalg", "linalg/tensor/arith/math on tensors", (HloToLinalg(verify_input=False),)),
        Stage("buffers", "kernels fused and bufferized: memrefs, destination-passing style",
              tuple(buffers_passes(fuse=fusion, tile_matmul=opt_level > 0))),
        Stage("codegen", "CPU strategies applied: vectorized loops",
              tuple(codegen_passes()) if opt_level > 0 else ()),
        Stage("llvm", "the LLVM dialect", tuple(llvm_passes())),
    ]


STAGE_NAMES = [s.name for s in stages()]


def pass_manager(passes, context: ir.Context, print_ir_after_all: bool = False,
                 verify_each: bool = True) -> passmanager.PassManager:
    """A PassManager running `passes`; verify_each=False skips the verifier after each pass
    (the caller verifies where it wants: run_stages at each stage's end)."""
    pm = passmanager.PassManager("builtin.module", context=context)
    for p in passes:
        p.add_to(pm)
    if print_ir_after_all:
        pm.enable_ir_printing(print_after_all=True)
    if not verify_each:
        pm.enable_verifier(False)
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
