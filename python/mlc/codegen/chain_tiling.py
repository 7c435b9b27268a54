"""Pass `mlc-chain-tiling`: a contraction, the row-wise ops after it and the contraction that
reads their result run block by block of rows, one batch index's rows a block (attention:
softmax(q k^T) v per head).

    s = q k^T            [b, M, N]     for each batch index b, on the threads:
    p = softmax_rows(s)  [b, M, N]  ->    s' = q[b] k[b]^T      [1, M, N]  (in cache)
    o = p v              [b, M, D]        p' = softmax_rows(s')  [1, M, N]
                                          o[b] = p' v[b]         [1, M, D]

Unfused, s and p are written whole (8 x 512 x 512 f32: 8 MB each) by one parallel kernel
and read back by the next; by blocks, one parallel loop runs all three, and each block's s'
and p' are read back while they sit in the thread's share of the cache (`row_block`, the
cost model, which also keeps every operand read as often as unfused). XLA reaches the same on CPU with a fused custom kernel (jax.jit's attention is
one YNNPACK fusion); here it is a loop transformation on linalg, so any chain of that shape
qualifies:

- the last op is a contraction C2 with one M loop; its lhs comes from a DAG of
  linalg.generics (with C1, another contraction, among them) in which every op keeps C2's
  batch and M loops as parallel loops, read at the same positions (`_Chain`), and no
  intermediate value has a user outside the chain (nothing is computed twice or written);
- operands from outside are read as slices (k and v per batch: [1, N, D]); inits that are
  fills of empty tensors are made per tile; `linalg.index` of a tiled loop is offset by the
  tile's start (a causal mask stays right);
- it pays only when the intermediates are big (C2's lhs >= the last-level cache /
  CACHE_SHARE): below that they stay in cache unfused too.

Runs on tensors in the buffers stage (after inlining, before the matmul strategies): the
result is an scf.forall over (batch, row blocks) whose body holds tile-sized generics, which
mlc-tile-matmul, mlc-blas and mlc-vectorize then lower on one thread each (a kernel inside a
parallel loop never gets a parallel loop of its own).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from mlir import ir
from mlir.dialects import arith, linalg, scf, tensor

from ..dialects.hlo.types import byte_size
from ..transforms.pass_base import Pass
from ..transforms.patterns import producer
from .blas import strategy
from .contraction import match_contraction
from .loops import uses_dim
from . import target
from .target import last_level_cache_bytes, num_threads

# Marks the loops this pass makes (mlc-row-fusion fuses the row kernels in their bodies).
TAG = "mlc.chain_tiling"
# Intermediates (C2's lhs) smaller than the last-level cache / CACHE_SHARE stay in cache
# unfused: no tiling. MIN_CHAIN_BYTES, when set, replaces that floor (tests lower it). The
# causal attention block with its projections on MLC's own GEMMs, (2, 8, 256, 256) f32
# scores (4 MB, the L3 32 MB): 9.9-10.0 ms tiled against 8.7-9.0 unfused; attention_core's
# (8, 512, 512) (8 MB): 3.7-4.1 ms tiled against 5.3 (p25 of interleaved calls).
CACHE_SHARE = 4
MIN_CHAIN_BYTES: int | None = None


@dataclass
class _Chain:
    """The ops of a chain and, per op, its loop index of each tiled dim (batch..., M)."""
    last: ir.Operation
    loops: dict = field(default_factory=dict)    # op -> [loop index per tiled dim]
    extents: list = field(default_factory=list)  # the tiled dims' sizes

    def ops(self) -> list:
        """The chain's ops in program order."""
        return [op.operation for op in self.last.operation.block.operations if op.operation in self.loops]


def _maps(op) -> list[ir.AffineMap]:
    return [ir.AffineMapAttr(a).value for a in op.attributes["indexing_maps"]]


def _positions(amap: ir.AffineMap, loops: list[int]) -> list[int | None] | None:
    """Where each tiled loop appears among the map's results (None: not read along it, a
    broadcast); None if a tiled loop appears other than as a plain dim or twice."""
    found = []
    for loop in loops:
        where = []
        for i, expr in enumerate(amap.results):
            if isinstance(expr, ir.AffineDimExpr):
                if expr.position == loop:
                    where.append(i)
            elif uses_dim(expr, loop):
                return None
        if len(where) > 1:
            return None
        found.append(where[0] if where else None)
    return found


def _is_init(value: ir.Value) -> bool:
    """tensor.empty, or a linalg.fill of one: made per tile instead of sliced."""
    op = producer(value)
    if op is None:
        return False
    if op.name == "tensor.empty":
        return True
    return op.name == "linalg.fill" and producer(op.operands[1], "tensor.empty") is not None


def _producer_loops(op, value: ir.Value, where: list[int]) -> list[int] | None:
    """The loops of generic `op` that write positions `where` of its result `value` (one per
    tiled dim), or None unless each is a plain parallel loop."""
    result = list(op.results).index(value)
    out_map = _maps(op)[len(op.operands) - len(op.results) + result]
    iterators = [str(a) for a in op.attributes["iterator_types"]]
    loops = []
    for pos in where:
        expr = out_map.results[pos]
        if not isinstance(expr, ir.AffineDimExpr) or "parallel" not in iterators[expr.position]:
            return None
        loops.append(expr.position)
    return loops


def _bytes(value: ir.Value) -> int:
    return byte_size(value.type)


def find_chain(last, cache_bytes: int) -> _Chain | None:
    """The chain ending at contraction `last` (module docstring), or None; `cache_bytes`:
    the last-level cache the intermediates' floor is a share of."""
    last = last.operation
    c = match_contraction(last)
    if c is None or c.is_vector or len(c.m) != 1:
        return None
    floor = MIN_CHAIN_BYTES if MIN_CHAIN_BYTES is not None else cache_bytes // CACHE_SHARE
    if _bytes(last.operands[0]) < floor:
        return None  # (first: the walk below can cover the whole program)
    tiled = list(c.batch) + [c.m[0]]
    chain = _Chain(last, {last: tiled}, [c.extents[d] for d in tiled])
    pending = [last]
    block = last.block
    while pending:
        op = pending.pop()
        loops = chain.loops[op]
        n_inputs = len(op.operands) - len(op.results)
        for i, (value, amap) in enumerate(zip(op.operands, _maps(op))):
            where = _positions(amap, loops)
            if where is None:
                return None
            owner = producer(value)
            owner = owner.operation if owner is not None else None
            if (i >= n_inputs or owner is None or owner.name != "linalg.generic"
                    or owner.block != block or None in where):
                continue
            if owner in chain.loops:
                continue
            own = _producer_loops(owner, value, where)
            if own is None:
                continue  # read whole, materialized before the chain
            chain.loops[owner] = own
            pending.append(owner)
    ops = set(chain.loops)
    for op in ops:
        if not all(ir.RankedTensorType(r.type).has_static_shape for r in op.results):
            return None
        if op == last:
            continue
        for r in op.results:
            if any(use.owner not in ops for use in r.uses):
                return None  # an intermediate is needed elsewhere: it would be written anyway
    if not any(op != last and match_contraction(op) is not None for op in ops):
        return None
    return chain


def row_block(chain: _Chain, threads: int, cache_bytes: int) -> int | None:
    """Rows per block (the cost model): all M rows of a batch index, when the batch indices
    give every thread one and a batch index's intermediates fit each thread's half share of
    the last-level cache; else None (no tiling).

    Never fewer rows: the operands without an M dim (k and v; W1 and W2 of an MLP block,
    which has no batch loop) would be read and packed again per block. Measured: attention
    (8, 512, 64), p25 of 320 calls: unfused 5.3 ms, 32-row blocks 4.7, 64 4.3, all 512 rows
    3.8; the (512, 768) x (768, 3072) MLP block by 128-row blocks 26 -> 33 ms (each block
    packs W1 and W2 again, on the packed kernel instead of OpenBLAS)."""
    rows = chain.extents[-1]
    batches = math.prod(chain.extents[:-1])
    per_row = sum(_bytes(r) for op in chain.loops if op != chain.last for r in op.results) // (batches * rows)
    if batches < max(2, threads) or rows * per_row > cache_bytes // (2 * threads):
        return None
    return rows


def tile_chain(chain: _Chain, block: int) -> None:
    """Replaces the chain by an scf.forall over (batch..., M / block) of tile-sized copies of
    its ops; the last op's tiles are inserted into its result."""
    last = chain.last
    steps = [1] * (len(chain.extents) - 1) + [block]
    sizes = steps
    n_inputs = len(last.operands) - len(last.results)
    out = last.operands[n_inputs]
    fill = None
    if _is_init(out) and producer(out).name == "linalg.fill":
        fill = producer(out)
        shared = fill.operands[1]
    else:
        shared = out
    with ir.InsertionPoint(last), last.location:
        loop = scf.ForallOp([0] * len(steps), list(chain.extents), steps, [shared])
        loop.attributes[TAG] = ir.UnitAttr.get()
        body = loop.regions[0].blocks[0]
        ivs = list(body.arguments)[:len(steps)]
        shared_arg = body.arguments[len(steps)]
        with ir.InsertionPoint(body):
            terminator = scf.InParallelOp()
    mapping = {}
    tile_result = None
    with ir.InsertionPoint(terminator), last.location:
        for op in chain.ops():
            loops = chain.loops[op]
            maps = _maps(op)
            operands = []
            n_in = len(op.operands) - len(op.results)
            for i, (value, amap) in enumerate(zip(op.operands, maps)):
                where = _positions(amap, loops)
                if value in mapping:
                    operands.append(mapping[value])
                elif op == last and i == n_in:
                    piece = _slice(shared_arg, where, ivs, sizes)
                    operands.append(_refill(fill, piece) if fill is not None else piece)
                elif i >= n_in and _is_init(value):
                    operands.append(_tile_init(value, where, sizes))
                else:
                    operands.append(_slice(value, where, ivs, sizes))
            results = []
            for r, amap in zip(op.results, maps[n_in:]):
                where = _positions(amap, loops)
                results.append(_tile_type(r.type, where, sizes))
            tile = _clone_generic(op, operands, results, loops, ivs)
            for old, new in zip(op.results, tile.results):
                mapping[old] = new
            tile_result = tile.results[0]
    with ir.InsertionPoint(terminator.block), last.location:
        where = _positions(_maps(last)[n_inputs], chain.loops[last])
        offsets, static_offsets, static_sizes = _window(ir.RankedTensorType(shared.type).shape, where, ivs, sizes)
        tensor.ParallelInsertSliceOp(tile_result, shared_arg, offsets, [], [], static_offsets, static_sizes,
                                     [1] * len(static_sizes))
    last.results[0].replace_all_uses_with(loop.results[0])
    inits = [v.owner for op in chain.ops() for v in op.operands if _is_init(v)]
    for op in reversed(chain.ops()):
        op.erase()
    for op in inits:  # the whole-size fills and empties nothing reads now
        _erase_if_unused(op)


def _window(shape, where, ivs, sizes):
    """(dynamic offsets, static offsets, static sizes) of the tile of a tensor of `shape` whose
    tiled dims sit at positions `where` (None: not tiled)."""
    offsets, static_offsets, static_sizes = [], [0] * len(shape), list(shape)
    for position, iv, size in zip(where, ivs, sizes):
        if position is not None:
            offsets.append((position, iv))
            static_offsets[position] = ir.ShapedType.get_dynamic_stride_or_offset()
            static_sizes[position] = size
    return [iv for _, iv in sorted(offsets)], static_offsets, static_sizes


def _tile_type(value_type, where, sizes) -> ir.RankedTensorType:
    t = ir.RankedTensorType(value_type)
    shape = list(t.shape)
    for position, size in zip(where, sizes):
        if position is not None:
            shape[position] = size
    return ir.RankedTensorType.get(shape, t.element_type)


def _slice(value: ir.Value, where, ivs, sizes) -> ir.Value:
    """The tile of `value` (itself when no tiled dim reads it)."""
    if all(w is None for w in where):
        return value
    offsets, static_offsets, static_sizes = _window(ir.RankedTensorType(value.type).shape, where, ivs, sizes)
    return tensor.ExtractSliceOp(_tile_type(value.type, where, sizes), value, offsets, [], [],
                                 static_offsets, static_sizes, [1] * len(static_sizes)).result


def _tile_init(value: ir.Value, where, sizes) -> ir.Value:
    """A tile-sized tensor.empty, filled as `value`'s fill was."""
    t = _tile_type(value.type, where, sizes)
    empty = tensor.EmptyOp(t.shape, t.element_type).result
    op = producer(value)
    return _refill(op, empty) if op.name == "linalg.fill" else empty


def _refill(fill, target: ir.Value) -> ir.Value:
    return linalg.fill(fill.operands[0], outs=[target])


def _clone_generic(op, operands, result_types, loops, ivs):
    """`op` on other operands and result types; its body moves into the new op, and each
    linalg.index of a tiled loop is offset by the tile's start."""
    new = ir.Operation.create("linalg.generic", results=result_types, operands=operands,
                              attributes={name: op.attributes[name] for name in op.attributes}, regions=1)
    old_block = op.regions[0].blocks[0]
    block = new.regions[0].blocks.append(*[a.type for a in old_block.arguments])
    for old, arg in zip(old_block.arguments, block.arguments):
        old.replace_all_uses_with(arg)
    for inner in list(old_block.operations):
        block.append(inner)
    offsets = {loop: iv for loop, iv in zip(loops, ivs)}
    for inner in list(block.operations):
        if inner.name == "linalg.index":
            dim = ir.IntegerAttr(inner.attributes["dim"]).value
            if dim in offsets:
                with ir.InsertionPoint.after(inner), inner.location:
                    shifted = arith.addi(inner.result, offsets[dim])
                uses = [u for u in inner.result.uses if u.owner != shifted.owner]
                for use in uses:
                    use.owner.operands[use.operand_number] = shifted
    return new


def _erase_if_unused(op) -> None:
    if op is None:
        return
    op = op.operation
    if all(not list(r.uses) for r in op.results):
        feeds = [v.owner for v in op.operands if producer(v) is not None]
        op.erase()
        for f in feeds:
            if f.name in ("tensor.empty", "linalg.fill"):
                _erase_if_unused(f)


@dataclass(frozen=True)
class ChainTiling(Pass):
    """Runs contraction -> row-wise ops -> contraction chains (attention) by blocks of rows.

    Expects: linalg on tensors, fusion functions inlined. Produces: an scf.forall over
    (batch..., row blocks) holding tile-sized copies of each chain's ops (module docstring).
    """

    name = "mlc-chain-tiling"
    threads: int = 0      # threads sharing the blocks; 0 = num_threads()
    cache_bytes: int = 0  # the last-level cache; 0 = the host's

    def __post_init__(self):
        if self.threads < 0 or self.cache_bytes < 0:
            raise ValueError(f"threads and cache-bytes must be >= 0 (0 = the host's), got "
                             f"{self.threads} and {self.cache_bytes}")

    def run(self, module: ir.Operation) -> None:
        threads = self.threads or num_threads()
        cache = self.cache_bytes or last_level_cache_bytes()
        for fn in module.regions[0].blocks[0].operations:
            if fn.operation.name != "func.func" or not len(fn.regions[0].blocks):
                continue
            while self._tile_one(fn.regions[0].blocks[0], threads, cache):
                pass  # (a tiling erases ops: scan the block again)

    @staticmethod
    def _tile_one(block: ir.Block, threads: int, cache: int) -> bool:
        """Tiles the last chain of the block; False if there is none."""
        # Where OpenBLAS's jobs run on MLC's pool, nothing runs its loops on one thread.
        blas_calls = _blas_calls(block) if target.sequential_beside_blas() else []
        for op in reversed(list(block.operations)):
            if op.operation.name != "linalg.generic":
                continue
            chain = find_chain(op, cache)
            if chain is not None and any(c not in chain.loops for c in blas_calls):
                continue  # the function calls BLAS: its loops, this one too, run on one thread
            rows = row_block(chain, threads, cache) if chain is not None else None
            if rows is not None:
                tile_chain(chain, rows)
                return True
        return False


def _blas_calls(block: ir.Block) -> list:
    """The contractions of the block mlc-blas will make OpenBLAS calls. In a function that
    calls BLAS, mlc-sequential-beside-blas runs every parallel loop on one thread (OpenBLAS's
    workers spin after a call), the chain's too: unfused, its big contractions would be
    multi-threaded calls instead (the attention block with projections: 8.9 ms unfused
    against 9.8 tiled on one thread)."""
    found = []
    for op in block.operations:
        op = op.operation
        if op.name == "linalg.generic":
            c = match_contraction(op, vectors=True)
            if c is not None and strategy(c) == "blas":
                found.append(op)
    return found
