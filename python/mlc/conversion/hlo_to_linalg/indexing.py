"""gather and scatter, with StableHLO's dimension numbers.

gather -> one linalg.generic over the result whose body computes, from its loop indices,
the operand index (clamped start + batching index + offset) and reads it with tensor.extract.

scatter has no clean linalg form (updates may collide), so it is an scf.for nest over the
updates carrying the result tensor: each update's operand index is computed, and when its
whole update window fits inside the input (XLA's rule; otherwise the update is dropped),
the element is combined and written back with tensor.insert (in place after
bufferization). Updates apply in row-major update order.

Many updates combined (add, mul, max, min) into a small operand (a histogram: bincount,
`x.at[i].add(u)`) are split between threads instead (`_privatized`, as a parallel
histogram): an scf.forall gives each thread a private copy of the operand's shape filled
with the combiner's identity and a share of the updates' outer dim, then one
linalg.generic combines the operand with the private copies. Worth it when the updates
pass the thread rule and outnumber the private copies' elements PRIVATE_RATIO times (each
copy is filled and read once). 20,000 indices into 1,000 bins: 31 -> 16 us a call, with the
index column's kernel vectorized (mlc-vectorize's joined short rows); numpy 27. Like
XLA's, the order in which colliding float updates add up is then unspecified.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from mlir import ir
from mlir.dialects import arith, tensor

from ...codegen.parallel import worth_work
from ...codegen.target import num_threads
from ...dialects.hlo.types import is_bool
from .loops import for_nest, for_range, forall_slices, if_else
from .loops import index as _index
from .registry import PARALLEL, REDUCTION, empty, fill, generic, identity_map, loop_index, lowering, projection
from .scalar import IDENTITIES, combine, identity
from .slicing import clamp_start, to_index


@dataclass(frozen=True)
class IndexMapping:
    """How an index into the batch/window space maps to an operand index (gather or scatter)."""

    indices: ir.Value            # the start/scatter index tensor
    index_vector_dim: int
    index_map: list              # index vector entry k -> operand dim
    operand_batching: list       # operand dims indexed by a batch dim ...
    index_batching: list         # ... namely this dim of the index tensor
    window_operand_dims: list    # operand dims the window (offset) indices address, in order
    unsigned: bool = False       # the index tensor's hlo type is unsigned: zero-extend, clamp unsigned

    def start_components(self, batch_index: list[ir.Value]) -> list[ir.Value]:
        """The index vector for `batch_index`, as index values, one per index_map entry."""
        rank = ir.RankedTensorType(self.indices.type).rank
        starts = []
        for k in range(len(self.index_map)):
            if self.index_vector_dim < rank:
                position = batch_index[:self.index_vector_dim] + [_index(k)] + batch_index[self.index_vector_dim:]
            else:
                position = list(batch_index)
            starts.append(to_index(tensor.extract(self.indices, position), self.unsigned))
        return starts

    def operand_index(self, operand_rank: int, batch_index, window_index, clamp_to=None) -> list[ir.Value]:
        """start + batching + window offset, per operand dim. `clamp_to` = (operand shape,
        slice sizes) clamps each start so the slice fits (gather's rule)."""
        full = [_index(0)] * operand_rank
        for k, start in enumerate(self.start_components(batch_index)):
            d = self.index_map[k]
            if clamp_to is not None:
                shape, sizes = clamp_to
                start = clamp_start(start, shape[d] - sizes[d], self.unsigned)
            full[d] = arith.addi(full[d], start)
        for d_operand, d_index in zip(self.operand_batching, self.index_batching):
            position = d_index if d_index < self.index_vector_dim else d_index - 1
            full[d_operand] = arith.addi(full[d_operand], batch_index[position])
        for d, w in zip(self.window_operand_dims, window_index):
            full[d] = arith.addi(full[d], w)
        return full


@lowering("gather")
def lower_gather(op, sig):
    operand, _ = sig.operand_types
    a = sig.attributes
    collapsed = list(a["collapsed_slice_dims"])
    batching = list(a.get("operand_batching_dims", []))
    mapping = IndexMapping(op.operands[1], a["index_vector_dim"], list(a["start_index_map"]), batching,
                           list(a.get("start_indices_batching_dims", [])),
                           [d for d in range(operand.rank) if d not in collapsed and d not in batching],
                           sig.operand_unsigned(1))
    result_type = op.results[0].type
    offset_dims = list(a["offset_dims"])
    source = op.operands[0]

    def body(_out):
        loops = [loop_index(d) for d in range(result_type.rank)]
        batch_index = [loops[d] for d in range(result_type.rank) if d not in offset_dims]
        window_index = [loops[d] for d in offset_dims]
        index = mapping.operand_index(operand.rank, batch_index, window_index,
                                      clamp_to=(operand.shape, list(a["slice_sizes"])))
        return tensor.extract(source, index)

    rank = result_type.rank
    return [generic([], empty(result_type), [identity_map(rank)], [PARALLEL] * rank, body)]


def _in_bounds(index: list[ir.Value], shape) -> ir.Value:
    ok = arith.constant(ir.IntegerType.get_signless(1), 1)
    for i, size in zip(index, shape):
        inside = arith.andi(arith.cmpi(arith.CmpIPredicate.sge, i, _index(0)),
                            arith.cmpi(arith.CmpIPredicate.slt, i, _index(size)))
        ok = arith.andi(ok, inside)
    return ok


@lowering("scatter")
def lower_scatter(op, sig):
    operand, _, updates = sig.operand_types
    a = sig.attributes
    inserted = list(a["inserted_window_dims"])
    batching = list(a.get("input_batching_dims", []))
    mapping = IndexMapping(op.operands[1], a["index_vector_dim"], list(a["scatter_dims_to_operand_dims"]),
                           batching, list(a.get("scatter_indices_batching_dims", [])),
                           [d for d in range(operand.rank) if d not in inserted and d not in batching],
                           sig.operand_unsigned(1))
    window_dims = list(a["update_window_dims"])
    kind, et = a["kind"], operand.element_type
    update_source = op.operands[2]

    window_sizes = [updates.shape[d] for d in window_dims]

    def apply_update(update_index, result):
        batch_index = [update_index[d] for d in range(updates.rank) if d not in window_dims]
        window_index = [update_index[d] for d in window_dims]
        index = mapping.operand_index(operand.rank, batch_index, window_index)
        # XLA's rule: an update whose whole window does not fit in the input is dropped. (An
        # unsigned index >= 2^63 is a negative index value here, so it is dropped too.)
        first = mapping.operand_index(operand.rank, batch_index, [_index(0)] * len(window_dims))
        last = mapping.operand_index(operand.rank, batch_index, [_index(s - 1) for s in window_sizes])
        fits = arith.andi(_in_bounds(first, operand.shape), _in_bounds(last, operand.shape))

        def write():
            new = tensor.extract(update_source, update_index)
            if kind != "set":
                new = combine(kind, et, tensor.extract(result, index), new, sig.operand_unsigned(0))
            return [tensor.insert(new, result, index)]

        return if_else(fits, [result.type], write, lambda: [result])

    threads = num_threads()
    if _worth_privatizing(kind, et, operand, updates, threads):
        return [_privatized(op.operands[0], updates.shape, kind, sig.operand_unsigned(0), threads, apply_update)]
    return for_nest(updates.shape, [op.operands[0]], lambda idx, carried: apply_update(idx, carried[0]))


# The updates must outnumber the private copies' elements this many times.
PRIVATE_RATIO = 4
# An update in simple ops (its index's loads and bounds checks, a load, the combine, a store).
_UPDATE_COST = 8


def _worth_privatizing(kind: str, et: ir.Type, operand: ir.RankedTensorType, updates: ir.RankedTensorType,
                       threads: int) -> bool:
    count = math.prod(updates.shape)
    return (threads >= 2 and kind in IDENTITIES and not is_bool(et)
            and updates.rank >= 1 and updates.shape[0] >= threads
            and count >= PRIVATE_RATIO * threads * math.prod(operand.shape)
            and worth_work(count * _UPDATE_COST))


def _privatized(operand: ir.Value, updates_shape: list[int], kind: str, unsigned: bool, threads: int,
                apply_update) -> ir.Value:
    """The scatter on `threads` private copies of the operand (each a share of the updates'
    outer dim, apply_update(update_index, copy) -> copy), then operand (+) the copies."""
    t = ir.RankedTensorType(operand.type)
    et, rank = t.element_type, t.rank
    share = -(-updates_shape[0] // threads)
    copies_type = ir.RankedTensorType.get([threads, *t.shape], et)

    def fill_copy(ivs, slices):
        (c,), (own,) = ivs, slices
        own = fill(identity(kind, et, unsigned), own)
        first = arith.muli(c, _index(share))
        last = arith.minsi(arith.addi(first, _index(share)), _index(updates_shape[0]))

        def outer(i, carried):
            return for_nest(updates_shape[1:], carried, lambda idx, inner: apply_update([i, *idx], inner[0]))

        return for_range(first, last, _index(1), [own], outer)

    (copies,) = forall_slices([threads], [empty(copies_type)], lambda ivs: [ivs[0]] + [0] * rank,
                              [1, *t.shape], fill_copy, slice_shape=list(t.shape))
    # operand (+) copy 0 (+) copy 1 ...: the copies' dim is the generic's reduction loop.
    return generic([copies], operand, [identity_map(rank + 1), projection(rank + 1, range(1, rank + 1))],
                   [REDUCTION] + [PARALLEL] * rank, lambda v, acc: combine(kind, et, acc, v, unsigned))
