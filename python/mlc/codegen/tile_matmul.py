"""Pass `mlc-tile-matmul`: a small matmul becomes register-tiled vector code: the output
in MR x NR tiles held in vector registers for the whole K loop, its elementwise epilogue
fused. (Bigger ones are left for mlc-blas: an OpenBLAS call or MLC's packed GEMM.)

    linalg.generic {acc + a * b} ins(%a : tensor<MxKxf32>, %b : tensor<KxNxf32>) outs(%c)
  ->
    scf.for %i = 0 to M step 4 { scf.for %j = 0 to N step 16 {
      %acc0 = vector.transfer_read %c[%i, %j] : vector<4x16xf32>
      %acc = scf.for %k = 0 to K iter_args(%acc = %acc0) -> vector<4x16xf32> {
        %a = vector.transfer_read %a[%i, %k] (broadcast along j) ; %b = ... [%k, %j] (along i)
        scf.yield fma(%a, %b, %acc)       // 8 FMAs on 256-bit registers (mlc-fma)
      }
      vector.transfer_write %acc, %c[%i, %j] } }

It runs on tensors, before bufferization, because that is where the accumulator can be
hoisted out of the K loop safely (`transform.loop.hoist_loop_invariant_subsets`: on
buffers, the output and the inputs might alias). A 4 x 16 f32 tile (two registers per
row) is 8 independent accumulators, enough to hide the FMA latency; the broadcast A
values and the B row take 6 of the remaining registers. Which matmuls come here is
blas.strategy's rule ("tiled": below 2^22 when the tile fits) plus those up to
EPILOGUE_TILED_MAX_MNK with a fusible epilogue whose extents the tile divides; the others
are packed (packed_gemm.py: A and B in register-tile panels, for cache reuse) or called in
OpenBLAS by mlc-blas.

Remainders (contraction.register_tile): extents the tile does not divide end in one
smaller tile. The M and N tile loops are peeled (`transform.loop.peel`, inner loop first)
into a loop of whole tiles and one last tile, whose sizes fold to constants (a
canonicalization between tiling and vectorizing); every copy is then found again by its
tag and vectorized like a whole tile, accumulator in registers across K. M = 17 is four
4-row tiles and a 1-row tile; N = 10 is an 8-column tile and a 2-column tile (N tiles are
powers of two: a vector<10xf32> row was lowered through a stack temporary, 2.5x slower;
so is the remainder, or the product is packed: contraction.column_tile), with the
epilogue fused into both. An N tile never has as many columns as an M tile has rows
(contraction.tile_rows: on a square tile the broadcast B read came out transposed). The
thread loop (an scf.forall) is never peeled: a matmul with a remainder there runs on one
thread (PARALLEL_MIN_MNK: the thread rule). This replaced packing small products such as
an MLP's 64 x 256 x 10 output layer, which cost about 0.1 s of compile for packing code
and ran slower (33 against 39 us).

Before tiling, a matmul operand that only broadcasts along batch dims is replaced by its
source (fold_broadcast_operands): numpy's (b, m, k) @ (k, n) becomes one GEMM of b*m rows.
(Upstream's transfer_permutation_patterns are not applied: on a square tile, 4x4 f64,
they mis-transposed the broadcast A read: wrong results, caught by test_matmul.py.)
"""

from __future__ import annotations

from dataclasses import dataclass

from mlir import ir

from ..dialects.hlo.types import element_bytes
from ..transforms.pass_base import Pass
from .blas import compute_type, strategy
from .contraction import Contraction, match_contraction, register_tile, remainders
from .loops import inside_parallel_loop
from .target import l2_cache_bytes, num_threads, vector_register_bits
from .transform_script import PEELED_SIZES, apply_transform_script, drop_attributes, script_module

_TAG = "mlc.tile_matmul"
_EPILOGUE = "mlc.tile_epilogue"
_INIT = "mlc.tile_init"


@dataclass(frozen=True)
class _Plan:
    """How one matmul is tiled: loop tile sizes (in its own loop space), its K loop, the
    loop shared between threads (-1: none), whether an elementwise epilogue (and the fill
    that initializes the accumulator) is fused into its tile loops, and the loops (in its
    own loop space) whose last tile is a smaller one, peeled off (contraction.remainders)."""

    sizes: tuple[int, ...]
    k: int
    parallel: int
    out_dims: tuple[int, ...]
    epilogue: bool
    init: bool
    peel: tuple[int, ...] = ()
    k_extent: int = 2  # K = 1: no K loop is left to hoist the accumulator out of


def _handles(n: int) -> str:
    return ", ".join(["!transform.any_op"] * n)


def _tile(result: str, loops: str, source: str, sizes) -> str:
    count = sum(1 for s in sizes if s)
    loop_handles = f"{loops}:{count}" if count > 1 else loops
    return (f"{result}, {loop_handles} = transform.structured.tile_using_for {source} "
            f"tile_sizes [{', '.join(map(str, sizes))}] : (!transform.any_op) -> ({_handles(count + 1)})")


def _match(name: str, tag: str, index: int, op: str = "linalg.generic") -> str:
    return (f'{name} = transform.structured.match ops{{["{op}"]}} attributes{{{tag} = {index} : i64}} '
            f"in %root : (!transform.any_op) -> !transform.any_op")


def _loop_handle(loops: str, sizes, dim: int) -> str:
    """The handle of the scf.for that tile_using_for made for loop `dim` (tiled loops come
    in loop order)."""
    tiled = [d for d, s in enumerate(sizes) if s]
    return f"{loops}#{tiled.index(dim)}" if len(tiled) > 1 else loops


def _plan_steps(i: int, plan: _Plan) -> tuple[list[str], list[str]]:
    """Transform ops for one plan: (tiling, vectorization); every plan's tiling runs before
    any vectorization. Without an epilogue the matmul is tiled itself; with one, the
    epilogue is tiled and the matmul (and its init fill) fused into its tile loop, so the
    product tile goes from registers through the epilogue straight to the output.
    Parallel: the M tiles are an scf.forall; with an epilogue, every register tile is one
    iteration of a 2-D scf.forall (the fusion needs the tile loop to be the forall).
    Remainders: the tile loops of `plan.peel` are peeled (innermost first) into a loop of
    whole tiles and one smaller tile, each with static shapes (after the canonicalization
    _script runs between the phases); the copies are found again by their tags."""
    k_sizes = [0] * len(plan.sizes)
    k_sizes[plan.k] = 1
    if plan.epilogue:  # tile sizes in the epilogue's loop space: the matmul's output dims
        sizes = [plan.sizes[d] for d in plan.out_dims]
        peel = [plan.out_dims.index(d) for d in plan.peel]
        parallel = plan.parallel
        root = f"%e{i}"
        steps = [_match(root, _EPILOGUE, i), _match(f"%g{i}", _TAG, i)]
    else:
        sizes, peel, parallel, root = list(plan.sizes), list(plan.peel), plan.parallel, f"%g{i}"
        steps = [_match(root, _TAG, i)]
    vector_steps: list[str] = []
    if parallel >= 0 and plan.epilogue:  # each register tile an scf.forall iteration (threads)
        assert not peel, "a forall tile loop cannot be peeled"
        steps.append(f"%t{i}, %f{i} = transform.structured.tile_using_forall {root} tile_sizes "
                     f"[{', '.join(map(str, sizes))}] : (!transform.any_op) -> ({_handles(2)})")
        innermost = f"%f{i}"
    else:
        if parallel >= 0:  # the M tiles as an scf.forall (threads), the rest scf.for inside
            assert parallel not in peel, "a forall tile loop cannot be peeled"
            outer = [0] * len(sizes)
            outer[parallel], sizes[parallel] = sizes[parallel], 0
            steps.append(f"%p{i}, %f{i} = transform.structured.tile_using_forall {root} tile_sizes "
                         f"[{', '.join(map(str, outer))}] : (!transform.any_op) -> ({_handles(2)})")
            root = f"%p{i}"
        steps.append(_tile(f"%t{i}", f"%l{i}", root, sizes))
        count = sum(1 for s in sizes if s)
        innermost = f"%l{i}#{count - 1}" if count > 1 else f"%l{i}"
    if plan.epilogue:
        steps.append(f"%c{i}, %cl{i} = transform.structured.fuse_into_containing_op %g{i} into {innermost} "
                     f": (!transform.any_op, !transform.any_op) -> ({_handles(2)})")
        if plan.init:
            steps += [_match(f"%i{i}", _INIT, i, "linalg.fill"),
                      f"%fi{i}, %fl{i} = transform.structured.fuse_into_containing_op %i{i} into %cl{i} "
                      f": (!transform.any_op, !transform.any_op) -> ({_handles(2)})"]
    for j, dim in enumerate(sorted(peel, reverse=True)):  # inner loop first: the outer peel copies both
        steps += [f"%s{i}_{j} = transform.cast {_loop_handle(f'%l{i}', sizes, dim)} "
                  f': !transform.any_op to !transform.op<"scf.for">',
                  f"%pm{i}_{j}, %pr{i}_{j} = transform.loop.peel %s{i}_{j} "
                  f': (!transform.op<"scf.for">) -> ({_handles(2)})']
    fill, epilogue, product = f"%fi{i}", f"%t{i}", (f"%c{i}" if plan.epilogue else f"%t{i}")
    if peel:  # every copy of the tiled ops, found again by their tags
        fill, epilogue, product = f"%vf{i}", f"%ve{i}", f"%vg{i}"
        if plan.epilogue and plan.init:
            vector_steps.append(_match(fill, _INIT, i, "linalg.fill"))
        if plan.epilogue:
            vector_steps.append(_match(epilogue, _EPILOGUE, i))
        vector_steps.append(_match(product, _TAG, i))
    if plan.epilogue:
        if plan.init:
            vector_steps.append(f"transform.structured.vectorize {fill} : !transform.any_op")
        vector_steps.append(f"transform.structured.vectorize {epilogue} : !transform.any_op")
    vector_steps += [f"%u{i}, %k{i} = transform.structured.tile_using_for {product} tile_sizes "
                     f"[{', '.join(map(str, k_sizes))}] : (!transform.any_op) -> ({_handles(2)})",
                     f"transform.structured.vectorize %u{i} : !transform.any_op"]
    return steps, vector_steps


def _script(plans: list[_Plan]) -> str:
    phases = [_plan_steps(i, plan) for i, plan in enumerate(plans)]
    if any(plan.peel for plan in plans):  # tile all, fold the peeled tiles' sizes, vectorize all
        steps = [step for tiling, _ in phases for step in tiling] + [PEELED_SIZES] + \
                [step for _, vectorizing in phases for step in vectorizing]
    else:
        steps = [step for tiling, vectorizing in phases for step in tiling + vectorizing]
    body = "\n    ".join(steps)
    hoists = "\n    ".join(f"transform.loop.hoist_loop_invariant_subsets %k{i} : !transform.any_op"
                           for i, plan in enumerate(plans) if plan.k_extent > 1)
    return script_module(body, f"""transform.apply_patterns to %funcs {{
      transform.apply_patterns.vector.drop_unit_dims_with_shape_cast
      transform.apply_patterns.canonicalization
    }} : !transform.any_op
    transform.apply_patterns to %funcs {{
      transform.apply_patterns.vector.lower_multi_reduction lowering_strategy = "innerparallel"
      transform.apply_patterns.vector.cast_away_vector_leading_one_dim
      transform.apply_patterns.tensor.fold_tensor_subset_ops_into_vector_transfers
      transform.apply_patterns.canonicalization
    }} : !transform.any_op
    {hoists}
    transform.apply_patterns to %funcs {{
      transform.apply_patterns.tensor.fold_tensor_subset_ops_into_vector_transfers
      transform.apply_patterns.canonicalization
    }} : !transform.any_op""")


def _pure_broadcast(value: ir.Value):
    """(source, positions) when `value` is a linalg.generic that only broadcasts its one
    input (the body yields the input; the input map keeps some output dims in order, the
    output map is the identity): output dims `positions` are the source's dims."""
    owner = value.owner
    op = owner.operation if isinstance(owner, (ir.OpView, ir.Operation)) else None
    if op is None or op.name != "linalg.generic" or len(op.operands) != 2 or len(op.results) != 1:
        return None
    body = list(op.regions[0].blocks[0].operations)
    if len(body) != 1 or body[0].operands[0] != op.regions[0].blocks[0].arguments[0]:
        return None
    if any("parallel" not in str(it) for it in op.attributes["iterator_types"]):
        return None
    in_map, out_map = (ir.AffineMapAttr(a).value for a in op.attributes["indexing_maps"])
    if out_map != ir.AffineMap.get_identity(out_map.n_dims) or not in_map.is_projected_permutation:
        return None
    positions = [ir.AffineDimExpr(e).position for e in in_map.results]
    if positions != sorted(positions) or len(positions) == out_map.n_dims:
        return None
    source = op.operands[0]
    if not isinstance(source.type, ir.RankedTensorType):
        return None
    return source, positions


def fold_broadcast_operands(module: ir.Operation) -> None:
    """`x @ broadcast(W)` -> the contraction reads W itself: a matmul operand that only
    broadcasts along batch dims (numpy's matmul of a (b, m, k) by a (k, n) broadcasts W to
    (b, k, n)) is replaced by its source, and its batch loops become M (or N) loops of the
    other operand. The batch folds into one GEMM of b*m rows when the rows are contiguous,
    and W is neither copied b times nor packed b times."""
    folds = []

    def visit(op):
        if op.name == "linalg.generic":
            c = match_contraction(op)
            if c is not None and c.batch:
                for i in (0, 1):
                    found = _pure_broadcast(op.operands[i])
                    if found is None:
                        continue
                    source, positions = found
                    dims = c.lhs_dims if i == 0 else c.rhs_dims
                    dropped = [d for j, d in enumerate(dims) if j not in positions]
                    if all(d in c.batch for d in dropped):
                        folds.append((op, i, source, [dims[j] for j in positions]))
                        break
            return ir.WalkResult.SKIP if op.name == "linalg.generic" else ir.WalkResult.ADVANCE
        return ir.WalkResult.ADVANCE

    module.walk(visit)
    for op, i, source, dims in folds:
        broadcast = op.operands[i].owner
        maps = list(op.attributes["indexing_maps"])
        n_loops = ir.AffineMapAttr(maps[0]).value.n_dims
        maps[i] = ir.AffineMapAttr.get(ir.AffineMap.get(n_loops, 0, [ir.AffineDimExpr.get(d) for d in dims]))
        op.operands[i] = source
        op.attributes["indexing_maps"] = ir.ArrayAttr.get(maps)
        if not list(broadcast.results[0].uses):
            init = broadcast.operands[1].owner
            broadcast.operation.erase()
            if isinstance(init, (ir.OpView, ir.Operation)) and init.operation.name == "tensor.empty" \
                    and not list(init.results[0].uses):
                init.operation.erase()


# With an elementwise epilogue (bias, activation) the register tiles keep the product in
# registers through it, one loop nest; up to this size that matched or beat the packed
# kernel plus a separate epilogue loop (benchmarks/results/gemm.md, "epilogue" table).
# But the tiles read all of B again for every 4 rows of A: only while B stays in one
# core's L2 cache (target.l2_cache_bytes). Beyond it the packed kernel (which now fuses
# the epilogue too) won at every size measured (2026-12-05, 2 threads, 512 KiB L2, p25
# of 300 calls, tiles against packed, us): 64x512x512 + bias 363 / 229, tanh 365 / 246,
# gelu 379 / 294; 32x512x512 + bias 181 / 150 (B 1 MiB); with B in L2 they stay within
# 0.9-1.15x of each other (256^3 222 / 210, 200x96x320 112 / 125) and tiles compile
# ~45 ms faster.
EPILOGUE_TILED_MAX_MNK = 256 * 256 * 256

# The register tiles may be shared between threads from this many multiply-adds, every
# batch's counted (when there are two M tiles or more; 0: whenever there are). Measured on
# MLC's thread pool (2026-12-05, 2 cores, f32 with a ReLU epilogue, p25 of 300 interleaved
# calls, one thread against two): 64^3 (2^18) 9.7 against 7.7 us, 64x128x128 23.8 against
# 15.0, 128^3 43.8 against 25.0, 128x256x128 77.8 against 42.2. A parallel tile loop costs
# 7-10 ms of first-call compile (128^3: 33 -> 41 ms CPU). (On MLIR's async runtime, used
# before, waking the workers cost 40-70 us and the floor was 2^22.)
# (Single-threaded tile loops still end in a copy of the result into the output: tiled
# loops on tensors do not bufferize in place.)
PARALLEL_MIN_MNK = 1 << 18


def _tiles(op, c: Contraction, bits: int, l2_bytes: int) -> bool:
    """Whether this pass register-tiles the contraction (blas.strategy says "tiled"; or
    "packed" but it has a fusible epilogue, is at most EPILOGUE_TILED_MAX_MNK, its B fits
    in L2 and the tile divides its extents)."""
    choice = strategy(c, bits)
    if choice == "tiled":
        return True
    if choice != "packed" or c.mnk > EPILOGUE_TILED_MAX_MNK or compute_type(c.element_type) != c.element_type:
        return False
    if c.size(c.k) * c.size(c.n) * element_bytes(c.element_type) > l2_bytes:
        return False  # B would be read again from beyond L2 for every row tile
    sizes = register_tile(c, bits)
    return sizes is not None and not remainders(c, sizes) and elementwise_epilogue(op, c) is not None


def _single_user(value: ir.Value):
    users = [use.owner.operation for use in value.uses]
    return users[0] if len(users) == 1 else None


def elementwise_epilogue(op, c: Contraction):
    """The elementwise generic that is the matmul result's only user, reading it whole
    through an identity map (bias add, activation: XLA's output fusion), or None."""
    user = _single_user(op.results[0])
    if user is None or user.name != "linalg.generic" or len(user.results) != 1:
        return None
    if any("parallel" not in str(it) for it in user.attributes["iterator_types"]):
        return None
    if not all(inner.operation.name.startswith(("arith.", "math.")) or inner.operation.name == "linalg.yield"
               for inner in user.regions[0].blocks[0].operations):
        return None
    rank = len(c.out_dims)
    identity = ir.AffineMap.get_identity(rank)
    maps = [ir.AffineMapAttr(a).value for a in user.attributes["indexing_maps"]]
    if any(not m.is_projected_permutation for m in maps) or maps[-1] != identity:
        return None
    uses = [i for i, v in enumerate(user.operands) if v == op.results[0]]
    if len(uses) != 1 or maps[uses[0]] != identity or uses[0] == len(maps) - 1:
        return None
    return user


@dataclass(frozen=True)
class TileMatmul(Pass):
    """Register-tiles and vectorizes small matmuls (on tensors), with their elementwise
    epilogue fused into the same loop nest; reads broadcast matmul operands unbroadcast.

    Expects: linalg on tensors. Produces: scf.for loops over vector ops with the output
    tile in registers across the K loop, for every contraction `register_tile` accepts;
    extents the tile does not divide end in one peeled, smaller tile (module docstring).
    """

    name = "mlc-tile-matmul"
    register_bits: int = 0  # 0 = the host CPU's vector register width
    threads: int = 0  # > 1 shares the M tiles between threads; 0 = num_threads()
    l2_bytes: int = 0  # the cache an epilogue's tiles need B to fit in; 0 = the host's L2

    def run(self, module: ir.Operation) -> None:
        fold_broadcast_operands(module)
        bits = self.register_bits or vector_register_bits()
        threads = self.threads or num_threads()
        l2_bytes = self.l2_bytes or l2_cache_bytes()
        plans: list[_Plan] = []
        i64 = ir.IntegerType.get_signless(64)

        def visit(op):
            if op.name == "linalg.generic":
                c = match_contraction(op)
                sizes = register_tile(c, bits) if c is not None and _tiles(op, c, bits, l2_bytes) else None
                if sizes is not None:
                    m = c.m[0]
                    tiles = -(-c.extents[m] // sizes[m])
                    peel = remainders(c, sizes)
                    epilogue = elementwise_epilogue(op, c)
                    if epilogue is not None and _EPILOGUE in epilogue.attributes:
                        epilogue = None  # silu(x @ w1) * (x @ w3): one epilogue, fused into the first matmul only
                    # The thread loop (an scf.forall: M, or every tile with an epilogue)
                    # cannot be peeled: a matmul with a remainder there runs on one thread.
                    parallel = (threads > 1 and not inside_parallel_loop(op) and c.mnk * c.size(c.batch) >= PARALLEL_MIN_MNK
                                and tiles >= 2
                                and not (peel if epilogue is not None else m in peel))
                    init = op.operands[2].owner if isinstance(op.operands[2].owner, (ir.OpView, ir.Operation)) else None
                    init = init.operation if init is not None else None
                    fuse_init = (epilogue is not None and init is not None and init.name == "linalg.fill"
                                 and _single_user(init.results[0]) is not None)
                    index = ir.IntegerAttr.get(i64, len(plans))
                    op.attributes[_TAG] = index
                    if epilogue is not None:
                        epilogue.attributes[_EPILOGUE] = index
                    if fuse_init:
                        init.attributes[_INIT] = index
                    plans.append(_Plan(sizes, c.k[0], m if parallel else -1, c.out_dims,
                                       epilogue is not None, fuse_init, peel, c.extents[c.k[0]]))
                return ir.WalkResult.SKIP
            return ir.WalkResult.ADVANCE

        module.walk(visit)
        if not plans:
            return
        apply_transform_script(module, _script(plans), "matmul tiling")
        drop_attributes(module, (_TAG, _EPILOGUE, _INIT))
