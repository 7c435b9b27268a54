"""More of jax.lax, composed from the op table and mlc.lax's control flow:

    switch(i, branches, *ops) : i clamped to [0, len - 1], then a balanced tree of cond
                                (scf.if) on i < mid
    select_n(which, *cases)   : a bool `which` is one hlo.select; an integer one a tree of
                                selects on which < mid (out-of-range: undefined in JAX; here
                                the nearest case)
    dynamic_slice / dynamic_update_slice : hlo.dynamic_slice / hlo.dynamic_update_slice
                                (starts clamped so the slice fits, as StableHLO)
    reduce(operands, init_values, computation, dimensions) : hlo.reduce when computation is
                                one of add/mul/max/min/and/or/xor (lax's, mlc.numpy's or the
                                operator module's), one operand at a time
    cumsum/cumprod/cummax/cummin(x, axis=0, reverse=False) : mlc.numpy's scans
    map(f, xs)                : scan without a carry
    rsqrt, erf, erfc, erf_inv, top_k, stop_gradient, exp, log, ... : see their modules
"""

from __future__ import annotations

import operator

import numpy as np

from ..dialects import hlo
from . import math as m
from .core import DEFAULT_INT, asarray, astype, broadcast_to, wrap
from .tracing import Tracer, emit


def switch(index, branches, *operands):
    """branches[clamp(index, 0, len - 1)](*operands)."""
    from .lax import cond
    branches = list(branches)
    if not branches:
        raise ValueError("switch: branches must be a non-empty sequence of functions")
    if not isinstance(index, Tracer):
        i = int(np.clip(int(index), 0, len(branches) - 1))
        return branches[i](*operands)
    if index.ndim != 0 or index.dtype.kind not in "iu":
        raise TypeError(f"switch: index must be a scalar integer, got {index.dtype}{list(index.shape)}")
    index = m.clip(astype(index, DEFAULT_INT), 0, len(branches) - 1)

    def tree(lo, hi):
        if hi - lo == 1:
            return branches[lo]
        mid = (lo + hi) // 2
        return lambda *ops: cond(m.less(index, mid), tree(lo, mid), tree(mid, hi), *ops)
    return tree(0, len(branches))(*operands)


def select_n(which, *cases):
    """cases[which] elementwise; which is bool (2 cases) or integer, scalar or of the cases' shape."""
    if not cases:
        raise ValueError("select_n: at least one case is required")
    cases = [asarray(c) for c in cases]
    if any(c.dtype != cases[0].dtype or c.shape != cases[0].shape for c in cases):
        raise TypeError("select_n: all cases must have the same shape and dtype, got "
                        f"{[f'{c.dtype}{list(c.shape)}' for c in cases]}")
    which = asarray(which)
    if which.shape not in ((), cases[0].shape):
        raise TypeError(f"select_n: which must be scalar or of shape {cases[0].shape}, got {which.shape}")
    if which.dtype == np.bool_:
        if len(cases) > 2:
            raise TypeError("select_n: a boolean which selects between at most two cases")
        if len(cases) == 1:
            return cases[0]
        return m.where(which, cases[1], cases[0])
    if which.dtype.kind not in "iu":
        raise TypeError(f"select_n: which must be boolean or integer, got {which.dtype}")

    def tree(lo, hi):
        if hi - lo == 1:
            return cases[lo]
        mid = (lo + hi) // 2
        return m.where(m.less(which, mid), tree(lo, mid), tree(mid, hi))
    return tree(0, len(cases))


def dynamic_slice(operand, start_indices, slice_sizes):
    x = asarray(operand)
    starts = _starts(start_indices, x.ndim, "dynamic_slice")
    sizes = [int(s) for s in slice_sizes]
    if len(sizes) != x.ndim or any(not 0 <= s <= d for s, d in zip(sizes, x.shape)):
        raise TypeError(f"dynamic_slice: slice_sizes {sizes} must give one size in [0, dim] per "
                        f"dimension of an operand of shape {x.shape}")
    return wrap(emit(hlo.dynamic_slice, x.value, [s.value for s in starts], sizes))


def dynamic_update_slice(operand, update, start_indices):
    x, u = asarray(operand), asarray(update)
    if u.ndim != x.ndim or any(a > b for a, b in zip(u.shape, x.shape)):
        raise TypeError(f"dynamic_update_slice: update shape {u.shape} must fit in operand shape {x.shape}")
    if u.dtype != x.dtype:
        if not u.weak:
            raise TypeError(f"dynamic_update_slice: update dtype {u.dtype} must equal operand dtype {x.dtype}")
        u = astype(u, x.dtype)
    starts = _starts(start_indices, x.ndim, "dynamic_update_slice")
    return wrap(emit(hlo.dynamic_update_slice, x.value, u.value, [s.value for s in starts]))


def dynamic_index_in_dim(operand, index, axis=0, keepdims=True):
    x = asarray(operand)
    axis = axis % x.ndim
    starts = [index if d == axis else 0 for d in range(x.ndim)]
    out = dynamic_slice(x, starts, [1 if d == axis else s for d, s in enumerate(x.shape)])
    if keepdims:
        return out
    from .shapes import squeeze
    return squeeze(out, axis)


def _starts(start_indices, ndim, name):
    if isinstance(start_indices, Tracer):
        start_indices = [start_indices[i] for i in range(start_indices.shape[0])] if start_indices.ndim else [start_indices]
    starts = [asarray(s) for s in start_indices]
    if len(starts) != ndim:
        raise TypeError(f"{name}: {len(starts)} start indices for an operand of rank {ndim}")
    for s in starts:
        if s.ndim != 0 or s.dtype.kind not in "iu":
            raise TypeError(f"{name}: start indices must be scalar integers, got {s.dtype}{list(s.shape)}")
    dtype = np.dtype(np.int64) if any(s.dtype.itemsize == 8 and not s.weak for s in starts) else DEFAULT_INT
    return [astype(s, dtype) for s in starts]


def _kind_of(computation) -> str | None:
    from . import lax as lax_module
    computation = getattr(computation, "__wrapped_eager__", computation)
    known = {lax_module.add: "add", lax_module.mul: "mul", lax_module.max: "max", lax_module.min: "min",
             m.add: "add", m.multiply: "mul", m.maximum: "max", m.minimum: "min",
             m.bitwise_and: "and", m.bitwise_or: "or", m.bitwise_xor: "xor",
             m.logical_and: "and", m.logical_or: "or", m.logical_xor: "xor",
             operator.add: "add", operator.mul: "mul", operator.and_: "and", operator.or_: "or",
             operator.xor: "xor"}
    for fn, kind in known.items():
        if computation is fn:
            return kind
    name = getattr(computation, "__name__", None)
    return {"add": "add", "mul": "mul", "max": "max", "min": "min", "bitwise_and": "and",
            "bitwise_or": "or", "bitwise_xor": "xor"}.get(name) if callable(computation) and \
        getattr(computation, "__module__", "").startswith("mlc.") else None


def reduce(operands, init_values, computation, dimensions):
    """jax.lax.reduce with a known monoid (add, mul, max, min, and, or, xor)."""
    from .pytree import flatten, unflatten
    kind = _kind_of(computation)
    if kind is None:
        raise NotImplementedError(f"lax.reduce: computation {computation!r} is not one of add, mul, max, "
                                  f"min, bitwise/logical and, or, xor (MLC's reduce takes a combiner "
                                  f"kind, not an arbitrary function)")
    ops, structure = flatten(operands)
    inits, init_structure = flatten(init_values)
    if len(ops) != len(inits):
        raise TypeError(f"lax.reduce: {len(ops)} operands but {len(inits)} init values")
    dims = [int(d) for d in dimensions]
    out = []
    for x, init in zip(ops, inits):
        x = asarray(x)
        init = asarray(init)
        if init.ndim != 0:
            raise TypeError("lax.reduce: init values must be scalars")
        if init.dtype != x.dtype:
            if not init.weak:
                raise TypeError(f"lax.reduce: operand dtype {x.dtype} and init dtype {init.dtype} differ")
            init = astype(init, x.dtype)
        if x.dtype == np.bool_ and kind in ("add", "mul", "max", "min"):
            kind_here = {"add": "or", "max": "or", "mul": "and", "min": "and"}[kind]
        else:
            kind_here = kind
        for d in dims:
            if not 0 <= d < x.ndim:
                raise ValueError(f"lax.reduce: dimension {d} is out of range for rank {x.ndim}")
        out.append(wrap(emit(hlo.reduce, x.value, init.value, dims, kind_here)))
    return unflatten(structure, out)


def _scan_fn(name):
    def fn(operand, axis: int = 0, reverse: bool = False):
        from . import scans
        return getattr(scans, name)(operand, axis=axis, reverse=reverse)
    fn.__name__ = name
    fn.__doc__ = f"jax.lax.{name}: the running {name[3:]} along axis (from the end if reverse)."
    return fn


cumsum, cumprod, cummax, cummin = (_scan_fn(n) for n in ("cumsum", "cumprod", "cummax", "cummin"))


def map(f, xs, *, batch_size=None):  # noqa: A001 - jax.lax's name
    """[f(x) for x in xs] along the leading axis, stacked: a scan without a carry."""
    from .lax import scan
    _, ys = scan(lambda carry, x: (carry, f(x)), (), xs)
    return ys


def stop_gradient(x):
    from ..autodiff.custom import stop_gradient as _stop
    return _stop(x)


def broadcast(operand, sizes):
    x = asarray(operand)
    return broadcast_to(x, tuple(int(s) for s in sizes) + x.shape)


def square(x):
    return m.multiply(x, x)


def integer_pow(x, y: int):
    x = asarray(x)
    y = int(y)
    if y == 0:
        return m.add(m.multiply(x, 0), 1)
    result, base, n = None, x, abs(y)
    while n:
        if n & 1:
            result = base if result is None else m.multiply(result, base)
        n >>= 1
        if n:
            base = m.multiply(base, base)
    return m.true_divide(1, result) if y < 0 else result


def iota(dtype, size: int):
    from .core import element_type
    return wrap(emit(hlo.iota, [int(size)], element_type(np.dtype(dtype)), 0))


def convert_element_type(operand, new_dtype):
    return astype(operand, new_dtype)


__all__ = ["switch", "select_n", "dynamic_slice", "dynamic_update_slice", "dynamic_index_in_dim", "reduce",
           "cumsum", "cumprod", "cummax", "cummin", "map", "stop_gradient", "broadcast", "square",
           "integer_pow", "iota", "convert_element_type"]
