"""A stable LSD radix sort for hlo.sort / hlo.argsort on long rows of integer or float keys.

Each element gets an unsigned key of its own width that orders as the sort must (per row,
a linalg.generic over the row's slice, vectorized like any elementwise kernel, computed
when the row is taken up so that its keys are still in cache when read):

    float:     b = bitcast(x) as a signed integer; zeros -> 0 (-0.0 and 0.0 tie), any NaN ->
               the largest positive pattern (every NaN ties, after +inf);
               key = b < 0 ? ~b : b | sign bit
    signed:    key = b ^ sign bit
    unsigned:  key = b
    descending: key = ~key (ties still keep their input order: NaN first, as merge sort)

Then, per row (an scf.forall over rows when the work passes the thread rule): one read of
the row's keys counts the digits of every pass (8-bit digits on rows of hundreds, 11-bit
ones on rows of thousands: the width with the least work), and each pass scatters the row
by its digit, least significant first, from one scratch row to the other; each bucket's
elements keep their order, so the sort is stable. The payload (the values for sort, their
positions for argsort) moves with the keys, in one word with its key when both fit in 64
bits (f32 values or i32 positions under 32-bit keys: one load and one store per element
and pass, half the cache lines written; 10^5 f32 1.11 -> 0.91 ms); the last pass writes
it into the result. Work
per row: passes x (n + buckets) steps against merge sort's n log2(n) merge steps, so
sort.py takes radix sort from ~100 elements per row of 32-bit keys (`radix_work`).
(1000, 777) f32 rows: merge sort 17 ms, radix sort 4.5 ms (numpy 3.1-4.7); 10^5 f32: 6.5
-> 0.95 ms (numpy 0.55, an AVX2 sorting network).
"""

from __future__ import annotations

import math

from mlir import ir
from mlir.dialects import arith, tensor

from ...dialects.hlo.types import element_bits, is_bool, is_float
from .loops import along, for_range, index
from .registry import PARALLEL, empty, fill, generic, identity_map
from .slicing import extract_slice

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


def key_type(t: ir.Type) -> ir.Type:
    """The signless integer type of the keys of elements of type t."""
    return ir.IntegerType.get_signless(sortable_key_bits(t))


def sort_key(v: ir.Value, descending: bool, unsigned: bool) -> ir.Value:
    """The unsigned integer key of one element `v` (see the module's docstring)."""
    element = v.type
    kt = key_type(element)
    bits = ir.IntegerType(kt).width
    sign = arith.constant(kt, -(1 << (bits - 1)))
    if is_float(element):
        b = arith.bitcast(kt, v)
        zero = arith.cmpf(arith.CmpFPredicate.OEQ, v, arith.constant(element, 0.0))
        b = arith.select(zero, arith.constant(kt, 0), b)
        nan = arith.cmpf(arith.CmpFPredicate.UNO, v, v)
        b = arith.select(nan, arith.constant(kt, (1 << (bits - 1)) - 1), b)
        negative = arith.cmpi(arith.CmpIPredicate.slt, b, arith.constant(kt, 0))
        k = arith.select(negative, arith.xori(b, arith.constant(kt, -1)), arith.ori(b, sign))
    elif unsigned:
        k = v
    else:
        k = arith.xori(v, sign)
    return arith.xori(k, arith.constant(kt, -1)) if descending else k


def sort_keys(x: ir.Value, descending: bool, unsigned: bool) -> ir.Value:
    """The key of every element of `x` (a linalg.generic: vectorized with the elementwise kernels)."""
    t = ir.RankedTensorType(x.type)
    return generic([x], empty(ir.RankedTensorType.get(t.shape, key_type(t.element_type))),
                   [identity_map(t.rank)] * 2, [PARALLEL] * t.rank,
                   lambda v, _out: sort_key(v, descending, unsigned))


def row_values(x: ir.Value, row: list[ir.Value], dim: int) -> ir.Value:
    """One row of `x` (the row is `row` with every position along `dim`) as a 1-D tensor."""
    t = ir.RankedTensorType(x.type)
    n = t.shape[dim]
    return extract_slice(x, ir.RankedTensorType.get([n], t.element_type), along(row, dim, 0),
                         sizes=along([1] * (t.rank - 1), dim, n))


def row_keys(x: ir.Value, row: list[ir.Value], dim: int, descending: bool, unsigned: bool) -> ir.Value:
    """The keys of one row of `x` (row_values), as a 1-D tensor computed when the row is
    sorted: it is still in cache when read."""
    return sort_keys(row_values(x, row, dim), descending, unsigned)


def _digit(key: ir.Value, shift: int, digit: int) -> ir.Value:
    """Bits shift .. shift + digit of `key`, as an index."""
    k = arith.shrui(key, arith.constant(key.type, shift)) if shift else key
    if shift + digit < ir.IntegerType(key.type).width:  # (the top digit has nothing above it)
        k = arith.andi(k, arith.constant(key.type, (1 << digit) - 1))
    return arith.index_castui(ir.IndexType.get(), k)


def _word_type(kt: ir.Type, payload_type: ir.Type) -> ir.Type | None:
    """i32 or i64 holding a key of type kt above a payload of payload_type (None: they do
    not fit in 64 bits, or the payload has no fixed width)."""
    payload_bits = element_bits(payload_type)
    if payload_bits is None or is_bool(payload_type):
        return None
    bits = ir.IntegerType(kt).width + payload_bits
    return ir.IntegerType.get_signless(32 if bits <= 32 else 64) if bits <= 64 else None


def _pack(key: ir.Value, value: ir.Value, word: ir.Type, payload_bits: int) -> ir.Value:
    """(key << payload_bits) | bits(value), in `word`: the key's digits sit above the payload."""
    bits = value if isinstance(value.type, ir.IntegerType) else arith.bitcast(
        ir.IntegerType.get_signless(payload_bits), value)
    high = arith.shli(arith.extui(word, key), arith.constant(word, payload_bits))
    return arith.ori(high, arith.extui(word, bits))


def _unpack(w: ir.Value, payload_type: ir.Type, payload_bits: int) -> ir.Value:
    """The payload in the low payload_bits of a packed word."""
    bits = arith.trunci(ir.IntegerType.get_signless(payload_bits), w)
    return bits if isinstance(payload_type, ir.IntegerType) else arith.bitcast(payload_type, bits)


def _increment(t: ir.Value, position: ir.Value) -> tuple[ir.Value, ir.Value]:
    """(t[position], t with t[position] + 1): a bucket's next slot, taken."""
    old = tensor.extract(t, [position])
    return old, tensor.insert(arith.addi(old, index(1)), t, [position])


def word_layout(kt: ir.Type, payload_type: ir.Type):
    """How the passes carry an element with a key of type kt and a payload of payload_type:
    (kinds, shift, pack, unpack). kinds: the types of its words (one word holding the key
    above the payload when both fit in 64 bits: one read and one write per element and
    pass, half the cache lines the scatter writes into; else the key and the payload side
    by side); shift: where the key's bits start in the first word; pack(key, payload) ->
    the words; unpack(*words) -> the payload."""
    word = _word_type(kt, payload_type)
    if word is None:
        return [kt, payload_type], 0, (lambda k, v: [k, v]), (lambda k, v: v)
    payload_bits = element_bits(payload_type)
    return ([word], payload_bits, lambda k, v: [_pack(k, v, word, payload_bits)],
            lambda w: _unpack(w, payload_type, payload_bits))


def radix_passes(n: int, bits: int, count: ir.Value, kinds: list[ir.Type], shift: int, counted, first,
                 place, outs: list[ir.Value]) -> list[ir.Value]:
    """The passes of a radix sort of `count` elements (at most n, which sizes the scratch
    rows and picks the digit width) with keys of `bits`: counted(i) -> (a value, where
    element i's key starts in it) for the count pass, first(i) -> element i as words of
    `kinds` (its key from bit `shift` of the first), place(words, slot, outs) -> `outs`
    with the element at its sorted position `slot`. Returns the last pass's `outs`."""
    digit = _digit_bits(bits, n)
    buckets, passes = 1 << digit, math.ceil(bits / digit)
    idx = ir.IndexType.get()

    # One read of the row counts the digits of every pass.
    zeros = fill(index(0), empty(ir.RankedTensorType.get([passes * buckets], idx)))

    def count_digits(i, state):
        (counts,) = state
        k, at = counted(i)
        for p in range(passes):
            slot = _digit(k, at + p * digit, digit)
            slot = arith.addi(slot, index(p * buckets)) if p else slot
            _, counts = _increment(counts, slot)
        return [counts]

    (counts,) = for_range(index(0), count, index(1), [zeros], count_digits)

    # Scratch rows between passes, reused every other pass; the buckets' next slots are
    # reused by every pass.
    starts = empty(ir.RankedTensorType.get([buckets], idx))
    scratch = [[empty(ir.RankedTensorType.get([n], kind)) for kind in kinds] for _ in range(2)]
    read = first
    for p in range(passes):
        # Where each bucket starts: the exclusive prefix sum of this pass's counts.
        def prefix(b, state, p=p):
            starts, total = state
            c = tensor.extract(counts, [arith.addi(b, index(p * buckets)) if p else b])
            return [tensor.insert(total, starts, [b]), arith.addi(total, c)]

        starts, _ = for_range(index(0), index(buckets), index(1), [starts, index(0)], prefix)
        last = p == passes - 1

        def scatter(i, state, p=p, last=last, read=read):
            element = read(i)
            starts, *dsts = state
            slot, starts = _increment(starts, _digit(element[0], shift + p * digit, digit))
            if last:
                return [starts, *place(element, slot, dsts)]
            return [starts] + [tensor.insert(e, d, [slot]) for e, d in zip(element, dsts)]

        if last:
            return for_range(index(0), count, index(1), [starts, *outs], scatter)[1:]
        starts, *written = for_range(index(0), count, index(1), [starts, *scratch[p % 2]], scatter)
        scratch[p % 2] = written
        read = lambda i, written=written: [tensor.extract(w, [i]) for w in written]  # noqa: E731
    raise AssertionError("a key has at least one digit")


def radix_sort_row(x: ir.Value, descending: bool, unsigned: bool, payload, row: list[ir.Value], dim: int,
                   payload_type: ir.Type, out: ir.Value, write_row: list[ir.Value]) -> ir.Value:
    """Sorts one row of `x` (the row is `row` with every position along `dim`) by its keys
    and writes the payload in that order into `out` at `write_row`. payload(position) gives
    the payload of the row's element at `position` (the element, or the position itself)."""
    keys = row_keys(x, row, dim, descending, unsigned)
    n = ir.RankedTensorType(keys.type).shape[0]
    kt = ir.RankedTensorType(keys.type).element_type
    kinds, shift, pack, unpack = word_layout(kt, payload_type)
    return radix_passes(
        n, ir.IntegerType(kt).width, index(n), kinds, shift,
        counted=lambda i: (tensor.extract(keys, [i]), 0),
        first=lambda i: pack(tensor.extract(keys, [i]), payload(i)),
        place=lambda element, slot, outs: [tensor.insert(unpack(*element), outs[0], along(write_row, dim, slot))],
        outs=[out])[0]
