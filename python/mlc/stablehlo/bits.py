"""reduce_precision and rng_bit_generator decomposed into integer bit manipulation.

rng_bit_generator follows XLA's CPU expansion bit for bit, so imported JAX programs draw the
same numbers JAX does (DEFAULT is PHILOX there). The state's first u64 is the key.
  THREE_FRY (state u64[2], counter = state[1]): Threefry-2x32 with 20 rounds over u64
    counters counter + i; 32-bit outputs: the shape is split in two along its first even
    dim (else its largest; a 0-d shape is [2]) and each counter gives one element of each
    half (x0 at even, x1 at odd positions); 64-bit outputs: one counter per element,
    x0 | x1 << 32. New state: counter + number of counters used.
  PHILOX (state u64[2]: the 128-bit counter is (low = state[1], high = state[0]);
    u64[3]: (state[1], state[2])): Philox-4x32 with 10 rounds over counters counter + i,
    i < ceil(words / 4); the four words of counter i are elements 4i..4i+3 (64-bit outputs:
    words (0,1) and (2,3) joined, two elements per counter). New state: counter + used
    (u64[2]: only the new low word is kept).
Narrower outputs are the low bits of the 32-bit ones; signed and float outputs are those
bits reinterpreted (bitcast_convert)."""

from __future__ import annotations

import numpy as np
from mlir import ir

from ..dialects import hlo
from . import attributes as A
from .registry import rule

_MANTISSA = {16: 10, 32: 23, 64: 52}  # IEEE binary16/32/64; bf16 below
_EXPONENT = {16: 5, 32: 8, 64: 11}


def _uint(bits: int) -> ir.Type:
    return ir.IntegerType.get_unsigned(bits)


def _int(bits: int) -> ir.Type:
    return ir.IntegerType.get_signless(bits)


def _const(value: int, element: ir.Type, shape) -> ir.Value:
    width = ir.IntegerType(element).width
    signed = not ir.IntegerType(element).is_unsigned
    dtype = {True: {8: np.int8, 16: np.int16, 32: np.int32, 64: np.int64},
             False: {8: np.uint8, 16: np.uint16, 32: np.uint32, 64: np.uint64}}[signed][width]
    if signed and value >= 1 << (width - 1):
        value -= 1 << width
    scalar = hlo.constant(np.asarray(value, dtype), element)
    return hlo.broadcast_in_dim(scalar, list(shape), []) if list(shape) else scalar


# -- reduce_precision ----------------------------------------------------------------------


def _float_format(element: ir.Type) -> tuple[int, int, int]:
    """(bit width, exponent bits, mantissa bits) of a float type."""
    if isinstance(element, ir.BF16Type):
        return 16, 8, 7
    width = ir.FloatType(element).width
    return width, _EXPONENT[width], _MANTISSA[width]


@rule("stablehlo.reduce_precision")
def reduce_precision(cv, op):
    """x rounded to a float with `exponent_bits` and `mantissa_bits`, kept in x's type, on
    x's bits as an integer i: mantissa: i += ((i >> s) & 1) + (1 << (s - 1)) - 1 then the low
    s = (source mantissa - mantissa_bits) bits are cleared (round to nearest even; a carry
    into the exponent is the correct rounding up); exponent: a biased exponent above the
    narrow type's largest becomes +-inf, one at or below its smallest normal's becomes +-0
    (no subnormals). NaNs are kept as they were (payload and sign)."""
    x = cv.value(op.operands[0])
    t = ir.RankedTensorType(x.type)
    if not isinstance(t.element_type, ir.FloatType):
        raise cv.error(op, "reduce_precision of a non-float operand is not supported")
    exponent_bits = ir.IntegerAttr(A.get(op, "exponent_bits")).value
    mantissa_bits = ir.IntegerAttr(A.get(op, "mantissa_bits")).value
    width, src_exponent, src_mantissa = _float_format(t.element_type)
    if exponent_bits < 1 or mantissa_bits < 0:
        raise cv.error(op, f"reduce_precision to e{exponent_bits}m{mantissa_bits} is not valid")
    shape = list(t.shape)
    it = _int(width)
    i = hlo.bitcast_convert(x, it)

    def c(v):
        return _const(v, it, shape)

    if mantissa_bits < src_mantissa:
        s = src_mantissa - mantissa_bits
        last = 1 << s
        odd = hlo.shift_right_logical(hlo.and_(i, c(last)), c(s))
        i = hlo.add(i, hlo.add(odd, c((last >> 1) - 1)))
        i = hlo.and_(i, c(((1 << width) - 1) & ~(last - 1)))
    if exponent_bits < src_exponent:
        exponent_mask = ((1 << src_exponent) - 1) << src_mantissa
        bias = (1 << (src_exponent - 1)) - 1
        reduced_bias = (1 << (exponent_bits - 1)) - 1
        exponent = hlo.and_(i, c(exponent_mask))
        overflow = hlo.compare(exponent, c((bias + reduced_bias) << src_mantissa), "GT", "SIGNED")
        underflow = hlo.compare(exponent, c((bias - reduced_bias) << src_mantissa), "LE", "SIGNED")
        signed_zero = hlo.and_(i, c(1 << (width - 1)))
        signed_inf = hlo.or_(signed_zero, c(exponent_mask))
        i = hlo.select(overflow, signed_inf, hlo.select(underflow, signed_zero, i))
    result = hlo.bitcast_convert(i, t.element_type)
    is_nan = hlo.compare(x, x, "NE", "FLOAT")
    return [hlo.select(is_nan, x, result)]


# -- rng_bit_generator ---------------------------------------------------------------------


def _lo32(x64):
    return hlo.convert(x64, _uint(32))


def _hi32(x64):
    shape = ir.RankedTensorType(x64.type).shape
    return hlo.convert(hlo.shift_right_logical(x64, _const(32, _uint(64), shape)), _uint(32))


def _join64(lo, hi):
    shape = ir.RankedTensorType(lo.type).shape
    return hlo.or_(hlo.convert(lo, _uint(64)),
                   hlo.shift_left(hlo.convert(hi, _uint(64)), _const(32, _uint(64), shape)))


def _rotl(v, distance: int):
    shape = ir.RankedTensorType(v.type).shape
    return hlo.or_(hlo.shift_left(v, _const(distance, _uint(32), shape)),
                   hlo.shift_right_logical(v, _const(32 - distance, _uint(32), shape)))


def _bcast(scalar, shape):
    return hlo.broadcast_in_dim(scalar, list(shape), []) if list(shape) else scalar


def threefry2x32(x0, x1, k0, k1):
    """Threefry-2x32, 20 rounds (Salmon et al. 2011), on u32 tensors; k0, k1 are 0-d."""
    shape = ir.RankedTensorType(x0.type).shape
    u32 = _uint(32)
    k2 = hlo.xor(hlo.xor(k0, k1), _const(0x1BD11BDA, u32, []))
    ks = [_bcast(k, shape) for k in (k0, k1, k2)]
    rotations = ((13, 15, 26, 6), (17, 29, 16, 24))
    x0, x1 = hlo.add(x0, ks[0]), hlo.add(x1, ks[1])
    for block in range(5):
        for r in rotations[block % 2]:
            x0 = hlo.add(x0, x1)
            x1 = hlo.xor(x0, _rotl(x1, r))
        x0 = hlo.add(x0, ks[(block + 1) % 3])
        x1 = hlo.add(hlo.add(x1, ks[(block + 2) % 3]), _const(block + 1, u32, shape))
    return x0, x1


_PHILOX_W = (0x9E3779B9, 0xBB67AE85)
_PHILOX_M = (0xD2511F53, 0xCD9E8D57)


def philox4x32(words, k0, k1):
    """Philox-4x32, 10 rounds (Salmon et al. 2011), on four u32 tensors; k0, k1 are 0-d."""
    shape = ir.RankedTensorType(words[0].type).shape
    u32, u64 = _uint(32), _uint(64)

    def mul(x, m):
        product = hlo.multiply(hlo.convert(x, u64), _const(m, u64, shape))
        return _hi32(product), _lo32(product)

    for _ in range(10):
        key0, key1 = _bcast(k0, shape), _bcast(k1, shape)
        hi0, lo0 = mul(words[0], _PHILOX_M[0])
        hi1, lo1 = mul(words[2], _PHILOX_M[1])
        words = [hlo.xor(hlo.xor(hi1, words[1]), key0), lo1,
                 hlo.xor(hlo.xor(hi0, words[3]), key1), lo0]
        k0 = hlo.add(k0, _const(_PHILOX_W[0], u32, []))
        k1 = hlo.add(k1, _const(_PHILOX_W[1], u32, []))
    return words


def _element(state, i):
    return hlo.reshape(hlo.slice(state, [i], [i + 1]), [])


def _threefry_bits(key, counter, shape, width):
    u64 = _uint(64)
    k0, k1 = _lo32(key), _hi32(key)
    if width == 64:
        n = int(np.prod(shape))
        inputs = hlo.add(_bcast(counter, shape), hlo.reshape(hlo.iota([n], u64, 0), shape)) \
            if shape else counter
        x0, x1 = threefry2x32(_lo32(inputs), _hi32(inputs), k0, k1)
        return _join64(x0, x1), hlo.add(counter, _const(n, u64, []))
    # 32-bit words: split the shape in halves along `split`, one counter per pair.
    if not shape:
        half, split = [1, 1], 0
    else:
        even = [d for d, size in enumerate(shape) if size % 2 == 0]
        split = even[0] if even else max(range(len(shape)), key=lambda d: (shape[d], -d))
        half = list(shape)
        half[split] = (shape[split] + 1) // 2
        half.insert(split + 1, 1)
    n = int(np.prod(half))
    inputs = hlo.add(_bcast(counter, half), hlo.reshape(hlo.iota([n], u64, 0), half))
    x0, x1 = threefry2x32(_lo32(inputs), _hi32(inputs), k0, k1)
    both = hlo.reshape(_concat([x0, x1], split + 1), _rounded(shape, split))
    if not shape:
        both = hlo.reshape(hlo.slice(both, [0], [1]), [])
    elif list(ir.RankedTensorType(both.type).shape) != list(shape):
        both = hlo.slice(both, [0] * len(shape), list(shape))
    return both, hlo.add(counter, _const(n, u64, []))


def _rounded(shape, split):
    if not shape:
        return [2]
    out = list(shape)
    out[split] += out[split] % 2
    return out


def _concat(values, dim):
    from mlir.dialects import tensor
    shape = list(ir.RankedTensorType(values[0].type).shape)
    shape[dim] *= len(values)
    element = ir.RankedTensorType(values[0].type).element_type
    return tensor.concat(ir.RankedTensorType.get(shape, element), dim, values)


def _philox_bits(key, low, high, shape, width):
    u64 = _uint(64)
    n = int(np.prod(shape)) * (2 if width == 64 else 1)
    blocks = (n + 3) // 4
    i = hlo.iota([blocks], u64, 0)
    new_low = hlo.add(_bcast(low, [blocks]), i)
    carry = hlo.compare(new_low, _bcast(low, [blocks]), "LT", "UNSIGNED")
    new_high = hlo.select(carry, _bcast(hlo.add(high, _const(1, u64, [])), [blocks]),
                          _bcast(high, [blocks]))
    words = philox4x32([_lo32(new_low), _hi32(new_low), _lo32(new_high), _hi32(new_high)],
                       _lo32(key), _hi32(key))
    if width == 64:
        parts, per = [_join64(words[0], words[1]), _join64(words[2], words[3])], 2
    else:
        parts, per = words, 4
    flat = hlo.reshape(_concat([hlo.reshape(p, [blocks, 1]) for p in parts], 1), [blocks * per])
    count = int(np.prod(shape))
    bits = hlo.reshape(hlo.slice(flat, [0], [count]), list(shape))
    end_low = hlo.add(low, _const(blocks, u64, []))
    end_high = hlo.select(hlo.compare(end_low, low, "LT", "UNSIGNED"),
                          hlo.add(high, _const(1, u64, [])), high)
    return bits, end_low, end_high


@rule("stablehlo.rng_bit_generator")
def rng_bit_generator(cv, op):
    """(new state, bits) by XLA's expansion of the algorithm (module docstring)."""
    (state,) = cv.operands(op)
    algorithm = A.enum_value(A.get(op, "rng_algorithm"))
    state_type = ir.RankedTensorType(op.operands[0].type)
    out_type = ir.RankedTensorType(op.results[1].type)
    element = out_type.element_type
    width = ir.IntegerType(element).width if isinstance(element, ir.IntegerType) else \
        _float_format(element)[0] if isinstance(element, ir.FloatType) else 0
    if width not in (8, 16, 32, 64) or str(state_type.element_type) != "ui64":
        raise cv.error(op, f"rng_bit_generator of {out_type} from a {state_type} state is not "
                           f"supported")
    shape = list(out_type.shape)
    size = state_type.shape[0]
    key = _element(state, 0)
    if algorithm == "DEFAULT":
        algorithm = "PHILOX"  # what XLA's CPU backend runs (so JAX's numbers on CPU)
    word = 64 if width == 64 else 32
    if algorithm == "THREE_FRY":
        if size != 2:
            raise cv.error(op, f"rng_bit_generator THREE_FRY needs a u64[2] state, got {state_type}")
        bits, counter = _threefry_bits(key, _element(state, 1), shape, word)
        new_state = [key, counter]
    elif algorithm == "PHILOX":
        if size not in (2, 3):
            raise cv.error(op, f"rng_bit_generator PHILOX needs a u64[2] or u64[3] state, "
                               f"got {state_type}")
        low, high = (_element(state, 1), _element(state, 0)) if size == 2 else \
            (_element(state, 1), _element(state, 2))
        bits, end_low, end_high = _philox_bits(key, low, high, shape, word)
        new_state = [key, end_low] + ([end_high] if size == 3 else [])
    else:
        raise cv.error(op, f"rng_bit_generator algorithm {algorithm} is not supported")
    if width < word:
        bits = hlo.convert(bits, _uint(width))
    if element != ir.RankedTensorType(bits.type).element_type:
        bits = hlo.bitcast_convert(bits, element)
    state_out = _concat([hlo.reshape(v, [1]) for v in new_state], 0)
    return [state_out, bits]


def _width(element: ir.Type) -> int:
    if isinstance(element, ir.IntegerType):
        return ir.IntegerType(element).width
    return _float_format(element)[0]


@rule("stablehlo.bitcast_convert")
def bitcast_convert(cv, op):
    """Same widths: hlo.bitcast_convert. Different widths (StableHLO allows them): the
    narrow side has one more dim, of size wide / narrow, holding the wide value's pieces
    from the least significant up (little endian), joined or split with shifts and ors on
    unsigned integers."""
    (x,) = cv.operands(op)
    src = ir.RankedTensorType(op.operands[0].type)
    dst = ir.RankedTensorType(op.results[0].type)
    ws, wd = _width(src.element_type), _width(dst.element_type)
    if ws == wd:
        return [cv.same_name(op)]
    if "i1" in (str(src.element_type), str(dst.element_type)):
        raise cv.error(op, "bitcast_convert of booleans is not supported")
    as_uint = x if str(src.element_type) == f"ui{ws}" else hlo.bitcast_convert(x, _uint(ws))
    if ws < wd:  # [..., k] narrow pieces -> [...] wide
        shape = list(dst.shape)
        out = None
        for j in range(wd // ws):
            piece = hlo.reshape(hlo.slice(as_uint, [0] * len(shape) + [j],
                                          shape + [j + 1]), shape)
            piece = hlo.convert(piece, _uint(wd))
            if j:
                piece = hlo.shift_left(piece, _const(ws * j, _uint(wd), shape))
            out = piece if out is None else hlo.or_(out, piece)
    else:  # [...] wide -> [..., k] narrow pieces
        shape = list(src.shape)
        pieces = []
        for j in range(ws // wd):
            piece = as_uint if j == 0 else \
                hlo.shift_right_logical(as_uint, _const(wd * j, _uint(ws), shape))
            pieces.append(hlo.reshape(hlo.convert(piece, _uint(wd)), shape + [1]))
        out = _concat(pieces, len(shape))
    if str(dst.element_type) != f"ui{wd}":
        out = hlo.bitcast_convert(out, dst.element_type)
    return [out]
