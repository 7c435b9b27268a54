"""Reductions: the batch dim is kept (never reduced over).

    reduce(x[b], init, dims) -> reduce(x, init, dims+1)
    reduce(x, init[b], dims) -> combine(reduce(x, identity, dims+1), init)   (kind's combiner)
    argmax/argmin(x[b], dim d) -> argmax/argmin(x, d+1)
    reduce_window(x[b], init) -> reduce_window(x, init) with a 1-wide window on dim 0; a
        batched init: pad x with it explicitly (edges and base dilation holes), reduce the
        windows from the kind's identity, combine with init
"""

from __future__ import annotations

import numpy as np
from mlir import ir

from ...dialects import hlo
from ...dialects.hlo.types import is_float
from ..registry import batch_rule
from ..values import etype, materialize, scalar_constant, shape, shifted

_COMBINE = {"add": hlo.add, "mul": hlo.multiply, "max": hlo.maximum, "min": hlo.minimum,
            "and": hlo.and_, "or": hlo.or_, "xor": hlo.xor}


def identity(kind: str, element_type: ir.Type) -> ir.Value:
    """The 0-d neutral element of `kind` for `element_type`."""
    if kind in ("add", "or", "xor"):
        return scalar_constant(element_type, 0)
    if kind == "mul":
        return scalar_constant(element_type, 1)
    if kind == "and":
        return scalar_constant(element_type, -1 if ir.IntegerType(element_type).width > 1 else 1)
    lowest = kind == "max"
    if is_float(element_type):
        return scalar_constant(element_type, -np.inf if lowest else np.inf)
    width = ir.IntegerType(element_type).width
    if width == 1:
        return scalar_constant(element_type, 0 if lowest else 1)
    unsigned = ir.IntegerType(element_type).is_unsigned
    if unsigned:
        return scalar_constant(element_type, 0 if lowest else 2 ** width - 1)
    return scalar_constant(element_type, -2 ** (width - 1) if lowest else 2 ** (width - 1) - 1)


def combine(kind: str, acc: ir.Value, init: ir.Value) -> ir.Value:
    """kind(acc, init) with a batched 0-d init ([B]) broadcast over acc ([B, ...])."""
    init = hlo.broadcast_in_dim(init, list(shape(acc)), [0]) if shape(init) != shape(acc) else init
    return _COMBINE[kind](acc, init)


@batch_rule("hlo.reduce")
def reduce(ctx, args):
    """reduce(x[b], init, dims) -> reduce(x, init, dims+1); a batched init is combined after
    a reduction from the kind's identity."""
    x_arg, init_arg = args
    kind = ctx.attr("kind")
    x = materialize(x_arg, ctx.size)
    dims = shifted(ctx.attr("dimensions"))
    if not init_arg.batched:
        return [hlo.reduce(x, init_arg.value, dims, kind)]
    acc = hlo.reduce(x, identity(kind, etype(x)), dims, kind)
    return [combine(kind, acc, init_arg.value)]


@batch_rule("hlo.argmax", "hlo.argmin")
def arg_reduce(ctx, args):
    """argmax/argmin(x[b], dimension d) -> argmax/argmin(x, d+1)."""
    build = hlo.argmax if ctx.op.name == "hlo.argmax" else hlo.argmin
    return [build(args[0].value, ctx.attr("dimension") + 1, etype(ctx.result))]


@batch_rule("hlo.reduce_window")
def reduce_window(ctx, args):
    """reduce_window(x[b], init) -> reduce_window(x, init) with window 1, stride 1, no padding
    on dim 0; a batched init pads x with it (low/high and base-dilation holes), then reduces
    from the identity and combines with init."""
    x_arg, init_arg = args
    kind = ctx.attr("kind")
    x = materialize(x_arg, ctx.size)
    rank = len(shape(x)) - 1
    window = [1] + ctx.attr("window_dimensions")
    strides = [1] + ctx.attr("window_strides", [1] * rank)
    base = ctx.attr("base_dilations", [1] * rank)
    dil = [1] + ctx.attr("window_dilations", [1] * rank)
    padding = ctx.attr("padding", [(0, 0)] * rank)
    if not init_arg.batched:
        return [hlo.reduce_window(x, init_arg.value, window, kind, strides, [1] + base, dil,
                                  [(0, 0)] + padding)]
    # Explicit padding with the per-example init, as the pad rule does for a batched value.
    zero = scalar_constant(etype(x), 0)
    low, high = [0] + [p[0] for p in padding], [0] + [p[1] for p in padding]
    inner = [0] + [b - 1 for b in base]
    padded = hlo.pad(x, zero, low, high, inner)
    i1 = ir.IntegerType.get_signless(1)
    mask = hlo.pad(hlo.broadcast_in_dim(scalar_constant(i1, 0), list(shape(x)), []),
                   scalar_constant(i1, 1), low, high, inner)
    fill = hlo.broadcast_in_dim(init_arg.value, list(shape(padded)), [0])
    padded = hlo.select(mask, fill, padded)
    acc = hlo.reduce_window(padded, identity(kind, etype(x)), window, kind, strides, None, dil, None)
    return [combine(kind, acc, init_arg.value)]


