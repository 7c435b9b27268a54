"""Pass `mlc-tile-matmul`: a matmul that is not a BLAS call becomes register-tiled vector
code: the output in MR x NR tiles held in vector registers for the whole K loop.

    linalg.generic {acc + a * b} ins(%a : tensor<MxKxf32>, %b : tensor<KxNxf32>) outs(%c)
  ->
    scf.for %i = 0 to M step 4 { scf.for %j = 0 to N step 16 {
      %acc0 = vector.transfer_read %c[%i, %j] : vector<4x16xf32>
      %acc = scf.for %k = 0 to K iter_args(%acc = %acc0) -> vector<4x16xf32> {
        %a = vector.transfer_read %a[%i, %k] (broadcast along j) ; %b = ... [%k, %j] (along i)
        scf.yield %acc + %a * %b          // 8 FMAs on 256-bit registers
      }
      vector.transfer_write %acc, %c[%i, %j] } }

It runs on tensors, before bufferization, because that is where the accumulator can be
hoisted out of the K loop safely (`transform.loop.hoist_loop_invariant_subsets`: on
buffers, the output and the inputs might alias). A 4 x 16 f32 tile is 8 accumulator
registers of the 16 AVX2 ones, leaving room for the broadcast A values and the B row.
Matmuls mlc-blas will take (see blas.blas_takes) are left alone; integer matmuls, small
ones, and all of them under MLC_BLAS=0 come here. Not done (yet): packing A and B into
tile-contiguous panels (IREE's mmt4d), which the largest sizes would need for cache reuse.
"""

from __future__ import annotations

from dataclasses import dataclass

from mlir import ir
from mlir.dialects.transform import interpreter

from ..transforms.pass_base import Pass, PassError
from .blas import blas_takes
from .contraction import Contraction, match_contraction
from .parallel import worth_parallel
from .target import num_threads, vector_register_bits

_TAG = "mlc.tile_matmul"
ROWS = 4  # MR: output rows per register tile


def register_tile(c: Contraction, register_bits: int) -> tuple[int, ...] | None:
    """Loop tile sizes (batch 1, M ROWS, N one vector register, K whole) for a single-loop
    M, N, K contraction whose tiles divide the extents; None otherwise (left to the
    generic path)."""
    if len(c.m) != 1 or len(c.n) != 1 or len(c.k) != 1:
        return None
    width = getattr(c.element_type, "width", None)
    if not width or width % 8:
        return None
    lanes = register_bits // width
    m, n = c.m[0], c.n[0]
    if c.extents[m] % ROWS or c.extents[n] % lanes or c.out_dims[-1] != n:
        return None  # a partial tile would need masks; the generic path handles it
    sizes = [0] * len(c.extents)
    for b in c.batch:
        sizes[b] = 1
    sizes[m], sizes[n] = ROWS, lanes
    return tuple(sizes)


def _script(tilings: list[tuple[tuple[int, ...], int, int]]) -> str:
    steps = []
    for index, (sizes, k, parallel_dim) in enumerate(tilings):
        k_sizes = ["0"] * len(sizes)
        k_sizes[k] = "1"
        steps.append(f'%g{index} = transform.structured.match ops{{["linalg.generic"]}} '
                     f'attributes{{{_TAG} = {index} : i64}} in %root : (!transform.any_op) -> !transform.any_op')
        if parallel_dim >= 0:  # the M tiles as an scf.forall, shared between threads
            outer = ["0"] * len(sizes)
            outer[parallel_dim] = str(sizes[parallel_dim])
            steps.append(f"%p{index}, %f{index} = transform.structured.tile_using_forall %g{index} "
                         f"tile_sizes [{', '.join(outer)}] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)")
            sizes = tuple(0 if d == parallel_dim else s for d, s in enumerate(sizes))
            source = f"%p{index}"
        else:
            source = f"%g{index}"
        loops = sum(1 for s in sizes if s)
        handles = ", ".join(["!transform.any_op"] * (loops + 1))
        steps += [
            f"%t{index}, %l{index}:{loops} = transform.structured.tile_using_for {source} "
            f"tile_sizes [{', '.join(map(str, sizes))}] : (!transform.any_op) -> ({handles})"
            if loops > 1 else
            f"%t{index}, %l{index} = transform.structured.tile_using_for {source} "
            f"tile_sizes [{', '.join(map(str, sizes))}] : (!transform.any_op) -> ({handles})",
            f"%u{index}, %k{index} = transform.structured.tile_using_for %t{index} "
            f"tile_sizes [{', '.join(k_sizes)}] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)",
            f"transform.structured.vectorize %u{index} : !transform.any_op",
        ]
    hoists = "\n    ".join(f"transform.loop.hoist_loop_invariant_subsets %k{i} : !transform.any_op"
                           for i in range(len(tilings)))
    body = "\n    ".join(steps)
    return f"""
module attributes {{transform.with_named_sequence}} {{
  transform.named_sequence @__transform_main(%root: !transform.any_op {{transform.readonly}}) {{
    {body}
    %funcs = transform.structured.match ops{{["func.func"]}} in %root : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %funcs {{
      transform.apply_patterns.vector.lower_multi_reduction lowering_strategy = "innerparallel"
      transform.apply_patterns.vector.cast_away_vector_leading_one_dim
      transform.apply_patterns.vector.drop_unit_dims_with_shape_cast
      transform.apply_patterns.tensor.fold_tensor_subset_ops_into_vector_transfers
      transform.apply_patterns.canonicalization
    }} : !transform.any_op
    {hoists}
    transform.yield
  }}
}}
"""


@dataclass(frozen=True)
class TileMatmul(Pass):
    """Register-tiles and vectorizes the matmuls mlc-blas will not take (on tensors).

    Expects: linalg on tensors. Produces: scf.for loops over vector ops with the output
    tile in registers across the K loop, for every contraction `register_tile` accepts.
    """

    name = "mlc-tile-matmul"
    register_bits: int = 0  # 0 = the host CPU's vector register width
    threads: int = 0  # > 1 shares the M tiles between threads; 0 = num_threads()

    def run(self, module: ir.Operation) -> None:
        bits = self.register_bits or vector_register_bits()
        threads = self.threads or num_threads()
        tilings: list[tuple[tuple[int, ...], int, int]] = []
        found = []

        def visit(op):
            if op.name == "linalg.generic":
                c = match_contraction(op)
                sizes = register_tile(c, bits) if c is not None and not blas_takes(c) else None
                if sizes is not None:
                    m = c.m[0]
                    tiles = c.extents[m] // ROWS
                    parallel = threads > 1 and worth_parallel(["parallel"], [tiles, c.mnk // tiles])
                    found.append((op, (sizes, c.k[0], m if parallel else -1)))
                return ir.WalkResult.SKIP
            return ir.WalkResult.ADVANCE

        module.walk(visit)
        if not found:
            return
        for op, tiling in found:
            if tiling not in tilings:
                tilings.append(tiling)
            op.attributes[_TAG] = ir.IntegerAttr.get(ir.IntegerType.get_signless(64), tilings.index(tiling))
        script = ir.Module.parse(_script(tilings))
        try:
            interpreter.apply_named_sequence(module, script.body.operations[0], script)
        except ir.MLIRError as e:
            raise PassError(f"matmul tiling failed: {e}") from None
