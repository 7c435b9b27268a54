"""Bitwise hlo ops on integers and i1: and/or/xor/not, shifts, popcnt, count_leading_zeros.

Contract: results have the operand dtype; i1 ops are logical. Shift amounts are read as
unsigned of the same width (StableHLO): an amount >= the bit width (a negative signed
amount included) gives 0 for shift_left and shift_right_logical and the sign fill for
shift_right_arithmetic. shift_right_arithmetic of an unsigned type fills with its top bit,
shift_right_logical of a signed type with zeros (the bits are what count).
"""

from __future__ import annotations

import numpy as np

from .registry import bits_of, evaluates, signed_view, unsigned_view


@evaluates("hlo.and")
def _and(ctx, lhs, rhs):
    """and(x, y): bitwise; i1 logical."""
    return np.bitwise_and(lhs, rhs)


@evaluates("hlo.or")
def _or(ctx, lhs, rhs):
    """or(x, y): bitwise; i1 logical."""
    return np.bitwise_or(lhs, rhs)


@evaluates("hlo.xor")
def _xor(ctx, lhs, rhs):
    """xor(x, y): bitwise; i1 logical."""
    return np.bitwise_xor(lhs, rhs)


@evaluates("hlo.not")
def _not(ctx, x):
    """not(x): bitwise complement; i1 logical not."""
    return np.invert(x)


def _shift_amounts(x: np.ndarray, n: np.ndarray):
    """(the amounts as unsigned, clamped to a safe value, in x's unsigned dtype; too_far mask)."""
    u = unsigned_view(n)
    width = bits_of(x.dtype)
    too_far = u >= width
    return np.where(too_far, np.zeros((), u.dtype), u), too_far


@evaluates("hlo.shift_left")
def _shift_left(ctx, lhs, rhs):
    """shift_left(x, n): x << n wrapping; n >= bits (as unsigned) -> 0."""
    amount, too_far = _shift_amounts(lhs, rhs)
    shifted = np.left_shift(unsigned_view(lhs), amount).view(lhs.dtype)
    return np.where(too_far, np.zeros((), lhs.dtype), shifted)


@evaluates("hlo.shift_right_logical")
def _shift_right_logical(ctx, lhs, rhs):
    """shift_right_logical(x, n): zero fill; n >= bits (as unsigned) -> 0."""
    amount, too_far = _shift_amounts(lhs, rhs)
    shifted = np.right_shift(unsigned_view(lhs), amount).view(lhs.dtype)
    return np.where(too_far, np.zeros((), lhs.dtype), shifted)


@evaluates("hlo.shift_right_arithmetic")
def _shift_right_arithmetic(ctx, lhs, rhs):
    """shift_right_arithmetic(x, n): sign fill; n >= bits (as unsigned) -> all sign bits."""
    amount, too_far = _shift_amounts(lhs, rhs)
    s = signed_view(lhs)
    amount = np.where(too_far, np.array(bits_of(lhs.dtype) - 1, amount.dtype), amount)
    return np.right_shift(s, amount.astype(s.dtype)).view(lhs.dtype)


def _bit_length(u: np.ndarray) -> np.ndarray:
    """The number of significant bits of each unsigned value (0 for 0)."""
    length = np.zeros(u.shape, np.int64)
    width = u.dtype.itemsize * 8
    step = width // 2
    u = u.copy()
    while step:  # binary search on the highest set bit
        high = (u >> np.array(step, u.dtype)) != 0
        length = np.where(high, length + step, length)
        u = np.where(high, u >> np.array(step, u.dtype), u)
        step //= 2
    return length + (u != 0)


@evaluates("hlo.count_leading_zeros")
def _count_leading_zeros(ctx, x):
    """count_leading_zeros(x): bits - bit_length(x as unsigned); clz(0) = bits."""
    return (bits_of(x.dtype) - _bit_length(unsigned_view(x))).astype(x.dtype)


@evaluates("hlo.popcnt")
def _popcnt(ctx, x):
    """popcnt(x): the number of set bits of x's two's complement form."""
    u = unsigned_view(x)
    count = np.zeros(u.shape, np.int64)
    for byte in range(u.dtype.itemsize):
        count += _BYTE_POPCOUNT[(u >> np.array(8 * byte, u.dtype)) & np.array(0xFF, u.dtype)]
    return count.astype(x.dtype)


_BYTE_POPCOUNT = np.array([bin(i).count("1") for i in range(256)], np.int64)
