"""A stable merge of two sorted runs, from both ends at once (merge sort's passes, and the
two sorted halves of a row split between threads).

Two adjacent runs sit in one buffer: the first at [lo, mid), the second at [mid, hi). A
part of their merge (all of it, or a slice of the output between two co-ranks) is written
by two chains in one loop: from the front the smallest element left, taking the second
run's only when strictly before the first run's; from the back the largest, taking the
first run's only when strictly after the second run's. Ties keep the runs' order, so the
merge is stable; two independent chains of loads and compares hide each other's latency.
With an odd count both ends meet on the last element and write it twice to one slot.
Each step is branch-free: the element taken is read again at the selected position (a
select between two floats becomes a branch on x86, taken at random on random data; a
select between two positions is a cmov).

`co_rank` splits a merge between threads: how many of the first k elements of the stable
order come from the first run (a binary search, O(log n)).
"""

from __future__ import annotations

from dataclasses import dataclass

from mlir import ir
from mlir.dialects import arith

from .loops import for_range, index, while_loop


@dataclass(frozen=True)
class Runs:
    """Two adjacent sorted runs, [lo, mid) and [mid, hi) of one buffer (index Values), and
    how to compare and move their elements: before(p, q) -> whether the element at position
    p sorts strictly before the one at q; put(p, slot, outs) -> `outs` (a list of tensors)
    with the element at p written at `slot`."""
    lo: ir.Value
    mid: ir.Value
    hi: ir.Value
    before: object
    put: object


def merge_part(runs: Runs, front: tuple[ir.Value, ir.Value], back: tuple[ir.Value, ir.Value],
               slots: tuple[ir.Value, ir.Value], count: ir.Value, outs: list[ir.Value]) -> list[ir.Value]:
    """`count` elements of the runs' merge written into `outs`: the front chain starts at
    positions front = (i, j) (next of the first run, of the second) and writes slots up
    from slots[0]; the back chain starts at back = (i, j) (the last of each run's part) and
    writes slots down from slots[1]. The part's elements are the runs' between front and
    back, so a chain never takes an element past the other's start."""
    lo, mid, hi = runs.lo, runs.mid, runs.hi
    last_first, last = arith.subi(mid, index(1)), arith.subi(hi, index(1))
    second_start = arith.minsi(mid, last)  # (mid itself unless the second run is empty)
    (front_i, front_j), (back_i, back_j) = front, back
    one, zero = index(1), index(0)

    def step(t, state):
        i, j, bi, bj, *outs = state
        # From the front: the smallest element left, the first run's on a tie. (Reads are
        # clamped into the runs; a chain past its part's end never takes what it read.)
        li, rj = arith.minsi(i, last_first), arith.minsi(j, last)
        take_second = arith.andi(arith.cmpi(arith.CmpIPredicate.sle, j, back_j), arith.ori(
            arith.cmpi(arith.CmpIPredicate.sgt, i, back_i), runs.before(rj, li)))
        # From the back: the largest element left, the second run's on a tie.
        bli, brj = arith.maxsi(bi, lo), arith.maxsi(bj, second_start)
        take_first = arith.andi(arith.cmpi(arith.CmpIPredicate.sge, bi, front_i), arith.ori(
            arith.cmpi(arith.CmpIPredicate.slt, bj, front_j), runs.before(brj, bli)))
        outs = runs.put(arith.select(take_second, rj, li), arith.addi(slots[0], t), outs)
        outs = runs.put(arith.select(take_first, bli, brj), arith.subi(slots[1], t), outs)
        f = arith.select(take_second, zero, one)
        b = arith.select(take_first, one, zero)
        return [arith.addi(i, f), arith.addi(j, arith.subi(one, f)),
                arith.subi(bi, b), arith.subi(bj, arith.subi(one, b)), *outs]

    steps = arith.divui(arith.addi(count, one), index(2))  # ceil(count / 2)
    return for_range(zero, steps, one, [front_i, front_j, back_i, back_j, *outs], step)[4:]


def merge_runs(runs: Runs, out_lo: ir.Value, outs: list[ir.Value]) -> list[ir.Value]:
    """The whole merge of the runs, written into `outs` at out_lo .. out_lo + (hi - lo)."""
    count = arith.subi(runs.hi, runs.lo)
    last_slot = arith.subi(arith.addi(out_lo, count), index(1))
    return merge_part(runs, (runs.lo, runs.mid), (arith.subi(runs.mid, index(1)), arith.subi(runs.hi, index(1))),
                      (out_lo, last_slot), count, outs)


def co_rank(runs: Runs, k: ir.Value) -> tuple[ir.Value, ir.Value]:
    """(i, j): the first k elements of the runs' stable merge are the first run's up to i
    and the second's up to j (positions in the buffer; i - lo + j - mid = k). The smallest
    i (from the first run's count in [max(0, k - second's count), min(k, first's count)])
    at which the first run's next element no longer ties or precedes the second run's
    last taken one."""
    lo, mid, hi = runs.lo, runs.mid, runs.hi
    first_count, second_count = arith.subi(mid, lo), arith.subi(hi, mid)
    low = arith.maxsi(arith.subi(k, second_count), index(0))
    high = arith.minsi(k, first_count)

    def first_is_taken(a):
        # Is the first run's element a (a count: low <= a < high, so it exists and the
        # second run has taken k - a >= 1) among the first k? Only if the second run's last
        # taken one is not strictly before it (ties go to the first run).
        p, q = arith.addi(lo, a), arith.subi(arith.addi(mid, arith.subi(k, a)), index(1))
        return arith.xori(runs.before(q, p), arith.constant(ir.IntegerType.get_signless(1), 1))

    def body(state):
        low, high = state
        middle = arith.divui(arith.addi(low, high), index(2))
        taken = first_is_taken(middle)
        return [arith.select(taken, arith.addi(middle, index(1)), low), arith.select(taken, high, middle)]

    a, _ = while_loop([low, high], lambda s: arith.cmpi(arith.CmpIPredicate.slt, s[0], s[1]), body)
    return arith.addi(lo, a), arith.addi(mid, arith.subi(k, a))
