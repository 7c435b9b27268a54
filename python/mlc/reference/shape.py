"""Ops that move data without computing on it: broadcast_in_dim, reshape, transpose,
reverse, slice, pad, dynamic_slice, dynamic_update_slice and upstream tensor.concat.

Contract: row-major order everywhere; `pad` crops for negative edge padding and places
`interior_padding` copies of the padding value between elements; dynamic_slice and
dynamic_update_slice clamp each start to [0, dim - size] in the start's own integer type
(StableHLO), so a ui32 start of 2^32 - 1 clamps to dim - size.
"""

from __future__ import annotations

import numpy as np

from .registry import evaluates


@evaluates("hlo.broadcast_in_dim")
def _broadcast_in_dim(ctx, x):
    """broadcast_in_dim(x): operand dim i -> result dim dims[i] (size 1 expands); others repeat."""
    dims = list(ctx.attrs["broadcast_dimensions"])
    shape = ctx.result_shape()
    order = sorted(range(len(dims)), key=lambda i: dims[i])  # operand dims in result order
    x = np.transpose(x, order) if order else x
    expanded = [1] * len(shape)
    for i in order:
        expanded[dims[i]] = np.shape(x)[order.index(i)]
    return np.broadcast_to(np.reshape(x, expanded), shape).copy()


@evaluates("hlo.reshape")
def _reshape(ctx, x):
    """reshape(x): the same elements in row-major order."""
    return np.reshape(x, ctx.result_shape()).copy()


@evaluates("hlo.transpose")
def _transpose(ctx, x):
    """transpose(x): result dim i is operand dim permutation[i]."""
    return np.transpose(x, list(ctx.attrs["permutation"])).copy()


@evaluates("hlo.reverse")
def _reverse(ctx, x):
    """reverse(x): flipped along each of `dimensions`."""
    dims = tuple(ctx.attrs["dimensions"])
    return np.flip(x, dims).copy() if dims else x.copy()


@evaluates("hlo.slice")
def _slice(ctx, x):
    """slice(x): x[start:limit:stride] per dim."""
    a = ctx.attrs
    index = tuple(slice(s, l, st) for s, l, st in zip(a["start_indices"], a["limit_indices"], a["strides"]))
    return x[index].copy()


def pad_array(x: np.ndarray, value, low, high, interior) -> np.ndarray:
    """x padded with the scalar `value`: edges (negative ones crop) and interior padding."""
    shape = [max(lo, 0) + n + max(n - 1, 0) * inner + max(hi, 0)
             for lo, hi, inner, n in zip(low, high, interior, x.shape)]
    padded = np.full(shape, value, dtype=x.dtype)
    placed = tuple(slice(max(lo, 0), max(lo, 0) + max(n - 1, 0) * (inner + 1) + 1 if n else max(lo, 0), inner + 1)
                   for lo, inner, n in zip(low, interior, x.shape))
    padded[placed] = x
    crop = tuple(slice(max(-lo, 0), size - max(-hi, 0)) for lo, hi, size in zip(low, high, shape))
    return padded[crop].copy()


@evaluates("hlo.pad")
def _pad(ctx, x, padding_value):
    """pad(x, v): edge padding low/high (negative crops), interior_padding v's between elements."""
    a = ctx.attrs
    return pad_array(x, padding_value, a["edge_padding_low"], a["edge_padding_high"], a["interior_padding"])


def clamp_start(start, high: int) -> int:
    """A 0-d integer start clamped to [0, high] in its own type (no wrap to index first)."""
    return int(min(max(int(np.asarray(start)), 0), high))


def clamped_starts(starts, operand_shape, window_shape) -> list[int]:
    return [clamp_start(s, dim - size) for s, dim, size in zip(starts, operand_shape, window_shape)]


@evaluates("hlo.dynamic_slice")
def _dynamic_slice(ctx, x, *starts):
    """dynamic_slice(x, s...): x[s : s + size] with s clamped to [0, dim - size]."""
    sizes = list(ctx.attrs["slice_sizes"])
    begin = clamped_starts(starts, x.shape, sizes)
    return x[tuple(slice(b, b + n) for b, n in zip(begin, sizes))].copy()


@evaluates("hlo.dynamic_update_slice")
def _dynamic_update_slice(ctx, x, update, *starts):
    """dynamic_update_slice(x, u, s...): x with u written at s clamped to [0, dim - u dim]."""
    begin = clamped_starts(starts, x.shape, update.shape)
    result = x.copy()
    result[tuple(slice(b, b + n) for b, n in zip(begin, update.shape))] = update
    return result


@evaluates("tensor.concat")
def _concat(ctx, *xs):
    """tensor.concat(xs...): concatenation along `dim`."""
    from mlir import ir
    dim = ir.IntegerAttr(ctx.op.attributes["dim"]).value
    return np.concatenate(xs, axis=dim)
