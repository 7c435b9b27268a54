"""One long row sorted on two threads: hlo.sort / hlo.argsort of a single row (every other
dim of size 1) whose radix sort passes the thread rule.

Rows sort in parallel with each other (sort.py, `each_row`); a lone row of 10^5 keys would
run on one core while numpy's AVX2 sort takes 0.50 ms against radix sort's 0.74. Split it:

    words  = the row's elements as radix words (radix_sort.word_layout: the key above the
             payload), one vectorized linalg.generic
    sorted = scf.forall c in 0..1: radix sort of half c (h = ceil(n / 2) elements, then
             the other n - h) into sorted[c*h : c*h + h]
    out    = scf.forall c in 0..1: c = 0 merges the h smallest from the halves' fronts
             into out[0 : h], c = 1 the n - h largest from their backs into out[h : n]

The merge is split where the stable order's first h elements end (merge.co_rank, a binary
search), so the two threads write disjoint slices, and each half is merged from both of
its ends at once (merge.py: two independent chains per thread; one chain, latency-bound,
took 0.22 ms of 10^5). The second half's slot past its n - h elements (n odd) is never
written or read; the merge's buffer is 2h long and the result its first n. Work per
thread: half the radix passes, then a quarter of the merge per chain.
"""

from __future__ import annotations

import math

from mlir import ir
from mlir.dialects import arith, tensor

from ...codegen.parallel import worth_work
from ...codegen.target import num_threads
from .loops import along, forall_slices, index
from .merge import Runs, co_rank, merge_part
from .radix_sort import key_type, radix_passes, row_values, sort_key, word_layout
from .registry import PARALLEL, empty, generic_n, identity_map, loop_index
from .slicing import extract_slice

HALVES = 2


def worth_splitting(shape: list[int], dim: int, work: int) -> bool:
    """Whether a sort of `shape` along `dim` whose radix sort costs `work` per row is one
    row worth splitting between threads."""
    others = math.prod(s for d, s in enumerate(shape) if d != dim)
    return others == 1 and shape[dim] >= 2 * HALVES and num_threads() >= HALVES and worth_work(work)


def _halves_in_parallel(fresh: list[ir.Value], dim: int, h: int, body) -> list[ir.Value]:
    """scf.forall c in 0..1 over tensors whose `dim` is 2h long (every other dim 1):
    body(c, slices) fills half c's slices (h long along dim), inserted back in parallel."""
    rank = ir.RankedTensorType(fresh[0].type).rank
    return forall_slices([HALVES], fresh, lambda ivs: along([index(0)] * (rank - 1), dim, arith.muli(ivs[0], index(h))),
                         along([1] * (rank - 1), dim, h), lambda ivs, slices: body(ivs[0], slices))


def sorted_halves(x: ir.Value, dim: int, descending: bool, unsigned: bool,
                  result_type: ir.RankedTensorType, positions: bool) -> ir.Value:
    """`x` (one row along `dim`) sorted, or (positions) its positions in sorted order, as
    the module docstring describes."""
    t = ir.RankedTensorType(x.type)
    n, rank = t.shape[dim], t.rank
    h = (n + 1) // 2
    b = n - h  # the second half's count
    zeros = [index(0)] * (rank - 1)
    kt = key_type(t.element_type)
    payload_type = result_type.element_type
    kinds, shift, pack, unpack = word_layout(kt, payload_type)

    def to_words(v, *_outs):
        payload = loop_index(0, payload_type) if positions else v
        return pack(sort_key(v, descending, unsigned), payload)

    words = generic_n([row_values(x, zeros, dim)], [empty(ir.RankedTensorType.get([n], k)) for k in kinds],
                      [identity_map(1)] * (1 + len(kinds)), [PARALLEL], to_words)

    def sort_half(c, slices):
        base = arith.muli(c, index(h))
        count = arith.select(arith.cmpi(arith.CmpIPredicate.eq, c, index(0)), index(h), index(b))

        def read(i):
            return [tensor.extract(w, [arith.addi(base, i)]) for w in words]

        return radix_passes(h, ir.IntegerType(kt).width, count, kinds, shift,
                            counted=lambda i: (read(i)[0], shift), first=read,
                            place=lambda element, slot, outs: [tensor.insert(e, o, [slot])
                                                               for e, o in zip(element, outs)],
                            outs=slices)

    halves = _halves_in_parallel([empty(ir.RankedTensorType.get([2 * h], k)) for k in kinds], 0, h, sort_half)
    merged_type = ir.RankedTensorType.get(along([1] * (rank - 1), dim, 2 * h), payload_type)
    merged = _halves_in_parallel([empty(merged_type)], dim, h,
                                 lambda c, slices: [_merge(halves, h, b, shift, unpack, dim, c, slices[0])])[0]
    return extract_slice(merged, result_type, [0] * rank)


def _merge(halves: list[ir.Value], h: int, b: int, shift: int, unpack, dim: int, c: ir.Value,
           out: ir.Value) -> ir.Value:
    """Half c of the merge of the sorted halves (runs [0, h) and [h, h + b) of `halves`)
    into `out`: c = 0 the first h elements of the stable order, c = 1 the last b, each
    from both of its ends (merge.py), split where the stable order's first h end (co_rank)."""
    rank = ir.RankedTensorType(out.type).rank
    zeros = [index(0)] * (rank - 1)

    def key(position):
        w = tensor.extract(halves[0], [position])
        return arith.shrui(w, arith.constant(w.type, shift)) if shift else w

    def put(position, slot, outs):
        value = unpack(*[tensor.extract(w, [position]) for w in halves])
        return [tensor.insert(value, outs[0], along(zeros, dim, slot))]

    runs = Runs(index(0), index(h), index(h + b),
                before=lambda p, q: arith.cmpi(arith.CmpIPredicate.ult, key(p), key(q)), put=put)
    split_i, split_j = co_rank(runs, index(h))
    is_front = arith.cmpi(arith.CmpIPredicate.eq, c, index(0))
    one = index(1)
    # Half 0: the runs' parts [0, split_i) and [h, split_j); half 1: the rest.
    front = (arith.select(is_front, index(0), split_i), arith.select(is_front, index(h), split_j))
    back = (arith.subi(arith.select(is_front, split_i, index(h)), one),
            arith.subi(arith.select(is_front, split_j, index(h + b)), one))
    count = arith.select(is_front, index(h), index(b))
    return merge_part(runs, front, back, (index(0), arith.subi(count, one)), count, [out])[0]
