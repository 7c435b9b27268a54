"""Contractions: dot_general and convolution.

Contract: operands are first converted to the result element type (hlo.convert's rules:
i8 -> i32 sign-extends, ui8 zero-extends, f16 -> f32 exactly), then products are summed
in the result type: integers wrap, i1 is or-of-ands. f16/f32 results are accumulated in
f64 and rounded once (the oracle is the nearly exact sum; compiled code rounds each step,
so compare within n * eps * sum(|x * y|)); f64 accumulates in f64.
"""

from __future__ import annotations

import numpy as np

from .conversion import convert_array
from .registry import evaluates, is_float_dtype
from .shape import pad_array


def _accumulation_dtype(dt: np.dtype) -> np.dtype:
    return np.dtype(np.float64) if is_float_dtype(dt) else dt


def _operands(ctx, lhs, rhs):
    dt = ctx.result_dtype()
    acc = _accumulation_dtype(dt)
    return convert_array(lhs, dt).astype(acc), convert_array(rhs, dt).astype(acc), dt


@evaluates("hlo.dot_general")
def _dot_general(ctx, lhs, rhs):
    """dot_general(x, y): sum over contracting dims of x * y; result dims batch, lhs free, rhs free."""
    a = ctx.attrs
    lb, rb = list(a["lhs_batching_dimensions"]), list(a["rhs_batching_dimensions"])
    lc, rc = list(a["lhs_contracting_dimensions"]), list(a["rhs_contracting_dimensions"])
    x, y, dt = _operands(ctx, lhs, rhs)
    lf = [d for d in range(x.ndim) if d not in lb and d not in lc]
    rf = [d for d in range(y.ndim) if d not in rb and d not in rc]
    size = lambda arr, dims: int(np.prod([arr.shape[d] for d in dims], dtype=np.int64))  # noqa: E731
    batch, m, k, n = size(x, lb), size(x, lf), size(x, lc), size(y, rf)
    x3 = np.transpose(x, lb + lf + lc).reshape(batch, m, k)
    y3 = np.transpose(y, rb + rc + rf).reshape(batch, k, n)
    product = np.matmul(x3, y3) if k else np.zeros((batch, m, n), x.dtype)
    return product.reshape(ctx.result_shape()).astype(dt)


@evaluates("hlo.convolution")
def _convolution(ctx, lhs, rhs):
    """convolution(x, w): cross-correlation with strides, padding, lhs/rhs dilation, feature or batch groups."""
    from ..dialects.hlo.shape_rules import convolution_layout
    from ..dialects.hlo.verify import signature_of
    c = convolution_layout(signature_of(ctx.op))
    x, w, dt = _operands(ctx, lhs, rhs)
    n = len(c.in_spatial)
    # Canonical layouts: x (N, C, S...), w (O, I, K...), result (N, O, S...).
    x = np.transpose(x, [c.in_batch, c.in_feature] + c.in_spatial)
    w = np.transpose(w, [c.k_out, c.k_in] + c.k_spatial)
    x = pad_array(x, np.zeros((), x.dtype), [0, 0] + [lo for lo, _ in c.padding],
                  [0, 0] + [hi for _, hi in c.padding], [0, 0] + [d - 1 for d in c.lhs_dilation])
    spans = [(k - 1) * d + 1 for k, d in zip(w.shape[2:], c.rhs_dilation)]
    out_canonical = [ctx.result_shape()[d] for d in [c.out_batch, c.out_feature] + c.out_spatial]
    result = np.zeros(out_canonical, x.dtype)
    if 0 not in out_canonical and 0 not in w.shape and 0 not in x.shape:
        windows = np.lib.stride_tricks.sliding_window_view(x, spans, axis=tuple(range(2, 2 + n)))
        windows = windows[(slice(None), slice(None)) + tuple(slice(None, None, s) for s in c.strides)
                          + tuple(slice(None, None, d) for d in c.rhs_dilation)]
        groups, batch_groups = c.feature_groups, c.batch_groups
        i_group, o_group = w.shape[1], w.shape[0] // max(groups, batch_groups)
        b_group = x.shape[0] // batch_groups
        letters = "defghijklm"[:n]  # not c, n, o (the fixed dims)
        spec = f"nc{letters.upper()}{letters},oc{letters}->no{letters.upper()}"
        for g in range(max(groups, batch_groups)):
            xs = windows[g * b_group:(g + 1) * b_group] if batch_groups > 1 else windows
            if groups > 1:
                xs = xs[:, g * i_group:(g + 1) * i_group]
            ws = w[g * o_group:(g + 1) * o_group]
            result[:, g * o_group:(g + 1) * o_group] = np.einsum(spec, xs, ws)
    back = np.argsort([c.out_batch, c.out_feature] + c.out_spatial)
    return np.transpose(result, back).astype(dt)
