"""A stable LSD radix sort for hlo.sort / hlo.argsort on long rows of integer or float keys.

Each element gets an unsigned key of its own width that orders as the sort must (a
linalg.generic over the whole operand, vectorized like any elementwise kernel):

    float:     b = bitcast(x) as a signed integer; zeros -> 0 (-0.0 and 0.0 tie), any NaN ->
               the largest positive pattern (every NaN ties, after +inf);
               key = b < 0 ? ~b : b | sign bit
    signed:    key = b ^ sign bit
    unsigned:  key = b
    descending: key = ~key (ties still keep their input order: NaN first, as merge sort)

Then, per row (an scf.forall over rows when the work passes the thread rule): one read of
the row counts the digits of every pass (8-bit digits, width / 8 passes), and each pass
scatters the row by its digit, least significant first, from one scratch row to the other;
each bucket's elements keep their order, so the sort is stable. The payload (the values for
sort, their positions for argsort) moves with the keys; the last pass writes it into the
result. Work per row: passes x (2 n + 256) steps against merge sort's n log2(n) merge steps,
so sort.py takes radix sort from ~100 elements per row of 32-bit keys (`radix_work`).
"""

from __future__ import annotations

import math

from mlir import ir
from mlir.dialects import arith, linalg, tensor

from ...dialects.hlo.types import is_bool, is_float
from .loops import for_range, index
from .registry import PARALLEL, empty, generic, identity_map

# Digit widths tried: 8 bits (256 buckets) suit rows of hundreds of elements, 11 bits (3
# passes for 32-bit keys instead of 4) rows of thousands, where the buckets cost little.
DIGIT_BITS = (8, 11)


def sortable_key_bits(t: ir.Type) -> int | None:
    """The key width of a radix-sortable element type (None: bool, or an unusual width)."""
    if is_bool(t):
        return None
    width = ir.FloatType(t).width if is_float(t) else ir.IntegerType(t).width
    return width if width in (8, 16, 32, 64) else None


# Work in the units of sort._MERGE_STEP_COST (one merge step per element and level, ~3.8
# ns per unit of 8 on one Zen 3 core): a radix pass per element (the count's increment and the
# scatter's read, slot update and two writes) ~2.3 ns, a bucket (zeroed, prefix-summed) ~0.85
# ns. Merge sort wins below ~100 elements per row for 32-bit keys, ~250 for 64-bit ones.
_ELEMENT_PASS_COST = 5
_BUCKET_COST = 2


def _radix_cost(bits: int, digit: int, n: int) -> int:
    return math.ceil(bits / digit) * (n * _ELEMENT_PASS_COST + (1 << digit) * _BUCKET_COST)


def _digit_bits(bits: int, n: int) -> int:
    """The digit width that sorts rows of n keys of `bits` with the least work."""
    return min(DIGIT_BITS, key=lambda d: _radix_cost(bits, d, n))


def radix_work(t: ir.Type, n: int) -> int | None:
    """Radix sort's work on one row of n elements of type t (None: t has no radix key)."""
    bits = sortable_key_bits(t)
    if bits is None:
        return None
    return _radix_cost(bits, _digit_bits(bits, n), n)


def sort_keys(x: ir.Value, descending: bool, unsigned: bool) -> ir.Value:
    """The unsigned integer key of every element of `x` (a signless integer tensor)."""
    t = ir.RankedTensorType(x.type)
    element = t.element_type
    bits = sortable_key_bits(element)
    key_type = ir.IntegerType.get_signless(bits)
    sign = arith.constant(key_type, -(1 << (bits - 1)))

    def key(v, _out):
        if is_float(element):
            b = arith.bitcast(key_type, v)
            zero = arith.cmpf(arith.CmpFPredicate.OEQ, v, arith.constant(element, 0.0))
            b = arith.select(zero, arith.constant(key_type, 0), b)
            nan = arith.cmpf(arith.CmpFPredicate.UNO, v, v)
            b = arith.select(nan, arith.constant(key_type, (1 << (bits - 1)) - 1), b)
            negative = arith.cmpi(arith.CmpIPredicate.slt, b, arith.constant(key_type, 0))
            k = arith.select(negative, arith.xori(b, arith.constant(key_type, -1)), arith.ori(b, sign))
        elif unsigned:
            k = v
        else:
            k = arith.xori(v, sign)
        return arith.xori(k, arith.constant(key_type, -1)) if descending else k

    rank = t.rank
    return generic([x], empty(ir.RankedTensorType.get(t.shape, key_type)), [identity_map(rank)] * 2,
                   [PARALLEL] * rank, key)


def _digit(key: ir.Value, shift: int, digit: int) -> ir.Value:
    """Bits shift .. shift + digit of `key`, as an index."""
    k = arith.shrui(key, arith.constant(key.type, shift)) if shift else key
    if shift + digit < ir.IntegerType(key.type).width:  # (the top digit has nothing above it)
        k = arith.andi(k, arith.constant(key.type, (1 << digit) - 1))
    return arith.index_castui(ir.IndexType.get(), k)


def _increment(t: ir.Value, position: ir.Value) -> tuple[ir.Value, ir.Value]:
    """(t[position], t with t[position] + 1): a bucket's next slot, taken."""
    old = tensor.extract(t, [position])
    return old, tensor.insert(arith.addi(old, index(1)), t, [position])


def radix_sort_row(keys: ir.Value, payload, row: list[ir.Value], dim: int, n: int,
                   payload_type: ir.Type, out: ir.Value, write_row: list[ir.Value]) -> ir.Value:
    """Sorts one row of `keys` (the row is `row` with the sorted position at `dim`) and
    writes the payload in that order into `out` at `write_row`. payload(position) gives the
    payload of the row's element at `position` (an input element, or the position itself)."""
    key_type = ir.RankedTensorType(keys.type).element_type
    bits = ir.IntegerType(key_type).width
    digit = _digit_bits(bits, n)
    buckets, passes = 1 << digit, math.ceil(bits / digit)
    idx = ir.IndexType.get()

    def at(r, position):
        return r[:dim] + [position] + r[dim:]

    # One read of the row counts the digits of every pass.
    zeros = linalg.fill(index(0), outs=[empty(ir.RankedTensorType.get([passes * buckets], idx))])

    def count(i, state):
        (counts,) = state
        k = tensor.extract(keys, at(row, i))
        for p in range(passes):
            slot = _digit(k, p * digit, digit)
            slot = arith.addi(slot, index(p * buckets)) if p else slot
            _, counts = _increment(counts, slot)
        return [counts]

    (counts,) = for_range(index(0), index(n), index(1), [zeros], count)

    # Scratch rows for the keys and payloads between passes, reused every other pass, and the
    # buckets' next slots, reused by every pass.
    starts = empty(ir.RankedTensorType.get([buckets], idx))
    row_keys = [empty(ir.RankedTensorType.get([n], key_type)) for _ in range(2)]
    row_payload = [empty(ir.RankedTensorType.get([n], payload_type)) for _ in range(2)]
    read_key = lambda i: tensor.extract(keys, at(row, i))  # noqa: E731 - the first pass reads the input
    read_payload = payload
    for p in range(passes):
        # Where each bucket starts: the exclusive prefix sum of this pass's counts.
        def prefix(b, state, p=p):
            starts, total = state
            c = tensor.extract(counts, [arith.addi(b, index(p * buckets)) if p else b])
            return [tensor.insert(total, starts, [b]), arith.addi(total, c)]

        starts, _ = for_range(index(0), index(buckets), index(1), [starts, index(0)], prefix)
        last = p == passes - 1
        dst_keys, dst_payload = row_keys[p % 2], row_payload[p % 2]

        def scatter(i, state, p=p, last=last, read_key=read_key, read_payload=read_payload):
            k, v = read_key(i), read_payload(i)
            if last:
                starts, result = state
                slot, starts = _increment(starts, _digit(k, p * digit, digit))
                return [starts, tensor.insert(v, result, at(write_row, slot))]
            starts, ks, vs = state
            slot, starts = _increment(starts, _digit(k, p * digit, digit))
            return [starts, tensor.insert(k, ks, [slot]), tensor.insert(v, vs, [slot])]

        if last:
            _, out = for_range(index(0), index(n), index(1), [starts, out], scatter)
            return out
        starts, ks, vs = for_range(index(0), index(n), index(1), [starts, dst_keys, dst_payload], scatter)
        row_keys[p % 2], row_payload[p % 2] = ks, vs
        read_key = lambda i, ks=ks: tensor.extract(ks, [i])  # noqa: E731
        read_payload = lambda i, vs=vs: tensor.extract(vs, [i])  # noqa: E731
    raise AssertionError("a key has at least one digit")
