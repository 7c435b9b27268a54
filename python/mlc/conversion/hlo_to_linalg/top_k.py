"""hlo.argsort with `limit` = k (top-k) -> a selection per row, not a sort.

Each row keeps the k best elements seen so far, in order, as (radix key, position) pairs:
the key is radix_sort.sort_key's (a row's keys computed when the row is taken up), so
"before" is one unsigned compare and the order is the sort's own (NaN, zeros and
descending included). The first k elements are insertion-sorted into the buffer; every
later element is compared with the buffer's last key and, only when strictly before it,
inserted: the elements after its place shift down one slot and the last drops out. Equal
keys never pass an element already kept, so ties keep the lower position first, as the
stable sort does.

Work per row: n compares plus, per insertion, up to k shifts. On random data a row of n
takes ~k ln(n / k) insertions; in the worst case (a row already in order) every element is
inserted at the front, n k shifts, so `worth_selecting` compares that worst case with the
sort it replaces.
"""

from __future__ import annotations

from mlir import ir
from mlir.dialects import arith, tensor

from .loops import along, for_range, if_else, index, while_loop
from .radix_sort import key_type, row_keys
from .registry import empty

# Work in the units of sort._MERGE_STEP_COST (~0.48 ns on one Zen 3 core): a compare
# against the buffer's last key (a load and a compare), and one shift of a kept pair (two
# loads, two stores, the loop test; measured 0.78 ns on a row of 1e5 in ascending order,
# where every element is inserted at the front).
_COMPARE_COST = 2
_SHIFT_COST = 2
# The worst case may cost this much more than the sort it replaces; on random rows the
# selection is 5-13x faster than the sort (top 10 of 1e5: 0.17 against 0.92 ms; worst case 0.78).
_WORST_CASE_FACTOR = 2


def worth_selecting(n: int, k: int, sort_work: int) -> bool:
    """Whether selecting the first k of a row of n beats sorting it (sort_work per row),
    even when every element is inserted."""
    return n * (_COMPARE_COST + k * _SHIFT_COST) <= _WORST_CASE_FACTOR * sort_work


def select_row(x: ir.Value, descending: bool, unsigned: bool, row: list[ir.Value], dim: int, n: int,
               k: int, index_type: ir.Type, out: ir.Value, write_row: list[ir.Value]) -> ir.Value:
    """The positions of the first k elements of one row of `x` in sort order (by their keys),
    written into `out` at `write_row` (positions 0..k-1 along `dim`)."""
    kt = key_type(ir.RankedTensorType(x.type).element_type)
    keys = row_keys(x, row, dim, descending, unsigned)

    def key_at(position):
        return tensor.extract(keys, [position])

    def at(position):  # in the result row
        return along(write_row, dim, position)

    def insert(key, position, start, best, out):
        """(key, position) into its place among best[0..start], shifting the rest down."""
        def before_previous(state):
            j, best, _out = state
            previous = tensor.extract(best, [arith.maxsi(arith.subi(j, index(1)), index(0))])
            return arith.andi(arith.cmpi(arith.CmpIPredicate.sgt, j, index(0)),
                              arith.cmpi(arith.CmpIPredicate.ult, key, previous))

        def shift(state):
            j, best, out = state
            p = arith.subi(j, index(1))
            best = tensor.insert(tensor.extract(best, [p]), best, [j])
            out = tensor.insert(tensor.extract(out, at(p)), out, at(j))
            return [p, best, out]

        j, best, out = while_loop([start, best, out], before_previous, shift)
        return [tensor.insert(key, best, [j]),
                tensor.insert(arith.index_cast(index_type, position), out, at(j))]

    def fill(i, state):  # the first k elements, insertion-sorted
        return insert(key_at(i), i, i, *state)

    state = for_range(index(0), index(k), index(1), [empty(ir.RankedTensorType.get([k], kt)), out], fill)

    def scan(i, state):
        best, out = state
        key = key_at(i)
        kept = arith.cmpi(arith.CmpIPredicate.ult, key, tensor.extract(best, [index(k - 1)]))
        return if_else(kept, [best.type, out.type], lambda: insert(key, i, index(k - 1), best, out),
                       lambda: [best, out])

    return for_range(index(k), index(n), index(1), state, scan)[1]
