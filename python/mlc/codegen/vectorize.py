"""Pass `mlc-vectorize`: each vectorizable linalg.generic on buffers becomes a loop nest
whose innermost loop works on whole vector registers.

    linalg.generic {iterator_types = ["parallel", "parallel"]}
        ins(%x : memref<4096x1024xf32>) outs(%y : memref<4096x1024xf32>) { exp ... }
  ->
    scf.for %i = 0 to 4096 {  scf.for %j = 0 to 1024 step 16 {
      %v = vector.transfer_read %x[%i, %j] : vector<16xf32>
      %e = math.exp %v : vector<16xf32>
      vector.transfer_write %e, %y[%i, %j] } }

Every loop but the innermost is tiled by 1, the innermost by the vector length (two
registers of the widest element type: 16 x f32 with AVX2), and the tile is vectorized by
upstream's linalg vectorizer (a transform-dialect script MLC writes per op). A reduction
along an outer loop keeps its accumulator in a vector register for the whole loop
(`hoist_redundant_vector_transfers`): this is how a lane-split reduction (see
hlo_to_linalg/reduce.py) sums 16 partial results at once. An innermost extent that is not a
multiple of the vector length is handled by masked vector ops in its last tile.

An op is vectorized only when this pass can tell the vectorizer will succeed and the
loads are contiguous: static shapes, indexing maps that are projected permutations whose
innermost loop is, when used, the operand's innermost dimension, a body of arith/math ops,
and reductions whose combiner is a single known arith op of a value computed from an input
or a loop index (a loop-invariant one would be combined only once). Every other op is left
alone and lowered to scalar loops as before.
"""

from __future__ import annotations

from dataclasses import dataclass

from mlir import ir

from ..transforms.pass_base import Pass
from .parallel import chunk_size, worth_parallel
from .target import num_threads, vector_register_bits
from .transform_script import apply_transform_script, drop_attributes

_TAG = "mlc.vectorize"

# A reduction is vectorized only if each output is combined by exactly one of these.
COMBINERS = frozenset({
    "arith.addf", "arith.mulf", "arith.maximumf", "arith.minimumf", "arith.maxnumf", "arith.minnumf",
    "arith.addi", "arith.muli", "arith.maxsi", "arith.minsi", "arith.maxui", "arith.minui",
    "arith.andi", "arith.ori", "arith.xori",
})
# Body ops the vectorizer turns into the same op on vectors.
_BODY_DIALECTS = ("arith.", "math.")
_BODY_OPS = frozenset({"linalg.yield", "linalg.index"})
_REGISTERS_PER_VECTOR = 2  # two independent registers per step hide the FMA/add latency


@dataclass(frozen=True)
class Tiling:
    """How one generic is vectorized: loop tile sizes (0 = not tiled) and, for masked
    vectorization of a partial last tile, the vector sizes."""

    tile_sizes: tuple[int, ...]
    vector_sizes: tuple[int, ...] | None
    parallel_tile: int = 0  # if > 0, the outermost loop becomes an scf.forall of this step


def element_bits(t: ir.Type) -> int | None:
    """Bit width of an integer or float element type; None for index and anything else."""
    if isinstance(t, ir.IntegerType):
        return t.width
    if isinstance(t, ir.FloatType):
        return t.width
    return None


def _operand_types(op) -> list[ir.MemRefType] | None:
    types = [v.type for v in op.operands]
    if not all(isinstance(t, ir.MemRefType) and t.has_static_shape for t in types):
        return None
    return types


def _maps_are_contiguous(op, innermost: int) -> bool:
    """Each map is a projected permutation that reads the innermost loop, if at all, as the
    operand's innermost dimension (so a vector is one contiguous load or a broadcast)."""
    for attr in op.attributes["indexing_maps"]:
        amap = ir.AffineMapAttr(attr).value
        if not amap.is_projected_permutation:
            return False
        dims = [ir.AffineDimExpr(e).position for e in amap.results]
        if innermost in dims and dims[-1] != innermost:
            return False
    return True


def _body_is_vectorizable(op, reduction: bool) -> bool:
    block = op.regions[0].blocks[0]
    for inner in block.operations:
        name = inner.operation.name
        if name not in _BODY_OPS and not name.startswith(_BODY_DIALECTS):
            return False
    if not reduction:
        return True
    outs = list(block.arguments)[-_num_outputs(op):]
    yielded = list(block.operations)[-1].operands
    inputs = list(block.arguments)[:-_num_outputs(op)]
    for k, acc in enumerate(outs):
        users = [u.owner.operation for u in acc.uses]
        if len(users) != 1 or users[0].name not in COMBINERS:
            return False
        if yielded[k] != users[0].results[0]:
            return False
        # Upstream's vectorizer combines a loop-invariant value (a constant, or a scalar from
        # outside such as a folded linalg.fill) once instead of once per reduced element.
        if not any(_varies(v, block, inputs) for v in users[0].operands if v != acc):
            return False
    return True


def _varies(value, block, inputs) -> bool:
    """Whether a body value depends on an input element or a loop index."""
    if isinstance(value, ir.BlockArgument):
        return value.owner == block and any(value == a for a in inputs)
    owner = value.owner
    if not isinstance(owner, ir.Operation):
        owner = owner.operation
    if owner.block != block:
        return False
    if owner.name == "linalg.index":
        return True
    return any(_varies(v, block, inputs) for v in owner.operands)


def _num_outputs(op) -> int:
    return ir.DenseI32ArrayAttr(op.attributes["operandSegmentSizes"])[1]


def tiling_for(op, register_bits: int, threads: int = 1) -> Tiling | None:
    """The vectorization of one linalg.generic on buffers for vector registers of
    `register_bits` (its outer loop shared by `threads` when worth it), or None to leave
    it scalar."""
    types = _operand_types(op)
    iterators = [str(a) for a in op.attributes["iterator_types"]]
    rank = len(iterators)
    if types is None or rank == 0:
        return None
    bits = [element_bits(t.element_type) for t in types]
    if None in bits:
        return None
    reduction = any("reduction" in it for it in iterators)
    innermost = rank - 1
    if not _maps_are_contiguous(op, innermost) or not _body_is_vectorizable(op, reduction):
        return None
    extent = _loop_extent(op, types, innermost)
    if extent is None or 0 in _loop_extents(op, types, rank):
        return None  # an empty loop: nothing to vectorize (upstream's tiler asserts on one)
    # The narrowest element sets the length: 16 f32 loads are two registers (an f64
    # accumulator of the same 16 lanes then takes four).
    lanes = register_bits * _REGISTERS_PER_VECTOR // min(bits)
    extents = _loop_extents(op, types, rank)
    parallel_tile = 0
    if threads > 1 and worth_parallel(iterators, extents):
        parallel_tile = 1 if rank > 1 else chunk_size(extent, lanes, threads)
    outer = (1,) * innermost
    if parallel_tile > 1:  # a 1-D kernel in chunks: each chunk's vectors may be partial
        return Tiling((lanes,), None if parallel_tile % lanes == 0 and extent % parallel_tile == 0
                      else (lanes,), parallel_tile)
    if extent <= lanes:  # one (possibly short) vector per row: no innermost loop
        return Tiling(outer + (0,), None, parallel_tile)
    if extent % lanes == 0:
        return Tiling(outer + (lanes,), None, parallel_tile)
    return Tiling(outer + (lanes,), (1,) * innermost + (lanes,), parallel_tile)


def _loop_extents(op, types, rank: int) -> list[int]:
    return [_loop_extent(op, types, d) or 1 for d in range(rank)]


def _loop_extent(op, types, dim: int) -> int | None:
    """The trip count of loop `dim`: the size of the first operand dimension it indexes."""
    for attr, t in zip(op.attributes["indexing_maps"], types):
        amap = ir.AffineMapAttr(attr).value
        for pos, e in enumerate(amap.results):
            if ir.AffineDimExpr(e).position == dim:
                return t.shape[pos]
    return None


def _transform_script(tilings: list[Tiling]) -> str:
    """A transform-dialect module that tiles and vectorizes the ops tagged with each tiling's
    index, then cleans up: unit dims dropped, reductions lowered, accumulators hoisted."""
    steps = []
    for k, tiling in enumerate(tilings):
        match = (f'%g{k} = transform.structured.match ops{{["linalg.generic"]}} '
                 f'attributes{{{_TAG} = {k} : i64}} in %root : (!transform.any_op) -> !transform.any_op')
        steps.append(match)
        target = f"%g{k}"
        tile_sizes = tiling.tile_sizes
        if tiling.parallel_tile:  # the outermost loop as an scf.forall, then the rest as below
            outer = ", ".join([str(tiling.parallel_tile)] + ["0"] * (len(tile_sizes) - 1))
            steps.append(f"%p{k}, %forall{k} = transform.structured.tile_using_forall %g{k} "
                         f"tile_sizes [{outer}] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)")
            target = f"%p{k}"
            if len(tile_sizes) > 1:
                tile_sizes = (0,) + tile_sizes[1:]
        loops = sum(1 for s in tile_sizes if s)
        if loops:
            results = ", ".join(["!transform.any_op"] * (loops + 1))
            sizes = ", ".join(map(str, tile_sizes))
            loop_handles = f"%l{k}:{loops}" if loops > 1 else f"%l{k}"
            steps.append(f"%t{k}, {loop_handles} = transform.structured.tile_using_for {target} "
                         f"tile_sizes [{sizes}] : (!transform.any_op) -> ({results})")
            target = f"%t{k}"
        vector_sizes = (f" vector_sizes [{', '.join(map(str, tiling.vector_sizes))}]"
                        if tiling.vector_sizes else "")
        steps.append(f"transform.structured.vectorize {target}{vector_sizes} : !transform.any_op")
    body = "\n    ".join(steps)
    return f"""
module attributes {{transform.with_named_sequence}} {{
  transform.named_sequence @__transform_main(%root: !transform.any_op {{transform.readonly}}) {{
    {body}
    %funcs = transform.structured.match ops{{["func.func"]}} in %root : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %funcs {{
      transform.apply_patterns.vector.lower_masked_transfers
      transform.apply_patterns.vector.lower_multi_reduction lowering_strategy = "innerparallel"
      transform.apply_patterns.vector.cast_away_vector_leading_one_dim
      transform.apply_patterns.vector.transfer_permutation_patterns
      transform.apply_patterns.canonicalization
    }} : !transform.any_op
    %hoisted = transform.structured.hoist_redundant_vector_transfers %funcs
      : (!transform.any_op) -> !transform.any_op
    transform.yield
  }}
}}
"""


@dataclass(frozen=True)
class Vectorize(Pass):
    """Tiles and vectorizes linalg.generic ops on buffers along their innermost loop.

    Expects: bufferized linalg (the `buffers` stage). Produces: scf loops over vector ops for
    every op `tiling_for` accepts; all other linalg ops unchanged.
    """

    name = "mlc-vectorize"
    register_bits: int = 0  # the vector register width to target; 0 = the host CPU's
    threads: int = 0  # threads sharing a kernel's outer loop; 0 = num_threads() (MLC_NUM_THREADS)

    def __post_init__(self):
        if self.register_bits not in (0, 128, 256, 512):
            raise ValueError(f"register-bits must be 128, 256 or 512 (0 = host), got {self.register_bits}")
        if self.threads < 0:
            raise ValueError(f"threads must be >= 0 (0 = MLC_NUM_THREADS or the core count), got {self.threads}")

    def run(self, module: ir.Operation) -> None:
        register_bits = self.register_bits or vector_register_bits()
        threads = self.threads or num_threads()
        tilings: list[Tiling] = []
        for op in _generics(module):
            tiling = tiling_for(op, register_bits, threads)
            if tiling is None:
                continue
            if tiling not in tilings:
                tilings.append(tiling)
            op.attributes[_TAG] = ir.IntegerAttr.get(ir.IntegerType.get_signless(64),
                                                     tilings.index(tiling))
        if not tilings:
            return
        apply_transform_script(module, _transform_script(tilings), "vectorization")
        drop_attributes(module, (_TAG,))  # tags that survived belong to ops left scalar


def _generics(module: ir.Operation) -> list:
    found = []

    def visit(op):
        if op.name == "linalg.generic":
            found.append(op)
            return ir.WalkResult.SKIP
        return ir.WalkResult.ADVANCE

    module.walk(visit)
    return found
