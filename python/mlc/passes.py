"""The one registry of MLC passes and pipelines: CLI name -> the class that implements it.

Entries are import paths, resolved on first use, so listing passes imports nothing heavy.
`mlc-opt`, the Python API and the tests all read this table; there is no second list.
"""

from __future__ import annotations

import importlib

from .transforms.pass_base import Pass

_REGISTRY: dict[str, str] = {
    "hlo-verify": "mlc.transforms.hlo_verify:HloVerify",
    "stablehlo-to-hlo": "mlc.stablehlo.stablehlo_to_hlo:StablehloToHlo",
    "hlo-simplify": "mlc.transforms.hlo_simplify:HloSimplify",
    "hlo-fold": "mlc.transforms.hlo_fold:HloFold",
    "hlo-cse": "mlc.transforms.hlo_cse:HloCse",
    "hlo-dce": "mlc.transforms.hlo_dce:HloDce",
    "hlo-combine-collectives": "mlc.transforms.hlo_combine_collectives:HloCombineCollectives",
    "hlo-optimize": "mlc.transforms.hlo_optimize:HloOptimize",
    "hlo-fuse": "mlc.transforms.hlo_fuse:HloFuse",
    "hlo-grad": "mlc.transforms.hlo_grad:HloGrad",
    "hlo-jvp": "mlc.transforms.hlo_jvp:HloJvp",
    "hlo-vmap": "mlc.transforms.hlo_vmap:HloVmap",
    "hlo-to-linalg": "mlc.conversion.hlo_to_linalg:HloToLinalg",
    "mlc-readonly-arguments": "mlc.conversion.readonly_arguments:ReadonlyArguments",
    "mlc-distinct-results": "mlc.conversion.distinct_results:DistinctResults",
    "mlc-reshaped-results": "mlc.conversion.reshaped_results:ReshapedResults",
    "mlc-bool-to-byte": "mlc.conversion.bool_to_byte:BoolToByte",
    "mlc-buffer-deallocation": "mlc.conversion.buffer_deallocation:BufferDeallocation",
    "mlc-control-flow-destinations": "mlc.conversion.control_flow_destinations:ControlFlowDestinations",
    "mlc-preallocate-temporaries": "mlc.conversion.preallocate_temporaries:PreallocateTemporaries",
    "mlc-signless": "mlc.conversion.signless:Signless",
    "mlc-out-of-place-collectives": "mlc.conversion.out_of_place_collectives:OutOfPlaceCollectives",
    "mlc-vectorize": "mlc.codegen.vectorize:Vectorize",
    "mlc-math-approx": "mlc.codegen.math_approx:MathApprox",
    "mlc-parallel-outline": "mlc.codegen.parallel_outline:ParallelOutline",
    "mlc-sequential-beside-blas": "mlc.codegen.sequential_beside_blas:SequentialBesideBlas",
    "mlc-outline-parallel-loops": "mlc.codegen.parallel_outline:OutlineParallelLoops",
    "mlc-blas": "mlc.codegen.blas:Blas",
    "mlc-row-fusion": "mlc.codegen.row_fusion:RowFusion",
    "mlc-fuse-kernels": "mlc.conversion.fuse_kernels:FuseKernels",
    "mlc-fold-widening": "mlc.conversion.fold_widening:FoldWidening",
    "mlc-split-functions": "mlc.conversion.split_functions:SplitFunctions",
    "mlc-unroll-budget": "mlc.conversion.unroll_budget:UnrollBudget",
    "mlc-loop-annotations": "mlc.conversion.loop_annotations:LoopAnnotations",
    "mlc-inline-budget": "mlc.conversion.inline_budget:InlineBudget",
    "mlc-llvm-linkage": "mlc.conversion.llvm_linkage:LlvmLinkage",
    "mlc-merge-functions": "mlc.conversion.merge_functions:MergeFunctions",
    "mlc-strided-copies": "mlc.codegen.strided_copies:StridedCopies",
    "mlc-tile-matmul": "mlc.codegen.tile_matmul:TileMatmul",
    "mlc-chain-tiling": "mlc.codegen.chain_tiling:ChainTiling",
    "mlc-direct-conv": "mlc.codegen.direct_conv:DirectConv",
    "mlc-vector-math": "mlc.codegen.vector_math:VectorMath",
    "mlc-fma": "mlc.codegen.fma:FuseMultiplyAdd",
    "mlc-transposed-broadcasts": "mlc.codegen.transposed_broadcasts:TransposedBroadcasts",
    "mlc-select-min-max": "mlc.codegen.select_min_max:SelectMinMax",
    # The pipelines of the last three stages, from their lists in pipelines.py.
    "mlc-bufferize": "mlc.pipelines:Bufferize",
    "mlc-cpu-codegen": "mlc.pipelines:CpuCodegen",
    "mlc-buffers-to-llvm": "mlc.pipelines:BuffersToLLVM",
    "mlc-lower-to-llvm": "mlc.pipelines:LowerToLLVM",
}


def pass_names() -> list[str]:
    return list(_REGISTRY)


def get_pass_class(name: str) -> type[Pass] | None:
    """The pass class registered as `name`, or None if MLC has no such pass."""
    target = _REGISTRY.get(name)
    if target is None:
        return None
    module, _, attr = target.partition(":")
    cls = getattr(importlib.import_module(module), attr)
    assert cls.name == name, f"registry entry {name} points to pass {cls.name}"
    return cls
