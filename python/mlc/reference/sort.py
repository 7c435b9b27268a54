"""sort and argsort along one dimension.

Contract: always stable. Ascending puts NaN last (numpy's order); `descending` reverses
the comparison, so NaN comes first and equal elements keep their order. -0.0 and +0.0 are
equal. Integers compare by their own signedness, i1 as false < true.
"""

from __future__ import annotations

import numpy as np

from .registry import evaluates, is_float_dtype


def sort_order(x: np.ndarray, dim: int, descending: bool) -> np.ndarray:
    """The indices that stably sort x along `dim` (ascending NaN last; descending NaN first)."""
    moved = np.moveaxis(x, dim, -1)
    if not descending:
        order = np.argsort(moved, axis=-1, kind="stable")
    elif is_float_dtype(x.dtype):  # primary key: not NaN (NaN first); then -x ascending
        order = np.lexsort((np.negative(moved), ~np.isnan(moved)), axis=-1)
    else:  # ~x reverses the order of every integer type (and of i1) without overflow
        order = np.lexsort((np.invert(moved),), axis=-1)
    return np.moveaxis(order, -1, dim)


@evaluates("hlo.sort")
def _sort(ctx, x):
    """sort(x): stable along `dimension`; ascending NaN last, descending NaN first."""
    order = sort_order(x, ctx.attrs["dimension"], ctx.attrs.get("descending", False))
    return np.take_along_axis(x, order, axis=ctx.attrs["dimension"])


@evaluates("hlo.argsort")
def _argsort(ctx, x):
    """argsort(x): the stable sorting permutation along `dimension` (order of hlo.sort); with
    `limit` = k its first k entries along `dimension`."""
    dim = ctx.attrs["dimension"]
    order = sort_order(x, dim, ctx.attrs.get("descending", False))
    limit = ctx.attrs.get("limit")
    return order if limit is None else np.take(order, np.arange(limit), axis=dim)
