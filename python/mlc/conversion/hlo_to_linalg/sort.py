"""hlo.sort / hlo.argsort -> a radix sort (radix_sort.py) on rows long enough for it (a
lone long row split between threads: parallel_sort.py), a stable two-way partition on
boolean keys, else a bottom-up merge sort in scf loops over tensors.

Boolean keys (`_bool_sorted_rows`): one pass counts the row's keys that go first (false
ascending, true descending), a second writes each element (or its position) at the next
slot of its part, both slots running scalars, no memory counter: stable, O(n).
(1000, 777) positions of a mask's zeros (partition's rest): 8-bit radix 2.6-3.1 ms.

For each pass (width 1, 2, 4, ... up to the sorted dimension's size; unrolled, since the
size is static) a fresh tensor receives, for every row and every pair of adjacent runs,
the merge of the two runs, from both ends at once and branch-free (merge.py). argsort
carries the indices (an iota) through the same merges. O(n log n) per row. When rows x
length pass the thread rule's floor, each pass's rows are an scf.forall (its own slice of
the fresh tensor per row, inserted back in parallel), which mlc-parallel-outline runs on
the thread pool.
(1000, 777) f32 rows: 76 -> 30 ms (both ends, no branch) -> 14 ms (two threads); numpy 3.1.
"""

from __future__ import annotations

import math

from mlir import ir
from mlir.dialects import arith, scf, tensor

from ...dialects.hlo.types import is_bool, is_float
from .loops import along, each_row, for_range, index
from .merge import Runs, merge_runs
from .parallel_sort import sorted_halves, worth_splitting
from .radix_sort import radix_sort_row, radix_work
from .top_k import select_row, worth_selecting
from .registry import PARALLEL, empty, generic, identity_map, loop_index, lowering
from .slicing import extract_slice


def _before(a: ir.Value, b: ir.Value, t: ir.Type, descending: bool, unsigned: bool) -> ir.Value:
    """True when a sorts strictly before b: ascending with NaN last, or the reverse."""
    if descending:
        a, b = b, a
    if is_float(t):
        less = arith.cmpf(arith.CmpFPredicate.OLT, a, b)
        nan_last = arith.andi(arith.cmpf(arith.CmpFPredicate.UNO, b, b),
                              arith.cmpf(arith.CmpFPredicate.ORD, a, a))
        return arith.ori(less, nan_last)
    as_unsigned = is_bool(t) or unsigned
    return arith.cmpi(arith.CmpIPredicate.ult if as_unsigned else arith.CmpIPredicate.slt, a, b)


def merge_sort(keys: ir.Value, payload: ir.Value | None, dim: int, descending: bool,
               unsigned: bool) -> list[ir.Value]:
    t = ir.RankedTensorType(keys.type)
    t_elem = t.element_type
    n = t.shape[dim]
    sources = [keys] + ([payload] if payload is not None else [])

    def at(row: list[ir.Value], position: ir.Value) -> list[ir.Value]:
        return along(row, dim, position)

    width = 1
    while width < n:
        def merge_pass(row, dsts, width=width, srcs=sources, write_row=None):
            write_row = row if write_row is None else write_row  # where this row is in dsts

            def key(position):  # what the merge compares (the payload only moves along)
                return tensor.extract(srcs[0], at(row, position))

            def put(position, slot, outs):
                return [tensor.insert(tensor.extract(s, at(row, position)), out, at(write_row, slot))
                        for s, out in zip(srcs, outs)]

            def merge_pair(lo, dsts):
                runs = Runs(lo, arith.minsi(arith.addi(lo, index(width)), index(n)),
                            arith.minsi(arith.addi(lo, index(2 * width)), index(n)),
                            before=lambda p, q: _before(key(p), key(q), t_elem, descending, unsigned), put=put)
                return merge_runs(runs, lo, dsts)

            return for_range(index(0), index(n), index(2 * width), dsts, merge_pair)

        fresh = [empty(ir.RankedTensorType(s.type)) for s in sources]
        sources = each_row(list(t.shape), dim, n, fresh, n * _MERGE_STEP_COST, merge_pass)  # (one pass's work)
        width *= 2
    return sources


# A merge step in simple ops (two reads, compares, selects), for the thread rule.
_MERGE_STEP_COST = 8


def _merge_work(n: int) -> int:
    return n * math.ceil(math.log2(n)) * _MERGE_STEP_COST if n > 1 else 0


# A partition step in simple ops (a load, a compare, two selects, a store), for the thread rule.
_PARTITION_STEP_COST = 6


def _bool_sorted_rows(x: ir.Value, dim: int, descending: bool, result_type: ir.RankedTensorType,
                      value) -> ir.Value:
    """Rows of boolean keys sorted stably (the module docstring): value(row, k) is what
    position k of a row contributes (its key, or k itself for argsort)."""
    t = ir.RankedTensorType(x.type)
    n = t.shape[dim]
    first = arith.constant(t.element_type, ir.IntegerAttr.get(t.element_type, 1 if descending else 0))
    one = index(1)

    def sort_row(row, dsts, write_row=None):
        at = row if write_row is None else write_row

        def goes_first(k):
            return arith.cmpi(arith.CmpIPredicate.eq, tensor.extract(x, along(row, dim, k)), first)

        def count(k, state):
            return [arith.addi(state[0], arith.index_castui(ir.IndexType.get(), goes_first(k)))]

        (n_first,) = for_range(index(0), index(n), one, [index(0)], count)

        def place(k, state):
            front, back, out = state
            is_first = goes_first(k)
            slot = arith.select(is_first, front, back)
            out = tensor.insert(value(row, k), out, along(at, dim, slot))
            return [arith.select(is_first, arith.addi(front, one), front),
                    arith.select(is_first, back, arith.addi(back, one)), out]

        return [for_range(index(0), index(n), one, [index(0), n_first, dsts[0]], place)[2]]

    return each_row(list(t.shape), dim, n, [empty(result_type)], n * _PARTITION_STEP_COST, sort_row)[0]


def _sorted_rows(x: ir.Value, dim: int, descending: bool, unsigned: bool,
                 result_type: ir.RankedTensorType, positions: bool) -> ir.Value:
    """`x` sorted along `dim`, or (positions) the positions along dim in that order: radix
    sort on long rows of integer or float keys, a partition on boolean ones, merge sort
    otherwise."""
    t = ir.RankedTensorType(x.type)
    n = t.shape[dim]
    if is_bool(t.element_type) and n > 1:
        def value(row, k):
            return arith.index_cast(result_type.element_type, k) if positions else tensor.extract(x, along(row, dim, k))
        return _bool_sorted_rows(x, dim, descending, result_type, value)
    radix = radix_work(t.element_type, n)
    if radix is None or radix >= _merge_work(n):
        payload = None
        if positions:
            rank = result_type.rank
            payload = generic([], empty(result_type), [identity_map(rank)], [PARALLEL] * rank,
                              lambda _out: loop_index(dim, result_type.element_type))
        return merge_sort(x, payload, dim, descending, unsigned)[-1]
    if worth_splitting(list(t.shape), dim, radix):
        return sorted_halves(x, dim, descending, unsigned, result_type, positions)

    def sort_row(row, dsts, write_row=None):
        def value(position):
            if positions:
                return arith.index_cast(result_type.element_type, position)
            return tensor.extract(x, along(row, dim, position))
        return [radix_sort_row(x, descending, unsigned, value, row, dim, result_type.element_type, dsts[0],
                               row if write_row is None else write_row)]

    return each_row(list(t.shape), dim, n, [empty(result_type)], radix, sort_row)[0]


def _first_positions(x: ir.Value, dim: int, descending: bool, unsigned: bool, k: int,
                     result_type: ir.RankedTensorType) -> ir.Value:
    """The first k positions along `dim` in sort order (argsort's `limit`): a selection per
    row (top_k.py) when even its worst case beats sorting, else the sort's first k."""
    t = ir.RankedTensorType(x.type)
    n = t.shape[dim]
    radix = radix_work(t.element_type, n)  # (None: no radix key, which the selection needs too)
    if k == 0 or radix is None or not worth_selecting(n, k, min(radix, _merge_work(n))):
        whole = _sorted_rows(x, dim, descending, unsigned,
                             ir.RankedTensorType.get(t.shape, result_type.element_type), positions=True)
        return extract_slice(whole, result_type, [0] * t.rank)

    def select(row, dsts, write_row=None):
        return [select_row(x, descending, unsigned, row, dim, n, k, result_type.element_type, dsts[0],
                           row if write_row is None else write_row)]

    return each_row(list(t.shape), dim, k, [empty(result_type)], n * _SCAN_WORK, select)[0]


# A selection's work per element on random data (a compare, rarely an insertion), for the thread rule.
_SCAN_WORK = 4


@lowering("sort")
def lower_sort(op, sig):
    x = op.operands[0]
    return [_sorted_rows(x, sig.attributes["dimension"], sig.attributes.get("descending", False),
                         sig.operand_unsigned(0), ir.RankedTensorType(x.type), positions=False)]


@lowering("argsort")
def lower_argsort(op, sig):
    x, result_type = op.operands[0], op.results[0].type
    dim, descending = sig.attributes["dimension"], sig.attributes.get("descending", False)
    limit = sig.attributes.get("limit")
    if limit is not None and limit < ir.RankedTensorType(x.type).shape[dim]:
        return [_first_positions(x, dim, descending, sig.operand_unsigned(0), limit, result_type)]
    return [_sorted_rows(x, dim, descending, sig.operand_unsigned(0), result_type, positions=True)]
