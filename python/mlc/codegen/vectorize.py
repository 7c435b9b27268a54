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

Some kernels go through MLC's own row emitter instead (`row_plan`, `row_reduction_plan`,
`emit_rows`, below): gathers (a memref.load in the body, which upstream's vectorizer
rejects on buffers: per-row index arithmetic hoisted, contiguous rows as vector loads,
other loads as vector.gather); streaming kernels (moving at least twice the last-level
cache: non-temporal stores when the output is aligned, no read-for-ownership), and the
result rows of a row-fusion loop that moves that much (`streamed_row_kernels`); parallel
rows that are not a whole number of vectors (full vectors, then one short vector, instead of
a mask on every load and store); and reductions along the innermost loop (vector
accumulators and one `vector.reduction` per row, instead of upstream's lane-by-lane chain).

Last, a division by a broadcast scalar (softmax's e / sum) becomes a multiplication by its
reciprocal, computed once per scalar (`reciprocal_divisions`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import Callable, NamedTuple

from mlir import ir
from mlir.dialects import arith, memref, scf, vector

from ..destination_style import segment_sizes
from ..dialects.hlo.types import element_bits
from ..transforms.pass_base import Pass
from .loops import for_range, forall, inside_parallel_loop, nested_for
from .parallel import body_cost, chunk_size, worth_parallel, worth_work
from .row_fusion import TAG as ROW_FUSION_TAG
from .target import last_level_cache_bytes, num_threads, vector_register_bits
from .transform_script import PEELED_SIZES, apply_transform_script, drop_attributes, script_module
from .views import reassociation, trailing_groups, view_root

_TAG = "mlc.vectorize"


class _Combiner(NamedTuple):
    kind: vector.CombiningKind  # vector.reduction's kind
    identity: Callable[[int], float]  # of the element's bit width: combining it with x gives x


_K = vector.CombiningKind
# A reduction is vectorized only if each output is combined by exactly one of these. The
# identities are exact, bit for bit (-0.0 + x keeps x's sign, maxnum(NaN, x) = x): the row
# emitter starts its accumulators there.
COMBINERS = {
    "arith.addf": _Combiner(_K.ADD, lambda w: -0.0), "arith.mulf": _Combiner(_K.MUL, lambda w: 1.0),
    "arith.maximumf": _Combiner(_K.MAXIMUMF, lambda w: float("-inf")),
    "arith.minimumf": _Combiner(_K.MINIMUMF, lambda w: float("inf")),
    "arith.maxnumf": _Combiner(_K.MAXNUMF, lambda w: float("nan")),
    "arith.minnumf": _Combiner(_K.MINNUMF, lambda w: float("nan")),
    "arith.addi": _Combiner(_K.ADD, lambda w: 0), "arith.muli": _Combiner(_K.MUL, lambda w: 1),
    "arith.maxsi": _Combiner(_K.MAXSI, lambda w: -(1 << (w - 1))),
    "arith.minsi": _Combiner(_K.MINSI, lambda w: (1 << (w - 1)) - 1),
    "arith.maxui": _Combiner(_K.MAXUI, lambda w: 0), "arith.minui": _Combiner(_K.MINUI, lambda w: -1),
    "arith.andi": _Combiner(_K.AND, lambda w: -1), "arith.ori": _Combiner(_K.OR, lambda w: 0),
    "arith.xori": _Combiner(_K.XOR, lambda w: 0),
}
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


def _outputs_written_in_order(op, innermost: int) -> bool:
    """Each output the innermost loop does not index (a reduction's) lists its loops in
    increasing order. Upstream's vectorizer writes such an output as a vector of unit dims
    with the map as its permutation, and its cleanup patterns then rewrite that write
    forever (CastAwayTransferWriteLeadingOneDim against TransferWritePermutationLowering):
    a 2-element reduction into out[d2, d0, d1] hung mlc-vectorize (fuzz seed 53)."""
    maps = list(op.attributes["indexing_maps"])[len(op.operands) - _num_outputs(op):]
    for attr in maps:
        dims = [ir.AffineDimExpr(e).position for e in ir.AffineMapAttr(attr).value.results]
        if innermost not in dims and dims != sorted(dims):
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
    return segment_sizes(op)[1]


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
    contiguous = _maps_are_contiguous(op, innermost)
    if not reduction and not contiguous:
        return transpose_tiling(op, types, register_bits, threads)
    if not contiguous or not _outputs_written_in_order(op, innermost) \
            or not _body_is_vectorizable(op, reduction):
        return None
    extent = _loop_extent(op, types, innermost)
    extents = _loop_extents(op, types, rank) if extent is not None else None
    if extent is None or 0 in extents:
        return None  # an empty loop: nothing to vectorize (upstream's tiler asserts on one)
    # The narrowest element sets the length: 16 f32 loads are two registers (an f64
    # accumulator of the same 16 lanes then takes four).
    lanes = register_bits * _REGISTERS_PER_VECTOR // min(bits)
    parallel_tile = 0
    if threads > 1 and worth_parallel(iterators, extents, body_cost(op)):
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


# At most this many rows and columns per transposed tile: the tile is transposed element by
# element in registers (L*L moves), so 32 x 32 bytes would be 1,024 of them.
_TRANSPOSE_TILE = 8


def _transposed_loop(op, innermost: int) -> int | None:
    """The loop k that every transposed input (one reading the innermost loop, but not as
    its innermost dimension) reads as its innermost dimension, when there is one: the
    outputs read the innermost loop as theirs, the other inputs too or not at all
    (broadcasts), and every map is a projected permutation. Else None."""
    n_in = len(op.operands) - _num_outputs(op)
    found = None
    for position, attr in enumerate(op.attributes["indexing_maps"]):
        amap = ir.AffineMapAttr(attr).value
        if not amap.is_projected_permutation:
            return None
        dims = [ir.AffineDimExpr(e).position for e in amap.results]
        if dims and dims[-1] == innermost:
            continue
        if position >= n_in:
            return None  # an output not written along the innermost loop
        if innermost not in dims:
            continue  # broadcast along the innermost loop
        if found is not None and dims[-1] != found:
            return None
        found = dims[-1]
    # A loop before both tile loops (a leading unit dim of the tile's vectors) must not lie
    # between them in an output: out[j, i, k] of in[i, k, j] (tiles of j and k) made upstream's
    # transfer-write patterns undo each other forever (the leading unit dim dropped, then
    # put back to make the map a permutation). (Reads with such a dim between converge.)
    if found is None:
        return None
    for dims in _map_dims(op)[n_in:]:  # (every map a projected permutation, checked above)
        if found in dims and any(d < min(found, innermost) for d in dims[dims.index(found) + 1:]):
            return None
    return found


def transpose_tiling(op, types, register_bits: int, threads: int) -> Tiling | None:
    """A transposing copy (an input whose innermost dimension is another loop than the
    output's): L x L tiles of those two loops (L = one register of the widest element, at
    most _TRANSPOSE_TILE), each read as L rows of the input and written as L rows of the
    output, transposed in registers, when both loops are whole tiles. Scalar, such a kernel
    steps through the input one cache line per element: (1024, 1024) f32 5.1 -> 0.5-0.7 ms."""
    found = _transpose_lanes(op, types, register_bits)
    if found is None:
        return None
    k, innermost, lanes = found
    iterators = [str(a) for a in op.attributes["iterator_types"]]
    rank = len(iterators)
    extents = _loop_extents(op, types, rank)
    if 0 in extents:
        return None
    sizes = tuple(lanes if d in (k, innermost) else 1 for d in range(rank))
    if extents[k] % lanes or extents[innermost] % lanes:
        # Whole tiles only: upstream's masked vectorization of a permuted read whose two
        # dims are not the source's last two gave wrong elements ((4, 6, 10) by (1, 2, 0)).
        return None
    if threads > 1 and worth_parallel(iterators, extents, body_cost(op)):
        # the outermost loop's tiles (1 or L) as an scf.forall, the rest as before
        return Tiling((0,) + sizes[1:], None, sizes[0])
    return Tiling(sizes, None)


def _transpose_lanes(op, types, register_bits: int) -> tuple[int, int, int] | None:
    """(k, innermost, L) of a transposing kernel transpose_tiling could tile, else None."""
    iterators = [str(a) for a in op.attributes["iterator_types"]]
    if types is None or not iterators or any("reduction" in it for it in iterators):
        return None
    innermost = len(iterators) - 1
    bits = [element_bits(t.element_type) for t in types]
    if None in bits or _maps_are_contiguous(op, innermost):
        return None
    k = _transposed_loop(op, innermost)
    if k is None or not _body_is_vectorizable(op, False):
        return None
    return k, innermost, min(register_bits // max(bits), _TRANSPOSE_TILE)


def split_ragged_transpose(op, register_bits: int) -> bool:
    """A transposing kernel whose two loops are not whole tiles -> the same kernel three
    times on views: the whole tiles (which transpose_tiling then tiles), the strip past
    them along loop k, and the strip past them along the innermost loop (both left scalar).

        out[777, 1000] = in[1000, 777]^T  ->  out[0:776, 0:1000] (tiled 8 x 8),
                                              out[776:777, 0:1000] (scalar)

    Each operand's view covers the loop ranges its map reads (a broadcast dimension stays
    whole). Nothing is split when a loop has no whole tile. Returns whether `op` was split
    (and erased)."""
    types = _operand_types(op)
    found = _transpose_lanes(op, types, register_bits)
    if found is None:
        return False
    k, innermost, lanes = found
    extents = _loop_extents(op, types, len(op.attributes["iterator_types"]))
    whole_k, whole_i = extents[k] // lanes * lanes, extents[innermost] // lanes * lanes
    if (whole_k, whole_i) == (extents[k], extents[innermost]) or not whole_k or not whole_i:
        return False
    full = [(0, e) for e in extents]
    pieces = [{k: (0, whole_k), innermost: (0, whole_i)}, {k: (whole_k, extents[k])},
              {k: (0, whole_k), innermost: (whole_i, extents[innermost])}]
    maps = _map_dims(op)
    with ir.InsertionPoint(op), op.location:
        for piece in pieces:
            ranges = [piece.get(d, full[d]) for d in range(len(extents))]
            if any(lo == hi for lo, hi in ranges):
                continue
            views = [_loop_view(v, t, dims, ranges) for v, t, dims in zip(op.operands, types, maps)]
            clone = op.operation.clone()
            for i, view in enumerate(views):
                clone.operands[i] = view
    op.operation.erase()
    return True


def _loop_view(value: ir.Value, t: ir.MemRefType, dims: list[int], ranges: list[tuple[int, int]]) -> ir.Value:
    """The subview of `value` (read through a map of loop dims `dims`) that the loops'
    `ranges` reach."""
    if not dims:
        return value
    offsets = [ranges[d][0] for d in dims]
    sizes = [ranges[d][1] - ranges[d][0] for d in dims]
    strides, offset = t.get_strides_and_offset()
    dynamic = ir.ShapedType.get_dynamic_stride_or_offset()
    if offset != dynamic and dynamic not in strides:
        offset += sum(o * st for o, st in zip(offsets, strides))
    else:
        offset = dynamic
    view = ir.MemRefType.get(sizes, t.element_type, ir.StridedLayoutAttr.get(offset, strides), t.memory_space)
    return memref.subview(value, offsets, sizes, [1] * t.rank, result_type=view)


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
    index, then cleans up: unit dims dropped, reductions lowered, accumulators hoisted.

    A tiled innermost loop whose extent is not a multiple of the vector length is peeled:

        scf.for %j = 0 to 777 step 16 { %n = affine.min(16, 777 - %j); masked vectors of %n }
      ->
        scf.for %j = 0 to 768 step 16 { whole vectors }   (the mask folds away)
        scf.for %j = 768 to 777 step 16 { masked vectors of 9 }

    so only the last tile pays for masks (on AVX2 a masked load or store is a vmaskmov, and
    the mask is made again per tile). The peeled ops are vectorized after every op is tiled
    and the peeled loops' sizes are folded; they are found again by their tags."""
    tiling_steps, vector_steps, peeled = [], [], False
    for k, tiling in enumerate(tilings):
        match = (f'%g{k} = transform.structured.match ops{{["linalg.generic"]}} '
                 f'attributes{{{_TAG} = {k} : i64}} in %root : (!transform.any_op) -> !transform.any_op')
        tiling_steps.append(match)
        target = f"%g{k}"
        tile_sizes = tiling.tile_sizes
        if tiling.parallel_tile:  # the outermost loop as an scf.forall, then the rest as below
            outer = ", ".join([str(tiling.parallel_tile)] + ["0"] * (len(tile_sizes) - 1))
            tiling_steps.append(f"%p{k}, %forall{k} = transform.structured.tile_using_forall %g{k} "
                                f"tile_sizes [{outer}] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)")
            target = f"%p{k}"
            if len(tile_sizes) > 1:
                tile_sizes = (0,) + tile_sizes[1:]
        loops = sum(1 for s in tile_sizes if s)
        peel = False
        if loops:
            results = ", ".join(["!transform.any_op"] * (loops + 1))
            sizes = ", ".join(map(str, tile_sizes))
            loop_handles = f"%l{k}:{loops}" if loops > 1 else f"%l{k}"
            tiling_steps.append(f"%t{k}, {loop_handles} = transform.structured.tile_using_for {target} "
                                f"tile_sizes [{sizes}] : (!transform.any_op) -> ({results})")
            target = f"%t{k}"
            # a masked innermost tile loop (not a 1-D kernel's chunks, whose ends vary)
            peel = tiling.vector_sizes is not None and not tiling.parallel_tile and tile_sizes[-1] > 0
        if peel:
            innermost = f"%l{k}#{loops - 1}" if loops > 1 else f"%l{k}"
            tiling_steps += [f'%s{k} = transform.cast {innermost} : !transform.any_op to !transform.op<"scf.for">',
                             f"%pm{k}, %pr{k} = transform.loop.peel %s{k} "
                             f': (!transform.op<"scf.for">) -> (!transform.any_op, !transform.any_op)']
            vector_steps.append(match.replace(f"%g{k} =", f"%v{k} =", 1))
            target, peeled = f"%v{k}", True
        vector_sizes = (f" vector_sizes [{', '.join(map(str, tiling.vector_sizes))}]"
                        if tiling.vector_sizes else "")
        (vector_steps if peel else tiling_steps).append(
            f"transform.structured.vectorize {target}{vector_sizes} : !transform.any_op")
    steps = tiling_steps + ([PEELED_SIZES] if peeled else []) + vector_steps
    body = "\n    ".join(steps)
    return script_module(body, """transform.apply_patterns to %funcs {
      transform.apply_patterns.vector.lower_masked_transfers
      transform.apply_patterns.vector.lower_multi_reduction lowering_strategy = "innerparallel"
      transform.apply_patterns.vector.cast_away_vector_leading_one_dim
      transform.apply_patterns.vector.transfer_permutation_patterns
      transform.apply_patterns.canonicalization
    } : !transform.any_op
    %hoisted = transform.structured.hoist_redundant_vector_transfers %funcs
      : (!transform.any_op) -> !transform.any_op""")


# --- MLC's own row emitter: gathers and streaming kernels ----------------------------------
#
# Two kinds of parallel kernels are vectorized here rather than by upstream's vectorizer:
#
# Gathers. hlo-to-linalg's tensor.extract is a memref.load in the body after bufferization;
# upstream's vectorizer rejects it on buffers, and LLVM's loop vectorizer cannot widen it
# either (the index load might alias the stores), so such a kernel ran as scalar code: one
# index load and clamp per element, one thread. Here:
#   - a value that does not depend on the innermost loop (the row's start index, its clamp,
#     a broadcast operand) is *uniform*: computed once per row in scalar code, before the
#     vector loop;
#   - a load whose indices are uniform except the last, which is the innermost loop index
#     plus a uniform value, reads consecutive elements: one contiguous vector load (an
#     embedding row, a dynamic slice's row);
#   - any other varying load is a vector.gather of the lanes' element offsets;
#   - everything else is the body's op on vectors.
#
# Streaming kernels. A kernel that moves at least twice the last-level cache (bytes read +
# written) cannot leave its output in cache for a consumer, yet every ordinary store first
# reads its cache line (read-for-ownership): for a copy-like kernel a third of the memory
# traffic. Its full-vector stores are non-temporal (`vector.store {nontemporal}`: vmovntps),
# when the output's rows are aligned to the vector register (checked once per kernel at run
# time; the same loop with ordinary stores otherwise). A fence after each thread's share
# orders the write-combined stores before the threads join.
#
# Rows: the body on whole vectors along the innermost loop, the row's last partial vector
# one vector of the static remainder's length (no masks). Big kernels share the rows (a 1-D
# kernel: chunks of its vectors) between threads, about four chunks per thread.

_LOAD = "memref.load"
_STREAMING_CACHE_FACTOR = 2  # stream when a kernel moves >= 2x the last-level cache


@dataclass(frozen=True)
class RowPlan:
    """How MLC's row emitter vectorizes one parallel kernel: `lanes` elements per vector
    along the innermost loop; with `chunks` > 0 its rows (a 1-D kernel: its full vectors)
    are split into that many scf.forall iterations; `streaming` lists the outputs whose
    full-vector stores are non-temporal when aligned to `align` bytes."""

    lanes: int
    chunks: int = 0
    streaming: tuple[int, ...] = ()
    align: int = 32
    reduce: bool = False  # a row reduction along the innermost loop (`_Row.reduce`)
    fence: bool = True  # an sfence after streaming stores (False: the caller places one)


def _map_dims(op) -> list[list[int]]:
    return [[ir.AffineDimExpr(e).position for e in ir.AffineMapAttr(attr).value.results]
            for attr in op.attributes["indexing_maps"]]


def _unit_last_stride(t: ir.MemRefType) -> bool:
    strides, _ = t.get_strides_and_offset()
    return t.rank > 0 and strides[-1] == 1


def _static_strides(t: ir.MemRefType) -> list[int] | None:
    strides, _ = t.get_strides_and_offset()
    dynamic = ir.ShapedType.get_dynamic_stride_or_offset()
    return None if dynamic in strides else list(strides)


def _identity_layout(t: ir.MemRefType) -> bool:
    strides, offset = t.get_strides_and_offset()
    expected = 1
    for size, stride in zip(reversed(t.shape), reversed(strides)):
        if stride != expected:
            return False
        expected *= size
    return offset == 0


def _identity_map(t: ir.MemRefType) -> bool:
    """Whether `t`'s layout is written as the identity map (not just equivalent to it)."""
    if not isinstance(t.layout, ir.AffineMapAttr):
        return False
    amap = t.layout.value
    return amap == ir.AffineMap.get_identity(amap.n_dims)


def _bits(t: ir.Type) -> int | None:
    return 64 if isinstance(t, ir.IndexType) else element_bits(t)


def _bytes(t: ir.MemRefType) -> int:
    n = 1
    for s in t.shape:
        n *= s
    return n * (_bits(t.element_type) or 8) // 8


class _Body:
    """Which body values vary along the innermost loop, and how each load reads."""

    def __init__(self, op):
        self.op = op
        self.block = op.regions[0].blocks[0]
        self.rank = len(op.attributes["iterator_types"])
        self.innermost = self.rank - 1
        self.maps = _map_dims(op)
        self.outputs = _num_outputs(op)
        self.varying: set = set()
        self.unit: set = set()  # varying values equal to (innermost index + a uniform value)
        self.loads: dict = {}   # varying load result -> "contiguous" | "gather"
        self.loaded: list = []  # the memrefs the body loads from
        self.ok = True
        for arg, dims in zip(self.block.arguments, self.maps):
            if self.innermost in dims:
                self.varying.add(arg)
        written = list(op.operands)[len(op.operands) - self.outputs:]
        for inner in list(self.block.operations)[:-1]:
            self._classify(inner.operation, written)
        # A reduction's combiners: result -> (the output's old value, the combined value).
        self.combiners: dict = {}
        for acc in list(self.block.arguments)[-self.outputs:]:
            users = [u.owner.operation for u in acc.uses]
            if len(users) == 1 and users[0].name in COMBINERS and len(users[0].operands) == 2:
                a, b = users[0].operands
                self.combiners[users[0].results[0]] = (acc, b if a == acc else a)

    def _classify(self, inner, written) -> None:
        name = inner.name
        if name == "linalg.index":
            if ir.IntegerAttr(inner.attributes["dim"]).value == self.innermost:
                self.varying.add(inner.results[0])
                self.unit.add(inner.results[0])
            return
        operands = list(inner.operands)
        if name == _LOAD:
            source, indices = operands[0], operands[1:]
            t = source.type
            if any(source == w for w in written) or not isinstance(t, ir.MemRefType) or not t.has_static_shape:
                self.ok = False
                return
            self.loaded.append(t)
            if not any(i in self.varying for i in indices):
                return
            self.varying.add(inner.results[0])
            varying = [p for p, i in enumerate(indices) if i in self.varying]
            if _static_strides(t) is None or not _unit_last_stride(t):
                self.ok = False  # vector.gather's LLVM lowering needs a unit innermost stride
            elif len(varying) == 1 and indices[varying[0]] in self.unit and \
                    (varying[0] == t.rank - 1 or (_identity_layout(t) and
                                                   all(s == 1 for s in t.shape[varying[0] + 1:]))):
                # consecutive elements: along the innermost dim, or along a dim followed only
                # by unit dims (an index tensor's trailing index-vector dim of 1)
                self.loads[inner.results[0]] = "contiguous"
            else:
                self.loads[inner.results[0]] = "gather"
            return
        if not any(v in self.varying for v in operands):
            return
        self.varying.update(inner.results)
        if name == "arith.addi" and sum(v in self.unit for v in operands) == 1 \
                and sum(v in self.varying for v in operands) == 1:
            self.unit.add(inner.results[0])
        elif name == "arith.subi" and operands[0] in self.unit and operands[1] not in self.varying:
            self.unit.add(inner.results[0])


# A row reduction of at most this many registers' worth of elements is one vector; a longer
# one keeps this many vector accumulators (of two registers each) over the row.
_SHORT_ROW_REGISTERS = 4
_REDUCTION_ACCUMULATORS = 2
# ... unless its body costs at least this much per element (parallel.body_cost: two math
# functions): then one step's work hides the combiner's latency by itself, and a second
# accumulator only writes the body once more (LLVM compile time). Measured on 256 x 2047
# f32 rows, one thread, p25 of 300 calls, two accumulators against one: max(x) 53 against
# 72 us, sum(x * x) 54 / 55, sum(exp(x)) 150 / 157, sum(tanh(x) * exp(x)) 362 / 366 (first
# call 60 / 49 ms), a sum of 16 tanh 3490 / 3508 (first call 217 / 150 ms).
_ONE_ACCUMULATOR_COST = 12
# Rows of fewer elements keep upstream's lane-by-lane code: measured on softmax with 16384
# rows, a vector.reduction of 2-4 lanes was 1.4-1.5x slower than 2-4 scalar steps, even at
# 7, and faster from 8 on (12: 2.5x, 17: 17x).
_MIN_ROW_REDUCTION = 8


# A kernel reducing its last m >= 2 loops (a whole matrix summed, a mean over H and W) on
# operands contiguous over those loops reads one run of memory: the m loops are one loop of
# their product. Collapsed, it is a row reduction (`row_reduction_plan`: vector
# accumulators); left as m loops, upstream's vectorizer adds each vector's lanes one after
# another into the accumulator (a whole (1000, 768) f32 sum: 0.72 ms; 1-D: 0.07 ms).
_PARALLEL_ITERATOR = "#linalg.iterator_type<parallel>"
_REDUCTION_ITERATOR = "#linalg.iterator_type<reduction>"


def _collapse_trailing(value: ir.Value, t: ir.MemRefType, keep: int) -> ir.Value:
    """`value` (of type t, contiguous over its dims from `keep` on) with those dims one
    (memref.collapse_shape)."""
    shape = list(t.shape[:keep]) + [math.prod(t.shape[keep:])]
    strides, offset = t.get_strides_and_offset()
    # collapse_shape keeps the source's kind of layout: an identity map stays one, a
    # strided layout stays strided even when its strides are the identity's
    # (strided<[5, 1]> -> strided<[1]>; fuzz run 26).
    layout = None if _identity_map(t) else \
        ir.StridedLayoutAttr.get(offset, list(strides[:keep]) + [strides[-1]])
    collapsed = ir.MemRefType.get(shape, t.element_type, layout, t.memory_space)
    return memref.collapse_shape(collapsed, value, reassociation(trailing_groups(keep, t.rank)))


def collapse_short_rows(op, register_bits: int) -> bool:
    """linalg.generic(parallel x m >= 2) whose innermost loop is shorter than a vector
    register, every operand indexed by the identity map and contiguous over the last two
    loops -> the same generic with those two loops one (operands collapsed with
    memref.collapse_shape), repeated while the innermost loop stays short: an elementwise
    (20000, 1) kernel ran as 20,000 one-lane vectors (13 us; as (20000): 1.5 us).
    Returns whether it changed `op`."""
    types = _operand_types(op)
    if types is None:
        return False
    iterators = [str(a) for a in op.attributes["iterator_types"]]
    rank = len(iterators)
    if rank < 2 or any("parallel" not in it for it in iterators):
        return False
    every_loop = ir.AffineMap.get_identity(rank)
    if any(ir.AffineMapAttr(a).value != every_loop for a in op.attributes["indexing_maps"]):
        return False
    if any(inner.operation.name == "linalg.index" for inner in op.regions[0].blocks[0].operations):
        return False  # (its loop numbers would change)
    bits = [_bits(t.element_type) for t in types]
    if None in bits:
        return False
    lanes = register_bits // min(bits)
    keep = rank - 1  # the loops from `keep` on become one
    while keep > 0 and math.prod(types[0].shape[keep:]) < lanes:
        joined = keep - 1
        if not all(_unit_last_stride(t) and _contiguous_from(t, joined) for t in types):
            break
        keep = joined
    if keep == rank - 1:
        return False
    with ir.InsertionPoint(op), op.location:
        for i, t in enumerate(types):
            op.operands[i] = _collapse_trailing(op.operands[i], t, keep)
    identity = ir.AffineMapAttr.get(ir.AffineMap.get_identity(keep + 1))
    op.attributes["indexing_maps"] = ir.ArrayAttr.get([identity] * len(types))
    op.attributes["iterator_types"] = ir.ArrayAttr.get([ir.Attribute.parse(_PARALLEL_ITERATOR)] * (keep + 1))
    return True


def _contiguous_from(t: ir.MemRefType, first: int) -> bool:
    """Whether t's strides are static and its dims from `first` on one run of memory (each
    dim's stride its inner neighbour's times that one's size)."""
    strides = _static_strides(t)
    return strides is not None and all(
        strides[j] == strides[j + 1] * t.shape[j + 1] for j in range(first, t.rank - 1))


def collapse_reduction_loops(op) -> bool:
    """linalg.generic(parallel x k, reduction x m >= 2) reading every input through the
    identity map, writing outputs indexed by the k parallel loops only, on operands
    contiguous over the m loops -> the same generic with the m loops one loop (inputs
    collapsed with memref.collapse_shape). Returns whether it changed `op`."""
    types = _operand_types(op)
    if types is None:
        return False
    iterators = [str(a) for a in op.attributes["iterator_types"]]
    rank = len(iterators)
    k = next((i for i, it in enumerate(iterators) if "reduction" in it), rank)
    if rank - k < 2 or any("reduction" not in it for it in iterators[k:]):
        return False
    block = op.regions[0].blocks[0]
    if any(inner.operation.name == "linalg.index" for inner in block.operations):
        return False  # (its loop numbers would change)
    if not all(ir.AffineMapAttr(a).value.is_projected_permutation for a in op.attributes["indexing_maps"]):
        return False  # (a window's d0 * 2 + d2)
    outputs = _num_outputs(op)
    inputs = len(types) - outputs
    for i, (t, dims) in enumerate(zip(types, _map_dims(op))):
        if dims != (list(range(rank)) if i < inputs else list(range(k))):
            return False
        if i < inputs and not _contiguous_from(t, k):
            return False
    with ir.InsertionPoint(op), op.location:
        for i in range(inputs):
            op.operands[i] = _collapse_trailing(op.operands[i], types[i], k)
    identity = ir.AffineMapAttr.get(ir.AffineMap.get_identity(k + 1))
    kept = ir.AffineMapAttr.get(ir.AffineMap.get(k + 1, 0, [ir.AffineExpr.get_dim(d) for d in range(k)]))
    op.attributes["indexing_maps"] = ir.ArrayAttr.get([identity] * inputs + [kept] * outputs)
    op.attributes["iterator_types"] = ir.ArrayAttr.get(
        [ir.Attribute.parse(_PARALLEL_ITERATOR)] * k + [ir.Attribute.parse(_REDUCTION_ITERATOR)])
    return True


def row_reduction_plan(op, register_bits: int, threads: int = 1) -> RowPlan | None:
    """The row emitter's plan for a reduction along the innermost loop (every outer loop
    parallel), or None for any other kernel. Upstream's vectorizer reduces such a row one
    lane after another: for each vector of 16 elements 16 dependent scalar combines (for a
    NaN-propagating max a compare-and-branch each), measured 16x slower per element than a
    lane-split row (softmax on 1023-wide rows: 59 ns per element against 3.7 on 1024-wide
    ones, whose reductions hlo-to-linalg splits into 16 lanes). Here a short row (the 16
    partial results of a lane split, or up to four registers of elements) is one vector
    and one `vector.reduction` (a shuffle tree); a longer one is summed in vector
    accumulators, reduced once at the end (`_Row.reduce`)."""
    types = _operand_types(op)
    iterators = [str(a) for a in op.attributes["iterator_types"]]
    rank = len(iterators)
    if types is None or rank == 0 or "reduction" not in iterators[-1] \
            or any("parallel" not in it for it in iterators[:-1]):
        return None
    block = op.regions[0].blocks[0]
    if any(inner.operation.name == _LOAD for inner in block.operations):
        return None
    innermost = rank - 1
    if not _maps_are_contiguous(op, innermost) or not _body_is_vectorizable(op, True):
        return None
    bits = [element_bits(t.element_type) for t in types]
    if None in bits:
        return None
    maps = _map_dims(op)
    outputs = _num_outputs(op)
    for t, dims in zip(types, maps):
        if innermost in dims and not _unit_last_stride(t):
            return None
    body = _Body(op)
    if not body.ok or len(body.combiners) != outputs:
        return None
    yielded = list(block.operations)[-1].operands
    for result in body.combiners:
        if any(u.owner.operation.name != "linalg.yield" for u in result.uses) or result not in list(yielded):
            return None
    extents = _loop_extents(op, types, rank)
    if 0 in extents:
        return None
    n = extents[-1]
    if n < _MIN_ROW_REDUCTION:
        return None
    short = _SHORT_ROW_REGISTERS * register_bits // min(bits)
    lanes = n if n <= short else register_bits * _REGISTERS_PER_VECTOR // min(bits)
    total = 1
    for e in extents:
        total *= e
    outer = total // n
    chunks = 0
    if threads > 1 and worth_work(total, body_cost(op)) and rank > 1 and outer >= 2:
        chunks = min(outer, 4 * threads)
    return RowPlan(lanes, chunks, reduce=True)


def row_plan(op, register_bits: int, threads: int = 1, llc_bytes: int | None = None,
             stream: bool = False) -> RowPlan | None:
    """The row emitter's vectorization of a parallel linalg.generic on buffers that loads
    from memory in its body (a gather) or streams (moves >= 2x the last-level cache), or
    None: any other kernel (upstream's vectorizer takes it), or one this path cannot
    vectorize (left scalar). `stream`: the kernel is a row of a streaming row-fusion loop
    (`streamed_row_kernels`): stream its outputs whatever its own size."""
    types = _operand_types(op)
    iterators = [str(a) for a in op.attributes["iterator_types"]]
    rank = len(iterators)
    if types is None or rank == 0 or any("parallel" not in it for it in iterators):
        return None
    block = op.regions[0].blocks[0]
    names = [inner.operation.name for inner in block.operations]
    if not all(n in _BODY_OPS or n == _LOAD or n.startswith(_BODY_DIALECTS) for n in names):
        return None
    innermost = rank - 1
    if not _maps_are_contiguous(op, innermost):  # (projected permutations: dims only)
        return None
    maps = _map_dims(op)
    outputs = _num_outputs(op)
    for k, (t, dims) in enumerate(zip(types, maps)):
        if innermost in dims and not _unit_last_stride(t):
            return None  # a strided row: the scalar loops (or upstream's vectorizer) take it
        if k >= len(types) - outputs and innermost not in dims:
            return None
    # (only a body that loads can fail the row emitter or read more: most kernels skip the
    # classification of every body op)
    loaded = []
    if _LOAD in names:
        body = _Body(op)
        if not body.ok:
            return None
        loaded = body.loaded
    bits = [_bits(t.element_type) for t in types + loaded]
    if None in bits:
        return None
    extents = _loop_extents(op, types, rank)
    if 0 in extents:
        return None
    total = 1
    for e in extents:
        total *= e
    written = sum(_bytes(t) for t in types[len(types) - outputs:])
    read = sum(_bytes(t) for t in types[:len(types) - outputs])
    read += sum(min(_bytes(t), total * _bits(t.element_type) // 8) for t in loaded)
    llc = llc_bytes or last_level_cache_bytes()
    streams = stream or read + written >= _STREAMING_CACHE_FACTOR * llc
    lanes = register_bits * _REGISTERS_PER_VECTOR // min(bits)
    n = extents[-1]
    # A row that is not a whole number of vectors: upstream's masked vectorization masks
    # every load and store of the row (vmaskmov, slow on AVX2: softmax on 1023-wide rows ran
    # 10x slower per element than on 1024-wide ones); here only the last vector is short.
    ragged = n > lanes and n % lanes != 0
    if _LOAD not in names and not streams and not ragged:
        return None
    full = n - n % lanes if n > lanes else 0
    outer = total // n
    chunks = 0
    if threads > 1 and worth_work(total, body_cost(op)):
        units = outer if rank > 1 else full // lanes  # rows, or a 1-D kernel's vectors
        if units >= 2:
            chunks = min(units, 4 * threads)
    align = register_bits // 8
    streaming = ()
    if streams and full:
        for k, t in enumerate(types[len(types) - outputs:]):
            width = _bits(t.element_type) // 8
            strides = _static_strides(t)
            # every full vector of every row starts on a multiple of `align` bytes from the
            # buffer's start: vectors are whole multiples of it, and so are row strides
            if strides is not None and lanes * width % align == 0 and \
                    all(s * width % align == 0 for s in strides[:-1]):
                streaming += (k,)
    return RowPlan(lanes, chunks, streaming, align)


def _used(value: ir.Value) -> bool:
    return any(True for _ in value.uses)


def _zero(t: ir.Type) -> ir.Value:
    if isinstance(t, ir.FloatType):
        return arith.constant(t, 0.0)
    return arith.constant(t, 0)


def _vector_of(t: ir.Type, width: int) -> ir.VectorType:
    return ir.VectorType.get([width], t)


def _identity_vector(combiner: str, element: ir.Type, width: int) -> ir.Value:
    """A vector of `width` copies of `combiner`'s identity (COMBINERS)."""
    t = _vector_of(element, width)
    value = COMBINERS[combiner].identity(_bits(element))
    scalar = (ir.FloatAttr.get(element, value) if isinstance(element, ir.FloatType)
              else ir.IntegerAttr.get(element, value))
    return arith.constant(t, ir.DenseElementsAttr.get_splat(t, scalar))


def _index(value: int) -> ir.Value:
    return arith.constant(ir.IndexType.get(), value)


class _Row:
    """One row of a kernel: its uniform values in scalar code at the insertion point where
    it is made, then vector steps along the innermost loop."""

    def __init__(self, body: _Body, ivs: tuple):
        self.body = body
        self.ivs = ivs
        self.scalar: dict = {}
        op = body.op
        for arg, dims, source in zip(body.block.arguments, body.maps, op.operands):
            if arg not in body.varying and _used(arg):
                self.scalar[arg] = memref.load(source, [ivs[d] for d in dims])
        for inner in list(body.block.operations)[:-1]:
            inner = inner.operation
            if inner.results[0] in body.varying:
                continue
            if inner.name == "linalg.index":
                self.scalar[inner.results[0]] = ivs[ir.IntegerAttr(inner.attributes["dim"]).value]
                continue
            clone = inner.clone(ip=ir.InsertionPoint.current)
            for k, v in enumerate(inner.operands):
                clone.operands[k] = self.uniform(v)
            for old, new in zip(inner.results, clone.results):
                self.scalar[old] = new

    def uniform(self, value: ir.Value) -> ir.Value:
        return self.scalar.get(value, value)  # values from outside the body are themselves

    def _position(self, dims: list[int], j: ir.Value) -> list[ir.Value]:
        return [j if d == self.body.innermost else self.ivs[d] for d in dims]

    def _vector_body(self, j: ir.Value, width: int, claim=None) -> tuple[dict, object]:
        """The body's varying ops as `width`-lane vector ops for the row's elements from
        innermost index `j`: (vec: scalar value -> its vector, get). `claim(inner, get,
        first)` may take an op first: it returns the op's vector, or True when it records
        what it makes itself, or False to leave the op to the walk (`first`: the unit
        values' first-lane scalars)."""
        body, op = self.body, self.body.op
        vec: dict = {}
        first: dict = {}  # unit values: the first lane's value, a scalar

        def get(value):
            if value in vec:
                return vec[value]
            t = value.type
            if value not in body.varying:
                result = vector.broadcast(_vector_of(t, width), self.uniform(value))
            else:  # a unit value (the others are made in body order below)
                result = arith.addi(vector.broadcast(_vector_of(t, width), first[value]),
                                    vector.step(_vector_of(t, width)))
            vec[value] = result
            return result

        for arg, dims, source in zip(body.block.arguments, body.maps, op.operands):
            if arg in body.varying and _used(arg):  # (an output's old value is rarely read)
                t = source.type
                vec[arg] = vector.transfer_read(_vector_of(t.element_type, width), source,
                                                self._position(dims, j),
                                                ir.AffineMap.get_minor_identity(t.rank, 1),
                                                _zero(t.element_type), [True])
        for inner in list(body.block.operations)[:-1]:
            inner = inner.operation
            result = inner.results[0]
            if result not in body.varying:
                continue
            taken = claim(inner, get, first) if claim is not None else False
            if taken is not False:
                if taken is not True:
                    vec[result] = taken
                continue
            if result in body.unit:
                if inner.name == "linalg.index":
                    first[result] = j
                else:
                    a, b = inner.operands
                    if inner.name == "arith.addi" and b in body.unit:
                        a, b = b, a
                    make = arith.addi if inner.name == "arith.addi" else arith.subi
                    first[result] = make(first[a], self.uniform(b))
                continue
            operands = [get(v) for v in inner.operands]  # (broadcasts before the op)
            clone = inner.clone(ip=ir.InsertionPoint.current)
            for k, v in enumerate(operands):
                clone.operands[k] = v
            for r in clone.results:
                r.set_type(_vector_of(r.type, width))
            for old, new in zip(inner.results, clone.results):
                vec[old] = new
        return vec, get

    def vectors(self, j: ir.Value, width: int, streaming: tuple = (), align: int = 0) -> None:
        """The body on `width` consecutive elements of the row from innermost index `j`;
        the outputs in `streaming` are stored non-temporally (aligned to `align` bytes)."""
        body, op = self.body, self.body.op

        def load(inner, get, first):
            return self._load(inner, width, first, get) if inner.name == _LOAD else False

        _, get = self._vector_body(j, width, load)
        yielded = list(body.block.operations)[-1].operands
        outputs = list(op.operands)[len(op.operands) - body.outputs:]
        for k, (value, dims, target) in enumerate(zip(yielded, body.maps[-body.outputs:], outputs)):
            at = self._position(dims, j)
            if k in streaming:
                store = vector.StoreOp(get(value), target, at)
                store.operation.attributes["nontemporal"] = ir.BoolAttr.get(True)
                store.operation.attributes["alignment"] = ir.IntegerAttr.get(
                    ir.IntegerType.get_signless(64), align)
            else:
                vector.transfer_write(None, get(value), target, at,
                                      ir.AffineMap.get_minor_identity(target.type.rank, 1), [True])

    def combined(self, j: ir.Value, width: int) -> list:
        """For each combiner of a reduction body: the vector of the `width` values it would
        combine, for the row's elements from innermost index `j`."""
        body = self.body
        combined = {}

        def combiner(inner, get, first):
            result = inner.results[0]
            if result not in body.combiners:
                return False
            combined[result] = get(body.combiners[result][1])
            return True

        self._vector_body(j, width, combiner)
        return [combined[r] for r in body.combiners]

    def reduce(self, n: int, lanes: int, unroll: int) -> None:
        """A reduction row along the innermost loop of `n` elements, stored into the output
        element. Up to `lanes` elements: one vector and one `vector.reduction` (a shuffle
        tree). Longer: `unroll` vector accumulators of `lanes` elements (independent
        dependency chains: a single accumulator would wait on the combiner's latency every
        step) over the full vectors, combined, reduced once, plus the last partial vector's
        own reduction. Adds and multiplies are reassociated (partial sums, as the lane split
        of hlo_to_linalg/reduce.py does); max and min are exact in any order."""
        body, op = self.body, self.body.op
        combiners = list(body.combiners)
        ops = {r: r.owner.operation if hasattr(r.owner, "operation") else r.owner for r in combiners}

        def combine(result, a, b):
            clone = ops[result].clone(ip=ir.InsertionPoint.current)
            clone.operands[0], clone.operands[1] = a, b
            clone.results[0].set_type(a.type)
            return clone.results[0]

        def horizontal(result, v, acc=None):
            fastmath = (ir.Attribute.parse("#arith.fastmath<reassoc>")
                        if ops[result].name in ("arith.addf", "arith.mulf") else None)
            return vector.reduction(result.type, COMBINERS[ops[result].name].kind, v, acc=acc,
                                    fastmath=fastmath)

        olds = [self.uniform(body.combiners[r][0]) for r in combiners]
        if n <= lanes:
            totals = [horizontal(r, v, old) for r, v, old in zip(combiners, self.combined(_index(0), n), olds)]
        else:
            full = n - n % lanes
            unroll = max(1, min(unroll, full // lanes))
            step = unroll * lanes
            main = full - full % step  # the unrolled loop's end
            if main == step:  # one step: no loop
                accs = [self.combined(_index(u * lanes), lanes) for u in range(unroll)]
            else:
                # The accumulators start at the combiners' identity, so the body is written
                # once in the loop rather than once more for a first step before it (the
                # fused body can be long: every copy is LLVM compile time).
                flat = [_identity_vector(ops[r].name, r.type, lanes) for _ in range(unroll) for r in combiners]
                loop = scf.ForOp(_index(0), _index(main), _index(step), flat)
                with ir.InsertionPoint(loop.body):
                    carried = list(loop.inner_iter_args)
                    updated = []
                    for u in range(unroll):
                        j = loop.induction_variable if u == 0 else \
                            arith.addi(loop.induction_variable, _index(u * lanes))
                        values = self.combined(j, lanes)
                        for k, r in enumerate(combiners):
                            updated.append(combine(r, carried[u * len(combiners) + k], values[k]))
                    scf.YieldOp(updated)
                results = list(loop.results)
                accs = [results[u * len(combiners):(u + 1) * len(combiners)] for u in range(unroll)]
            for j in range(main, full, lanes):  # full vectors after the unrolled loop
                values = self.combined(_index(j), lanes)
                accs[0] = [combine(r, a, v) for r, a, v in zip(combiners, accs[0], values)]
            totals = []
            for k, r in enumerate(combiners):
                acc = accs[0][k]
                for u in range(1, unroll):
                    acc = combine(r, acc, accs[u][k])
                totals.append(horizontal(r, acc, olds[k]))
            if n > full:  # the last partial vector, reduced on its own
                tails = self.combined(_index(full), n - full)
                totals = [combine(r, t, horizontal(r, v)) for r, t, v in zip(combiners, totals, tails)]
        yielded = list(list(body.block.operations)[-1].operands)
        outputs = list(op.operands)[len(op.operands) - body.outputs:]
        for value, dims, target in zip(yielded, body.maps[-body.outputs:], outputs):
            memref.store(totals[combiners.index(value)], target, [self.ivs[d] for d in dims])

    def _load(self, load, width: int, first: dict, get) -> ir.Value:
        source, indices = load.operands[0], list(load.operands)[1:]
        t = source.type
        element = t.element_type
        result = load.results[0]
        if self.body.loads[result] == "contiguous":
            p = next(p for p, i in enumerate(indices) if i in self.body.varying)
            if p < t.rank - 1:  # drop the trailing unit dims: the varying dim becomes innermost
                collapsed = ir.MemRefType.get(list(t.shape[:p + 1]), element)
                source = memref.collapse_shape(collapsed, source, reassociation(trailing_groups(p, t.rank)))
            at = [self.uniform(i) for i in indices[:p]] + [first[indices[p]]]
            return vector.transfer_read(_vector_of(element, width), source, at,
                                        ir.AffineMap.get_minor_identity(p + 1, 1), _zero(element), [True])
        # A gather: uniform indices are the base position, varying ones the lanes' offsets
        # from it (in elements: the index times the dimension's stride). 32-bit offsets when
        # the whole buffer is addressable with them (AVX2 gathers 8 of those at once).
        strides = _static_strides(t)
        span = 1 + sum((size - 1) * stride for size, stride in zip(t.shape, strides))
        offset_type = ir.IntegerType.get_signless(32) if span < 2 ** 31 else ir.IndexType.get()
        offsets_type = _vector_of(offset_type, width)
        base, offsets = [], None
        for i, stride in zip(indices, strides):
            if i not in self.body.varying:
                base.append(self.uniform(i))
                continue
            base.append(_index(0))
            lane = get(i)
            if lane.type != offsets_type:
                lane = arith.index_cast(offsets_type, lane)
            if stride != 1:
                lane = arith.muli(lane, arith.constant(offsets_type, ir.DenseElementsAttr.get_splat(
                    offsets_type, ir.IntegerAttr.get(offset_type, stride))))
            offsets = lane if offsets is None else arith.addi(offsets, lane)
        mask_type = _vector_of(ir.IntegerType.get_signless(1), width)
        mask = arith.constant(mask_type, ir.DenseElementsAttr.get_splat(
            mask_type, ir.IntegerAttr.get(ir.IntegerType.get_signless(1), 1)))
        passthru = vector.broadcast(_vector_of(element, width), _zero(element))
        return vector.gather(_vector_of(element, width), source, base, offsets, mask, passthru)


def _aligned(buffers: list[ir.Value], align: int) -> ir.Value:
    """i1: every buffer's first element is on a multiple of `align` bytes."""
    ok = None
    for b in buffers:
        pointer = memref.extract_aligned_pointer_as_index(b)
        meta = memref.ExtractStridedMetadataOp(b)
        offset = arith.muli(meta.results[1], _index(_bits(b.type.element_type) // 8))
        address = arith.addi(pointer, offset)
        aligned = arith.cmpi(arith.CmpIPredicate.eq, arith.remui(address, _index(align)), _index(0))
        ok = aligned if ok is None else arith.andi(ok, aligned)
    return ok


def _fence() -> None:
    """x86's sfence: this thread's non-temporal (write-combined) stores become globally
    visible before any store after it, such as the thread pool's count of finished
    blocks (the fence the movnt* instructions are documented to need)."""
    from mlir.dialects import llvm
    llvm.call_intrinsic(None, "llvm.x86.sse.sfence", [], [], ir.DenseI32ArrayAttr.get([]))


# A row that is not a whole number of vectors can end with its last full vector, which
# overlaps the one before (recomputed elements are stored again, equal): the body is
# written once, at one width, instead of again for a short vector (a second copy of a long
# fused body is LLVM compile time, a second width a second copy of each math helper; a
# 40-op chain with 20 exp/tanh on (256, 500): first call 143 -> 103 ms). It recomputes up
# to a vector per row, where the short vector costs only the registers it fills: allowed
# when that extra work is at most 1/_OVERLAP_MAX_EXTRA of the row. Measured, one thread,
# p25 of 300 calls, tanh(x) * exp(-x) with a short vector / overlapped: (4096, 33) 113 /
# 167 us, (2048, 100) 141 / 167 (both declined now), (512, 500) 169 / 170, (256, 1025)
# 168 / 172 (f32, 512-bit: 32 lanes, 16 per register).
_OVERLAP_MAX_EXTRA = 32


def _overlap_is_cheap(n: int, lanes: int) -> bool:
    """Whether a row of `n` ends with an overlapping full vector (above): the registers the
    short vector of the n % lanes elements left would not fill are the extra work."""
    per_register = max(1, lanes // _REGISTERS_PER_VECTOR)
    filled = -(-(n % lanes) // per_register)
    extra = max(0, _REGISTERS_PER_VECTOR - filled) * per_register
    return extra * _OVERLAP_MAX_EXTRA <= n


def _writes_apart(op, outputs) -> bool:
    """No output of `op` shares a buffer with what it reads (its inputs, the buffers its body
    loads from): computing an element twice then stores the same value twice."""
    read = [v for v in list(op.operands)[:len(op.operands) - len(outputs)] if isinstance(v.type, ir.MemRefType)]
    for inner in op.regions[0].blocks[0].operations:
        if inner.operation.name == _LOAD:
            read.append(inner.operands[0])
    roots = {view_root(v) for v in read}
    return not any(view_root(o) in roots for o in outputs)


def emit_rows(op, plan: RowPlan) -> None:
    """Replaces `op` (a kernel `row_plan` accepted) by its vectorized loops."""
    body = _Body(op)
    types = _operand_types(op)
    extents = _loop_extents(op, types, body.rank)
    n = extents[-1]
    lanes = min(plan.lanes, n)
    full, rest = n - n % lanes, n % lanes
    outputs = list(op.operands)[len(op.operands) - body.outputs:]
    overlap = bool(full and rest and not plan.reduce and not plan.streaming
                   and _overlap_is_cheap(n, lanes) and _writes_apart(op, outputs))

    with ir.InsertionPoint(op), op.location:
        streaming = plan.streaming
        aligned = _aligned([outputs[k] for k in streaming], plan.align) if streaming else None

        def vector_loop(r: _Row, lower, upper, stream):
            if stream:
                for_range(lower, upper, lanes, lambda j: r.vectors(j, lanes, streaming, plan.align))
            else:
                for_range(lower, upper, lanes, lambda j: r.vectors(j, lanes))

        def row(ivs, lower=None, upper=None, tail=True):
            r = _Row(body, ivs)
            if plan.reduce:
                cheap = body_cost(op) < _ONE_ACCUMULATOR_COST
                r.reduce(n, plan.lanes, _REDUCTION_ACCUMULATORS if cheap else 1)
                return
            if overlap and lower is None and tail:
                last = _index(n - lanes)
                for_range(_index(0), _index(full + lanes), lanes,
                          lambda j: r.vectors(arith.minsi(j, last), lanes))
                return
            if full:
                lower = _index(0) if lower is None else lower
                upper = _index(full) if upper is None else upper
                if aligned is None:
                    vector_loop(r, lower, upper, False)
                else:  # non-temporal stores when the outputs are aligned, ordinary ones if not
                    branch = scf.IfOp(aligned, [], has_else=True)
                    with ir.InsertionPoint(branch.then_block):
                        vector_loop(r, lower, upper, True)
                        scf.YieldOp([])
                    with ir.InsertionPoint(branch.else_block):
                        vector_loop(r, lower, upper, False)
                        scf.YieldOp([])
            if rest and tail:
                r.vectors(_index(full), rest)

        def delinearized(linear: ir.Value) -> tuple:
            """The outer loops' indices of row number `linear` (row-major)."""
            ivs, inner = [], 1
            outer = extents[:-1]
            for d in reversed(range(len(outer))):
                value = linear if inner == 1 else arith.divui(linear, _index(inner))
                ivs.append(value if d == 0 else arith.remui(value, _index(outer[d])))
                inner *= outer[d]
            return tuple(reversed(ivs))

        if body.rank > 1:
            total_rows = 1
            for e in extents[:-1]:
                total_rows *= e
            if plan.chunks:  # chunks of rows on threads (forall), rows one after another in each
                size = -(-total_rows // plan.chunks)

                def chunk(ivs):
                    lower = arith.muli(ivs[0], _index(size))
                    upper = arith.minui(arith.addi(lower, _index(size)), _index(total_rows))
                    for_range(lower, upper, 1, lambda linear: row(delinearized(linear)))
                    if aligned is not None and plan.fence:
                        _fence()

                forall([-(-total_rows // size)], chunk)
            else:
                nested_for([(0, e, 1) for e in extents[:-1]], lambda ivs, _t: row(ivs))
                if aligned is not None and plan.fence:
                    _fence()
        elif plan.chunks:  # chunks of the full vectors on threads, then the tail
            vectors_total = full // lanes
            size = -(-vectors_total // plan.chunks) * lanes

            def chunk_1d(ivs):
                lower = arith.muli(ivs[0], _index(size))
                upper = arith.minui(arith.addi(lower, _index(size)), _index(full))
                row((), lower, upper, tail=False)
                if aligned is not None:
                    _fence()

            forall([-(-full // size)], chunk_1d)
            if rest:
                _Row(body, ()).vectors(_index(full), rest)
        else:
            row(())
            if aligned is not None and plan.fence:
                _fence()
    op.erase()


@dataclass(frozen=True)
class Vectorize(Pass):
    """Tiles and vectorizes linalg.generic ops on buffers along their innermost loop.

    Expects: bufferized linalg (the `buffers` stage). Produces: scf loops over vector ops for
    every op `row_plan` (gathers, streaming kernels, ragged rows), `row_reduction_plan`
    (reductions along the innermost loop) or `tiling_for` accepts, divisions by a broadcast
    scalar as multiplications by its reciprocal; all other linalg ops unchanged. Before
    planning, contiguous loops are joined (memref.collapse_shape): reduced loops into one
    (`collapse_reduction_loops`), and elementwise rows shorter than a register into the
    rows after them (`collapse_short_rows`: a (20000, 1) kernel -> one 20000 loop).
    """

    name = "mlc-vectorize"
    register_bits: int = 0  # the vector register width to target; 0 = the host CPU's
    threads: int = 0  # threads sharing a kernel's outer loop; 0 = num_threads() (MLC_NUM_THREADS)
    cache_bytes: int = 0  # the last-level cache streaming kernels are measured against; 0 = the host's

    def __post_init__(self):
        if self.register_bits not in (0, 128, 256, 512):
            raise ValueError(f"register-bits must be 128, 256 or 512 (0 = host), got {self.register_bits}")
        if self.threads < 0:
            raise ValueError(f"threads must be >= 0 (0 = MLC_NUM_THREADS or the core count), got {self.threads}")
        if self.cache_bytes < 0:
            raise ValueError(f"cache-bytes must be >= 0 (0 = the host's last-level cache), got {self.cache_bytes}")

    def run(self, module: ir.Operation) -> None:
        register_bits = self.register_bits or vector_register_bits()
        threads = self.threads or num_threads()
        for dialect in ("arith", "memref", "scf", "vector", "llvm"):  # the ops emit_rows creates
            module.context.get_dialect_descriptor(dialect)
        tilings: list[Tiling] = []
        llc_bytes = self.cache_bytes or last_level_cache_bytes()  # (read once, not per kernel)
        streamed, fenced = streamed_row_kernels(module, llc_bytes)
        for op in _generics(module):
            split_ragged_transpose(op, register_bits)
        for op in _generics(module):
            collapse_reduction_loops(op)
            collapse_short_rows(op, register_bits)
            # A kernel inside a loop already shared between threads (a row-fusion scf.forall)
            # gets no parallel loop of its own: a task waiting on nested tasks holds its
            # worker, and with every worker waiting the program deadlocks.
            kernel_threads = 1 if inside_parallel_loop(op) else threads
            plan = None
            if op in streamed:
                plan = row_plan(op, register_bits, 1, None, stream=True)
                if plan is not None:
                    plan = replace(plan, fence=False)
            plan = (plan or row_plan(op, register_bits, kernel_threads, llc_bytes)
                    or row_reduction_plan(op, register_bits, kernel_threads))
            if plan is not None:
                emit_rows(op, plan)
                continue
            tiling = tiling_for(op, register_bits, kernel_threads)
            if tiling is None:
                continue
            if tiling not in tilings:
                tilings.append(tiling)
            op.attributes[_TAG] = ir.IntegerAttr.get(ir.IntegerType.get_signless(64),
                                                     tilings.index(tiling))
        for loop in fenced:  # one fence per thread's rows, after its streaming stores
            _fence_after_rows(loop)
        if tilings:
            apply_transform_script(module, _transform_script(tilings), "vectorization")
            drop_attributes(module, (_TAG,))  # tags that survived belong to ops left scalar
        reciprocal_divisions(module)


# --- division by a broadcast value -------------------------------------------------------------
#
# softmax's last kernel divides each element of a row by the row's sum: after vectorization
# `arith.divf %v, (vector.broadcast %s)`. A vector divide is slow (AVX2 on this host: one
# 8 x f32 vdivps in about 5 cycles against two multiplies a cycle; in cache, softmax's divide
# was a quarter of its time), so the scalar's reciprocal is computed once where the scalar is
# made (once per row) and the elements are multiplied by it. a * (1/s) is not always the
# correctly rounded a / s: the result may differ by one ulp (f32: relative 1.2e-7).
# f16 and bf16 multiply in f32 by an f32 reciprocal and round once, so they stay within half
# an ulp plus 2^-24 of the exact quotient.

# The type the reciprocal and the product are computed in, per element type: one whose
# range holds 1/s for every finite nonzero s (f32's 1/s overflows for subnormal s) and whose
# precision leaves a single rounding to the element type. f64 keeps its divide (no wider type).
_RECIPROCAL_TYPES = {"f16": "f32", "bf16": "f64", "f32": "f64"}


def reciprocal_divisions(module: ir.Operation) -> None:
    """Every `arith.divf` of a float vector by a broadcast scalar becomes a multiplication by
    the scalar's reciprocal, computed once right after the scalar."""
    found = []

    def visit(op):
        if op.name == "arith.divf" and isinstance(op.results[0].type, ir.VectorType):
            divisor = op.operands[1].owner
            if not isinstance(divisor, ir.Block) and divisor.operation.name == "vector.broadcast" \
                    and isinstance(divisor.operation.operands[0].type, ir.FloatType):
                found.append(op)
        return ir.WalkResult.ADVANCE

    module.walk(visit)
    reciprocals: dict = {}
    for div in found:
        scalar = div.operands[1].owner.operation.operands[0]
        if not _invariant_in_loop(scalar, div):
            continue  # one division per scalar anyway (a row of one vector): nothing saved
        t = scalar.type
        wide = _RECIPROCAL_TYPES.get(str(t))
        if wide is None:
            continue
        wide = ir.Type.parse(wide)
        if scalar not in reciprocals:
            owner = scalar.owner
            # (where the scalar is defined, so the reciprocal dominates all its uses)
            at = (ir.InsertionPoint.at_block_begin(owner) if isinstance(owner, ir.Block)
                  else ir.InsertionPoint.after(owner.operation))
            with at, div.location:
                value = scalar if wide == t else arith.extf(wide, scalar)
                reciprocals[scalar] = arith.divf(arith.constant(wide, 1.0), value)
        with ir.InsertionPoint(div), div.location:
            vt = ir.VectorType(div.results[0].type)
            wide_vt = ir.VectorType.get(vt.shape, wide)
            numerator = div.operands[0] if wide == t else arith.extf(wide_vt, div.operands[0])
            product = arith.mulf(numerator, vector.broadcast(wide_vt, reciprocals[scalar]))
            result = product if wide == t else arith.truncf(vt, product)
        broadcast = div.operands[1].owner.operation
        div.results[0].replace_all_uses_with(result)
        div.erase()
        if not list(broadcast.results[0].uses):
            broadcast.erase()


def _invariant_in_loop(scalar: ir.Value, op) -> bool:
    """Whether `scalar` stays the same across the iterations of the innermost scf.for around
    `op`: defined outside it, or loaded there from a buffer the loop does not write (a
    row's sum in its one-element buffer, loaded in the loop by upstream's vectorizer)."""
    loop = op.operation.parent
    while loop is not None and loop.name != "scf.for":
        if loop.name == "func.func":
            return False
        loop = loop.parent
    if loop is None or not _defined_inside(scalar, loop):
        return loop is not None
    load = scalar.owner.operation
    if load.name != "memref.load" or any(_defined_inside(v, loop) for v in load.operands):
        return False
    source = view_root(load.operands[0])
    written = []

    def visit(inner):
        if inner.name in ("memref.store", "vector.store", "vector.transfer_write"):
            written.append(view_root(inner.operands[1]))
        return ir.WalkResult.ADVANCE

    loop.walk(visit)
    return source not in written


# --- streaming row-fusion loops ----------------------------------------------------------------
#
# A row-fusion loop (mlc-row-fusion) reads and writes whole buffers one row at a time; when
# the buffers it moves (its full-size operands, counted once each) are at least twice the
# last-level cache, its results cannot stay in cache for a consumer either. Then the kernels
# writing the loop's results (a row of a full-size buffer that no other kernel of the row reads)
# store them non-temporally like a streaming kernel: for layer_norm 4096x1024 f32 that saves
# the read-for-ownership of the 16 MB output, a third of its memory traffic. The sfence comes
# once after each thread's rows, not after each row.

def _row_fusion_loops(module: ir.Operation) -> list:
    found = []

    def visit(op):
        if op.name in ("scf.for", "scf.forall") and ROW_FUSION_TAG in op.attributes:
            found.append(op)
            return ir.WalkResult.SKIP
        return ir.WalkResult.ADVANCE

    module.walk(visit)
    return found


def _defined_inside(value: ir.Value, loop: ir.Operation) -> bool:
    owner = value.owner
    if isinstance(owner, ir.Block):
        owner = owner.owner
    op = owner.operation if hasattr(owner, "operation") else owner
    while op is not None:
        if op == loop:
            return True
        op = op.parent
    return False


def _is_stack(value: ir.Value) -> bool:
    owner = value.owner
    return not isinstance(owner, ir.Block) and owner.operation.name == "memref.alloca"


def streamed_row_kernels(module: ir.Operation, llc_bytes: int) -> tuple[list, list]:
    """([kernels whose outputs stream], [the row-fusion loops holding them]): the
    all-parallel kernels of streaming row-fusion loops whose every output is a row subview
    of a full-size buffer no other op of the loop touches."""
    kernels, loops = [], []
    for loop in _row_fusion_loops(module):
        subviews = []

        def visit(op):
            if op.name == "memref.subview" and not _defined_inside(op.operands[0], loop):
                subviews.append(op)
            return ir.WalkResult.ADVANCE

        loop.walk(visit)
        roots: dict = {}
        for view in subviews:
            root = view_root(view.operands[0])
            if not _is_stack(root) and isinstance(root.type, ir.MemRefType) and root.type.has_static_shape:
                roots.setdefault(root, []).append(view)
        moved = sum(_bytes(root.type) for root in roots)
        if moved < _STREAMING_CACHE_FACTOR * llc_bytes:
            continue
        found = []
        for root, views in roots.items():
            if len(views) != 1:
                continue
            users = [u.owner.operation for u in views[0].results[0].uses]
            if len(users) != 1 or users[0].name != "linalg.generic":
                continue
            kernel = users[0]
            n_out = _num_outputs(kernel)
            outs = list(kernel.operands)[len(kernel.operands) - n_out:]
            iterators = [str(a) for a in kernel.attributes["iterator_types"]]
            if outs == [views[0].results[0]] and all("parallel" in it for it in iterators):
                found.append(kernel)  # (a kernel of several outputs keeps the ordinary path)
        if found:
            kernels += found
            loops.append(loop)
    return kernels, loops


def _fence_after_rows(loop: ir.Operation) -> None:
    """An sfence after the row loop: at the end of each thread's chunk of rows (inside the
    scf.forall), or after the whole loop when it runs on one thread."""
    if loop.name == "scf.forall":
        terminator = list(loop.regions[0].blocks[0].operations)[-1]
        with ir.InsertionPoint(terminator), loop.location:
            _fence()
    else:
        with ir.InsertionPoint.after(loop), loop.location:
            _fence()


def _generics(module: ir.Operation) -> list:
    found = []

    def visit(op):
        if op.name == "linalg.generic":
            found.append(op)
            return ir.WalkResult.SKIP
        return ir.WalkResult.ADVANCE

    module.walk(visit)
    return found
