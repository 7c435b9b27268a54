"""Reductions: reduce, argmax/argmin and reduce_window.

Contract: `kind` combines as elementwise.COMBINERS (i1: add/max = or, mul/min = and;
float max/min propagate NaN), starting from the 0-d init value; integers wrap. Float `add`
of f16/f32 accumulates in f64 and rounds once (the oracle is the nearly exact sum; compiled
code sums in another order, compared within n * eps * sum(|x|)); f64 adds pairwise. An
empty reduction gives the init value. argmax/argmin: the first index of the best element
(first on ties; the first NaN wins, as numpy); 0 along an empty dimension. reduce_window
pads the edges and the base dilations with the init value, like StableHLO.
"""

from __future__ import annotations

import numpy as np

from .elementwise import COMBINERS
from .registry import evaluates, is_float_dtype
from .shape import pad_array

# kind -> (is i1) -> the numpy ufunc whose .reduce combines like COMBINERS[kind].
_UFUNCS = {
    "add": lambda b: np.logical_or if b else np.add,
    "mul": lambda b: np.logical_and if b else np.multiply,
    "max": lambda b: np.logical_or if b else np.maximum,
    "min": lambda b: np.logical_and if b else np.minimum,
    "and": lambda b: np.logical_and if b else np.bitwise_and,
    "or": lambda b: np.logical_or if b else np.bitwise_or,
    "xor": lambda b: np.logical_xor if b else np.bitwise_xor,
}


def reduce_array(x: np.ndarray, init: np.ndarray, dims, kind: str) -> np.ndarray:
    """combine(kind) of x over `dims`, starting from the 0-d `init`."""
    dims = tuple(sorted(dims))
    dt = x.dtype
    init = np.asarray(init, dt)
    if not dims:
        return COMBINERS[kind](np.broadcast_to(init, x.shape), x).astype(dt)
    if kind == "add" and is_float_dtype(dt) and dt != np.float64:
        total = np.add.reduce(x.astype(np.float64), axis=dims) + init.astype(np.float64)
        return np.asarray(total).astype(dt)
    ufunc = _UFUNCS[kind](dt == np.bool_)
    kept = [s for d, s in enumerate(x.shape) if d not in dims]
    if x.size == 0:
        return np.full(kept, init, dt)
    reduced = ufunc.reduce(x, axis=dims, dtype=dt if dt != np.bool_ else None)
    return np.asarray(COMBINERS[kind](np.broadcast_to(init, kept), np.asarray(reduced, dt))).astype(dt)


@evaluates("hlo.reduce")
def _reduce(ctx, x, init):
    """reduce(x, init): init combined with every element along `dimensions`."""
    return reduce_array(x, init, ctx.attrs["dimensions"], ctx.attrs["kind"])


def _arg_reduce(ctx, x, fn):
    dim = ctx.attrs["dimension"]
    shape = ctx.result_shape()
    if x.shape[dim] == 0 or 0 in shape:
        return np.zeros(shape, ctx.result_dtype())
    return fn(x, axis=dim)


@evaluates("hlo.argmax")
def _argmax(ctx, x):
    """argmax(x): first index of the largest along `dimension`; first NaN wins; 0 if empty."""
    return _arg_reduce(ctx, x, np.argmax)


@evaluates("hlo.argmin")
def _argmin(ctx, x):
    """argmin(x): first index of the smallest along `dimension`; first NaN wins; 0 if empty."""
    return _arg_reduce(ctx, x, np.argmin)


def _per_dim(ctx, name: str, rank: int, default: int) -> list[int]:
    return list(ctx.attrs.get(name, [default] * rank))


def _padding(ctx, rank: int) -> list[tuple[int, int]]:
    from ..dialects.hlo.shape_rules import padding_pairs
    from ..dialects.hlo.verify import signature_of
    return padding_pairs(signature_of(ctx.op), rank)


@evaluates("hlo.reduce_window")
def _reduce_window(ctx, x, init):
    """reduce_window(x, init): each (strided, dilated) window of the init-padded x combined from init."""
    a, rank = ctx.attrs, x.ndim
    if rank == 0:
        return COMBINERS[a["kind"]](init, x)
    window = list(a["window_dimensions"])
    strides = _per_dim(ctx, "window_strides", rank, 1)
    base = _per_dim(ctx, "base_dilations", rank, 1)
    dilations = _per_dim(ctx, "window_dilations", rank, 1)
    padding = _padding(ctx, rank)
    padded = pad_array(x, init, [lo for lo, _ in padding], [hi for _, hi in padding], [b - 1 for b in base])
    spans = [(w - 1) * wd + 1 for w, wd in zip(window, dilations)]
    shape = ctx.result_shape()
    if 0 in shape:
        return np.zeros(shape, x.dtype)
    views = np.lib.stride_tricks.sliding_window_view(padded, spans)
    views = views[tuple(slice(None, None, s) for s in strides) + tuple(slice(None, None, d) for d in dilations)]
    return reduce_array(views, init, range(rank, 2 * rank), a["kind"])
