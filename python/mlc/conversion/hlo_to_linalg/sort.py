"""hlo.sort / hlo.argsort -> a bottom-up merge sort in scf loops over tensors.

For each pass (width 1, 2, 4, ... up to the sorted dimension's size; unrolled, since the
size is static) a fresh tensor receives, for every row and every pair of adjacent runs,
the merge of the two runs (an scf.while). Merging takes from the right run only when its
element is strictly before the left one, which makes the sort stable. argsort carries the
indices (an iota) through the same merges. O(n log n) per row.
"""

from __future__ import annotations

from mlir import ir
from mlir.dialects import arith, tensor

from ...dialects.hlo.types import is_bool, is_float
from .loops import for_nest, for_range, index, while_loop
from .registry import PARALLEL, empty, generic, identity_map, loop_index, lowering


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
    n = t.shape[dim]
    rows = [s for d, s in enumerate(t.shape) if d != dim]
    sources = [keys] + ([payload] if payload is not None else [])

    def at(row: list[ir.Value], position: ir.Value) -> list[ir.Value]:
        return row[:dim] + [position] + row[dim:]

    width = 1
    while width < n:
        def merge_pass(row, dsts, width=width, srcs=sources):
            def merge_pair(lo, dsts):
                mid = arith.minsi(arith.addi(lo, index(width)), index(n))
                hi = arith.minsi(arith.addi(lo, index(2 * width)), index(n))

                def step(state):
                    i, j, k, *outs = state
                    left_ok = arith.cmpi(arith.CmpIPredicate.slt, i, mid)
                    right_ok = arith.cmpi(arith.CmpIPredicate.slt, j, hi)
                    # Reads stay in bounds; an exhausted side is never taken.
                    li = arith.minsi(i, arith.subi(mid, index(1)))
                    rj = arith.minsi(j, arith.subi(hi, index(1)))
                    left = [tensor.extract(s, at(row, li)) for s in srcs]
                    right = [tensor.extract(s, at(row, rj)) for s in srcs]
                    right_first = _before(right[0], left[0], t.element_type, descending, unsigned)
                    no_left = arith.xori(left_ok, arith.constant(ir.IntegerType.get_signless(1), 1))
                    take_right = arith.andi(right_ok, arith.ori(no_left, right_first))
                    outs = [tensor.insert(arith.select(take_right, r, l), out, at(row, k))
                            for l, r, out in zip(left, right, outs)]
                    step_i = arith.select(take_right, index(0), index(1))
                    return [arith.addi(i, step_i), arith.addi(j, arith.subi(index(1), step_i)),
                            arith.addi(k, index(1)), *outs]

                state = while_loop([lo, mid, lo, *dsts],
                                   lambda s: arith.cmpi(arith.CmpIPredicate.slt, s[2], hi), step)
                return state[3:]

            return for_range(index(0), index(n), index(2 * width), dsts, merge_pair)

        fresh = [empty(ir.RankedTensorType(s.type)) for s in sources]
        sources = for_nest(rows, fresh, merge_pass)
        width *= 2
    return sources


@lowering("sort")
def lower_sort(op, sig):
    return [merge_sort(op.operands[0], None, sig.attributes["dimension"],
                       sig.attributes.get("descending", False), sig.operand_unsigned(0))[0]]


@lowering("argsort")
def lower_argsort(op, sig):
    result_type = op.results[0].type
    dim = sig.attributes["dimension"]
    rank = result_type.rank
    positions = generic([], empty(result_type), [identity_map(rank)], [PARALLEL] * rank,
                        lambda _out: loop_index(dim, result_type.element_type))
    return [merge_sort(op.operands[0], positions, dim, sig.attributes.get("descending", False),
                       sig.operand_unsigned(0))[1]]
