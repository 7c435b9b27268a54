"""Pass `mlc-lower-to-llvm`: linalg on tensors -> the LLVM dialect, ready for the JIT.

Upstream passes only, in this order (each step's reason on its line). Public functions get
destination-passing style: their results become trailing memref arguments that the caller
allocates, so no buffer allocated inside JIT code is ever handed back to Python.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..codegen.copies import StridedCopies
from ..codegen.matmul import TileMatmul
from ..codegen.pipeline import CpuCodegen
from ..codegen.row_fusion import RowFusion
from ..transforms.pass_base import Pass, PassPipeline, UpstreamPasses
from .bool_to_byte import BoolToByte
from .distinct_results import DistinctResults
from .fuse_kernels import FuseKernels
from .preallocate_temporaries import PreallocateTemporaries
from .readonly_arguments import ReadonlyArguments
from .signless import Signless
from .split_functions import SplitFunctions
from .unroll_budget import LoopAnnotations, UnrollBudget

# (mlc-fuse-kernels runs first: inside each fusion function hlo-fuse made, producer/consumer
# linalg.generics merge, so a loop or input fusion becomes one loop nest.)
# Fusion functions are inlined before bufferization, so their values never become buffers.
_INLINE_FUSIONS = "inline,symbol-dce"
_BUFFERIZE = [
    # Tensors -> memrefs across function boundaries; loops may yield fresh buffers (scf.while).
    "one-shot-bufferize{bufferize-function-boundaries function-boundary-type-conversion="
    "identity-layout-map allow-return-allocs-from-loops}",
    # Results -> out-params; a statically shaped result is computed in place in the caller's buffer.
    "buffer-results-to-out-params{hoist-static-allocs modify-public-functions}",
    # Bufferizing insert_slice chains leaves copies of a view onto the same view: CSE makes
    # them one value, canonicalize erases copy(x, x).
    "func.func(cse,canonicalize)",
]
# (mlc-preallocate-temporaries runs here: top-level temporaries become views of one scratch
# argument the caller allocates once.)
# Free every temporary buffer left before returning (after out-params, so results are not freed).
# Then C wrappers for the functions that exist now, not for the functions the CPU strategies
# and the LLVM lowering add later (BLAS and libm declarations, outlined parallel bodies).
_DEALLOCATE = "buffer-deallocation-pipeline,func.func(llvm-request-c-wrappers)"
# (mlc-bool-to-byte runs here again: deallocation made i1 ownership memrefs of its own.)
_TO_LLVM = [
    "func.func(convert-linalg-to-loops)",
    # Vector transfers of rank > 1 (and masked ones) become loops over 1-D vector ops.
    "convert-vector-to-scf",
    # Subviews must be expanded before LLVM conversion, or translation meets unrealized casts.
    "expand-strided-metadata",
    "lower-affine",
]
# (mlc-unroll-budget runs here, on the loops: scf-to-cf carries its marks onto the back edges.)
_LOOPS_TO_LLVM = [
    "convert-scf-to-cf",
    # tanh and friends have no LLVM intrinsic: math-to-libm turns what math-to-llvm leaves into calls.
    # Integer powers (math.ipowi) have no LLVM lowering: outline them as loop functions.
    "convert-math-to-funcs",
    "convert-math-to-llvm",
    "convert-math-to-libm",
    "convert-vector-to-llvm",
    # Parallel loops (mlc-async-parallel) -> calls into libmlir_async_runtime.
    "async-to-async-runtime",
    "async-runtime-ref-counting",
    "async-runtime-ref-counting-opt",
    "convert-async-to-llvm",
    "convert-to-llvm",
    "reconcile-unrealized-casts",
]


@dataclass(frozen=True)
class Bufferize(PassPipeline):
    """Fuses kernels (with fuse), inlines fusion functions, register-tiles the matmuls BLAS
    will not take (with tile-matmul) and bufferizes: tensors -> memrefs.

    The first half of mlc-lower-to-llvm; its output is the `buffers` stage.
    """

    name = "mlc-bufferize"
    fuse: bool = True
    tile_matmul: bool = True  # register-tile the matmuls BLAS will not take (mlc-tile-matmul)

    def passes(self) -> list[Pass]:
        kernels = [FuseKernels()] if self.fuse else []
        matmuls = [TileMatmul()] if self.tile_matmul else []
        return [Signless(), *kernels, UpstreamPasses(_INLINE_FUSIONS), *matmuls, ReadonlyArguments(), DistinctResults(), BoolToByte(),
                UpstreamPasses(",".join(_BUFFERIZE)), StridedCopies(), *([RowFusion()] if self.fuse else []),
                PreallocateTemporaries(), UpstreamPasses(_DEALLOCATE),
                BoolToByte()]


@dataclass(frozen=True)
class BuffersToLLVM(PassPipeline):
    """Lowers bufferized linalg through loops to the LLVM dialect (mlc-lower-to-llvm's second half)."""

    name = "mlc-buffers-to-llvm"

    def passes(self) -> list[Pass]:
        # A big function's loop nests become several functions first: LLVM is superlinear in
        # the size of a function's blocks.
        return [SplitFunctions(), UpstreamPasses(",".join(_TO_LLVM)), UnrollBudget(),
                UpstreamPasses(",".join(_LOOPS_TO_LLVM)), LoopAnnotations()]


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
        strategies = [CpuCodegen()] if self.codegen else []
        return [Bufferize(fuse=self.fuse, tile_matmul=self.codegen), *strategies, BuffersToLLVM()]
